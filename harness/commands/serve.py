"""`refold serve`: a loopback server answering a dialect's API with drawn cases
(`--dialect`, the registry's default when absent; each dialect's `Endpoint` says what it
answers).

Point a client in any language at the printed base URL; the request's `seed` picks the
completion, `"stream": true` gets it as server-sent events cut into flushed byte pieces.
It binds loopback only, unless `--allow-remote` says another address is meant.
"""

from __future__ import annotations

import argparse
from typing import Any

from refold.dialects import DEFAULT_DIALECT, dialect
from refold.errors import UsageError

from ..serve.cases import ENDPOINTS
from ..serve.server import CompletionServer, is_loopback
from ._usage import add_dialect_argument, usage_error

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add `refold serve` to the parser."""
    parser = subparsers.add_parser("serve", help="serve drawn completions over loopback HTTP")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind (default 127.0.0.1); a non-loopback address needs --allow-remote",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host that is not loopback: anyone who can reach it gets answers",
    )
    parser.add_argument("--port", type=int, default=8765, help="port (0: any free port)")
    add_dialect_argument(parser, what="served")
    parser.add_argument(
        "--features",
        default=None,
        help="comma-separated features of the drawn cases (default: "
        + "; ".join(f"{name}: {','.join(sorted(e.features))}" for name, e in ENDPOINTS.items())
        + ")",
    )
    parser.add_argument(
        "--families",
        default="1",
        help="comma-separated lossless split families of the dialect ("
        + ", ".join(f"{name} {min(e.families)}-{max(e.families)}" for name, e in ENDPOINTS.items())
        + "; default: 1)",
    )
    parser.add_argument(
        "--corpus",
        default=None,
        metavar="DIR",
        help="serve the recorded cases of DIR byte for byte in their recorded "
        "pieces (GET /cases lists them) instead of drawn ones",
    )
    parser.add_argument(
        "--max-requests",
        type=int,
        default=None,
        help="stop after this many requests (default: serve until interrupted)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted or until --max-requests were answered."""
    if not args.allow_remote and not is_loopback(args.host):
        return usage_error(
            "serve",
            f"--host {args.host} is not a loopback address, so anyone "
            f"who can reach it would be served; add --allow-remote to "
            f"bind it anyway, or use 127.0.0.1",
        )
    if args.corpus is not None:
        return _serve_corpus(args)
    try:
        served = dialect(args.dialect or DEFAULT_DIALECT)
    except UsageError as exc:
        return usage_error("serve", f"--dialect {args.dialect}: {exc}")
    if served.name not in ENDPOINTS:
        return usage_error(
            "serve",
            f"--dialect {served.name}: {served.title} is not an API "
            f"with an endpoint to serve; refold serve answers "
            f"{', '.join(ENDPOINTS)}: serve the dialect your adapter "
            f"reads and point it at that",
        )
    endpoint = ENDPOINTS[served.name]
    features = (
        endpoint.features
        if args.features is None
        else frozenset(f.strip() for f in args.features.split(",") if f.strip())
    )
    unknown = sorted(features - set(served.features))
    if unknown:
        return usage_error(
            "serve",
            f"unknown features {unknown} (--features); the "
            f"{served.name} vocabulary is {', '.join(served.features)}",
        )
    families = _families(args.families, endpoint.families)
    if families is None:
        return usage_error(
            "serve",
            f"--families {args.families!r}: expected comma-separated "
            f"{served.name} split families from {min(endpoint.families)}"
            f" to {max(endpoint.families)}",
        )
    server = CompletionServer(
        args.host,
        args.port,
        features=features,
        families=families,
        max_requests=args.max_requests,
        dialect=served.name,
    )
    print(
        f"refold serve: {served.title}: POST {server.url} ({server.endpoint.asking})",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _serve_corpus(args: argparse.Namespace) -> int:
    from ..capture.corpus import load_corpus
    from ..serve.corpus import CorpusServer

    cases = load_corpus(args.corpus)
    server = CorpusServer(cases, args.host, args.port, max_requests=args.max_requests)
    print(
        f"refold serve: {len(cases)} cases of {args.corpus}: GET {server.base_url}/cases "
        f"lists them, GET or POST {server.base_url}/cases/NAME streams one",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _families(text: str, known: frozenset[int]) -> frozenset[int] | None:
    """The split families named, or None when one is not a family number in `known`."""
    names = [f.strip() for f in text.split(",") if f.strip()]
    if not names or not all(n.isdigit() and int(n) in known for n in names):
        return None
    return frozenset(int(n) for n in names)
