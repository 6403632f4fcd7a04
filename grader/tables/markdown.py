"""A markdown pipe table with the course's columns: op, CUDA total, CPU total, calls, memory."""

from __future__ import annotations

import re

from grader.errors import GraderError, Location
from grader.tables.course import parse_course

# Possessive quantifiers: no run of spaces is given back, so a row of dashes followed by a
# long run of spaces and then anything else fails at once instead of in quadratic time.
_ALIGN_ROW = re.compile(r"^\s*+\|?\s*+:?-{3,}+:?\s*+(?:\|\s*+:?-{3,}+:?\s*+)*+\|?\s*+$")


def looks_like_markdown(text: str) -> bool:
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return first.strip().startswith("|") or first.count("|") >= 4


def parse_markdown(text: str, file: str = "<table>", first_line: int = 1):  # type: ignore[no-untyped-def]
    """Turn the pipe table into the course's tab-separated text and parse that."""
    out: list[str] = []
    for i, line in enumerate(text.splitlines()):
        if _ALIGN_ROW.match(line):
            out.append("")  # keep line numbers aligned
            continue
        stripped = line.strip()
        if not stripped:
            out.append("")
            continue
        if "|" not in stripped:
            raise GraderError(
                "expected a markdown table row ('| op | ... |')",
                Location(file, line=i + first_line),
            )
        cells = [c.strip().strip("`") for c in stripped.strip("|").split("|")]
        out.append("\t".join(cells))
    table = parse_course("\n".join(out), file, first_line)
    return type(table)(rows=table.rows, source_format="markdown", notes=table.notes)
