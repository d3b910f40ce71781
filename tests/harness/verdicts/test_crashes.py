"""A crash is located (the chunk at which it raised) and charged by ablation to the rule
whose departure makes it go away; the test's other rules are blocked, and a crash no
single departure explains stays charged to the test's rules, saying so."""

from __future__ import annotations

from pathlib import Path

import pytest
from _crash_streams import SPARSE, SPARSE_CRASH, chunk

from refold.reference import JSON
from refold.run.checks import Check, ConformanceFailure
from refold.targets import Target, load_target
from refold.verdicts.crashes import analyse

_BROKEN = Path(__file__).resolve().parents[3] / "examples" / "broken"


@pytest.fixture(scope="module")
def sparse_crash(tmp_path_factory: pytest.TempPathFactory) -> Target:
    path = tmp_path_factory.mktemp("targets") / "sparse_crash.py"
    path.write_text(SPARSE_CRASH, encoding="utf-8")
    return load_target(str(path))


def _failure(check: Check, chunks: list[JSON], rules: tuple[str, ...]) -> ConformanceFailure:
    check.rules = rules
    with pytest.raises(ConformanceFailure) as excinfo:
        check.fold(chunks)
    return excinfo.value


def test_a_fold_that_raises_is_located_at_the_shortest_prefix_that_raises(
    sparse_crash: Target,
) -> None:
    failure = _failure(Check(sparse_crash), SPARSE, ("TEXT-JOIN",))
    assert failure.crash is not None and failure.crash.at_chunk is None
    analyse(failure.crash, SPARSE, sparse_crash)
    assert failure.crash.at_chunk == 2
    assert "raised at chunk 2 of 4 (fold(chunks))" in str(failure)


def test_a_crash_on_a_sparse_index_is_charged_to_tool_index_and_blocks_the_tests_rules(
    sparse_crash: Target,
) -> None:
    failure = _failure(Check(sparse_crash), SPARSE, ("TOOL-1-OPEN", "TEXT-JOIN"))
    assert set(failure.implicated) == {"TOOL-1-OPEN", "TEXT-JOIN"}  # not analysed yet
    analyse(failure.crash, SPARSE, sparse_crash)  # type: ignore[arg-type]
    assert failure.implicated == ("TOOL-INDEX",)
    assert failure.blocked == ("TOOL-1-OPEN", "TEXT-JOIN")  # in the test's order
    text = str(failure)
    assert text.startswith("TOOL-INDEX (tool_calls): the target failed (raised)")
    assert "charged to TOOL-INDEX: undoing its departure" in text
    assert "blocked by it, not judged: TOOL-1-OPEN, TEXT-JOIN" in text


def test_a_crash_no_departure_explains_stays_on_the_tests_rules_and_says_so(
    sparse_crash: Target,
    tmp_path: Path,
) -> None:
    path = tmp_path / "boom.py"
    path.write_text("def fold(chunks):\n    raise RuntimeError('boom')\n", encoding="utf-8")
    target = load_target(str(path))
    plain: list[JSON] = [
        chunk({"index": 0, "delta": {"role": "assistant", "content": "a"}}),
        chunk({"index": 0, "delta": {}, "finish_reason": "stop"}),
    ]
    failure = _failure(Check(target), plain, ("TEXT-JOIN", "CHOICE-FINISH"))
    analyse(failure.crash, plain, target)  # type: ignore[arg-type]
    assert failure.crash is not None and failure.crash.analysed
    assert failure.implicated == ("CHOICE-FINISH", "TEXT-JOIN") and failure.blocked == ()
    assert "unexplained crash: the stream has no departure from the plain shape" in str(failure)
    # A departure present whose undoing leaves the crash: unexplained too, naming it.
    failure = _failure(Check(target), SPARSE, ("TEXT-JOIN",))
    analyse(failure.crash, SPARSE, target)  # type: ignore[arg-type]
    assert failure.implicated == ("TEXT-JOIN",)
    assert (
        "unexplained crash: undoing any one of its departures from the plain shape (TOOL-INDEX)"
    ) in str(failure)


def test_an_accumulator_that_raises_in_add_is_located_at_that_chunk_and_charged() -> None:
    target = load_target(str(_BROKEN / "crash_on_null_choice.py"))
    check = Check(target)
    check.rules = ("TEXT-JOIN", "CHOICE-FINISH")
    chunks: list[JSON] = [
        chunk({"index": 0, "delta": {"content": "a"}}),
        chunk(None),
        chunk({"index": 0, "delta": {}, "finish_reason": "stop"}),
    ]
    accumulator = check.accumulator()
    accumulator.add(chunks[0])
    with pytest.raises(ConformanceFailure) as excinfo:
        accumulator.add(chunks[1])
    failure = excinfo.value
    assert failure.crash is not None and failure.crash.at_chunk == 2
    analyse(failure.crash, failure.chunks or [], target)
    assert failure.implicated == ("ROB-NULL-ENTRIES",)
    assert failure.blocked == ("TEXT-JOIN", "CHOICE-FINISH")
    assert "raised at chunk 2 of 2 (add(chunk))" in str(failure)


def test_a_crash_costs_a_bounded_number_of_target_calls(sparse_crash: Target) -> None:
    calls: list[int] = []

    class Counting:
        name, features, description, sse = "counting", sparse_crash.features, "", None
        dialect = sparse_crash.dialect

        def fold(self, chunks: list[JSON]) -> JSON:
            calls.append(len(chunks))
            return sparse_crash.fold(chunks)

    stream = SPARSE * 8  # 32 chunks
    failure = _failure(Check(Counting()), stream, ("TEXT-JOIN",))  # type: ignore[arg-type]
    calls.clear()
    analyse(failure.crash, stream, Counting())  # type: ignore[arg-type]
    from refold.dialects.openai_chat.ablation import DEPARTURES

    assert len(calls) <= 6 + 3 * len(DEPARTURES) + 1  # bisecting 32, then 3 per departure


def test_a_crash_two_departures_each_make_is_charged_to_both(tmp_path: Path) -> None:
    path = tmp_path / "either.py"
    path.write_text(
        SPARSE_CRASH.replace(
            "    calls = {}\n",
            "    calls = {}\n    if any(None in (c.get('choices') or []) for c in chunks):\n"
            "        raise IndexError('list index out of range')\n",
        ),
        encoding="utf-8",
    )
    target = load_target(str(path))
    both = {**SPARSE[1], "choices": [None, *SPARSE[1]["choices"]]}
    stream = [SPARSE[0], both, *SPARSE[2:]]  # the two departures in the chunk that raises
    failure = _failure(Check(target), stream, ("TEXT-JOIN",))
    analyse(failure.crash, stream, target)  # type: ignore[arg-type]
    # Undoing either departure leaves the other's crash; each alone makes it.
    assert failure.implicated == ("TOOL-INDEX", "ROB-NULL-ENTRIES")
    assert failure.crash is not None and failure.crash.found_by == "alone"
    assert "each of their departures alone" in str(failure)


def test_a_crash_after_a_refused_item_is_replayed_without_it_and_charged() -> None:
    # the failure's stream shows the refused item (its shape is the one sent); the
    # replay leaves it out: the reference folds no such item, the target refused it
    target = load_target(str(_BROKEN / "crash_on_null_choice.py"))
    check = Check(target)
    check.rules = ("ROB-NOT-OBJECT",)
    accumulator = check.accumulator()
    accumulator.add(chunk({"index": 0, "delta": {"content": "a"}}))
    assert accumulator.add_raw(None) is not None  # refused
    with pytest.raises(ConformanceFailure) as excinfo:
        accumulator.add(chunk(None))
    failure = excinfo.value
    assert failure.chunks is not None and failure.chunks[1] is None
    assert failure.crash is not None and failure.crash.refused == (1,)
    assert failure.crash.at_chunk == 3
    analyse(failure.crash, failure.chunks, target)
    assert failure.implicated == ("ROB-NULL-ENTRIES",)
    assert failure.blocked == ("ROB-NOT-OBJECT",)
    assert "raised at chunk 3 of 3 (add(chunk))" in str(failure)


def test_a_crash_that_needs_the_refused_item_stays_on_the_tests_rule(tmp_path: Path) -> None:
    # a target whose refusal breaks it: the next chunk raises, and only after the refusal
    path = tmp_path / "broken_by_refusal.py"
    path.write_text(
        "class Accumulator:\n"
        "    def __init__(self):\n"
        "        self.broken = False\n"
        "    def add(self, chunk):\n"
        "        if self.broken:\n"
        "            raise RuntimeError('the stream already failed')\n"
        "        if not isinstance(chunk, dict):\n"
        "            self.broken = True\n"
        "            raise TypeError('not an object')\n"
        "    def response(self):\n"
        "        return {}\n"
        "refold_target = {'factory': Accumulator,\n"
        "                 'features': ['text', 'tool_calls', 'robustness']}\n",
        encoding="utf-8",
    )
    target = load_target(str(path))
    check = Check(target)
    check.rules = ("ROB-NOT-OBJECT",)
    accumulator = check.accumulator()
    assert accumulator.add_raw(None) is not None
    with pytest.raises(ConformanceFailure) as excinfo:
        accumulator.add(SPARSE[1])  # a departure (TOOL-INDEX) whose undo changes nothing
    failure = excinfo.value
    assert failure.crash is not None
    analyse(failure.crash, failure.chunks or [], target)
    assert failure.crash.analysed and not failure.crash.explained
    assert failure.implicated == ("ROB-NOT-OBJECT",)
    assert "the crash needs the item the target refused before it" in str(failure)
