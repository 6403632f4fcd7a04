"""What is registered, shipped and documented agrees with itself."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader.checks.registry import load_all
from grader.cli import app
from grader.errors import GraderError
from grader.exercises import exercise_files, list_exercises, load_exercise
from grader.rubric import criterion_titles, load_rubric, rubric_for

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT.parent / "shared" / "spec" / "criteria.md"
RUBRICS = sorted((ROOT / "rubrics").glob("*.yaml"))


def test_every_contract_criterion_has_exactly_one_check():
    assert set(load_all()) == set(criterion_titles())


@pytest.mark.skipif(not CONTRACT.exists(), reason="../shared is not present")
def test_criterion_ids_are_the_contracts():
    ids = set(re.findall(r"^`([a-z-]+)` \(", CONTRACT.read_text(), re.MULTILINE))
    assert ids == set(criterion_titles())


@pytest.mark.parametrize("path", RUBRICS, ids=lambda p: p.stem)
def test_every_rubric_validates(path: Path):
    rubric = load_rubric(path)
    if path.stem != "default":
        assert rubric.exercise == path.stem
        load_exercise(ROOT / "exercises" / f"{path.stem}.yaml")
    main = sum(c.points for c in rubric.criteria if not c.bonus)
    assert main == pytest.approx(100)


@pytest.mark.parametrize(
    ("exercise", "ids"),
    [
        (
            "partA",
            [
                "five-fields",
                "diagnosis-matches",
                "separates-math-from-movement",
                "tokenizer-outside-gpu",
                "no-premature-attention-kernel",
                "one-next-experiment",
                "next-experiment-targets-bottleneck",
                "two-hypotheses",
                "experiment-per-hypothesis",
                "not-yet-with-reason",
                "stretch-named-ranges",
            ],
        ),
        (
            "partB",
            [
                "five-fields",
                "diagnosis-matches",
                "overhead-evidence",
                "no-premature-attention-kernel",
                "one-next-experiment",
                "next-experiment-targets-bottleneck",
                "contrast-four-bullets",
                "top-cuda-meaning",
                "fused-attention-wrong-here",
            ],
        ),
        (
            "partC",
            [
                "field-names-exact",
                "diagnosis-matches",
                "copy-share-stated",
                "no-premature-attention-kernel",
                "one-next-experiment",
                "next-experiment-targets-bottleneck",
            ],
        ),
    ],
)
def test_rubric_criteria_per_exercise(exercise, ids):
    assert [c.id for c in rubric_for(exercise).criteria] == ids


def test_only_stretch_is_bonus():
    bonus = [c.id for p in RUBRICS for c in load_rubric(p).criteria if c.bonus]
    assert bonus == ["stretch-named-ranges"]


def test_every_exercise_validates():
    assert {e.id for e in list_exercises()} == {"partA", "partB", "partC"}
    assert len(exercise_files()) == 3


def test_every_command_has_help():
    runner = CliRunner()
    for command in app.registered_commands:
        assert command.callback is not None and command.callback.__doc__, command.name
        result = runner.invoke(app, [command.name or "", "--help"])
        assert result.exit_code == 0
        assert "Usage" in result.output


def test_readme_commands_are_real():
    readme = (ROOT / "README.md").read_text()
    names = {c.name for c in app.registered_commands}
    used = re.findall(r"(?:^|&& )grade (\S+)", readme, re.MULTILINE)
    assert len(used) >= 5
    for word in used:
        assert word in names or word.endswith(".md"), word
    first_block = re.search(r"```(?:bash|sh)?\n(.*?)```", readme, re.DOTALL)
    assert first_block
    lines = [ln for ln in first_block.group(1).splitlines() if ln.strip()]
    assert lines[0].startswith("pip install") and "grade" in lines[0]
    assert "[test]" in lines[1] and "pytest" in lines[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert shlex.split(lines[1].split("&&")[0])[:3] == ["pip", "install", "-e"]
    assert "pip install -q -e '.[test]' && pytest" in ci
    benches = re.findall(r"python (bench/\S+\.py)", readme)
    assert "bench/instructions.py" in benches
    for script in benches:
        assert (ROOT / script).is_file(), script


def test_rubric_naming_an_unknown_criterion_lists_the_known(tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "exercise: x\ncriteria:\n  - id: five-feilds\n    points: 1\n"
        "    feedback: {pass: a, fail: b}\n    hint: h\n"
    )
    with pytest.raises(GraderError) as info:
        load_rubric(bad)
    assert "unknown criterion 'five-feilds'" in str(info.value)
    assert "$.criteria[0].id" in str(info.value)
    assert "five-fields" in str(info.value)


def test_rubric_naming_an_unknown_check_lists_the_known(tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "exercise: x\ncriteria:\n  - id: five-fields\n    check: five\n    points: 1\n"
        "    feedback: {pass: a, fail: b}\n    hint: h\n"
    )
    with pytest.raises(GraderError, match=r"unknown check 'five'; known checks: .*two-hypotheses"):
        load_rubric(bad)


@pytest.mark.parametrize("name", ["report", "batch"])
def test_fast_parser_has_the_options_of_its_command(name):
    """`grade REPORT` and `grade batch` are parsed by argparse for speed; each must take
    its typer command's options."""
    import typer.main

    from grader.console import fast_batch_parser, fast_report_parser

    parser = {"report": fast_report_parser, "batch": fast_batch_parser}[name]()
    command = typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]
    typer_opts = {
        tuple(sorted(p.opts)): p.default for p in command.params if p.opts[0].startswith("-")
    }
    fast_opts = {
        tuple(sorted(a.option_strings)): a.default for a in parser._actions if a.option_strings
    }
    assert {k: (v.value if hasattr(v, "value") else v) for k, v in typer_opts.items()} == fast_opts


def test_console_knows_every_command_of_the_app():
    """The entry point tells a command from a report without importing typer."""
    from grader.console import COMMANDS

    assert {c.name for c in app.registered_commands} == COMMANDS


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["submissions/s-a01.md", "-e", "partA"], "five-fields"),
        (["batch", "submissions", "-e", "partA"], "reports graded"),
    ],
)
def test_grade_report_and_batch_do_not_import_typer(argv, shown):
    """The learners' and instructors' commands stay off typer's slow import."""
    code = (
        f"import sys; sys.argv = ['grade', *{argv!r}];"
        "from grader.console import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    assert e.code == 0, e.code\n"
        "assert 'typer' not in sys.modules and 'pydantic' not in sys.modules"
    )
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert shown in out.stdout
