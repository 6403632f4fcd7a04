"""``grade override``: an override entry made from a graded report's JSON, not typed by hand.

The JSON is what ``grade REPORT -f json`` prints (one part, or a list of parts) or what
``grade batch --json`` writes (every report, with its student).  The student, exercise,
criterion and file name are taken from it; the instructor picks the report with
``--student`` and ``--exercise`` when the JSON holds several, and gives the new verdict
(``--verdict``/``--points``) or a score adjustment (``--adjust``) and a note.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from grader.batch.students import student_key
from grader.errors import GraderError, Location
from grader.overrides.model import Override
from grader.suggest import did_you_mean


def _reports(path: Path) -> list[dict[str, Any]]:
    from grader.yamlload import read_text

    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise GraderError(f"not JSON: {exc.msg}", Location(str(path), line=exc.lineno)) from None
    if isinstance(data, dict) and isinstance(data.get("reports"), list):
        data = data["reports"]
    parts = data if isinstance(data, list) else [data]
    if not all(isinstance(p, dict) for p in parts):
        raise GraderError("not a graded report's JSON", Location(str(path)))
    found = [p for p in parts if "criteria" in p and p.get("counted", True)]
    if not found:
        raise GraderError(
            "holds no graded part; give the JSON of 'grade REPORT -f json' or 'grade batch --json'",
            Location(str(path)),
        )
    return found


def _student(part: dict[str, Any]) -> str:
    """The student of a part: the batch's, else the report's front matter, else its name."""
    if part.get("student"):
        return str(part["student"])
    from grader.batch.students import student_of
    from grader.submission import read_submission

    source = Path(str(part.get("submission", "")))
    try:
        return student_of(read_submission(source).front_matter, source)
    except GraderError:
        return source.stem


def _choose(
    parts: list[dict[str, Any]], student: str | None, exercise: str | None, path: Path
) -> tuple[dict[str, Any], str]:
    named = [(p, _student(p)) for p in parts]
    if student is not None:
        names = sorted({n for _, n in named})
        named = [(p, n) for p, n in named if student_key(n) == student_key(student)]
        if not named:
            raise GraderError(
                f"no student {student!r} in this JSON;"
                + (did_you_mean(student, names) or f" its students: {', '.join(names[:10])}"),
                Location(str(path)),
            )
    if exercise is not None:
        exercises = sorted({p["exercise"] for p, _ in named})
        named = [(p, n) for p, n in named if p["exercise"] == exercise]
        if not named:
            raise GraderError(
                f"no graded {exercise} here (graded: {', '.join(exercises)})", Location(str(path))
            )
    if len(named) > 1:
        several = len({student_key(n) for _, n in named}) > 1
        option = "--student" if several else "--exercise"
        choices = sorted({n if several else p["exercise"] for p, n in named})
        raise GraderError(
            f"holds {len(named)} graded parts; pick one with {option} "
            f"({', '.join(choices[:10])}{', ...' if len(choices) > 10 else ''})",
            Location(str(path)),
        )
    return named[0]


def _criterion(part: dict[str, Any], criterion: str) -> dict[str, Any]:
    ids = [c["id"] for c in part["criteria"]]
    if criterion not in ids:
        raise GraderError(
            f"{part['exercise']} has no criterion {criterion!r};"
            + (did_you_mean(criterion, ids) or f" its criteria: {', '.join(ids)}")
        )
    found: dict[str, Any] = part["criteria"][ids.index(criterion)]
    return found


def entry_from_report(
    path: Path,
    note: str,
    student: str | None = None,
    exercise: str | None = None,
    criterion: str | None = None,
    verdict: str | None = None,
    points: float | None = None,
    adjust: float | None = None,
) -> Override:
    """The override the instructor asked for, checked against the graded part."""
    if not note.strip():
        raise GraderError("--note is empty; say why (the student reads it)")
    changes = criterion is not None or verdict is not None or points is not None
    if changes == (adjust is not None):
        raise GraderError(
            "give either --criterion with --verdict or --points, or --adjust (a score change)"
        )
    for name, value in (("--points", points), ("--adjust", adjust)):
        if value is not None and not math.isfinite(value):
            raise GraderError(f"{name} must be a number, got {value}")
    part, name = _choose(_reports(path), student, exercise, path)
    file = Path(str(part.get("file") or part.get("submission") or "")).name or None
    where = Location("(command line)")
    if adjust is not None:
        return Override(name, part["exercise"], note.strip(), where, adjust=adjust, file=file)
    if criterion is None or (verdict is None and points is None):
        raise GraderError("a changed verdict needs --criterion and --verdict or --points")
    c = _criterion(part, criterion)
    passed = None if verdict is None else verdict == "pass"
    if points is not None and not 0 <= points <= c["max_points"]:
        raise GraderError(f"--points must be between 0 and {criterion}'s {c['max_points']:g}")
    auto = c.get("auto", c)
    same_points = points is None or points == auto["points"]
    if passed in (None, auto["passed"]) and same_points:
        was = "passed" if auto["passed"] else "failed"
        raise GraderError(
            f"the grader already gives {criterion} {was} {auto['points']:g}/{c['max_points']:g} "
            f"for {name}; an override that agrees with it would not be applied"
        )
    return Override(
        name, part["exercise"], note.strip(), where, criterion, passed, points, file=file
    )
