"""What is registered, shipped and documented agrees with itself."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from grader.checks.registry import load_all
from grader.cli import COMMANDS, DEFAULT
from grader.errors import GraderError
from grader.exercises import exercise_files, list_exercises, load_exercise
from grader.rubric import criterion_titles, load_rubric, rubric_for
from tests.cli_run import grade

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT.parent / "shared" / "spec" / "criteria.md"
RUBRICS = sorted((ROOT / "rubrics").glob("*.yaml"))


def test_every_contract_criterion_has_exactly_one_check():
    assert set(load_all()) == set(criterion_titles())


def test_keyword_stuffing_names_only_known_criteria():
    from grader.stuffing import JUDGE_CLAIMS

    assert set(criterion_titles()) > JUDGE_CLAIMS
    assert "five-fields" not in JUDGE_CLAIMS  # form is judged as usual


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


@pytest.mark.parametrize("flag", ["-h", "--help"])
@pytest.mark.parametrize("name", ["", *COMMANDS])
def test_every_command_has_help(name: str, flag: str):
    """Every command has a docstring, and -h and --help print its help and nothing else."""
    command = COMMANDS.get(name, DEFAULT)
    assert command.summary, name
    result = grade(*([name] if name else []), flag)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith(f"usage: {command.prog} ")
    assert command.summary.split()[0] in result.stdout
    for p in command.params:  # every option is in the help, without type placeholders
        assert p.flags[-1] in result.stdout or p.spec.get("metavar") in result.stdout
    assert not re.search(r"<[a-z]+[\[ >]|x>=", result.stdout), result.stdout


def test_readme_commands_are_real():
    readme = (ROOT / "README.md").read_text()
    names = set(COMMANDS)
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


def test_batch_options_are_run_batchs_parameters():
    """grade batch passes its options to run_batch by name: one line adds an option."""
    import inspect

    from grader.batch.cli_run import run_batch

    dests = {a.dest for a in COMMANDS["batch"].parser()._actions} - {"help"}
    params = set(inspect.signature(run_batch).parameters)
    assert not params - dests, (
        f"run_batch parameter(s) {sorted(params - dests)} have no option: add a param(...) "
        "line with that dest to the batch command in grader/cli.py"
    )
    assert not dests - params, f"grade batch options {sorted(dests - params)} reach no parameter"


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["submissions/s-a01.md", "-e", "partA"], "five-fields"),
        (["batch", "submissions", "-e", "partA"], "parts counted"),
    ],
)
def test_grade_report_and_batch_do_not_import_typer(argv, shown):
    """The learners' and instructors' commands stay off typer's and pydantic's slow imports."""
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


def test_every_bottleneck_class_can_be_graded():
    """Each class the analyzer can derive has what grading needs: a diagnosis and a claim in
    the lexicon, what a diagnosis of it says, and what an experiment aimed at it does."""
    from grader.analyzer.classify import CLASSES
    from grader.checks.diagnosis import EXPLAINED
    from grader.checks.experiments import TARGETS
    from grader.report.language import _raw

    lexicon = _raw()
    for name in CLASSES:
        assert name in lexicon["diagnosis"], name
        assert name in lexicon["claims"], name
        assert name in EXPLAINED, name
        assert name in TARGETS, name


def test_no_source_or_data_file_holds_a_control_character():
    """A "\\b" written in a string that is not raw becomes a backspace, and the pattern it
    stands in then never matches (two of counting.py's patterns did, unnoticed)."""
    bad = [
        str(path.relative_to(ROOT))
        for folder in ("grader", "tests", "bench")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".py", ".yaml", ".json", ".md")
        and "labelled" not in path.parts
        and any(ch in path.read_text(encoding="utf-8") for ch in "\x00\x07\x08\x0b\x0c")
    ]
    assert bad == []
