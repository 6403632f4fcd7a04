"""A file's course parts: ``## Part A`` / ``## Part B`` / ``## Part C`` headings.

A heading opens a part when its first words are "Part" and a letter, followed by nothing, a
separator or a title ("## Part A", "# Part B: overhead", "### part c - from memory").  A
heading that compares parts ("## Part B vs Part A", "## Part A and B") opens none: it is a
sub-heading of the part it stands in.  A part whose heading appears twice is read as one:
a learner who writes ``## Part B`` twice wrote one Part B in two places.
"""

from __future__ import annotations

import re

_PART_HEADING = re.compile(
    r"^[ \t]{0,3}#{1,6}[ \t]*(?:\*\*|__)?(?:part(?:e|ie)?|teil)[ \t]*([abc])\b"
    r"(?![ \t]*(?:\*\*|__)?[ \t]*(?:vs\b|v\.|versus\b|compared\b|and\b|&|/|,|contrast\w*\b|"
    r"against\b|relative\b|in contrast\b|\+))",
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
    for m in _PART_HEADING.finditer(text):
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
