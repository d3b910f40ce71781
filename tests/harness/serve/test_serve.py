"""`refold serve` over a real socket: a real HTTP client, loopback, bounded requests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import httpx
import pytest

from refold.reference.chat import differences, fold
from refold.reference.sse import decode_chunks
from refold.serve.server import CompletionServer, served_case


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[CompletionServer]:
    """A server allowed exactly the number of requests the test makes (its param)."""
    served = CompletionServer("127.0.0.1", 0, max_requests=request.param)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    thread.join(timeout=10)
    served.server_close()
    assert not thread.is_alive(), "the server did not stop itself after its requests"


def _post(
    client: httpx.Client, server: CompletionServer, body: dict[str, object]
) -> httpx.Response:
    # the server draws each case with Hypothesis, which on a heavily loaded two-core
    # machine can outlast a 10 s read deadline
    return client.post(f"{server.base_url}/chat/completions", json=body, timeout=60)


@pytest.mark.parametrize("server", [4], indirect=True)
def test_the_streamed_answer_folds_to_the_plain_answer_over_a_socket(
    server: CompletionServer,
) -> None:
    with httpx.Client() as client:
        for case_seed in (3, 11):
            plain = _post(client, server, {"model": "m", "seed": case_seed}).json()
            with client.stream(
                "POST",
                f"{server.base_url}/chat/completions",
                timeout=60,
                json={"model": "m", "seed": case_seed, "stream": True},
            ) as reply:
                assert reply.headers["content-type"] == "text/event-stream"
                parts = list(reply.iter_raw())
            assert not differences(plain, fold(decode_chunks(parts)))
            assert plain == served_case(case_seed).completion


def test_the_same_seed_gives_the_same_case_and_bytes() -> None:
    case = served_case(5)
    assert case == served_case(5)
    assert decode_chunks(case.parts) == case.chunks
    assert b"data: [DONE]" in b"".join(case.parts) or b"data:[DONE]" in b"".join(case.parts)


@pytest.mark.parametrize("server", [2], indirect=True)
def test_a_wrong_path_or_body_gets_an_error_that_says_what_was_expected(
    server: CompletionServer,
) -> None:
    with httpx.Client() as client:
        missing = client.post(f"{server.base_url}/completions", json={}, timeout=10)
        assert missing.status_code == 404
        assert "/v1/chat/completions" in missing.json()["error"]["message"]
        broken = client.post(
            f"{server.base_url}/chat/completions", content=b"{not json", timeout=10
        )
        assert broken.status_code == 400
        assert "not JSON" in broken.json()["error"]["message"]


@pytest.mark.parametrize("server", [4], indirect=True)
def test_each_seed_picks_its_own_drawn_completion(server: CompletionServer) -> None:
    bodies: list[dict[str, object]] = [{"model": "m", "seed": s} for s in (1, 7, 42)]
    with httpx.Client() as client:
        served = [_post(client, server, body).json() for body in [*bodies, {"model": "m"}]]
    assert len({json.dumps(s, sort_keys=True) for s in served}) == 4, served
    assert any(
        choice["message"].get("content") or choice["message"].get("tool_calls")
        for completion in served
        for choice in completion["choices"]
    )
