"""`refold serve` answers a malformed request with an HTTP error, never a traceback and a
dropped connection; keeps a listen queue deep enough for concurrent clients; and binds a
non-loopback address only when asked to with `--allow-remote`."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest

from refold.cli import main
from refold.serve.server import CompletionServer, is_loopback

USAGE_ERROR = 4


@pytest.fixture
def server(capsys: pytest.CaptureFixture[str]) -> Iterator[CompletionServer]:
    served = CompletionServer("127.0.0.1", 0)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    served.shutdown()
    thread.join(timeout=10)
    served.server_close()
    logged = capsys.readouterr()
    assert "Traceback" not in logged.err + logged.out, logged.err


def _exchange(server: CompletionServer, head: str, body: bytes = b"") -> tuple[int, dict]:
    """Send one raw request; return the status and the JSON error body."""
    host, port = server.server_address[:2]
    with socket.create_connection((str(host), port), timeout=10) as connection:
        connection.sendall(head.encode("latin-1") + b"\r\n\r\n" + body)
        connection.shutdown(socket.SHUT_WR)
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    assert reply, "the server closed the connection without an answer"
    status_line, _, rest = reply.partition(b"\r\n")
    return int(status_line.split()[1]), json.loads(rest.partition(b"\r\n\r\n")[2])


@pytest.mark.parametrize("length", ["abc", "-5", "1e3", "12, 12", "²", "¹"])
def test_a_malformed_content_length_gets_400_saying_what_was_expected(
    server: CompletionServer, length: str
) -> None:
    status, body = _exchange(
        server, f"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {length}"
    )
    assert status == 400
    assert "Content-Length" in body["error"]["message"]


def test_deeply_nested_json_gets_400(server: CompletionServer) -> None:
    nested = b"[" * 200_000 + b"]" * 200_000
    status, body = _exchange(
        server, f"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: {len(nested)}", nested
    )
    assert status == 400
    assert "nested" in body["error"]["message"]


def test_a_huge_declared_length_gets_413_without_waiting_for_the_body(
    server: CompletionServer,
) -> None:
    status, body = _exchange(
        server, "POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 1000000000000"
    )
    assert status == 413
    assert "1000000000000" in body["error"]["message"]


def test_the_listen_queue_holds_a_burst_of_concurrent_connections() -> None:
    # The server is listening but busy (not accepting): every connection of a burst must
    # still complete its handshake, as it does when the queue is deep enough.
    served = CompletionServer("127.0.0.1", 0)
    host, port = served.server_address[:2]
    opened: list[socket.socket] = []
    try:
        for _ in range(64):
            opened.append(socket.create_connection((str(host), port), timeout=0.5))
    except OSError as exc:
        pytest.fail(f"connection {len(opened) + 1} of a burst of 64 failed: {exc}")
    finally:
        for connection in opened:
            connection.close()
        served.server_close()


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.1", "::"])
def test_a_non_loopback_host_is_refused_without_allow_remote(
    capsys: pytest.CaptureFixture[str], host: str
) -> None:
    assert main(["serve", "--host", host, "--port", "0"]) == USAGE_ERROR
    err = capsys.readouterr().err
    assert "--allow-remote" in err and host in err and "Traceback" not in err


def test_loopback_means_every_address_the_host_names_is_loopback() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("::")
    assert not is_loopback("192.0.2.1")


@pytest.mark.parametrize("length", ["²", "¹", "abc", "-1"])
def test_the_corpus_server_answers_a_malformed_content_length_with_400(
    capsys: pytest.CaptureFixture[str], length: str
) -> None:
    from pathlib import Path

    from refold.capture.corpus import load_corpus
    from refold.serve.corpus import CorpusServer

    starter = Path(__file__).resolve().parents[3] / "examples" / "corpus"
    served = CorpusServer(load_corpus(starter))
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    try:
        status, body = _exchange(
            served, f"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: {length}"
        )  # type: ignore[arg-type]
    finally:
        served.shutdown()
        thread.join(timeout=10)
        served.server_close()
    assert status == 400 and "Content-Length" in body["error"]["message"]
    assert "Traceback" not in capsys.readouterr().err
