"""What the one scrubber hides (issue 25's second probe): keys without a digit, header and
member names holding a secret word, credential query parameters, short bearer tokens; and
what it keeps: token counts, content signatures, rule ids heading a line."""

from __future__ import annotations

import pytest

from refold.reference import REDACTED, scrub, scrub_text


@pytest.mark.parametrize(
    "text",
    [
        "sk-proj-" + "A" * 40,
        "sk-ant-api03-" + "B" * 40,
        "sk-" + "AbCdEfGhIjKlMnOpQrSt",
        "sk-svcacct-" + "c" * 30,
    ],
)
def test_openai_and_anthropic_keys_are_hidden_with_or_without_a_digit(text: str) -> None:
    assert scrub_text(f"key {text} end") == f"key {REDACTED} end"


def test_a_hyphenated_word_is_not_taken_for_a_key() -> None:
    assert (
        scrub_text("risk-management-framework-guidelines") == "risk-management-framework-guidelines"
    )


@pytest.mark.parametrize(
    "name",
    [
        "Ocp-Apim-Subscription-Key",
        "X-Auth-Key",
        "x-session",
        "X-Amz-Signature",
        "Set-Cookie2",
        "my_password_hash",
        "Client-Secret",
        "OPENAI_API_KEY",
    ],
)
def test_a_member_or_header_named_with_a_secret_word_is_hidden(name: str) -> None:
    assert scrub({name: "value-123"}) == {name: REDACTED}
    assert scrub_text(f"{name}: value-123") == f"{name}: {REDACTED}"


@pytest.mark.parametrize(
    "url",
    [
        "https://h.example/x?sv=1&sig=abc%2Bdef&se=2",
        "https://h.example/v1/models?key=AIzaNOTREALLY&alt=sse",
        "https://h.example/a?token=t0k&b=1",
        "https://h.example/a?secret=s&b=1",
        "https://h.example/a?X-Amz-Signature=abc123",
    ],
)
def test_credential_query_parameters_are_hidden(url: str) -> None:
    scrubbed = scrub_text(url)
    assert REDACTED in scrubbed
    assert not any(v in scrubbed for v in ("abc%2Bdef", "AIzaNOTREALLY", "t0k", "=s&", "abc123"))


def test_a_short_bearer_token_is_hidden() -> None:
    assert scrub_text("Authorization: Bearer xyz") == f"Authorization: {REDACTED}"
    assert "xyz" not in scrub_text("header Bearer xyz")


def test_token_counts_and_content_signatures_are_kept() -> None:
    usage = {
        "input_tokens": 3,
        "output_tokens": 4,
        "promptTokenCount": 1,
        "cache_read_input_tokens": 0,
        "reasoning_tokens": 2,
    }
    block = {"type": "thinking", "thinking": "hm", "signature": "EqQBCkgIARABGAIiQ"}
    part = {"text": "x", "thought": True, "thoughtSignature": "CiQB"}
    assert scrub({"usage": usage, "content": [block], "parts": [part]}) == {
        "usage": usage,
        "content": [block],
        "parts": [part],
    }
    assert (
        scrub_text('"input_tokens": 12, "signature": "EqQ"')
        == '"input_tokens": 12, "signature": "EqQ"'
    )


def test_a_rule_id_holding_a_secret_word_keeps_its_record() -> None:
    results = {
        "rules": {"CHOICE-KEY": {"status": "failed"}, "AM-THINK-SIGNATURE": {"status": "passed"}}
    }
    assert scrub(results) == results
    line = "CHOICE-KEY: the fold differs from the expected response"
    assert scrub_text(line) == line
    assert (
        scrub_text('{"ROB-UNKNOWN-KEYS": {"status": "failed"}}')
        == '{"ROB-UNKNOWN-KEYS": {"status": "failed"}}'
    )


def test_an_exception_line_and_a_logprob_token_in_text_are_kept() -> None:
    assert scrub_text("  KeyError: 0") == "  KeyError: 0"
    shown = '{"token": "He", "logprob": -0.1}'
    assert scrub_text(shown) == shown


def test_a_secret_quoted_inside_json_text_is_hidden_and_the_text_stays_json() -> None:
    import json

    for message in ('session_id="abc" x', 'url?key="x"', "token_x=abc&y=1"):
        shown = scrub_text(json.dumps({"m": message}))
        assert REDACTED in shown and json.loads(shown)["m"].count("abc") == 0


@pytest.mark.parametrize(
    "name",
    [
        "GITHUB_TOKEN",
        "AWS_SECRET_ACCESS_KEY",
        "AZURE_OPENAI_KEY",
        "SLACK_BOT_TOKEN",
        "MY_SECRET_KEY",
        "SESSION_ID",
        "DB_PASSWD",
        "HF_AUTH",
        "MY_COOKIE",
        "GH_CREDENTIAL",
        "WEBHOOK_SIGNATURE",
        "MY_BEARER",
    ],
)
@pytest.mark.parametrize("separator", ["=", ": ", " = "])
def test_an_environment_variable_named_with_a_secret_word_has_its_value_hidden_in_text(
    name: str, separator: str
) -> None:
    value = "Zq9v-secret-VALUE_42"
    for line in (
        f"{name}{separator}{value}",
        f"export {name}{separator}{value} && run",
        f"env: {{'PATH': '/bin'}} {name}{separator}{value}",
    ):
        scrubbed = scrub_text(line)
        assert value not in scrubbed and f"{name}{separator}{REDACTED}" in scrubbed, line


def test_a_header_named_with_a_secret_word_is_hidden_in_the_middle_of_a_line() -> None:
    assert (
        scrub_text("the request sent X-Auth-Key: v9x8 and Accept: */*")
        == f"the request sent X-Auth-Key: {REDACTED} and Accept: */*"
    )
    assert "sub-123" not in scrub_text("headers were Ocp-Apim-Subscription-Key: sub-123.")


@pytest.mark.parametrize(
    "url",
    [
        "https://app.example/cb#token=abc123def",
        "https://app.example/cb#access_token=abc123def&x=1",
        "https://app.example/cb#state=1&id_token=abc123def",
    ],
)
def test_a_credential_in_a_url_fragment_is_hidden(url: str) -> None:
    scrubbed = scrub_text(f"redirected to {url} then")
    assert "abc123def" not in scrubbed and REDACTED in scrubbed


@pytest.mark.parametrize(
    "text",
    [
        "input_tokens=5 output_tokens=7",
        "max_tokens=4096",
        "MAX_TOKENS=4096",
        "a MAX_OUTPUT_TOKENS: 10 b",
        "request max_tokens: 100, stop",
        "token=Hello",
        "CHOICE-KEY: the fold differs",
        "the rule CHOICE-KEY: failed",
        "  KeyError: 0",
        "at /choices/0/delta/x_api_key: expected 1, received 2",
        "AM-THINK-SIGNATURE (thinking): signature_delta: expected a string",
        "a thought_signature: CiQB",
        "## token=abc",
        "risk-management: ok",
    ],
)
def test_token_counts_rule_ids_pointers_and_content_members_stay_readable_in_text(
    text: str,
) -> None:
    assert scrub_text(text) == text
