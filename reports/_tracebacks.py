"""Tracebacks as a report shows them: the target's frames, without the harness's own and
without the paths of the machine the run happened on.

A target's traceback (`File "PATH", line N, in NAME` and the indented source under it)
starts in the harness, which called the target; those frames say nothing about the
target and are dropped. A frame in an installed package is shown from the package on
(`openai/lib/...`); any other absolute path keeps its last two parts (`…/mypkg/fold.py`).
"""

from __future__ import annotations

import re

__all__ = ["tidy_tracebacks"]

_FRAME = re.compile(r'^(?P<indent>\s*)File "(?P<path>[^"]+)"(?P<rest>, line \d+.*)$')
_HARNESS = re.compile(
    r"[\\/](?:site|dist)-packages[\\/]refold[\\/](?!reference[\\/]|strategies[\\/])"
    r"|(?:^|[\\/])harness[\\/]"
)
"""The refold package installed, or its folder in a checkout (`harness/`)."""
_PACKAGED = re.compile(r"^.*[\\/](?:site|dist)-packages[\\/]")


def tidy_tracebacks(text: str) -> str:
    """`text` with every traceback frame of the harness dropped and paths shortened."""
    kept: list[str] = []
    skipping_below: int | None = None
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip())
        if skipping_below is not None and indent > skipping_below and line.strip():
            continue  # the source lines of a dropped frame
        skipping_below = None
        frame = _FRAME.match(line)
        if frame is None:
            kept.append(line)
        elif _HARNESS.search(frame["path"]):
            skipping_below = len(frame["indent"])
        else:
            kept.append(f'{frame["indent"]}File "{_shown(frame["path"])}"{frame["rest"]}')
    return "\n".join(kept)


def _shown(path: str) -> str:
    packaged = _PACKAGED.sub("", path)
    if packaged != path:
        return packaged
    parts = re.split(r"[\\/]", path)
    if not (path.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", path)) or len(parts) <= 3:
        return path
    return "…/" + "/".join(parts[-2:])
