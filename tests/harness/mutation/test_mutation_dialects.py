"""`refold mutate --dialect NAME` and `refold coverage --dialect NAME` on `--target
reference`: what is mutated and measured is the dialect's reference package (without
another dialect's reference inside it), checked by that dialect's suites; the checkout's
extra tests are the dialect's own."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from refold.cli import main
from refold.commands.mutate import reference_tests
from refold.dialects import DIALECTS, dialect
from refold.mutation import MutationOptions, locate_source
from refold.mutation._workdir import build_workdir

ROOT = Path(__file__).resolve().parents[3]
ANTHROPIC = dialect("anthropic-messages")
CHAT = dialect("openai-chat")


def _mutmut_settings(folder: Path) -> dict[str, object]:
    settings: dict[str, object] = tomllib.loads(
        (folder / "pyproject.toml").read_text(encoding="utf-8")
    )["tool"]["mutmut"]
    return settings


def test_every_dialect_names_an_importable_reference_package() -> None:
    for one in DIALECTS.values():
        source = locate_source("reference", one)
        kernel = one.reference_package.rpartition(".")[0]
        from_kernel = one.mutates_kernel or one.reference_parts
        assert source.module == (kernel if from_kernel else one.reference_package)
        assert (source.path / "__init__.py").is_file()
        assert source.is_reference


def test_the_chat_reference_leaves_the_references_inside_it_unmutated(tmp_path: Path) -> None:
    assert locate_source("reference") == locate_source("reference", CHAT)
    build_workdir(locate_source("reference", CHAT), tmp_path, extra_tests=())
    settings = _mutmut_settings(tmp_path)
    assert settings["source_paths"] == ["refold/reference"]
    # the Anthropic, Gemini, Responses and neutral events' references are other contracts',
    # and so are the neutral event model and chat's own mapping to it (events.md's)
    assert settings["do_not_mutate"] == [
        "refold/reference/_neutral/*",
        "refold/reference/anthropic/*",
        "refold/reference/events/*",
        "refold/reference/gemini/*",
        "refold/reference/responses/*",
        "refold/reference/chat/neutral/*",
    ]
    assert settings["only_mutate"] == []
    options = settings["pytest_add_cli_args"]
    assert isinstance(options, list) and "--dialect=openai-chat" in options


def test_the_anthropic_reference_is_mutated_with_the_anthropic_suites(tmp_path: Path) -> None:
    build_workdir(locate_source("reference", ANTHROPIC), tmp_path, extra_tests=())
    settings = _mutmut_settings(tmp_path)
    assert settings["source_paths"] == ["refold/reference/anthropic"]
    # its mapping to neutral events is events.md's, mutated with the events suites
    assert settings["do_not_mutate"] == ["refold/reference/anthropic/neutral/*"]
    assert settings["pytest_add_cli_args_test_selection"] == ["suites"]
    options = settings["pytest_add_cli_args"]
    assert isinstance(options, list) and "--dialect=anthropic-messages" in options
    copied = settings["also_copy"]
    assert isinstance(copied, list)
    # The chat reference beside it is copied (the Anthropic one imports from it), the
    # mutated package never is (it would overwrite the mutants on a re-run).
    assert "refold/reference/_json.py" in copied and "refold/run" in copied
    assert not any(p.startswith("refold/reference/anthropic") for p in copied)
    assert (tmp_path / "refold" / "reference" / "_json.py").is_file()
    assert (tmp_path / "refold" / "reference" / "anthropic" / "_accumulator.py").is_file()


def test_the_extra_tests_of_a_reference_are_its_dialects_own() -> None:
    chat = {p.name for p in reference_tests(ROOT / "tests", CHAT)}
    anthropic = {p.name for p in reference_tests(ROOT / "tests", ANTHROPIC)}
    assert "test_reference_compare.py" in chat and "test_reference_api.py" not in chat
    assert "test_reference_anthropic_compare.py" in anthropic
    assert "test_reference_anthropic_api.py" not in anthropic
    assert not chat & anthropic and not any("anthropic" in name for name in chat)


def test_the_responses_reference_runs_its_own_tests_but_not_its_structural_one() -> None:
    responses = {p.name for p in reference_tests(ROOT / "tests", DIALECTS["openai-responses"])}
    chat = {p.name for p in reference_tests(ROOT / "tests", CHAT)}
    assert "test_reference_responses_compare.py" in responses
    assert "test_reference_responses_api.py" not in responses  # mutmut adds trampolines
    assert not any("responses" in name for name in chat)


@pytest.mark.parametrize(
    ("options", "listed"),
    [
        ([], "equivalent-mutants.toml"),
        (["--dialect", "openai-chat"], "equivalent-mutants.toml"),
        (["--dialect", "anthropic-messages"], "equivalent-mutants-anthropic.toml"),
    ],
)
def test_the_reference_of_a_dialect_is_judged_against_that_dialects_equivalents(
    options: list[str], listed: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    given: list[MutationOptions] = []

    def _record(run: MutationOptions) -> dict[str, object]:
        given.append(run)
        return {
            "target": "reference",
            "counts": {},
            "score": None,
            "duration_seconds": 0.0,
            "mutants": {},
        }

    monkeypatch.setattr("refold.mutation.run_mutation", _record)
    assert (
        main(
            [
                "mutate",
                *options,
                "--target",
                "reference",
                "--work-dir",
                str(tmp_path / "work"),
                "-o",
                str(tmp_path / "m.json"),
            ]
        )
        == 0
    )
    assert [run.equivalents for run in given] == [ROOT / "docs" / listed]
    assert (ROOT / "docs" / listed).is_file()


@pytest.mark.parametrize("command", ["mutate", "coverage"])
def test_an_unknown_dialect_is_a_usage_error_that_lists_the_dialects(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--dialect", "anthropic", "--target", "reference"]) == 4
    message = capsys.readouterr().err
    assert "--dialect anthropic" in message and "anthropic-messages" in message
    assert len(message.strip().splitlines()) == 1


def test_coverage_of_the_anthropic_reference_measures_it_under_its_suites(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "coverage",
            "--dialect",
            "anthropic-messages",
            "--target",
            "reference",
            "--profile",
            "dev",
            "-o",
            "coverage.json",
            "--",
            "-k",
            "round_trip",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    document = json.loads((tmp_path / "coverage.json").read_text(encoding="utf-8"))
    assert document["package"] == "refold.reference.anthropic"
    assert "anthropic/_accumulator.py" in document["files"]
    assert document["totals"]["covered_lines"] > 0
    assert set(document["lines_by_rule"]) <= set(ANTHROPIC.rules)
    assert "AM-TEXT-JOIN" in document["lines_by_rule"]


def test_coverage_of_the_chat_reference_leaves_the_anthropic_reference_out(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "refold.cli",
            "coverage",
            "--target",
            "reference",
            "--profile",
            "dev",
            "-o",
            "coverage.json",
            "--",
            "-k",
            "first_non_blank_chunk_id",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    document = json.loads((tmp_path / "coverage.json").read_text(encoding="utf-8"))
    assert document["package"] == "refold.reference"
    assert "reference/chat/_accumulator.py" in document["files"]
    assert not any("anthropic" in name for name in document["files"])


def test_exactly_one_dialect_counts_the_kernels_mutants() -> None:
    owners = [one.name for one in DIALECTS.values() if one.mutates_kernel]
    assert len(owners) == 1, owners


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_every_helper_a_copied_reference_test_imports_is_copied_beside_it(
    tmp_path: Path, name: str
) -> None:
    # Tests import the private helpers of their folder and of tests/ by name
    # (tests/conftest.py); copied flat into the work dir, they must find them there.
    tests = reference_tests(ROOT / "tests", DIALECTS[name])
    build_workdir(locate_source("reference", DIALECTS[name]), tmp_path, extra_tests=tests)
    copied = {p.stem for p in (tmp_path / "tests").glob("*.py")} if tests else set()
    for test in tests:
        for line in test.read_text(encoding="utf-8").splitlines():
            words = line.split()
            private = words[1:2] and words[1].startswith("_") and not words[1].startswith("__")
            if words[:1] in (["import"], ["from"]) and private:
                assert words[1] in copied, f"{test.name} imports {words[1]}, not copied"


def test_the_work_dir_leaves_out_the_corpus_suite_a_mutation_run_never_replays(
    tmp_path: Path,
) -> None:
    # From the copy the plugin cannot tell it is the corpus suite, which needs --corpus DIR.
    build_workdir(locate_source("reference", CHAT), tmp_path, extra_tests=())
    assert (tmp_path / "suites" / "test_round_trip.py").is_file()
    assert not (tmp_path / "suites" / "corpus").exists()


def test_the_events_adapters_are_mutated_in_every_source_dialects_package(tmp_path: Path) -> None:
    build_workdir(locate_source("reference", DIALECTS["provider-events"]), tmp_path, extra_tests=())
    settings = _mutmut_settings(tmp_path)
    assert settings["source_paths"] == ["refold/reference"]
    # the adapter's lifecycle, the neutral event model and each source dialect's mapping,
    # never the checker (the judge) nor a source's reading of its frames (the checker's)
    assert settings["only_mutate"] == [
        "refold/reference/events/*",
        "refold/reference/_neutral/events.py",
        "refold/reference/_neutral/mapping.py",
        "refold/reference/_neutral/turn.py",
        "refold/reference/_neutral/calls.py",
        "refold/reference/*/neutral/_mapping.py",
    ]
    assert settings["do_not_mutate"] == ["refold/reference/events/checker/*"]
