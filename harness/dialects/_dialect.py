"""What a dialect is: one kind of stream, its contract, and how refold checks it.

A dialect is a value (`Dialect`), not a special case: the harness, the plugin, the
commands and the records are parameterised by it, so adding one means writing its
reference, strategies and suites and registering its `Dialect` (`refold.dialects`).
Everything here is the dialect's own: its rules registry and features, its reference
fold, its canonical comparison, its pointer → rule attribution, the operations of its
incremental interface and the item layer of its wire decoder.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from refold.reference import JSON, Difference, JSONObject, Rule

from ..policies import Policy
from ..serve.endpoint import Endpoint
from ..verdicts.shapes import Shapes
from ..verdicts.undoing import Probe

__all__ = ["Ablation", "AdapterKind", "Charging", "Dialect", "NodeTarget", "UndecidedAt"]

Streams = Callable[[list[JSON]], list[tuple[str, list[JSON]]]]
Probes = Callable[[list[JSON], frozenset[str]], list[Probe]]


class UndecidedAt(Protocol):
    """`undecided_at(stream, pointer[, received])`: the rules owning `pointer` that
    `stream` (and the value `received` there, when given) does not decide."""

    def __call__(
        self, stream: list[JSON], pointer: str, received: object = ..., /
    ) -> frozenset[str]: ...


class Ablation(NamedTuple):
    """How a crash is charged to a rule in a dialect (`refold.verdicts.crashes`): the departures
    from the plain shape present in a stream, each undone by a change the reference
    folds identically (`applicable_undos`), and each alone (`departures_alone`); and how
    a difference is (`refold.verdicts.difference_ablation`): given the stream and the target's
    claimed features, (rule, the rules deciding how its departure folds, undone stream)
    per departure present (`difference_undos`; None: differences are charged by their
    pointers alone)."""

    applicable_undos: Streams
    departures_alone: Streams
    difference_undos: Probes | None = None


Narrowing = Callable[[Any, list[Difference], JSON, JSON, list[JSON]], tuple[str, ...] | None]
"""(check, differences, expected, received, stream) -> the rules a difference-failure is
charged to, or None: the test's rules, each difference then charged by its pointer."""


class Charging(NamedTuple):
    """How a dialect narrows, when a failure is raised, the rules it is charged to beyond
    what its pointers say (`refold.run.checks`: `Check.fold(..., ablate=True)`,
    `Check.fail(..., found_by=...)`, `Check.accumulator(ablate=True)`); the suites only
    state which kind of comparison failed.

    `fold_crash(check, stream)`: the rules of the departure whose undoing (a change the
    reference folds identically) lets the target fold a stream it crashed on;
    `add_crash(earlier, item)`: the rule of an item that crashed an accumulator's `add`
    (an item the spec says changes nothing, a departure it shows after `earlier`);
    `read_crash(stream)`: the rules of a crash reading the result after `stream`;
    `narrowings`: by what found a difference (`"fold"`: a whole fold compared in a
    property, `"example"`: a rule example's, `"read"`: a read mid-stream compared with the
    reference's), the rules it is charged to. Every field empty: nothing is narrowed."""

    fold_crash: Callable[[Any, list[JSON]], tuple[str, ...] | None] | None = None
    add_crash: Callable[[list[JSON], JSON], tuple[str, ...] | None] | None = None
    read_crash: Callable[[list[JSON]], tuple[str, ...] | None] | None = None
    narrowings: Mapping[str, Narrowing] = {}


NO_CHARGING = Charging()
"""A dialect that narrows no failure when it is raised."""


class AdapterKind(Protocol):
    """How the targets of a dialect whose targets are events adapters (`Dialect.adapters`)
    are loaded and checked: the shared target forms and the plugin hand them over here,
    so no module outside the dialect's package knows its target kinds."""

    protocol: str
    """The line protocol its `exec:` and `http://` adapters speak (`refold-events/1`)."""

    def python_target(
        self, declaration: dict[str, Any], name: str, features: frozenset[str] | None
    ) -> Any:
        """The target a `refold_target` declaration with an `adapter` names."""

    def exec_target(
        self, command: str, *, features: frozenset[str] | None, timeout: float, max_reply: int
    ) -> Any:
        """An adapter run as a subprocess speaking `protocol`."""

    def greeted_target(self, transport: Any, *, spec: str, features: frozenset[str] | None) -> Any:
        """An adapter behind an already started line transport, once it said hello."""

    def http_target(
        self, url: str, *, features: frozenset[str] | None, timeout: float, max_reply: int
    ) -> Any:
        """An adapter served over HTTP, speaking `protocol` a POST per message."""

    def remote_target(self, worker: Any) -> Any:
        """A Python adapter served by a worker process (`refold.targets.isolation`)."""

    def check(self, target: Any) -> Any:
        """The suites' handle on `target` (a `refold.run.checks.Check`)."""


@dataclass(frozen=True)
class NodeTarget:
    """One built-in Node.js target of a dialect (`Dialect.node_targets`): its JavaScript
    file, in the dialect's own package; the npm packages it runs on, installed once for
    every dialect's targets in the shared folder (`refold.targets.sdk.nodejs.NODE_DIR`); and
    the template of a program reproducing a failure with the SDK (`refold report
    --upstream`; None: none)."""

    file: Path
    packages: tuple[str, ...]
    reproducer: str | None = None


@dataclass(frozen=True, eq=False)
class Dialect:
    """One stream dialect and everything refold needs to check a target of it."""

    name: str
    """The stable name (`openai-chat`, `anthropic-messages`): options, declarations, records."""
    title: str
    """What readers call it: "OpenAI Chat Completions"."""
    spec: str
    """The contract's file name (`chat-fold.md`)."""
    result: str
    """What a fold builds, as the spec names it (`chat.completion`, `Message`)."""
    item: str
    """What one element of a stream is called (`chunk`, `event`); plural adds an s."""
    rules: Mapping[str, Rule]
    """Every rule the dialect's tests may be marked with, in report order: the spec's, then
    any registry of its own (the chat dialect's WHATWG wire rules)."""
    spec_rules: frozenset[str]
    """The ids of `rules` that are the spec's; the others are labelled `extra_rules_note`."""
    features: tuple[str, ...]
    """The spec's closed feature vocabulary, in order; the first (`text`, or `events` for an
    events adapter) is required of every target."""
    fold: Callable[[list[JSON]], JSONObject]
    """The reference fold of a whole stream."""
    accumulator: Callable[[], Any]
    """A new reference accumulator (`add`, `response`, `finished` and the lifecycle reads)."""
    differences: Callable[[JSON, JSON], list[Difference]]
    """The canonical comparison, expected first."""
    rules_at: Callable[[str], frozenset[str]]
    """The rules that decide the value at a JSON pointer of the result."""
    pointerless: frozenset[str]
    """The rules that own no pointer (a test keeps every rule owning one or declared here)."""
    places: tuple[str, ...]
    """A pointer of every place `rules_at`'s table names (one per row, and per alternative
    of a row), and one it does not: what decides which rules a target's stated projection
    leaves unjudged (`refold.run.projection`); () for a dialect that takes no projection."""
    lifecycle_reads: tuple[str, ...]
    """The incremental reads beyond add/response that feature `lifecycle` needs, each a
    property or a method of no arguments (`finished` for chat; `finished` and `error` for
    Anthropic)."""
    lifecycle_calls: tuple[str, ...]
    """The incremental calls beyond add/response that feature `lifecycle` needs
    (`mark_done` for chat, the `[DONE]` sentinel; none for Anthropic)."""
    decode_sse: Callable[[Iterable[bytes]], list[JSON]]
    """The reference item layer over the one WHATWG decoder: bytes in, stream items out."""
    suites: str
    """The sub-package of `refold.suites` holding the dialect's own suites (`openai_chat`,
    `anthropic`); the top-level modules of `refold.suites` are no dialect's."""
    kit: str | None
    """The module of `refold.suites` holding the dialect's parts of the generic suites
    (the top-level `test_*.py` modules, `refold.suites._kits`): its strategies of known
    results and splits, its damaged streams, the rules each case checks
    (`anthropic._kit`); None: the generic suites are not collected in its runs."""
    snapshot_rule: str
    """The rule a target breaks by mutating the items it was given (LIFE-SNAPSHOT)."""
    sse_layer: str
    """What the dialect's wire rules are about, so what a target's `sse` decoder returns:
    "events" (WHATWG events: the chat wire rules are the standard's) or "items" (the
    stream items a fold is given: Anthropic's wire rules are about event names)."""
    reference_package: str
    """The dotted name of the reference fold's package: what `refold mutate` and `refold
    coverage` mutate and measure for `--target reference` (its modules; a sub-package
    that is another dialect's reference is not part of it)."""
    reference_tests: str
    """The glob, under the checkout's `tests/`, naming its tests of the reference
    (`dialects/openai_responses/test_reference_responses_*.py`) that `refold mutate
    --target reference` runs beside the suites; a file another dialect's longer glob
    also matches is that dialect's."""
    reference_equivalents: str
    """The file under the checkout's `docs/` listing the reviewed equivalent mutants of the
    reference package (`equivalent-mutants.toml`): `refold mutate --target reference`'s
    default `--equivalents`."""
    adapter_kind: AdapterKind | None = None
    """How its targets are loaded and checked when they are events adapters (a
    declaration's `adapter`, fed another dialect's frames) rather than folds (None)."""
    extra_rules_explained: str | None = None
    """What docs/rules.md says of the rules that are not the spec's (None: "Not part of
    <spec>.")."""
    sniff: Callable[[JSONObject], bool] | None = None
    """Whether a stream item has this dialect's shape (`refold capture` tells a capture's
    dialect by its first item that some dialect's `sniff` accepts, in registry order);
    None: the dialect has no captures of its own (an events adapter's input is another
    dialect's stream)."""
    sniffed: str = ""
    """What `sniff` accepts, as a phrase (`a chat.completion.chunk object`): how `refold
    capture` names the shapes it knows when no item has one."""
    named_frames: bool = False
    """Whether the API names each SSE frame by its item's `type` (`event: <type>`), as
    Anthropic and Responses do; else frames are bare `data:` lines, ended by the shapes'
    `end_sentinel` when it has one."""
    reference_target: str = ""
    """This dialect's part of target `reference`'s declaration, as `module:attribute` (a
    `refold_target`-style mapping: `factory` or `adapter`, `sse`, `description`; ""
    none)."""
    endpoint: Endpoint | None = None
    """What `refold serve --dialect NAME` answers (None: the dialect is not served)."""
    sdk_targets: Mapping[str, str] = field(default_factory=dict)
    """The built-in targets of real Python SDKs of this dialect: name → `module:attribute`
    (`--target NAME`)."""
    node_targets: Mapping[str, NodeTarget] = field(default_factory=dict)
    """The built-in targets of real JavaScript SDKs of this dialect, by name (`--target
    NAME`, run as `exec:node <file>` by `refold.targets.sdk.nodejs`)."""
    reference_parts: tuple[str, ...] = ()
    """Globs, relative to the reference layer's folder, of the modules outside its package
    that `refold mutate --target reference` mutates with it (provider-events: the neutral
    event model in `_neutral/` and every source dialect's mapping, `*/neutral/_mapping.py`,
    which lives in that dialect's package); () for none."""
    mutates_kernel: bool = False
    """Whether `refold mutate --target reference` also mutates the kernel its reference
    shares with every dialect (`refold.reference`'s own modules): exactly one dialect's
    run does, so that each kernel mutant is counted once."""
    not_fold_features: frozenset[str] = field(default=frozenset({"lifecycle", "sse"}))
    """Features a fold-only target cannot be checked on (they need another interface)."""
    extra_rules_note: str | None = None
    """How tables label the rules that are not the spec's (None when all are)."""
    docs: str = ""
    """The provider's documentation page of its streaming API ("": none, as for a
    dialect no provider documents); upstream bug reports cite it as the rule's source."""
    ablation: Ablation | None = None
    """How a crash is charged by undoing departures; None: a crash is located only, and
    charged to the rules of the test that met it."""
    absent_departures: Callable[[list[JSON]], frozenset[str]] | None = None
    """The rules about a departure from the plain shape that a stream does not depart in:
    a difference in its fold is never evidence against them (None: not known)."""
    undecided_at: UndecidedAt | None = None
    """The rules owning a pointer that the stream shows do not decide the value there (a
    count message_delta re-reported is not message_start's), given the value received
    there when a difference is at hand, so a difference there is no evidence against
    them (None: not known)."""
    shapes: Shapes | None = None
    """How a stream's shape is told (verdicts.md §1: the vendored schema, the documented
    grammar, the registered departures: a `StreamShapes`, or any `Shapes`, such as
    provider-events' delegation to its source dialect's); None: not known, and every stream reads
    `synthetic` (nothing of it can be shown documented)."""
    charging: Charging = NO_CHARGING
    """How a failure is narrowed when raised, beyond its pointers (`Charging`; empty:
    never narrowed)."""
    policies: tuple[Policy, ...] = ()
    """The catalogue of known fold policies (`refold.policies`) a failure's diagnosis folds
    its stream with (`refold.verdicts.diagnosis`); () for a dialect whose failures are not one
    folded value (provider-events: rule violations of an event sequence)."""

    @property
    def items(self) -> str:
        """The plural of `item`: `chunks`, `events`."""
        return f"{self.item}s"

    @property
    def adapters(self) -> bool:
        """Whether the dialect's targets are events adapters (`adapter_kind`), not folds."""
        return self.adapter_kind is not None

    @property
    def lifecycle(self) -> tuple[str, ...]:
        """Every read and call feature `lifecycle` needs: the operations a remote
        accumulator answers beyond new/add/response."""
        return (*self.lifecycle_reads, *self.lifecycle_calls)

    @property
    def fold_features(self) -> frozenset[str]:
        """What a fold-only target is checked on when it declares nothing."""
        return frozenset(self.features) - self.not_fold_features

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"
