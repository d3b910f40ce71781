"""http:// events adapters: refold-events/1 with one POST a message, against loopback
services this module starts and stops (examples/targets/events_server.py, and hostile
twists of it).

A frame's events are the lines of its reply before its ack, so look-ahead is visible; a
service that answers garbage, too late, too much, compressed, or not at all fails the
stream under test, and the next stream simply tries again (a service is never restarted or
greeted again). A URL that is not an events adapter is a usage error of one paragraph.
"""

from __future__ import annotations

import contextlib
import gzip
import importlib.util
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from refold.cli import main
from refold.dialects import dialect
from refold.dialects.provider_events import SOURCES
from refold.dialects.provider_events.adapters.python import EventsTarget
from refold.errors import TargetError, UsageError
from refold.reference.events import check_events
from refold.targets import load_target

ROOT = Path(__file__).resolve().parents[3]
EVENTS = dialect("provider-events")
USAGE_ERROR = 4
CHAT_STREAM: list[Any] = [
    {"begin": "openai-chat"},
    {"id": "c1", "model": "m", "choices": [{"index": 0, "delta": {"content": "Hi"}}]},
    {"id": "c1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    "[DONE]",
]

Line = dict[str, Any]
# (handler, message, the service's reply lines) -> True when it answered itself
Twist = Callable[[BaseHTTPRequestHandler, Line, list[Line]], bool]


def _server_module() -> ModuleType:
    path = ROOT / "examples" / "targets" / "events_server.py"
    spec = importlib.util.spec_from_file_location("refold_example_events_server", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXAMPLE = _server_module()


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A twist that writes to a connection the harness gave up is expected."""


@contextlib.contextmanager
def _serving(server: ThreadingHTTPServer) -> Iterator[str]:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/events"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


class _Twisted:
    """The reference service, with `twist` given every message and its reply lines."""

    def __init__(self, twist: Twist) -> None:
        self.service = EXAMPLE.reference_service()
        self.twist = twist
        self.messages: list[Line] = []

    def server(self) -> ThreadingHTTPServer:
        outer = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            wbufsize = -1

            def do_POST(self) -> None:
                message = json.loads(self.rfile.read(int(self.headers["content-length"])))
                outer.messages.append(message)
                lines = outer.service.reply(message)
                if not outer.twist(self, message, lines):
                    reply(self, lines_body(lines))

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet."""

        return _QuietServer(("127.0.0.1", 0), _Handler)


def lines_body(lines: list[Line]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def reply(
    handler: BaseHTTPRequestHandler,
    body: bytes,
    status: int = 200,
    headers: tuple[tuple[str, str], ...] = (),
) -> None:
    handler.send_response(status)
    handler.send_header("content-length", str(len(body)))
    for name, value in headers:
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)


def _once_at_frame_1(answer: Callable[[BaseHTTPRequestHandler, list[Line]], None]) -> Twist:
    """A twist answering the first frame 1 it sees with `answer`, and nothing else."""
    done: list[bool] = []

    def twist(handler: BaseHTTPRequestHandler, message: Line, lines: list[Line]) -> bool:
        if message.get("op") != "frame" or message.get("seq") != 1 or done:
            return False
        done.append(True)
        answer(handler, lines)
        return True

    return twist


def _events_target(url: str, **options: Any) -> EventsTarget:
    target = load_target(url, dialect=EVENTS, **options)
    assert isinstance(target, EventsTarget)
    return target


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with _serving(EXAMPLE.http_server(EXAMPLE.reference_service())) as served:
        yield served


def test_an_events_service_is_asked_for_its_hello_and_runs_a_stream_with_an_ack_per_frame(
    url: str,
) -> None:
    target = _events_target(url)
    try:
        assert target.accepts == set(SOURCES) and target.offers_fold
        output = target.fold(CHAT_STREAM)
        assert output["emitted"] == [0, 1, 2]
        assert output["outcome"] == {"outcome": "completed"}
        assert target.fold_events(output["events"])["output_text"] == "Hi"
    finally:
        target.close()


def test_every_message_is_posted_as_events_md_writes_it_without_a_seq() -> None:
    service = _Twisted(lambda handler, message, lines: False)
    with _serving(service.server()) as served:
        target = _events_target(served)
        try:
            target.fold(CHAT_STREAM)
        finally:
            target.close()
    ops = [(m["op"], m.get("seq")) for m in service.messages]
    assert ops == [
        ("hello", None),
        ("begin", None),
        ("frame", 0),
        ("frame", 1),
        ("frame", 2),
        ("end", None),
    ]
    assert {m["stream"] for m in service.messages[1:]} == {service.messages[1]["stream"]}


def test_two_targets_of_one_service_number_their_streams_from_different_starts() -> None:
    service = _Twisted(lambda handler, message, lines: False)
    with _serving(service.server()) as served:
        for _ in range(2):
            target = _events_target(served)
            try:
                target.fold(CHAT_STREAM)
            finally:
                target.close()
    first, second = (m["stream"] for m in service.messages if m["op"] == "begin")
    assert first != second and first + 1 != second


def _held_back(
    handler: BaseHTTPRequestHandler, message: Line, lines: list[Line], held: dict[Any, list[Line]]
) -> bool:
    """Frame k's events only in the reply to frame k+1 (or to end)."""
    stream = message.get("stream")
    if message.get("op") == "frame":
        events, ack = lines[:-1], lines[-1]
        reply(handler, lines_body([*held.pop(stream, []), ack]))
        held[stream] = events
        return True
    if message.get("op") == "end":
        reply(handler, lines_body([*held.pop(stream, []), *lines]))
        return True
    return False


@pytest.fixture(scope="module")
def looking_ahead() -> Iterator[str]:
    held: dict[Any, list[Line]] = {}
    service = _Twisted(lambda handler, message, lines: _held_back(handler, message, lines, held))
    with _serving(service.server()) as served:
        yield served


def test_a_service_that_looks_ahead_shows_it_in_the_frame_each_event_was_acked_after(
    looking_ahead: str,
) -> None:
    target = _events_target(looking_ahead)
    try:
        output = target.fold(CHAT_STREAM)
    finally:
        target.close()
    assert output["events"][0]["type"] == "TextDelta" and output["emitted"][0] == 1
    found = check_events(
        "openai-chat",
        CHAT_STREAM[1:],
        output["events"],
        output["outcome"],
        output["persisted"],
        emitted=output["emitted"],
    )
    assert "EV-FRAME-ORDER" in {violation.rule for violation in found}


def _suite_run(url: str, tmp_path: Path, *selection: str) -> tuple[int, dict[str, Any], str]:
    report = tmp_path / "results.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            str(ROOT / "suites"),  # the events suites, and the mapping examples of each source
            "--dialect",
            "provider-events",
            f"--target={url}",
            "--hypothesis-profile=ci",
            f"--refold-report={report}",
            "--target-timeout=30",
            *selection,
        ],  # correctness, not speed, on a loaded machine
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    rules = json.loads(report.read_text(encoding="utf-8"))["rules"]
    return done.returncode, rules, done.stdout[-3000:]


def test_a_service_that_looks_ahead_fails_ev_frame_order_in_the_suite(
    looking_ahead: str, tmp_path: Path
) -> None:
    status, rules, out = _suite_run(looking_ahead, tmp_path, "-k", "emitted_while")
    assert status == 1, out
    assert rules["EV-FRAME-ORDER"]["status"] == "failed", out


def test_the_example_service_passes_every_rule_of_the_events_suites(
    url: str, tmp_path: Path
) -> None:
    # Every rule's hand-written examples and one drawn property per source: the whole
    # suites take about 50 s over HTTP on a loaded machine, this about 10 s.
    status, rules, out = _suite_run(url, tmp_path, "-k", "rule_examples or keep_the_grammar")
    assert status == 0, out
    assert len(rules) == len(EVENTS.rules) == 52
    assert {result["status"] for result in rules.values()} == {"passed"}, out


def _drop(handler: BaseHTTPRequestHandler, lines: list[Line]) -> None:
    handler.close_connection = True
    handler.connection.shutdown(socket.SHUT_RDWR)


_SHORT = 2.0


def _sleep(handler: BaseHTTPRequestHandler, lines: list[Line]) -> None:
    time.sleep(3 * _SHORT)  # past the --target-timeout of its test
    reply(handler, lines_body(lines))


HOSTILE: dict[str, tuple[Callable[[BaseHTTPRequestHandler, list[Line]], None], str, str]] = {
    "non-200": (
        lambda h, lines: reply(h, b"overloaded", status=503),
        "protocol",
        r"'frame 1' answered HTTP 503: 'overloaded'",
    ),
    "garbage line": (
        lambda h, lines: reply(h, lines_body(lines) + b"not json\n"),
        "protocol",
        r"line \d of the reply to 'frame 1' is not JSON",
    ),
    "missing ack": (
        lambda h, lines: reply(h, lines_body(lines[:-1])),
        "protocol",
        r"the reply to 'frame 1' ended before its ack",
    ),
    "wrong ack": (
        lambda h, lines: reply(h, lines_body([*lines[:-1], {**lines[-1], "ack": 2}])),
        "protocol",
        r"'ack': 2\}; expected an event or the ack 1",
    ),
    "timeout": (_sleep, "timeout", r"no complete reply to 'frame 1' within 2 s"),
    "dropped connection": (_drop, "crashed", r"'frame 1' failed: RemoteDisconnected"),
    "oversize body": (
        lambda h, lines: reply(
            h,
            lines_body(
                [
                    *lines[:-1],
                    {"stream": lines[-1]["stream"], "event": {"type": "Opaque", "pad": "x" * 5000}},
                    lines[-1],
                ]
            ),
        ),
        "protocol",
        r"declares \d+ bytes, more than the limit of 4000 bytes",
    ),
    "gzip body": (
        lambda h, lines: reply(
            h, gzip.compress(lines_body(lines)), headers=(("content-encoding", "gzip"),)
        ),
        "protocol",
        r"encoded 'gzip'; the harness asks for identity",
    ),
}


@pytest.mark.parametrize("twist", list(HOSTILE))
def test_a_hostile_service_fails_the_stream_and_the_next_stream_goes_on(twist: str) -> None:
    answer, kind, message = HOSTILE[twist]
    service = _Twisted(_once_at_frame_1(answer))
    with _serving(service.server()) as served:
        # Only the sleeper has a short deadline: a loaded machine can take a second.
        timeout = _SHORT if twist == "timeout" else 10.0
        target = _events_target(served, timeout=timeout, max_reply=4000)
        try:
            with pytest.raises(TargetError, match=message) as raised:
                target.fold(CHAT_STREAM)
            assert raised.value.kind == kind
            output = target.fold(CHAT_STREAM)
        finally:
            target.close()
    assert output["emitted"] == [0, 1, 2] and output["outcome"] == {"outcome": "completed"}
    assert [m["op"] for m in service.messages].count("hello") == 1  # no new greeting


def _check(url: str, capsys: pytest.CaptureFixture[str]) -> str:
    status = main(["check", "--dialect", "provider-events", "--target", url])
    err = capsys.readouterr().err
    assert status == USAGE_ERROR, err
    assert "Traceback" not in err and err.strip() and "\n\n" not in err.strip(), err
    return err


def test_an_unreachable_url_is_a_usage_error_of_one_paragraph(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _check("http://127.0.0.1:9/events", capsys)
    assert "http://127.0.0.1:9/events did not say hello" in err and "Connection" in err


def _empty_body(handler: BaseHTTPRequestHandler, message: Line, lines: list[Line]) -> bool:
    reply(handler, b"")
    return True


def test_a_service_that_does_not_answer_hello_is_a_usage_error_of_one_paragraph(
    capsys: pytest.CaptureFixture[str],
) -> None:
    silent = _Twisted(_empty_body)
    with _serving(silent.server()) as served:
        err = _check(served, capsys)
    assert "the reply to 'hello' ended before a hello" in err


def test_a_fold_protocol_service_checked_as_an_events_adapter_is_told_which_it_speaks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = ROOT / "examples" / "targets" / "protocol_server.py"
    spec = importlib.util.spec_from_file_location("refold_example_protocol_server", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with _serving(module.http_server(module.ProtocolHandler())) as served:
        err = _check(served, capsys)
    assert "answers hello as a fold target speaking protocol 2" in err
    assert "check it without --dialect provider-events" in err


def test_an_events_service_checked_without_the_dialect_is_told_to_use_it(url: str) -> None:
    with pytest.raises(UsageError, match="check it with --dialect provider-events"):
        load_target(url)


def test_the_example_server_runs_as_a_program_serving_the_example_adapter() -> None:
    with subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "examples" / "targets" / "events_server.py"),
            "--port",
            "0",
            "--adapter",
            "example",
        ],
        stdout=subprocess.PIPE,
        text=True,
    ) as server:
        assert server.stdout is not None
        served = server.stdout.readline().strip().removeprefix("listening on ")
        target = _events_target(served)
        try:
            assert target.provider == "refold-example"
            completed = target.fold(CHAT_STREAM)["events"][-1]
        finally:
            target.close()
        assert completed["type"] == "Completed"
        assert completed["turn"]["provider"] == "refold-example"
        server.terminate()
