"""Targets: the implementations under test, behind one small interface.

`load_target` (`loading`) turns a `--target` value into a `Target`; `forms` is the
table of the forms it takes. Inside: `remote` (the `Target` protocol, `RemoteTarget` and
the JSON-lines protocol's operations), `python` (what a Python module offers), `worker` +
`isolation` (a Python target served from a worker process, the default), `exec` +
`process_tree`, `http`, `protocol_sse`, `snapshot_mirror`, `reference` (target
`reference`) and `sdk/` (the built-in SDK targets).
"""

from .forms import FORMS, TargetForm, forms_help, forms_markdown, forms_sentence
from .loading import BUILTIN_TARGETS, ENTRY_POINT_GROUP, load_target
from .remote import (
    DEFAULT_MAX_REPLY,
    PROTOCOL_VERSION,
    RemoteAccumulator,
    RemoteTarget,
    Target,
    TargetAccumulator,
    Transport,
    check_features,
    misanswered,
    stamped,
)

__all__ = [
    "BUILTIN_TARGETS",
    "DEFAULT_MAX_REPLY",
    "ENTRY_POINT_GROUP",
    "FORMS",
    "PROTOCOL_VERSION",
    "RemoteAccumulator",
    "RemoteTarget",
    "Target",
    "TargetAccumulator",
    "TargetForm",
    "Transport",
    "check_features",
    "forms_help",
    "forms_markdown",
    "forms_sentence",
    "load_target",
    "misanswered",
    "stamped",
]
