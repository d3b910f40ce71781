"""http:// targets: the protocol over HTTP POST, against a loopback server this test
starts and stops (the reference served by examples/targets/protocol_server.py)."""

from __future__ import annotations

import contextlib
import gzip
import importlib.util
import json
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from refold.errors import TargetError, UsageError
from refold.targets import load_target

SERVER = Path(__file__).resolve().parents[3] / "examples" / "targets" / "protocol_server.py"


def _server_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("refold_example_protocol_server", SERVER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    module = _server_module()
    server = module.http_server(module.ProtocolHandler(), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}/refold"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def test_an_http_target_folds_through_the_service(url: str) -> None:
    target = load_target(url)
    try:
        assert target.name == "reference-over-protocol"
        response = target.fold([{"id": "h", "choices": [{"index": 0, "delta": {"content": "x"}}]}])
        assert response["id"] == "h"
    finally:
        target.close()


def test_an_http_accumulator_keeps_its_state_between_requests(url: str) -> None:
    target = load_target(url)
    try:
        accumulator = target.accumulator()
        accumulator.add({"choices": [{"index": 0, "delta": {"content": "a"}}]})
        accumulator.add(
            {"choices": [{"index": 0, "delta": {"content": "b"}, "finish_reason": "stop"}]}
        )
        assert accumulator.finished() is True
        assert accumulator.response()["choices"][0]["message"]["content"] == "ab"
    finally:
        target.close()


def test_an_error_reply_over_http_is_a_raised_target_error(url: str) -> None:
    target = load_target(url)
    try:
        with pytest.raises(TargetError, match="ChunkTypeError") as excinfo:
            target.fold(["not an object"])
        assert excinfo.value.kind == "raised"
    finally:
        target.close()


def test_an_unreachable_service_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="did not answer hello"):
        load_target("http://127.0.0.1:9/refold", timeout=1.0)


_SUITE = """
from refold.run.marks import rule

@rule("TEXT-JOIN")
def test_text(check):
    check.folds_like_reference([{"choices": [{"index": 0, "delta": {"content": "a b"}}]}])

@rule("LIFE-DONE")
def test_done(check):
    accumulator = check.accumulator()
    accumulator.add({"choices": [{"index": 0, "delta": {"content": "a"}}]})
    accumulator.mark_done()
    assert accumulator.finished
"""


def test_a_run_against_an_http_target_passes(url: str, tmp_path: Path) -> None:
    (tmp_path / "test_over_http.py").write_text(textwrap.dedent(_SUITE))
    report = tmp_path / "results.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            f"--target={url}",
            f"--refold-report={report}",
            "test_over_http.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    rules = json.loads(report.read_text(encoding="utf-8"))["rules"]
    assert rules["TEXT-JOIN"]["status"] == rules["LIFE-DONE"]["status"] == "passed"


class _RawServer:
    """A loopback server answering every request with `answer(connection, request)`."""

    def __init__(self, answer: Callable[[socket.socket, bytes], None]) -> None:
        self.requests: list[bytes] = []
        self._answer = answer
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}/refold"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            with connection:
                request = connection.recv(65536)
                self.requests.append(request)
                with contextlib.suppress(OSError):
                    self._answer(connection, request)

    def close(self) -> None:
        self._listener.close()


def _drip(connection: socket.socket, request: bytes) -> None:
    body = b'{"ok": true, "seq": 1, "protocol": 2, "operations": ["fold"]}'
    reply = b"HTTP/1.1 200 OK\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body)
    for byte in reply:  # one byte every 0.5 s: every read is quick, the whole reply is not
        connection.sendall(bytes([byte]))
        time.sleep(0.5)


def test_a_reply_dripping_one_byte_at_a_time_meets_the_per_call_deadline() -> None:
    server = _RawServer(_drip)
    try:
        started = time.monotonic()
        with pytest.raises(UsageError, match=r"did not answer hello.*within 1 s"):
            load_target(server.url, timeout=1.0)
        assert time.monotonic() - started < 3
    finally:
        server.close()


def _bomb(connection: socket.socket, request: bytes) -> None:
    body = gzip.compress(b" " * 20_000_000)  # 20 kB that inflate to 20 MB
    connection.sendall(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
        b"content-encoding: gzip\r\ncontent-length: %d\r\n\r\n" % len(body)
    )
    connection.sendall(body)


def test_no_compression_is_asked_for_and_a_compressed_reply_is_not_inflated() -> None:
    server = _RawServer(_bomb)
    try:
        with pytest.raises(UsageError, match=r"encoded 'gzip'.*inflates nothing"):
            load_target(server.url, timeout=2.0)
        headers = server.requests[0].split(b"\r\n\r\n")[0].lower()
        assert b"gzip" not in headers and b"accept-encoding: identity" in headers
    finally:
        server.close()


def _large(connection: socket.socket, request: bytes) -> None:
    body = b'{"ok": true, "seq": 1, "padding": "' + b"x" * 5000 + b'"}'
    connection.sendall(b"HTTP/1.1 200 OK\r\n\r\n" + body)  # no length: read to the end


def test_a_reply_beyond_the_limit_is_refused_whatever_its_headers_say() -> None:
    server = _RawServer(_large)
    try:
        with pytest.raises(UsageError, match="longer than the limit of 1000 bytes"):
            load_target(server.url, timeout=2.0, max_reply=1000)
    finally:
        server.close()


def _wrong_seq(connection: socket.socket, request: bytes) -> None:
    body = b'{"ok": true, "seq": 99, "protocol": 2, "operations": ["fold"]}'
    connection.sendall(b"HTTP/1.1 200 OK\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body))


def test_a_reply_that_does_not_echo_its_request_seq_is_refused() -> None:
    server = _RawServer(_wrong_seq)
    try:
        with pytest.raises(UsageError, match=r"reply to 'hello' \(seq 1\) carries seq 99"):
            load_target(server.url, timeout=2.0)
    finally:
        server.close()
