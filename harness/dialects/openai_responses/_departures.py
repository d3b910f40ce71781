"""The registered departures of an OpenAI Responses stream from its documented shape.

`observed` ones are the research quirks (`RQn`, research/responses-fold.md §3) and the
places where OpenAI's own published examples or captures differ from its published
schema (`RS-DOC-*`; gateways known to send the same are named beside them), each with who
sends it and where that is shown. `synthetic` ones
(`RS-SYN-*`) are what the strategies' noise and damage and the rule examples do that no
provider is known to send. Each has one detector: the numbers of the events where a
stream departs that way.

RQ3 (arguments only on `.done`), RQ15 (`obfuscation`), RQ16 (no usage on the terminal),
RQ17 (`response.incomplete`) and RQ23 (an empty delta) are no departures: the schema and
the grammar allow them. Keys the schema does not list never are: providers add keys.
"""

from __future__ import annotations

from refold.verdicts.departure_kinds import observed, synthetic
from refold.verdicts.shapes import Departure
from refold.verdicts.wire_shapes import FrameKind

from . import _detectors as found
from ._detectors import Detector

__all__ = ["DEPARTURES", "DETECTORS", "WIRE"]

_REF = "https://platform.openai.com/docs/api-reference/responses-streaming"
_CAPTURE = (
    "prism-php's recorded OpenAI stream tests/Fixtures/openai/"
    "stream-unknown-error-responses-1.json (https://github.com/prism-php/prism)"
)


_REGISTRY: tuple[tuple[Departure, Detector], ...] = (
    (
        observed(
            "RQ1",
            "the terminal response's `output` is `[]` although items were streamed",
            "the ChatGPT/Codex backend: https://github.com/BerriAI/litellm/pull/26075, "
            "https://github.com/open-webui/open-webui/pull/27800",
        ),
        found.empty_terminal_output,
    ),
    (
        observed(
            "RQ2",
            "the terminal response's `output` is absent, `null`, or holds fewer "
            "items than were streamed",
            "gateways: https://github.com/ENTERPILOT/GoModel/pull/831, "
            "https://github.com/mcowger/plexus/pull/644, "
            "https://github.com/maximhq/bifrost/pull/1985 (only tool items put back)",
        ),
        found.missing_terminal_output,
    ),
    (
        observed(
            "RQ4",
            "an item never gets `response.output_item.done` before the terminal event",
            "https://github.com/NousResearch/hermes-agent/pull/92767 (citing opencode #37159)",
        ),
        found.never_done,
    ),
    (
        observed(
            "RQ5",
            "an item's events before its `response.output_item.added`, or an item never added",
            "the gpt-oss harmony path: "
            "https://github.com/vllm-project/agentic-api/issues/62; "
            "https://github.com/BerriAI/litellm/pull/36375",
        ),
        found.before_announced,
    ),
    # the item added at the index a null one left blank is counted RQ6's own: the grammar
    # takes the index as announced by the blank; no sender of it alone is known
    (
        observed(
            "RQ6",
            "`response.output_item.added` whose `item` is null (and the item "
            "then added at the index it left blank)",
            "https://github.com/openai/openai-python/issues/3125 (fixed by PR #3126, "
            "which tracks the items after a null one by the indexes they are streamed "
            "at, reused ones included)",
        ),
        found.blank_item,
    ),
    (
        observed(
            "RQ7",
            "item ids that rotate between an item's events",
            "GitHub Copilot (gpt-5.3-codex), captured in Vercel AI's fixture "
            "github-copilot-id-rotation.1 (https://github.com/vercel/ai)",
        ),
        found.rotated_ids,
    ),
    (
        observed(
            "RQ9",
            "an item named by another `id` or `call_id` in its `response.output_item.done` "
            "or in the terminal's `output` than it was added with",
            "OpenRouter (`fc_tmp_*` while streaming, `call_*` at completion): "
            "https://github.com/rbb-dev/Open-WebUI-OpenRouter-pipe/pull/54; vLLM (`call_id` "
            "differs between `output_item.done` and `response.completed`): "
            "https://github.com/vllm-project/vllm/pull/47916",
        ),
        found.changed_identities,
    ),
    (
        observed(
            "RQ10",
            "a `function_call` item without `id` (its events without `item_id`)",
            "https://github.com/anomalyco/opencode/pull/45081",
        ),
        found.call_without_id,
    ),
    (
        observed(
            "RQ12",
            "`sequence_number` absent, repeated or out of order",
            "https://github.com/ENTERPILOT/GoModel/pull/953, "
            "https://github.com/BerriAI/litellm/pull/28899, "
            "https://github.com/BerriAI/litellm/pull/32579, "
            "https://github.com/vinhnx/VTCode/issues/731",
        ),
        found.sequence_departs,
    ),
    (
        observed(
            "RQ13",
            "two items at one `output_index`, or an item's events at another item's index",
            "https://github.com/theopenco/llmgateway/pull/2908, "
            "https://github.com/agentgateway/agentgateway/pull/1453; "
            "LangChain's source comment on drifting output_index",
        ),
        found.index_collisions,
    ),
    (
        observed(
            "RQ18",
            "an `error` event whose payload is nested under `error`",
            _CAPTURE,
            "openai-node's ResponseStream: \"first-party providers nest their "
            'error payload" (https://github.com/openai/openai-node)',
        ),
        found.nested_error,
    ),
    (
        observed(
            "RQ19",
            "the terminal event delivered twice",
            'research/neutral-events.md §2.6 (openai-core: "a duplicated '
            'response.completed ... the final response converges")',
        ),
        found.repeated_terminal,
    ),
    (
        observed(
            "RQ24",
            "`keepalive` events",
            "openai-node's ResponseAccumulator: \"a transport "
            'keepalive event that leaves the accumulated response unchanged" '
            "(https://github.com/openai/openai-node)",
        ),
        found.keepalive,
    ),
    (
        observed(
            "RS-RESUMED",
            "a stream that does not open with `response.created` (one "
            "resumed after a `sequence_number`)",
            "https://platform.openai.com/docs/guides/background#resuming-streams "
            "(`starting_after`)",
            "https://platform.openai.com/docs/guides/function-calling"
            "#streaming (its output events start at response.output_item.added)",
        ),
        found.headless,
    ),
    (
        observed(
            "RS-DOC-NULL-USAGE",
            "a lifecycle response with `usage: null` (the schema types usage as an object)",
            f"{_REF}/response/created (its example)",
            _CAPTURE,
        ),
        found.null_usage,
    ),
    (
        observed(
            "RS-DOC-SPARSE-USAGE",
            "usage without `input_tokens_details` or "
            "`output_tokens_details`, or whose "
            "`input_tokens_details` lacks `cache_write_tokens`",
            f"{_REF}/response/completed (its example)",
            "gateways and servers whose usage details predate `cache_write_tokens` "
            "(required by the schema since openai-openapi's 2026-07 sync): "
            "https://github.com/praxis-proxy/ai/issues/1267 (its Responses-to-Chat "
            "adapter's streamed terminal response), "
            "https://github.com/caigee-cmd/cli2api/pull/221, "
            "https://github.com/exo-explore/exo/pull/1885",
        ),
        found.sparse_usage,
    ),
    (
        observed(
            "RS-DOC-SPARSE-RESPONSE",
            "a response without keys the Response schema "
            "requires (`tools`, `instructions`, `metadata` ...)",
            f"{_REF}/response/queued, /response/failed and /response/incomplete (their "
            "examples); gateways' sparse terminal frames (RS-ENV-FILL: RQ2, RQ18)",
        ),
        found.sparse_response,
    ),
    (
        observed(
            "RS-DOC-NO-LOGPROBS",
            "output_text events or parts without `logprobs`",
            f"{_REF}/response/output_text/delta, /response/output_text/done and "
            "/response/content_part/added (their examples)",
        ),
        found.no_logprobs,
    ),
    (
        observed(
            "RS-DOC-MESSAGE-STATUS",
            "a message item without `status`",
            f"{_REF}/response/completed (its example's output message)",
        ),
        found.message_without_status,
    ),
    (
        observed(
            "RS-DOC-ARGS-NAME",
            "`response.function_call_arguments.done` without `name`",
            "https://github.com/openai/openai-dotnet/issues/424 (OpenAI's done event "
            "carries arguments but not name)",
        ),
        found.args_done_without_name,
    ),
    (
        observed(
            "RQ14",
            "an output_text part without `annotations`",
            "https://github.com/Wei-Shaw/sub2api/issues/5140",
        ),
        found.no_annotations,
    ),
    (
        synthetic("RS-SYN-UNKNOWN-EVENT", "an event type OpenAI does not document"),
        found.unknown_event,
    ),
    (
        synthetic(
            "RS-SYN-WRONG-TYPE",
            "a field of the wrong JSON type (an index that is not "
            "a non-negative integer, a delta that is not a string, "
            "a response that is not an object, a response's "
            "`model` or `created_at` null or mistyped, its "
            "`output` not an array)",
        ),
        found.wrong_types,
    ),
    (synthetic("RS-SYN-NOT-OBJECT", "an event that is not a JSON object"), found.not_object),
    (synthetic("RS-SYN-NO-ITEM-ID", "an item's events without `item_id`"), found.no_item_id),
    (
        synthetic("RS-SYN-UNKNOWN-ITEM", "an output item of a type OpenAI does not document"),
        found.unknown_item,
    ),
    (
        synthetic("RS-SYN-AFTER-DONE", "an item's events after its `response.output_item.done`"),
        found.after_done,
    ),
    (synthetic("RS-SYN-AFTER-TERMINAL", "events after the terminal event"), found.after_terminal),
    (
        synthetic("RS-SYN-CUT", "a stream that ends with neither a terminal nor an error event"),
        found.cut,
    ),
    (
        synthetic(
            "RS-SYN-KIND-MISMATCH", "an item event routed to an item of a type it does not fit"
        ),
        found.kind_mismatch,
    ),
    (
        synthetic("RS-SYN-DONE-AGAIN", "a second `.done` event for a part or item already done"),
        found.done_again,
    ),
    (
        synthetic("RS-SYN-LATE-LIFECYCLE", "a lifecycle event repeated, or after the output items"),
        found.late_lifecycle,
    ),
    (
        synthetic("RS-SYN-OBJECT", 'a response whose `object` is not "response"'),
        found.not_response,
    ),
    (
        synthetic("RS-SYN-ORDER", "items, parts or annotations added out of index order"),
        found.out_of_order,
    ),
    (
        synthetic(
            "RS-SYN-SHARED-CALL-ID",
            'function calls sharing one `call_id` (the API reference: "The unique ID of '
            "the function tool call\"; RQ11's Bedrock Mantle `call_0` ids repeat across "
            "responses, not within one)",
        ),
        found.shared_call_ids,
    ),
    (
        synthetic(
            "RS-SYN-RESPONSE-ID",
            "lifecycle and terminal responses of different `id`s (RQ8: unconfirmed, the "
            "Copilot fixture that shows it has sanitized ids)",
        ),
        found.response_ids,
    ),
    (
        synthetic(
            "RS-SYN-LIFECYCLE-OUTPUT",
            "a lifecycle response whose `output` holds items (OpenAI's is `[]`)",
        ),
        found.lifecycle_output,
    ),
    (synthetic("RS-SYN-BARE-ERROR", "an `error` event without a message"), found.bare_error),
)

_WIRE_REGISTRY: tuple[tuple[FrameKind, Departure], ...] = (
    ("unnamed", synthetic("RS-SYN-SSE-UNNAMED", "SSE frames without an `event:` line")),
    ("empty", synthetic("RS-SYN-SSE-EMPTY", "an `event:` line without data, or empty data")),
    (
        "misnamed",
        synthetic("RS-SYN-SSE-NAME", "an SSE frame whose `event:` name is not its data's `type`"),
    ),
    (
        "framing",
        synthetic(
            "RS-SYN-SSE-FRAMING",
            "SSE framing the streaming guide never shows: comments, `id:`/"
            "`retry:` or unknown fields, JSON over several `data:` lines, "
            "`data:` without its space, CR line ends, a BOM, blank lines in "
            "a row, bytes that are not UTF-8",
        ),
    ),
    ("not-json", synthetic("RS-SYN-SSE-NOT-JSON", "an SSE frame whose data is not JSON")),
)
"""Departures of the bytes (`refold.verdicts.wire_shapes`): OpenAI's examples name every frame
`event: <type>` with one `data: ` line, and no sender of anything else is known."""

DEPARTURES: dict[str, Departure] = {
    **{d.id: d for d, _ in _REGISTRY},
    **{d.id: d for _, d in _WIRE_REGISTRY},
}
"""Every registered departure of a Responses stream, by id, observed ones first."""
DETECTORS: dict[str, Detector] = {d.id: detect for d, detect in _REGISTRY}
"""The detector of each departure of the events."""
WIRE: dict[FrameKind, str] = {
    **{kind: d.id for kind, d in _WIRE_REGISTRY},
    "crlf": "RS-SYN-SSE-FRAMING",  # CR line ends: OpenAI's examples show none
}
"""The departure of each kind of SSE framing departure."""
