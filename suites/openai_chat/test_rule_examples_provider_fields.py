"""Rule examples: provider fields (PROV-*)."""

from refold.run.checks import Check
from refold.run.marks import rule

from ._streams import choice, completion, delta, entry, stream


@rule("PROV-LAST")
def test_provider_fields_keep_their_last_non_blank_value(check: Check) -> None:
    chunks = stream(
        {"provider": "openai", "system_fingerprint": "fp_1", **delta(content="a")},
        {"provider": "azure", "system_fingerprint": "fp_2", **delta(content="b")},
        {"provider": "", "system_fingerprint": None, **delta(finish_reason="stop")},
        {"provider": "  ", "choices": []},
    )
    expected = completion(
        choice(content="ab", finish_reason="stop"), provider="azure", system_fingerprint="fp_2"
    )
    check.folds_to(chunks, expected)


@rule("PROV-LAST")
def test_a_field_sent_only_on_the_empty_choices_chunk_is_kept(check: Check) -> None:
    # fingerprint_first_only_tier_last_only (Q15)
    chunks = stream(
        {"system_fingerprint": "fp_1", **delta(role="assistant", content="Hi")},
        delta(finish_reason="stop"),
        {"service_tier": "flex", "choices": []},
    )
    expected = completion(
        choice(content="Hi", finish_reason="stop"), system_fingerprint="fp_1", service_tier="flex"
    )
    check.folds_to(chunks, expected)


@rule("PROV-NATIVE-FINISH")
def test_native_finish_reason_is_the_last_non_blank_value(check: Check) -> None:
    chunks = stream(
        entry(index=0, delta={"content": "a"}, native_finish_reason="MAX_TOKENS"),
        entry(index=0, delta={}, finish_reason="stop", native_finish_reason="end_turn"),
        entry(index=0, delta={}, native_finish_reason=""),
        entry(index=0, delta={}, native_finish_reason=None),
    )
    expected = completion(
        {**choice(content="a", finish_reason="stop"), "native_finish_reason": "end_turn"}
    )
    check.folds_to(chunks, expected)
