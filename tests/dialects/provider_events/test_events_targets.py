"""Events adapters as targets: in process, in a worker, and over refold-events/1.

An events target runs one stream (`{"begin": SOURCE}` + frames) and returns its whole
output with, per event, the frame it was emitted for; over the subprocess protocol that
number comes from the acks (events.md §5), so look-ahead is visible. A crash, a hang or
a garbage line fails the call with a TargetError and the next stream gets a fresh
process; declarations and hellos that cannot be checked are usage errors.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from refold.dialects import dialect
from refold.dialects.provider_events.adapters.python import EventsTarget
from refold.errors import TargetError, UsageError
from refold.targets import load_target
from refold.targets.confinement import Confinement, configure, current

EVENTS = dialect("provider-events")
CHAT_STREAM: list[Any] = [
    {"begin": "openai-chat"},
    {"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "Hi"}}]},
    {"id": "c1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    "[DONE]",
]

_PROTOCOL_ADAPTER = """
import json, os, sys, time
from refold.reference.events import Adapter, fold_turn
MODE = {mode!r}
def say(value):
    print(json.dumps(value), flush=True)
say({{"hello": {{"protocol": "refold-events/1", "dialects": ["openai-chat"],
        "features": ["events"], "operations": ["fold"]}}}})
adapter, held = None, []
for line in sys.stdin:
    m = json.loads(line); s = m.get("stream")
    if m["op"] == "begin":
        adapter = Adapter(m["dialect"])
    elif m["op"] == "frame":
        events = adapter.frame(m["frame"])
        if MODE == "garbage" and m["seq"] == 1:
            print("not json", flush=True)
        if MODE == "hang" and m["seq"] == 1:
            time.sleep(60)
        if MODE == "crash" and m["seq"] == 1:
            os._exit(3)
        if MODE == "look-ahead":
            events, held = held, events
        for e in events:
            say({{"stream": s, "event": e}})
        say({{"stream": s, "ack": m["seq"]}})
    elif m["op"] == "end":
        end = adapter.end()
        if MODE == "bad-outcome" and not os.path.exists(__file__ + ".once"):
            open(__file__ + ".once", "w").close()  # once: a fresh process answers well
            end["outcome"] = "fine"
        for e in held + end.pop("events"):
            say({{"stream": s, "event": e}})
        held = []
        say({{"stream": s, **end}})
        say({{"stream": s, "persisted": adapter.persisted()}})
    elif m["op"] == "fold":
        say({{"stream": s, "turn": fold_turn(m["events"])}})
"""


def _protocol_adapter(tmp_path: Path, mode: str = "") -> str:
    path = tmp_path / f"adapter_{mode or 'plain'}.py"
    path.write_text(_PROTOCOL_ADAPTER.format(mode=mode), encoding="utf-8")
    return f"exec:{sys.executable} {path}"


def _exec_target(tmp_path: Path, mode: str = "", timeout: float = 5.0) -> EventsTarget:
    target = load_target(_protocol_adapter(tmp_path, mode), dialect=EVENTS, timeout=timeout)
    assert isinstance(target, EventsTarget)
    return target


def test_the_reference_adapter_records_the_frame_each_event_was_emitted_for() -> None:
    target = load_target("reference", dialect=EVENTS)
    output = target.fold(CHAT_STREAM)
    assert [e["type"] for e in output["events"]] == ["TextDelta", "Opaque", "Completed"]
    assert output["emitted"] == [0, 1, 2]
    assert output["outcome"] == {"outcome": "completed"}


def test_a_worker_isolated_adapter_answers_as_the_in_process_one() -> None:
    in_process = load_target("reference", dialect=EVENTS).fold(CHAT_STREAM)
    isolated = load_target("reference", dialect=EVENTS, isolated=True)
    try:
        assert isinstance(isolated, EventsTarget)
        assert isolated.accepts == {
            "openai-chat",
            "openai-responses",
            "anthropic-messages",
            "gemini-generate-content",
        }
        assert isolated.fold(CHAT_STREAM) == in_process
        assert isolated.fold_events(in_process["events"])["output_text"] == "Hi"
    finally:
        isolated.close()


def test_a_protocol_adapter_is_greeted_and_runs_a_stream_with_an_ack_per_frame(
    tmp_path: Path,
) -> None:
    target = _exec_target(tmp_path)
    try:
        assert target.accepts == {"openai-chat"} and target.offers_fold
        output = target.fold(CHAT_STREAM)
        assert output["emitted"] == [0, 1, 2]
        assert output["persisted"]["outcome"] == {"outcome": "completed"}
        assert target.fold_events(output["events"])["output_text"] == "Hi"
    finally:
        target.close()


def test_look_ahead_shows_in_the_frame_an_event_was_acked_after(tmp_path: Path) -> None:
    target = _exec_target(tmp_path, "look-ahead")
    try:
        output = target.fold(CHAT_STREAM)
        # the TextDelta of frame 0 arrived only after frame 1 was sent
        assert output["events"][0]["type"] == "TextDelta"
        assert output["emitted"][0] == 1
    finally:
        target.close()


@pytest.mark.parametrize(
    ("mode", "kind"), [("garbage", "protocol"), ("crash", "crashed"), ("hang", "timeout")]
)
def test_a_broken_process_fails_the_stream_and_a_fresh_one_serves_the_next(
    tmp_path: Path, mode: str, kind: str
) -> None:
    target = _exec_target(tmp_path, mode, timeout=2.0)
    try:
        with pytest.raises(TargetError) as raised:
            target.fold(CHAT_STREAM)
        assert raised.value.kind == kind
        short = CHAT_STREAM[:2]  # one frame: the broken frame 1 is never sent
        assert target.fold(short)["outcome"]["outcome"] == "error"
    finally:
        target.close()


def test_an_outcome_of_the_wrong_shape_fails_its_stream_and_not_the_next(tmp_path: Path) -> None:
    before = current()  # the adapter notes, beside itself, that it answered badly once
    configure(Confinement(writable=(str(tmp_path),)))
    try:
        target = _exec_target(tmp_path, "bad-outcome")
    finally:
        configure(before)
    try:
        with pytest.raises(TargetError, match=r"expected \{\"outcome\"") as raised:
            target.fold(CHAT_STREAM)
        assert raised.value.kind == "protocol"
        # the persisted line of the failed stream is not read as the next stream's
        assert target.fold(CHAT_STREAM)["outcome"] == {"outcome": "completed"}
    finally:
        target.close()


def test_a_source_the_adapter_does_not_accept_is_refused(tmp_path: Path) -> None:
    target = _exec_target(tmp_path)
    try:
        with pytest.raises(
            TargetError, match="accepts openai-chat streams, not anthropic-messages"
        ):
            target.fold([{"begin": "anthropic-messages"}, {"type": "message_stop"}])
    finally:
        target.close()


def test_an_events_adapter_checked_as_a_fold_target_is_told_to_use_the_dialect(
    tmp_path: Path,
) -> None:
    with pytest.raises(UsageError, match="--dialect provider-events"):
        load_target(_protocol_adapter(tmp_path))


def test_a_process_that_does_not_greet_first_is_not_an_events_adapter(tmp_path: Path) -> None:
    script = tmp_path / "fold_target.py"
    script.write_text('print(\'{"ok": true, "seq": 1}\', flush=True)\n', encoding="utf-8")
    with pytest.raises(UsageError, match=r"did not say hello.*refold-events/1"):
        load_target(f"exec:{sys.executable} {script}", dialect=EVENTS)


def _declared(tmp_path: Path, body: str) -> str:
    path = tmp_path / "declared_adapter.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("declaration", "message"),
    [
        ('{"adapter": Adapter}', "`accepts` is None"),
        ('{"adapter": Adapter, "accepts": ["gemini"]}', "names gemini"),
        ('{"adapter": 3, "accepts": ["openai-chat"]}', "expected a class or factory"),
        (
            '{"adapter": Adapter, "accepts": ["openai-chat"], "features": ["text"]}',
            "unknown features",
        ),
    ],
)
def test_a_declaration_that_cannot_be_checked_is_a_usage_error(
    tmp_path: Path, declaration: str, message: str
) -> None:
    spec = _declared(
        tmp_path,
        f"""
        class Adapter:
            pass
        refold_target = {declaration}
    """,
    )
    with pytest.raises(UsageError, match=message):
        load_target(spec, dialect=EVENTS)


def test_an_adapter_that_raises_fails_with_the_call_it_raised_in(tmp_path: Path) -> None:
    spec = _declared(
        tmp_path,
        """
        class Adapter:
            def begin(self, dialect): pass
            def frame(self, frame): raise KeyError("choices")
            def end(self): return {"outcome": "completed"}
            def persisted(self): return None
        refold_target = {"adapter": Adapter, "accepts": ["openai-chat"]}
    """,
    )
    target = load_target(spec, dialect=EVENTS)
    with pytest.raises(TargetError, match=r"frame\(0\) raised KeyError"):
        target.fold(CHAT_STREAM)


def test_an_outcome_of_the_wrong_shape_is_a_protocol_failure(tmp_path: Path) -> None:
    spec = _declared(
        tmp_path,
        """
        class Adapter:
            def begin(self, dialect): pass
            def frame(self, frame): return []
            def end(self): return {"status": "ok"}
            def persisted(self): return None
        refold_target = {"adapter": Adapter, "accepts": ["openai-chat"]}
    """,
    )
    with pytest.raises(TargetError, match=r"expected .*outcome"):
        load_target(spec, dialect=EVENTS).fold(CHAT_STREAM)


def test_the_results_name_the_source_dialects_an_adapter_was_fed(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from refold.records.report import build_report
    from refold.records.results import RuleResults
    from refold.reports import render_html, render_markdown

    report = build_report(
        RuleResults(),
        target=load_target("reference", dialect=EVENTS),
        started=datetime.now(UTC),
        duration_seconds=0.0,
        hypothesis_profile="dev",
        dialect=EVENTS,
    )
    assert report["target"]["fed"] == [
        "anthropic-messages",
        "gemini-generate-content",
        "openai-chat",
        "openai-responses",
    ]
    results = json.loads(json.dumps(report))
    fed = "anthropic-messages, gemini-generate-content, openai-chat, openai-responses"
    assert f"fed {fed} streams" in render_html(results)
    assert "fed " + fed.replace("-", r"\-") + " streams" in render_markdown(results)
