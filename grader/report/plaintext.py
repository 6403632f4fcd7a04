"""Layouts of plain-text submissions that markdown does not read as their writers meant.

Tables drawn with + - | (the "grid tables" of reStructuredText and pandoc). Learners who do
not write markdown draw the five-line report as a box of two columns, a field's name on the
left and its answer on the right, an answer wrapped over several lines of its cell::

    +---------------+---------------------------------+
    | WORKLOAD      | decoder-only LLM, prompt 4096,  |
    |               | out 128, bf16, batch 1          |
    +---------------+---------------------------------+

Markdown reads such a box as a paragraph of pipes and dashes.  ``ungrid`` rewrites each
row of a two-column box as the labelled line it stands for (``WORKLOAD: decoder-only LLM,
prompt 4096, out 128, bf16, batch 1``) on the row's first line, and blanks the borders and
the wrapped lines, so line numbers stay.  A box of three or more columns holds data (op,
ms, share) and is left as it stands.

Lists lettered a), b), c) (or a. b. c.): markdown numbers lists only with
digits, so "a) In A the top row was real work" is a paragraph's line.  ``unletter`` makes
each such line a bullet that keeps its letter ("- a) In A ..."), when at least two lines at
one indent are lettered in order from "a"; wrapped lines below stay with their item.
"""

from __future__ import annotations

import re

_BORDER = re.compile(r"^\s*\+(?:[-=]+\+){2,}\s*$")
_ROW = re.compile(r"^\s*\|.*\|\s*$")


def _cells(line: str, edges: list[int]) -> list[str]:
    """The text of each cell of ``line``, cut where the border above puts its '+'."""
    if len(line) > edges[-1] and all(line[e : e + 1] == "|" for e in edges):
        return [line[a + 1 : b].strip() for a, b in zip(edges, edges[1:], strict=False)]
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _rows(
    lines: list[str], start: int, edges: list[int]
) -> tuple[list[tuple[int, list[str]]], int]:
    """The rows of the box whose top border is line ``start``: each row's first line and its
    cells with their wrapped lines joined; and the line after the box."""
    rows: list[tuple[int, list[str]]] = []
    current: list[list[str]] = []
    first = start
    j = start + 1
    while j < len(lines) and (_ROW.match(lines[j]) or _BORDER.match(lines[j])):
        if _BORDER.match(lines[j]):
            if current:
                rows.append(
                    (first, [" ".join(filter(None, col)) for col in zip(*current, strict=False)])
                )
            current = []
        else:
            if not current:
                first = j
            current.append(_cells(lines[j], edges))
        j += 1
    if current:
        rows.append((first, [" ".join(filter(None, col)) for col in zip(*current, strict=False)]))
    return rows, j


def ungrid(text: str) -> str:
    """``text`` with each two-column box drawn in plain text rewritten as labelled lines."""
    if "+--" not in text and "+==" not in text:
        return text
    lines = text.split("\n")
    out = list(lines)
    i = 0
    while i < len(lines):
        top = _BORDER.match(lines[i])
        if top is None:
            i += 1
            continue
        edges = [k for k, ch in enumerate(lines[i]) if ch == "+"]
        rows, end = _rows(lines, i, edges)
        if len(edges) == 3 and rows and all(len(cells) == 2 for _, cells in rows):
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            for k in range(i, end):
                out[k] = ""
            for number, (label, value) in rows:
                out[number] = f"{indent}{label}: {value}" if label else f"{indent}{value}"
        i = max(end, i + 1)
    return "\n".join(out)


_LETTERED = re.compile(r"^(?P<indent>[ \t]{0,3})(?P<mark>(?P<letter>[a-h])[).])\s+\S")


def unletter(text: str) -> str:
    """``text`` with its lists lettered a), b), ... made bullets that keep their letters."""
    lines = text.split("\n")
    marks = [_LETTERED.match(line) for line in lines]
    if sum(m is not None for m in marks) < 2:
        return text
    out = list(lines)
    run: list[re.Match[str]] = []  # the marks of one lettered list, "a" first
    at: list[int] = []
    for i, line in enumerate([*lines, ""]):
        m = marks[i] if i < len(lines) else None
        if m is not None and run and m.group("indent") == run[0].group("indent"):
            if m.group("letter") == chr(ord("a") + len(run)):
                run.append(m)
                at.append(i)
                continue
        elif m is None and run and i < len(lines):
            depth = len(line) - len(line.lstrip())
            if not line.strip() or depth > len(run[0].group("indent")):
                continue  # a wrapped line of the item above, or a blank line in the list
        if len(run) >= 2:
            for k, mark in zip(at, run, strict=True):
                lead = mark.group("indent")
                out[k] = f"{lead}- {lines[k][len(lead) :]}"
        run, at = ([m], [i]) if m is not None and m.group("letter") == "a" else ([], [])
    return "\n".join(out)
