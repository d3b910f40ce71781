"""The Responses targets of libraries that build no Response, langchain-openai
(`langchain-openai-responses`) and litellm's Responses bridge (`litellm-responses`), each
checked on the projection it declares (`refold.run.projection`: both folds reduced to the
places compared, as every suite compares them): each documented defect of issue 15
(research responses-fold.md, RQ table and §4) that the pinned version really has, pinned to
its RS rule with a minimal failing stream (one test per finding: the difference from the
reference fold at the pointer that rule owns, or the raise); and the research's claims the
installed library does not reproduce, shown as it behaves.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable

import pytest
from _responses_streams import (
    HELLO,
    HELLO_ITEM,
    added,
    call,
    call_events,
    created,
    message,
    message_events,
    output_text,
    terminal,
)

from refold.dialects import OPENAI_RESPONSES
from refold.dialects.openai_responses.attribution import rules_at
from refold.reference import JSON, Difference, JSONObject
from refold.reference.responses import differences
from refold.reference.responses import fold as reference
from refold.run.checks import Check, ConformanceFailure
from refold.run.projection import Projection, projected_differences, projection_of, unjudged_rules
from refold.targets import BUILTIN_TARGETS, load_target
from refold.verdicts.crashes import analyse

Fold = Callable[[list[JSON]], JSONObject]

_needs_langchain = pytest.mark.skipif(
    importlib.util.find_spec("langchain_openai") is None, reason="install refold[langchain]"
)
_needs_litellm = pytest.mark.skipif(
    importlib.util.find_spec("litellm") is None, reason="install refold[litellm]"
)

LANGCHAIN = "langchain-openai 1.7.4"
LITELLM = "litellm 1.110.2"

ANNOTATION: JSONObject = {
    "type": "url_citation",
    "url": "https://example.com",
    "title": "Ex",
    "start_index": 0,
    "end_index": 5,
}
ANNOTATED_ITEM = message("msg_1", output_text("Hello there", [ANNOTATION]))
REASONING_ITEM: JSONObject = {
    "type": "reasoning",
    "id": "rs_1",
    "summary": [],
    "content": [{"type": "reasoning_text", "text": "Think."}],
    "status": "completed",
}
TEXT_AND_REFUSAL = message(
    "msg_1", output_text("Hello there"), {"type": "refusal", "refusal": "I can't help with that."}
)
FAILED = terminal(
    "failed",
    output=[HELLO_ITEM],
    error={"code": "server_error", "message": "The server had an error."},
)


def _langchain() -> Fold:
    from refold.dialects.openai_responses.targets.langchain_openai_responses import fold

    return fold


def _litellm() -> Fold:
    from refold.dialects.openai_responses.targets.litellm_responses import fold

    return fold


def _projection(fold: Fold) -> Projection | None:
    """The projection the target of `fold` declares (its module's `refold_target`)."""
    import sys

    declared = sys.modules[fold.__module__].refold_target["projection"]
    return projection_of(declared, origin=fold.__module__)


def _differences(fold: Fold, events: list[JSON]) -> list[Difference]:
    """The differences of `fold` from the reference on `events`, as the suites see them:
    within the target's stated projection."""
    return projected_differences(
        OPENAI_RESPONSES, _projection(fold), reference(events), fold(events)
    )


def _pointers(fold: Fold, events: list[JSON]) -> set[str]:
    return {d.pointer for d in _differences(fold, events)}


def _at(fold: Fold, events: list[JSON], pointer: str, received: str, rule: str) -> None:
    """Assert that `fold` differs from the reference at `pointer`, where it has `received`
    (as the difference line shows it), and that `rule` owns that pointer."""
    found = {d.pointer: str(d) for d in _differences(fold, events)}
    assert pointer in found, found
    assert found[pointer].endswith(f"received {received}"), found[pointer]
    assert rule in rules_at(pointer)


def _raises(fold: Fold, events: list[JSON]) -> str:
    with pytest.raises(Exception) as raised:  # noqa: PT011 (which library error is the finding)
        fold(events)
    return f"{type(raised.value).__name__}: {raised.value}"


def _reasoning_events() -> list[JSON]:
    """A gpt-oss reasoning item: its text only in `reasoning_text` deltas; no done item and
    the terminal's output `[]` (so the streamed item is the result, RS-OUTPUT-RECOVER)."""
    empty = {
        **REASONING_ITEM,
        "content": [{"type": "reasoning_text", "text": ""}],
        "status": "in_progress",
    }
    return [
        created(),
        added(0, empty),
        {
            "type": "response.reasoning_text.delta",
            "item_id": "rs_1",
            "output_index": 0,
            "content_index": 0,
            "delta": "Think.",
        },
        terminal(output=[]),
    ]


@pytest.mark.parametrize(
    ("name", "module", "version"),
    [
        pytest.param(
            "langchain-openai-responses",
            "langchain_openai_responses",
            LANGCHAIN,
            marks=_needs_langchain,
        ),
        pytest.param("litellm-responses", "litellm_responses", LITELLM, marks=_needs_litellm),
    ],
)
def test_the_projection_targets_are_builtin_responses_targets(
    name: str, module: str, version: str
) -> None:
    assert (
        BUILTIN_TARGETS[name] == f"refold.dialects.openai_responses.targets.{module}:refold_target"
    )
    target = load_target(name)
    assert target.dialect.name == "openai-responses"
    assert version in target.description
    assert not target.features & {"lifecycle", "sse"}
    assert target.projection == _projection(_langchain() if "langchain" in name else _litellm())


# langchain-openai 1.7.4


@_needs_langchain
def test_langchain_projection_carries_the_stated_fields_and_no_item_status() -> None:
    # The stated projection: items as `_construct_responses_api_input` sends them back,
    # so an item's `status` is never there: outside the projection, no longer a
    # difference (it was one, charged to RS-RECOVER-STATUS), and that rule is not judged
    assert set(_langchain()(HELLO)) == {
        "id",
        "object",
        "created_at",
        "status",
        "model",
        "output",
        "usage",
    }
    assert "status" not in _langchain()(HELLO)["output"][0]
    assert _pointers(_langchain(), HELLO) == set()
    assert unjudged_rules(OPENAI_RESPONSES, _projection(_langchain())) == {
        "RS-RECOVER-STATUS",
        "RS-ERROR-EVENT",
    }


@_needs_langchain
def test_langchain_projection_leaves_out_the_terminal_keys_langchain_never_keeps() -> None:
    # `tools`, `temperature`, `instructions` of the terminal response: never in the
    # AIMessage, so no longer differences charged to RS-TERMINAL-BASE
    final = terminal(output=[HELLO_ITEM], tools=[], temperature=1.0, instructions="Be brief.")
    events = [created(), *message_events(0, HELLO_ITEM), final]
    assert {d.pointer for d in differences(reference(events), _langchain()(events))} == {
        "/tools",
        "/temperature",
        "/instructions",
        "/output/0/status",
    }
    assert _pointers(_langchain(), events) == set()


@_needs_langchain
def test_rs_done_replaces_langchain_reads_empty_arguments_sent_only_on_done() -> None:
    # RQ3: gpt-5.3-codex-spark sends no argument deltas; LangChain ignores args.done
    final = call()
    events = [created(), *call_events(0, final, deltas=False), terminal(output=[final])]
    _at(_langchain(), events, "/output/0/arguments", '""', "RS-DONE-REPLACES")


@_needs_langchain
def test_rs_terminal_repeat_langchain_concatenates_status_and_doubles_usage() -> None:
    # RQ19: response_metadata strings are concatenated and usage summed by `+`
    events = [*HELLO, HELLO[-1]]
    _at(_langchain(), events, "/status", '"completedcompleted"', "RS-TERMINAL-REPEAT")
    _at(_langchain(), events, "/usage/input_tokens", "24", "RS-TERMINAL-REPEAT")


@_needs_langchain
def test_rs_failed_langchain_raises_on_a_failed_response() -> None:
    # RQ18: `response.failed` raises ValueError instead of giving the failed Response
    assert _raises(_langchain(), [created(), *message_events(0, HELLO_ITEM), FAILED]).startswith(
        "ValueError: ResponseError(code='server_error'"
    )


@_needs_langchain
def test_rs_error_event_langchain_raises_on_an_error_event() -> None:
    # RQ18: a top-level `error` event finishes nothing, yet LangChain raises on it
    error: JSONObject = {
        "type": "error",
        "code": "rate_limit_exceeded",
        "message": "Slow down",
        "param": None,
    }
    assert (
        _raises(_langchain(), [*HELLO[:-1], error, HELLO[-1]])
        == "ValueError: rate_limit_exceeded: Slow down"
    )


@_needs_langchain
def test_rs_output_recover_langchain_raises_on_a_null_terminal_output() -> None:
    # RQ2: gateways send `output: null`; LangChain iterates it
    events = [created(), *message_events(0, HELLO_ITEM), terminal(output=None)]
    assert _raises(_langchain(), events) == "TypeError: 'NoneType' object is not iterable"


@_needs_langchain
def test_rs_refusal_langchain_drops_a_refusal_without_refusal_done() -> None:
    # RQ21: only `response.refusal.done` makes a refusal block; the deltas are ignored
    events = [created(), *message_events(0, TEXT_AND_REFUSAL, dones=False), terminal(output=[])]
    _at(_langchain(), events, "/output/0/content/1", "(absent)", "RS-REFUSAL")


@_needs_langchain
def test_rs_reasoning_text_langchain_drops_reasoning_text_deltas() -> None:
    # RQ20: no branch for `response.reasoning_text.delta` (gpt-oss reasoning content)
    _at(_langchain(), _reasoning_events(), "/output/0/content/0/text", '""', "RS-REASONING-TEXT")


# litellm 1.110.2 (the Responses bridge through CustomStreamWrapper)


@_needs_litellm
def test_litellm_projection_never_carries_the_streams_created_at_model_or_item_id() -> None:
    # litellm's chat -> Responses transformation names its own created time, the call's
    # model and a generated message id: outside the stated projection, no longer
    # differences (they were, charged to RS-TERMINAL-BASE), and every rule is still judged
    whole = {d.pointer for d in differences(reference(HELLO), _litellm()(HELLO))}
    assert whole == {"/created_at", "/model", "/output/0/id"}
    assert _pointers(_litellm(), HELLO) == set()
    assert unjudged_rules(OPENAI_RESPONSES, _projection(_litellm())) == frozenset()


@_needs_litellm
def test_rs_done_replaces_litellm_reads_empty_object_arguments_sent_only_on_done() -> None:
    # RQ3: no argument deltas (codex-spark); the bridge ignores args.done and defaults to {}
    final = call()
    events = [created(), *call_events(0, final, deltas=False), terminal(output=[final])]
    _at(_litellm(), events, "/output/0/arguments", '"{}"', "RS-DONE-REPLACES")


@_needs_litellm
def test_rs_refusal_litellm_drops_a_streamed_refusal() -> None:
    # RQ21: the bridge has no refusal branch; the refusal part is lost
    events = [created(), *message_events(0, TEXT_AND_REFUSAL), terminal(output=[TEXT_AND_REFUSAL])]
    _at(_litellm(), events, "/output/0/content/1", "(absent)", "RS-REFUSAL")


@_needs_litellm
def test_rs_annotations_litellm_drops_annotations() -> None:
    # RQ14: `response.output_text.annotation.added` is not translated
    events = [created(), *message_events(0, ANNOTATED_ITEM), terminal(output=[ANNOTATED_ITEM])]
    _at(_litellm(), events, "/output/0/content/0/annotations", "(absent)", "RS-ANNOTATIONS")


@_needs_litellm
def test_rs_reasoning_text_litellm_drops_reasoning_text_deltas() -> None:
    # RQ20: reasoning content becomes an empty message, its text lost
    _at(_litellm(), _reasoning_events(), "/output/0/type", '"message"', "RS-OUTPUT-RECOVER")


@_needs_litellm
def test_rs_call_ids_litellm_replaces_a_call_id_of_the_form_call_digits() -> None:
    # RQ11: `tool_call_id_from_responses_item` prefers the item id over `call_<digits>`
    final = call(call_id="call_1")
    events = [created(), *call_events(0, final), terminal(output=[final])]
    _at(_litellm(), events, "/output/0/call_id", '"fc_1"', "RS-CALL-IDS")


@_needs_litellm
def test_rs_usage_terminal_litellm_invents_usage_when_the_terminal_has_none() -> None:
    # RQ16: with no usage on the terminal, litellm counts tokens itself
    events = [created(), *message_events(0, HELLO_ITEM), terminal(output=[HELLO_ITEM])]
    events[-1]["response"].pop("usage")
    found = {d.pointer: str(d) for d in _differences(_litellm(), events)}
    assert found["/usage"].startswith("at /usage: expected (absent), received {")
    assert "RS-USAGE-TERMINAL" in rules_at("/usage")


@_needs_litellm
def test_rs_output_recover_litellm_raises_on_a_null_terminal_output() -> None:
    # RQ2: `output: null` is iterated (wrapped by litellm's stream as a mid-stream error)
    events = [created(), *message_events(0, HELLO_ITEM), terminal(output=None)]
    assert "'NoneType' object is not iterable" in _raises(_litellm(), events)


@_needs_litellm
def test_rs_failed_litellm_raises_through_its_stream_and_reports_stop_without_it() -> None:
    # RQ18: what litellm.completion returns (CustomStreamWrapper) raises on response.failed;
    # the bare bridge folded by stream_chunk_builder (the research's probe) reports `stop`
    import litellm
    from litellm.completion_extras.litellm_responses_transformation.transformation import (
        OpenAiResponsesToChatCompletionStreamIterator,
    )

    events = [created(), *message_events(0, HELLO_ITEM), FAILED]
    assert "Stream ended before a finish_reason was received" in _raises(_litellm(), events)
    lines = iter(["data: " + json.dumps(event) for event in events])
    bare = litellm.stream_chunk_builder(
        list(
            OpenAiResponsesToChatCompletionStreamIterator(
                streaming_response=lines, sync_stream=True
            )
        )
    )
    assert bare is not None and bare.choices[0].finish_reason == "stop"


@_needs_litellm
def test_rs_terminal_repeat_litellm_takes_the_last_terminal() -> None:
    # RQ19 not reproduced for litellm: a repeated terminal is not summed
    assert _pointers(_litellm(), [*HELLO, HELLO[-1]]) == set()


@_needs_litellm
def test_rs_error_event_litellm_ignores_an_error_event() -> None:
    # Not a defect: the `error` event becomes an empty chunk; the terminal still decides
    error: JSONObject = {
        "type": "error",
        "code": "rate_limit_exceeded",
        "message": "Slow down",
        "param": None,
    }
    assert _pointers(_litellm(), [*HELLO[:-1], error, HELLO[-1]]) == set()


@_needs_langchain
@pytest.mark.parametrize(
    ("events", "charged"),
    [
        # RQ18: undone as completed with a null error, the failed response folds
        (
            [created(), *message_events(0, HELLO_ITEM), FAILED],
            ("RS-TERMINAL-EVENTS", "RS-FAILED"),
        ),
        # RQ2: given the recovered items as its output, the terminal folds
        (
            [created(), *message_events(0, HELLO_ITEM), terminal(output=None)],
            ("RS-OUTPUT-RECOVER",),
        ),
    ],
)
def test_a_langchain_raise_is_charged_to_the_departure_it_needs(
    events: list[JSON], charged: tuple[str, ...]
) -> None:
    # the raise is the departure's rule's, so the test's other rules are blocked, not failed
    target = load_target("langchain-openai-responses")
    try:
        check = Check(target)
        check.rules = ("RS-TEXT-JOIN", *charged)
        with pytest.raises(ConformanceFailure) as raised:
            check.folds_to(events, reference(events))
        failure = raised.value
        assert failure.crash is not None
        analyse(failure.crash, failure.chunks or [], target)
        assert failure.implicated == charged
        assert failure.blocked == ("RS-TEXT-JOIN",)
    finally:
        target.close()
