"""Upstream bug reports: one Markdown report per rule that fails on documented streams.

A rule whose verdict rests on a documented stream (results.json `found_on: "documented"`,
verdicts.md §2) is a defect of the SDK on a stream its provider may send as documented, so
it is worth filing in the SDK's own tracker; a rule failing only on observed or synthetic
streams is not filed. Each report holds the SDK and its version, the rule and its sources
(refold's contract and the provider's streaming page), the minimal stream as a runnable
program for the SDK (the target's `reproducer` template, results.json `target`), the
expected and received values, the impact, the departures and the `refold replay` command.

Every string from the run is scrubbed (`safe_input`, then the rendered text again) and
escaped for Markdown; code blocks are not escaped (nothing renders inside them) but are
fenced by a backtick run longer than any inside, so no stream text can close its fence.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from typing import Any

from refold.reference import dialect_record, rule_found_on, rule_impact

from ._markdown import escape_markdown as _escape_markup
from ._sanitize import safe_input

__all__ = [
    "IMPACT_WORDS",
    "UpstreamReports",
    "render_upstream",
    "stream_literal",
    "upstream_reports",
]

IMPACT_WORDS = {
    "crash": "**crash**: the SDK raises (or exits, or hangs) on this stream, so its user "
    "gets no result at all.",
    "loss": "**loss**: something the stream carried is absent from (or shorter in) the "
    "SDK's result.",
    "corruption": "**corruption**: a value the stream carried is present in the SDK's "
    "result, but wrong.",
    "representation": "**representation**: the data is there, but as another of `null`, "
    '`""`, absent, `[]` or `{}` than the documented result has.',
}
"""What each impact costs a user, in words (verdicts.md §3)."""

_FILE_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_DOCS_URL = re.compile(r"https://[^\s<>()\[\]`\\]+")
_BACKTICKS = re.compile(r"`+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_IN_BLOCK = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_markdown(text: Any) -> str:
    """`text` as one line of Markdown text: control characters (a terminal escape in a
    target's description) dropped, markup escaped."""
    return _escape_markup(_CONTROL.sub(" ", str(text)))


@dataclass(frozen=True)
class UpstreamReports:
    """The upstream reports of one run, and which failed rules were not filed and why."""

    reports: dict[str, str]
    """File name -> Markdown report, one per rule failing on documented streams."""
    departing_only: list[str]
    """Failed rules found only on observed or synthetic streams: not filed."""
    unshaped: list[str]
    """Failed rules of a results file written before stream shapes (no `found_on`)."""

    def summary(self) -> str:
        """What the command prints after the files: the count filed and not filed."""
        filed, departing = len(self.reports), len(self.departing_only)
        lines = [
            f"{filed} rule{_s(filed)} fail{_verb_s(filed)} on documented streams: "
            f"{filed} report{_s(filed)}; {departing} rule{_s(departing)} "
            f"fail{_verb_s(departing)} only on departing streams: not filed."
        ]
        if self.unshaped:
            lines.append(
                f"{len(self.unshaped)} failed rule{_s(len(self.unshaped))} "
                f"({', '.join(self.unshaped)}) carry no `found_on`: the results file was "
                "written before stream shapes, so nothing shows they fail on documented "
                "streams; not filed. Run `refold check` again to classify them."
            )
        return "\n".join(lines)


def upstream_reports(results: dict[str, Any]) -> UpstreamReports:
    """The upstream reports of the results document `results` (a run of one target)."""
    results = safe_input(results)
    reports: dict[str, str] = {}
    departing: list[str] = []
    unshaped: list[str] = []
    rules = results.get("rules")
    for rule_id, rule in rules.items() if isinstance(rules, dict) else []:
        if not isinstance(rule, dict) or rule.get("status") != "failed":
            continue
        if "found_on" not in rule:
            unshaped.append(str(rule_id))
        elif rule_found_on(rule) == "documented":
            reports[_file_name(results, str(rule_id))] = render_upstream(
                results, str(rule_id), rule
            )
        else:
            departing.append(str(rule_id))
    return UpstreamReports(reports, departing, unshaped)


def render_upstream(results: dict[str, Any], rule_id: str, rule: dict[str, Any]) -> str:
    """The report of failed rule `rule_id` (its results entry `rule`) of `results`."""
    target = _target(results)
    failure = _mapping(rule.get("failure"))
    statement = str(rule.get("statement") or "")
    lines = [
        f"# {escape_markdown(target.get('name', ''))}: {escape_markdown(rule_id)} "
        "fails on a documented stream",
        "",
        f"> {escape_markdown(statement)}",
        "",
    ]
    lines += _environment(results, target)
    lines += _rule_source(results, rule_id)
    lines += (
        _wire_reproducer(results, failure)
        if rule.get("feature") == "sse"
        else _reproducer(results, target, failure)
    )
    lines += _outcome(failure)
    lines += [
        "## Impact",
        "",
        IMPACT_WORDS.get(str(rule_impact(rule)), "Not stated: the failure names no impact."),
        "",
    ]
    lines += _departures(rule)
    lines += _replay(target, failure)
    return "\n".join(lines)


def _environment(results: dict[str, Any], target: dict[str, Any]) -> list[str]:
    versions = _mapping(results.get("versions"))
    lines = [
        "## Environment",
        "",
        f"- SDK: {escape_markdown(target.get('name', ''))}: "
        f"{escape_markdown(target.get('description', ''))}",
    ]
    lines += [
        f"- {name}: {escape_markdown(versions[name])}"
        for name in ("python", "platform")
        if name in versions
    ]
    lines.append(
        f"- found by refold {escape_markdown(results.get('refold_version', ''))} "
        "(property-based conformance suite for streaming LLM clients)"
    )
    return [*lines, ""]


def _rule_source(results: dict[str, Any], rule_id: str) -> list[str]:
    dialect = dialect_record(results)
    lines = [
        "## The rule",
        "",
        f"Rule **{escape_markdown(rule_id)}** of refold's contract for the "
        f"{escape_markdown(dialect['title'])} stream, "
        f"`docs/spec/{_code_span_text(dialect['spec'])}`.",
    ]
    docs = dialect.get("docs", "")
    if _DOCS_URL.fullmatch(docs):
        lines.append(f"The provider documents the stream at <{docs}>.")
    else:
        lines.append("The results name no provider documentation page for this dialect.")
    return [*lines, ""]


def _reproducer(
    results: dict[str, Any], target: dict[str, Any], failure: dict[str, Any]
) -> list[str]:
    chunks = failure.get("chunks")
    items: list[Any] = chunks if isinstance(chunks, list) else []
    item = dialect_record(results)["item"]
    lines = [
        "## Reproduce",
        "",
        f"The minimal failing stream ({len(items)} {escape_markdown(item)}"
        f"{_s(len(items))}) is documented: every {escape_markdown(item)} matches the "
        "provider's published schema and the documented order, and it carries no "
        "departure.",
    ]
    template = target.get("reproducer")
    if isinstance(template, str) and "{stream}" in template:
        program = template.replace("{stream}", stream_literal(items)).rstrip("\n")
        lines += [
            "This program feeds it to the SDK's own accumulation, as refold did, and "
            "prints what the SDK folded:",
            "",
            *_fenced(program, _language(program)),
        ]
    else:
        lines += [
            f"Feed these {escape_markdown(item)}s, one JSON value a line, in order, "
            "to the library's stream accumulation and print the result it builds:",
            "",
            *_fenced("\n".join(_json_line(i) for i in items), "jsonl"),
        ]
    return lines


def _wire_reproducer(results: dict[str, Any], failure: dict[str, Any]) -> list[str]:
    """A wire rule's failure is the SDK's SSE decoder's, not its accumulation's: the
    report gives the bytes, each event framed as the provider documents it (an `event:`
    line naming its `type`, where it has one, and one `data:` line)."""
    chunks = failure.get("chunks")
    items: list[Any] = chunks if isinstance(chunks, list) else []
    item = dialect_record(results)["item"]
    framed = "".join(
        (
            f"event: {_json_line(i['type'])[1:-1]}\n"
            if isinstance(i, dict) and isinstance(i.get("type"), str)
            else ""
        )
        + f"data: {_json_line(i)}\n\n"
        for i in items
    )
    return [
        "## Reproduce",
        "",
        f"The minimal failing body carries {len(items)} {escape_markdown(item)}"
        f"{_s(len(items))}, each framed as the provider documents it. The rule is about "
        "the SDK's server-sent events decoder: give these bytes, as the body of a "
        "streamed response, to the SDK's streaming client (for example through a mock "
        "HTTP transport) and read the events or the message it yields:",
        "",
        *_fenced(framed.rstrip("\n"), "text"),
    ]


def _language(program: str) -> str:
    # The built-in templates are Python or, for the Node.js targets, JavaScript, whose
    # first line is a `//` comment.
    return "javascript" if program.lstrip().startswith("//") else "python"


def stream_literal(items: list[Any]) -> str:
    """`items` as a reproducer's `{stream}`: a list literal of one JSON text per item, each
    an ASCII string literal (so it reads the same in Python and JavaScript)."""
    body = "".join(f"    {json.dumps(_json_line(item))},\n" for item in items)
    return f"[\n{body}]"


def _outcome(failure: dict[str, Any]) -> list[str]:
    lines = ["## Expected and received", ""]
    pointer = failure.get("pointer")
    if isinstance(pointer, str):
        lines += [f"The first difference is at `{_code_span_text(pointer or '/')}`.", ""]
    if failure.get("expected") is None and failure.get("received") is None:
        lines += ["What refold reported:", "", *_fenced(str(failure.get("message") or ""), "text")]
        return lines
    for heading, key in (
        ("Expected (refold's reference fold of the stream):", "expected"),
        ("Received (the SDK's result):", "received"),
    ):
        lines += [
            heading,
            "",
            *_fenced(json.dumps(failure.get(key), indent=2, ensure_ascii=False), "json"),
        ]
    return lines


def _departures(rule: dict[str, Any]) -> list[str]:
    departures = [str(d) for d in rule.get("departures") or []]
    shown = (
        ", ".join(f"`{_code_span_text(d)}`" for d in departures)
        if departures
        else "none: the stream is as the provider documents it."
    )
    return ["## Departures", "", shown, ""]


def _replay(target: dict[str, Any], failure: dict[str, Any]) -> list[str]:
    replay_file = failure.get("replay_file")
    if not isinstance(replay_file, str) or not replay_file:
        return ["## Replay", "", "The run kept no replay file for this failure.", ""]
    command = f"refold replay {shlex.quote(replay_file)}"
    if "reproducer" in target:
        # A built-in target's name is its --target value; a user target's replay file
        # names the module or command it ran, which its name need not be.
        command += f" --target {shlex.quote(str(target.get('name', '')))}"
    return [
        "## Replay",
        "",
        "With refold installed, this re-runs the one failing case (the path is the failing run's):",
        "",
        *_fenced(command, "sh"),
    ]


def _fenced(text: str, language: str) -> list[str]:
    """`text` in a fenced code block whose fence no backtick run inside can close (and
    without control characters but newline and tab: a terminal would obey them)."""
    text = _CONTROL_IN_BLOCK.sub(" ", text)
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{language}", text, fence, ""]


def _code_span_text(text: str) -> str:
    # An inline code span cannot hold a backtick safely: shown as a quote mark instead.
    return " ".join(str(text).replace("`", "'").split())


def _json_line(item: Any) -> str:
    return json.dumps(item, ensure_ascii=True, separators=(",", ":"))


def _target(results: dict[str, Any]) -> dict[str, Any]:
    return _mapping(results.get("target"))


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _file_name(results: dict[str, Any], rule_id: str) -> str:
    name = f"{_target(results).get('name', 'target')}-{rule_id}"
    return f"{_FILE_NAME_UNSAFE.sub('-', name).strip('-.') or 'report'}.md"


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def _verb_s(count: int) -> str:
    return "s" if count == 1 else ""
