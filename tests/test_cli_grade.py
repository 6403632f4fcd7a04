"""The grade command as learners and their tooling use it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.cli_run import GRADE, grade

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "submissions" / "s-a01.md"


def test_readme_main_job_grades_a_shipped_example():
    proc = subprocess.run(
        [str(GRADE), "submissions/s-a01.md", "--exercise", "partA"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Score: 100/100  Grade: A" in proc.stdout
    assert "PASS  two-hypotheses" in proc.stdout


def test_text_output_shows_verdicts_evidence_hints_and_the_expected_class():
    result = grade(str(ROOT / "submissions" / "s-a05.md"), "--exercise", "partA")
    assert result.exit_code == 0
    out = result.output
    assert "Expected diagnosis: movement-bound" in out
    assert "FAIL  not-yet-with-reason" in out
    assert 'line 10: "Not yet: slice."' in out
    assert "hint: Pick a row that looks tempting" in out
    assert "Score: 60/100  Grade: D" in out


def test_json_has_the_documented_shape_and_every_criterion():
    result = grade(str(EXAMPLE), "--exercise", "partA", "--format", "json")
    data = json.loads(result.output)
    assert set(data) >= {
        "exercise",
        "submission",
        "score",
        "max_score",
        "grade",
        "bottleneck",
        "criteria",
    }
    assert data["bottleneck"]["expected"] == "movement-bound"
    assert len(data["criteria"]) == 11
    for c in data["criteria"]:
        assert set(c) >= {
            "id",
            "passed",
            "points",
            "max_points",
            "bonus",
            "feedback",
            "hint",
            "evidence",
        }
        assert set(c["evidence"]) == {"line", "text"}
    stretch = next(c for c in data["criteria"] if c["id"] == "stretch-named-ranges")
    assert stretch["bonus"] is True


def test_score_is_capped_and_bonus_adds(tmp_path: Path):
    text = (ROOT / "submissions" / "s-a02.md").read_text()
    plain = json.loads(
        grade(str(ROOT / "submissions/s-a02.md"), "-e", "partA", "-f", "json").output
    )
    (tmp_path / "r.md").write_text(text + '\nStretch: record_function("a_b"), ("c_d").\n')
    bonus = json.loads(grade(str(tmp_path / "r.md"), "-e", "partA", "-f", "json").output)
    assert plain["score"] == 100 and bonus["score"] == 100  # capped
    sa05 = json.loads(grade(str(ROOT / "submissions/s-a05.md"), "-e", "partA", "-f", "json").output)
    (tmp_path / "s.md").write_text(
        (ROOT / "submissions/s-a05.md").read_text() + '\nStretch: "tokenize", "decode_step"\n'
    )
    more = json.loads(grade(str(tmp_path / "s.md"), "-e", "partA", "-f", "json").output)
    assert more["score"] == sa05["score"] + 5


def test_fail_under():
    assert grade(str(EXAMPLE), "-e", "partA", "--fail-under", "90").exit_code == 0
    low = ROOT / "submissions" / "s-a12.md"
    result = grade(str(low), "-e", "partA", "--fail-under", "60")
    assert result.exit_code == 1
    assert "Score: 0/100" in result.output


def test_multi_part_file_is_split(tmp_path: Path):
    a = (ROOT / "submissions/s-a08.md").read_text()
    b = (ROOT / "submissions/s-b02.md").read_text().replace("# Part B\n", "")
    (tmp_path / "both.md").write_text(f"## Part A\n{a}\n## Part B\n{b}")
    data = json.loads(grade(str(tmp_path / "both.md"), "-f", "json").output)
    assert [d["exercise"] for d in data] == ["partA", "partB"]
    assert [d["score"] for d in data] == [100, 100]
    only_b = json.loads(grade(str(tmp_path / "both.md"), "-e", "partB", "-f", "json").output)
    assert only_b["exercise"] == "partB" and only_b["score"] == 100
    lines = (tmp_path / "both.md").read_text().splitlines()
    line = only_b["criteria"][0]["evidence"]["line"]
    assert line > a.count("\n")  # line numbers point into the whole file
    assert lines[line - 1].strip()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty; expected a markdown report"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "is a binary file, not a markdown report"),
        (b"x" * 1_000_001, "is 1,000,001 bytes; a report may be at most 1,000,000 bytes"),
    ],
    ids=["empty", "binary", "too-large"],
)
def test_bad_report_files_give_one_clear_message(tmp_path: Path, content: bytes, message: str):
    path = tmp_path / "r.md"
    path.write_bytes(content)
    result = grade(str(path), "-e", "partA")
    assert result.exit_code == 2
    assert f"error: {path}: {message}" in result.output
    assert "Traceback" not in result.output


def test_missing_and_directory(tmp_path: Path):
    result = grade(str(tmp_path / "nope.md"), "-e", "partA")
    assert result.exit_code == 2 and "nope.md: no such file" in result.output
    result = grade(str(tmp_path), "-e", "partA")
    assert result.exit_code == 2 and "is a directory" in result.output


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable(tmp_path: Path):  # pragma: no cover - CI runs as root
    path = tmp_path / "r.md"
    path.write_text("Workload: x")
    path.chmod(0)
    result = grade(str(path), "-e", "partA")
    assert result.exit_code == 2 and "permission denied" in result.output


def test_non_utf8_is_graded_with_a_warning(tmp_path: Path):
    path = tmp_path / "latin.md"
    latin = "\nNaïve note\n".encode("latin-1")
    path.write_bytes((ROOT / "submissions/s-c01.md").read_bytes() + latin)
    result = grade(str(path), "-e", "partC", "-f", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["score"] == 100
    assert any("not valid UTF-8" in w for w in data["warnings"])


def test_report_with_no_field_is_graded_and_says_so(tmp_path: Path):
    path = tmp_path / "prose.md"
    path.write_text("I think the GPU is slow and we should buy a bigger one.\n")
    data = json.loads(grade(str(path), "-e", "partA", "-f", "json").output)
    assert data["score"] == 10  # only 'no attention kernel proposed'
    assert any("no field of the five-line report" in w for w in data["warnings"])
    five = data["criteria"][0]
    assert five["id"] == "five-fields" and "missing field(s): Workload" in five["evidence"]["text"]


def test_no_exercise_and_no_parts_asks_for_one():
    result = grade(str(EXAMPLE))
    assert result.exit_code == 2
    assert "say which exercise with --exercise (partA, partB, partC)" in result.output


def test_template_lists_the_fields_and_parts():
    out = grade("template", "partA").output
    for name in (
        "Workload:",
        "Hardware:",
        "Top CUDA time:",
        "Top CPU / orchestration cost:",
        "Next experiment:",
        "## Hypotheses",
        "## Not yet",
        "## Stretch",
    ):
        assert name in out
    assert "Contrast" in grade("template", "partB").output


def test_a_blank_template_grades_as_incomplete(tmp_path: Path):
    path = tmp_path / "t.md"
    path.write_text(grade("template", "partA").output)
    data = json.loads(grade(str(path), "-e", "partA", "-f", "json").output)
    assert data["criteria"][0]["passed"] is False


def test_explain_prints_definition_and_examples():
    out = grade("explain", "no-premature-attention-kernel").output
    assert "I would NOT write a custom attention kernel yet" in out
    assert "PASS (partA):" in out and "FAIL (partA):" in out
    bad = grade("explain", "nope")
    assert bad.exit_code == 2 and "known criteria:" in bad.output


def test_main_dispatches_a_file_argument_to_report():
    proc = subprocess.run([str(GRADE), "--version"], capture_output=True, text=True, timeout=60)
    assert proc.stdout.startswith("triage-grader ")
    proc = subprocess.run(
        [str(GRADE), "missing.md", "-e", "partA"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and "missing.md: no such file" in proc.stderr
