"""A corrupted or hostile capture gives one clear paragraph and exit 4, never a traceback.

Each refusal names the file, where in it (byte offset, line, HAR entry) and what was
expected; nothing is written for a capture that cannot be read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from refold.capture.corpus import read_case
from refold.capture.input import MAX_FILE_BYTES, MAX_LINE_BYTES
from refold.cli import main

STARTER = Path(__file__).resolve().parents[3] / "examples" / "corpus"
# test_persisted_secrets, whose canaries a capture must not keep, is in harness/records.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "records"))


def refused(tmp_path: Path, capsys: Any, source: Path, *options: str) -> str:
    """Capture `source`; assert a usage error with one paragraph and nothing written."""
    corpus = tmp_path / "corpus"
    status = main(["capture", str(source), "--corpus", str(corpus), *options])
    err = capsys.readouterr().err
    assert status == 4, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("refold capture: "), err
    assert not corpus.exists() or not list(corpus.iterdir())
    return err


def starter_body(name: str = "anthropic-text") -> bytes:
    return b"".join(read_case(STARTER / f"{name}.json").wire)


def test_a_truncated_har_is_refused_at_the_offset_it_ends(tmp_path: Path, capsys: Any) -> None:
    document = {
        "log": {
            "version": "1.2",
            "entries": [
                {
                    "request": {"url": "http://x/"},
                    "response": {
                        "content": {
                            "mimeType": "text/event-stream",
                            "text": starter_body().decode(),
                        }
                    },
                }
            ],
        }
    }
    text = json.dumps(document, indent=1)
    source = tmp_path / "cut.har"
    source.write_text(text[: len(text) // 2])
    err = refused(tmp_path, capsys, source)
    assert "cut.har: not valid HAR JSON at line" in err and "byte offset" in err
    assert "truncated?" in err


def test_a_har_without_entries_says_what_it_expected(tmp_path: Path, capsys: Any) -> None:
    source = tmp_path / "empty.har"
    source.write_text('{"log": {"version": "1.2",\n "pages": []}}')
    assert "`log.entries` is missing" in refused(tmp_path, capsys, source)


def test_invalid_utf8_in_sse_names_its_byte_offset(tmp_path: Path, capsys: Any) -> None:
    body = starter_body()
    at = body.index(b"Hello")
    source = tmp_path / "bad.sse"
    source.write_bytes(body[:at] + b"\xc3\x28" + body[at:])
    err = refused(tmp_path, capsys, source)
    assert f"byte offset {at}" in err and "is not UTF-8" in err


def test_invalid_utf8_inside_a_har_body_names_the_entry(tmp_path: Path, capsys: Any) -> None:
    import base64

    body = starter_body()
    bad = body.replace(b"Hello", b"\xff\xfe")
    document = {
        "log": {
            "entries": [
                {
                    "request": {"url": "http://x/v1/messages"},
                    "response": {
                        "content": {
                            "mimeType": "text/event-stream",
                            "encoding": "base64",
                            "text": base64.b64encode(bad).decode(),
                        }
                    },
                }
            ]
        }
    }
    source = tmp_path / "bad.har"
    source.write_text(json.dumps(document))
    err = refused(tmp_path, capsys, source)
    at = bad.index(b"\xff")
    assert "HAR entry 0" in err and f"byte offset {at}" in err


def test_a_line_over_the_line_limit_is_refused_with_its_number(tmp_path: Path, capsys: Any) -> None:
    source = tmp_path / "long.jsonl"
    with source.open("wb") as out:
        out.write(b'{"type": "message_stop"}\n')
        out.write(b'{"x": "' + b"a" * (MAX_LINE_BYTES + 1) + b'"}\n')
    err = refused(tmp_path, capsys, source)
    assert "line 2 (byte offset 25)" in err and "8 MiB" in err


def test_a_100_mb_line_is_refused_before_it_is_read(tmp_path: Path, capsys: Any) -> None:
    source = tmp_path / "huge.sse"
    with source.open("wb") as out:  # sparse: 100 MB of one line without writing it
        out.write(b"data: ")
        out.seek(100 * 1000 * 1000)
        out.write(b"\n\n")
    assert source.stat().st_size > MAX_FILE_BYTES
    err = refused(tmp_path, capsys, source)
    assert f"{source.stat().st_size} bytes" in err and "64 MiB" in err


def test_a_jsonl_line_that_is_not_an_object_is_refused(tmp_path: Path, capsys: Any) -> None:
    source = tmp_path / "list.jsonl"
    source.write_text('{"type": "message_stop"}\n[1, 2]\n')
    assert "line 2 (byte offset 25) is a list" in refused(tmp_path, capsys, source)


def test_sse_data_that_is_not_json_is_refused_by_the_dialects_decoder(
    tmp_path: Path, capsys: Any
) -> None:
    source = tmp_path / "broken.sse"
    source.write_bytes(starter_body() + b"event: message_stop\ndata: {oops\n\n")
    err = refused(tmp_path, capsys, source)
    assert "event data is not JSON" in err and "anthropic-messages" in err


def test_a_har_with_no_streamed_response_is_refused(tmp_path: Path, capsys: Any) -> None:
    document = {
        "log": {
            "entries": [
                {
                    "request": {"url": "http://x/"},
                    "response": {"content": {"mimeType": "application/json", "text": "{}"}},
                }
            ]
        }
    }
    source = tmp_path / "plain.har"
    source.write_text(json.dumps(document))
    assert "none of its 1 HAR entries has a streamed response" in refused(tmp_path, capsys, source)


@pytest.mark.parametrize("content", [b"", b"\x00\x01\x02", b"[1, 2, 3]", b"{" * 100_000])
def test_garbage_never_crashes(tmp_path: Path, capsys: Any, content: bytes) -> None:
    source = tmp_path / "garbage.txt"
    source.write_bytes(content)
    refused(tmp_path, capsys, source)


def test_a_missing_file_is_refused(tmp_path: Path, capsys: Any) -> None:
    assert "cannot read it" in refused(tmp_path, capsys, tmp_path / "absent.sse")


def test_no_canary_of_the_persistence_tests_survives_a_capture(tmp_path: Path, capsys: Any) -> None:
    from test_persisted_secrets import ASSIGNED, BASIC, KEYED, OPAQUE, SHAPED

    texts = [*SHAPED, BASIC, *ASSIGNED]
    events = [
        {
            "type": "message_start",
            "message": {
                "id": "m",
                "type": "message",
                "role": "assistant",
                "content": [],
                "model": "x",
                "stop_reason": None,
                "stop_sequence": None,
                "opaque": {"frame": OPAQUE},
            },
        },
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        *(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": f"see {text} "},
            }
            for text in texts
        ),
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn"},
            "api_key": KEYED["api_key"],
        },
        {"type": "message_stop"},
    ]
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
    headers = [{"name": name, "value": value} for name, value in KEYED.items()]
    document = {
        "log": {
            "entries": [
                {
                    "request": {
                        "method": "POST",
                        "url": "http://127.0.0.1/v1/messages",
                        "headers": headers,
                    },
                    "response": {
                        "status": 200,
                        "headers": headers,
                        "content": {"mimeType": "text/event-stream", "text": body},
                    },
                }
            ]
        }
    }
    source = tmp_path / "hostile.har"
    source.write_text(json.dumps(document))
    assert main(["capture", str(source), "--corpus", str(tmp_path / "corpus")]) == 0
    [written] = (tmp_path / "corpus").iterdir()
    text = written.read_text()
    for canary in [
        *KEYED.values(),
        OPAQUE,
        "Qz0shaped",
        "Qz8shaped",
        "Qz11shaped",
        "Qz12assigned",
        "Qz13assigned",
        "Qz10shaped",
    ]:
        assert canary not in text, canary
    case = read_case(written)
    assert case.provenance["pieces"] == "re-framed after scrubbing"
    assert case.dialect.decode_sse(case.wire) == case.items  # still one stream
    capsys.readouterr()


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        (
            "deep.jsonl",
            '{"object": "chat.completion.chunk", "x": ' + "[" * 900 + "]" * 900 + "}\n",
            "line 1 is nested deeper than 128 levels",
        ),
        (
            "nan.sse",
            'data: {"object": "chat.completion.chunk", "x": NaN}\n\n',
            "line 1: event data is not JSON (NaN is not JSON)",
        ),
        (
            "long-int.har",
            '{"log": {"entries": [' + "9" * 5000 + "]}}",
            "cannot be read as HAR JSON (Exceeds the limit (4300 digits)",
        ),
    ],
)
def test_values_json_cannot_hold_or_the_fold_cannot_reach_are_refused(
    tmp_path: Path, capsys: Any, name: str, content: str, said: str
) -> None:
    source = tmp_path / name
    source.write_text(content)
    assert said in refused(tmp_path, capsys, source)
