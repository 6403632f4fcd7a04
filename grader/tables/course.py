"""The course's tab-separated table: ``op<TAB>CUDA total<TAB>CPU total<TAB>calls<TAB>memory``.

A memory cell may say ``unknown`` (or ``?``, ``-``, ``n/a``) when the profile did not record
memory; the analyzer then says so instead of reading it as 0 B.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from grader.errors import GraderError, Location
from grader.tables.model import Row, Table
from grader.units import parse_count, parse_memory_cell, parse_time_us

T = TypeVar("T")
COLUMNS = ("op", "CUDA total", "CPU total", "calls", "memory")
_SPLIT = re.compile(r"\t+| {2,}")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in _SPLIT.split(line.strip())]


def parse_course(text: str, file: str = "<table>", first_line: int = 1) -> Table:
    """Rows of a course table; tabs (or two or more spaces) separate the five columns."""
    lines = text.splitlines()
    numbered = [(i + first_line, ln) for i, ln in enumerate(lines) if ln.strip()]
    if not numbered:
        raise GraderError(
            "the table is empty; expected a header and at least one row",
            Location(file, line=first_line),
        )
    header_no, header = numbered[0]
    got = [c.lower() for c in _cells(header)]
    want = [c.lower() for c in COLUMNS]
    if got != want:
        missing = [c for c, w in zip(COLUMNS, want, strict=True) if w not in got]
        detail = f"missing column(s) {', '.join(missing)}" if missing else f"got {_cells(header)}"
        raise GraderError(
            f"table header must be {' <TAB> '.join(COLUMNS)}; {detail}",
            Location(file, line=header_no),
        )
    rows: list[Row] = []
    for line_no, line in numbered[1:]:
        cells = _cells(line)
        if len(cells) != len(COLUMNS):
            raise GraderError(
                f"expected {len(COLUMNS)} tab-separated cells ({', '.join(COLUMNS)}), "
                f"got {len(cells)}: {line.strip()!r}",
                Location(file, line=line_no),
            )
        rows.append(_row(cells, file, line_no))
    if not rows:
        raise GraderError("the table has a header but no rows", Location(file, line=header_no))
    return Table(rows=tuple(rows), source_format="course")


def _row(cells: list[str], file: str, line_no: int) -> Row:
    name, cuda, cpu, calls, mem = cells

    def cell(column: str, parse: Callable[[str], T], text: str) -> T:
        try:
            return parse(text)
        except GraderError as exc:
            raise exc.at(Location(file, line=line_no, column=column)) from None

    return Row(
        name,
        cell("CUDA total", parse_time_us, cuda),
        cell("CPU total", parse_time_us, cpu),
        cell("calls", parse_count, calls),
        cell("memory", parse_memory_cell, mem),
        line=line_no,
    )
