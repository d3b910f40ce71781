"""The reproducer of an offline SDK target (`refold.targets.sdk.offline`): a short Python
program that serves a stream of events as server-sent events to the SDK's streaming helper
through an in-memory `httpx2` transport, as the target does, and prints the helper's final
object (`refold.targets.sdk.reproducers` says what a reproducer is).

Every such program is the same but for the SDK, the frame it writes per event and the
helper it calls; `offline_reproducer` writes it from those. Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["offline_reproducer"]

_LINE_LENGTH = 100
"""The program's lines stay shorter than this: a longer one is wrapped."""


def offline_reproducer(
    call: str,
    request: Sequence[str],
    *,
    library: str,
    client: str,
    base_url: str,
    frame: str,
    final: str,
) -> str:
    """The program calling the streaming helper `call` (`client.<resource>.stream`) of
    SDK `library` (named as its maintainers name it) with the argument lines `request`:
    the client class `client` (`package.Class`) is answered at `base_url` with each event
    written as the f-string `frame` (of `event`), and the program prints what the helper's
    `final` method (`get_final_<object>`) returns, held in a variable named `<object>`.
    `{stream}` stays where a report puts the stream."""
    package = client.split(".", 1)[0]
    result = final.rsplit("_", 1)[-1]
    imports = sorted(
        (f"import {package}", f"import httpx2  # {library}'s HTTP library"),
        key=lambda line: line.split()[1],
    )
    return "\n".join(
        (
            f'"""Serves a stream of events as server-sent events to {library}\'s',
            f'`{call}()`, in memory, and prints `{final}()`."""',
            "import json",
            "",
            *imports,
            "",
            "EVENTS = [json.loads(item) for item in {stream}]",
            "",
            "",
            "def answer(request: httpx2.Request) -> httpx2.Response:",
            _fitted('    body = "".join(', (frame, "for event in EVENTS)")),
            _aligned(
                "    return httpx2.Response(",
                (
                    '200, headers={"content-type": "text/event-stream"},',
                    "content=body.encode(), request=request)",
                ),
            ),
            "",
            "",
            _aligned(
                f"client = {client}(",
                (
                    f'api_key="offline", base_url="{base_url}", max_retries=0,',
                    "http_client=httpx2.Client(transport=httpx2.MockTransport(answer)))",
                ),
            ),
            _aligned(f"with {call}(", _arguments(request)) + ") as stream:",
            f"    {result} = stream.{final}()",
            f'print(json.dumps({result}.to_dict(mode="json", exclude_unset=True), indent=2))',
            "",
        )
    )


def _arguments(lines: Sequence[str]) -> list[str]:
    """The argument lines of a call, each but the last ending in a comma."""
    return [line + "," for line in lines[:-1]] + list(lines[-1:])


def _aligned(opening: str, lines: Sequence[str]) -> str:
    """`opening`, then `lines`, each after the first on a line of its own aligned after
    `opening`."""
    return opening + ("\n" + " " * len(opening)).join(lines)


def _fitted(opening: str, pieces: Sequence[str]) -> str:
    """`opening` and `pieces` on one line when it is short enough, else aligned."""
    line = opening + " ".join(pieces)
    return line if len(line) < _LINE_LENGTH else _aligned(opening, pieces)
