"""A file's course parts: ``## Part A`` / ``## Part B`` / ``## Part C`` headings, or in a
file without them, titles on lines of their own ("PART A" ... "PART C").

A heading opens a part when its first words are "Part" and a letter, followed by nothing, a
separator or a title ("## Part A", "# Part B: overhead", "### part c - from memory").  A
heading that compares parts ("## Part B vs Part A", "## Part A and B") opens none: it is a
sub-heading of the part it stands in.  A part whose heading appears twice is read as one:
a learner who writes ``## Part B`` twice wrote one Part B in two places.
"""

from __future__ import annotations

import re

_PART_NAME = r"(?:part(?:e|ie)?|teil)[ \t]*([abc])\b"
_NOT_COMPARED = (
    r"(?![ \t]*(?:\*\*|__)?[ \t]*(?:vs\b|v\.|versus\b|compared\b|and\b|&|/|,|contrast\w*\b|"
    r"against\b|relative\b|in contrast\b|\+))"
)
_PART_HEADING = re.compile(
    rf"^[ \t]{{0,3}}#{{1,6}}[ \t]*(?:\*\*|__)?{_PART_NAME}{_NOT_COMPARED}",
    re.IGNORECASE | re.MULTILINE,
)
# A line of its own that names the part, with at most a short title after a separator:
# "PART A", "**Part B**", "Part C - from memory" (not "Part A: the copies dominate.").
_PART_LINE = re.compile(
    rf"^[ \t]{{0,3}}(?:\*\*|__)?{_PART_NAME}{_NOT_COMPARED}[ \t]*(?:\*\*|__)?"
    r"(?:[ \t]*[:.\u2014\u2013-][ \t]*[^.!?\n]{0,40}?)?[ \t]*(?:\*\*|__)?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


def split_parts(text: str) -> dict[str, str]:
    """The parts of a file, by id (``partA``), in order of first appearance.

    Each part's text keeps every line of the file, with the lines of other parts blanked,
    so a line number still points into the learner's file.  A file with no part headings
    gives nothing.
    """
    lines = text.split("\n")
    starts: list[tuple[int, str]] = []  # (line index, letter)
    line, counted = 0, 0
    for m in _part_marks(text):
        line += text.count("\n", counted, m.start())  # counted once: no rescan per heading
        counted = m.start()
        starts.append((line, m.group(1).upper()))
    owner = [""] * len(lines)
    for n, (start, letter) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        owner[start:end] = [letter] * (end - start)
    parts: dict[str, str] = {}
    for _, letter in starts:
        key = f"part{letter}"
        if key not in parts:
            parts[key] = "\n".join(ln if owner[i] == letter else "" for i, ln in enumerate(lines))
    return parts


def _part_marks(text: str) -> list[re.Match[str]]:
    """The headings that open parts; or, in a file with none, the lines that name a part on
    their own ("PART A" ... "PART C"), when they name two parts or more: one file handed in
    for the whole homework."""
    headings = list(_PART_HEADING.finditer(text))
    if headings:
        return headings
    # a line of a paragraph ("... just like in\nPart A.") is no title: one stands after a
    # blank line or at the top of the file (a match starts a line, so what precedes it ends
    # with its newline)
    lines = [
        m
        for m in _PART_LINE.finditer(text)
        if not text[: m.start()].strip("\n") or text.endswith("\n\n", 0, m.start())
    ]
    return lines if len({m.group(1).lower() for m in lines}) >= 2 else []
