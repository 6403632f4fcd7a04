"""A batch's outputs for an instructor: refused paths, names, duplicates, warnings, review
flags, per-exercise summaries, and outputs that survive a kill."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_run import grade

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "submissions"


def batch(*args: str):
    return grade("batch", *args)


def report(folder: Path, name: str, student: str | None = None, src: str = "s-a01.md") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = (SUBMISSIONS / src).read_text()
    if student is not None:
        text = f"---\nstudent: {json.dumps(student)}\n---\n{text}"
    path = folder / name
    path.write_text(text)
    return path


def three_parts(path: Path, student: str) -> Path:
    a = (SUBMISSIONS / "s-a01.md").read_text()
    b = (SUBMISSIONS / "s-b01.md").read_text().replace("# Part B\n", "")
    c = (SUBMISSIONS / "s-c01.md").read_text().replace("# Part C\n", "")
    path.write_text(f"---\nstudent: {student}\n---\n## Part A\n{a}\n## Part B\n{b}\n## Part C\n{c}")
    return path


def rows_of(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.open(encoding="utf-8")))


# --- output paths ---------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--csv", "--json", "--html", "--gradescope"])
def test_an_output_that_is_a_folder_is_one_message_and_exit_2(tmp_path: Path, option: str):
    one = report(tmp_path / "class", "a.md")
    (tmp_path / "out").mkdir()
    result = batch(str(one), "-e", "partA", option, str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert f"is a folder; {option} needs a file name" in result.output
    assert "Traceback" not in result.output


def test_a_feedback_dir_that_is_a_file_is_one_message(tmp_path: Path):
    one = report(tmp_path / "class", "a.md")
    (tmp_path / "fb").write_text("a file")
    result = batch(str(one), "-e", "partA", "--feedback-dir", str(tmp_path / "fb"))
    assert result.exit_code == 2 and "is a file; --feedback-dir needs a folder" in result.output


def test_autograder_and_import_trace_refuse_a_folder(tmp_path: Path):
    (tmp_path / "out").mkdir()
    result = grade("gradescope-autograder", "-e", "partA", "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "is a folder; give a file name" in result.output
    trace = ROOT / "tests" / "data" / "cpu_tiny_decoder.json.gz"
    result = grade("import-trace", str(trace), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "is a folder; give a file name" in result.output


def test_outputs_that_are_or_lie_among_the_inputs_are_refused(tmp_path: Path):
    folder = tmp_path / "class"
    a = report(folder, "a.md")
    report(folder, "b.md")
    before = a.read_bytes()
    cases = [
        ("--csv", str(a), "is one of the reports being graded; --csv would overwrite it"),
        ("--html", str(folder / "class.md"), "among the reports; the next batch would grade it"),
        ("--feedback-dir", str(folder), "lies among the reports being graded"),
        ("--feedback-dir", str(folder / "fb"), "lies among the reports being graded"),
    ]
    for option, target, message in cases:
        result = batch(str(folder), "-e", "partA", option, target)
        assert result.exit_code == 2 and message in result.output, (option, result.output)
    result = batch(str(a), "-e", "partA", "--feedback-dir", str(folder))  # would write a.md
    assert result.exit_code == 2 and "lies among the reports" in result.output
    assert a.read_bytes() == before and sorted(p.name for p in folder.iterdir()) == ["a.md", "b.md"]
    ok = batch(str(folder), "-e", "partA", "--csv", str(folder / "results.csv"))
    assert ok.exit_code == 0, ok.output


def test_a_feedback_folder_from_an_older_run_is_not_graded(tmp_path: Path):
    folder = tmp_path / "class"
    report(folder, "a.md")
    fb = tmp_path / "fb"
    assert batch(str(folder), "-e", "partA", "--feedback-dir", str(fb)).exit_code == 0
    assert (fb / ".grade-feedback").exists() and (fb / "a.md").exists()
    shutil.move(fb, folder / "fb")  # as an older run that wrote it inside would have left it
    out = tmp_path / "out.json"
    assert batch(str(folder), "-e", "partA", "--json", str(out)).exit_code == 0
    assert json.loads(out.read_text())["summary"]["files"] == 1


# --- cells and names ------------------------------------------------------------------


def test_csv_cells_are_never_formulas(tmp_path: Path):
    folder = tmp_path / "class"
    report(folder, "a.md", student='=HYPERLINK("http://evil","x")')
    report(folder, "+b.md")
    report(folder, "-c.md")
    report(folder, "@d.md")
    report(folder, "\tTab.md")  # a name from front matter is plain (tests/test_submission.py)
    out = tmp_path / "out.csv"
    assert batch(str(folder), "-e", "partA", "--csv", str(out)).exit_code == 0
    cells = [v for r in rows_of(out) for k, v in r.items() if k in ("student", "file")]
    assert '\'=HYPERLINK("http://evil","x")' in cells
    assert {"'+b", "'-c", "'@d", "\\x09Tab"} <= set(cells)  # a tab is shown escaped
    assert not any(v.startswith(("=", "+", "-", "@", "\t", "\r")) for v in cells)


def test_odd_file_and_student_names_never_stop_the_outputs(tmp_path: Path):
    folder = tmp_path / "class"
    folder.mkdir()
    latin = os.fsdecode(os.fsencode(str(folder)) + b"/caf\xe9.md")
    shutil.copy(SUBMISSIONS / "s-a01.md", latin)
    # A student name from front matter is a plain string of at most 100 characters
    # (tests/test_submission.py); longer or odd names come from file names.
    report(folder, "x" * 240 + ".md")
    report(folder, "cjk.md", student="学" * 100)
    report(folder, "bad\x7fname\x1b[2J.md")
    out = tmp_path / "out"
    result = batch(
        str(folder), "-e", "partA", "--csv", str(out / "c.csv"), "--json", str(out / "c.json"),
        "--html", str(out / "c.html"), "--feedback-dir", str(out / "fb"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    files = {r["file"] for r in rows_of(out / "c.csv")}
    assert str(folder / "caf\\xe9.md") in files
    students = {r["student"] for r in rows_of(out / "c.csv")}
    assert "x" * 240 in students and "学" * 100 in students and "bad\\x7fname\\x1b[2J" in students
    html = (out / "c.html").read_text(encoding="utf-8")
    assert "caf\\xe9.md" in html and "\x00" not in html and "\x1b" not in html
    raw = (out / "c.json").read_text()
    assert "\\udc" not in raw and json.loads(raw)["summary"]["graded"] == 4
    names = [p.name for p in (out / "fb").iterdir() if not p.name.startswith(".")]
    assert len(names) == 4 and all(len(n.encode()) <= 123 for n in names)
    assert any(n.startswith("学" * 30) for n in names)


def test_feedback_file_names_differ_also_by_case(tmp_path: Path):
    folder = tmp_path / "class"
    report(folder, "a.md", student="a/b")
    report(folder, "b.md", student="A_B")
    fb = tmp_path / "fb"
    assert batch(str(folder), "-e", "partA", "--feedback-dir", str(fb)).exit_code == 0
    names = sorted(p.name for p in fb.iterdir() if not p.name.startswith("."))
    assert len({n.casefold() for n in names}) == 2, names


# --- duplicates, warnings, totals -----------------------------------------------------


def test_a_second_submission_replaces_the_first_and_both_are_listed(tmp_path: Path):
    folder = tmp_path / "class"
    old = report(folder, "v2-first.md", student="Dana Zhang", src="s-a05.md")
    new = report(folder, "v1-later.md", student="dana  zhang", src="s-a01.md")
    os.utime(old, (1_000_000, 1_000_000))
    os.utime(new, (2_000_000, 2_000_000))
    out = tmp_path / "out"
    result = batch(
        str(folder), "-e", "partA", "--csv", str(out / "c.csv"), "--json", str(out / "c.json"),
        "--feedback-dir", str(out / "fb"), "--html", str(out / "c.html"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads((out / "c.json").read_text())
    assert data["summary"]["students"] == {"Dana Zhang": 100.0}
    assert (
        data["summary"]["not_counted"] == 1 and data["summary"]["exercises"]["partA"]["parts"] == 1
    )
    counted = {Path(r["file"]).name: r["counted"] for r in data["reports"]}
    assert counted == {"v1-later.md": True, "v2-first.md": False}
    rows = {Path(r["file"]).name: r for r in rows_of(out / "c.csv")}
    assert rows["v1-later.md"]["counted"] == "yes" and rows["v2-first.md"]["counted"] == "no"
    assert rows["v2-first.md"]["student_total"] == rows["v1-later.md"]["student_total"] == "100"
    assert (
        "again in v1-later.md, modified later, which counts instead"
        in rows["v2-first.md"]["warnings"]
    )
    assert "submitted partA again" in result.output  # the terminal says so too
    assert [p.name for p in (out / "fb").iterdir() if not p.name.startswith(".")] == [
        "Dana_Zhang.md"
    ]
    assert "not counted" in (out / "c.html").read_text()


def test_warnings_reach_the_terminal_the_csv_and_the_html(tmp_path: Path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "latin.md").write_bytes((SUBMISSIONS / "s-a01.md").read_bytes() + b"\ncaf\xe9\n")
    report(folder, "ok.md")
    out = tmp_path / "out"
    result = batch(
        str(folder), "-e", "partA", "--csv", str(out / "c.csv"), "--html", str(out / "c.html")
    )
    assert result.exit_code == 0
    assert "warning: " in result.output and "not valid UTF-8" in result.output
    rows = {r["file"]: r for r in rows_of(out / "c.csv")}
    assert rows[str(folder / "latin.md")]["warnings"].startswith("not valid UTF-8")
    assert rows[str(folder / "ok.md")]["warnings"] == ""
    html = (out / "c.html").read_text()
    assert "not valid UTF-8" in html.split("<h2>Warnings")[1]


def test_summaries_keep_files_parts_and_exercises_apart(tmp_path: Path):
    folder = tmp_path / "class"
    folder.mkdir()
    three_parts(folder / "ada.md", "Ada")
    report(folder, "bob.md", student="Bob").write_text(
        "---\nstudent: Bob\n---\n## Part A\n" + (SUBMISSIONS / "s-a05.md").read_text()
    )
    (folder / "broken.md").write_bytes(b"")
    out = tmp_path / "out"
    result = batch(str(folder), "--csv", str(out / "c.csv"), "--html", str(out / "c.html"))
    assert result.exit_code == 1
    assert (
        "3 files: 2 graded, 1 could not be graded; 4 parts counted (partA 2, partB 1, partC 1)"
        in result.output
    )
    assert "partA: 2 parts, score mean 80" in result.output and "partB: 1 part, " in result.output
    block_b = result.output.split("partB: ")[1].split("partC: ")[0]
    assert "contrast-four-bullets" in block_b and "tokenizer-outside-gpu" not in block_b
    totals = {r["student"]: r["student_total"] for r in rows_of(out / "c.csv")}
    assert totals["Ada"] == "300" and totals["Bob"] == "60"
    html = (out / "c.html").read_text()
    assert html.count("<svg") == 6  # a histogram and pass-rate bars per exercise
    tot = html.split("<h2>Student totals</h2>")[1]
    assert "<td>Ada</td><td>partA, partB, partC</td><td class=num>300</td>" in tot


def test_html_title_names_the_exercise_and_the_date_and_charts_have_axes(
    tmp_path: Path, monkeypatch
):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    out = tmp_path / "c.html"
    assert batch(str(SUBMISSIONS / "s-a01.md"), "-e", "partA", "--html", str(out)).exit_code == 0
    html = out.read_text()
    assert "<title>Class report: partA, 1970-01-02</title>" in html
    assert ">score (out of 100)</text>" in html and ">parts</text>" in html
    assert ">pass rate (share of 1 parts that pass)</text>" in html


# --- Gradescope from a batch -------------------------------------------------------------


def test_gradescope_for_one_report_prints_no_class_summary(tmp_path: Path):
    out = tmp_path / "r.json"
    result = batch(str(SUBMISSIONS / "s-a05.md"), "-e", "partA", "--gradescope", str(out))
    assert result.exit_code == 0
    assert "scores:" not in result.output and "pass rate" not in result.output
    assert "s-a05.md: partA 60/100 (D); wrote " in result.output


def test_gradescope_for_a_file_of_three_parts_grades_all_three(tmp_path: Path):
    path = three_parts(tmp_path / "x.md", "Ada")
    out = tmp_path / "r.json"
    result = batch(str(path), "--gradescope", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["score"] == 300
    prefixes = {t["name"].split(" ")[0] for t in data["tests"]}
    assert prefixes == {"partA", "partB", "partC"}
    assert "partA 100/100 (A), partB 100/100 (A), partC 100/100 (A)" in result.output


# --- killed runs --------------------------------------------------------------------------


def test_a_run_killed_while_writing_leaves_the_old_set_and_no_temporaries(tmp_path: Path):
    folder = tmp_path / "class"
    report(folder, "a.md")
    out = tmp_path / "out"
    out.mkdir()
    (out / "c.csv").write_text("old csv\n")
    (out / "c.json").write_text("old json\n")
    script = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "import grader.batch.exports as e\n"
        "def die(*a, **k): os.kill(os.getpid(), signal.SIGKILL)\n"
        "e.write_json = die\n"
        "from grader.batch.cli_run import run_batch\n"
        "run_batch([Path(sys.argv[1])], 'partA', Path(sys.argv[2]), Path(sys.argv[3]))\n"
    )
    args = [str(folder), str(out / "c.csv"), str(out / "c.json")]
    proc = subprocess.run([sys.executable, "-c", script, *args], capture_output=True)
    assert proc.returncode == -9, proc.stderr
    assert (out / "c.csv").read_text() == "old csv\n"  # the new CSV never beside the old JSON
    assert (out / "c.json").read_text() == "old json\n"
    assert batch(str(folder), "-e", "partA", "--csv", *args[1:2], "--json", args[2]).exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["c.csv", "c.json"]
    assert json.loads((out / "c.json").read_text())["summary"]["graded"] == 1


# --- the review flag ------------------------------------------------------------------


def _flagged_rows() -> list:
    """Rows of two graded reports whose review flags are set here, not by the checks."""
    from grader.batch.run import Graded, Row
    from grader.grading import grade_file

    rows = []
    for name, flag in (
        ("s-a05.md", {"not-yet-with-reason", "five-fields", "separates-math-from-movement"}),
        ("s-a01.md", set()),
    ):
        result = grade_file(SUBMISSIONS / name, "partA")[0].to_dict()
        for c in result["criteria"]:
            c["review"] = c["id"] in flag
        student = Path(name).stem
        rows.append(Row(str(SUBMISSIONS / name), student, [Graded.of(result, student, name)]))
    return rows


def test_flagged_verdicts_are_a_csv_column_and_an_html_review_queue(tmp_path: Path):
    from grader.atomic import OutputSet
    from grader.batch.exports import write_csv
    from grader.batch.html import render_html
    from grader.batch.summary import render_summary, summarise

    rows = _flagged_rows()
    summary = summarise(rows)
    with OutputSet() as out:
        write_csv(out, tmp_path / "c.csv", rows, summary)
    review = {r["student"]: r["review"] for r in rows_of(tmp_path / "c.csv")}
    assert review == {
        "s-a05": "five-fields; separates-math-from-movement; not-yet-with-reason",
        "s-a01": "",
    }
    html = render_html(rows, summary)
    queue = html.split("<h2>Flagged for review (3)</h2>")[1].split("<h2>")[0]
    assert queue.count("<tr><td>s-a05</td>") == 3 and "s-a01" not in queue
    assert (
        "<td>not-yet-with-reason</td><td>line 10</td>"
        "<td><blockquote>Not yet: slice.</blockquote></td><td>failed</td>" in queue
    )
    assert "<td>five-fields</td>" in queue and "<td>passed</td>" in queue
    # no line decided it: what the grader looked for is shown, not quoted as the report's
    assert "<td>separates-math-from-movement</td><td></td><td><span class=muted>looked for" in queue
    assert "3 verdicts flagged for instructor review" in render_summary(summary)


def test_gradescope_says_flagged_for_instructor_review(tmp_path: Path):
    from grader.gradescope import batch_results

    data = batch_results(_flagged_rows()[0])
    flagged = [
        t["name"].split(":")[0]
        for t in data["tests"]
        if "flagged for instructor review" in t["output"].lower()
    ]
    assert flagged == ["five-fields", "separates-math-from-movement", "not-yet-with-reason"]
    assert "3 verdicts are flagged for instructor review." in data["output"]
    unflagged = batch_results(_flagged_rows()[1])
    assert not any("review" in t["output"] for t in unflagged["tests"])


def test_a_terminated_run_removes_its_temporaries_and_keeps_the_old_outputs(tmp_path: Path):
    import signal
    import time

    folder = tmp_path / "class"
    report(folder, "a.md")
    out = tmp_path / "out"
    out.mkdir()
    (out / "c.csv").write_text("old csv\n")
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "import grader.batch.exports as e\n"
        "e.write_json = lambda *a, **k: time.sleep(60)\n"
        "from grader.batch.cli_run import run_batch\n"
        "run_batch([Path(sys.argv[1])], 'partA', Path(sys.argv[2]), Path(sys.argv[3]))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(folder), str(out / "c.csv"), str(out / "c.json")]
    )
    try:
        deadline = time.monotonic() + 30
        while not any(p.name.endswith(".tmp") for p in out.iterdir()):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 128 + signal.SIGTERM
    finally:
        proc.kill()
    assert sorted(p.name for p in out.iterdir()) == ["c.csv"]
    assert (out / "c.csv").read_text() == "old csv\n"


def test_time_limit_option_reaches_the_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import time

    from grader.batch import run

    real = run.grade_path

    def grade_path(path: Path, exercise: str | None):
        if path.name == "slow.md":
            time.sleep(60)
        return real(path, exercise)

    monkeypatch.setattr(run, "grade_path", grade_path)  # forked workers inherit it
    folder = tmp_path / "class"
    report(folder, "ok.md")
    report(folder, "slow.md")
    out = tmp_path / "c.csv"
    result = batch(str(folder), "-e", "partA", "--time-limit", "0.5", "--csv", str(out))
    assert result.exit_code == 1
    errors = {Path(r["file"]).name: r["error"] for r in rows_of(out)}
    assert errors == {"ok.md": "", "slow.md": "took too long to grade (more than 0.5 s); skipped"}
    bad = batch(str(folder), "-e", "partA", "--time-limit", "0")
    assert bad.exit_code == 2 and "must be a number of seconds above 0" in bad.output
