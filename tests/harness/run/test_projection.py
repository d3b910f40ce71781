"""A target's stated projection (`refold.run.projection`): the pattern grammar, the validation
of a declaration, the comparison restricted to the projected places, the rules it leaves
unjudged, the declaration read from a Python target, from a worker's hello and from an
exec: target's hello, and a target that states none compared exactly as before."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from _pointer_tables import pointer_table_of

from refold.dialects import DIALECTS, OPENAI_CHAT, OPENAI_RESPONSES, dialect
from refold.errors import UsageError
from refold.reference import JSON
from refold.run.checks import Check
from refold.run.projection import (
    Projection,
    judged_rules,
    projected_differences,
    projection_of,
    unjudged_rules,
)
from refold.targets import load_target
from refold.targets.python import from_object

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "examples" / "targets" / "protocol_server.py"

TEXT_ONLY = Projection(("/output/*/content/*/text",), "text only")
RESPONSE: dict[str, Any] = {
    "id": "resp_1",
    "model": "gpt-4.1",
    "status": "completed",
    "output": [
        {
            "type": "message",
            "id": "msg_1",
            "status": "completed",
            "content": [{"type": "output_text", "text": "Hi", "annotations": []}],
        },
        {"type": "function_call", "call_id": "call_1", "arguments": "{}"},
    ],
    "usage": {"input_tokens": 1, "output_tokens": 2},
}


def _projection(*pointers: str) -> Projection:
    return Projection(pointers, "a test library's result")


# the grammar


def test_a_star_is_any_one_index_or_key_and_a_pattern_covers_its_subtree() -> None:
    projection = _projection("/output/*/content/*/text", "/usage", "/meta/*/x")
    assert projection.covers("/output/0/content/3/text")
    assert projection.covers("/usage") and projection.covers("/usage/input_tokens")
    assert projection.covers("/meta/anything/x")
    assert not projection.covers("/output/0/content/3/annotations")
    assert not projection.covers("/output/0") and not projection.covers("/model")
    # a place above a pattern is reached: a missing item differs there
    assert projection.reaches("/output/0") and projection.reaches("/output")
    assert not projection.reaches("/output/0/status")


def test_reference_tokens_are_unescaped_as_rfc_6901_says() -> None:
    projection = _projection("/a~1b/c~0d")
    assert projection.covers("/a~1b/c~0d")
    assert projection.reduce({"a/b": {"c~d": 1, "e": 2}, "a": 3}) == {"a/b": {"c~d": 1}}


def test_reducing_keeps_the_covered_places_and_the_positions_of_arrays() -> None:
    reduced = TEXT_ONLY.reduce(RESPONSE)
    assert reduced == {"output": [{"content": [{"text": "Hi"}]}, {}]}
    # an array keeps its positions up to the last one a pattern reaches
    assert _projection("/a/1").reduce({"a": [10, 11, 12]}) == {"a": [None, 11]}
    # a scalar where a pattern goes on is compared as it is (a shape difference)
    assert TEXT_ONLY.reduce({"output": "oops"}) == {"output": "oops"}


# validation on load


@pytest.mark.parametrize(
    ("declared", "received"),
    [
        (["/id"], "a array"),
        ({"pointers": ["/id"]}, "without 'builds'"),
        ({"pointers": ["/id"], "builds": "x", "extra": 1}, "unknown keys 'extra'"),
        ({"pointers": [], "builds": "x"}, "`pointers` []"),
        ({"pointers": "/id", "builds": "x"}, '`pointers` "/id"'),
        ({"pointers": ["id"], "builds": "x"}, "a JSON pointer starts with `/`"),
        ({"pointers": [""], "builds": "x"}, "the whole fold"),
        ({"pointers": ["/a~2"], "builds": "x"}, "`~` not followed by 0 or 1"),
        ({"pointers": [3], "builds": "x"}, "`pointers[0]` 3: a int, not a string"),
        ({"pointers": ["/id", "/id"], "builds": "x"}, "lists a pattern twice"),
        ({"pointers": ["/id"], "builds": " "}, '`builds` " "'),
    ],
)
def test_a_malformed_projection_is_one_paragraph_naming_what_where_and_the_form(
    declared: object, received: str
) -> None:
    with pytest.raises(UsageError) as raised:
        projection_of(declared, origin="refold_target of mylib")
    message = str(raised.value)
    assert message.startswith("refold_target of mylib declares a projection that is ")
    assert received in message, message
    assert "Expected an object" in message and "docs/protocol.md" in message
    assert "\n" not in message


def test_a_python_declaration_is_validated_when_the_target_is_loaded() -> None:
    declaration = {
        "name": "mylib",
        "dialect": "openai-responses",
        "fold": _fold_reference,
        "projection": {"pointers": ["output"], "builds": "x"},
    }
    with pytest.raises(
        UsageError,
        match='refold_target of mylib declares a projection that is `pointers\\[0\\]` "output"',
    ):
        from_object(declaration, name="mylib")


def test_an_events_adapter_takes_no_projection() -> None:
    declaration = {
        "name": "adapter",
        "adapter": object,
        "accepts": ["openai-chat"],
        "projection": {"pointers": ["/events"], "builds": "x"},
    }
    with pytest.raises(UsageError, match="dialect provider-events lists no places"):
        from_object(declaration, name="adapter")


def _fold_reference(events: list[JSON]) -> dict[str, Any]:
    return OPENAI_RESPONSES.fold(events)


# the comparison


def test_differences_outside_the_projection_are_not_differences() -> None:
    received = {
        **RESPONSE,
        "model": "other",
        "output": [
            {
                **RESPONSE["output"][0],
                "status": None,
                "content": [{"type": "output_text", "text": "Hi!"}],
            }
        ],
    }
    whole = {d.pointer for d in OPENAI_RESPONSES.differences(RESPONSE, received)}
    assert {"/model", "/output/0/status", "/output/1"} <= whole
    found = projected_differences(OPENAI_RESPONSES, TEXT_ONLY, RESPONSE, received)
    # the text is compared, and the missing item still differs (above a pattern)
    assert [d.pointer for d in found] == ["/output/0/content/0/text", "/output/1"]


def test_check_compares_within_the_projection_of_its_target() -> None:
    target = from_object(
        {
            "name": "t",
            "dialect": "openai-responses",
            "fold": _fold_reference,
            "projection": {"pointers": ["/output/*/content/*/text"], "builds": "text"},
        },
        name="t",
    )
    check = Check(target)
    check.rules = ("RS-TEXT-JOIN",)
    received = {**RESPONSE, "usage": None, "status": "failed"}
    assert check.differences(RESPONSE, received) == []
    assert check.differences(RESPONSE, {**RESPONSE, "output": []}) != []
    # the stream's items are no fold: never projected
    assert check.item_differences([{"a": 1}], [{"a": 2}]) != []


def test_a_target_without_projection_is_compared_whole_as_before() -> None:
    target = load_target("reference", dialect=OPENAI_RESPONSES)
    assert target.projection is None
    check = Check(target)
    received = {**RESPONSE, "model": "other", "output": []}
    assert check.differences(RESPONSE, received) == OPENAI_RESPONSES.differences(RESPONSE, received)
    assert judged_rules(OPENAI_RESPONSES, None) == frozenset(OPENAI_RESPONSES.rules)
    assert unjudged_rules(OPENAI_RESPONSES, None) == frozenset()


# the rules left unjudged


def test_rules_owning_only_places_outside_the_projection_are_not_judged() -> None:
    unjudged = unjudged_rules(OPENAI_RESPONSES, TEXT_ONLY)
    assert {
        "RS-USAGE-TERMINAL",
        "RS-RECOVER-STATUS",
        "RS-ERROR-EVENT",
        "RS-CALL-IDS",
        "RS-ANNOTATIONS",
        "RS-OBJECT",
    } <= unjudged
    judged = judged_rules(OPENAI_RESPONSES, TEXT_ONLY)
    assert {"RS-TEXT-JOIN", "RS-OUTPUT-ORDER", "RS-KEEPALIVE"} <= judged  # above, pointerless
    assert judged | unjudged == set(OPENAI_RESPONSES.rules) and not judged & unjudged


def test_a_projected_place_the_table_leaves_to_its_default_owners_judges_them() -> None:
    # /model is named by no row of the Responses table: the terminal's keys as sent
    assert "RS-TERMINAL-BASE" in judged_rules(OPENAI_RESPONSES, _projection("/model"))
    chat = unjudged_rules(OPENAI_CHAT, _projection("/choices/*/message/content"))
    assert "TEXT-JOIN" not in chat and {"USAGE-LAST", "TOOL-NAME", "ENV-ID"} <= chat


@pytest.mark.parametrize("name", [n for n, d in DIALECTS.items() if d.places])
def test_every_row_of_a_dialects_table_has_a_place(name: str) -> None:
    one = dialect(name)
    table = pointer_table_of(one)
    for pattern, _rules in table.rows:
        assert any(pattern.fullmatch(place) for place in one.places), pattern.pattern
    assert any(one.rules_at(place) == table.outside for place in one.places)


# the declaration over the protocol


def test_a_worker_says_the_projection_of_its_python_target_in_hello(tmp_path: Path) -> None:
    path = tmp_path / "projected.py"
    path.write_text(
        textwrap.dedent("""
        from refold.reference.responses import fold

        refold_target = {"name": "projected", "dialect": "openai-responses", "fold": fold,
                         "projection": {"pointers": ["/output/*/content/*/text"],
                                        "builds": "text only"}}
    """),
        encoding="utf-8",
    )
    target = load_target(str(path), isolated=True)
    try:
        assert target.hello["projection"] == {
            "pointers": ["/output/*/content/*/text"],
            "builds": "text only",
        }
        assert target.projection == Projection(("/output/*/content/*/text",), "text only")
    finally:
        target.close()


def _server(projection: object) -> str:
    return "exec:" + shlex.join(
        [sys.executable, str(SERVER), "--projection", json.dumps(projection)]
    )


def test_an_exec_target_states_its_projection_in_its_hello_reply() -> None:
    stated = {"pointers": ["/choices/*/message/content"], "builds": "a text string"}
    target = load_target(_server(stated))
    try:
        assert target.projection == Projection(("/choices/*/message/content",), "a text string")
        chunks: list[JSON] = [
            {"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "Hi"}}]}
        ]
        check = Check(target)
        check.rules = ("TEXT-JOIN",)
        folded = check.fold(chunks)
        assert check.differences({**folded, "model": "other"}, folded) == []
        assert "USAGE-LAST" in unjudged_rules(target.dialect, target.projection)
    finally:
        target.close()


def test_a_malformed_projection_in_hello_refuses_the_target() -> None:
    with pytest.raises(UsageError) as raised:
        load_target(_server({"pointers": ["choices"], "builds": "x"}))
    message = str(raised.value)
    assert '(its hello reply) declares a projection that is `pointers[0]` "choices"' in message
    assert "\n" not in message


def test_only_the_libraries_that_build_no_result_declare_a_projection() -> None:
    # Read from the sources: importing every SDK to look costs seconds each.
    import ast
    import importlib.util

    declaring = set()
    for path in sorted((ROOT / "harness" / "dialects").glob("*/targets/*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Dict)
                and any(isinstance(t, ast.Name) and t.id == "refold_target" for t in node.targets)
                and any(
                    isinstance(k, ast.Constant) and k.value == "projection" for k in node.value.keys
                )
            ):
                declaring.add(path.stem)
    # Gemini: google-genai keeps a chat history turn, LangChain a message, litellm a chat
    # completion; none builds a GenerateContentResponse.
    assert declaring == {
        "langchain_openai_responses",
        "litellm_responses",
        "google_genai",
        "langchain_google_genai",
        "litellm_gemini",
    }
    if importlib.util.find_spec("openai") is not None:  # one that builds a Response
        assert load_target("openai-responses").projection is None
