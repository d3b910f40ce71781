"""The forms of a `--target` value, in one table.

`FORMS` is the only place the forms are written out: `load_target` tries them in order,
and the `--target` help (`forms_help`), the error for an unloadable target
(`forms_sentence`) and the README's table (`forms_markdown`, kept equal by
tests/harness/targets/test_target_forms.py) are generated from it.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points

from ..dialects import DIALECTS, Dialect
from ..errors import UsageError
from .discovery import import_python_target
from .loading import BUILTIN_EVENTS_TARGETS, BUILTIN_TARGETS, ENTRY_POINT_GROUP, registered
from .python import from_object
from .remote import Target

__all__ = [
    "FORMS",
    "TargetForm",
    "TargetOptions",
    "forms_help",
    "forms_markdown",
    "forms_sentence",
]


@dataclass(frozen=True)
class TargetOptions:
    """What every loader is given besides the `--target` value."""

    features: frozenset[str] | None
    timeout: float
    max_reply: int
    dialect: Dialect | None = None
    """The run's dialect (None: the target's own)."""


@dataclass(frozen=True)
class TargetForm:
    """One form of `--target` value: how it looks, what it names, and how it is loaded."""

    shape: str
    """The form as the README's table shows it (Markdown)."""
    short: str
    """The form in a one-line list (the `--target` help, the unloadable-target error)."""
    description: str
    matches: Callable[[str], bool]
    load: Callable[[str, TargetOptions], Target]
    python: bool
    """A Python target: served from a worker process unless `--in-process`."""


def _load_exec(spec: str, options: TargetOptions) -> Target:
    from .exec import ExecTarget

    if options.dialect is not None and options.dialect.adapter_kind is not None:
        adapter: Target = options.dialect.adapter_kind.exec_target(
            spec.removeprefix("exec:"),
            features=options.features,
            timeout=options.timeout,
            max_reply=options.max_reply,
        )
        return adapter

    return ExecTarget.start(
        spec.removeprefix("exec:"),
        features=options.features,
        timeout=options.timeout,
        max_reply=options.max_reply,
        dialect=options.dialect,
    )


def _load_http(spec: str, options: TargetOptions) -> Target:
    from .http import HttpTarget

    if options.dialect is not None and options.dialect.adapter_kind is not None:
        served: Target = options.dialect.adapter_kind.http_target(
            spec, features=options.features, timeout=options.timeout, max_reply=options.max_reply
        )
        return served

    return HttpTarget.connect(
        spec,
        features=options.features,
        timeout=options.timeout,
        max_reply=options.max_reply,
        dialect=options.dialect,
    )


def _load_builtin(spec: str, options: TargetOptions) -> Target:
    return import_python_target(
        BUILTIN_TARGETS[spec], features=options.features, dialect=options.dialect
    )


_NODE_HELLO_SECONDS = 30.0


def _load_node(spec: str, options: TargetOptions) -> Target:
    from .exec import ExecTarget, ExecTransport
    from .sdk.nodejs import require_node

    require_node(spec)
    command = BUILTIN_TARGETS[spec].removeprefix("exec:")
    # Named by its built-in name, not its command (an absolute path of this machine that
    # reports and failure messages would otherwise carry).
    # Loading the SDK's modules takes node longer than a call under a loaded machine.
    transport = ExecTransport(
        shlex.split(command),
        where=spec,
        timeout=options.timeout,
        hello_timeout=max(options.timeout, _NODE_HELLO_SECONDS),
        max_reply=options.max_reply,
    )
    return ExecTarget.greeted(
        transport, spec=spec, features=options.features, dialect=options.dialect
    )


def _load_node_events(spec: str, options: TargetOptions) -> Target:
    from .exec import ExecTransport
    from .sdk.nodejs import require_node

    owner, kind = next(
        (one, kind)
        for one in DIALECTS.values()
        if (kind := one.adapter_kind) is not None and spec in one.node_targets
    )
    if options.dialect not in (None, owner):
        raise UsageError(
            f"{spec} is an events adapter ({owner.name}), not a fold of "
            f"{options.dialect.name} streams: check it without --dialect"
        )
    require_node(spec)
    command = BUILTIN_EVENTS_TARGETS[spec].removeprefix("exec:")
    transport = ExecTransport(
        shlex.split(command),
        where=spec,
        timeout=options.timeout,
        hello_timeout=max(options.timeout, _NODE_HELLO_SECONDS),
        max_reply=options.max_reply,
    )
    target: Target = kind.greeted_target(transport, spec=spec, features=options.features)
    return target


def _load_registered(spec: str, options: TargetOptions) -> Target:
    return from_object(
        registered(spec), name=spec, features=options.features, dialect=options.dialect
    )


def _load_python(spec: str, options: TargetOptions) -> Target:
    return import_python_target(spec, features=options.features, dialect=options.dialect)


def _is_registered(spec: str) -> bool:
    return any(ep.name == spec for ep in entry_points(group=ENTRY_POINT_GROUP))


def _is_file(spec: str) -> bool:
    module = spec.partition(":")[0]
    return module.endswith(".py") or "/" in module or "\\" in module


def _for_adapters(how: str, *, also: str = "") -> str:
    """The form's note on the dialects whose targets are events adapters, which speak
    their own protocol in it (`Dialect.adapter_kind`)."""
    notes = [also] if also else []
    notes += [
        f"with `--dialect {one.name}`: {one.adapter_kind.protocol}, {how}"
        for one in DIALECTS.values()
        if one.adapter_kind is not None
    ]
    return f" ({'; '.join(notes)})" if notes else ""


_NODE_NAMES = [name for name, value in BUILTIN_TARGETS.items() if value.startswith("exec:")]
_SDK_NAMES = [name for name in BUILTIN_TARGETS if name != "reference" and name not in _NODE_NAMES]

FORMS: tuple[TargetForm, ...] = (
    # "reference" before registered names: no plugin can stand in for it.
    TargetForm(
        "`reference`",
        "reference (the default)",
        "the built-in reference fold (the default)",
        lambda spec: spec == "reference",
        _load_builtin,
        python=True,
    ),
    TargetForm(
        "`exec:COMMAND`",
        "exec:COMMAND",
        "a process speaking the JSON-lines protocol on stdin/stdout"
        + _for_adapters("docs/events.md"),
        lambda spec: spec.startswith("exec:"),
        _load_exec,
        python=False,
    ),
    TargetForm(
        "`http://host:port/path`",
        "an http(s):// URL",
        "a service speaking the same protocol over HTTP POST"
        + _for_adapters("a POST per message", also="`https://` too"),
        lambda spec: spec.startswith(("http://", "https://")),
        _load_http,
        python=False,
    ),
    TargetForm(
        "`NAME`",
        "a registered target name",
        f"a target registered in the `{ENTRY_POINT_GROUP}` entry-point group",
        _is_registered,
        _load_registered,
        python=True,
    ),
    TargetForm(
        ", ".join(f"`{name}`" for name in _NODE_NAMES),
        f"a built-in Node.js SDK target ({', '.join(_NODE_NAMES)})",
        "the built-in Node.js SDK targets, run as `exec:node FILE` (below)",
        lambda spec: spec in _NODE_NAMES,
        _load_node,
        python=False,
    ),
    TargetForm(
        ", ".join(f"`{name}`" for name in BUILTIN_EVENTS_TARGETS),
        f"a built-in Node.js events adapter ({', '.join(BUILTIN_EVENTS_TARGETS)})",
        "the built-in Node.js events adapters, run as `exec:node FILE` speaking "
        "refold-events/1 (docs/events.md)",
        lambda spec: spec in BUILTIN_EVENTS_TARGETS,
        _load_node_events,
        python=False,
    ),
    TargetForm(
        ", ".join(f"`{name}`" for name in _SDK_NAMES),
        f"a built-in SDK target ({', '.join(_SDK_NAMES)})",
        "the built-in SDK targets (below)",
        lambda spec: spec in BUILTIN_TARGETS,
        _load_builtin,
        python=True,
    ),
    TargetForm(
        "`path/to/file.py`", "a .py file", "a Python file", _is_file, _load_python, python=True
    ),
    TargetForm(
        "`mypkg:attr`",
        "module:attr",
        "one attribute of a module: a class, a function or a declaration",
        lambda spec: ":" in spec,
        _load_python,
        python=True,
    ),
    TargetForm(
        "`mypkg`, `mypkg.sub`",
        "a module",
        "an importable module",
        lambda spec: True,
        _load_python,
        python=True,
    ),
)
"""Every `--target` form, in the order `load_target` tries them (the last takes anything)."""


def forms_help() -> str:
    """The `--target` option's help: every form, briefly."""
    return "implementation to check: " + ", ".join(form.short for form in FORMS)


def forms_sentence() -> str:
    """Every form, as the error for an unloadable target lists them."""
    shorts = [form.short for form in FORMS]
    return ", ".join(shorts[:-1]) + " or " + shorts[-1]


def forms_markdown() -> str:
    """The README's table of the forms."""
    rows = [f"| {form.shape} | {form.description} |" for form in FORMS]
    return "\n".join(["| form | what is checked |", "| --- | --- |", *rows])
