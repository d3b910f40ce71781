"""Every Python target form loads, is detected as its richest interface, and misbehaviour
becomes a TargetError that names what happened."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from refold.dialects import dialect
from refold.errors import TargetError, UsageError
from refold.targets import load_target

ALL_FOLD_FEATURES = dialect("openai-chat").fold_features
"""What a chat fold-only target is checked on when it declares nothing."""

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "targets"
CHUNKS = [
    {"id": "c1", "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": "stop"}]}
]


def _module(tmp_path: Path, name: str, source: str) -> str:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return name


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_module_with_an_accumulator_class_is_checked_on_every_feature(on_path: Path) -> None:
    name = _module(
        on_path,
        "acc_mod",
        """
        from refold.reference.chat import Accumulator
        def fold(chunks):
            raise AssertionError("the richer accumulator must be used")
    """,
    )
    target = load_target(name)
    assert target.features == ALL_FOLD_FEATURES | {"lifecycle"}
    assert target.fold(CHUNKS)["choices"][0]["message"]["content"] == "Hi"


def test_module_colon_attribute_loads_that_attribute(on_path: Path) -> None:
    name = _module(
        on_path,
        "attr_mod",
        """
        from refold.reference.chat import fold as my_fold
    """,
    )
    target = load_target(f"{name}:my_fold")
    assert "lifecycle" not in target.features
    assert target.fold(CHUNKS)["id"] == "c1"


def test_a_python_file_path_loads_as_a_module() -> None:
    target = load_target(str(EXAMPLES / "declared.py"))
    assert target.name == "declared-example"
    assert target.features == {"text", "choices", "tool_calls", "usage", "lifecycle"}


def test_a_fold_only_target_cannot_claim_lifecycle() -> None:
    with pytest.raises(UsageError, match="lifecycle"):
        load_target(str(EXAMPLES / "fold_only.py"), features=frozenset({"text", "lifecycle"}))


def test_every_claim_must_include_text() -> None:
    with pytest.raises(UsageError, match="`text`"):
        load_target("reference", features=frozenset({"usage"}))


def test_an_unknown_feature_is_refused_with_the_vocabulary() -> None:
    with pytest.raises(UsageError, match="vocabulary"):
        load_target("reference", features=frozenset({"text", "telepathy"}))


def test_a_module_offering_nothing_says_what_it_found_and_what_was_expected(
    on_path: Path,
) -> None:
    name = _module(
        on_path,
        "empty_mod",
        """
        class Folder:
            def push(self, chunk): ...
        def combine(chunks, extra): ...
    """,
    )
    with pytest.raises(UsageError) as excinfo:
        load_target(name)
    message = str(excinfo.value)
    assert "class Folder (methods: push)" in message
    assert "function combine(chunks, extra)" in message
    assert "fold(chunks) function" in message


def test_a_factory_whose_product_lacks_response_is_refused(on_path: Path) -> None:
    name = _module(
        on_path,
        "factory_mod",
        """
        class Half:
            def add(self, chunk): ...
        def make():
            return Half()
    """,
    )
    with pytest.raises(UsageError, match=r"without response\(\).*It has: add"):
        load_target(f"{name}:make")


def test_an_import_error_in_a_target_file_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("raise RuntimeError('boom')\n", encoding="utf-8")
    with pytest.raises(UsageError, match="RuntimeError: boom"):
        load_target(str(path))


def test_a_raising_target_fails_with_the_exception_named(on_path: Path) -> None:
    name = _module(
        on_path,
        "raising_mod",
        """
        def fold(chunks):
            raise KeyError("choices")
    """,
    )
    with pytest.raises(TargetError, match="raised KeyError") as excinfo:
        load_target(name).fold(CHUNKS)
    assert excinfo.value.kind == "raised"


def test_a_target_returning_a_non_object_fails_as_not_an_object(on_path: Path) -> None:
    name = _module(
        on_path,
        "list_mod",
        """
        def fold(chunks):
            return [chunks]
    """,
    )
    with pytest.raises(TargetError, match="returned list, expected a JSON object") as excinfo:
        load_target(name).fold(CHUNKS)
    assert excinfo.value.kind == "not-an-object"


def test_a_target_mutating_its_input_is_caught(on_path: Path) -> None:
    name = _module(
        on_path,
        "mutating_mod",
        """
        from refold.reference.chat import fold as _fold
        def fold(chunks):
            chunks[0]["id"] = "changed"
            return _fold(chunks)
    """,
    )
    with pytest.raises(TargetError, match="mutated chunk 0") as excinfo:
        load_target(name).fold(CHUNKS)
    assert excinfo.value.kind == "mutated-input"
    assert CHUNKS[0]["id"] == "c1"


def test_an_accumulator_changing_a_kept_chunk_during_a_later_add_is_caught(on_path: Path) -> None:
    name = _module(
        on_path,
        "keeping_mod",
        """
        from refold.reference.chat import Accumulator
        class Keeping(Accumulator):
            def __init__(self):
                super().__init__()
                self.kept = []
            def add(self, chunk):
                if self.kept:
                    self.kept[0]["model"] = "rewritten"
                self.kept.append(chunk)
                super().add(chunk)
        refold_target = {"name": "keeping", "factory": Keeping}
    """,
    )
    accumulator = load_target(name).accumulator()
    for chunk in [*CHUNKS, {"choices": []}]:
        accumulator.add(chunk)
    with pytest.raises(TargetError, match="mutated chunk 0") as excinfo:
        accumulator.response()
    assert excinfo.value.kind == "mutated-input"


def test_a_chunk_mutated_during_its_own_add_is_named_by_its_chunk_number(on_path: Path) -> None:
    name = _module(
        on_path,
        "own_mod",
        """
        from refold.reference.chat import Accumulator
        class Own(Accumulator):
            def add(self, chunk):
                if chunk.get("choices") == []:
                    chunk["id"] = "changed"
                super().add(chunk)
        refold_target = {"name": "own", "factory": Own}
    """,
    )
    accumulator = load_target(name).accumulator()
    accumulator.add(CHUNKS[0])
    with pytest.raises(TargetError, match="mutated chunk 1 it was given"):
        accumulator.add({"choices": []})


def test_a_registered_entry_point_name_loads_its_target(tmp_path: Path) -> None:
    _module(
        tmp_path,
        "vendor_fold",
        """
        from refold.reference.chat import Accumulator
        refold_target = {"name": "vendor", "factory": Accumulator,
                         "features": ["text", "usage"]}
    """,
    )
    dist_info = tmp_path / "vendor_fold-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: vendor-fold\nVersion: 1.0\n", encoding="utf-8"
    )
    (dist_info / "entry_points.txt").write_text(
        "[refold.targets]\nvendor = vendor_fold:refold_target\n", encoding="utf-8"
    )
    program = (
        "from refold.targets import load_target\n"
        "t = load_target('vendor')\n"
        "print(t.name, sorted(t.features), t.fold([{'id': 'x'}])['id'])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", program],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["vendor", "['text',", "'usage']", "x"]


def test_a_python_target_without_an_sse_decoder_cannot_claim_sse(on_path: Path) -> None:
    name = _module(
        on_path,
        "no_decoder_mod",
        """
        from refold.reference.chat import Accumulator
        refold_target = {"name": "no-decoder", "factory": Accumulator,
                         "features": ["text", "sse"]}
    """,
    )
    with pytest.raises(UsageError, match=r"target no-decoder claims \['sse'\].*SSE decoder"):
        load_target(name)


def test_a_declared_sse_decoder_is_kept_and_claims_sse_by_default(on_path: Path) -> None:
    name = _module(
        on_path,
        "decoder_mod",
        """
        from refold.reference.chat import fold
        from refold.targets.sdk.decoders import decode_reference
        refold_target = {"name": "with-decoder", "fold": fold, "sse": decode_reference}
    """,
    )
    target = load_target(name)
    assert target.features == ALL_FOLD_FEATURES | {"sse"}
    assert target.sse is not None
    assert [e.data for e in target.sse([b"data: a\n\n"]).events] == ["a"]


def test_an_sse_entry_that_is_not_callable_is_refused(on_path: Path) -> None:
    name = _module(
        on_path,
        "bad_decoder_mod",
        """
        from refold.reference.chat import fold
        refold_target = {"name": "bad", "fold": fold, "sse": "openai"}
    """,
    )
    with pytest.raises(UsageError, match="`sse` is a str, expected a decoder function"):
        load_target(name)


def test_the_reference_target_carries_the_reference_decoder_and_claims_sse() -> None:
    from refold.targets.sdk.decoders import decode_reference

    target = load_target("reference")
    assert target.sse is decode_reference
    assert target.features == ALL_FOLD_FEATURES | {"lifecycle", "sse"}


def test_a_target_without_a_decoder_claims_no_sse_by_default() -> None:
    target = load_target(str(EXAMPLES / "fold_only.py"))
    assert target.sse is None
    assert "sse" not in target.features
