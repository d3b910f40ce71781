"""What may be persisted: the one scrubber every document refold writes passes through.

Results, replay files, baselines and reports are kept and shared, so nothing secret or
opaque may reach them, wherever it hides:

* the value of a member named like a credential (`api_key`, `apiKey`, `x-api-key`,
  `Authorization`, `password`, `secret`, `*_token`, `cookie`, `set-cookie` ...; names are
  compared lower-case with `-`/`_` dropped) becomes `REDACTED`; a member named exactly
  `token` is kept under `logprobs`, where it is the sampled text;
* the value of an `opaque` or `payload` member, at any depth, becomes `NOT_KEPT`
  (in-memory provider frames, which runtimes strip before persisting; seed 000);
* inside every string (message text, differences, names, descriptions, stderr tails,
  member names too), anything shaped like a credential becomes `REDACTED`: OpenAI and
  Anthropic keys (`sk-`, `sk-proj-`, `sk-ant-`), AWS access key ids, GitHub and Slack
  tokens, Google API keys, JWTs, `Bearer ...`, `Authorization: Basic ...`, private key
  blocks, credential parameters of a URL's query or fragment (`?sig=`, `#token=`), and
  `name=value` / `"name": "value"` / `Name: value` pairs with a credential's name: one
  holding a word of `_SECRET_PARTS` (`GITHUB_TOKEN=...`, `AWS_SECRET_ACCESS_KEY=...`,
  `X-Auth-Key: ...` in the middle of a line) but a count of tokens (`max_tokens=5`).

Standard library only, so the harness and the reports share it (`reports/` may import
only `refold.reference`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ._compare import ABSENT

__all__ = ["NOT_KEPT", "REDACTED", "scrub", "scrub_at", "scrub_text"]

REDACTED = "[redacted]"
"""What a credential is replaced with."""

NOT_KEPT = "(present, not kept)"
"""What the value of an `opaque` or `payload` member is replaced with."""

_DROPPED = frozenset({"opaque", "payload"})
_SECRET_NAMES = frozenset(
    {
        "authorization",
        "proxyauthorization",
        "bearer",
        "cookie",
        "setcookie",
        "credential",
        "credentials",
        "passwd",
        "signingkey",
    }
)
_SECRET_SUFFIXES = (
    "apikey",
    "secret",
    "password",
    "token",
    "privatekey",
    "secretkey",
    "accesskeyid",
    "sessionid",
)
_SECRET_PARTS = (
    "key",
    "token",
    "secret",
    "auth",
    "passw",
    "session",
    "cookie",
    "signature",
    "credential",
    "bearer",
)
"""A member or header whose name (lower-case, `-`/`_` dropped) holds one of these is a
credential's (`x-api-key`, `Ocp-Apim-Subscription-Key`, `X-Auth-Key`, `session_id`...)."""
_COUNTS = ("tokens", "tokencount", "tokenids")
"""...unless it is a count of tokens (`input_tokens`, `promptTokenCount`, `token_ids`)."""
_CONTENT_NAMES = frozenset({"signature", "thoughtsignature"})
"""Members the contracts define as model output, compared by their rules (a thinking
block's `signature`, a Gemini part's `thoughtSignature`): kept."""
_LOGPROB_CONTAINERS = frozenset({"logprobs", "toplogprobs"})
_NOT_NAME = re.compile(r"[^a-z0-9]")

# (needles, pattern): a pattern runs only on text whose lower-case form holds a needle,
# so a 100 MB string without any is scanned at the speed of `str.__contains__`.
_PATTERNS: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (needles, re.compile(pattern))
    for needles, pattern in (
        # No leading \b: a key glued to a word (`31msk-...` after an escape) is still a key;
        # `sk-` wants a digit in its body, so `risk-management-framework` is not one.
        # A known prefix marks a key whatever its body (`sk-proj-AAAA...`); a bare `sk-`
        # wants a digit or a capital in its body.
        (
            ("sk-",),
            r"sk-(?:(?:proj|ant(?:-api\d\d)?|or-v1|svcacct|admin)-[A-Za-z0-9_-]{16,}"
            r"|(?=[A-Za-z0-9_-]{0,200}[\dA-Z])[A-Za-z0-9_-]{16,})",
        ),
        (("akia", "asia"), r"(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])"),
        (("gh",), r"gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"),
        (("xox",), r"xox[abposr]-[A-Za-z0-9-]{10,}"),
        (("aiza",), r"AIza[0-9A-Za-z_-]{35}"),
        (("eyj",), r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*"),
        (("bearer",), r"(?i:\bbearer)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]+"),
        (
            ("private key",),
            r"-----BEGIN[A-Z ]*PRIVATE KEY-----(?s:.*?)(?:-----END[A-Z ]*PRIVATE KEY-----|\Z)",
        ),
    )
)
_BASIC = re.compile(
    r"(?i)(\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?)basic\s+[A-Za-z0-9+/]{4,}=*"
)
_QUERY = re.compile(  # a URL's credential parameters: signed URLs, API keys in the query,
    # an OAuth implicit grant's `#access_token=` in the fragment
    r"(?i)([?&;#](?:sig|key|signature|token|secret|[\w.-]*(?:key|token|secret|signature)"
    r"[\w.-]*)=)(?!\[redacted\])[^&#\s\"'<>\\]+"
)
_SECRET_WORDS = (
    "key",
    "secret",
    "passw",
    "token",
    "cookie",
    "credential",
    "auth",
    "session",
    "signature",
    "bearer",
)
_NAMED_SECRET_TEXT = (
    r"[\w-]{0,40}?(?:api[_-]?key|secret|password|passwd|credentials?|"
    r"(?:access|refresh|session|id|auth|api|bearer)[_-]?token|cookie)"
)
# Any other name holding a secret word (`X-Auth-Key`, `Ocp-Apim-Subscription-Key`,
# `GITHUB_TOKEN`) that is neither a token count nor a content member, with a lower-case
# letter or an underscore (an environment variable's), so that a rule id (`CHOICE-KEY`,
# `AM-THINK-SIGNATURE`: upper-case, hyphens only) heading a line of a report is not taken
# for one. A bare `token` is left to the member rule, which knows a logprob entry's
# sampled text; a thinking block's `signature` and its `signature_delta` are content.
_WORDED_SECRET_TEXT = (
    r"(?-i:(?=[\w-]*[a-z_]))(?![\w-]*(?:tokens|token_?count|token_?ids))"
    r"(?!(?:signature|thought_?signature|signature_?delta|token)\b)"
    r"[\w-]{0,40}?(?:key|token|secret|auth|passw|session|cookie|signature|"
    r"credential|bearer)[\w-]{0,40}"
)
_SECRET_NAME_TEXT = rf"(?:{_NAMED_SECRET_TEXT}|{_WORDED_SECRET_TEXT})"
# A header line's name has a separator (`X-Auth-Key`) or is one word: `KeyError: 0` is not one.
_HEADER_NAME_TEXT = (
    rf"(?:{_NAMED_SECRET_TEXT}|(?=[\w]*[-_]){_WORDED_SECRET_TEXT}|"
    r"cookie|set-cookie|authorization|signature|session)"
)
_HEADER_LINE = re.compile(  # `Name: value` on a line of its own, as an HTTP head shows it
    rf"(?im)^(\s*{_HEADER_NAME_TEXT}:[ \t]*)(?!\[redacted\])(?P<v>\S[^\r\n]*)"
)
# `Name: value` inside a line (`got X-Auth-Key: abc`): a name with a separator, not a JSON
# pointer's segment (`/usage/x_key: expected ...`), nor a word glued to one.
_HEADER_INLINE = re.compile(
    rf"(?i)((?<![\w./-])(?:{_NAMED_SECRET_TEXT}|(?=[\w]*[-_]){_WORDED_SECRET_TEXT}):[ \t]*)"
    r"(?!\[redacted\])(?P<v>(?![{\[])[^\s\"',;&}\]\\]+)"
)
_ASSIGNED = re.compile(
    rf"(?i)((?P<q>[\"'])\b{_SECRET_NAME_TEXT}(?P=q)\s*:\s*|\b{_SECRET_NAME_TEXT}\s*=\s*)"
    r"(?!\[redacted\])(?P<v>\\\"(?:(?!\\\")[^\n])*\\\"|\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|"
    r"(?![{\[])[^\s\"',;&}\]\\]+)"
)


_FRAME_MEMBER = re.compile(r"([\"'])(?i:opaque|payload)\1\s*:\s*")
_SCALAR = re.compile(r"[^,}\]\n]*")


def _name(key: str) -> str:
    return _NOT_NAME.sub("", key.lower())


def _is_secret(name: str, value: Any, *, in_logprobs: bool) -> bool:
    if name == "token" and in_logprobs:
        return False  # a logprob entry's sampled text, not a credential
    if name in _SECRET_NAMES or name.endswith(_SECRET_SUFFIXES):
        return True
    if name in _CONTENT_NAMES or any(count in name for count in _COUNTS):
        return False
    # A name merely holding a secret word hides a scalar (a header's value, an environment
    # entry); an object or list under it is walked, so a key such as the rule id
    # `CHOICE-KEY` of a results document keeps its record.
    return isinstance(value, str | int | float) and any(part in name for part in _SECRET_PARTS)


def _hidden(name: str, value: Any, *, in_logprobs: bool) -> Any:
    """The marker that replaces a member's value, or ABSENT when the value is kept."""
    if name in _DROPPED:
        return NOT_KEPT
    if value not in (None, "") and _is_secret(name, value, in_logprobs=in_logprobs):
        return REDACTED
    return ABSENT


def scrub(
    value: Any, *, text: Callable[[str], str] | None = None, _in_logprobs: bool = False
) -> Any:
    """A copy of a JSON value without credentials or provider frames, at any depth.

    `text` scrubs each string value (`scrub_text` by default; `persistable` passes one
    that skips what it will cut anyway)."""
    clean = text or scrub_text
    if isinstance(value, dict):
        kept: dict[str, Any] = {}
        for key, item in value.items():
            name = _name(str(key))
            marker = _hidden(name, item, in_logprobs=_in_logprobs)
            kept[scrub_text(str(key))] = (
                marker
                if marker is not ABSENT
                else scrub(
                    item, text=clean, _in_logprobs=_in_logprobs or name in _LOGPROB_CONTAINERS
                )
            )
        return kept
    if isinstance(value, list | tuple):
        return [scrub(item, text=clean, _in_logprobs=_in_logprobs) for item in value]
    if isinstance(value, str):
        return clean(value)
    return value


def scrub_at(pointer: str, value: Any) -> Any:
    """`value`, found at JSON `pointer`, scrubbed as `scrub` would scrub it in place."""
    if value is ABSENT:
        return value
    in_logprobs = False
    for segment in pointer.split("/")[1:]:
        name = _name(segment.replace("~1", "/").replace("~0", "~"))
        marker = _hidden(name, value, in_logprobs=in_logprobs)
        if marker is not ABSENT:
            return marker
        in_logprobs = in_logprobs or name in _LOGPROB_CONTAINERS
    return scrub(value, _in_logprobs=in_logprobs)


def scrub_text(text: str) -> str:
    """`text` with anything shaped like a credential replaced by `REDACTED`."""
    lowered = text.lower()
    for needles, pattern in _PATTERNS:
        if any(needle in lowered for needle in needles):
            text = pattern.sub(REDACTED, text)
    if "authorization" in lowered:
        text = _BASIC.sub(lambda m: m.group(1) + REDACTED, text)
    if "=" in text and ("?" in text or "&" in text or "#" in text):
        text = _QUERY.sub(lambda m: m.group(1) + REDACTED, text)
    if any(word in lowered for word in _SECRET_WORDS):
        text = _ASSIGNED.sub(_assigned, text)
        text = _HEADER_LINE.sub(_assigned_header, text)
        if ":" in text:
            text = _HEADER_INLINE.sub(_assigned_header, text)
    if "opaque" in lowered or "payload" in lowered:
        text = _drop_frames(text)
    return text


def _drop_frames(text: str) -> str:
    """`"opaque": VALUE` written inside text (JSON or a repr quoted in a message): VALUE,
    however nested, becomes `NOT_KEPT`, quoted as the member's name is."""
    parts: list[str] = []
    position = 0
    while match := _FRAME_MEMBER.search(text, position):
        quote = match.group(1)
        parts.append(f"{text[position : match.end()]}{quote}{NOT_KEPT}{quote}")
        position = _value_end(text, match.end())
    return "".join(parts) + text[position:]


def _value_end(text: str, start: int) -> int:
    """Where the JSON-like value starting at `start` ends (the end of `text` if it is cut)."""
    if text[start : start + 1] in ('"', "'"):
        return _string_end(text, start)
    if text[start : start + 1] not in ("{", "["):
        return _SCALAR.match(text, start).end()  # type: ignore[union-attr]  # always matches
    depth, at = 0, start
    while at < len(text):
        char = text[at]
        if char in "\"'":
            at = _string_end(text, at)
            continue
        depth += (char in "{[") - (char in "}]")
        at += 1
        if depth == 0:
            return at
    return at


def _string_end(text: str, start: int) -> int:
    at = start + 1
    while at < len(text) and text[at] != text[start]:
        at += 2 if text[at] == "\\" else 1
    return min(at + 1, len(text))


def _assigned_header(match: re.Match[str]) -> str:
    return f"{match.group(1)}{REDACTED}"


def _assigned(match: re.Match[str]) -> str:
    value = match.group("v")
    # a value quoted inside JSON text keeps its escaped quotes: the text stays JSON
    quote = '\\"' if value.startswith('\\"') else value[0] if value[:1] in ("'", '"') else ""
    return f"{match.group(1)}{quote}{REDACTED}{quote}"
