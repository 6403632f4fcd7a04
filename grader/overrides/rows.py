"""A batch's overrides: each entry finds the one part it is about, or is reported stale.

An entry's part is its student's part of that exercise that counts (a second submission
replaces the first; see ``grader.batch.students``).  An entry that names a file holds only
while that file is the one counted, so a correction written for one report is never
carried to a different report.  Entries for a student or part the batch did not grade,
or for a file that no longer counts, are returned as ``Stale`` with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from grader.batch.names import shown
from grader.batch.run import Graded, Row
from grader.batch.students import display_names, student_key
from grader.batch.summary import Summary
from grader.overrides.apply import Stale, apply_part
from grader.overrides.model import Override
from grader.rubric import Rubric
from grader.suggest import did_you_mean


def _name(path: str) -> str:
    return os.path.basename(path.replace("\\", "/").rstrip("/")) or path


def _missing_part(o: Override, rows: list[Row], names: dict[str, str]) -> str:
    """Why no counted part matches the entry's student and exercise."""
    skey, exercise = o.part
    own = [r for r in rows if student_key(r.student) == skey]
    if not own:
        return f"no student {o.student!r} in this batch;" + (
            did_you_mean(o.student, sorted(names.values())) or " check the name"
        )
    graded = sorted({g.exercise for r in own for g in r.results})
    if not graded:
        return f"{shown(own[0].file)} could not be graded"
    return f"{shown(names[skey])} has no graded {exercise} (graded: {', '.join(graded)})"


def _wrong_file(o: Override, row: Row, rows: list[Row]) -> str | None:
    """Why the entry's file is not the part's counted file, if it is not."""
    if not o.file or _name(o.file) == _name(row.file):
        return None
    counted = shown(_name(row.file))
    earlier = any(
        _name(r.file) == _name(o.file)
        and student_key(r.student) == o.part[0]
        and not all(r.counted(g) for g in r.results)
        for r in rows
    )
    if earlier:
        return f"{o.file} no longer counts for {o.exercise}: {counted}, modified later, counts"
    return f"{o.student}'s {o.exercise} is graded from {counted}, not {o.file}"


def apply_to_rows(
    rows: list[Row],
    entries: list[Override],
    rubric_of: Callable[[str], Rubric | None],
    summary: Summary,
) -> list[Stale]:
    """Apply ``entries`` to the counted parts of ``rows`` (in place, with the summary kept
    in step); the entries that apply to none, with why."""
    parts: dict[tuple[str, str], tuple[Row, int]] = {}
    for row in rows:
        for i, graded in enumerate(row.results):
            if row.counted(graded):
                parts[(student_key(row.student), graded.exercise)] = (row, i)
    grouped: dict[tuple[str, str], list[Override]] = {}
    for o in entries:
        grouped.setdefault(o.part, []).append(o)
    names = display_names(rows)
    stale: list[Stale] = []
    for part, own in grouped.items():
        found = parts.get(part)
        if found is None:
            stale += [Stale(o, _missing_part(o, rows, names)) for o in own]
            continue
        row, i = found
        fitting = []
        for o in own:
            wrong = _wrong_file(o, row, rows)
            if wrong:
                stale.append(Stale(o, wrong))
            else:
                fitting.append(o)
        old = row.results[i]
        new, unused = apply_part(old.data(), fitting, rubric_of(old.exercise))
        stale += unused
        if new is not None:
            row.results[i] = Graded.from_entry(new, old.text)
            summary.replace(row, old, row.results[i])
    order = {id(o): n for n, o in enumerate(entries)}
    return sorted(stale, key=lambda s: order[id(s.override)])
