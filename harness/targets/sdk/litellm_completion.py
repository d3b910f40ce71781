"""litellm's completion path, offline: what the litellm targets of the dialects litellm
bridges to chat completions share.

`litellm.completion(..., stream=True)` reads a provider's SSE `data:` lines with that
provider's iterator, wraps it in `CustomStreamWrapper` (finish reasons, the end-of-stream
check) and the caller folds what it yields with `stream_chunk_builder`. Here the HTTP
response is replaced by the lines of a list of events and the wrapper is given a bare
`Logging` object: no callbacks are configured, nothing is sent. Each dialect's target
gives its provider's iterator and maps the `ModelResponse` back to its dialect's shape.

Importing this module imports litellm the quiet, offline way: a model price map is
fetched over the network when litellm is imported unless `LITELLM_LOCAL_MODEL_COST_MAP`
asks for the bundled copy; `suppress_debug_info` and `disable_streaming_logging`, two of
litellm's own settings, keep its console notices ("Provider List: …", printed by its cost
lookup of an unknown model) and its per-chunk logging work (submitted to its thread pool;
the end-of-stream success handler still runs) out of the run. Neither changes a result.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any

from refold.reference import JSON

from ._requires import require

__all__ = ["built", "completion_stream", "data_lines", "litellm", "offline_logging", "sdk_version"]

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
litellm = require("litellm", extra="litellm")
from litellm.litellm_core_utils.litellm_logging import Logging  # noqa: E402

litellm.suppress_debug_info = True  # type: ignore[attr-defined]
litellm.disable_streaming_logging = True  # type: ignore[attr-defined]
from litellm.litellm_core_utils.streaming_handler import CustomStreamWrapper  # noqa: E402


def data_lines(events: Sequence[JSON]) -> Iterator[str]:
    """Each event as the `data:` line litellm's `iter_sse_lines` gives a provider's iterator
    (`event:` lines are not sent)."""
    return iter(["data: " + json.dumps(event) for event in events])


def completion_stream(
    iterator: Callable[..., Any], lines: Iterator[str], *, model: str, provider: str
) -> Any:
    """What `litellm.completion(model=..., stream=True)` returns for a model of `provider`
    whose iterator class is `iterator`, reading `lines`."""
    return CustomStreamWrapper(
        completion_stream=iterator(streaming_response=lines, sync_stream=True),
        model=model,
        custom_llm_provider=provider,
        logging_obj=offline_logging(model=model, provider=provider),
    )


def offline_logging(*, model: str, provider: str) -> Logging:
    """A bare `Logging` for one call of `model` of `provider`, as `litellm.completion`
    makes it (no callbacks)."""
    logging = Logging(
        model=model,
        messages=[{"role": "user", "content": "refold"}],
        stream=True,
        call_type="completion",
        start_time=datetime.now(),
        litellm_call_id="refold-offline",
        function_id="refold-offline",
    )
    logging.update_environment_variables(
        model=model,
        user=None,
        optional_params={},
        litellm_params={"custom_llm_provider": provider},
    )
    return logging


def built(chunks: list[Any]) -> Any:
    """litellm's `stream_chunk_builder` of `chunks`.

    Raises:
        ValueError: it built nothing (returned None).
    """
    response: Any = litellm.stream_chunk_builder(chunks)
    if response is None:
        raise ValueError("litellm.stream_chunk_builder returned None (no response)")
    return response


def sdk_version() -> str:
    """The installed litellm version."""
    from importlib.metadata import version

    return version("litellm")
