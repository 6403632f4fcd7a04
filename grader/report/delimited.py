"""Answers pasted from a spreadsheet: rows of tab- or comma-separated cells, read as a table.

A learner who keeps the report in a spreadsheet pastes it as it copies out::

    Field<TAB>Answer
    Workload<TAB>decoder-only LLM, 4096-token prompt, bf16, batch 1
    Hypotheses,Experiment
    "H1: the cache is fp32 and cast each step","print the cache dtype; cast once, re-profile"

Markdown reads such rows as one paragraph, and a row that opens with "#" as a heading.
``undelimit`` writes each run of two or more rows with the same number of cells as a
markdown table (its first row the header, a delimiter row added under it), so each row is
a table row whose cells the rest of the grader reads: a field's name and its answer, a
hypothesis and its test.  For each line written it gives the number of the line it came
from, so evidence still points into the learner's file.

A row of commas is told from prose by its commas: a spreadsheet writes none but those
that separate cells, with no space after them ("Hardware,L4"), or cells in quotes;
prose puts a space after each ("decoder-only LLM, 4096-token prompt").
"""

from __future__ import annotations

import csv
import re

_MIN_ROWS = 2
# a comma with no space after it: the cheap sign of a row of cells (a literal first, so the
# search skips along the text quickly)
_MAYBE_CSV = re.compile(r",(?=\S)")
_MAX_CELLS = 6
# a comma that separates cells: none of prose's ", " after it, outside quotes
_BARE_COMMA = re.compile(r",(?=\S)")
# A first cell that is a list's mark ("•", "1.", "a)") or a label with its colon: the tab
# after it is a word processor's, and the line is read as it is.
_NOT_A_CELL = re.compile(r"^(?:[-*+\u2022\u25e6\u25aa\u25cf]|\(?[a-z0-9]{1,3}[.)]|.*:)$", re.I)


def _cells(line: str) -> list[str] | None:
    """The cells of a spreadsheet row, or None when ``line`` is not one."""
    if "\t" in line.strip():
        cells = [c.strip() for c in line.strip().split("\t")]
    elif "," in line and _csv_like(line):
        cells = [c.strip() for c in next(csv.reader([line.strip()]))]
    else:
        return None
    while cells and not cells[-1]:
        cells.pop()
    if not 2 <= len(cells) <= _MAX_CELLS or not cells[0] or _NOT_A_CELL.match(cells[0]):
        return None  # "•<TAB>Workload: ...", "Workload:<TAB>...": a word processor's lines
    # a bar inside a cell sets its own pieces apart ("cast per layer | test: log dtypes")
    return [c.replace(" | ", "; ").replace("|", "/") for c in cells]


def _csv_like(line: str) -> bool:
    """Are the commas of ``line`` outside quotes all separators of cells?"""
    outside, quoted = [], False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            outside.append(i)
    if quoted or not outside:
        return False
    return all(_BARE_COMMA.match(line, i) for i in outside)


def undelimit(text: str) -> tuple[str, list[int]]:
    """``text`` with its spreadsheet rows written as markdown tables, and for each line
    written the number of the line it came from (an empty list when nothing changed)."""
    if "\t" not in text and _MAYBE_CSV.search(text) is None:
        return text, []  # most reports: no tab, and a space after every comma
    lines = text.split("\n")
    rows = [_cells(line) for line in lines]
    out: list[tuple[str, int]] = []
    i = 0
    changed = False
    while i < len(lines):
        cells = rows[i]
        end = i
        while cells is not None and end < len(lines) and rows[end] is not None:
            if len(rows[end]) != len(cells):  # type: ignore[arg-type]
                break
            end += 1
        if cells is None or end - i < _MIN_ROWS:
            out.append((lines[i], i + 1))
            i += 1
            continue
        changed = True
        if out and out[-1][0].strip():
            out.append(("", i + 1))  # a table starts a block of its own
        for k in range(i, end):
            out.append(("| " + " | ".join(rows[k] or []) + " |", k + 1))
            if k == i:
                out.append(("|" + " --- |" * len(cells), k + 1))
        if end < len(lines) and lines[end].strip():
            out.append(("", end))
        i = end
    if not changed:
        return text, []
    return "\n".join(t for t, _ in out), [n for _, n in out]
