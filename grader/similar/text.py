"""A report's part as the similarity check reads it: the learner's own words, line by line.

Every report of an exercise shares the exercise's template (``grade template``: its title,
the five field labels, its section headings such as "## Hypotheses for copy_ and to"), the
lines of its prompt a learner may paste, and the field labels written any accepted way
("Top GPU time:", "Next steps -").  Two independent reports would look alike through these
alone, so each line loses the longest of them it starts with; what remains of a line is
compared, in lower case, as words (runs of letters, digits and ``_``).
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from grader.exercises import Exercise

_WORD = re.compile(r"\w+")
MAX_LINE = 300  # characters of a line kept to show as a shared passage


class SimText(NamedTuple):
    """``words``: every word of the part, sorted, joined by spaces (the text the pairs are
    scored on, so that reordered lines and words count as the same text); ``lines``: (line
    number, the line as written, its words) for each line with words of its own."""

    words: str
    lines: tuple[tuple[int, str, str], ...]

    @property
    def size(self) -> int:
        return self.words.count(" ") + 1 if self.words else 0


def _words(line: str) -> list[str]:
    return _WORD.findall(line.lower())


@cache
def _labels() -> frozenset[tuple[str, ...]]:
    from grader.report.labels import field_specs

    specs, _ = field_specs()
    names = [n for s in specs for n in (s.name, *s.exact, *s.aliases)]
    return frozenset(tuple(_words(n)) for n in names)


def _exercise_lines(ex: Exercise) -> list[str]:
    from grader.reporters.template import render_template

    lines = render_template(ex).splitlines() + ex.prompt.splitlines()
    lines += [*ex.deliverables, ex.stretch, ex.title, f"Part {ex.id[-1:]}", ex.id]
    return lines


_PREFIXES: dict[tuple[str, str], dict[str, tuple[tuple[str, ...], ...]]] = {}


def _prefixes(ex: Exercise) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Word sequences a line of this exercise's reports may start with that are not the
    learner's own, by their first word: longest first."""
    key = (ex.id, str(ex.path))
    if key not in _PREFIXES:
        found = set(_labels())
        found.update(tuple(_words(line)) for line in _exercise_lines(ex))
        found.discard(())
        by_first: dict[str, list[tuple[str, ...]]] = {}
        for p in sorted(found, key=lambda p: (-len(p), p)):
            by_first.setdefault(p[0], []).append(p)
        _PREFIXES[key] = {first: tuple(ps) for first, ps in by_first.items()}
    return _PREFIXES[key]


def similarity_text(text: str, ex: Exercise) -> SimText:
    """The part ``text`` (a report's text, or one part of it with the other lines blank) as
    the comparison reads it."""
    prefixes = _prefixes(ex)
    kept: list[tuple[int, str, str]] = []
    every: list[str] = []
    for number, line in enumerate(text.split("\n"), 1):
        words = _WORD.findall(line.lower())
        if not words:
            continue
        for p in prefixes.get(words[0], ()):
            if tuple(words[: len(p)]) == p:
                words = words[len(p) :]
                break
        if words:
            shown = line.strip()
            if len(shown) > MAX_LINE:
                shown = shown[: MAX_LINE - 3].rstrip() + "..."
            kept.append((number, shown, " ".join(words)))
            every += words
    return SimText(" ".join(sorted(every)), tuple(kept))
