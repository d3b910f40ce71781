"""The `--target` forms are written out once (`refold.targets.FORMS`); every list of them
is generated from that table, and `load_target` tries them in its order."""

from pathlib import Path

import pytest

from refold.errors import UsageError
from refold.targets import FORMS, forms_help, forms_markdown, load_target
from refold.targets.forms import forms_sentence

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_table_of_target_forms_is_the_forms_table() -> None:
    assert forms_markdown() in README.read_text(encoding="utf-8")


def test_the_target_option_help_names_every_form() -> None:
    help_text = forms_help()
    assert all(form.short in help_text for form in FORMS)


def test_an_unimportable_target_lists_every_form() -> None:
    with pytest.raises(UsageError) as raised:
        load_target("no_such_module_for_refold", isolated=False)
    assert forms_sentence() in str(raised.value)
    assert all(form.short in str(raised.value) for form in FORMS)


@pytest.mark.parametrize(("spec", "shape"), [
    ("reference", "`reference`"),
    ("exec:python -m x", "`exec:COMMAND`"),
    ("https://localhost:1/fold", "`http://host:port/path`"),
    ("openai", "`openai`, `litellm`, `langchain`, `anthropic`, `anthropic-stream`, "
                "`langchain-anthropic`, `litellm-anthropic`"),
    ("anthropic-ts", "`anthropic-ts`, `ai-sdk-anthropic`"),
    ("examples/targets/declared.py", "`path/to/file.py`"),
    ("mypkg:attr", "`mypkg:attr`"),
    ("mypkg.sub", "`mypkg`, `mypkg.sub`"),
])
def test_each_target_value_takes_the_first_form_it_matches(spec: str, shape: str) -> None:
    assert next(form for form in FORMS if form.matches(spec)).shape == shape


def test_only_python_forms_are_served_from_a_worker() -> None:
    out_of_process = {form.shape for form in FORMS if not form.python}
    assert out_of_process == {"`exec:COMMAND`", "`http://host:port/path`",
                              "`anthropic-ts`, `ai-sdk-anthropic`"}
