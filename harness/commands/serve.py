"""`refold serve`: a loopback server answering OpenAI-style chat completions with drawn cases.

Point a client in any language at the printed base URL; the request's `seed` picks the
completion, `"stream": true` gets it as server-sent events cut into flushed byte pieces.
"""

from __future__ import annotations

import argparse
from typing import Any

from refold.reference import FEATURES

from ..serve import DEFAULT_FEATURES, CompletionServer

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add `refold serve` to the parser."""
    parser = subparsers.add_parser("serve", help="serve drawn completions over loopback HTTP")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument("--port", type=int, default=8765, help="port (0: any free port)")
    parser.add_argument("--features", default=",".join(sorted(DEFAULT_FEATURES)),
                        help="comma-separated features of the drawn completions")
    parser.add_argument("--families", default="1",
                        help="comma-separated lossless split families 1-8 (default: 1)")
    parser.add_argument("--max-requests", type=int, default=None,
                        help="stop after this many requests (default: serve until interrupted)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted or until --max-requests were answered."""
    features = frozenset(f.strip() for f in args.features.split(",") if f.strip())
    unknown = sorted(features - set(FEATURES))
    if unknown:
        print(f"refold serve: unknown features {unknown}; the vocabulary is {', '.join(FEATURES)}")
        return 2
    families = frozenset(int(f) for f in args.families.split(",") if f.strip())
    server = CompletionServer(args.host, args.port, features=features, families=families,
                              max_requests=args.max_requests)
    print(f"refold serve: POST {server.base_url}/chat/completions "
          f"(body `seed` picks the case, `stream` streams it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
