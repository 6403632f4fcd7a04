"""The review queue: every verdict flagged for review, as a table a TA fills in.

The queue holds the flagged verdicts of the parts that count, one criterion after another
(in the rubric's order), so a TA reads every learner's line for one criterion before the
next.  ``--review-csv`` writes it with three empty columns, ``ta_verdict`` (pass or fail),
``ta_points`` and ``ta_note``; the filled-in file is read back as overrides, by
``grade overrides-from-csv`` or by ``grade batch --overrides queue.csv`` directly.  A row
whose TA verdict is the grader's confirms it and becomes no override; a row left blank is
skipped; a change without a note is refused, since the note is what the student reads.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from grader.atomic import OutputSet
from grader.batch.exports import cell, criterion_ids
from grader.batch.names import shown
from grader.batch.run import Row
from grader.batch.students import student_key
from grader.errors import GraderError, Location
from grader.overrides.model import Override

COLUMNS = (
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
)
NEEDED = ("criterion", "exercise", "student", "grader_verdict", "ta_verdict", "ta_points")
_YES = {"pass", "passed", "p", "yes", "y", "true", "1", "ok"}
_NO = {"fail", "failed", "f", "no", "n", "false", "0"}


class Item(NamedTuple):
    """One flagged verdict: where, what the grader said, and an override's decision."""

    criterion: str
    exercise: str
    student: str
    file: str
    line: int | None
    text: str
    passed: bool  # the grader's verdict
    max_points: float
    decision: str  # "" unless an override changed the verdict


def queue_items(rows: list[Row]) -> list[Item]:
    """The flagged verdicts of the counted parts, one criterion at a time."""
    order = {cid: n for n, cid in enumerate(criterion_ids(rows))}
    items = []
    for row in rows:
        for r in row.results:
            if not row.counted(r) or not r.review:
                continue
            decided = {}
            if r.overridden:
                for c in r.data()["criteria"]:
                    if "override" in c:
                        verdict = "passed" if c["passed"] else "failed"
                        decided[c["id"]] = f"{verdict} {c['points']:g}: {c['override']['note']}"
            for cid, passed, line, text, top in r.review:
                who, file = shown(row.student), shown(row.file)
                decision = decided.get(cid, "")
                items.append(Item(cid, r.exercise, who, file, line, text, passed, top, decision))
    items.sort(key=lambda i: (order.get(i.criterion, 0), i.exercise, student_key(i.student)))
    return items


def write_queue(outputs: OutputSet, path: Path, rows: list[Row]) -> None:
    with outputs.open(path, newline="") as handle:
        out = csv.writer(handle)
        out.writerow(COLUMNS)
        for i in queue_items(rows):
            out.writerow(
                [i.criterion, i.exercise, cell(i.student), cell(i.file)]
                + ["" if i.line is None else i.line, cell(i.text)]
                + ["passed" if i.passed else "failed", f"{i.max_points:g}", cell(i.decision)]
                + ["", "", ""]
            )


@dataclass
class FilledQueue:
    """A filled-in queue read back: its changes as overrides, and what else it held."""

    entries: list[Override] = field(default_factory=list)
    confirmed: int = 0  # rows whose TA verdict is the grader's
    blank: int = 0  # rows the TA left empty


def _text(value: str | None) -> str:
    """A cell as written, without the quote that kept a spreadsheet from reading a formula."""
    value = (value or "").strip()
    return value[1:] if value[:1] == "'" and value[1:2] in "=+-@\t\r" and value[1:] else value


def _rows(path: Path, text: str) -> Iterator[tuple[int, dict[str, str]]]:
    """(line number, cells by column) for each row, whichever separator the spreadsheet
    saved with (, ; or tab)."""
    header = text.split("\n", 1)[0]
    for sep in (",", ";", "\t"):
        names = [n.strip() for n in next(csv.reader([header], delimiter=sep), [])]
        if all(n in names for n in NEEDED):
            reader = csv.reader(text.splitlines(keepends=True), delimiter=sep)
            next(reader)
            for cells in reader:
                yield reader.line_num, {n: _text(c) for n, c in zip(names, cells, strict=False)}
            return
    raise GraderError(
        f"not a review queue: its first line needs the columns {', '.join(NEEDED)} "
        "(write one with grade batch --review-csv)",
        Location(str(path), line=1),
    )


def _verdict(value: str, where: Location) -> bool | None:
    word = value.casefold()
    if not word:
        return None
    if word in _YES or word in _NO:
        return word in _YES
    raise GraderError(f"ta_verdict {value!r} is neither pass nor fail", where)


def _points(value: str, top: str, where: Location) -> float | None:
    if not value:
        return None
    try:
        points = float(value.replace(",", "."))
    except ValueError:
        points = -1.0
    if not 0 <= points < float("inf"):
        raise GraderError(f"ta_points {value!r} is not a number of points (0 or more)", where)
    if top and points > float(top.replace(",", ".")):
        raise GraderError(f"ta_points {value} is more than the criterion's {top}", where)
    return points


def read_filled_queue(path: Path) -> FilledQueue:
    """The changes a TA made in a review queue, as overrides."""
    from grader.yamlload import read_text

    text = read_text(path).lstrip("\ufeff")
    out = FilledQueue()
    for line, row in _rows(path, text):
        where = Location(str(path), line=line)
        passed = _verdict(row.get("ta_verdict", ""), where)
        points = _points(row.get("ta_points", ""), row.get("max_points", ""), where)
        note = row.get("ta_note", "")
        if passed is None and points is None:
            if note:
                raise GraderError("ta_note without ta_verdict or ta_points", where)
            out.blank += 1
            continue
        was = row["grader_verdict"].casefold() == "passed"
        top = _points(row.get("max_points", ""), "", where) or 0.0
        if passed in (None, was) and points in (None, top if was else 0.0):
            out.confirmed += 1
            continue
        if not note:
            raise GraderError("ta_note is empty: say why the verdict changes", where)
        for name in ("student", "exercise", "criterion"):
            if not row.get(name):
                raise GraderError(f"the {name} column is empty", where)
        out.entries.append(
            Override(
                student=row["student"],
                exercise=row["exercise"],
                note=note,
                where=where,
                criterion=row["criterion"],
                passed=passed,
                points=points,
                file=Path(row["file"]).name if row.get("file") else None,
            )
        )
    return out
