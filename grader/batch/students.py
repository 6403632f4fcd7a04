"""Who a row belongs to, and what a student's second submission of a part means.

A student is their name with case and runs of spaces ignored ("Dana Zhang" and "dana
zhang" are one student).  When a student has two or more files graded as the same part,
the file modified last counts (a resubmission replaces the earlier one; ties go to the
later file name); every file keeps its row in the outputs, marked as counted or not, and
each gets a note naming the other, so a name copied into the wrong report is seen.
"""

from __future__ import annotations

import os
from pathlib import Path

from grader.batch.names import shown
from grader.batch.run import Graded, Row


def student_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def student_of(front_matter: dict[str, object], path: str | Path) -> str:
    """Whose report a file is: its front matter's ``student:``, else the file's name."""
    return str(front_matter.get("student") or Path(path).stem)


def sort_rows(rows: list[Row]) -> list[Row]:
    """By student (one student's rows together), then file: the outputs' fixed order."""
    return sorted(rows, key=lambda r: (student_key(r.student), r.student, r.file))


def display_names(rows: list[Row]) -> dict[str, str]:
    """Each student's key and the spelling shown for them: the first in sorted order."""
    names: dict[str, str] = {}
    for row in rows:
        names.setdefault(student_key(row.student), row.student)
    return names


def _modified(file: str) -> int:
    try:
        return os.stat(file).st_mtime_ns
    except OSError:
        return 0


def resolve_duplicates(rows: list[Row]) -> list[tuple[Row, Graded]]:
    """Mark, for each student and part graded in several files, the ones that do not count;
    return them."""
    by_part: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        for result in row.results:
            by_part.setdefault((student_key(row.student), result.exercise), []).append(row)
    superseded: list[tuple[Row, Graded]] = []
    for (_, exercise), own in by_part.items():
        if len(own) < 2:
            continue
        winner = max(own, key=lambda r: (_modified(r.file), r.file))
        names = ", ".join(shown(Path(r.file).name) for r in own if r is not winner)
        winner.notes.append(
            f"{shown(winner.student)} also submitted {exercise} in {names}; "
            f"this file, modified last, counts"
        )
        for row in own:
            if row is not winner:
                row.superseded[exercise] = winner.file
                row.notes.append(
                    f"{shown(row.student)} submitted {exercise} again in "
                    f"{shown(Path(winner.file).name)}, modified later, which counts instead"
                )
                superseded += [(row, r) for r in row.results if r.exercise == exercise]
    return superseded
