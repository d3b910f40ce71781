"""What the checker reads of one source dialect (`Source`), and the values it reads.

Each source dialect's frames are folded once by that dialect's reference and read for
the three things the event rules are checked against: how the stream ended (`StreamEnd`:
which outcome the frames call for, at which frame), the dialect object (EV-TURN-OPAQUE)
and its neutral view (`View`: EV-FOLD-AGREES, EV-TURN-FIELDS, EV-STOP-MAP). A source
dialect offers its `Source` with its mapping, as one `SourceDialect` in the `neutral`
subpackage of its reference package, where `source_dialects` finds it.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from .._compare import Difference
from .._json import JSON, JSONObject
from .ends import StreamEnd
from .mapping import Mapping

__all__ = ["Analysis", "Source", "SourceDialect", "View", "arrived", "source_dialects"]


@dataclass(frozen=True)
class View:
    """The neutral view of a dialect object: what a correct turn of it holds."""

    model: JSON
    response_id: JSON
    output_text: str
    tool_calls: list[JSONObject]
    stop_reason: str


@dataclass(frozen=True)
class Analysis:
    """The frames of one stream read once: their end, their fold and its view."""

    end: StreamEnd
    folded: JSONObject | None
    view: View | None
    several_choices: bool
    finish_frames: frozenset[int] = frozenset()
    """Chat: the frames that give choice 0 a finish reason (EV-CHAT-COMPLETE-AT-FINISH).
    Several, when an earlier one is chat-fold's family 8 noise (finish_reason is
    last-wins): a frame-by-frame adapter cannot know a later one will come."""


@dataclass(frozen=True)
class Source:
    """How the checker reads the frames of one source dialect."""

    analyse: Callable[[Sequence[JSON]], Analysis]
    """Fold the frames with the dialect's reference and read how they end."""
    view: Callable[[JSONObject], View]
    """The neutral view of a folded dialect object."""
    differences: Callable[[JSON, JSON], list[Difference]]
    """The dialect's canonical comparison of two dialect objects."""
    output_tokens: Callable[[JSONObject], int | None]
    """The output-token count a frame object itself reports (EV-USAGE-MONOTONE)."""
    typed_frames: bool
    """Whether a frame names its event by its `type` (EV-OPAQUE-TYPE); else `message`."""
    usage_at_error: Callable[[JSON], bool] = field(default=lambda frame: False)
    """Whether an error frame may give a Usage before its Opaque (EV-ERROR-FRAME: "plus
    any Usage it carries", Responses' `response.failed`)."""


def arrived(view: View | None, order: Sequence[JSON], text: str | None) -> View | None:
    """The view with its calls in the order they completed and its text in the order it
    arrived: what a frame-by-frame adapter can agree with (EV-FOLD-AGREES, see _ends)."""
    if view is None:
        return None
    rank: dict[JSON, int] = {call_id: number for number, call_id in enumerate(order)}
    calls = sorted(view.tool_calls, key=lambda call: rank.get(call.get("id"), len(rank)))
    return replace(view, tool_calls=calls, output_text=view.output_text if text is None else text)


@dataclass(frozen=True)
class SourceDialect:
    """One source dialect of the provider-neutral events: how the reference adapter maps
    its frames (events.md §4) and how the checker reads them."""

    mapping: type[Mapping]
    """The mapping of its §4 table; a new one normalises one stream."""
    reading: Source
    """How the checker reads its frames."""

    @property
    def name(self) -> str:
        """The dialect's name (`Mapping.provider`, the `provider` of its Opaque events)."""
        return self.mapping.provider


_SUBPACKAGE = "neutral"
"""Where a dialect's reference package keeps its `SourceDialect` (as `SOURCE_DIALECT`)."""


def source_dialects(reference: str) -> dict[str, SourceDialect]:
    """Every source dialect the reference package named `reference` holds, by name: the
    `SOURCE_DIALECT` of each of its subpackages' `neutral` subpackage, sorted by name.

    Found, not listed, so that no module outside a dialect's packages names one: a
    dialect's reference package is a subpackage of the reference, and the `neutral`
    subpackage in it is its mapping to neutral events."""
    found: dict[str, SourceDialect] = {}
    layer = importlib.import_module(reference)
    for module in pkgutil.iter_modules(layer.__path__):
        if not module.ispkg or module.name.startswith("_"):
            continue
        name = f"{reference}.{module.name}.{_SUBPACKAGE}"
        if importlib.util.find_spec(name) is None:
            continue
        dialect = importlib.import_module(name).SOURCE_DIALECT
        found[dialect.name] = dialect
    return dict(sorted(found.items()))
