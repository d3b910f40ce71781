"""`python -m refold.targets.worker SPEC [--features A,B]`: a Python target in a process of its own.

The harness runs every Python target here by default (`refold.targets.isolation`), so that the
target can change the verdict only through its answers: it cannot patch the harness, end
the run with `os._exit`, hang it, or take it down with a segfault. The worker loads SPEC
as `--in-process` would (`refold.targets`) and answers the exec: JSON-lines protocol
(docs/protocol.md) for it, including the `sse` operation when the target has a decoder.

The protocol runs on private duplicates of stdin and stdout: the target's `print` and
any write to file descriptor 1 go to stderr, and it reads end of file from stdin, so it
cannot corrupt or steal a protocol line. Every call goes through the in-process
`PythonTarget`, so what it checks still holds here: a reply that is not a JSON object, or
a chunk mutated by the target (LIFE-SNAPSHOT), is reported with its failure kind; and the
responses an accumulator handed out are mirrored with the harness's copies
(`refold.targets.snapshot_mirror`), so a live snapshot shows as it would in-process.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable
from typing import IO, Any

from refold.reference import JSON, JSONObject

from ..dialects import DIALECTS, Dialect
from ..errors import TargetError, UsageError
from .remote import PROTOCOL_VERSION, TargetAccumulator, incremental_operations
from .snapshot_mirror import SnapshotMirror

__all__ = ["BASE_VARIABLE", "PATH_VARIABLE", "main"]

PATH_VARIABLE = "REFOLD_WORKER_PATH"
"""The harness's `sys.path` (JSON), so the worker imports the target as the harness would."""
BASE_VARIABLE = "REFOLD_WORKER_BASE"
"""The harness's working directory, against which a relative target file is found."""


class _Worker:
    """Answers protocol requests for one loaded Python target."""

    def __init__(
        self, spec: str, features: frozenset[str] | None, dialect: Dialect | None = None
    ) -> None:
        from .loading import load_target

        self._refusal: str | None = None
        self._accumulators: dict[int, tuple[TargetAccumulator, SnapshotMirror]] = {}
        self._next_id = 0
        try:
            self._target = load_target(spec, features=features, dialect=dialect)
        except UsageError as exc:
            self._refusal = str(exc)
        except BaseException as exc:  # a target's import may raise anything, SystemExit too
            self._refusal = f"loading target {spec} raised {type(exc).__name__}: {exc}"

    def answer(self, message: JSONObject) -> JSONObject:
        """The reply to one request, errors included, echoing its `seq`."""
        reply = self._answer(message)
        reply["seq"] = message.get("seq")
        return reply

    def _answer(self, message: JSONObject) -> JSONObject:
        op = message.get("op")
        handler: Callable[[JSONObject], JSONObject] | None = getattr(self, f"_op_{op}", None)
        if handler is None:
            return _error("ProtocolError", f"unknown op {op!r}")
        if self._refusal is not None:
            return _error("UsageError", self._refusal)
        offered = self._operations()
        if op != "hello" and op not in offered:
            return _error(
                "ProtocolError",
                f"target {self._target.name} does not offer op "
                f"{op!r}; its hello reply offers {', '.join(offered)}",
            )
        try:
            return {"ok": True, **handler(message)}
        except TargetError as exc:
            return _error("TargetError", str(exc), kind=exc.kind)
        except UsageError as exc:
            return _error("UsageError", str(exc))
        except Exception as exc:  # the sse decoder, or a request the worker cannot read
            return _error(type(exc).__name__, _raised(self._target.name, op, exc))
        except BaseException as exc:  # KeyboardInterrupt, SystemExit: not a refusal
            return _error(type(exc).__name__, _raised(self._target.name, op, exc), kind="crashed")

    def _operations(self) -> list[str]:
        """What the target offers: `fold`, its dialect's incremental operations when it
        is an accumulator, `sse` when it has a decoder."""
        target = self._target
        if target.dialect.adapters:  # an events adapter: `offers_fold`, `accepts`, `provider`
            adapter: Any = target
            return ["fold"] + (["fold_events"] if adapter.offers_fold else [])
        operations = ["fold"] + (
            sorted(incremental_operations(target.dialect))
            if getattr(target, "factory", None)
            else []
        )
        return operations + (["sse"] if target.sse is not None else [])

    def _op_hello(self, message: JSONObject) -> JSONObject:
        target = self._target
        features: list[JSON] = sorted(target.features)
        hello: JSONObject = {
            "protocol": PROTOCOL_VERSION,
            "name": target.name,
            "dialect": target.dialect.name,
            "description": target.description,
            "features": features,
            "operations": self._operations(),
        }
        if target.dialect.adapters:
            adapter: Any = target
            hello |= {"accepts": sorted(adapter.accepts), "provider": adapter.provider}
        if target.projection is not None:
            hello["projection"] = target.projection.record()
        return hello

    def _op_fold_events(self, message: JSONObject) -> JSONObject:
        events = message.get("events")
        if not isinstance(events, list) or not self._target.dialect.adapters:
            raise ValueError("fold_events needs `events`, a JSON array")
        adapter: Any = self._target
        return {"turn": adapter.fold_events(events)}

    def _op_fold(self, message: JSONObject) -> JSONObject:
        items = self._target.dialect.items
        chunks = message.get(items)
        if not isinstance(chunks, list):
            raise ValueError(f"fold needs `{items}`, a JSON array")
        return {"response": self._target.fold(chunks)}

    def _op_new(self, message: JSONObject) -> JSONObject:
        released = message.get("release")
        for handle in released if isinstance(released, list) else []:
            if isinstance(handle, int):
                self._accumulators.pop(handle, None)
        self._next_id += 1
        self._accumulators[self._next_id] = (self._target.accumulator(), SnapshotMirror())
        return {"id": self._next_id}

    def _on_accumulator(
        self, message: JSONObject, call: Callable[[TargetAccumulator], JSONObject]
    ) -> JSONObject:
        """One accumulator call, with the responses it handed out mirrored both ways."""
        handle = message.get("id")
        if not isinstance(handle, int) or handle not in self._accumulators:
            raise ValueError(f"no accumulator with id {handle!r}")
        accumulator, mirror = self._accumulators[handle]
        mirror.incoming(message.get("snapshots"))
        fields = call(accumulator)
        if "response" in fields and isinstance(fields["response"], dict):
            mirror.hand_out(fields["response"])
        changed = mirror.outgoing()
        return {**fields, "snapshots": changed} if changed else fields

    def _op_add(self, message: JSONObject) -> JSONObject:
        def add(accumulator: TargetAccumulator) -> JSONObject:
            accumulator.add(message.get(self._target.dialect.item))
            return {}

        return self._on_accumulator(message, add)

    def _op_response(self, message: JSONObject) -> JSONObject:
        return self._on_accumulator(message, lambda a: {"response": a.response()})

    def _op_finished(self, message: JSONObject) -> JSONObject:
        return self._on_accumulator(message, lambda a: {"finished": a.finished()})

    def _op_mark_done(self, message: JSONObject) -> JSONObject:
        def mark_done(accumulator: TargetAccumulator) -> JSONObject:
            accumulator.mark_done()
            return {}

        return self._on_accumulator(message, mark_done)

    def _op_error(self, message: JSONObject) -> JSONObject:
        return self._on_accumulator(message, lambda a: {"error": a.error()})

    def _op_sse(self, message: JSONObject) -> JSONObject:
        from .protocol_sse import items_reply, sse_parts, sse_reply

        decode = self._target.sse
        if decode is None:
            raise UsageError(f"target {self._target.name} has no SSE decoder")
        decoded = decode(sse_parts(message))
        return (
            items_reply(decoded)
            if self._target.dialect.sse_layer == "items"
            else (sse_reply(decoded))
        )


def _raised(name: str, op: object, exc: BaseException) -> str:
    frames = traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-3)
    return f"{name}: {op} raised {type(exc).__name__}: {exc}\n" + "".join(frames).rstrip()


def _error(error_type: str, message: str, **extra: JSON) -> JSONObject:
    return {"ok": False, "error": {"type": error_type, "message": message, **extra}}


def _protocol_streams() -> tuple[IO[bytes], IO[bytes]]:
    """Private copies of stdin and stdout for the protocol; the target gets /dev/null as
    stdin and stderr as stdout, at the file descriptor level and in `sys`."""
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as the process
    sys.stdout = sys.stderr
    return requests, replies


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m refold.targets.worker",
        description="serve a Python target to the refold harness",
    )
    parser.add_argument("spec", help="the Python target, as --target takes it")
    parser.add_argument("--features", default=None, help="comma-separated claimed features")
    parser.add_argument("--dialect", default=None, help="the run's dialect")
    parser.add_argument(
        "--confine",
        default=None,
        metavar="POLICY",
        help="the limits to set on this process before the target loads "
        "(refold.targets.confine_exec)",
    )
    return parser.parse_args(argv)


def _loaded(spec: str, features: frozenset[str] | None, dialect: Dialect | None) -> _Worker:
    """The worker of `spec`, imported from the harness's folder (a relative file is named
    against it); the target then runs in the worker's own private directory."""
    own, base = os.getcwd(), os.environ.get(BASE_VARIABLE)
    try:
        if base:
            os.chdir(base)
        return _Worker(spec, features, dialect)
    finally:
        os.chdir(own)


def main(argv: list[str] | None = None) -> int:
    """Serve requests until stdin ends."""
    args = _parse(argv)
    if args.confine is not None:
        # Set here, before the target is imported, instead of by the launcher: one
        # interpreter start less for every worker.
        from . import confine_exec

        try:
            confine_exec.apply(json.loads(args.confine))
        except (OSError, ValueError) as exc:
            sys.stderr.write(f"refold: cannot confine the target: {exc}\n")
            return confine_exec.CANNOT_CONFINE
    # Ctrl-C at the terminal is for the harness, which ends the worker with the run.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    paths: Any = json.loads(os.environ.get(PATH_VARIABLE, "[]"))
    sys.path[:0] = [p for p in paths if isinstance(p, str) and p not in sys.path]
    requests, replies = _protocol_streams()
    features = (
        None if args.features is None else frozenset(f for f in args.features.split(",") if f)
    )
    worker = _loaded(
        args.spec, features, None if args.dialect is None else DIALECTS.get(args.dialect)
    )
    for line in requests:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as exc:
            message = {"op": None, "error": str(exc)}
        reply = worker.answer(message if isinstance(message, dict) else {"op": None})
        replies.write(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
        replies.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
