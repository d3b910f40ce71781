"""The release gate: judge a run against a baseline (`--baseline FILE`).

A gate run is reproducible: it draws fixed examples (`refold.run.profiles.load_gate_profile`), so
the same target finds the same failures as the run that wrote the baseline. It fails on

* a new failure: a test expected to fail (xfail) charges a rule the baseline does not
  list, or fails a listed rule with a fingerprint the rule does not record, or a listed
  rule now fails on a less departing shape than the `found_on` its entry records (a rule
  that failed only on synthetic streams and now fails on documented ones has regressed);
* a stale entry: every minimal stream the entry records passes when replayed against the
  target (`refold.gate.recorded_streams`), its rule did not fail in this run, and none of its
  tests was deselected. An entry one of whose streams still fails is never stale,
  whatever this run's search met first or did not reach;
* for an entry without replayable streams (a file written before them, or a stream that
  cannot be judged by replay), as before: a stale fingerprint (its test ran, and the rule
  no longer fails that way there), or a stale entry (the rule no longer fails in any test
  that ran; for a rule without fingerprints: its tests passed and none was deselected).

Only tests that ran are judged, so a subset run (`-k`) reports nothing stale about the
tests it did not select. Every verdict is one sentence, also set as the rule's failure
(with the test failure's chunks, for a new failure) in the table and the results JSON.
Which failures fail the exit status is `--fail-on`'s (`refold.gate.fail_on`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pytest

from refold.reference import SHAPES, Shape

from ..dialects import EVERY_RULE
from ..errors import UsageError
from ..records.results import UNJUDGED_PROPERTY, RuleOutcome, RuleResults, XfailedTest
from ..run.check_kinds import check_for
from ..run.checks import ConformanceFailure
from ..run.projection import not_judged_reason, unjudged_rules
from ..targets import Target
from ..verdicts.fingerprints import Fingerprint
from .baseline import SETTINGS_KEYS, Baseline
from .recorded_streams import Replayed, replay_stream

__all__ = [
    "apply_claims",
    "check_claims",
    "claim_differences",
    "expect_known_crash",
    "judge",
    "judge_session",
    "masked_rules",
    "replay_entries",
    "settings_notes",
]


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
        unclaimed = sorted(r for r in entries if EVERY_RULE[r].feature not in features)
        if unclaimed:
            listed = ", ".join(f"{r} ({EVERY_RULE[r].feature})" for r in unclaimed)
            raise UsageError(
                f"baseline {baseline.path}: [{table}] lists {listed}, of features target "
                f"{target} does not claim (it claims {', '.join(sorted(features))}); their "
                f"tests are skipped, so the entries could never be checked: remove them, "
                f"or claim the features"
            )


def claim_differences(baseline: Baseline, target: Target) -> list[str]:
    """How the claims `target` states differ from those `baseline` pins: its projection,
    and the features of its hello (an exec: or http:// target's own statement), each a
    sentence that fails the gate. The dialect is pinned earlier: a target of another one
    is refused (`refold.targets.declared_dialect`)."""
    differences = []
    stated = None if target.projection is None else target.projection.record()
    if stated != baseline.projection:
        differences.append(
            f"claims differ from the baseline: target {target.name} states projection "
            f"{_claim(stated)}, but {baseline.path} records {_claim(baseline.projection)}; "
            f"a baseline pins what the target is judged on: rewrite it "
            f"(`refold baseline --write`) if the change is meant"
        )
    declared = getattr(target, "declared_features", None)
    if baseline.features is not None and declared is not None and declared != baseline.features:
        differences.append(
            f"claims differ from the baseline: target {target.name} states features "
            f"{', '.join(sorted(declared)) or 'none'}, but {baseline.path} records "
            f"{', '.join(sorted(baseline.features))} (differing: "
            f"{', '.join(sorted(declared ^ baseline.features))}); rewrite the baseline "
            f"(`refold baseline --write`) if the change is meant"
        )
    return differences


def _claim(projection: Mapping[str, object] | None) -> str:
    if projection is None:
        return "none (the whole result compared)"
    pointers = projection.get("pointers")
    shown = ", ".join(map(str, pointers)) if isinstance(pointers, list) else str(pointers)
    return f"{shown} ({projection.get('builds')})"


def apply_claims(
    item: pytest.Item,
    rules: tuple[str, ...],
    features: tuple[str, ...],
    target: Target,
    baseline: Baseline | None,
) -> None:
    """Skip a test of a feature the target does not claim, of rules its stated projection
    leaves unjudged only (and name those rules on the test, `UNJUDGED_PROPERTY`), or of a
    rule the baseline skips; mark a test of a rule the baseline expects to fail as xfail
    (not strict)."""
    missing = [f for f in features if f not in target.features]
    if missing:
        why = baseline.unsupported_features.get(missing[0]) if baseline else None
        reason = f"target {target.name} does not claim feature {', '.join(missing)}"
        item.add_marker(pytest.mark.skip(reason=f"{reason}: {why}" if why else reason))
        return
    unjudged = [r for r in rules if r in unjudged_rules(target.dialect, target.projection)]
    if unjudged and target.projection is not None:
        reason = not_judged_reason(target.projection)
        item.user_properties.append(
            (UNJUDGED_PROPERTY, {"rules": " ".join(unjudged), "reason": reason})
        )
        if len(unjudged) == len(rules):
            item.add_marker(pytest.mark.skip(reason=reason))
            return
    if baseline is None:
        return
    skipped = [r for r in rules if r in baseline.skips]
    if skipped:
        item.add_marker(
            pytest.mark.skip(reason=f"baseline skips {skipped[0]}: {baseline.skips[skipped[0]]}")
        )
        return
    expected = [r for r in rules if r in baseline.expected_failures]
    if expected:
        reasons = "; ".join(f"{r}: {baseline.expected_failures[r]}" for r in expected)
        item.add_marker(pytest.mark.xfail(reason=f"baseline: {reasons}", strict=False))


def masked_rules(baseline: Baseline | None, rules: Sequence[str]) -> frozenset[str]:
    """The baseline's expected failures other than `rules`, masked in a test of `rules`: a
    difference only they explain does not fail it (`Check.masked`)."""
    known = frozenset(baseline.expected_failures) if baseline is not None else frozenset()
    return known - set(rules)


def expect_known_crash(
    baseline: Baseline | None,
    report: pytest.TestReport,
    failures: Sequence[ConformanceFailure],
    implicated: tuple[str, ...],
) -> None:
    """Crashes charged only to a baseline's expected failures are those failures: the test
    reads xfailed, and its other rules blocked, not new failures."""
    if (
        baseline is None
        or not report.failed
        or not all(f.crash is not None and f.crash.explained for f in failures)
        or not set(implicated) <= baseline.expected_failures.keys()
    ):
        return
    report.outcome = "skipped"
    report.wasxfail = f"baseline: the crash is charged to {', '.join(implicated)}, expected to fail"


def judge_session(
    session: pytest.Session,
    baseline: Baseline,
    results: RuleResults,
    *,
    deselected_rules: frozenset[str],
    target: Target | None = None,
) -> list[str]:
    """Replay the entries' streams against `target`, `judge` the run, and fail it on every
    new failure and stale entry."""
    replayed = replay_entries(baseline, target) if target is not None else {}
    verdicts = judge(baseline, results, deselected_rules=deselected_rules, replayed=replayed)
    if verdicts and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    return verdicts


def settings_notes(baseline: Baseline | None, current: Mapping[str, str | int] | None) -> list[str]:
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
    return [
        f"refold baseline: {baseline.path} was written with {then}, but this run has "
        f"{now}, so it draws other examples: failures the baseline records may not be "
        f"found and others may appear; run with the recorded settings (for the profile, "
        f"--profile {recorded.get('profile', current.get('profile'))}) or rewrite the "
        f"baseline"
    ]


def replay_entries(baseline: Baseline, target: Target) -> dict[str, tuple[Replayed, ...]]:
    """Each entry's recorded streams replayed against `target` (rule id -> one result per
    stream), as a test of the entry's rule with the other expected failures masked."""
    check = check_for(target)
    known = frozenset(baseline.expected_failures)
    return {
        rule_id: tuple(replay_stream(check, stream, rule_id, known) for stream in streams)
        for rule_id, streams in sorted(baseline.streams.items())
        if streams
    }


def judge(
    baseline: Baseline,
    results: RuleResults,
    *,
    deselected_rules: frozenset[str] = frozenset(),
    replayed: Mapping[str, tuple[Replayed, ...]] | None = None,
) -> list[str]:
    """Judge the run; mark each verdict on its rule's outcome and return the sentences.

    `replayed` is what replaying each entry's streams said (`replay_entries`); an entry
    with none there is judged by the run's tests."""
    verdicts: list[str] = []
    for test in results.xfailed:
        verdicts += _new_failures(baseline, results, test)
    verdicts += _regressions(baseline, results)
    for rule_id, reason in sorted(baseline.expected_failures.items()):
        said = (replayed or {}).get(rule_id, ())
        outcome = results.by_rule.get(rule_id)
        still = outcome is not None and outcome.status in ("failed", "xfailed")
        if (
            said
            and all(r == "passes" for r in said)
            and not still
            and rule_id not in deselected_rules
        ):
            verdicts.append(
                _stale(
                    results,
                    rule_id,
                    (
                        f"stale baseline entry: {rule_id} passes now: each of the {len(said)} "
                        f"minimal stream(s) {baseline.path} records for it passes when replayed, "
                        f"but the baseline expects it to fail ({reason}); remove the entry."
                    ),
                )
            )
            continue
        if "fails" in said or (said and "unknown" not in said):
            continue  # still broken (or shown failing by this run), whatever its search met
        recorded = baseline.fingerprints.get(rule_id)
        if not recorded:  # no fingerprints (an older file): judged per rule
            verdicts += _stale_rule(baseline, results, rule_id, reason, deselected_rules)
        else:
            verdicts += _stale_fingerprints(baseline, results, rule_id, reason, recorded)
    return verdicts


def _regressions(baseline: Baseline, results: RuleResults) -> list[str]:
    """A listed rule that now fails on a less departing shape than its entry records."""
    verdicts = []
    for rule_id, verdict in sorted(baseline.verdicts.items()):
        recorded = verdict.found_on
        found = _least_departing(results, rule_id)
        if recorded is None or found is None or SHAPES.index(found[0]) >= SHAPES.index(recorded):
            continue
        shape, test = found
        where = f" in {test.nodeid}" if test is not None else ""
        departures = (
            ", ".join(test.failure.get("departures") or []) if test and test.failure else ""
        )
        carried = f" (departures: {departures})" if departures else ""
        message = (
            f"new failure: {rule_id} now fails on {shape} streams{where}{carried}, "
            f"but {baseline.path} records it as found on {recorded} streams: a rule "
            f"that fails on a less departing shape than its entry records has "
            f"regressed."
        )
        if test is not None:
            verdicts.append(_fail(results, rule_id, test, message))
        else:
            outcome = results.by_rule.setdefault(rule_id, RuleOutcome())
            outcome.mark_failed(message, outcome.failure)
            outcome.verdict = "new"
            verdicts.append(message)
    return verdicts


def _least_departing(results: RuleResults, rule_id: str) -> tuple[Shape, XfailedTest | None] | None:
    """The least departing shape the rule failed on in this run, and the expected-to-fail
    test that showed it (None: a test of its own that failed outright)."""
    found: list[tuple[Shape, XfailedTest | None]] = []
    for test in results.xfailed:
        shape = test.failure.get("shape") if test.failure else None
        if rule_id in test.implicated and shape is not None:
            found.append((shape, test))
    outcome = results.by_rule.get(rule_id)
    if outcome is not None and outcome.status == "failed" and outcome.verdict is None:
        shape = outcome.failure.get("shape") if outcome.failure else None
        if shape is not None:
            found.append((shape, None))
    return min(found, key=lambda f: SHAPES.index(f[0]), default=None)


def _new_failures(baseline: Baseline, results: RuleResults, test: XfailedTest) -> list[str]:
    expected = baseline.expected_failures
    listed = [r for r in test.rules if r in expected]
    found = ", ".join(sorted({str(Fingerprint.from_json(f)) for f in test.fingerprints}))
    found = found or "no details"
    verdicts = []
    for rule_id in sorted(test.implicated - expected.keys()):
        verdicts.append(
            _fail(
                results,
                rule_id,
                test,
                (
                    f"new failure: {rule_id} fails in {test.nodeid}, a test the baseline "
                    f"{baseline.path} expects to fail only for {', '.join(listed)} ({found})."
                ),
            )
        )
    for rule_id in sorted({f["rule"] for f in test.fingerprints} & expected.keys()):
        recorded = baseline.fingerprints.get(rule_id)
        if not recorded:
            continue  # a rule recorded without fingerprints is judged per rule
        for fingerprint in sorted(
            {Fingerprint.from_json(f) for f in test.fingerprints if f["rule"] == rule_id} - recorded
        ):
            verdicts.append(
                _fail(
                    results,
                    rule_id,
                    test,
                    (
                        f"new failure: {rule_id} fails in {test.nodeid} as {fingerprint}, which "
                        f"the baseline {baseline.path} does not record for {rule_id} (it records "
                        f"{_listing(recorded)}); {_kinship(fingerprint, recorded)}."
                    ),
                )
            )
    return verdicts


def _kinship(new: Fingerprint, recorded: frozenset[Fingerprint]) -> str:
    """What the new fingerprint is to the recorded ones, as far as they can tell."""
    if any((f.kind, f.pointers) == (new.kind, new.pointers) for f in recorded):
        return (
            "the same kind of failure at the same pointers is recorded in another test, "
            "so this may be the known defect found by one more test"
        )
    return "a failure the baseline has not seen in this rule"


def _stale_rule(
    baseline: Baseline,
    results: RuleResults,
    rule_id: str,
    reason: str,
    deselected_rules: frozenset[str],
) -> list[str]:
    outcome = results.by_rule.get(rule_id)
    if outcome is None or outcome.status != "passed" or rule_id in deselected_rules:
        return []
    return [
        _stale(
            results,
            rule_id,
            (
                f"stale baseline entry: {rule_id} passes now, but {baseline.path} expects it to "
                f"fail ({reason}); remove the entry."
            ),
        )
    ]


def _stale_fingerprints(
    baseline: Baseline,
    results: RuleResults,
    rule_id: str,
    reason: str,
    recorded: frozenset[Fingerprint],
) -> list[str]:
    outcome = results.by_rule.get(rule_id, RuleOutcome())
    seen = {Fingerprint.from_json(f) for f in outcome.fingerprints}
    judged = {
        f for f in recorded if f.test in results.ran and (f.test, rule_id) not in results.blocked_in
    }
    gone = sorted(judged - seen)
    if not gone:
        return []
    if judged == recorded and not seen and outcome.status == "passed":
        return [
            _stale(
                results,
                rule_id,
                (
                    f"stale baseline entry: {rule_id} passes now in every test that recorded its "
                    f"failure ({', '.join(sorted({f.test for f in recorded}))}), but "
                    f"{baseline.path} expects it to fail ({reason}); remove the entry."
                ),
            )
        ]
    return [
        _stale(
            results,
            rule_id,
            (
                f"stale baseline fingerprint: {rule_id} no longer fails in {fingerprint.test} as "
                f"{baseline.path} records ({fingerprint}); remove it from the rule's "
                f"[fingerprints], or rewrite the baseline with `refold baseline --write`."
            ),
        )
        for fingerprint in gone
    ]


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


def _listing(recorded: frozenset[Fingerprint]) -> str:
    return "; ".join(str(f) for f in sorted(recorded)) if recorded else "no fingerprint"
