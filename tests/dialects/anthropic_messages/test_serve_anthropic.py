"""`refold serve --dialect anthropic-messages` over a real socket, driven by the real
Anthropic Python SDK: `POST /v1/messages` answers the drawn `Message`, and streamed, its
events as named SSE frames; the SDK's plain result and its streamed final message both
equal the reference fold of the events it was streamed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from refold.reference.anthropic import decode_stream, differences, fold
from refold.serve.server import CompletionServer, served_case

anthropic = pytest.importorskip("anthropic")

_SEEDS = (3, 11, 29)
_REQUEST: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 64,
    "messages": [{"role": "user", "content": "hi"}],
}


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[CompletionServer]:
    """An Anthropic server allowed exactly the requests the test makes (its param)."""
    served = CompletionServer(
        "127.0.0.1", 0, max_requests=request.param, dialect="anthropic-messages"
    )
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    thread.join(timeout=10)
    served.server_close()
    assert not thread.is_alive(), "the server did not stop itself after its requests"


def _client(server: CompletionServer) -> Any:
    return anthropic.Anthropic(
        base_url=server.base_url, api_key="not-a-key", max_retries=0, timeout=10
    )


def _json(model: Any) -> Any:
    return model.to_dict(mode="json", exclude_unset=True)


@pytest.mark.parametrize("server", [3 * len(_SEEDS)], indirect=True)
def test_the_sdks_plain_and_streamed_messages_are_the_fold_of_the_streamed_events(
    server: CompletionServer,
) -> None:
    client = _client(server)
    for case_seed in _SEEDS:
        seed = {"seed": case_seed}
        plain = _json(client.messages.create(**_REQUEST, extra_body=seed))
        with client.messages.create(**_REQUEST, stream=True, extra_body=seed) as events:
            streamed = [_json(event) for event in events]
        folded = fold(streamed)
        assert not differences(folded, plain), (case_seed, differences(folded, plain))
        if folded.get("usage") is None:
            # A message streamed with no usage, as the docs' thinking example is (AQ4):
            # anthropic-python 2.15.0's accumulate_event reads message_delta's usage and
            # raises, the defect its committed report charges to AM-USAGE-ABSENT.
            with (
                pytest.raises(AttributeError, match="output_tokens"),
                client.messages.stream(**_REQUEST, extra_body=seed) as stream,
            ):
                stream.get_final_message()
            continue
        with client.messages.stream(**_REQUEST, extra_body=seed) as stream:
            final = _json(stream.get_final_message())
        assert not differences(folded, final), (case_seed, differences(folded, final))


@pytest.mark.parametrize("server", [2], indirect=True)
def test_the_streamed_answer_is_named_sse_frames_of_the_drawn_events(
    server: CompletionServer,
) -> None:
    with httpx.Client() as client:
        with client.stream(
            "POST", server.url, timeout=10, json={**_REQUEST, "seed": 7, "stream": True}
        ) as reply:
            assert reply.headers["content-type"] == "text/event-stream"
            parts = list(reply.iter_raw())
        plain = client.post(server.url, json={**_REQUEST, "seed": 7}, timeout=10).json()
    body = b"".join(parts)
    assert b"event: message_start" in body and b"event: message_stop" in body
    assert plain["type"] == "message" and not differences(fold(decode_stream(parts)), plain)


def test_the_same_seed_gives_the_same_message_events_and_bytes() -> None:
    case = served_case(5, dialect="anthropic-messages")
    assert case == served_case(5, dialect="anthropic-messages")
    assert decode_stream(case.parts) == case.items
    assert not differences(fold(case.items), case.result)


@pytest.mark.parametrize("server", [1], indirect=True)
def test_the_chat_path_is_not_the_anthropic_servers_and_the_error_says_so(
    server: CompletionServer,
) -> None:
    reply = httpx.post(f"{server.base_url}/v1/chat/completions", json=_REQUEST, timeout=10)
    assert reply.status_code == 404
    error = reply.json()
    assert error["type"] == "error" and "/v1/messages" in error["error"]["message"]


def test_serve_refuses_an_unknown_dialect_and_another_dialects_features(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from refold.cli import main

    assert main(["serve", "--dialect", "anthropic", "--port", "0"]) == 4
    assert "anthropic-messages" in capsys.readouterr().err
    assert (
        main(
            ["serve", "--dialect", "anthropic-messages", "--features", "tool_calls", "--port", "0"]
        )
        == 4
    )
    assert "anthropic-messages vocabulary" in capsys.readouterr().err
    assert main(["serve", "--families", "9", "--port", "0"]) == 4
    assert "openai-chat split families from 1 to 8" in capsys.readouterr().err
