"""What the suites assert, and how a failed assertion reads.

Suites state properties; this module turns a property into a call on the target and a
`ConformanceFailure` when it does not hold. Every failure names the rules it is evidence
against (by where its differences are, see `refold.attribution`; for a crash, by ablation
once the test has failed, see `refold.verdicts.crashes`) and the rules of the test that found it,
shows the stream as JSON lines, and reports the differences at JSON pointers through
the canonical comparison of the test's dialect, expected value first. A failure's
dialect is that of its rules (`refold.dialects.dialect_of_rule`): rule ids are unique
across dialects, so a failure that crosses from an xdist worker as JSON needs no more.

Known failures (a baseline's expected failures) are masked in the tests of other rules:
a difference that only a known-failing rule explains does not fail a property test, so
Hypothesis goes on looking for new failures instead of re-finding the known one. A crash
is not masked while the test runs (charging it takes more calls on the target than one
example should cost); the plugin reads a crash charged only to known failures as xfailed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from refold.reference import (
    JSON,
    Difference,
    Impact,
    JSONObject,
    PolicyRecord,
    Shape,
    diagnosis_text,
    impact_of,
    worst_impact,
)

from ..dialects import DEFAULT_DIALECT, DIALECTS, EVERY_RULE, Dialect, dialect_of_rule
from ..errors import TargetError
from ..targets import Target, TargetAccumulator
from ..verdicts.crashes import Crash, signature
from ..verdicts.difference_ablation import DifferenceAblation, Verdict
from ..verdicts.found_on import exceeds, shape_of, wire_shape_of, with_wire
from ..verdicts.shapes import StreamShape
from .console import format_chunks, printable
from .projection import projected_differences

__all__ = [
    "Check",
    "ConformanceFailure",
    "charged_rules",
    "conformance_failures",
    "dialect_of_rules",
    "first_conformance_failure",
    "format_chunks",
    "implicated_by",
    "leaf_errors",
]

_SHOWN_DIFFERENCES = 5


@dataclass(eq=False)
class ConformanceFailure(AssertionError):
    """A property of the spec does not hold for the target; a structured assertion."""

    rules: tuple[str, ...]
    summary: str
    chunks: list[JSON] | None = None
    """The stream's items (chunks or events, as the dialect names them)."""
    differences: list[Difference] = field(default_factory=list)
    expected: JSON = None
    received: JSON = None
    target_error: str | None = None
    crash: Crash | None = None
    """Set when the target raised: where, and which rule ablation charged it to."""
    compared_fold: bool = False  # raised by `folds_to`: a replay can refold `chunks` alone
    claimed: frozenset[str] | None = None
    """The target's claimed features: a rule of another feature is never charged."""
    ablation: DifferenceAblation | None = None
    """Set once the test failed: what undoing the stream's departures showed about each
    difference (`refold.verdicts.difference_ablation`)."""
    shown: tuple[str, ...] = ()
    """Lines shown under the summary that are not evidence against any rule (what differed
    in a value the test compared, whose places are not the result's pointers)."""
    violations: tuple[tuple[str, str], ...] = ()
    """(rule id, what and where) per broken rule a checker reported: evidence against
    exactly that rule (the event checker names the rule of each violation)."""
    violation_impacts: tuple[Impact, ...] = ()
    """What each violation costs, as the checker states it (verdicts.md §3)."""
    diagnosis: list[PolicyRecord] | None = None
    """Set once the test failed: the known fold policies that reproduce the target's
    output (`refold.verdicts.diagnosis`); [] is no known policy, None not diagnosed."""
    wire: StreamShape | None = None
    """The shape of the SSE framing of the bytes a wire rule's test sent (None: the test
    sent items, or the dialect does not tell its bytes)."""

    def __post_init__(self) -> None:
        super().__init__(str(self))

    @property
    def dialect(self) -> Dialect:
        """The dialect of the failing test's rules."""
        return dialect_of_rules(self.rules)

    @property
    def features(self) -> tuple[str, ...]:
        """The features of the implicated rules, each once."""
        return tuple(
            dict.fromkeys(EVERY_RULE[r].feature for r in self.implicated if r in EVERY_RULE)
        )

    @property
    def implicated(self) -> tuple[str, ...]:
        """The rules this failure is evidence against, in the registries' order."""
        found: set[str] = set(self.crash.charged) if self.crash is not None else set()
        found |= {rule_id for rule_id, _ in self.violations}
        for _, charged in self._charges():
            found |= charged
        found = _judged(found, self.claimed) or self._tests_own_rules()
        registry = self.dialect.rules
        known = tuple(r for r in registry if r in found)
        return known + tuple(sorted(found - registry.keys()))

    def _tests_own_rules(self) -> set[str]:
        """What a failure nothing narrower explains is charged to: the test's rules, less
        those about a shape the failing stream does not have (no evidence against them,
        as `implicated_by` reads a difference), unless that leaves none."""
        return set(self.rules) - self._absent_departures() or set(self.rules)

    def _charges(self) -> list[tuple[Difference, set[str]]]:
        """Each difference with the rules it is evidence against (`_charged`)."""
        absent = self._absent_departures()
        verdicts = self.ablation.verdicts if self.ablation is not None else {}
        return [
            (difference, self._charged(difference, absent, verdicts.get(difference.pointer)))
            for difference in self.differences
        ]

    def _charged(
        self, difference: Difference, absent: frozenset[str], verdict: Verdict | None
    ) -> set[str]:
        """The rules the difference at `pointer` is evidence against: those of the
        departures it needs, when ablation found any; else by its pointer, less the rules
        the stream (or the stream ablation left it on) gives nothing to decide there."""
        pointer = difference.pointer
        known = self.dialect.undecided_at
        # what the stream leaves undecided there holds whether or not ablation ran
        undecided = (
            known(self.chunks, pointer, difference.received)
            if known and self.chunks
            else frozenset()
        )
        if verdict is None:
            return implicated_by(pointer, self.rules, self.claimed, absent=absent | undecided)
        needed = _judged(verdict.needed, self.claimed)
        if needed:
            return needed & set(self.rules) or needed
        return implicated_by(
            pointer, self.rules, self.claimed, absent=absent | verdict.cleared | undecided
        )

    def _absent_departures(self) -> frozenset[str]:
        """The departure rules the failing stream gives no evidence against (it does not
        depart that way), when the dialect knows them."""
        known = self.dialect.absent_departures
        return known(self.chunks) if known is not None and self.chunks else frozenset()

    @property
    def impacts(self) -> dict[str, Impact]:
        """Each implicated rule's own impact (verdicts.md §2-3: a failure is charged to
        each rule separately, so a rule costs what the differences charged to it cost):
        a lost role charged to CHOICE-ROLE does not make TEXT-REFUSAL's `""` a loss. A
        rule charged no difference of its own (a crash, a violation, a failure charged
        to the test's rules) takes the failure's `impact`."""
        overall = self.impact
        crashed = self.crash is not None or self.target_error is not None
        own: dict[str, list[Difference]] = {}
        for difference, charged in [] if crashed else self._charges():
            for rule_id in _judged(charged, self.claimed):
                own.setdefault(rule_id, []).append(difference)
        found: dict[str, Impact] = {}
        for rule_id in self.implicated:
            impact = impact_of(own[rule_id], crashed=False) if rule_id in own else overall
            if impact is not None:
                found[rule_id] = impact
        return found

    @property
    def impact(self) -> Impact | None:
        """What the failure costs (verdicts.md §3): a crash when the target raised, else
        the worst impact of the differences, else of the violations' (a broken event
        rule states its own cost). A failure that names neither is read off the expected
        and received values it holds (a decoder's events, a lifecycle read); one that
        holds none of these is a corruption: the target did what the spec forbids with a
        value (accepted a non-object, answered before any item, changed the items it was
        given). None: violations that state no cost."""
        crashed = self.crash is not None or self.target_error is not None
        if crashed or self.differences:
            return impact_of(self.differences, crashed=crashed)
        if self.violation_impacts or self.violations:
            return worst_impact(self.violation_impacts)
        if self.expected is None and self.received is None:
            return "corruption"
        return impact_of(self._value_differences(), crashed=False) or "corruption"

    def _value_differences(self) -> list[Difference]:
        try:
            return self.dialect.differences(self.expected, self.received)
        except Exception:  # values the comparison does not take (not a fold, not items)
            return []

    @property
    def stream_shape(self) -> StreamShape:
        """The shape of the failing stream (verdicts.md §1, `refold.verdicts.found_on.shape_of`:
        `synthetic` in a dialect that cannot tell shapes, `documented` for a failure that
        holds no stream), with its framing's when it was sent as bytes."""
        return with_wire(shape_of(self.dialect, self.chunks), self.wire)

    @property
    def blocked(self) -> tuple[str, ...]:
        """The test's rules a crash kept from being checked: those it is not charged to
        (ablation charged it to other rules, or, unexplained, the stream has no shape of
        theirs: `_tests_own_rules`)."""
        if self.crash is None:
            return ()
        return tuple(r for r in self.rules if r not in self.implicated)

    @property
    def diagnosis_line(self) -> str:
        """The diagnosis as the message shows it ("" when not diagnosed)."""
        if self.diagnosis is None:
            return ""
        if not self.diagnosis:
            return "diagnosis: no known policy"
        subject = "raise" if self.crash is not None else "output"
        return f"diagnosis: the {subject} {diagnosis_text(self.diagnosis)}"

    def __str__(self) -> str:
        implicated = self.implicated
        lines = [f"{_rule_heading(implicated)}: {self.summary}"]
        if set(implicated) != set(self.rules):
            lines.append(f"  (found by a test of {_rule_heading(self.rules)})")
        if self.diagnosis is not None:
            lines.append(f"  {self.diagnosis_line}")
        if self.crash is not None:
            count = len(self.chunks) if self.chunks is not None else None
            lines += [f"  {line}" for line in self.crash.describe(count, item=self.dialect.item)]
            if self.blocked:
                lines.append(f"  blocked by it, not judged: {', '.join(self.blocked)}")
        if self.ablation is not None:
            lines += [f"  {line}" for line in self.ablation.describe()]
        lines += [f"  {text}" for _, text in self.violations]
        lines += [f"  {text}" for text in self.shown]
        lines += [f"  {d}" for d in self.differences[:_SHOWN_DIFFERENCES]]
        if len(self.differences) > _SHOWN_DIFFERENCES:
            lines.append(f"  (+{len(self.differences) - _SHOWN_DIFFERENCES} more differences)")
        if self.target_error:
            lines += ["  " + line for line in self.target_error.splitlines()]
        if self.chunks is not None:
            lines.append(f"{self.dialect.items} ({len(self.chunks)}, one JSON object per line):")
            lines += ["  " + line for line in format_chunks(self.chunks).splitlines()]
        # Shown in a terminal: a target's control characters are escaped, long lines cut.
        return "\n".join(printable(line) for line in lines)


def implicated_by(
    pointer: str,
    tested: Sequence[str],
    claimed: frozenset[str] | None = None,
    *,
    absent: frozenset[str] = frozenset(),
) -> set[str]:
    """The rules a difference at `pointer` is evidence against, in a test of `tested`.

    The test's own rules when the pointer is theirs; the pointer's rules when it is not
    (a usage bug found by a robustness test is a USAGE-LAST failure; a key the output
    shape does not have is ROB-UNKNOWN-KEYS's, see `refold.attribution`). Only a
    difference in the whole response (pointer "", e.g. a list returned for an object)
    belongs to no rule, and is charged to the test's rules: nothing narrower is known.
    A target is not judged on the rules of a feature it does not claim (`claimed`), so
    when every owner is such a rule the difference is charged to the test's rules too.
    The pointer is read in the dialect of `tested`. A rule about a departure from the
    plain shape the stream does not depart in (`absent`: a block re-opened, a delta
    routed to no block, in the Anthropic dialect) is not evidence, owner or mark.
    """
    owners = dialect_of_rules(tested).rules_at(pointer)
    owners = owners - absent or owners
    marked = set(tested) - absent or set(tested)
    return set(owners & marked) or _judged(owners, claimed) or set(tested)


def leaf_errors(exc: BaseException) -> Iterator[BaseException]:
    """`exc`, or each exception it holds when it is a group (Hypothesis groups the
    distinct failures it found), however deeply nested."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from leaf_errors(inner)
    else:
        yield exc


def conformance_failures(exc: BaseException) -> list[ConformanceFailure]:
    """The conformance failures `exc` is or holds."""
    return [found for found in leaf_errors(exc) if isinstance(found, ConformanceFailure)]


def first_conformance_failure(exc: BaseException) -> ConformanceFailure | None:
    """The first conformance failure `exc` is or holds, if any."""
    found = conformance_failures(exc)
    return found[0] if found else None


def charged_rules(
    failures: Sequence[ConformanceFailure],
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(implicated, blocked) rules of failures reported together, each once, in order.

    Each failure's evidence counts, and a rule one of them implicates is not blocked by
    another.
    """
    implicated = tuple(dict.fromkeys(r for f in failures for r in f.implicated))
    blocked = tuple(dict.fromkeys(r for f in failures for r in f.blocked if r not in implicated))
    return implicated, blocked


def dialect_of_rules(rules: Sequence[str]) -> Dialect:
    """The dialect whose registry holds `rules` (the default one for unknown ids)."""
    for rule_id in rules:
        found = dialect_of_rule(rule_id)
        if found is not None:
            return found
    return DIALECTS[DEFAULT_DIALECT]


def _judged(rules: Iterable[str], claimed: frozenset[str] | None) -> set[str]:
    """`rules` less those of features the target does not claim (all when unknown)."""
    if claimed is None:
        return set(rules)
    return {r for r in rules if r not in EVERY_RULE or EVERY_RULE[r].feature in claimed}


def _rule_heading(rules: Sequence[str]) -> str:
    parts = [f"{r} ({EVERY_RULE[r].feature})" if r in EVERY_RULE else r for r in rules]
    return ", ".join(parts) or "(no rule)"


class Check:
    """The suite's handle on the target, bound to the rules of the running test.

    One class for every dialect: the fold, the comparison and the names of the stream's
    items are the target's dialect's (`target.dialect`).

    Under a shape ceiling (`ceiling`, set by `refold.run.search` while it searches a failed
    property again on less departing streams) this is where streams are kept to it: a
    stream whose shape exceeds the ceiling is rejected (`hypothesis.reject()`) before it
    reaches the target's fold or decoder, and a failure on such a stream (an
    accumulator's, fed item by item) is rejected instead of raised, so Hypothesis draws,
    and shrinks, only among streams of that shape.
    """

    def __init__(self, target: Target) -> None:
        self.target = target
        self.dialect: Dialect = target.dialect
        self.rules: tuple[str, ...] = ()
        self.masked: frozenset[str] = frozenset()  # known failures of other rules
        self.ceiling: Shape | None = None
        self.sent_wire: StreamShape | None = None
        """The shape of the SSE framing of the bytes the running test last sent to the
        target's decoder: a failure it raises was found on a stream sent as bytes, so it
        carries that shape too (None: the test sent items; reset for every test)."""

    def within_ceiling(self, stream: Sequence[JSON] | None) -> None:
        """Reject `stream` when its shape exceeds the ceiling (no ceiling: nothing)."""
        if self.ceiling is None or stream is None:
            return
        if exceeds(shape_of(self.dialect, stream).shape, self.ceiling):
            from hypothesis import reject

            reject()

    def fail(
        self,
        summary: str,
        *,
        rules: Sequence[str] | None = None,
        events: list[JSON] | None = None,
        found_by: str | None = None,
        **details: object,
    ) -> ConformanceFailure:
        """Build the failure of the rules under test, or of `rules` when given (the rule
        an assertion states it is about); `events` is the stream under its Anthropic name
        (`chunks` is the same field). Raise it.

        `found_by` says what found the `differences` given: `"fold"`, a whole fold a
        property compared; `"example"`, a rule example's fold or read; `"read"`, a read
        mid-stream compared with the reference's. The dialect's `Charging` then narrows
        the rules the failure is charged to (none given: by pointers alone)."""
        if events is not None:
            details["chunks"] = events
        details.setdefault("wire", self.sent_wire)
        self.within_ceiling(details.get("chunks"))  # type: ignore[arg-type]
        if not rules and found_by is not None:
            rules = self._narrowed(found_by, details)
        chosen, claimed = tuple(rules) if rules else self.rules, self.target.features
        return ConformanceFailure(chosen, summary, claimed=claimed, **details)  # type: ignore[arg-type]

    def _narrowed(self, found_by: str, details: dict[str, object]) -> tuple[str, ...] | None:
        """The rules the dialect charges the differences in `details` to (`Charging`)."""
        narrow = self.dialect.charging.narrowings.get(found_by)
        if narrow is None:
            return None
        found = details.get("differences")
        stream = details.get("chunks")
        return narrow(
            self,
            list(found) if isinstance(found, list) else [],
            details.get("expected"),
            details.get("received"),
            list(stream) if isinstance(stream, list) else [],
        )

    @property
    def _ops(self) -> tuple[str, str]:
        return f"fold({self.dialect.items})", f"add({self.dialect.item})"

    def differences(self, expected: JSON, received: JSON) -> list[Difference]:
        """The canonical differences of two folds within the target's stated projection,
        less those only a known failure explains."""
        return self._unmasked(self.projected_differences(expected, received))

    def item_differences(self, expected: JSON, received: JSON) -> list[Difference]:
        """As `differences`, for two values that are not folds (the stream's items, what
        a decoder gave out): never projected."""
        return self._unmasked(self.dialect.differences(expected, received))

    def _unmasked(self, found: list[Difference]) -> list[Difference]:
        return [
            d
            for d in found
            if not (
                self.masked
                and implicated_by(d.pointer, self.rules, self.target.features) <= self.masked
            )
        ]

    def projected_differences(self, expected: JSON, received: JSON) -> list[Difference]:
        """The canonical differences of two folds (or Responses handed out) within the
        target's stated projection (`refold.run.projection`; the whole folds when it states
        none), none masked. Not for the stream's items: they are no fold."""
        return projected_differences(self.dialect, self.target.projection, expected, received)

    def fold(self, chunks: list[JSON], *, ablate: bool = False) -> JSONObject:
        """Fold through the target; a misbehaving target fails the rules under test.

        With `ablate`, a crash that undoing one of the stream's departures lets the
        target fold is charged to that departure's rules at once (the dialect's
        `Charging.fold_crash`; nothing for a dialect without one)."""
        __tracebackhide__ = True
        self.within_ceiling(chunks)
        try:
            return self.target.fold(chunks)
        except TargetError as exc:
            failure = self.fail(
                f"the target failed ({exc.kind})",
                chunks=chunks,
                target_error=str(exc),
                crash=Crash(self._ops[0], signature(exc)),
            )
            charge = self.dialect.charging.fold_crash if ablate else None
            found = charge(self, chunks) if charge is not None else None
            if found is None:
                raise failure from exc
            raise self.fail(
                f"{failure.summary}; undoing the stream's departure of {','.join(found)} "
                f"lets it fold",
                rules=found,
                chunks=chunks,
                target_error=failure.target_error,
                crash=failure.crash,
            ) from failure

    def folds_to(
        self,
        chunks: list[JSON],
        expected: JSONObject,
        *,
        what: str = "the expected response",
        ablate: bool = False,
        found_by: str | None = None,
    ) -> JSONObject:
        """Assert that the target folds `chunks` into `expected` (`what`, as the failure
        names it); return what it built. `ablate` and `found_by`: see `fold`, `fail`."""
        __tracebackhide__ = True
        received = self.fold(chunks, ablate=ablate)
        found = self.differences(expected, received)
        if found:
            raise self.fail(
                f"the fold differs from {what} at {len(found)} place(s)",
                chunks=chunks,
                differences=found,
                expected=expected,
                received=received,
                compared_fold=True,
                found_by=found_by,
            )
        return received

    def folds_like_reference(
        self, chunks: list[JSON], *, ablate: bool = False, found_by: str | None = None
    ) -> JSONObject:
        """Assert that the target folds `chunks` as the reference does (differential);
        `ablate` and `found_by`: see `fold`, `fail`."""
        __tracebackhide__ = True
        return self.folds_to(chunks, self.dialect.fold(chunks), ablate=ablate, found_by=found_by)

    def refuses(self, value: JSON) -> None:
        """Assert that an item that is not a JSON object is refused (ROB-NOT-OBJECT,
        AM-ROB-NOT-OBJECT)."""
        __tracebackhide__ = True
        try:
            self.target.fold([value])
        except TargetError as exc:
            if exc.kind == "raised":
                return
            raise self.fail(
                f"the target failed ({exc.kind}) instead of refusing",
                chunks=[value],
                target_error=str(exc),
            ) from exc
        raise self.fail(
            f"the target accepted a{_an(self.dialect.item)} {self.dialect.item} "
            f"that is a {type(value).__name__}",
            chunks=[value],
        )

    def decoded(self, parts: list[bytes]) -> list[JSON]:
        """The items the target's own SSE decoder makes of `parts`, bytes in the pieces
        given (feature `sse` of a dialect whose wire rules are about items, as
        Anthropic's are); a decoder that fails or answers a non-list fails the rules
        under test."""
        __tracebackhide__ = True
        decoded = self.decoded_raw(parts)
        if isinstance(decoded, TargetError):
            raise self.fail(
                f"the target's SSE decoder failed ({decoded.kind})",
                chunks=self._sent(parts),
                target_error=str(decoded),
            ) from decoded
        return decoded

    def _sent(self, parts: list[bytes]) -> list[JSON] | None:
        """The items the bytes carry, as the reference decodes them (None: it cannot)."""
        try:
            return self.dialect.decode_sse(parts)
        except Exception:  # bytes no item layer takes: the stream has no items to tell
            return None

    def decoded_raw(self, parts: list[bytes]) -> list[JSON] | TargetError:
        """As `decoded`, but return the decoder's error instead of failing on it (an
        in-process decoder's own exception as a TargetError of kind "raised")."""
        __tracebackhide__ = True
        sent = self._sent(parts)
        self.sent_wire = wire = wire_shape_of(self.dialect, parts)
        ceiling = self.ceiling
        if ceiling is not None and (
            sent is None or (wire is not None and exceeds(wire.shape, ceiling))
        ):
            from hypothesis import reject

            reject()  # bytes the reference cannot decode are no provider's stream
        self.within_ceiling(sent)
        decode = getattr(self.target, "sse", None)
        if decode is None:
            raise self.fail(f"target {self.target.name} claims `sse` but declares no SSE decoder")
        try:
            decoded = decode(parts)
        except TargetError as exc:
            return exc
        except Exception as exc:  # an in-process target's own decoder, called as it is
            return TargetError(f"{type(exc).__name__}: {exc}")
        if not isinstance(decoded, list):
            raise self.fail(
                f"the target's SSE decoder returned {type(decoded).__name__}, "
                f"expected a list of {self.dialect.items}"
            )
        return decoded

    def accumulator(self, *, ablate: bool = False) -> CheckedAccumulator:
        """Start an incremental fold whose misbehaviour fails the rules under test; with
        `ablate`, a crash the dialect's `Charging` explains (an `add` of an item the spec
        says changes nothing, or departing from the plain shape; a read after terminals
        of other outcomes) is charged to those rules at once."""
        try:
            return CheckedAccumulator(self, self.target.accumulator(), ablate=ablate)
        except TargetError as exc:
            raise self.fail(f"the target failed ({exc.kind})", target_error=str(exc)) from exc


class CheckedAccumulator:
    """A target accumulator that records the items it was given, for failure messages."""

    def __init__(
        self, check: Check, accumulator: TargetAccumulator, *, ablate: bool = False
    ) -> None:
        self._check = check
        self._accumulator = accumulator
        self._charging = check.dialect.charging if ablate else None
        self.chunks: list[JSON] = []
        """The items the target took, in order (what its fold holds)."""
        self._sent: list[JSON] = []
        # every item handed to the target, those it refused too: a failure's stream is
        # the one sent, so a crash after a refused `null` is found on a stream with it
        self._refused: list[int] = []
        # their positions in it: a crash is replayed without them (`Crash.refused`)

    @property
    def events(self) -> list[JSON]:
        """The items added so far (`chunks`, under the Anthropic name)."""
        return self.chunks

    def _guard(
        self, what: str, exc: TargetError, rules: tuple[str, ...] | None = None
    ) -> ConformanceFailure:
        at = len(self._sent) if what.startswith("add(") else None
        return self._check.fail(
            f"{what} failed ({exc.kind})",
            rules=rules,
            chunks=list(self._sent),
            target_error=str(exc),
            crash=Crash(what, signature(exc), at_chunk=at, refused=tuple(self._refused)),
        )

    def add(self, chunk: JSON) -> None:
        """Add one chunk; the target must not raise on a JSON object."""
        self.chunks.append(chunk)
        self._sent.append(chunk)
        try:
            self._accumulator.add(chunk)
        except TargetError as exc:
            charge = self._charging.add_crash if self._charging is not None else None
            found = charge(self.chunks[:-1], chunk) if charge is not None else None
            raise self._guard(self._check._ops[1], exc, found) from exc

    def add_raw(self, chunk: JSON) -> TargetError | None:
        """Add a chunk and return the target's error instead of failing on it."""
        self._sent.append(chunk)
        try:
            self._accumulator.add(chunk)
        except TargetError as exc:
            self._refused.append(len(self._sent) - 1)
            return exc
        self.chunks.append(chunk)
        return None

    def response(self) -> JSONObject:
        """Read the response; the target must return a JSON object."""
        try:
            return self._accumulator.response()
        except TargetError as exc:
            charge = self._charging.read_crash if self._charging is not None else None
            found = charge(list(self.chunks)) if charge is not None else None
            raise self._guard("response()", exc, found) from exc

    def response_error(self) -> TargetError | None:
        """Read the response expecting an error; return it, or None if none was raised."""
        try:
            self._accumulator.response()
        except TargetError as exc:
            return exc
        return None

    @property
    def finished(self) -> bool:
        """The target's `finished`."""
        try:
            return self._accumulator.finished()
        except TargetError as exc:
            raise self._guard("finished", exc) from exc

    def mark_done(self) -> None:
        """Record `[DONE]` in the target."""
        try:
            self._accumulator.mark_done()
        except TargetError as exc:
            raise self._guard("mark_done()", exc) from exc

    @property
    def error(self) -> JSONObject | None:
        """The target's recorded stream error (the Anthropic lifecycle's `error`)."""
        try:
            return self._accumulator.error()
        except TargetError as exc:
            raise self._guard("error", exc) from exc


def _an(noun: str) -> str:
    return "n" if noun[:1] in "aeiou" else ""
