"""The release gate: judge a run against a baseline (`--baseline FILE`).

A gate run is reproducible: it draws fixed examples (`refold.profiles.load_gate_profile`), so
the same target finds the same failures as the run that wrote the baseline. It fails on

* a new failure: a test expected to fail (xfail) charges a rule the baseline does not
  list, or fails a listed rule with a fingerprint the rule does not record;
* a stale fingerprint: its test ran, and the rule no longer fails that way there;
* a stale entry: the rule no longer fails in any test that ran (for a rule without
  fingerprints, files written before them: its tests passed and none was deselected).

Only tests that ran are judged, so a subset run (`-k`) reports nothing stale about the
tests it did not select. Every verdict is one sentence, also set as the rule's failure
(with the test failure's chunks, for a new failure) in the table and the results JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from refold.reference import ALL_RULES

from .baseline import SETTINGS_KEYS, Baseline
from .errors import UsageError
from .fingerprints import Fingerprint
from .results import RuleOutcome, RuleResults, XfailedTest

__all__ = ["check_claims", "judge", "settings_notes"]


def check_claims(baseline: Baseline, claimed: Iterable[str], target: str) -> None:
    """Refuse entries for rules of features the target does not claim.

    Their tests are skipped, so such an entry could never be judged, and would stay in
    the file forever, silently: a configuration error like an unknown rule id.

    Raises:
        UsageError: naming every such entry, its feature and the claimed features.
    """
    features = set(claimed)
    for table in ("expected_failures", "skips"):
        entries: Mapping[str, str] = getattr(baseline, table)
        unclaimed = sorted(r for r in entries if ALL_RULES[r].feature not in features)
        if unclaimed:
            listed = ", ".join(f"{r} ({ALL_RULES[r].feature})" for r in unclaimed)
            raise UsageError(
                f"baseline {baseline.path}: [{table}] lists {listed}, of features target "
                f"{target} does not claim (it claims {', '.join(sorted(features))}); their "
                f"tests are skipped, so the entries could never be checked: remove them, "
                f"or claim the features")


def settings_notes(baseline: Baseline | None,
                   current: Mapping[str, str | int] | None) -> list[str]:
    """A warning when this run draws examples differently from the run behind `baseline`.

    A warning, not an error: after a Hypothesis upgrade, or with a bigger profile on
    purpose, the gate still judges every failure; the note says why it may not match.
    """
    if baseline is None or current is None:
        return []
    recorded = baseline.settings
    differ = [k for k in SETTINGS_KEYS if k in recorded and recorded[k] != current.get(k)]
    if not differ:
        return []
    then = ", ".join(f"{k} {recorded[k]}" for k in differ)
    now = ", ".join(f"{k} {current.get(k)}" for k in differ)
    return [f"refold baseline: {baseline.path} was written with {then}, but this run has "
            f"{now}, so it draws other examples: failures the baseline records may not be "
            f"found and others may appear; run with the recorded settings (for the profile, "
            f"--profile {recorded.get('profile', current.get('profile'))}) or rewrite the "
            f"baseline"]


def judge(baseline: Baseline, results: RuleResults, *,
          deselected_rules: frozenset[str] = frozenset()) -> list[str]:
    """Judge the run; mark each verdict on its rule's outcome and return the sentences."""
    verdicts: list[str] = []
    for test in results.xfailed:
        verdicts += _new_failures(baseline, results, test)
    for rule_id, reason in sorted(baseline.expected_failures.items()):
        recorded = baseline.fingerprints.get(rule_id)
        if not recorded:  # no fingerprints (an older file): judged per rule
            verdicts += _stale_rule(baseline, results, rule_id, reason, deselected_rules)
        else:
            verdicts += _stale_fingerprints(baseline, results, rule_id, reason, recorded)
    return verdicts


def _new_failures(baseline: Baseline, results: RuleResults, test: XfailedTest) -> list[str]:
    expected = baseline.expected_failures
    listed = [r for r in test.rules if r in expected]
    found = ", ".join(sorted({str(_fingerprint(f)) for f in test.fingerprints})) or "no details"
    verdicts = []
    for rule_id in sorted(test.implicated - expected.keys()):
        verdicts.append(_fail(results, rule_id, test, (
            f"new failure: {rule_id} fails in {test.nodeid}, a test the baseline "
            f"{baseline.path} expects to fail only for {', '.join(listed)} ({found}).")))
    for rule_id in sorted({f["rule"] for f in test.fingerprints} & expected.keys()):
        recorded = baseline.fingerprints.get(rule_id)
        if not recorded:
            continue  # a rule recorded without fingerprints is judged per rule
        for fingerprint in sorted({_fingerprint(f) for f in test.fingerprints
                                   if f["rule"] == rule_id} - recorded):
            verdicts.append(_fail(results, rule_id, test, (
                f"new failure: {rule_id} fails in {test.nodeid} as {fingerprint}, which the "
                f"baseline {baseline.path} does not record for {rule_id} (it records "
                f"{_listing(recorded)}); {_kinship(fingerprint, recorded)}.")))
    return verdicts


def _kinship(new: Fingerprint, recorded: frozenset[Fingerprint]) -> str:
    """What the new fingerprint is to the recorded ones, as far as they can tell."""
    if any((f.kind, f.pointers) == (new.kind, new.pointers) for f in recorded):
        return ("the same kind of failure at the same pointers is recorded in another test, "
                "so this may be the known defect found by one more test")
    return "a failure the baseline has not seen in this rule"


def _stale_rule(baseline: Baseline, results: RuleResults, rule_id: str, reason: str,
                deselected_rules: frozenset[str]) -> list[str]:
    outcome = results.by_rule.get(rule_id)
    if outcome is None or outcome.status != "passed" or rule_id in deselected_rules:
        return []
    return [_stale(results, rule_id, (
        f"stale baseline entry: {rule_id} passes now, but {baseline.path} expects it to "
        f"fail ({reason}); remove the entry."))]


def _stale_fingerprints(baseline: Baseline, results: RuleResults, rule_id: str, reason: str,
                        recorded: frozenset[Fingerprint]) -> list[str]:
    outcome = results.by_rule.get(rule_id, RuleOutcome())
    seen = {Fingerprint.from_json(f) for f in outcome.fingerprints}
    judged = {f for f in recorded
              if f.test in results.ran and (f.test, rule_id) not in results.blocked_in}
    gone = sorted(judged - seen)
    if not gone:
        return []
    if judged == recorded and not seen and outcome.status == "passed":
        return [_stale(results, rule_id, (
            f"stale baseline entry: {rule_id} passes now in every test that recorded its "
            f"failure ({', '.join(sorted({f.test for f in recorded}))}), but "
            f"{baseline.path} expects it to fail ({reason}); remove the entry."))]
    return [_stale(results, rule_id, (
        f"stale baseline fingerprint: {rule_id} no longer fails in {fingerprint.test} as "
        f"{baseline.path} records ({fingerprint}); remove it from the rule's "
        f"[fingerprints], or rewrite the baseline with `refold baseline --write`."))
        for fingerprint in gone]


def _fail(results: RuleResults, rule_id: str, test: XfailedTest, message: str) -> str:
    outcome = results.by_rule.setdefault(rule_id, RuleOutcome())
    outcome.mark_failed(message, test.failure)
    outcome.verdict = "new"
    return message


def _stale(results: RuleResults, rule_id: str, message: str) -> str:
    outcome = results.by_rule.setdefault(rule_id, RuleOutcome())
    if outcome.status != "failed":  # a failure already shown for the rule stays its reason
        outcome.mark_stale(message)
    outcome.verdict = outcome.verdict or "stale"
    return message


def _fingerprint(value: Mapping[str, object]) -> Fingerprint:
    return Fingerprint.from_json(value)


def _listing(recorded: frozenset[Fingerprint]) -> str:
    return "; ".join(str(f) for f in sorted(recorded)) if recorded else "no fingerprint"
