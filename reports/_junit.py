"""JUnit XML: one testcase per rule, so CI dashboards list the spec's rules.

passed → a plain testcase; failed → <failure> with the message, the JSON pointer and
the chunks; xfailed, skipped and not run → <skipped> with the reason. Characters XML
1.0 cannot carry (a NUL or an escape byte in a stream) are written as \\xNN.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from ._model import by_feature, failure_text, first_line

__all__ = ["render_junit"]

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: Any) -> str:
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", str(value))


def render_junit(results: dict[str, Any]) -> str:
    """The results as a JUnit XML document."""
    totals = results.get("totals", {})
    target = results.get("target", {})
    suite = ET.Element("testsuite", {
        "name": _text(f"refold: {target.get('name', '')}"),
        "tests": str(len(results.get("rules", {}))),
        "failures": str(totals.get("failed", 0)),
        "errors": "0",
        "skipped": str(sum(totals.get(s, 0) for s in ("xfailed", "skipped", "not run"))),
        "time": f"{float(results.get('duration_seconds') or 0):.3f}",
        "timestamp": _text(results.get("started", "")),
    })
    properties = ET.SubElement(suite, "properties")
    for name, value in (("target", target.get("name")), ("features", " ".join(
            target.get("features", []))), ("hypothesis_profile", results.get("hypothesis_profile")),
            ("refold_version", results.get("refold_version"))):
        ET.SubElement(properties, "property", {"name": name, "value": _text(value or "")})
    for feature, rules in by_feature(results).items():
        for rule_id, rule in rules:
            suite.append(_testcase(feature, rule_id, rule))
    root = ET.Element("testsuites", {"name": "refold"})
    root.append(suite)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _testcase(feature: str, rule_id: str, rule: dict[str, Any]) -> ET.Element:
    case = ET.Element("testcase", {"classname": _text(f"refold.{feature}"),
                                   "name": _text(rule_id), "time": "0"})
    status = rule.get("status")
    if status == "failed":
        text = failure_text(rule.get("failure")) or str(rule.get("reason") or "failed")
        failure = ET.SubElement(case, "failure", {"message": _text(first_line(text)),
                                                  "type": "ConformanceFailure"})
        failure.text = _text(text)
    elif status in ("xfailed", "skipped", "not run"):
        reason = {"xfailed": "known failure (baseline)", "not run": "no test checked this rule"}
        message = rule.get("reason") or reason.get(str(status), "skipped")
        ET.SubElement(case, "skipped", {"message": _text(f"{status}: {message}")})
    return case
