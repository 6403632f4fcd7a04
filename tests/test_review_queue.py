"""The review queue: flagged verdicts one criterion at a time, in the HTML and as a CSV a TA
fills in, and the filled CSV turned back into overrides."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.cli_run import grade

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "submissions"


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped reports graded as Part A: 16 verdicts are flagged for review."""
    out = tmp_path_factory.mktemp("queue")
    result = grade(
        "batch",
        str(SUBMISSIONS),
        "-e",
        "partA",
        "--review-csv",
        str(out / "queue.csv"),
        "--html",
        str(out / "c.html"),
        "--json",
        str(out / "c.json"),
    )
    assert result.exit_code == 0, result.output
    (out / "stdout.txt").write_text(result.stdout)
    return out


def queue_rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.open(encoding="utf-8")))


def fill(src: Path, dst: Path, answers: dict[int, dict[str, str]], sep: str = ",") -> Path:
    rows = queue_rows(src)
    for i, cells in answers.items():
        rows[i].update(cells)
    with dst.open("w", newline="", encoding="utf-8") as handle:
        out = csv.DictWriter(handle, fieldnames=list(rows[0]), delimiter=sep)
        out.writeheader()
        out.writerows(rows)
    return dst


def test_the_queue_csv_lists_each_flagged_verdict_one_criterion_at_a_time(graded: Path):
    rows = queue_rows(graded / "queue.csv")
    summary = json.loads((graded / "c.json").read_text())["summary"]
    assert len(rows) == summary["flagged_for_review"] == 17
    assert list(rows[0]) == [
        "criterion",
        "exercise",
        "student",
        "file",
        "line",
        "deciding_line",
        "grader_verdict",
        "max_points",
        "current_override",
        "ta_verdict",
        "ta_points",
        "ta_note",
    ]
    order = [r["criterion"] for r in rows]
    assert order == sorted(order, key=order.index)  # each criterion's rows together
    rubric = [
        "five-fields",
        "diagnosis-matches",
        "separates-math-from-movement",
        "next-experiment-targets-bottleneck",
        "two-hypotheses",
    ]
    assert list(dict.fromkeys(order)) == rubric  # in the rubric's order
    assert all(r["ta_verdict"] == r["ta_points"] == r["ta_note"] == "" for r in rows)
    assert {r["grader_verdict"] for r in rows} <= {"passed", "failed"}
    assert all(r["max_points"] == "10" for r in rows)


def test_the_summary_counts_flagged_verdicts_per_criterion(graded: Path):
    criteria = json.loads((graded / "c.json").read_text())["summary"]["exercises"]["partA"][
        "criteria"
    ]
    flagged = {cid: c["flagged"] for cid, c in criteria.items() if c["flagged"]}
    assert flagged == {
        "five-fields": 1,  # s-a04's Next experiment is a bare list of terms
        "diagnosis-matches": 6,
        "separates-math-from-movement": 1,
        "next-experiment-targets-bottleneck": 8,
        "two-hypotheses": 1,
    }
    text = (graded / "stdout.txt").read_text()
    assert "17 verdicts flagged for instructor review" in text
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("diagnosis-matches"))
    assert line.endswith("6 flagged for review")
    five = next(ln for ln in text.splitlines() if ln.strip().startswith("five-fields"))
    assert five.endswith("1 flagged for review")


def test_the_html_queue_has_a_table_per_criterion(graded: Path):
    html = (graded / "c.html").read_text()
    queue = html.split("<h2>Flagged for review (17)</h2>")[1].split("<h2>")[0]
    assert (
        "Per criterion: five-fields 1, diagnosis-matches 6, separates-math-from-movement 1, "
        "next-experiment-targets-bottleneck 8, " in queue
    )
    heads = [h.split("</h3>")[0] for h in queue.split("<h3>")[1:]]
    assert heads == [
        "five-fields (1)",
        "diagnosis-matches (6)",
        "separates-math-from-movement (1)",
        "next-experiment-targets-bottleneck (8)",
        "two-hypotheses (1)",
    ]


def test_a_filled_queue_becomes_overrides_and_the_batch_reads_it_too(graded: Path, tmp_path: Path):
    rows = queue_rows(graded / "queue.csv")
    # the first failed verdict of the queue (the three before it pass, flagged)
    at = next(i for i, r in enumerate(rows) if r["grader_verdict"] == "failed")
    first, second = rows[at], rows[at + 1]
    filled = fill(
        graded / "queue.csv",
        tmp_path / "filled.csv",
        {
            at: {"ta_verdict": "pass", "ta_note": "copies named as the problem"},
            at + 1: {"ta_verdict": second["grader_verdict"][:4]},  # confirms the grader
            at + 2: {"ta_points": "5", "ta_note": "half"},
        },
        sep=";",  # as a spreadsheet in many locales saves it
    )
    target = tmp_path / "overrides.yaml"
    result = grade("overrides-from-csv", str(filled), "-o", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        f"{target}: 2 overrides added, 0 replaced; 1 rows confirmed the grader's verdict, "
        "14 left blank"
    )
    text = target.read_text()
    assert f"- student: {first['student']}\n  exercise: partA\n" in text
    assert f"  file: {Path(first['file']).name}\n  criterion: {first['criterion']}\n" in text
    assert "  passed: true\n  note: copies named as the problem\n" in text
    assert "  points: 5\n  note: half\n" in text

    out = tmp_path / "out"
    for source in (target, filled):  # the YAML it became, or the filled CSV itself
        result = grade(
            "batch",
            str(SUBMISSIONS),
            "-e",
            "partA",
            "--overrides",
            str(source),
            "--json",
            str(out / "c.json"),
            "--review-csv",
            str(out / "queue.csv"),
        )
        assert result.exit_code == 0, result.output
        assert "2 parts changed by overrides" in result.stdout
        again = queue_rows(out / "queue.csv")
        assert again[at]["current_override"] == "passed 10: copies named as the problem"
        assert again[at]["grader_verdict"] == "failed"  # the grader's own, still
        assert again[at]["ta_verdict"] == ""


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (
            {"ta_verdict": "maybe", "ta_note": "n"},
            ":5: ta_verdict 'maybe' is neither pass nor fail",
        ),
        ({"ta_verdict": "pass"}, ":5: ta_note is empty: say why the verdict changes"),
        ({"ta_points": "12", "ta_note": "n"}, ":5: ta_points 12 is more than the criterion's 10"),
        ({"ta_points": "lots", "ta_note": "n"}, ":5: ta_points 'lots' is not a number"),
        ({"ta_note": "n"}, ":5: ta_note without ta_verdict or ta_points"),
    ],
)
def test_a_badly_filled_queue_names_its_line(
    graded: Path, tmp_path: Path, cells: dict[str, str], message: str
):
    # the queue's fourth row (line 5 of the CSV) is a failed verdict
    assert queue_rows(graded / "queue.csv")[3]["grader_verdict"] == "failed"
    filled = fill(graded / "queue.csv", tmp_path / "filled.csv", {3: cells})
    result = grade("overrides-from-csv", str(filled), "-o", str(tmp_path / "o.yaml"))
    assert result.exit_code == 2, result.output
    assert f"error: {filled}{message}" in result.stderr
    assert not (tmp_path / "o.yaml").exists()


def test_a_csv_that_is_not_a_queue_is_refused(tmp_path: Path):
    other = tmp_path / "class.csv"
    other.write_text("student,score\nDana,50\n")
    result = grade("overrides-from-csv", str(other))
    assert result.exit_code == 2
    assert f"error: {other}:1: not a review queue: its first line needs the columns" in (
        result.stderr
    )


def test_a_spreadsheet_formula_guard_is_removed_when_read_back(tmp_path: Path):
    from grader.overrides.queue import read_filled_queue

    queue = tmp_path / "q.csv"
    queue.write_text(
        "criterion,exercise,student,file,grader_verdict,max_points,ta_verdict,ta_points,ta_note\n"
        "five-fields,partA,'=Dana,'-dana.md,failed,10,pass,,'+ fine after all\n"
    )
    [entry] = read_filled_queue(queue).entries
    assert (entry.student, entry.file, entry.note) == ("=Dana", "-dana.md", "+ fine after all")
