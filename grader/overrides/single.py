"""``grade REPORT --overrides FILE``: one report graded with its instructor's overrides.

The report's student is found as a batch finds it (front matter, else the file name), and
the entries for that student's parts are applied by the same ``apply_part`` a batch uses.
Entries about other students are not this report's business and are not reported; an
entry for this student that does not apply (a criterion the part lacks, a verdict the
grader now gives by itself, another file named) is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from grader.batch.students import student_key, student_of
from grader.engine import GradeResult
from grader.overrides.apply import Stale, apply_part
from grader.overrides.model import load_overrides


def apply_to_report(
    results: list[GradeResult], report: Path, files: list[Path], exercise: str | None
) -> tuple[list[dict[str, Any]], list[Stale]]:
    """Each part's JSON with the overrides of ``files`` applied, and the entries for this
    student that do not apply."""
    from grader.exercises import resolve_exercise
    from grader.rubric import rubric_for
    from grader.submission import read_submission

    entries = load_overrides(files)
    student = student_key(student_of(read_submission(report).front_matter, report))
    out: list[dict[str, Any]] = []
    stale: list[Stale] = []
    for result in results:
        data = result.to_dict()
        own = [o for o in entries if o.part == (student, result.exercise)]
        fitting = [o for o in own if not o.file or Path(o.file).name == report.name]
        stale += [
            Stale(o, f"written for {o.file}, not {report.name}") for o in own if o not in fitting
        ]
        if fitting:
            ex = resolve_exercise(exercise or result.exercise)
            new, unused = apply_part(data, fitting, rubric_for(ex.id, own=ex.rubric_path))
            stale += unused
            data = new or data
        out.append(data)
    return out, stale


def render_changes(data: dict[str, Any]) -> str:
    """What overrides changed in a part, below its text report; '' when nothing."""
    from grader.batch.exports import override_notes

    if "auto" not in data:
        return ""
    auto = data["auto"]
    lines = ["Instructor overrides (the grader's own verdicts are above):"]
    lines += [f"  {note}" for note in override_notes(data)]
    lines.append(
        f"Score with overrides: {data['score']:g}/100  Grade: {data['grade']}  "
        f"(the grader's: {auto['score']:g}/100, {auto['grade']})"
    )
    return "\n".join(lines)
