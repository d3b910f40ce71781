"""Captures made by real clients of `refold serve --corpus` round-trip into the same cases.

The server streams each case byte for byte in its recorded pieces; httpx and curl save
what they received as raw SSE, headless Chromium as a HAR file (through the DevTools
protocol, `tests/harness/capture/_chromium_har.py`); `refold capture` makes each file the case it
was.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from _chromium_har import CHROMIUM, record_har

from refold.capture.captures import capture
from refold.capture.corpus import Case, load_corpus
from refold.serve.corpus import CorpusServer

STARTER = Path(__file__).resolve().parents[3] / "examples" / "corpus"
CASES = {case.name: case for case in load_corpus(STARTER)}
ONE_PER_DIALECT = (
    "openai-chat-chunks",
    "anthropic-thinking",
    "openai-responses-function-call",
    "gemini-text",
)


@pytest.fixture(scope="module")
def server() -> Iterator[CorpusServer]:
    served = CorpusServer(list(CASES.values()))
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    served.shutdown()
    served.server_close()


def same_stream(captured: Case, original: Case) -> None:
    assert captured.dialect is original.dialect
    assert captured.items == original.items
    assert captured.expected == original.expected
    assert captured.outcome == original.outcome


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_httpx_capture_of_a_served_case_is_that_case(
    server: CorpusServer, name: str, tmp_path: Path
) -> None:
    original = CASES[name]
    with httpx.stream("POST", f"{server.base_url}/cases/{name}", json={}) as response:
        assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
        received = b"".join(response.iter_raw())
    assert received == b"".join(original.wire)  # byte for byte
    source = tmp_path / f"{name}.sse"
    source.write_bytes(received)
    [case] = capture(source, tmp_path / "corpus").cases
    same_stream(case, original)


def test_a_dialects_api_path_serves_the_case_the_body_names(server: CorpusServer) -> None:
    body = {"model": "x", "stream": True, "case": "anthropic-tool-use"}
    with httpx.stream("POST", f"{server.base_url}/v1/messages", json=body) as response:
        received = b"".join(response.iter_raw())
    assert received == b"".join(CASES["anthropic-tool-use"].wire)
    wrong = httpx.post(f"{server.base_url}/v1/chat/completions", json=body)
    assert wrong.status_code == 404
    assert "no openai-chat case named 'anthropic-tool-use'" in wrong.text


def test_a_path_that_names_what_it_asks_serves_its_case_with_its_query(
    server: CorpusServer,
) -> None:
    # Gemini's path carries the model and the method, its query the SSE framing
    path = "/v1beta/models/gemini-pro:streamGenerateContent"
    with httpx.stream("POST", f"{server.base_url}{path}?alt=sse", json={}) as response:
        received = b"".join(response.iter_raw())
    assert received == b"".join(CASES["gemini-text"].wire)
    array = httpx.post(f"{server.base_url}{path}", json={})
    assert array.status_code == 404
    assert "asks for the array framing" in array.text
    # a query on a path that says nothing with it is the path
    body = {"stream": True, "case": "openai-chat-chunks"}
    with httpx.stream("POST", f"{server.base_url}/v1/chat/completions?x=1", json=body) as sent:
        assert b"".join(sent.iter_raw()) == b"".join(CASES["openai-chat-chunks"].wire)


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.parametrize("name", ONE_PER_DIALECT)
def test_a_curl_capture_of_a_served_case_is_that_case(
    server: CorpusServer, name: str, tmp_path: Path
) -> None:
    source = tmp_path / f"{name}.sse"
    subprocess.run(
        ["curl", "-sN", "-X", "POST", "-o", str(source), f"{server.base_url}/cases/{name}"],
        check=True,
        timeout=30,
    )
    [case] = capture(source, tmp_path / "corpus").cases
    same_stream(case, CASES[name])


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_a_chromium_har_of_served_cases_gives_back_every_case(
    server: CorpusServer, tmp_path: Path
) -> None:
    import json

    posts = [f"{server.base_url}/cases/{name}" for name in ONE_PER_DIALECT]
    document = record_har(tmp_path / "profile", f"{server.base_url}/cases", posts)
    source = tmp_path / "chromium.har"
    source.write_text(json.dumps(document))
    cases = capture(source, tmp_path / "corpus").cases
    # the page itself (GET /cases, JSON) is no stream; each POST is one
    by_url = {case.provenance["exchange"]["url"]: case for case in cases}
    assert sorted(by_url) == sorted(posts)
    for url, name in zip(posts, ONE_PER_DIALECT, strict=True):
        same_stream(by_url[url], CASES[name])
        assert by_url[url].provenance["exchange"]["status"] == 200


def test_refold_serve_corpus_serves_until_max_requests(tmp_path: Path) -> None:
    import sys

    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "serve",
            "--corpus",
            str(STARTER),
            "--port",
            "0",
            "--max-requests",
            "2",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        banner = process.stdout.readline()
        base = banner.split("GET ")[1].split("/cases")[0]
        listed = httpx.get(f"{base}/cases").json()
        assert [entry["name"] for entry in listed] == sorted(CASES)
        streamed = httpx.post(f"{base}/cases/anthropic-error").content
        assert streamed == b"".join(CASES["anthropic-error"].wire)
        assert process.wait(30) == 0  # the second request was its last
    finally:
        process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


def test_refold_serve_refuses_a_missing_corpus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from refold.cli import main

    assert main(["serve", "--corpus", str(tmp_path / "absent")]) == 4
    assert "no such folder" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_a_curl_i_capture_keeps_the_head_as_scrubbed_provenance(
    server: CorpusServer, tmp_path: Path
) -> None:
    source = tmp_path / "with-head.txt"
    subprocess.run(
        [
            "curl",
            "-sNi",
            "-X",
            "POST",
            "-o",
            str(source),
            f"{server.base_url}/cases/anthropic-text",
        ],
        check=True,
        timeout=30,
    )
    assert source.read_bytes().startswith(b"HTTP/1.0 200")
    [case] = capture(source, tmp_path / "corpus").cases
    same_stream(case, CASES["anthropic-text"])
    assert "".join(case.parts or []).encode() == b"".join(CASES["anthropic-text"].wire)
    exchange = case.provenance["exchange"]
    assert exchange["status"] == 200
    assert exchange["response_headers"]["content-type"] == "text/event-stream; charset=utf-8"
