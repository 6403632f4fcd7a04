"""Sentences and clauses: where a learner's sentence ends, and the marks ("but", "because",
a semicolon, a dash) that end a clause inside it.  language.py reads a negation's scope as
the clause around a mention; the checks read a statement sentence by sentence.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

_NOT_AN_END = (
    r"(?<!e\.g\.)(?<!i\.e\.)(?<!\bvs\.)(?<!etc\.)(?<!approx\.)(?<!\bcf\.)(?<!\bca\.)(?<!\bno\.)"
)
# A sentence ends at ". " (or "!", "?", with a closing quote or bracket kept) before a
# capital, a digit, a quote or a mark; at ". " before a lower-case word ("... the model math.
# copy_ and to ..."), since learners open sentences with op names; never after an
# abbreviation ("e.g. the"), nor at "(a third!) is", which goes on.
_SENTENCE = re.compile(
    rf"(?:(?<=[.!?])|(?<=[.!?][\"')\]])){_NOT_AN_END}\s+(?=[A-Z0-9(\"'`*_])"
    rf"|(?<=[\w)\]`]\.){_NOT_AN_END}\s+(?=[a-z])"
    r"|\n+"
)
_CLAUSE = re.compile(
    r"(?-i:(?<=[a-z0-9)][.!?])\s+(?=[A-Z]))|"  # a sentence's end ends its clauses too,
    rf"(?-i:(?<=[\w)\]`]\.){_NOT_AN_END}\s+(?=[a-z]))|"  # "compute. copy_ + to add ..."
    r"[;:()\[\]\u2014\u2013]|,\s|\s-\s|\s->\s|→|"
    r"\b(?:but|whereas|while|although|though|so|because|since|and then|which)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def sentences(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in _SENTENCE.split(text) if s and s.strip())


def clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.split(text) if c and c.strip()]


# No clause mark, with the characters its match looks at, is longer than this; so a scan
# that stops at a position finds the same marks as a scan of the whole text, up to this
# many characters before it.
_MARK_REACH = 64


@lru_cache(maxsize=4096)
def _clause_marks(text: str) -> tuple[list[int], list[int]]:
    """The (starts, ends) of the clause marks a scan of ``text`` from its start finds, found
    once: each mention's clause start is then a bisection, not a rescan of the text before
    it (a line with thousands of mentions costs a line, not a square)."""
    starts: list[int] = []
    ends: list[int] = []
    for m in _CLAUSE.finditer(text):
        starts.append(m.start())
        ends.append(m.end())
    return starts, ends


@lru_cache(maxsize=1024)
def _mark_positions(text: str) -> list[int]:
    """Every position where a clause mark starts (a search from the middle of the text may
    find marks that overlap the ones a scan from the start finds)."""
    out: list[int] = []
    found = _CLAUSE.search(text)
    while found is not None:
        out.append(found.start())
        found = _CLAUSE.search(text, found.start() + 1)
    return out


def clause_start(text: str, pos: int) -> int:
    """Where the clause holding ``pos`` starts: the end of the last mark before it."""
    # A mark may look one character past its end ("amount. Movement-bound": a sentence ends
    # where a capital follows), so the scan reads one character past ``pos``.
    stop = min(len(text), pos + 1)
    if pos <= 4 * _MARK_REACH:  # a short way in (most lines): scan it
        start = 0
        for m in _CLAUSE.finditer(text, 0, stop):
            if m.start() < pos:
                start = min(m.end(), pos)
        return start
    starts, ends = _clause_marks(text)  # far in: the marks once, then a bisection
    i = bisect_right(starts, pos - _MARK_REACH)
    start = ends[i - 1] if i else 0
    # The last few marks, as a scan that stops at pos sees them (it agrees with the whole
    # scan before pos - _MARK_REACH, so it may resume there).
    for m in _CLAUSE.finditer(text, max(start, pos - _MARK_REACH + 1), stop):
        if m.start() < pos:
            start = min(m.end(), pos)
    return start


def clause_end(text: str, pos: int, reach: int | None = None) -> int:
    """Where the clause holding ``pos`` ends: the first mark at or after it; with ``reach``,
    at most that many characters after ``pos`` (only so much of the text is read)."""
    if reach is not None and len(text) - pos <= 2 * reach:
        # A short rest of the text (most lines) is searched at once.  A mark found before
        # pos + reach is found alike in the whole text: no mark, with what it looks at, is
        # longer than _MARK_REACH.
        m = _CLAUSE.search(text, pos, pos + reach + _MARK_REACH)
        return min(m.start(), pos + reach) if m else min(len(text), pos + reach)
    positions = _mark_positions(text)  # a long text: its marks once, then a bisection
    i = bisect_left(positions, pos)
    end = positions[i] if i < len(positions) else len(text)
    return end if reach is None else min(end, pos + reach)
