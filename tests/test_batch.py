"""Batch grading for instructors: outputs, bad files, order, atomic writes, Gradescope."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests import chromium
from tests.cli_run import grade

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "submissions"


def batch(*args: str):
    return grade("batch", *args)


@pytest.fixture(scope="module")
def class_outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("class")
    result = batch(
        str(SUBMISSIONS),
        "--exercise",
        "partA",
        "--csv",
        str(out / "out.csv"),
        "--html",
        str(out / "out.html"),
        "--feedback-dir",
        str(out / "fb"),
        "--json",
        str(out / "out.json"),
    )
    assert result.exit_code == 0, result.output
    (out / "stdout.txt").write_text(result.output)
    return out


def test_csv_has_a_row_per_report_and_a_column_per_criterion(class_outputs: Path):
    rows = list(csv.DictReader((class_outputs / "out.csv").open()))
    assert len(rows) == len(list(SUBMISSIONS.glob("*.md")))
    first = rows[0]
    assert list(first)[:5] == ["student", "file", "exercise", "score", "grade"]
    assert list(first)[-1] == "error"
    assert "two-hypotheses" in first and "stretch-named-ranges" in first
    s_a01 = next(r for r in rows if r["student"] == "s-a01")
    assert (s_a01["score"], s_a01["grade"], s_a01["stretch-named-ranges"]) == ("100.0", "A", "5")
    s_a05 = next(r for r in rows if r["student"] == "s-a05")
    assert s_a05["not-yet-with-reason"] == "0" and s_a05["tokenizer-outside-gpu"] == "10"
    assert [r["student"] for r in rows] == sorted(r["student"] for r in rows)


def test_json_holds_every_report_and_the_summary(class_outputs: Path):
    data = json.loads((class_outputs / "out.json").read_text())
    count = len(list(SUBMISSIONS.glob("*.md")))
    assert len(data["reports"]) == count
    assert data["reports"][0]["student"] == "s-a01"
    assert data["reports"][0]["criteria"][0]["id"] == "five-fields"
    summary = data["summary"]
    assert summary["files"] == summary["graded"] == summary["parts"] == count
    assert summary["failed"] == 0 and list(summary["exercises"]) == ["partA"]
    assert sum(summary["exercises"]["partA"]["letters"].values()) == count
    assert summary["exercises"]["partA"]["criteria"]["five-fields"]["total"] == count


def test_feedback_file_per_student_says_what_failed_and_hints(class_outputs: Path):
    files = sorted(p.name for p in (class_outputs / "fb").iterdir() if p.name != ".grade-feedback")
    assert len(files) == len(list(SUBMISSIONS.glob("*.md"))) and "s-a05.md" in files
    text = (class_outputs / "fb" / "s-a05.md").read_text()
    assert text.startswith("# Feedback for s-a05")
    assert "## partA: 60/100 (D)" in text
    assert (
        "**not-yet-with-reason**: Name one thing you would not optimize yet, and say why. "
        '(line 10: "Not yet: slice.")' in text
    )
    assert "  - What the grader found: names a thing but not why\n  - Hint: Pick a row" in text
    assert "  - What the grader found: only one hypothesis" in text
    assert "What passed:\n- **five-fields**" in text


def test_html_report_is_self_contained_with_charts_and_quotes(class_outputs: Path):
    html = (class_outputs / "out.html").read_text()
    assert html.startswith("<!doctype html>")
    assert (
        "<script" not in html
        and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
        and "https://" not in html
    )
    assert html.count("<svg") == 2
    assert 'aria-label="score histogram of partA"' in html
    assert 'aria-label="pass rate per criterion of partA"' in html
    assert "<h3>Most missed criteria</h3>" in html
    assert "<blockquote>" in html
    graded = html.split("<h2>Graded parts</h2>")[1].split("<h2>")[0]
    assert graded.count("<tr><td>s-") == len(list(SUBMISSIONS.glob("*.md")))


def test_terminal_summary(class_outputs: Path):
    out = (class_outputs / "stdout.txt").read_text()
    n = len(list(SUBMISSIONS.glob("*.md")))
    assert out.startswith(
        f"{n} files: {n} graded, 0 could not be graded; {n} parts counted (partA {n})"
    )
    assert "pass rate per criterion:" in out and "scores:" in out
    assert f"partA: {n} parts, score mean " in out and "letters: A " in out


def test_bad_files_become_error_rows_and_the_batch_goes_on(tmp_path: Path):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(SUBMISSIONS / "s-a01.md", folder / "good.md")
    (folder / "empty.md").write_bytes(b"")
    (folder / "binary.md").write_bytes(b"\x00\x01\x02PNG")
    (folder / "latin.txt").write_bytes("Workload: café\n".encode("latin-1"))
    (folder / "dir.md").mkdir()
    (folder / "gone.md").symlink_to(folder / "missing-target.md")
    out = tmp_path / "out.csv"
    result = batch(str(folder), "-e", "partA", "--csv", str(out))
    assert result.exit_code == 1
    rows = {r["student"]: r for r in csv.DictReader(out.open())}
    assert set(rows) == {"good", "empty", "binary", "latin", "dir", "gone"}
    assert rows["good"]["score"] == "100.0" and rows["good"]["error"] == ""
    assert rows["empty"]["error"] == "is empty; expected a markdown report"
    assert rows["binary"]["error"] == "is a binary file, not a markdown report"
    assert rows["dir"]["error"] == "is a directory, expected a markdown report"
    assert rows["gone"]["error"] == "no such file"
    assert rows["latin"]["error"] == "" and rows["latin"]["grade"] == "F"
    assert "4 could not be graded" in result.output


def test_student_from_front_matter_and_totals_over_parts(tmp_path: Path):
    a = (SUBMISSIONS / "s-a08.md").read_text()
    b = (SUBMISSIONS / "s-b02.md").read_text().replace("# Part B\n", "")
    (tmp_path / "x.md").write_text(
        f"---\nstudent: Ada Lovelace\n---\n## Part A\n{a}\n## Part B\n{b}"
    )
    out = tmp_path / "out.json"
    result = batch(str(tmp_path / "x.md"), "--json", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert [(r["student"], r["exercise"]) for r in data["reports"]] == [
        ("Ada Lovelace", "partA"),
        ("Ada Lovelace", "partB"),
    ]
    assert data["summary"]["students"] == {"Ada Lovelace": 200.0}
    assert data["summary"]["parts"] == 2 and data["summary"]["files"] == 1


def test_parallel_runs_are_byte_identical(tmp_path: Path):
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(40):  # enough for the process pool
        src = sorted(SUBMISSIONS.glob("s-a*.md"))[i % 14]
        shutil.copy(src, folder / f"{i:02d}-{src.name}")
    outs = []
    for run in range(2):
        csv_out, json_out = tmp_path / f"{run}.csv", tmp_path / f"{run}.json"
        result = batch(
            str(folder), "-e", "partA", "-j", "2", "--csv", str(csv_out), "--json", str(json_out)
        )
        assert result.exit_code == 0
        outs.append((csv_out.read_bytes(), json_out.read_bytes()))
    assert outs[0] == outs[1]
    serial = tmp_path / "serial.csv"
    batch(str(folder), "-e", "partA", "-j", "1", "--csv", str(serial))
    assert serial.read_bytes() == outs[0][0]


def test_outputs_are_replaced_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "out.csv"
    out.write_text("old results\n")
    import grader.batch.exports as exports

    def broken_writer(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(exports.csv, "writer", broken_writer)
    from grader.atomic import OutputSet
    from grader.batch.summary import summarise

    with pytest.raises(KeyboardInterrupt), OutputSet() as outputs:
        exports.write_csv(outputs, out, [], summarise([]))
    assert out.read_text() == "old results\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]  # no temporary file left


def test_bad_arguments_exit_2(tmp_path: Path):
    result = batch(str(tmp_path / "nowhere"), "-e", "partA")
    assert result.exit_code == 2 and "no such file or folder" in result.output
    result = batch(str(SUBMISSIONS), "-e", "partQ")
    assert result.exit_code == 2 and "unknown exercise 'partQ'" in result.output
    result = batch(str(SUBMISSIONS), "-e", "partA", "--gradescope", str(tmp_path / "r.json"))
    count = len(list(SUBMISSIONS.glob("*.md")))
    assert result.exit_code == 2 and f"one report; got {count}" in result.output


def test_gradescope_results_for_one_report(tmp_path: Path):
    out = tmp_path / "results.json"
    result = batch(str(SUBMISSIONS / "s-a05.md"), "-e", "partA", "--gradescope", str(out))
    assert result.exit_code == 0
    data = json.loads(out.read_text())
    assert set(data) == {"score", "output", "visibility", "stdout_visibility", "tests"}
    assert data["score"] == 60
    assert len(data["tests"]) == 11
    test = next(t for t in data["tests"] if t["name"].startswith("not-yet-with-reason"))
    assert test["status"] == "failed" and test["score"] == 0 and test["max_score"] == 10
    assert 'Line 10: "Not yet: slice."' in test["output"] and "Hint:" in test["output"]
    assert {t["visibility"] for t in data["tests"]} == {"visible"}


def _unpack_autograder(tmp_path: Path, exercise: str) -> Path:
    zip_path = tmp_path / "autograder.zip"
    result = grade("gradescope-autograder", "-e", exercise, "-o", str(zip_path))
    assert result.exit_code == 0, result.output
    root = tmp_path / "autograder"
    with zipfile.ZipFile(zip_path) as z:
        names = z.namelist()
        assert {"setup.sh", "run_autograder"} <= set(names)
        assert any(n.endswith("-py3-none-any.whl") for n in names)
        assert (z.getinfo("run_autograder").external_attr >> 16) & 0o111
        z.extractall(root / "source")
    (root / "submission").mkdir()
    return root


def _run_autograder(root: Path) -> dict:
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable}
    proc = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads((root / "results" / "results.json").read_text())


def test_autograder_zip_grades_a_submission_in_a_mimic_of_its_paths(tmp_path: Path):
    root = _unpack_autograder(tmp_path, "partB")
    shutil.copy(SUBMISSIONS / "s-b01.md", root / "submission" / "report.md")
    data = _run_autograder(root)
    assert data["score"] == 100 and len(data["tests"]) == 9
    assert all(t["status"] == "passed" for t in data["tests"])


def test_autograder_answers_a_report_without_fields(tmp_path: Path):
    root = _unpack_autograder(tmp_path, "partA")
    (root / "submission" / "notes.txt").write_text("I ran out of time.\n")
    data = _run_autograder(root)
    assert data["score"] == 10
    assert data["output"].startswith("Graded notes.txt.\nNo field of the five-line report")
    empty = _unpack_autograder(tmp_path / "second", "partA")
    data = _run_autograder(empty)
    assert data["score"] == 0 and "no .md or .txt file" in data["output"]


def test_autograder_wheel_installs_and_carries_the_exercises(tmp_path: Path):
    root = _unpack_autograder(tmp_path, "partC")
    wheel = next((root / "source").glob("*.whl"))
    target = tmp_path / "site"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--target",
            str(target),
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert (target / "grader" / "_bundled" / "exercises" / "partC.yaml").exists()
    assert (target / "grader" / "_bundled" / "rubrics" / "default.yaml").exists()
    assert (target / "grader" / "data" / "lexicon.yaml").exists()


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_html_report_renders_in_headless_chromium(class_outputs: Path, tmp_path: Path):
    shot = tmp_path / "class.png"
    proc = subprocess.run(
        [
            "chromium",
            *chromium.FLAGS,
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1100,1400",
            f"--screenshot={shot}",
            (class_outputs / "out.html").as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shot.exists(), proc.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


def test_batch_bad_exercise_is_one_message_and_exit_2():
    result = batch(str(SUBMISSIONS), "--exercise", "partZ")
    assert result.exit_code == 2
    assert result.stderr.startswith("error:") and "partZ" in result.stderr
    assert "Traceback" not in result.stderr
