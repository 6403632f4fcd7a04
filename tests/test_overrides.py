"""Instructor overrides: the file, what they change, what every output shows, stale ones."""

from __future__ import annotations

import csv
import json
import os
import tempfile
from pathlib import Path

import pytest

from grader.errors import GraderError
from tests.cli_run import grade

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "submissions"


def student_report(folder: Path, name: str, student: str, src: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    text = (SUBMISSIONS / src).read_text()
    if src == "s-a05.md":  # Dana: two next experiments, so nothing implies her diagnosis
        text = text.replace(DANA_NEXT, DANA_NEXT + ", and also try torch.compile")
        assert DANA_NEXT in text
    path.write_text(f"---\nstudent: {student}\n---\n" + text)
    return path


DANA_NEXT = "Next experiment: dump the dtype of every tensor passed to aten::to during one request"


@pytest.fixture
def klass(tmp_path: Path) -> Path:
    """Three students: Dana's report fails diagnosis-matches (flagged for review) and
    one-next-experiment, Lee's passes everything, Ana's fails most."""
    folder = tmp_path / "class"
    student_report(folder, "dana.md", "Dana Zhang", "s-a05.md")
    student_report(folder, "lee.md", "Lee Park", "s-a01.md")
    student_report(folder, "ana.md", "Ana Ruiz", "s-a04.md")
    return folder


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def batch(folder: Path, out: Path, *extra: str):
    return grade(
        "batch",
        str(folder),
        "-e",
        "partA",
        "--csv",
        str(out / "c.csv"),
        "--json",
        str(out / "c.json"),
        "--html",
        str(out / "c.html"),
        "--feedback-dir",
        str(out / "fb"),
        *extra,
    )


def part(out: Path, student: str) -> dict:
    reports = json.loads((out / "c.json").read_text())["reports"]
    return next(r for r in reports if r["student"] == student)


def csv_row(out: Path, student: str) -> dict[str, str]:
    rows = csv.DictReader((out / "c.csv").open(encoding="utf-8"))
    return next(r for r in rows if r["student"] == student)


# --- the file -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (
            "- {student: D, exercise: partA, note: x}\n",
            "$[0] (line 1)",
            "expected a changed verdict (criterion, with passed or points) or a score adjustment",
        ),
        (
            "- {student: D, exercise: partA, criterion: five-fields, passed: true, adjust: 1,"
            " note: x}\n",
            "$[0] (line 1)",
            "got the keys student, exercise, criterion, passed, adjust, note",
        ),
        ("- {student: D, exercise: partA, adjust: 1}\n", "$[0] (line 1)", "'note' is a required"),
        (
            "- student: D\n  exercise: partA\n  criterion: five-fields\n  points: -2\n  note: x\n",
            "$[0].points (line 4)",
            "-2 is less than the minimum of 0",
        ),
        (
            "- {student: D, exercise: partA, criterion: five-fields, passed: true, note: ' '}\n",
            "$[0].note (line 1)",
            "is not a reason (not blank)",
        ),
        ("student: D\n", "$", "expected a list at the top level, got dict"),
        (
            "- &a {student: D, exercise: partA, adjust: 1, note: x}\n- *a\n",
            "$[1]",
            "YAML aliases (*name) are not allowed",
        ),
        (
            "- {student: D, exercise: partA, criterion: five-fields, passed: true, note: a}\n"
            "- {student: ' d ', exercise: partA, criterion: five-fields, passed: false, note: b}\n",
            "$[1] (line 2)",
            "is also set at",
        ),
    ],
)
def test_a_bad_overrides_file_is_one_message_with_its_yaml_path(
    tmp_path: Path, klass: Path, text: str, where: str, message: str
):
    bad = write(tmp_path / "o.yaml", text)
    result = batch(klass, tmp_path / "out", "--overrides", str(bad))
    assert result.exit_code == 2, result.output
    assert f"error: {bad}::{where}: " in result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()  # refused before anything is graded or written


def test_an_empty_overrides_file_is_no_override(tmp_path: Path, klass: Path):
    empty = write(tmp_path / "o.yaml", "# nothing yet\n")
    result = batch(klass, tmp_path / "out", "--overrides", str(empty))
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "out" / "c.json").read_text())["stale_overrides"] == []


def test_the_overrides_file_cannot_be_an_output(tmp_path: Path, klass: Path):
    queue = write(tmp_path / "queue.csv", "")
    result = grade(
        "batch", str(klass), "-e", "partA", "--overrides", str(queue), "--review-csv", str(queue)
    )
    assert result.exit_code == 2
    assert "--overrides and --review-csv name the same file; it would be overwritten" in (
        result.stderr
    )


# --- one part -------------------------------------------------------------------------


def _graded(src: str) -> dict:
    from grader.grading import grade_file

    path = student_report(Path(tempfile.mkdtemp()), src, "Dana Zhang", src)
    return grade_file(path, "partA")[0].to_dict()


def _entry(**fields):
    from grader.errors import Location
    from grader.overrides.model import Override

    fields.setdefault("note", "because")
    return Override(where=Location("o.yaml", "$[0]"), student="x", exercise="partA", **fields)


def test_a_changed_verdict_keeps_the_graders_beside_it_and_the_score_follows():
    from grader.overrides.apply import apply_part
    from grader.rubric import rubric_for

    auto = _graded("s-a05.md")
    before = next(c for c in auto["criteria"] if c["id"] == "diagnosis-matches")
    assert not before["passed"]
    new, stale = apply_part(
        auto, [_entry(criterion="diagnosis-matches", passed=True)], rubric_for("partA")
    )
    assert stale == [] and new is not None
    after = next(c for c in new["criteria"] if c["id"] == "diagnosis-matches")
    assert (after["passed"], after["points"]) == (True, after["max_points"])
    assert after["auto"]["passed"] is False and after["auto"]["points"] == 0
    assert after["auto"]["feedback"] == before["feedback"] != after["feedback"]
    assert after["hint"] == "" and after["override"]["note"] == "because"
    assert new["auto"] == {"score": auto["score"], "grade": auto["grade"]}
    assert new["score"] == auto["score"] + 10  # partA's criteria are 10 of 100 points each
    assert auto["criteria"][1] is before  # the input is not changed


def test_points_give_partial_credit_and_adjustments_stay_within_0_and_100():
    from grader.overrides.apply import apply_part

    auto = _graded("s-a05.md")
    new, _ = apply_part(
        auto,
        [_entry(criterion="diagnosis-matches", points=5.0), _entry(adjust=-80.0)],
        None,
    )
    assert new is not None
    after = next(c for c in new["criteria"] if c["id"] == "diagnosis-matches")
    assert (after["passed"], after["points"]) == (False, 5.0)
    assert new["score"] == 0.0 and new["grade"] == "F"
    assert new["adjustments"][0]["points"] == -80.0
    full = _graded("s-a01.md")
    up, _ = apply_part(full, [_entry(adjust=7.0)], None)
    assert up is not None and full["score"] == 100.0 and up["score"] == 100.0


def test_an_override_that_no_longer_applies_is_stale_with_the_reason():
    from grader.overrides.apply import apply_part

    auto = _graded("s-a01.md")  # passes every criterion
    entries = [
        _entry(criterion="two-hypotheses", passed=True),
        _entry(criterion="two-hypothesis", passed=False),
        _entry(criterion="five-fields", points=11.0),
    ]
    new, stale = apply_part(auto, entries, None)
    assert new is None
    reasons = [s.reason for s in stale]
    assert reasons[0] == "the grader now gives the same verdict by itself (passed 10/10)"
    assert reasons[1].startswith("this part has no criterion 'two-hypothesis' (five-fields,")
    assert reasons[2] == "11 points is more than five-fields's 10"


# --- a batch: round trip and every output -----------------------------------------------


def test_grade_override_regrade_the_override_holds_and_the_grader_is_shown(
    tmp_path: Path, klass: Path
):
    out = tmp_path / "out"
    assert batch(klass, out).exit_code == 0
    auto_score = part(out, "Dana Zhang")["score"]
    overrides = tmp_path / "overrides.yaml"
    made = grade(
        "override",
        str(out / "c.json"),
        "--student",
        "dana zhang",
        "-c",
        "diagnosis-matches",
        "--verdict",
        "pass",
        "--note",
        "names the copies as the smell",
        "-o",
        str(overrides),
    )
    assert made.exit_code == 0, made.output
    assert "added in" in made.stdout
    text = overrides.read_text()
    assert "student: Dana Zhang\n  exercise: partA\n  file: dana.md\n" in text
    assert "criterion: diagnosis-matches\n  passed: true\n  note: names the copies" in text

    result = batch(klass, out, "--overrides", str(overrides))
    assert result.exit_code == 0, result.output
    assert "1 part changed by overrides" in result.stdout
    dana = part(out, "Dana Zhang")
    assert dana["score"] == auto_score + 10 and dana["auto"]["score"] == auto_score
    crit = next(c for c in dana["criteria"] if c["id"] == "diagnosis-matches")
    assert crit["passed"] and crit["auto"]["passed"] is False
    assert crit["override"]["note"] == "names the copies as the smell"
    assert "auto" not in part(out, "Lee Park")  # nobody else is touched
    row = csv_row(out, "Dana Zhang")
    assert (row["score"], row["auto_score"], row["diagnosis-matches"]) == (
        str(auto_score + 10),
        str(auto_score),
        "10",
    )
    assert row["overrides"] == (
        "diagnosis-matches: failed 0/10 by the grader, passed 10/10 (names the copies as the smell)"
    )
    assert row["student_total"] == f"{auto_score + 10:g}"
    assert csv_row(out, "Lee Park")["overrides"] == ""
    html = (out / "c.html").read_text()
    assert "<h2>Overrides (1 parts changed, 0 not applied)</h2>" in html
    assert f"(grader: {auto_score:g})" in html
    feedback = (out / "fb" / "Dana_Zhang.md").read_text()
    assert f"the automatic grader gave {auto_score:g}/100" in feedback
    assert (
        "Changed by your instructor: names the copies as the smell (the automatic grader "
        "said: failed 0/10)" in feedback
    )
    summary = json.loads((out / "c.json").read_text())["summary"]
    assert summary["overridden"] == 1
    assert summary["exercises"]["partA"]["criteria"]["diagnosis-matches"]["passed"] == 2

    # the same file again: nothing doubles, and single-report grading agrees
    again = batch(klass, out, "--overrides", str(overrides))
    assert again.exit_code == 0 and part(out, "Dana Zhang")["score"] == auto_score + 10
    one = grade(str(klass / "dana.md"), "-e", "partA", "--overrides", str(overrides), "-f", "json")
    assert one.exit_code == 0 and json.loads(one.stdout)["score"] == auto_score + 10
    text_out = grade(str(klass / "dana.md"), "-e", "partA", "--overrides", str(overrides))
    assert f"Score with overrides: {auto_score + 10:g}/100" in text_out.stdout
    assert "diagnosis-matches: failed 0/10 by the grader, passed 10/10" in text_out.stdout


def test_gradescope_output_keeps_the_graders_verdict_beside_the_override(
    tmp_path: Path, klass: Path
):
    overrides = write(
        tmp_path / "o.yaml",
        "- {student: Dana Zhang, exercise: partA, criterion: diagnosis-matches, passed: true,"
        " note: movement named}\n"
        "- {student: Dana Zhang, exercise: partA, adjust: -5, note: late}\n",
    )
    out = tmp_path / "r.json"
    result = grade(
        "batch",
        str(klass / "dana.md"),
        "-e",
        "partA",
        "--gradescope",
        str(out),
        "--overrides",
        str(overrides),
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    test = next(t for t in data["tests"] if t["name"].startswith("diagnosis-matches"))
    assert test["status"] == "passed" and test["score"] == 10
    assert "Changed by your instructor: movement named (automatic: failed, 0/10)" in test["output"]
    assert "Flagged for instructor review" not in test["output"]  # the instructor has looked
    assert "the automatic grader gave 40/100 (F)" in data["output"]
    assert "Score adjusted by -5: late" in data["output"]
    assert data["score"] == 45.0


def test_stale_overrides_are_listed_at_the_end_and_in_the_json(tmp_path: Path, klass: Path):
    overrides = write(
        tmp_path / "o.yaml",
        "- {student: Dana Zhang, exercise: partA, criterion: diagnosis-matches, passed: false,"
        " note: agrees}\n"
        "- {student: Dana Zang, exercise: partA, adjust: 1, note: typo}\n"
        "- {student: Lee Park, exercise: partB, adjust: 1, note: no part B}\n"
        "- {student: Lee Park, exercise: partA, criterion: no-such, passed: true, note: n}\n"
        "- {student: Lee Park, exercise: partA, file: old.md, adjust: 1, note: other file}\n",
    )
    out = tmp_path / "out"
    result = batch(klass, out, "--overrides", str(overrides))
    assert result.exit_code == 0, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("warning: override")]
    assert len(lines) == 5
    assert lines[0].startswith(f"warning: override {overrides}::$[0] (line 1): not applied")
    assert "the grader now gives the same verdict by itself (failed 0/10)" in lines[0]
    assert "no student 'Dana Zang' in this batch; did you mean 'Dana Zhang'?" in lines[1]
    assert "Lee Park has no graded partB (graded: partA)" in lines[2]
    assert "this part has no criterion 'no-such'" in lines[3]
    assert "Lee Park's partA is graded from lee.md, not old.md" in lines[4]
    stale = json.loads((out / "c.json").read_text())["stale_overrides"]
    assert [s["source"] for s in stale] == [f"{overrides}::$[{i}] (line {i + 1})" for i in range(5)]
    assert stale[1]["student"] == "Dana Zang" and stale[1]["change"] == "adjust +1"
    assert all("auto" not in r for r in json.loads((out / "c.json").read_text())["reports"])
    assert "<h2>Overrides (0 parts changed, 5 not applied)</h2>" in (out / "c.html").read_text()


def test_an_override_goes_to_the_file_that_counts_and_never_to_a_replaced_one(tmp_path: Path):
    folder = tmp_path / "class"
    old = student_report(folder, "dana-2.md", "Dana Zhang", "s-a05.md")  # sorts last
    new = student_report(folder, "dana-1.md", "Dana Zhang", "s-a05.md")
    os.utime(old, (1_000_000, 1_000_000))
    os.utime(new, (2_000_000, 2_000_000))  # submitted later: counts
    overrides = write(
        tmp_path / "o.yaml",
        "- {student: Dana Zhang, exercise: partA, file: dana-2.md, criterion: diagnosis-matches,"
        " passed: true, note: for the first file}\n"
        "- {student: Dana Zhang, exercise: partA, adjust: -5, note: late}\n",
    )
    out = tmp_path / "out"
    result = batch(folder, out, "--overrides", str(overrides))
    assert result.exit_code == 0, result.output
    assert "dana-2.md no longer counts for partA: dana-1.md, modified later, counts" in (
        result.stderr
    )
    reports = {Path(r["file"]).name: r for r in json.loads((out / "c.json").read_text())["reports"]}
    assert "auto" not in reports["dana-2.md"]
    assert [a["note"] for a in reports["dana-1.md"]["adjustments"]] == ["late"]
    counted = reports["dana-1.md"]["criteria"]
    assert not next(c for c in counted if c["id"] == "diagnosis-matches")["passed"]


def test_overrides_file_errors_in_the_library_are_grader_errors(tmp_path: Path):
    from grader.overrides.model import load_overrides

    with pytest.raises(GraderError, match="no such file"):
        load_overrides([tmp_path / "missing.yaml"])


# --- grade override -------------------------------------------------------------------


def test_grade_override_replaces_an_entry_and_keeps_the_rest_of_the_file(
    tmp_path: Path, klass: Path
):
    out = tmp_path / "out"
    assert batch(klass, out).exit_code == 0
    overrides = write(
        tmp_path / "o.yaml",
        "# kept: a comment\n"
        "- student: Dana Zhang\n  exercise: partA\n  criterion: diagnosis-matches\n"
        "  passed: true\n  note: first thought\n"
        "# kept: the second entry\n"
        "- {student: Lee Park, exercise: partA, adjust: -2, note: late}\n",
    )
    args = ["override", str(out / "c.json"), "--student", "Dana Zhang", "-o", str(overrides)]
    result = grade(*args, "-c", "diagnosis-matches", "--points", "5", "--note", "half")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"replaced in {overrides}: Dana Zhang, partA, ")
    text = overrides.read_text()
    assert text.startswith("# kept: a comment\n- student: Dana Zhang\n")
    assert "points: 5\n  note: half\n# kept: the second entry\n" in text
    assert text.endswith("- {student: Lee Park, exercise: partA, adjust: -2, note: late}\n")
    assert "first thought" not in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-c", "diagnosis-matches", "--verdict", "pass"], "pick one with --student"),
        (["--student", "Dana Zhng", "-c", "five-fields", "--verdict", "fail"], "did you mean"),
        (["--student", "Dana Zhang", "-c", "five-field", "--verdict", "fail"], "did you mean"),
        (["--student", "Dana Zhang", "-c", "diagnosis-matches", "--verdict", "fail"], "already"),
        (["--student", "Dana Zhang", "-c", "five-fields", "--points", "11"], "between 0 and"),
        (["--student", "Dana Zhang", "--adjust", "2", "-c", "five-fields"], "either"),
    ],
)
def test_grade_override_refuses_what_would_not_apply(
    tmp_path: Path, klass: Path, args: list[str], message: str
):
    out = tmp_path / "out"
    assert batch(klass, out).exit_code == 0
    target = tmp_path / "o.yaml"
    result = grade("override", str(out / "c.json"), *args, "--note", "n", "-o", str(target))
    assert result.exit_code == 2, result.output
    assert message in result.stderr and "Traceback" not in result.output
    assert not target.exists()


def test_the_readmes_example_is_a_valid_overrides_file(tmp_path: Path):
    import re

    from grader.overrides.model import load_overrides

    readme = (ROOT / "README.md").read_text()
    example = re.search(r"```yaml\n(- \{student.*?)```", readme, re.DOTALL)
    assert example, "the README's instructor section shows an overrides file"
    entries = load_overrides([write(tmp_path / "o.yaml", example.group(1))])
    assert {e.change() for e in entries} == {"passed", "2 points", "adjust -5"}
