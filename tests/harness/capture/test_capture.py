"""`refold capture`: every dialect in every input format round-trips into a case.

A stream written as raw SSE, as JSON lines and inside a HAR file is captured into a case
whose items are the stream's and whose expectation is the reference fold; a stated
expectation the reference disagrees with becomes a recorded question (exit 1).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from refold.capture.corpus import Case, load_corpus, read_case
from refold.capture.input import CaptureError, detect_dialect
from refold.cli import main
from refold.dialects import DIALECTS
from refold.reference import REDACTED

ROOT = Path(__file__).resolve().parents[3]
STARTER = ROOT / "examples" / "corpus"
ONE_PER_DIALECT = ("openai-chat-chunks", "anthropic-tool-use", "openai-responses-function-call")


def starter(name: str) -> Case:
    return read_case(STARTER / f"{name}.json")


def har(
    *bodies: tuple[str, bytes],
    headers: list[dict[str, str]] | None = None,
    base64_body: bool = False,
) -> dict[str, Any]:
    """A HAR 1.2 document of one POST per body, as devtools save them."""
    entries = []
    for url, body in bodies:
        content: dict[str, Any] = {
            "size": len(body),
            "mimeType": "text/event-stream",
            "text": body.decode(),
        }
        if base64_body:
            content.update(text=base64.b64encode(body).decode(), encoding="base64")
        entries.append(
            {
                "startedDateTime": "2026-12-02T10:00:00.000Z",
                "time": 5,
                "request": {
                    "method": "POST",
                    "url": url,
                    "httpVersion": "HTTP/1.1",
                    "headers": headers or [],
                    "queryString": [],
                    "cookies": [],
                    "headersSize": -1,
                    "bodySize": 0,
                },
                "response": {
                    "status": 200,
                    "statusText": "OK",
                    "httpVersion": "HTTP/1.1",
                    "headers": [{"name": "content-type", "value": "text/event-stream"}],
                    "cookies": [],
                    "content": content,
                    "redirectURL": "",
                    "headersSize": -1,
                    "bodySize": len(body),
                },
                "cache": {},
                "timings": {"send": 0, "wait": 1, "receive": 4},
            }
        )
    return {
        "log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": entries}
    }


def capture(tmp_path: Path, source: Path, *options: str) -> tuple[int, list[Case]]:
    corpus = tmp_path / "corpus"
    status = main(["capture", str(source), "--corpus", str(corpus), *options])
    return status, (load_corpus(corpus) if corpus.exists() else [])


@pytest.mark.parametrize("name", ONE_PER_DIALECT)
def test_an_sse_capture_becomes_a_case_of_the_same_stream(tmp_path: Path, name: str) -> None:
    original = starter(name)
    source = tmp_path / f"{name}.sse"
    source.write_bytes(b"".join(original.wire))
    status, [case] = capture(tmp_path, source)
    assert status == 0
    assert case.dialect is original.dialect
    assert case.items == original.items
    assert case.expected == original.dialect.fold(original.items)
    assert "".join(case.parts or []).encode() == source.read_bytes()
    assert case.provenance["pieces"] == "recorded"


@pytest.mark.parametrize("name", ONE_PER_DIALECT)
def test_a_jsonl_capture_becomes_a_case_of_the_same_stream(tmp_path: Path, name: str) -> None:
    original = starter(name)
    source = tmp_path / f"{name}.jsonl"
    source.write_text("".join(json.dumps(item) + "\n" for item in original.items))
    status, [case] = capture(tmp_path, source)
    assert (status, case.dialect, case.items) == (0, original.dialect, original.items)
    assert case.parts is None and case.provenance["pieces"] == "none"


@pytest.mark.parametrize("encoded", [False, True], ids=["text", "base64"])
def test_every_streamed_response_of_a_har_becomes_a_case(tmp_path: Path, encoded: bool) -> None:
    originals = [starter(name) for name in ONE_PER_DIALECT]
    source = tmp_path / "session.har"
    document = har(
        *((f"http://127.0.0.1/{c.name}", b"".join(c.wire)) for c in originals), base64_body=encoded
    )
    source.write_text(json.dumps(document))
    status, cases = capture(tmp_path, source)
    assert status == 0
    assert [c.items for c in cases] == [c.items for c in originals]
    assert [c.dialect for c in cases] == [c.dialect for c in originals]
    assert [c.provenance["where"] for c in cases] == ["entry 0", "entry 1", "entry 2"]


def test_provenance_names_the_source_its_digest_and_the_capture_date(tmp_path: Path) -> None:
    source = tmp_path / "stream.sse"
    source.write_bytes(b"".join(starter("anthropic-text").wire))
    _, [case] = capture(tmp_path, source, "--url", "https://example.test/page")
    import hashlib

    assert case.provenance["source"] == "stream.sse"
    assert case.provenance["sha256"] == hashlib.sha256(source.read_bytes()).hexdigest()
    assert case.provenance["captured"].startswith("20")
    assert case.provenance["url"] == "https://example.test/page"


def test_a_stream_of_no_known_shape_needs_the_dialect_option(tmp_path: Path, capsys: Any) -> None:
    source = tmp_path / "stream.jsonl"
    source.write_text('{"type": "message_stop"}\n'.replace("message_stop", "custom"))
    status, cases = capture(tmp_path, source)
    assert (status, cases) == (4, [])
    assert "name the dialect with --dialect" in capsys.readouterr().err
    status, [case] = capture(tmp_path, source, "--dialect", "anthropic-messages")
    assert (status, case.dialect.name, case.outcome) == (0, "anthropic-messages", "raises")


def test_the_dialect_option_overrides_what_the_content_shows(tmp_path: Path) -> None:
    source = tmp_path / "stream.jsonl"
    source.write_text('{"type": "message_stop"}\n')
    status, [case] = capture(tmp_path, source, "--dialect", "openai-chat")
    assert (status, case.dialect.name) == (0, "openai-chat")


def test_credentials_in_headers_and_bodies_are_scrubbed_on_the_way_in(tmp_path: Path) -> None:
    key = "sk-ant-api03-" + "A1b2C3d4E5" * 4
    original = starter("anthropic-text")
    body = b"".join(original.wire).replace(b'"text": "Hello"', f'"text": "{key}"'.encode())
    headers = [
        {"name": "Authorization", "value": "Bearer abcdefghijklmnop"},
        {"name": "x-api-key", "value": "plainsecretvalue"},
        {"name": "Cookie", "value": "session=abcdef123456"},
        {"name": "accept", "value": "text/event-stream"},
    ]
    source = tmp_path / "leaky.har"
    source.write_text(
        json.dumps(har((f"http://127.0.0.1/v1/messages?api_key={key}", body), headers=headers))
    )
    status, [case] = capture(tmp_path, source)
    written = (tmp_path / "corpus" / f"{case.name}.json").read_text()
    assert status == 0 and case.provenance["scrubbed"] is True
    for secret in (key, "abcdefghijklmnop", "plainsecretvalue", "abcdef123456"):
        assert secret not in written
    exchange = case.provenance["exchange"]
    assert exchange["request_headers"]["x-api-key"] == REDACTED
    assert exchange["request_headers"]["accept"] == "text/event-stream"
    assert case.expected is not None
    assert case.expected["content"][0]["text"] == f"{REDACTED}!"
    # the pieces served and the items folded are still one stream
    assert case.dialect.decode_sse(case.wire) == case.items


def test_an_expectation_the_reference_agrees_with_is_kept(tmp_path: Path) -> None:
    original = starter("anthropic-text")
    source, stated = tmp_path / "s.sse", tmp_path / "expected.json"
    source.write_bytes(b"".join(original.wire))
    stated.write_text(json.dumps(original.expected))
    status, [case] = capture(tmp_path, source, "--expect", str(stated))
    assert (status, case.expected, case.question) == (0, original.expected, None)


def test_a_disagreeing_expectation_is_a_recorded_question_not_kept(
    tmp_path: Path, capsys: Any
) -> None:
    original = starter("anthropic-text")
    assert original.expected is not None
    source, stated = tmp_path / "s.sse", tmp_path / "expected.json"
    source.write_bytes(b"".join(original.wire))
    stated.write_text(json.dumps({**original.expected, "stop_reason": "max_tokens"}))
    status, [case] = capture(tmp_path, source, "--expect", str(stated))
    out = capsys.readouterr().out
    assert status == 1
    assert case.expected == original.expected  # the reference's, not the stated one
    assert case.question is not None
    [difference] = case.question["differences"]
    assert difference == {
        "pointer": "/stop_reason",
        "rules": ["AM-STOP-REASON"],
        "stated": "max_tokens",
        "reference": "end_turn",
    }
    assert "question about the anthropic-fold.md contract" in out
    assert "at /stop_reason (AM-STOP-REASON)" in out


def test_json_lines_whose_first_object_has_a_log_member_are_not_a_har(tmp_path: Path) -> None:
    original = starter("openai-chat-chunks")
    source = tmp_path / "chunks.log"
    source.write_text("".join(json.dumps({**item, "log": "x"}) + "\n" for item in original.items))
    status, [case] = capture(tmp_path, source)
    assert (status, case.dialect.name, len(case.items)) == (0, "openai-chat", 3)


def test_a_capture_of_no_known_dialect_names_every_shape_refold_knows() -> None:
    with pytest.raises(CaptureError) as raised:
        detect_dialect([{"kind": "unknown"}, "not an object"], "capture.jsonl")
    message = str(raised.value)
    assert message.startswith("capture.jsonl: no item is of a dialect refold knows")
    for one in DIALECTS.values():
        if one.sniff is not None:
            assert f"{one.title}: {one.sniffed}" in message
            assert one.sniffed, f"{one.name} sniffs items but does not say what it accepts"
