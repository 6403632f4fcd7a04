"""Grade many reports across the machine's cores, in a deterministic order.

Workers grade one file each and send back a small plain row (the JSON of each graded part,
or the error); the parent keeps rows only, in input order, so memory grows with the
results and nothing else.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from grader.errors import GraderError


@dataclass(frozen=True)
class Graded:
    """One graded part, as a batch needs it: the figures, and its entry of the JSON output.

    Workers serialise the entry themselves (student and file first, then the single-report
    JSON), so the parent neither rebuilds nor re-encodes ten thousand results; feedback and
    Gradescope read it back only when asked for.  A part an instructor's override changed
    (``overridden``) holds the grader's own verdicts in its entry's ``auto`` objects.
    """

    exercise: str
    score: float
    grade: str
    criteria: tuple[tuple[str, bool, float], ...]  # id, passed, points
    failing: tuple[tuple[str, int | None, str], ...]  # id, line, evidence text
    entry: bytes  # ASCII JSON
    warnings: tuple[str, ...] = ()
    # flagged for review: id, the grader's verdict, line, evidence text, max points
    review: tuple[tuple[str, bool, int | None, str, float], ...] = ()
    overridden: bool = False
    text: Any = None  # the part's text as the similarity check reads it, when asked for

    @classmethod
    def of(cls, result: dict[str, Any], student: str, file: str, text: Any = None) -> Graded:
        from grader.batch.names import shown

        entry = {
            "student": shown(student),
            "file": shown(file),
            "counted": True,
            **result,
            "submission": shown(result["submission"]),
            "warnings": [shown(w) for w in result.get("warnings", ())],
        }
        return cls.from_entry(entry, text)

    @classmethod
    def from_entry(cls, entry: dict[str, Any], text: Any = None) -> Graded:
        crits = entry["criteria"]
        return cls(
            exercise=entry["exercise"],
            score=entry["score"],
            grade=entry["grade"],
            criteria=tuple((c["id"], c["passed"], c["points"]) for c in crits),
            failing=tuple(
                (c["id"], c["evidence"]["line"], c["evidence"]["text"])
                for c in crits
                if not c["passed"]
            ),
            entry=json.dumps(entry).encode("ascii"),
            warnings=tuple(entry["warnings"]),
            review=tuple(
                (
                    c["id"],
                    c.get("auto", c)["passed"],
                    c["evidence"]["line"],
                    c["evidence"]["text"],
                    c["max_points"],
                )
                for c in crits
                if c.get("review")
            ),
            overridden="auto" in entry,
            text=text,
        )

    def data(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.entry)
        return loaded


@dataclass
class Row:
    """One report of the batch: who, which file, its graded parts, or why it failed.

    ``superseded`` maps an exercise to the student's other file that counts for it instead
    (a second submission); ``notes`` are what the batch has to say about the row.
    """

    file: str
    student: str
    results: list[Graded] = field(default_factory=list)
    error: str = ""
    notes: list[str] = field(default_factory=list)
    superseded: dict[str, str] = field(default_factory=dict)

    def counted(self, result: Graded) -> bool:
        return result.exercise not in self.superseded

    @property
    def total(self) -> float:
        return round(sum(r.score for r in self.results if self.counted(r)), 1)


@cache
def _exercise_bundle(name: str) -> tuple[Any, Any, Any]:
    from grader.analyzer import analyze
    from grader.exercises import resolve_exercise
    from grader.rubric import rubric_for

    ex = resolve_exercise(name)
    return ex, rubric_for(ex.id, own=ex.rubric_path), analyze(ex.table)


def grade_path(path: Path, exercise: str | None, similar: bool = False) -> Row:
    """Grade one file; any mistake in it becomes the row's error, never an exception.
    ``similar`` keeps each part's text as the similarity check reads it."""
    from grader.batch.students import student_of
    from grader.grading import grade_parts, grade_text
    from grader.submission import read_submission

    student = path.stem
    try:
        sub = read_submission(path)
        student = student_of(sub.front_matter, path)
        row = Row(str(path), student)
        chosen = _exercise_bundle(exercise) if exercise is not None else None
        for name, text in grade_parts(sub, chosen[0] if chosen else None):
            ex, rubric, analysis = chosen or _exercise_bundle(name)
            result = grade_text(sub, ex, text, rubric, analysis).to_dict()
            kept = _similarity_text(text, ex) if similar else None
            row.results.append(Graded.of(result, student, row.file, kept))
        return row
    except GraderError as exc:
        return Row(str(path), student, error=exc.message if exc.location else str(exc))
    except Exception as exc:  # noqa: BLE001 - a batch goes on past any one report
        return Row(str(path), student, error=f"internal error: {type(exc).__name__}: {exc}")


def _similarity_text(text: str, ex: Any) -> Any:
    from grader.similar.text import similarity_text

    return similarity_text(text, ex)


def warm_up(exercise: str | None) -> None:
    """Load what every report needs once: checks, exercises, rubrics, the lexicon's patterns."""
    from grader.engine import grade_report
    from grader.exercises import exercise_files
    from grader.report.language import precompile
    from grader.report.model import Report

    precompile()
    sample = "Workload: x\nHardware: y\nTop CUDA time: copies are the problem.\n"
    names = [exercise] if exercise else [p.stem for p in exercise_files()]
    for name in names:
        ex, rubric, analysis = _exercise_bundle(name)
        grade_report(Report.parse(sample), ex, rubric, analysis)


def grade_all(
    paths: list[Path],
    exercise: str | None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    time_limit: float | None = None,
    similar: bool = False,
) -> Iterator[Row]:
    """Rows in the order of ``paths``, graded in worker processes: a worker that dies or
    overruns ``time_limit`` seconds on a report costs that report only.  ``similar`` keeps
    each part's text for the similarity check."""
    from grader.batch.pool import TIME_LIMIT, Pool

    workers = max(1, min(workers or os.cpu_count() or 1, len(paths)))
    size = max(8, min(64, len(paths) // (workers * 8) or 1))  # small: an even finish
    if "fork" in multiprocessing.get_all_start_methods():
        warm_up(exercise)  # forked workers inherit imports, compiled patterns and exercises
    pool = Pool(paths, exercise, workers, size, time_limit or TIME_LIMIT, similar)
    waiting: dict[int, Row] = {}
    next_index = 0
    for index, row in pool.rows():
        waiting[index] = row
        if progress:
            progress(1)
        while next_index in waiting:
            yield waiting.pop(next_index)
            next_index += 1
