"""Python targets out of the harness's process: the default for every run.

A Python target run in the harness's process can decide the verdict without answering:
patch `refold.run.checks`, end the run with `os._exit(0)`, hang it in a loop, crash it with a
segfault. `IsolatedTarget` runs it in a worker process (`python -m refold.targets.worker`)
instead, driven by the exec: machinery: every call has the `--target-timeout` deadline, a
worker that exits or crashes fails the call under way ("the target exited (status N)")
and a fresh worker serves the next one, and the worker's failure kinds (a mutated chunk,
a reply that is not an object) arrive as the in-process target would raise them. One
worker serves the whole pytest process. `--in-process` (`refold.targets.load_target(...,
isolated=False)`) is the opt-in for debugging, and for `refold mutate` and `refold
coverage`, which measure the target's code in the harness's process.
"""

from __future__ import annotations

import json
import os
import sys

from refold.reference import JSON, JSONObject

from ..dialects import Dialect
from ..errors import TargetError, UsageError
from .exec import ExecTransport
from .remote import DEFAULT_MAX_REPLY, RemoteAccumulator, RemoteTarget, TargetAccumulator
from .snapshot_mirror import SnapshotMirror
from .worker import BASE_VARIABLE, PATH_VARIABLE

__all__ = ["HELLO_SECONDS", "IsolatedTarget"]

HELLO_SECONDS = 60.0
"""The deadline of a worker's first answer: it imports the target (an SDK can take seconds)."""

_KINDS = frozenset({"raised", "timeout", "crashed", "not-an-object", "mutated-input", "protocol"})


class IsolatedTarget(RemoteTarget):
    """A Python target served by a worker process."""

    @classmethod
    def start(
        cls,
        spec: str,
        *,
        features: frozenset[str] | None,
        timeout: float,
        max_reply: int = DEFAULT_MAX_REPLY,
        dialect: Dialect | None = None,
    ) -> IsolatedTarget:
        """Start the worker for `spec` (in a run of `dialect`, None: the target's); a
        target that cannot load is a usage error."""
        argv = [sys.executable, "-m", "refold.targets.worker", spec]
        if features is not None:
            argv += ["--features", ",".join(sorted(features))]
        if dialect is not None:
            argv += ["--dialect", dialect.name]
        # The worker runs in a private directory: the harness's relative paths are
        # resolved here, and a relative target file against the harness's folder.
        paths = [os.path.abspath(path) for path in sys.path]
        env = {PATH_VARIABLE: json.dumps(paths), BASE_VARIABLE: os.getcwd()}
        transport = ExecTransport(
            argv,
            where=f"target {spec} (worker process)",
            timeout=timeout,
            hello_timeout=max(timeout, HELLO_SECONDS),
            max_reply=max_reply,
            env=env,
            confine_option="--confine",
        )
        # The worker validated the claim against the target's own interface.
        return cls.greeted(transport, spec=spec, features=None, dialect=dialect)

    def _raised(self, error: JSONObject, what: str) -> Exception:
        """The worker's errors carry the in-process message and failure kind."""
        message = str(error.get("message", ""))
        if error.get("type") == "UsageError":
            return UsageError(message)
        kind = error.get("kind")
        if isinstance(kind, str) and kind in _KINDS:
            return TargetError(message, kind=kind)
        return super()._raised(error, what)

    @staticmethod
    def _describe(hello: JSONObject, spec: str) -> str:
        return str(hello.get("description") or spec)

    def _accumulator_for(self, handle: str | int) -> TargetAccumulator:
        return _MirroredAccumulator(self, handle, self._transport.generation())


class _MirroredAccumulator(RemoteAccumulator):
    """Responses handed out stay live in both directions, as in-process (LIFE-SNAPSHOT;
    see `refold.targets.snapshot_mirror`)."""

    def __init__(self, target: RemoteTarget, handle: str | int, generation: int) -> None:
        super().__init__(target, handle, generation)
        self._mirror = SnapshotMirror()

    def _op(self, op: str, what: str, **fields: JSON) -> JSONObject:
        changed = self._mirror.outgoing()
        if changed:
            fields["snapshots"] = changed
        reply = super()._op(op, what, **fields)
        self._mirror.incoming(reply.get("snapshots"))
        return reply

    def response(self) -> JSONObject:
        response = super().response()
        self._mirror.hand_out(response)
        return response
