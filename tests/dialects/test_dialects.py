"""A dialect is a value: registered once, looked up everywhere, and a target is of one.

The registry's invariants (unique rule ids, attribution that accounts for every rule), the
target forms that declare a dialect (a Python declaration, the protocol's hello), and a
run that keeps to its dialect's suites.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from _pointer_tables import pointer_table_of

from refold.dialects import DIALECTS, EVERY_RULE, dialect, dialect_of_rule
from refold.errors import UsageError
from refold.targets import load_target

ROOT = Path(__file__).resolve().parents[2]
ANTHROPIC = DIALECTS["anthropic-messages"]
CHAT = DIALECTS["openai-chat"]

_MESSAGE_START = {
    "type": "message_start",
    "message": {"id": "msg_1", "model": "claude", "content": [], "usage": {"input_tokens": 3}},
}
_STREAM = [
    _MESSAGE_START,
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}},
    {"type": "message_stop"},
]


def test_every_rule_id_belongs_to_exactly_one_dialect() -> None:
    assert sum(len(d.rules) for d in DIALECTS.values()) == len(EVERY_RULE)
    for one in DIALECTS.values():
        assert all(dialect_of_rule(rule_id) is one for rule_id in one.rules)
        assert one.spec_rules <= set(one.rules)
        assert {rule.feature for rule in one.rules.values()} <= set(one.features)


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_every_rule_owns_a_pointer_or_is_declared_pointer_less(name: str) -> None:
    one = dialect(name)
    assert one.pointerless <= set(one.rules)
    owning = {r for r in one.rules if r not in one.pointerless}
    # Every rule that is not pointer-less is the owner of some place of the result.
    owners = pointer_table_of(one).owners
    assert not owners & one.pointerless, sorted(owners & one.pointerless)
    assert owning == owners & set(one.rules), sorted(owning ^ (owners & set(one.rules)))


def test_an_unknown_dialect_is_a_usage_error_that_lists_the_dialects() -> None:
    with pytest.raises(UsageError, match="openai-chat, anthropic-messages"):
        dialect("openai-response")


def test_target_reference_is_the_reference_of_the_runs_dialect() -> None:
    chat = load_target("reference")
    anthropic = load_target("reference", dialect=ANTHROPIC)
    assert chat.dialect is CHAT and anthropic.dialect is ANTHROPIC
    assert "tool_use" in anthropic.features and "tool_calls" in chat.features
    message = anthropic.fold(_STREAM)
    assert message["content"] == [{"type": "text", "text": "Hi"}]


def _declared(tmp_path: Path, declaration: str) -> str:
    path = tmp_path / "declared_target.py"
    path.write_text(
        textwrap.dedent(f"""
        from refold.reference.anthropic import Accumulator, fold
        {declaration}
    """)
    )
    return str(path)


def test_a_declared_dialect_is_the_targets_and_another_run_dialect_is_refused(
    tmp_path: Path,
) -> None:
    spec = _declared(
        tmp_path, 'refold_target = {"dialect": "anthropic-messages", "factory": Accumulator}'
    )
    target = load_target(spec)
    assert target.dialect is ANTHROPIC
    assert "lifecycle" in target.features  # `finished` and `error`: the dialect's reads
    with pytest.raises(
        UsageError,
        match=r"folds anthropic-messages streams .* checks "
        "openai-chat",
    ):
        load_target(spec, dialect=CHAT)


def test_a_target_without_a_declaration_is_of_the_dialect_the_run_asks_for(
    tmp_path: Path,
) -> None:
    spec = _declared(tmp_path, "")  # a module with an Accumulator class, nothing declared
    assert load_target(spec).dialect is CHAT
    assert load_target(spec, dialect=ANTHROPIC).dialect is ANTHROPIC


def test_a_feature_claim_is_checked_against_the_targets_dialect(tmp_path: Path) -> None:
    spec = _declared(
        tmp_path,
        'refold_target = {"dialect": "anthropic-messages", '
        '"fold": fold, "features": ["text", "tool_calls"]}',
    )
    with pytest.raises(UsageError, match="anthropic-messages vocabulary is: text, tool_use"):
        load_target(spec)


def test_a_fold_only_target_cannot_claim_the_anthropic_lifecycle(tmp_path: Path) -> None:
    spec = _declared(
        tmp_path,
        'refold_target = {"dialect": "anthropic-messages", '
        '"fold": fold, "features": ["text", "lifecycle"]}',
    )
    with pytest.raises(UsageError, match="add/response/finished/error"):
        load_target(spec)


def test_an_isolated_target_keeps_its_dialect_and_its_lifecycle_reads() -> None:
    target = load_target("reference", dialect=ANTHROPIC, isolated=True)
    try:
        assert target.dialect is ANTHROPIC
        accumulator = target.accumulator()
        accumulator.add({"type": "error", "error": {"type": "overloaded_error"}})
        assert accumulator.error() == {"type": "overloaded_error"}
        assert accumulator.finished() is False
        assert target.fold(_STREAM)["usage"] == {"input_tokens": 3, "output_tokens": 1}
    finally:
        target.close()


def test_a_worker_answers_only_the_operations_its_dialect_offers() -> None:
    requests = [
        {"op": "hello", "seq": 1},
        {"op": "new", "seq": 2},
        {"op": "mark_done", "id": 1, "seq": 3},
        {"op": "error", "id": 1, "seq": 4},
    ]
    worker = subprocess.run(
        [sys.executable, "-m", "refold.targets.worker", "reference", "--dialect", ANTHROPIC.name],
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    hello, new, mark_done, error = map(json.loads, worker.stdout.splitlines())
    assert "mark_done" not in hello["operations"] and "error" in hello["operations"]
    assert new["ok"] is True
    # `[DONE]` is the chat lifecycle's: an Anthropic accumulator is never asked for it
    assert mark_done["ok"] is False and mark_done["error"]["type"] == "ProtocolError"
    assert "does not offer op 'mark_done'" in mark_done["error"]["message"], mark_done
    assert error == {"ok": True, "error": None, "seq": 4}


_PROTOCOL_SERVER = """
import json, sys
from refold.reference.anthropic import Accumulator, fold
accumulators = {}
for line in sys.stdin:
    message = json.loads(line)
    op = message["op"]
    reply = {"ok": True}
    if op == "hello":
        reply.update(protocol=2, name="am-over-protocol", dialect="anthropic-messages",
                     operations=["fold", "new", "add", "response", "finished", "error"])
    elif op == "fold":
        reply["response"] = fold(message["events"])
    elif op == "new":
        accumulators[len(accumulators) + 1] = Accumulator()
        reply["id"] = len(accumulators)
    elif op == "add":
        accumulators[message["id"]].add(message["event"])
    elif op == "response":
        reply["response"] = accumulators[message["id"]].response()
    elif op == "finished":
        reply["finished"] = accumulators[message["id"]].finished
    elif op == "error":
        reply["error"] = accumulators[message["id"]].error
    reply["seq"] = message["seq"]
    print(json.dumps(reply), flush=True)
"""


def test_a_remote_target_says_its_dialect_in_hello_and_gets_events(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(_PROTOCOL_SERVER)
    target = load_target(f"exec:{sys.executable} {server}")
    try:
        assert target.dialect is ANTHROPIC
        assert "lifecycle" in target.features
        assert target.fold(_STREAM)["stop_reason"] == "end_turn"
        accumulator = target.accumulator()
        for event in _STREAM[:3]:
            accumulator.add(event)
        assert accumulator.finished() is False and accumulator.error() is None
    finally:
        target.close()
    with pytest.raises(UsageError, match="folds anthropic-messages streams"):
        load_target(f"exec:{sys.executable} {server}", dialect=CHAT)


def _pytest(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "--hypothesis-profile=dev",
            *args,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_a_run_keeps_to_the_targets_dialect_and_names_it(tmp_path: Path) -> None:
    target = ROOT / "examples" / "broken" / "anthropic_sums_message_delta_usage.py"
    report = tmp_path / "results.json"
    done = _pytest(
        f"--target={target}",
        f"--refold-report={report}",
        "-k",
        "usage",
        "--replay-dir=",
        cwd=tmp_path,
    )
    assert "AM-USAGE-NEVER-SUM" in done.stdout  # the terminal table is the dialect's
    results = json.loads(report.read_text())
    assert results["dialect"]["name"] == "anthropic-messages"
    assert set(results["rules"]) <= set(ANTHROPIC.rules)
    assert results["rules"]["AM-USAGE-NEVER-SUM"]["status"] == "failed", done.stdout[-3000:]
    assert done.returncode == 1


def test_a_target_of_another_dialect_than_asked_is_a_usage_error(tmp_path: Path) -> None:
    target = ROOT / "examples" / "broken" / "anthropic_sums_message_delta_usage.py"
    done = _pytest(f"--target={target}", "--dialect=openai-chat", cwd=tmp_path)
    assert done.returncode == 4, done.stdout[-2000:] + done.stderr[-2000:]
    assert "folds anthropic-messages streams" in done.stderr
    assert "Traceback" not in done.stderr
