"""Every registered way a chat stream departs from the documented shape (verdicts.md §1).

The quirks of the research catalogue (`fold-semantics.md` §3, Qn) that a real provider,
proxy or gateway is known to send are `observed`, each with who sends it and where that
is shown; what the strategies' noise (split family 8), the damaged streams of
`chunk_streams` and the robustness rule examples do beyond them is `synthetic`. Q9 and Q10
(whole or parsable-prefix arguments in one fragment) are documented shapes, Q19 is SSE
framing below the chunks and Q21 is Anthropic's own stream: none is a chunk departure.

Each has a detector (`_detectors`): the chunks where a stream departs that way.
"""

from __future__ import annotations

from refold.verdicts.shapes import Departure

from ._detectors import DETECTORS

__all__ = ["DEPARTURES", "DETECTORS"]

_Q = "https://github.com/"


def _observed(id_: str, summary: str, *provenance: str) -> Departure:
    return Departure(id_, "observed", summary, provenance)


DEPARTURES: tuple[Departure, ...] = (
    _observed(
        "Q1",
        "tool-call fragments without an index",
        "Gemini OpenAI compatibility: " + _Q + "THU-MAIC/OpenMAIC/issues/1556",
        "Ollama before 0.4.7: " + _Q + "ollama/ollama/issues/7881",
    ),
    _observed(
        "Q2",
        "several calls sharing one tool index, each with its own id",
        "Ollama: " + _Q + "ollama/ollama/issues/15457",
        "Groq via litellm: " + _Q + "BerriAI/litellm/issues/7621",
    ),
    _observed(
        "Q3",
        "tool indexes above 0 first, or with gaps",
        "Anthropic-to-OpenAI fallback: " + _Q + "vercel/ai/pull/18382",
    ),
    _observed(
        "Q4",
        "several fragments for one tool index inside one chunk",
        "vLLM with speculative decoding, Kimi K2.6: " + _Q + "openai/openai-python/issues/3201",
    ),
    _observed(
        "Q5",
        "a call's whole arguments sent again once complete",
        "vLLM tool parsers' end-of-stream flush: " + _Q + "vllm-project/vllm/issues/42167",
    ),
    _observed(
        "Q6",
        "id, type or name repeated on later fragments of a call",
        "Fireworks GLM: " + _Q + "SillyTavern/SillyTavern/pull/5948",
        "vLLM GLM: " + _Q + "vllm-project/vllm/issues/44098",
    ),
    _observed(
        "Q7",
        "empty-string or null id, type, name or arguments; tool_calls: null",
        "Gemini via AstrBot: " + _Q + "AstrBotDevs/AstrBot/issues/6661",
        "Together: " + _Q + "togethercomputer/together-python/pull/454",
    ),
    _observed(
        "Q8",
        "role repeated on later deltas of a choice",
        "Ollama: " + _Q + "ollama/ollama/issues/7626",
        "Gemini compatibility: " + _Q + "openai/openai-python/issues/2641",
    ),
    _observed(
        "Q11",
        "a call streamed without argument text",
        "Bedrock-served Claude: " + _Q + "Kilo-Org/cloud/pull/4753",
        "OpenRouter: " + _Q + "OpenRouterTeam/ai-sdk-provider/pull/352",
    ),
    _observed(
        "Q12",
        "arguments cut off (not a whole object) without finish_reason length",
        "OpenRouter provider reports: " + _Q + "OpenRouterTeam/ai-sdk-provider/pull/352",
    ),
    _observed(
        "Q13",
        "finish_reason absent, blank, repeated or missing at the end; delta null",
        'Ollama ("" on every chunk): ' + _Q + "ollama/ollama/issues/4357",
        "LocalAI (key absent): " + _Q + "mudler/LocalAI/issues/1194",
        "OpenRouter (sent twice): " + _Q + "langchain-ai/langchain/issues/38226",
        "Azure (delta null): " + _Q + "microsoft/agent-framework/pull/5734",
    ),
    _observed(
        "Q14",
        "usage before the last chunk, or on a chunk with choices",
        "Fireworks cumulative usage: " + _Q + "lemma-work/lemma-platform/pull/564",
        "llama.cpp usage on the finish chunk: " + _Q + "ggml-org/llama.cpp/issues/15443",
    ),
    _observed(
        "Q15",
        "Azure's prompt-filter chunk: blank id, model and object, created 0",
        "Azure OpenAI: " + _Q + "openai/openai-python/pull/2255",
    ),
    _observed(
        "Q16",
        "choices first arriving out of index order",
        "reported on openai-python: " + _Q + "openai/openai-python/pull/3709",
    ),
    _observed(
        "Q17",
        "reasoning_details entries without an index",
        "OpenRouter reasoning tokens (index optional): "
        "https://openrouter.ai/docs/use-cases/reasoning-tokens",
    ),
    _observed(
        "Q18",
        "a mid-stream error chunk (top-level error, finish_reason error)",
        "OpenRouter streaming docs: https://openrouter.ai/docs/api-reference/streaming",
        "vLLM, SGLang: " + _Q + "block/goose/pull/8031",
    ),
    # Fields OpenAI's chunk schema does not name: allowed as unknown keys, but a stream
    # carrying them is one another provider sends, not OpenAI's documented stream.
    _observed(
        "CHAT-X-REASONING",
        "reasoning fields OpenAI's chunks do not carry (`reasoning`, `reasoning_content`, "
        "`reasoning_details`)",
        "OpenRouter (reasoning, reasoning_details): "
        "https://openrouter.ai/docs/use-cases/reasoning-tokens",
        "DeepSeek (reasoning_content): https://api-docs.deepseek.com/guides/reasoning_model",
    ),
    _observed(
        "CHAT-X-PROVIDER",
        "OpenRouter's `provider` and `native_finish_reason` fields",
        "OpenRouter streaming docs: https://openrouter.ai/docs/api-reference/streaming",
    ),
    Departure("Q20", "synthetic", "null or non-object entries inside lists (no provider known)"),
    Departure("CHAT-WRONG-TYPE", "synthetic", "a value of the wrong JSON type"),
    Departure("CHAT-BLANK", "synthetic", "a whitespace-only or empty role, or whitespace ids"),
    Departure("CHAT-NOT-OBJECT", "synthetic", "a chunk that is not a JSON object"),
    Departure("CHAT-EMPTY-CHOICES", "synthetic", "choices: [] or [null] before the last chunk"),
    Departure("CHAT-LATER-IDENTITY", "synthetic", "a later id, model or created differing"),
    Departure(
        "CHAT-EARLIER-LAST-WINS",
        "synthetic",
        "another finish reason or provider field before the last one",
    ),
    Departure(
        "CHAT-AFTER-FINISH",
        "synthetic",
        "a choice's deltas after its finish_reason (chunks swapped or repeated)",
    ),
    Departure("CHAT-RENAMED", "synthetic", "a later fragment of a call naming another function"),
    Departure("CHAT-LATE-ID", "synthetic", "a call's id arriving after its first fragment"),
    # No provider is known to send another `object` (Azure's prompt-filter chunk sends ""
    # instead: Q15) or a tool call of another type in a chunk: OpenAI's API definition
    # (the vendored schema, openai-openapi 2.3.0) names only "function" for a chunk's tool
    # call, and its custom tool calls (`type: "custom"`, a `custom` object with `input`)
    # are a whole message's, with no chunk form in the definition.
    Departure(
        "CHAT-OBJECT", "synthetic", "an object other than chat.completion.chunk (no provider known)"
    ),
    Departure(
        "CHAT-TOOL-TYPE",
        "synthetic",
        "a tool-call fragment whose type is not function (no provider known)",
    ),
    # The API sends one entry per choice in a chunk; the schema cannot say so (no
    # uniqueness over `index`), so the registry does.
    Departure(
        "CHAT-CHOICE-TWICE",
        "synthetic",
        "one choice index on several entries of one chunk (no provider known)",
    ),
)
"""The registry, in the order it is shown."""
