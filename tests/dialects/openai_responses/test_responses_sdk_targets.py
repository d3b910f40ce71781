"""The built-in Responses targets of openai-python (`openai-responses`) and openai-node
(`openai-node-responses`): each documented defect of issue 15 (research responses-fold.md,
RQ table and §4) that the pinned version really has, pinned to its RS rule with a minimal
failing stream, one test per finding; and what the research said that the installed library
does not do, shown as it is.

openai-python is driven through `client.responses.stream().get_final_response()` over an
in-memory transport, openai-node through `responses.stream().finalResponse()` over a custom
fetch, both fed the SSE bytes of the hand-written streams of
`tests/dialects/openai_responses/_responses_streams.py`.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections.abc import Callable, Iterator

import pytest
from _responses_streams import (
    HELLO,
    HELLO_ITEM,
    added,
    call,
    call_events,
    created,
    done,
    message_events,
    terminal,
)

from refold.reference import JSON, JSONObject
from refold.reference.responses import differences
from refold.reference.responses import fold as reference
from refold.targets import BUILTIN_TARGETS, Target, load_target
from refold.targets.sdk import nodejs

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("openai") is None, reason="install refold[openai] to check its targets"
)

PY_VERSION = "3.57.0"  # openai-python, the version the research read
NODE_VERSION = "7.5.0"  # openai (npm), pinned by harness/targets/sdk/node/package-lock.json

Fold = Callable[[list[JSON]], JSONObject]


def _python() -> Fold:
    from refold.dialects.openai_responses.targets.openai_responses import fold

    return fold


def _raises(fold: Fold, events: list[JSON]) -> str:
    """The `Type: message` of what `fold` raised for `events` (fails if it returned), where
    the reference folds them (RS-WRONG-TYPE: no JSON object makes the fold raise)."""
    reference(events)
    with pytest.raises(Exception) as raised:  # noqa: PT011 (which SDK error is the finding)
        fold(events)
    return f"{type(raised.value).__name__}: {raised.value}"


def test_the_targets_are_builtin_names_with_their_versions() -> None:
    from refold.dialects.openai_responses.targets.openai_responses import refold_target

    assert (
        BUILTIN_TARGETS["openai-responses"]
        == "refold.dialects.openai_responses.targets.openai_responses:refold_target"
    )
    assert refold_target["dialect"] == "openai-responses"
    assert f"openai-python {PY_VERSION}" in str(refold_target["description"])
    target = load_target("openai-responses")
    assert (target.dialect.name, target.features) == ("openai-responses", refold_target["features"])
    assert "lifecycle" not in target.features and "sse" in target.features
    assert (
        BUILTIN_TARGETS["openai-node-responses"]
        == f"exec:{nodejs.node_command('openai-node-responses')}"
    )
    package = json.loads((nodejs.NODE_DIR / "package.json").read_text())
    lock = json.loads((nodejs.NODE_DIR / "package-lock.json").read_text())
    assert package["dependencies"]["openai"] == NODE_VERSION
    assert lock["packages"]["node_modules/openai"]["version"] == NODE_VERSION


def test_openai_python_folds_openais_own_shape_to_the_terminal_response() -> None:
    result = _python()(HELLO)
    assert result == {**terminal(output=[HELLO_ITEM])["response"], "created_at": 1700000000.0}


def test_openai_python_decoder_passes_events_and_raises_on_a_top_level_error_key() -> None:
    from openai import APIError

    from refold.dialects.openai_responses.targets._wire import decode_responses, sse_frames

    assert decode_responses(sse_frames(HELLO)) == HELLO
    flat = {"type": "error", "code": "rate_limit", "message": "slow"}
    assert decode_responses(sse_frames([flat])) == [flat]
    with pytest.raises(APIError):
        decode_responses(sse_frames([{"type": "error", "error": {"message": "nested"}}]))


# openai-python 3.57.0: defects, one test per finding.


def test_rs_output_recover_openai_python_loses_every_item_when_completed_has_empty_output() -> None:
    # RQ1: the ChatGPT/Codex backend ends with `output: []`; the SDK recovers only from None
    events = [created(), *message_events(0, HELLO_ITEM), terminal(output=[])]
    assert reference(events)["output"] == [HELLO_ITEM]
    assert _python()(events)["output"] == []


def test_rs_output_recover_openai_python_raises_on_no_output_and_an_unfinished_item() -> None:
    # RQ2 + RQ4: terminal output null, the item never got output_item.done
    events = [created(), *message_events(0, HELLO_ITEM)[:-1], terminal(output=None)]
    assert "Cannot complete response with unfinished output items." in _raises(_python(), events)


def test_rs_orphan_openai_python_raises_on_content_before_output_item_added() -> None:
    # RQ5: gpt-oss / gateways send content events before (or without) the item
    events = [created(), *message_events(0, HELLO_ITEM)[1:], terminal(output=[HELLO_ITEM])]
    assert _raises(_python(), events) == (
        "RuntimeError: Received a content event for output index 0 before receiving its output item"
    )


def test_rs_terminal_events_openai_python_raises_on_response_incomplete() -> None:
    # RQ17: get_final_response() demands response.completed
    events = [
        created(),
        *message_events(0, HELLO_ITEM),
        terminal(
            "incomplete", output=[HELLO_ITEM], incomplete_details={"reason": "max_output_tokens"}
        ),
    ]
    assert (
        _raises(_python(), events) == "RuntimeError: Didn't receive a `response.completed` event."
    )


def test_rs_failed_openai_python_raises_on_response_failed() -> None:
    # RQ18: a failed response is a Response with `error`, not an exception
    events = [
        created(),
        terminal(
            "failed", output=[], usage=None, error={"code": "server_error", "message": "boom"}
        ),
    ]
    assert (
        _raises(_python(), events) == "RuntimeError: Didn't receive a `response.completed` event."
    )


def test_rs_key_output_index_openai_python_raises_when_the_item_id_rotates() -> None:
    # RQ7: GitHub Copilot rotates item ids per event; output_index stays stable
    events = [
        created(),
        *message_events(0, HELLO_ITEM)[:-1],
        done(0, {**HELLO_ITEM, "id": "msg_rotated"}),
        terminal(output=[HELLO_ITEM]),
    ]
    assert _raises(_python(), events) == "RuntimeError: Completed output item identity changed."


def test_rs_env_terminal_openai_python_raises_when_the_response_id_changes() -> None:
    # RQ8: lifecycle responses whose ids differ (unconfirmed on the wire, raised by the SDK)
    final = terminal(output=[HELLO_ITEM])
    final["response"]["id"] = "resp_2"
    events = [created(), *message_events(0, HELLO_ITEM), final]
    assert _raises(_python(), events) == "RuntimeError: Lifecycle response identity changed."


def test_rs_terminal_base_openai_python_keeps_a_completed_response_as_sent() -> None:
    # Not a defect: args only on .done (RQ3) and a repeated terminal (RQ19) are the terminal's
    final_call = call()
    events = [
        created(),
        *call_events(0, final_call, deltas=False),
        terminal(output=[final_call]),
        terminal(output=[final_call]),
    ]
    assert differences(reference(events), _python()(events)) == []


# openai-node 7.5.0 over exec: (refold's exec: target).


@pytest.fixture(scope="module")
def node() -> Iterator[Target]:
    if (
        shutil.which("node") is None
        or not (nodejs.NODE_DIR / "node_modules" / "openai" / "package.json").is_file()
    ):
        pytest.skip(f"needs node and the pinned npm packages: {nodejs.install_command()}")
    target = load_target("openai-node-responses")
    assert target.dialect.name == "openai-responses"
    assert f"openai {NODE_VERSION}" in target.description
    assert "lifecycle" not in target.features and "sse" in target.features
    yield target
    target.close()


def test_openai_node_folds_openais_own_shape_to_the_terminal_response(node: Target) -> None:
    assert node.fold(HELLO) == terminal(output=[HELLO_ITEM])["response"]


def test_rs_output_recover_openai_node_loses_every_item_when_completed_has_empty_output(
    node: Target,
) -> None:
    # RQ1: the snapshot is replaced by every lifecycle response, the terminal's `[]` included
    events = [created(), *message_events(0, HELLO_ITEM), terminal(output=[])]
    assert reference(events)["output"] == [HELLO_ITEM]
    assert node.fold(events)["output"] == []


def test_rs_orphan_openai_node_throws_on_content_before_output_item_added(node: Target) -> None:
    events = [created(), *message_events(0, HELLO_ITEM)[1:], terminal(output=[HELLO_ITEM])]
    assert "missing output at index 0" in _raises(node.fold, events)


def test_rs_keepalive_openai_node_throws_on_an_unknown_event_type(node: Target) -> None:
    # RQ24: sanitizeResponseEvent throws for any type outside its list (keepalive is in it)
    events = [created(), {"type": "response.vendor_progress"}, *HELLO[1:]]
    assert "Unhandled response stream event" in _raises(node.fold, events)
    assert node.fold([created(), {"type": "keepalive"}, *HELLO[1:]])["output"] == [HELLO_ITEM]


def test_rs_key_output_index_openai_node_keeps_items_whose_ids_rotate_on_deltas(
    node: Target,
) -> None:
    # RQ7 not reproduced: the research (git mirror 7b7d6ca7) read an item_id check, but the
    # published 7.5.0 build routes content events by output_index alone and does not raise
    events = [created(), *message_events(0, HELLO_ITEM), terminal(output=[HELLO_ITEM])]
    events[3] = {**events[3], "item_id": "msg_rotated"}
    assert differences(reference(events), node.fold(events)) == []


def test_rs_failed_openai_node_resolves_a_failed_response_with_its_error(node: Target) -> None:
    # Not a defect: node treats completed|failed|incomplete as terminal results (RQ17, RQ18)
    events = [
        created(),
        terminal(
            "failed", output=[], usage=None, error={"code": "server_error", "message": "boom"}
        ),
    ]
    result = node.fold(events)
    assert (result["status"], result["error"]) == (
        "failed",
        {"code": "server_error", "message": "boom"},
    )
    assert differences(reference(events), result) == []


def test_rs_output_recover_openai_node_throws_when_the_terminal_has_no_output(node: Target) -> None:
    # RQ2: gateways drop `output`; the replacement snapshot's output is iterated as a list
    events = [created(), *message_events(0, HELLO_ITEM), terminal(output=None)]
    events[-1]["response"].pop("output")
    assert "snapshot.output is not iterable" in _raises(node.fold, events)


def test_openai_node_decoder_yields_the_events_of_the_bytes(node: Target) -> None:
    from refold.dialects.openai_responses.targets._wire import sse_frames

    assert node.sse is not None
    assert node.sse([b"".join(sse_frames(HELLO))]) == HELLO


def test_the_builders_write_the_apis_shape() -> None:
    assert [e["type"] for e in HELLO] == [
        "response.created",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert added(0, HELLO_ITEM)["output_index"] == 0


def test_an_item_never_done_that_openai_python_raises_on_is_charged_to_recovery() -> None:
    # a deltas-only item (split family 4): the raise is RS-RECOVER-FROM-DELTAS's, found by
    # undoing it (the item handed over on output_item.done folds as the reference recovers
    # it), so the test's other rules are blocked by it, not failed
    from refold.run.checks import Check, ConformanceFailure
    from refold.verdicts.crashes import analyse

    events = [created(), *message_events(0, HELLO_ITEM)[:-1], terminal(output=[])]
    target = load_target("openai-responses")
    try:
        check = Check(target)
        check.rules = ("RS-TEXT-JOIN",)
        with pytest.raises(ConformanceFailure) as raised:
            check.folds_to(events, reference(events))
        failure = raised.value
        assert failure.crash is not None
        analyse(failure.crash, failure.chunks or [], target)
        assert failure.implicated == ("RS-RECOVER-FROM-DELTAS",)
        assert failure.blocked == ("RS-TEXT-JOIN",)
    finally:
        target.close()
