"""http:// targets: the protocol over HTTP POST, against a loopback server this test
starts and stops (the reference served by examples/targets/protocol_server.py)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from refold.errors import TargetError, UsageError
from refold.loading import load_target

SERVER = Path(__file__).resolve().parent.parent / "examples" / "targets" / "protocol_server.py"


def _server_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("refold_example_protocol_server", SERVER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    module = _server_module()
    server = module.http_server(module.ProtocolHandler(), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}/refold"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def test_an_http_target_folds_through_the_service(url: str) -> None:
    target = load_target(url)
    try:
        assert target.name == "reference-over-protocol"
        response = target.fold([{"id": "h", "choices": [{"index": 0, "delta": {"content": "x"}}]}])
        assert response["id"] == "h"
    finally:
        target.close()


def test_an_http_accumulator_keeps_its_state_between_requests(url: str) -> None:
    target = load_target(url)
    try:
        accumulator = target.accumulator()
        accumulator.add({"choices": [{"index": 0, "delta": {"content": "a"}}]})
        accumulator.add({"choices": [{"index": 0, "delta": {"content": "b"},
                                      "finish_reason": "stop"}]})
        assert accumulator.finished() is True
        assert accumulator.response()["choices"][0]["message"]["content"] == "ab"
    finally:
        target.close()


def test_an_error_reply_over_http_is_a_raised_target_error(url: str) -> None:
    target = load_target(url)
    try:
        with pytest.raises(TargetError, match="ChunkTypeError") as excinfo:
            target.fold(["not an object"])
        assert excinfo.value.kind == "raised"
    finally:
        target.close()


def test_an_unreachable_service_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="did not answer hello"):
        load_target("http://127.0.0.1:9/refold", timeout=1.0)


_SUITE = """
from refold.marks import rule

@rule("TEXT-JOIN")
def test_text(check):
    check.folds_like_reference([{"choices": [{"index": 0, "delta": {"content": "a b"}}]}])

@rule("LIFE-DONE")
def test_done(check):
    accumulator = check.accumulator()
    accumulator.add({"choices": [{"index": 0, "delta": {"content": "a"}}]})
    accumulator.mark_done()
    assert accumulator.finished
"""


def test_a_run_against_an_http_target_passes(url: str, tmp_path: Path) -> None:
    (tmp_path / "test_over_http.py").write_text(textwrap.dedent(_SUITE))
    report = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--target={url}",
         f"--refold-report={report}", "test_over_http.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:]
    rules = json.loads(report.read_text(encoding="utf-8"))["rules"]
    assert rules["TEXT-JOIN"]["status"] == rules["LIFE-DONE"]["status"] == "passed"
