"""Targets: the implementations under test, behind one small interface.

Every target, whatever its language, offers the suites the same two operations:
`fold(items)` for a whole list, and `accumulator()` for the incremental interface
(`add`, `response`, and the dialect's lifecycle reads: `finished` and `mark_done` for
chat, `finished` and `error` for Anthropic) when it has one. A target is of one dialect
(`refold.dialects`), says which features of that dialect's closed vocabulary it claims,
and may carry the SSE decoder of its wire layer (`sse`, feature `sse`): a Python
target's own, or a remote target's `sse` operation.

`load_target(spec)` (`refold.targets.forms`) turns a `--target` value into a Target.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol, Self, runtime_checkable

from refold.reference import JSON, JSONObject

from ..dialects import DEFAULT_DIALECT, DIALECTS, Dialect
from ..errors import TargetError, UsageError, preview
from ..run.projection import Projection, check_places, projection_of

if TYPE_CHECKING:
    # Imported for the annotation only: the decoders module pulls in httpx.
    from .sdk.decoders import AnySSEDecode, DecodedStream

__all__ = [
    "DEFAULT_MAX_REPLY",
    "PROTOCOL_VERSION",
    "RemoteAccumulator",
    "RemoteTarget",
    "Target",
    "TargetAccumulator",
    "Transport",
    "check_features",
    "declared_dialect",
    "incremental_operations",
    "misanswered",
    "stamped",
]


def _why_unsupported(feature: str, dialect: Dialect) -> str:
    if feature == "lifecycle":
        needs = "/".join(("add", "response", *dialect.lifecycle))
        return f"a fold-only target cannot claim `lifecycle`: it needs {needs}"
    if feature == "sse":
        returns = "DecodedStream" if dialect.sse_layer == "events" else f"a list of {dialect.items}"
        return (
            "a target without an SSE decoder cannot claim `sse`: a Python target declares "
            f"one as `sse` in its refold_target (decode(parts) -> {returns}); exec: and "
            "http:// targets offer one with the `sse` operation (docs/protocol.md)"
        )
    return f"no target interface offers `{feature}` yet"


def declared_dialect(declared: object, asked: Dialect | None, *, origin: str) -> Dialect:
    """The dialect of a target that declares `declared` (None: nothing), in a run that
    asks for `asked` (None: nothing): a target is never run against another dialect.

    Raises:
        UsageError: the declaration names no dialect refold has, or another one than
            the run asks for.
    """
    if declared is None:
        return asked or DIALECTS[DEFAULT_DIALECT]
    if not isinstance(declared, str) or declared not in DIALECTS:
        raise UsageError(
            f"{origin} declares dialect {preview(declared)}; expected one of: {', '.join(DIALECTS)}"
        )
    found = DIALECTS[declared]
    if asked is not None and asked is not found:
        raise UsageError(
            f"{origin} folds {found.name} streams ({found.title}) but this run checks "
            f"{asked.name}: a target is only run against its own dialect's suites; check it "
            f"with --dialect {found.name} (or without --dialect)"
        )
    return found


def incremental_operations(dialect: Dialect) -> frozenset[str]:
    """The protocol operations of the incremental interface in `dialect`."""
    return frozenset({"new", "add", "response", *dialect.lifecycle})


@runtime_checkable
class TargetAccumulator(Protocol):
    """One incremental fold inside a target."""

    def add(self, chunk: JSON) -> None: ...
    def response(self) -> JSONObject: ...
    def finished(self) -> bool: ...
    def mark_done(self) -> None:
        """Record the end of the stream (`[DONE]`, the chat lifecycle)."""
        ...

    def error(self) -> JSONObject | None:
        """The stream's recorded error, or None (the Anthropic lifecycle)."""
        ...


class Target(Protocol):
    """An implementation under test, as the suites see it."""

    name: str
    dialect: Dialect
    """The one dialect whose streams it folds."""
    features: frozenset[str]
    description: str
    sse: AnySSEDecode | None
    """The target's SSE decoder, checked by the `sse` suite; None when it exposes none.
    It returns a `DecodedStream` in a dialect whose wire rules are about WHATWG events
    (chat), the list of items a fold would be given in one whose rules are about items."""
    projection: Projection | None
    """The places of its fold that are compared (`refold.run.projection`); None: all of it."""

    def fold(self, chunks: list[JSON]) -> JSONObject:
        """Fold a whole list of chunks; raise TargetError if the target misbehaves."""
        ...

    def accumulator(self) -> TargetAccumulator:
        """Start an incremental fold (only for targets claiming `lifecycle`)."""
        ...

    def close(self) -> None:
        """Release what the target holds (processes, connections)."""
        ...


def check_features(
    claimed: Iterable[str],
    *,
    supported: frozenset[str],
    origin: str,
    dialect: Dialect | None = None,
) -> frozenset[str]:
    """Validate a feature claim against the dialect's vocabulary (the default dialect's
    when None) and the target's interface.

    Raises:
        UsageError: a feature is not in the spec's vocabulary, the dialect's first
            feature (`text`; `events`) is missing, or the
            target's interface cannot support a claimed feature.
    """
    dialect = dialect or DIALECTS[DEFAULT_DIALECT]
    features = frozenset(claimed)
    unknown = sorted(features - set(dialect.features))
    if unknown:
        raise UsageError(
            f"{origin} claims unknown features {unknown}; the {dialect.name} "
            f"vocabulary is: {', '.join(dialect.features)}"
        )
    required = dialect.features[0]  # `text`; `events` for an events adapter
    if required not in features:
        raise UsageError(
            f"{origin} does not claim `{required}`, which every {dialect.name} target must support"
        )
    unsupported = sorted(features - supported)
    if unsupported:
        why = "; ".join(_why_unsupported(f, dialect) for f in unsupported)
        raise UsageError(
            f"{origin} claims {unsupported}, which its interface cannot support ({why})"
        )
    return features


PROTOCOL_VERSION = 2
"""The version of the JSON protocol of `exec:` and `http://` targets (docs/protocol.md).
Version 2 added `seq`: every request carries one and its reply must echo it."""

DEFAULT_MAX_REPLY = 64 * 1024 * 1024
"""The largest reply accepted from a remote target, in bytes (`--target-max-reply`)."""

_VERSION_CHANGE = "since protocol 2 every request carries an integer `seq` that its reply must echo"


class Transport(Protocol):
    """Carries one protocol message to a target and brings back its reply."""

    where: str

    def request(self, message: JSONObject) -> JSONObject:
        """Send `message`, return the reply object; raise TargetError on failure."""
        ...

    def generation(self) -> int:
        """Increases whenever the target restarts, invalidating its accumulators."""
        ...

    def close(self) -> None:
        """Stop the target or drop the connection."""
        ...


class RemoteTarget:
    """A target in another process, driven through the JSON protocol (docs/protocol.md).

    The transport carries the messages (a subprocess's stdin/stdout, or HTTP POST);
    this class is the protocol's operations and the checks on every reply.
    """

    @classmethod
    def greeted(
        cls,
        transport: Transport,
        *,
        spec: str,
        features: frozenset[str] | None,
        dialect: Dialect | None = None,
    ) -> Self:
        """Say hello over `transport` in a run of `dialect` (None: the target's); a target
        that cannot is a usage error, and the transport is closed so no process or
        connection outlives the refusal."""
        try:
            return cls(transport, spec=spec, features=features, dialect=dialect)
        except TargetError as exc:
            transport.close()
            raise UsageError(f"{spec} did not answer hello: {exc}") from exc
        except UsageError:
            transport.close()
            raise

    def __init__(
        self,
        transport: Transport,
        *,
        spec: str,
        features: frozenset[str] | None,
        dialect: Dialect | None = None,
    ) -> None:
        self._transport = transport
        hello = self._call({"op": "hello", "protocol": PROTOCOL_VERSION}, "hello")
        self.hello = hello
        self.dialect = declared_dialect(hello.get("dialect"), dialect, origin=f"target {spec}")
        self._incremental = incremental_operations(self.dialect)
        self.operations = _operations(hello, transport.where, self._incremental)
        # The `sse` operation is the target's decoder, carried over the protocol.
        self.sse: AnySSEDecode | None = self._decode if "sse" in self.operations else None
        self.name = str(hello.get("name") or spec)
        self.description = self._describe(hello, spec)
        origin = f"target {spec} (its hello reply)"
        self.projection = projection_of(hello.get("projection"), origin=origin)
        check_places(self.dialect, self.projection, origin=origin)
        supported = (
            self.dialect.fold_features
            | ({"lifecycle"} if self.operations >= self._incremental else set())
            | ({"sse"} if self.sse is not None else set())
        )
        declared = hello.get("features")
        self.declared_features: frozenset[str] | None = (
            frozenset(str(f) for f in declared) if isinstance(declared, list) else None
        )
        """The features the hello states (the target's own claim; None: it states none)."""
        if features is None and isinstance(declared, list):
            features = frozenset(str(f) for f in declared)
        self.features = check_features(
            supported if features is None else features,
            supported=supported,
            origin=f"target {spec}",
            dialect=self.dialect,
        )
        self._released: list[str | int] = []

    def _call(self, message: JSONObject, what: str) -> JSONObject:
        reply = self._transport.request(message)
        if reply.get("ok") is True:
            return reply
        error = reply.get("error")
        if isinstance(error, dict):
            raise self._raised(error, what)
        raise TargetError(
            f"{self._transport.where}: {what} replied {preview(reply)}, "
            f'expected {{"ok": true, ...}} or {{"ok": false, "error": {{...}}}}',
            kind="protocol",
        )

    def _raised(self, error: JSONObject, what: str) -> Exception:
        """The exception an error reply stands for: the target raised."""
        kind = error.get("type") or "error"
        return TargetError(
            f"{self._transport.where}: {what} raised {kind}: {error.get('message', '')}",
            kind="raised",
        )

    @staticmethod
    def _describe(hello: JSONObject, spec: str) -> str:
        name, version = hello.get("name") or spec, hello.get("version")
        return f"{spec} ({name} {version})" if version else spec

    def _decode(self, parts: Sequence[bytes]) -> DecodedStream | list[JSON]:
        """The target's SSE decoder, through the `sse` operation: WHATWG events, or the
        stream's items, as the dialect's wire rules are about (`Dialect.sse_layer`)."""
        from .protocol_sse import decoded_items, decoded_stream, sse_request

        reply = self._call(sse_request(parts), "sse(parts)")
        if self.dialect.sse_layer == "items":
            return decoded_items(reply, self._transport.where)
        return decoded_stream(reply, self._transport.where)

    def _response(self, reply: JSONObject, what: str) -> JSONObject:
        response = reply.get("response")
        if not isinstance(response, dict):
            raise TargetError(
                f"{self._transport.where}: {what} returned "
                f"{_json_type(response)} {preview(response)}, expected a JSON "
                f"object",
                kind="not-an-object",
            )
        return response

    def fold(self, chunks: list[JSON]) -> JSONObject:
        """Fold with the `fold` operation, or through a fresh accumulator."""
        if "fold" in self.operations:
            what = f"fold({self.dialect.items})"
            reply = self._call({"op": "fold", self.dialect.items: chunks}, what)
            return self._response(reply, what)
        accumulator = self.accumulator()
        for chunk in chunks:
            accumulator.add(chunk)
        return accumulator.response()

    def accumulator(self) -> TargetAccumulator:
        """Start an incremental fold in the target (`new`)."""
        if not self.operations >= self._incremental:
            raise UsageError(f"target {self.name} offers only fold(chunks), no accumulator")
        message: JSONObject = {"op": "new"}
        if self._released:
            message["release"], self._released = self._released, []
        reply = self._call(message, "new accumulator")
        handle = reply.get("id")
        if not isinstance(handle, str | int) or isinstance(handle, bool):
            raise TargetError(
                f"{self._transport.where}: new replied without an accumulator id: {preview(reply)}",
                kind="protocol",
            )
        return self._accumulator_for(handle)

    def _accumulator_for(self, handle: str | int) -> TargetAccumulator:
        return RemoteAccumulator(self, handle, self._transport.generation())

    def release(self, handle: str | int, generation: int) -> None:
        """Queue an accumulator id to be freed with the next `new` (no extra round trip)."""
        if generation == self._transport.generation():
            self._released.append(handle)

    def close(self) -> None:
        """Stop the target (exec:) or close the connection (http://)."""
        self._transport.close()


class RemoteAccumulator:
    """An accumulator in a remote target, named by the id its `new` returned."""

    def __init__(self, target: RemoteTarget, handle: str | int, generation: int) -> None:
        self._target = target
        self._handle = handle
        self._generation = generation

    def __del__(self) -> None:
        self._target.release(self._handle, self._generation)

    def _op(self, op: str, what: str, **fields: JSON) -> JSONObject:
        if self._target._transport.generation() != self._generation:
            raise TargetError(
                f"{what}: the target process was restarted after an earlier "
                f"failure, so this accumulator no longer exists",
                kind="crashed",
            )
        return self._target._call({"op": op, "id": self._handle, **fields}, what)

    def add(self, chunk: JSON) -> None:
        item = self._target.dialect.item
        self._op("add", f"add({item})", **{item: chunk})

    def response(self) -> JSONObject:
        return self._target._response(self._op("response", "response()"), "response()")

    def finished(self) -> bool:
        value = self._op("finished", "finished").get("finished")
        if not isinstance(value, bool):
            raise TargetError(
                f"finished replied {preview(value)}, expected true or false", kind="not-an-object"
            )
        return value

    def mark_done(self) -> None:
        self._op("mark_done", "mark_done()")

    def error(self) -> JSONObject | None:
        value = self._op("error", "error").get("error")
        if value is not None and not isinstance(value, dict):
            raise TargetError(
                f"error replied {preview(value)}, expected an object or null", kind="not-an-object"
            )
        return value


def stamped(message: JSONObject, seq: int) -> JSONObject:
    """`message` as sent: with the request number its reply must echo."""
    return {**message, "seq": seq}


def misanswered(request: JSONObject, reply: JSONObject) -> str | None:
    """Why `reply` is not the reply to `request` (its `seq` differs), or None if it is."""
    expected, received = request.get("seq"), reply.get("seq")
    if type(received) is int and received == expected:
        return None
    op = request.get("op")
    greeting = reply.get("hello")
    spoken = greeting.get("protocol") if op == "hello" and isinstance(greeting, dict) else None
    adapters = next(
        (
            one
            for one in DIALECTS.values()
            if one.adapter_kind and one.adapter_kind.protocol == spoken
        ),
        None,
    )
    if adapters is not None:
        return (
            f"the target greets with protocol {spoken}: it is an events adapter "
            f"({adapters.spec} §5); check it with --dialect {adapters.name}"
        )
    if op == "hello" and reply.get("protocol") != PROTOCOL_VERSION:
        return (
            f"the reply to 'hello' says protocol {reply.get('protocol')!r}; refold speaks "
            f"protocol {PROTOCOL_VERSION}: {_VERSION_CHANGE} (docs/protocol.md)"
        )
    if "seq" not in reply:
        return (
            f"the reply to {op!r} carries no `seq`; expected {expected}, the request's: "
            f"{_VERSION_CHANGE}"
        )
    return (
        f"the reply to {op!r} (seq {expected}) carries seq {preview(received)}: the "
        f"replies are out of order (did the target answer an earlier request twice?)"
    )


def _operations(hello: JSONObject, where: str, incremental: frozenset[str]) -> frozenset[str]:
    version = hello.get("protocol")
    if version != PROTOCOL_VERSION:
        raise UsageError(
            f"{where} speaks protocol {version!r}; refold speaks protocol "
            f"{PROTOCOL_VERSION}: {_VERSION_CHANGE} (docs/protocol.md)"
        )
    operations = hello.get("operations")
    if not isinstance(operations, list) or not all(isinstance(o, str) for o in operations):
        raise UsageError(
            f"{where}: hello lists no operations; expected e.g. "
            f'"operations": {json.dumps(["fold", *sorted(incremental)])}, '
            f"received {preview(operations)}"
        )
    found = frozenset(operations)
    if "fold" not in found and not found >= incremental:
        raise UsageError(
            f"{where} offers {sorted(found)}; expected `fold` or all of {sorted(incremental)}"
        )
    return found


def _json_type(value: JSON) -> str:
    if value is None:
        return "null"
    names = {bool: "boolean", int: "number", float: "number", str: "string", list: "array"}
    return names.get(type(value), type(value).__name__)
