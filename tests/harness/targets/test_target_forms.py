"""The `--target` forms are written out once (`refold.targets.FORMS`); every list of them
is generated from that table, and `load_target` tries them in its order."""

import sys
from importlib.machinery import PathFinder
from pathlib import Path

import pytest

from refold.dialects import DIALECTS
from refold.errors import UsageError
from refold.targets import FORMS, Target, forms_help, forms_markdown, load_target
from refold.targets.forms import forms_sentence

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("page", ["README.md", "docs/targets.md"])
def test_the_table_of_target_forms_in_the_docs_is_the_forms_table(page: str) -> None:
    assert forms_markdown() in (ROOT / page).read_text(encoding="utf-8")


def test_the_target_option_help_names_every_form() -> None:
    help_text = forms_help()
    assert all(form.short in help_text for form in FORMS)


def test_an_unimportable_target_lists_every_form() -> None:
    with pytest.raises(UsageError) as raised:
        load_target("no_such_module_for_refold", isolated=False)
    assert forms_sentence() in str(raised.value)
    assert all(form.short in str(raised.value) for form in FORMS)


def _listed(names: list[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


# each dialect's built-in targets, in the order the registry lists the dialects
_PYTHON_SDKS = _listed([name for one in DIALECTS.values() for name in one.sdk_targets])
_NODE_SDKS = _listed(
    [name for one in DIALECTS.values() if not one.adapters for name in one.node_targets]
)
_NODE_ADAPTERS = _listed(
    [name for one in DIALECTS.values() if one.adapters for name in one.node_targets]
)


def _first(names: str) -> str:
    return names.split(", ")[0].strip("`")


@pytest.mark.parametrize(
    ("spec", "shape"),
    [
        ("reference", "`reference`"),
        ("exec:python -m x", "`exec:COMMAND`"),
        ("https://localhost:1/fold", "`http://host:port/path`"),
        (_first(_PYTHON_SDKS), _PYTHON_SDKS),
        (_first(_NODE_SDKS), _NODE_SDKS),
        (_first(_NODE_ADAPTERS), _NODE_ADAPTERS),
        ("examples/targets/declared.py", "`path/to/file.py`"),
        ("mypkg:attr", "`mypkg:attr`"),
        ("mypkg.sub", "`mypkg`, `mypkg.sub`"),
    ],
)
def test_each_target_value_takes_the_first_form_it_matches(spec: str, shape: str) -> None:
    assert next(form for form in FORMS if form.matches(spec)).shape == shape


def test_every_registered_sdk_target_is_a_builtin_form() -> None:
    names = [name for one in DIALECTS.values() for name in (*one.sdk_targets, *one.node_targets)]
    assert len(names) == len(set(names))
    for name in names:
        assert next(form for form in FORMS if form.matches(name)).shape in (
            _PYTHON_SDKS,
            _NODE_SDKS,
            _NODE_ADAPTERS,
        ), name


def test_only_python_forms_are_served_from_a_worker() -> None:
    out_of_process = {form.shape for form in FORMS if not form.python}
    assert out_of_process == {
        "`exec:COMMAND`",
        "`http://host:port/path`",
        _NODE_SDKS,
        _NODE_ADAPTERS,
    }


_SIBLING_TARGET = """
from {helper} import CONTENT


def fold(chunks):
    return {{"id": "c", "object": "chat.completion", "created": None, "model": None,
            "choices": [{{"index": 0, "finish_reason": "stop", "logprobs": None,
                         "message": {{"role": "assistant", "content": CONTENT}}}}]}}
"""


def _file_importing_a_sibling(tmp_path: Path, helper: str) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / f"{helper}.py").write_text('CONTENT = "from the sibling"\n', encoding="utf-8")
    target = folder / "target.py"
    target.write_text(_SIBLING_TARGET.format(helper=helper), encoding="utf-8")
    return target


def _folded_content(target: Target) -> object:
    try:
        return target.fold([{"id": "c", "choices": []}])["choices"][0]["message"]["content"]
    finally:
        target.close()


@pytest.mark.parametrize("isolated", [False, True], ids=["in-process", "isolated"])
def test_a_file_target_imports_the_modules_next_to_it(
    tmp_path: Path,
    isolated: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "path", [*sys.path])
    helper = f"refold_sibling_helper_{'isolated' if isolated else 'in_process'}"
    target = _file_importing_a_sibling(tmp_path, helper)
    assert _folded_content(load_target(str(target), isolated=isolated)) == "from the sibling"


def test_a_file_target_served_by_an_exec_worker_imports_the_modules_next_to_it(
    tmp_path: Path,
) -> None:
    target = _file_importing_a_sibling(tmp_path, "refold_sibling_helper_exec")
    spec = f"exec:{sys.executable} -m refold.targets.worker {target}"
    assert _folded_content(load_target(spec)) == "from the sibling"


def test_a_file_targets_folder_does_not_shadow_an_installed_module(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The folder goes last on sys.path: a sibling named like a module the harness or the
    # target imports (here the standard library's `colorsys`) must not replace it.
    monkeypatch.setattr(sys, "path", [*sys.path])
    folder = tmp_path / "shadowing"
    folder.mkdir()
    (folder / "colorsys.py").write_text("", encoding="utf-8")
    (folder / "helper_next_to_it.py").write_text("", encoding="utf-8")
    (folder / "target.py").write_text("def fold(chunks):\n    return {}\n", encoding="utf-8")
    load_target(str(folder / "target.py")).close()
    found = {name: PathFinder.find_spec(name) for name in ("colorsys", "helper_next_to_it")}
    assert all(spec is not None and spec.origin for spec in found.values())
    assert Path(str(found["colorsys"].origin)).parent != folder
    assert Path(str(found["helper_next_to_it"].origin)).parent == folder
