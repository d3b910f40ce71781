"""JUnit XML: one testcase per rule, so CI dashboards list the spec's rules (and, in a
second testsuite, the chat dialect's wire rules of the `sse` suite); each testsuite's
`dialect` property names the dialect of the run.

passed → a plain testcase; failed → <failure> with the message, the JSON pointer and
the chunks; xfailed, blocked, not judged, skipped and not run → <skipped> with the status
and the reason (a rule not judged is never a plain, passing testcase). Characters XML
1.0 cannot carry (a NUL or a lone surrogate in a stream) and the control characters a
terminal showing the file would obey (ESC, BEL, DEL, C1's CSI) are written as their JSON
escape (`\\u001b`, the console's form), but newline and tab in text; in attribute values,
newline and tab from a run are escaped too.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from refold.reference import dialect_record

from ._model import by_feature, failure_text, first_line, items_of, wire_note
from ._sanitize import escape_controls
from ._verdicts import headline_lines, verdict_of, verdict_words

__all__ = ["render_junit"]

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: Any) -> str:
    """`value` as element text: no control character but newline and tab, nothing XML
    cannot carry."""
    return _NOT_XML.sub(_escaped, escape_controls(str(value)))


def _attribute(value: Any) -> str:
    """`value` as an attribute value: as `_text`, newline and tab escaped too."""
    return _NOT_XML.sub(_escaped, escape_controls(str(value), keep=""))


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


_SKIPPED = ("xfailed", "blocked", "not judged", "skipped", "not run")
"""The statuses a testcase reports as skipped, each with its reason."""


def render_junit(results: dict[str, Any]) -> str:
    """The results as a JUnit XML document: a testsuite of the spec's rules, and one of the
    wire rules (named as not part of chat-fold.md) when the results list any."""
    target = results.get("target", {})
    root = ET.Element("testsuites", {"name": "refold"})
    spec = _suite(
        results, f"refold: {target.get('name', '')}", by_feature(results, registry="spec")
    )
    # The headline opens the first suite's properties: CI dashboards list those first.
    properties = spec.find("properties")
    if properties is not None:
        headline = "\n".join(_attribute(line) for line in headline_lines(results))
        properties.insert(0, ET.Element("property", {"name": "headline", "value": headline}))
    root.append(spec)
    wire = by_feature(results, registry="wire")
    if wire:
        root.append(_suite(results, f"refold {wire_note(results)}: {target.get('name', '')}", wire))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _suite(
    results: dict[str, Any], name: str, groups: dict[str, list[tuple[str, dict[str, Any]]]]
) -> ET.Element:
    # Counted from the suite's own rules: the results' totals span both registries.
    rules = [rule for group in groups.values() for _, rule in group]
    target = results.get("target", {})
    suite = ET.Element(
        "testsuite",
        {
            "name": _attribute(name),
            "tests": str(len(rules)),
            "failures": str(sum(r.get("status") == "failed" for r in rules)),
            "errors": "0",
            "skipped": str(sum(r.get("status") in _SKIPPED for r in rules)),
            "time": f"{float(results.get('duration_seconds') or 0):.3f}",
            "timestamp": _attribute(results.get("started", "")),
        },
    )
    properties = ET.SubElement(suite, "properties")
    for key, value in (
        ("dialect", dialect_record(results)["name"]),
        ("target", target.get("name")),
        ("features", " ".join(target.get("features", []))),
        ("hypothesis_profile", results.get("hypothesis_profile")),
        ("refold_version", results.get("refold_version")),
    ):
        ET.SubElement(properties, "property", {"name": key, "value": _attribute(value or "")})
    for feature, group in groups.items():
        for rule_id, rule in group:
            suite.append(_testcase(feature, rule_id, rule, items_of(results)))
    return suite


def _verdict_properties(case: ET.Element, rule: dict[str, Any]) -> None:
    """The failed rule's found_on, impact and departures as testcase properties (the form
    pytest's own junitxml writes `record_property` in)."""
    found = verdict_of(rule)
    properties = ET.SubElement(case, "properties")
    for key, value in (
        ("found_on", found.found_on),
        ("impact", found.impact),
        ("departures", " ".join(found.departures)),
    ):
        if value:
            ET.SubElement(properties, "property", {"name": key, "value": _attribute(value)})


def _testcase(feature: str, rule_id: str, rule: dict[str, Any], items: str) -> ET.Element:
    case = ET.Element(
        "testcase",
        {"classname": _attribute(f"refold.{feature}"), "name": _attribute(rule_id), "time": "0"},
    )
    status = rule.get("status")
    if status == "failed":
        text = failure_text(rule.get("failure"), items) or str(rule.get("reason") or "failed")
        words = verdict_words(rule)
        if words:
            _verdict_properties(case, rule)
            text = f"[{' · '.join(words)}] {text}"
        failure = ET.SubElement(
            case, "failure", {"message": _attribute(first_line(text)), "type": "ConformanceFailure"}
        )
        failure.text = _text(text)
    elif status in _SKIPPED:
        # Blocked is no failure of its own: the blocking rule's testcase carries it.
        reason = {
            "xfailed": "known failure (baseline)",
            "not run": "no test checked this rule",
            "blocked": "blocked by another rule's failure",
            "not judged": "outside the target's stated projection",
        }
        message = str(rule.get("reason") or reason.get(str(status), "skipped"))
        # A "not judged" reason begins with its status already.
        shown = message if message.startswith(f"{status}:") else f"{status}: {message}"
        ET.SubElement(case, "skipped", {"message": _attribute(shown)})
    return case
