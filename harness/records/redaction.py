"""What this machine adds to the scrubber: its environment's values and its local paths.

`refold.reference` scrubs what is shaped like a credential, but it is sans-IO and cannot
know this machine's secrets or paths. Every document the harness persists (results.json,
junit.xml, report.html, summary.md, replay files, baselines) passes through here as well:

* **Environment canaries.** Every value of the harness's environment at least
  `CANARY_MIN` (8) characters long counts as a planted canary and becomes
  `refold.reference.REDACTED` wherever it appears, and so does every secret the harness
  made itself (`register_secret`: the worker token `REFOLD_TARGET_TOKEN` of each
  `refold.targets.process_tree.ProcessTree`). Not counted, because they are not secrets
  and hiding them would make documents unreadable:

  - paths (a value starting with `/`, `~` or `.`, and `os.pathsep`-separated lists of
    them such as `PATH`): the local path roots below show them relative to a named root;
  - numbers, `true`/`false`/`yes`/`no`/`on`/`off`, locale names (`en_US.UTF-8`),
    terminal and shell names (`xterm-256color`, `/bin/bash`);
  - a value made of lower-case letters only (`anthropic`, `langchain`): a name, which
    would otherwise blank every mention of a target or a word;
  - a value that occurs inside the markers this module and the scrubber write;
  - the variables pytest and xdist set while they run (`PYTEST_CURRENT_TEST`, which
    names the test running, and `PYTEST_XDIST_*`), `PYTEST_ADDOPTS`, refold's own
    configuration (`REFOLD_*`; the worker token is registered instead), and `_`, `PWD`,
    `OLDPWD`.

  The environment is read once, on first use (`current`).

* **Local paths.** A path under one of this machine's roots is shown relative to the
  root's name, the longest root first, and only at path boundaries (a root inside a longer
  word or path, `/x/work/main` or `/work/mainline`, is left alone):

  - `<site-packages>`: each `sysconfig` purelib and platlib path, `site.getsitepackages()`
    and the user site-packages;
  - `<checkout>`: the repository refold runs from (the parent of the `harness` folder the
    installed `refold` package is), when it runs from a checkout;
  - `<cwd>`: the working directory when the paths were first computed;
  - `<home>`: `Path.home()`;
  - `<python>`: `sys.prefix` and `sys.base_prefix` (the standard library's frames).

  Documents written on another machine (re-rendered by `refold report`) hold that
  machine's paths; these are recognised by their shape: anything up to a `site-packages`
  or `dist-packages` folder is `<site-packages>`, anything up to a refold layer folder
  (`harness`, `reference`, `strategies`, `suites`) holding a `.py` file is `<checkout>`,
  and `/home/NAME` or `/Users/NAME` is `<home>`.

`persisted_text` is the text scrubber (`scrub_text` of the canaries and paths removed;
`local_text` removes them without scrubbing; `shown_text`, for a usage error on the console,
hides the canaries but keeps the paths the user must act on);
`redact` applies the canaries and paths to every string and member name of a JSON value,
before `refold.reference.persistable` scrubs and bounds it (so that a canary is removed
before a bound could cut it in two).

Wired in where documents are written and text is printed: failure records and replay files
(`refold.records.failures.kept`, `refold.records.replay.replay_content`), the results document
(`refold.records.report.write_report`), the reports rendered from it (`refold check --report-dir`
and `refold report`, which redact the documents they read, so a report re-rendered is
clean), baselines (`refold baseline --write`), pytest's failure output of conformance
tests and the compact summary (`refold.run.console.escape_report`, the plugin's summary).

Limits: a baseline's `target =` line keeps its path (a gate run without `--target` runs
it), its canaries hidden; a usage error on the console keeps its paths (it names files the
user must act on); a replay file's target shows its path relative to a root, to be passed
again with `--target` as it always must; a root or canary is matched as written, so a
value escaped inside a string quoted in text (JSON in a message) may escape the match.
"""

from __future__ import annotations

import functools
import os
import re
import site
import sys
import sysconfig
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from refold.reference import NOT_KEPT, REDACTED, scrub_text

__all__ = [
    "CANARY_MIN",
    "Redaction",
    "canaries_of",
    "current",
    "local_roots",
    "local_text",
    "persisted_text",
    "redact",
    "register_secret",
    "shown_text",
]

CANARY_MIN = 8
"""An environment value at least this long is a canary."""

_ROOT_NAMES = ("<site-packages>", "<checkout>", "<cwd>", "<home>", "<python>")
_MARKERS = (REDACTED, NOT_KEPT, *_ROOT_NAMES)
_SKIPPED_NAMES = frozenset({"PYTEST_CURRENT_TEST", "PYTEST_ADDOPTS", "_", "PWD", "OLDPWD"})
_SKIPPED_PREFIXES = ("PYTEST_XDIST_", "REFOLD_")
"""Configuration, not secrets: pytest's and refold's own variables (rule ids, modes,
file names: `REFOLD_ONLY_RULES=RS-ANNOTATIONS` would otherwise blank a rule id in every
document). The worker token `REFOLD_TARGET_TOKEN` is hidden all the same: the harness
registers every token it makes (`register_secret`)."""
_COMMON = frozenset(
    {
        "true",
        "false",
        "yes",
        "no",
        "on",
        "off",
        "none",
        "null",
        "xterm-256color",
        "screen-256color",
        "tmux-256color",
        "xterm-color",
        "truecolor",
        "/bin/bash",
        "/bin/sh",
        "/bin/zsh",
        "/usr/bin/bash",
        "/usr/bin/zsh",
        "/usr/bin/fish",
    }
)
_NUMBER = re.compile(r"[+-]?\d+(?:[.,:]\d+)*")
_LOCALE = re.compile(r"[a-z]{2,3}_[A-Z]{2}(?:\.[\w-]{1,12})?(?:@\w+)?|C\.[\w-]{1,12}|POSIX")
_LOWER_WORD = re.compile(r"[a-z]+")

_PATH_CHAR = r"[^\s/\"'<>:;,|()\[\]{}=`]"
_BEFORE = r"(?:(?<![\w.~/-])|(?<=file://))"
"""A path starts at the start of text, after a non-path character, or after `file://`."""
_AFTER = r"(?![\w.~-])"
"""...and its root ends at a `/` or a non-path character, never inside a longer name."""
_SEGMENT = rf"{_PATH_CHAR}{{1,255}}"
_SEGMENTS = rf"(?:{_SEGMENT}/){{0,32}}"
"""Bounded, so that a hostile string of many `/` costs linear time, not quadratic."""
_FOREIGN = (  # another machine's roots, recognised by shape: (needles, pattern, name)
    (
        ("-packages",),
        re.compile(rf"{_BEFORE}/{_SEGMENTS}?(?:site|dist)-packages{_AFTER}"),
        "<site-packages>",
    ),
    (
        ("/harness/", "/reference/", "/strategies/", "/suites/"),
        re.compile(
            rf"{_BEFORE}/{_SEGMENTS}?{_SEGMENT}(?=/(?:harness|reference|strategies|suites)/"
            rf"{_SEGMENTS}{_SEGMENT}\.py{_AFTER})"
        ),
        "<checkout>",
    ),
    (("/home/", "/Users/"), re.compile(rf"{_BEFORE}/(?:home|Users)/{_SEGMENT}{_AFTER}"), "<home>"),
)

_registered: tuple[str, ...] = ()


def register_secret(value: str) -> None:
    """Count `value` (a token the harness made and handed to a target) as a canary from
    now on, in this process."""
    global _registered  # one set of tokens per process
    if len(value) >= CANARY_MIN and value not in _registered:
        _registered = tuple(sorted({*_registered, value}, key=lambda v: (-len(v), v)))


def _is_path(value: str) -> bool:
    parts = [part for part in value.split(os.pathsep) if part]
    return bool(parts) and all(part.startswith(("/", "~", ".")) for part in parts)


def canaries_of(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The values of `environ` that count as canaries (see the module's docstring),
    longest first."""
    found: set[str] = set()
    for name, value in environ.items():
        if name in _SKIPPED_NAMES or name.startswith(_SKIPPED_PREFIXES):
            continue
        value = value.strip()
        if (
            len(value) < CANARY_MIN
            or value.lower() in _COMMON
            or _is_path(value)
            or _NUMBER.fullmatch(value)
            or _LOCALE.fullmatch(value)
            or _LOWER_WORD.fullmatch(value)
            or any(value in marker for marker in _MARKERS)
        ):
            continue
        found.add(value)
    return tuple(sorted(found, key=lambda value: (-len(value), value)))


def _checkout() -> Path | None:
    package = (
        Path(__file__).resolve().parents[1]
    )  # the `refold` package, this module's room's parent
    return package.parent if package.name == "harness" else None


def local_roots() -> tuple[tuple[str, str], ...]:
    """This machine's path roots as (path, name), longest first; each root once, under
    the first name that claims it (in the order of `_ROOT_NAMES`)."""
    claims: list[tuple[str, Iterable[str | Path | None]]] = [
        (
            "<site-packages>",
            [
                *(sysconfig.get_paths().get(key) for key in ("purelib", "platlib")),
                *_safe(site.getsitepackages),
                _safe_one(site.getusersitepackages),
            ],
        ),
        ("<checkout>", [_checkout()]),
        ("<cwd>", [_safe_one(Path.cwd)]),
        ("<home>", [_safe_one(Path.home)]),
        ("<python>", [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]),
    ]
    roots: dict[str, str] = {}
    for name, paths in claims:
        for path in paths:
            if not path:
                continue
            for spelling in {os.path.normpath(str(path)), os.path.realpath(str(path))}:
                if spelling.startswith("/") and spelling != "/":
                    roots.setdefault(spelling, name)
    return tuple(sorted(roots.items(), key=lambda item: (-len(item[0]), item[0])))


def _safe(function: Any) -> list[str]:
    try:
        return list(function())
    except (AttributeError, OSError, RuntimeError):
        return []


def _safe_one(function: Any) -> str | None:
    try:
        return str(function())
    except (AttributeError, OSError, RuntimeError, KeyError):
        return None


@dataclass(frozen=True)
class Redaction:
    """The canaries and path roots of one machine, and how text loses them."""

    canaries: tuple[str, ...]
    roots: tuple[tuple[str, str], ...]

    @functools.cached_property
    def _roots(self) -> re.Pattern[str] | None:
        if not self.roots:
            return None
        alternatives = "|".join(re.escape(path) for path, _ in self.roots)
        return re.compile(rf"{_BEFORE}({alternatives}){_AFTER}")

    @functools.cached_property
    def _names(self) -> dict[str, str]:
        return dict(self.roots)

    def text(self, text: str) -> str:
        """`text` without canaries, its paths relative to their roots (not scrubbed)."""
        return self.relative(self.hidden(text))

    def hidden(self, text: str) -> str:
        """`text` with every canary replaced by `REDACTED`."""
        for canary in (*self.canaries, *_registered):
            if canary in text:
                text = text.replace(canary, REDACTED)
        return text

    def relative(self, text: str) -> str:
        """`text` with its paths relative to their named roots."""
        if "/" not in text:
            return text
        if (pattern := self._roots) is not None:
            text = pattern.sub(lambda match: self._names[match.group(1)], text)
        for needles, foreign, name in _FOREIGN:
            if any(needle in text for needle in needles):
                text = foreign.sub(name, text)
        return text


@functools.cache
def current() -> Redaction:
    """This machine's redaction: its environment and roots, read once."""
    return Redaction(canaries_of(os.environ), local_roots())


def local_text(text: str) -> str:
    """`text` without this machine's canaries, its paths relative to named roots (not
    scrubbed: for text with a structure of its own, such as a baseline's TOML)."""
    return current().text(text)


def persisted_text(text: str) -> str:
    """`text` as refold may persist or print it: without this machine's canaries, its
    paths relative to named roots, scrubbed by `refold.reference.scrub_text`."""
    return scrub_text(current().text(text))


def shown_text(text: str) -> str:
    """`text` as the console may show it when it names a path the user must act on (a
    usage error): without canaries, scrubbed, its paths kept whole."""
    return scrub_text(current().hidden(text))


def redact(value: Any) -> Any:
    """A copy of a JSON value whose strings and member names hold no canary and show
    paths relative to named roots (not scrubbed: `persistable` does that)."""
    redaction = current()
    return _redact(value, redaction)


def _redact(value: Any, redaction: Redaction) -> Any:
    if isinstance(value, str):
        return redaction.text(value)
    if isinstance(value, dict):
        return {
            redaction.text(str(key)) if isinstance(key, str) else key: _redact(item, redaction)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [_redact(item, redaction) for item in value]
    return value
