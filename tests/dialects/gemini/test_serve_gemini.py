"""`refold serve --dialect gemini-generate-content` over a real socket: the path says what
is asked. `:generateContent` answers the drawn response, `:streamGenerateContent?alt=sse`
its chunks as bare SSE `data:` frames, `:streamGenerateContent` alone the same chunks as
one streamed JSON array; each streamed body folds (reference) to the plain body, and the
seed is the request's `generationConfig.seed`."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from refold.reference.gemini import decode_array, decode_sse, differences, fold
from refold.serve.server import CompletionServer

_DIALECT = "gemini-generate-content"
_MODEL = "/v1beta/models/gemini-2.5-flash"
_VERTEX = "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash"


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[CompletionServer]:
    """A Gemini server allowed exactly the requests the test makes (its param)."""
    served = CompletionServer(
        "127.0.0.1", 0, max_requests=request.param, dialect=_DIALECT, families=range(1, 9)
    )
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    thread.join(timeout=10)
    served.server_close()
    assert not thread.is_alive(), "the server did not stop itself after its requests"


def _request(seed: int) -> dict[str, Any]:
    return {"contents": [{"parts": [{"text": "hi"}]}], "generationConfig": {"seed": seed}}


def _streamed(client: httpx.Client, url: str, seed: int) -> tuple[str, list[bytes]]:
    with client.stream("POST", url, json=_request(seed), timeout=10) as reply:
        assert reply.status_code == 200, reply.read()
        return reply.headers["content-type"], list(reply.iter_raw())


@pytest.mark.parametrize("server", [9], indirect=True)
def test_both_framings_of_the_stream_fold_to_the_plain_answer(server: CompletionServer) -> None:
    origin = server.base_url
    with httpx.Client() as client:
        for case_seed in (3, 11, 29):
            plain = client.post(f"{origin}{_MODEL}:generateContent", json=_request(case_seed))
            sse_type, sse = _streamed(
                client, f"{origin}{_MODEL}:streamGenerateContent?alt=sse", case_seed
            )
            array_type, array = _streamed(
                client, f"{origin}{_MODEL}:streamGenerateContent", case_seed
            )
            assert sse_type == "text/event-stream" and array_type == "application/json"
            body = b"".join(array).removeprefix(b"\xef\xbb\xbf").lstrip()
            assert body.startswith(b"[") and b"event:" not in b"".join(sse)
            chunks = decode_sse(sse)
            assert decode_array(array) == chunks, "the two framings carry other chunks"
            assert differences(plain.json(), fold(chunks)) == []
            assert plain.json() == server.case(case_seed).result


@pytest.mark.parametrize("server", [2], indirect=True)
def test_a_vertex_path_is_answered_and_another_seed_another_case(
    server: CompletionServer,
) -> None:
    with httpx.Client() as client:
        first = client.post(f"{server.base_url}{_VERTEX}:generateContent", json=_request(1))
        second = client.post(f"{server.base_url}{_MODEL}:generateContent", json=_request(2))
    assert first.json() == server.case(1).result and second.json() == server.case(2).result
    assert first.json() != second.json()


@pytest.mark.parametrize("server", [2], indirect=True)
def test_an_unknown_path_is_404_in_the_apis_error_shape(server: CompletionServer) -> None:
    with httpx.Client() as client:
        for path in ("/v1/chat/completions", f"{_MODEL}:countTokens"):
            reply = client.post(f"{server.base_url}{path}", json=_request(1))
            assert reply.status_code == 404
            error = reply.json()["error"]
            assert error["status"] == "INVALID_ARGUMENT" and path in error["message"]
