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

from refold.verdicts.departure_kinds import observed, synthetic
from refold.verdicts.shapes import Departure

from ._detectors import DETECTORS

__all__ = ["DEPARTURES", "DETECTORS"]

_Q = "https://github.com/"


DEPARTURES: tuple[Departure, ...] = (
    observed(
        "Q1",
        "tool-call fragments without an index",
        "Gemini OpenAI compatibility: " + _Q + "THU-MAIC/OpenMAIC/issues/1556",
        "Ollama before 0.4.7: " + _Q + "ollama/ollama/issues/7881",
    ),
    observed(
        "Q2",
        "several calls sharing one tool index, each with its own id",
        "Ollama: " + _Q + "ollama/ollama/issues/15457",
        "Groq via litellm: " + _Q + "BerriAI/litellm/issues/7621",
    ),
    observed(
        "Q3",
        "tool indexes above 0 first, or with gaps",
        "Anthropic-to-OpenAI fallback: " + _Q + "vercel/ai/pull/18382",
    ),
    observed(
        "Q4",
        "several fragments for one tool index inside one chunk",
        "vLLM with speculative decoding, Kimi K2.6: " + _Q + "openai/openai-python/issues/3201",
    ),
    observed(
        "Q5",
        "a call's whole arguments sent again once complete",
        "vLLM tool parsers' end-of-stream flush: " + _Q + "vllm-project/vllm/issues/42167",
    ),
    observed(
        "Q6",
        "id, type or name repeated on later fragments of a call",
        "Fireworks GLM: " + _Q + "SillyTavern/SillyTavern/pull/5948",
        "vLLM GLM: " + _Q + "vllm-project/vllm/issues/44098",
    ),
    observed(
        "Q7",
        "empty-string or null id, type, name or arguments; tool_calls: null",
        "Gemini via AstrBot: " + _Q + "AstrBotDevs/AstrBot/issues/6661",
        "Together: " + _Q + "togethercomputer/together-python/pull/454",
    ),
    observed(
        "Q8",
        "role repeated on later deltas of a choice",
        "Ollama: " + _Q + "ollama/ollama/issues/7626",
        "Gemini compatibility: " + _Q + "openai/openai-python/issues/2641",
    ),
    observed(
        "Q11",
        "a call streamed without argument text",
        "Bedrock-served Claude: " + _Q + "Kilo-Org/cloud/pull/4753",
        "OpenRouter: " + _Q + "OpenRouterTeam/ai-sdk-provider/pull/352",
    ),
    observed(
        "Q12",
        "arguments cut off (not a whole object) without finish_reason length",
        "OpenRouter provider reports: " + _Q + "OpenRouterTeam/ai-sdk-provider/pull/352",
    ),
    observed(
        "Q13",
        "finish_reason absent, blank, repeated or missing at the end; delta null",
        'Ollama ("" on every chunk): ' + _Q + "ollama/ollama/issues/4357",
        "LocalAI (key absent): " + _Q + "mudler/LocalAI/issues/1194",
        "OpenRouter (sent twice): " + _Q + "langchain-ai/langchain/issues/38226",
        "Azure (delta null): " + _Q + "microsoft/agent-framework/pull/5734",
    ),
    observed(
        "Q14",
        "usage before the last chunk, or on a chunk with choices",
        "Fireworks cumulative usage: " + _Q + "lemma-work/lemma-platform/pull/564",
        "llama.cpp usage on the finish chunk: " + _Q + "ggml-org/llama.cpp/issues/15443",
    ),
    observed(
        "Q15",
        "Azure's prompt-filter chunk: blank id, model and object, created 0",
        "Azure OpenAI: " + _Q + "openai/openai-python/pull/2255",
    ),
    observed(
        "Q16",
        "choices first arriving out of index order",
        "reported on openai-python: " + _Q + "openai/openai-python/pull/3709",
    ),
    observed(
        "Q17",
        "reasoning_details entries without an index",
        "OpenRouter reasoning tokens (index optional): "
        "https://openrouter.ai/docs/use-cases/reasoning-tokens",
    ),
    observed(
        "Q18",
        "a mid-stream error chunk (top-level error, finish_reason error)",
        "OpenRouter streaming docs: https://openrouter.ai/docs/api-reference/streaming",
        "vLLM, SGLang: " + _Q + "block/goose/pull/8031",
    ),
    # Fields OpenAI's chunk schema does not name: allowed as unknown keys, but a stream
    # carrying them is one another provider sends, not OpenAI's documented stream.
    observed(
        "CHAT-X-REASONING",
        "reasoning fields OpenAI's chunks do not carry (`reasoning`, `reasoning_content`, "
        "`reasoning_details`)",
        "OpenRouter (reasoning, reasoning_details): "
        "https://openrouter.ai/docs/use-cases/reasoning-tokens",
        "DeepSeek (reasoning_content): https://api-docs.deepseek.com/guides/reasoning_model",
    ),
    observed(
        "CHAT-X-PROVIDER",
        "OpenRouter's `provider` and `native_finish_reason` fields",
        "OpenRouter streaming docs: https://openrouter.ai/docs/api-reference/streaming",
    ),
    synthetic("Q20", "null or non-object entries inside lists (no provider known)"),
    synthetic("CHAT-WRONG-TYPE", "a value of the wrong JSON type"),
    synthetic("CHAT-BLANK", "a whitespace-only or empty role, or whitespace ids"),
    synthetic("CHAT-NOT-OBJECT", "a chunk that is not a JSON object"),
    synthetic("CHAT-EMPTY-CHOICES", "choices: [] or [null] before the last chunk"),
    # Azure's prompt-filter chunk sends `choices: []` (Q15); no provider is known to leave
    # the key out, or a choice entry's `index`, both of which OpenAI's schema requires.
    synthetic(
        "CHAT-MISSING-KEY",
        "a chunk without `choices`, or a choice entry without `index` (no provider known)",
    ),
    synthetic("CHAT-LATER-IDENTITY", "a later id, model or created differing"),
    synthetic(
        "CHAT-EARLIER-LAST-WINS",
        "another finish reason or provider field before the last one",
    ),
    synthetic(
        "CHAT-AFTER-FINISH",
        "a choice's deltas after its finish_reason (chunks swapped or repeated)",
    ),
    synthetic("CHAT-RENAMED", "a later fragment of a call naming another function"),
    synthetic("CHAT-LATE-ID", "a call's id arriving after its first fragment"),
    # No provider is known to send another `object` (Azure's prompt-filter chunk sends ""
    # instead: Q15) or a tool call of another type in a chunk: OpenAI's API definition
    # (the vendored schema, openai-openapi 2.3.0) names only "function" for a chunk's tool
    # call, and its custom tool calls (`type: "custom"`, a `custom` object with `input`)
    # are a whole message's, with no chunk form in the definition.
    synthetic("CHAT-OBJECT", "an object other than chat.completion.chunk (no provider known)"),
    synthetic(
        "CHAT-TOOL-TYPE",
        "a tool-call fragment whose type is not function (no provider known)",
    ),
    # The API sends one entry per choice in a chunk; the schema cannot say so (no
    # uniqueness over `index`), so the registry does.
    synthetic(
        "CHAT-CHOICE-TWICE",
        "one choice index on several entries of one chunk (no provider known)",
    ),
)
"""The registry, in the order it is shown."""
