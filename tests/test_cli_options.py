"""The grade command line: help, usage errors and options, as a user meets them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cli_run import grade

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "submissions" / "s-a01.md")
LOW = str(ROOT / "submissions" / "s-a12.md")  # scores 10 on partA
COMMANDS = [
    "exercises",
    "show",
    "analyze",
    "batch",
    "gradescope-autograder",
    "import-trace",
    "template",
    "explain",
]


def test_top_level_help_shows_the_report_options_the_version_and_every_command():
    result = grade("--help")
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    for option in ("--exercise", "--format", "--fail-under", "--version"):
        assert option in out
    for name in COMMANDS:
        assert re.search(rf"^  {re.escape(name)}\s", out, re.MULTILINE), name
    assert "grade report" not in out  # no hidden command in the usage


@pytest.mark.parametrize("argv", [["batch", "--help"], ["batch", "-h"]])
def test_batch_help_is_help_only(argv):
    result = grade(*argv)
    assert result.exit_code == 0
    assert result.stdout.startswith("usage: grade batch")
    assert result.stderr == ""


def test_batch_without_paths_is_one_error():
    result = grade("batch")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("error") == 1
    assert "grade batch: error: the following arguments are required: PATH" in result.stderr


def test_no_arguments_prints_the_help_and_exits_2():
    result = grade()
    assert result.exit_code == 2
    assert "usage: grade" in result.stderr and "explain" in result.stderr


def test_options_may_come_before_the_report():
    result = grade("-e", "partA", EXAMPLE)
    assert result.exit_code == 0, result.output
    assert "Score: 100/100  Grade: A" in result.stdout


def test_options_may_come_between_batch_paths(tmp_path: Path):
    out = tmp_path / "out.csv"
    a, b = ROOT / "submissions" / "s-a01.md", ROOT / "submissions" / "s-a05.md"
    result = grade("batch", str(a), "--csv", str(out), str(b), "-e", "partA", "-j", "1")
    assert result.exit_code == 0, result.output
    assert len(out.read_text().splitlines()) == 3


def test_a_bad_format_is_argparse_wording_not_pydantic():
    result = grade(EXAMPLE, "-e", "partA", "--format", "yaml")
    assert result.exit_code == 2
    assert "grade: error: argument -f/--format: invalid choice: 'yaml'" in result.stderr
    assert "(choose from 'text', 'json')" in result.stderr
    assert "Value error" not in result.stderr


def test_zero_workers_is_refused_in_plain_words():
    result = grade("batch", EXAMPLE, "-e", "partA", "--workers", "0")
    assert result.exit_code == 2
    assert (
        "grade batch: error: argument -j/--workers: must be a whole number of at least 1, got '0'"
        in (result.stderr)
    )
    assert "Input should be" not in result.stderr


def test_a_misspelled_command_is_not_taken_for_a_missing_file_silently():
    result = grade("analyse", "partA")
    assert result.exit_code == 2
    assert "did you mean 'grade analyze'?" in result.stderr


@pytest.mark.parametrize("command", [[], ["batch"]])
def test_a_miscased_exercise_gets_a_suggestion(command):
    result = grade(*command, EXAMPLE, "--exercise", "parta")
    assert result.exit_code == 2
    assert "unknown exercise 'parta'; did you mean 'partA'?" in result.stderr


def test_explain_suggests_a_close_criterion():
    result = grade("explain", "two-hypothesis")
    assert result.exit_code == 2
    assert "did you mean 'two-hypotheses'?" in result.stderr


def test_no_guess_when_several_names_are_as_close():
    result = grade(EXAMPLE, "--exercise", "partZ")
    assert result.exit_code == 2
    assert "unknown exercise 'partZ'; expected an id (partA, partB, partC)" in result.stderr
    assert "did you mean" not in result.stderr


def test_explain_without_a_criterion_lists_them_all():
    from grader.rubric import criterion_titles

    result = grade("explain")
    assert result.exit_code == 0, result.output
    for cid, title in criterion_titles().items():
        assert f"{cid}  " in result.stdout and title in result.stdout
    assert "grade explain CRITERION" in result.stdout
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if line.startswith("  ")}
    assert lines["five-fields"].endswith("(partA, partB)")
    assert lines["field-names-exact"].endswith("(partC)")


def test_fail_under_says_why_it_exits_1():
    result = grade(LOW, "-e", "partA", "--fail-under", "80")
    assert result.exit_code == 1
    assert f"{LOW} (partA): score 0 is under --fail-under 80" in result.stderr
    passing = grade(EXAMPLE, "-e", "partA", "--fail-under", "80")
    assert passing.exit_code == 0 and passing.stderr == ""


def test_fail_under_names_each_part_below(tmp_path: Path):
    a = (ROOT / "submissions" / "s-a12.md").read_text()
    b = (ROOT / "submissions" / "s-b02.md").read_text().replace("# Part B\n", "")
    both = tmp_path / "both.md"
    both.write_text(f"## Part A\n{a}\n## Part B\n{b}")
    result = grade(str(both), "--fail-under", "50")
    assert result.exit_code == 1
    assert result.stderr == f"{both} (partA): score 0 is under --fail-under 50\n"
