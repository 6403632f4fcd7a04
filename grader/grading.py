"""Grade one file: read it, pick the exercise(s), parse, and run the engine."""

from __future__ import annotations

from pathlib import Path

from grader.engine import GradeResult, grade_report
from grader.errors import GraderError, Location
from grader.exercises import Exercise, exercise_files, resolve_exercise
from grader.report.model import Report
from grader.submission import Submission, read_submission, split_parts


def grade_text(sub: Submission, exercise: Exercise, text: str | None = None) -> GradeResult:
    report = Report.parse(text if text is not None else sub.text, sub.path, sub.warnings)
    if not report.fields:
        report.warnings = (*report.warnings, f"{sub.path}: no field of the five-line report found")
    return grade_report(report, exercise)


def grade_submission(sub: Submission, exercise: str | None) -> list[GradeResult]:
    parts = split_parts(sub.text)
    if exercise is not None:
        ex = resolve_exercise(exercise)
        return [grade_text(sub, ex, parts.get(ex.id))]
    if not parts:
        known = ", ".join(p.stem for p in exercise_files())
        raise GraderError(
            f"no '## Part A/B/C' heading found; say which exercise with --exercise ({known})",
            Location(sub.path),
        )
    return [grade_text(sub, resolve_exercise(pid), text) for pid, text in parts.items()]


def grade_file(path: Path, exercise: str | None) -> list[GradeResult]:
    return grade_submission(read_submission(path), exercise)
