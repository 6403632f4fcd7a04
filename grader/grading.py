"""Grade one file: read it, pick the exercise(s), parse, and run the engine."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from grader.analyzer import Analysis
from grader.engine import GradeResult, grade_report
from grader.errors import GraderError, Location
from grader.exercises import Exercise, exercise_files, resolve_exercise
from grader.parts import split_parts
from grader.report.model import Report
from grader.rubric import Rubric
from grader.submission import Submission, read_submission

# A file's parts are asked for twice (to pick what to grade, and to warn when the file says
# it is another part): split once.  Read-only for callers.
_parts_of = lru_cache(maxsize=8)(split_parts)


def grade_text(
    sub: Submission,
    exercise: Exercise,
    text: str | None = None,
    rubric: Rubric | None = None,
    analysis: Analysis | None = None,
) -> GradeResult:
    report = Report.parse(text if text is not None else sub.text, sub.path, sub.warnings)
    other = other_part_warning(sub, exercise.id)
    if other:
        report.warnings = (*report.warnings, other)
    if not report.fields:
        report.warnings = (*report.warnings, f"{sub.path}: no field of the five-line report found")
    return grade_report(report, exercise, rubric, analysis)


def other_part_warning(sub: Submission, exercise_id: str) -> str | None:
    """A warning when the file's own part headings name only other parts than the one it
    is graded as (``--exercise partA`` over a class's Part B reports)."""
    parts = _parts_of(sub.text)
    if not parts or exercise_id in parts:
        return None
    said = " and ".join(f"Part {key[-1]}" for key in parts)
    return (
        f"{sub.path}: its heading says {said}, but it was graded as {exercise_id} "
        "(--exercise); is that the exercise meant?"
    )


def grade_parts(sub: Submission, exercise: Exercise | None) -> list[tuple[str, str]]:
    """(exercise id, text) pairs to grade: the chosen exercise's part of the file (or all of
    it), or else each ``## Part X`` of the file."""
    parts = _parts_of(sub.text)
    if exercise is not None:
        return [(exercise.id, parts.get(exercise.id, sub.text))]
    if not parts:
        known = ", ".join(p.stem for p in exercise_files())
        raise GraderError(
            f"no '## Part A/B/C' heading found; say which exercise with --exercise ({known})",
            Location(sub.path),
        )
    return list(parts.items())


def grade_submission(sub: Submission, exercise: str | Exercise | None) -> list[GradeResult]:
    """Each graded part of a submission; ``exercise`` is an id or path to resolve, an
    exercise already loaded (``grade serve`` looks ids up only in its own list), or None."""
    chosen = resolve_exercise(exercise) if isinstance(exercise, str) else exercise
    return [
        grade_text(sub, chosen or resolve_exercise(name), text)
        for name, text in grade_parts(sub, chosen)
    ]


def grade_file(path: Path, exercise: str | None) -> list[GradeResult]:
    return grade_submission(read_submission(path), exercise)


def results_json(results: list[GradeResult]) -> str:
    """What ``grade REPORT --format json`` prints: one object, or a list for several parts.
    ``grade serve``'s API answers this same text, so the page and the CLI cannot disagree."""
    return parts_json([r.to_dict() for r in results])


def parts_json(parts: list[dict[str, Any]]) -> str:
    """Graded parts' JSON (with overrides applied, when an instructor gave some) as
    ``grade REPORT --format json`` prints them."""
    return json.dumps(parts[0] if len(parts) == 1 else parts, indent=2)
