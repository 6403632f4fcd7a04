"""Profiler tables: the course's format, PyTorch's key_averages text, markdown pipe tables."""

from __future__ import annotations

from grader.errors import GraderError, Location
from grader.tables.course import parse_course
from grader.tables.key_averages import looks_like_key_averages, parse_key_averages
from grader.tables.markdown import looks_like_markdown, parse_markdown
from grader.tables.model import Row, Table

__all__ = ["Row", "Table", "parse_table", "detect_format"]


def detect_format(text: str) -> str:
    if looks_like_key_averages(text):
        return "key_averages"
    if looks_like_markdown(text):
        return "markdown"
    return "course"


def parse_table(text: str, file: str = "<table>", first_line: int = 1) -> Table:
    """Parse any supported table format; errors name the file and line."""
    if not text.strip():
        raise GraderError(
            "the table is empty; expected a header and rows", Location(file, line=first_line)
        )
    fmt = detect_format(text)
    if fmt == "key_averages":
        return parse_key_averages(text, file, first_line)
    if fmt == "markdown":
        table: Table = parse_markdown(text, file, first_line)
        return table
    return parse_course(text, file, first_line)
