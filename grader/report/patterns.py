"""The lexicon's regular expressions, compiled to be searched fast and matched as written.

A concept is an alternation of many small expressions, nearly all of which start with a
word boundary (``\\bcopies\\b|\\bcasts?\\b|...``).  Python's regex engine, searching such an
alternation, tries every alternative at every position of the text.  Written as
``\\b(?:copies\\b|casts?\\b|...)`` it tests the boundary once per position and tries the
alternatives only where a word starts, and each alternative that begins with a letter is
skipped after one comparison: two to three times faster, with the same matches (only runs
of neighbouring alternatives are grouped, so which alternative wins at a position does not
change).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from grader.report.inflect import expand

BOUNDARY = "\\b"
# "isn.t", "don.t", "wouldn.t" in a lexicon expression: a contraction whose apostrophe
# may be any character, or (as learners type) none.
_CONTRACTION = re.compile(r"(?:(?<=[a-z])|(?<=[a-z)]\(\?:))n\.t(?![a-z*+?{])")  # "should(?:n.t"


def source_of(expression: str) -> str:
    """A lexicon expression as it is compiled: ``lemma~`` inflected, and each contraction
    also without its apostrophe ("isn.t" matches "isnt", as learners type)."""
    return _CONTRACTION.sub("n.?t", expand(expression))


def alternatives(source: str) -> list[str]:
    """The top-level alternatives of a regular expression (``|`` outside groups and
    character classes, not escaped)."""
    out: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(source):
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i += 1
            i += source[i : i + 1] == "^"
            i += source[i : i + 1] == "]"  # a "]" right after "[" or "[^" is a literal
            while i < len(source) and source[i] != "]":
                i += 2 if source[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(source[start:i])
            start = i + 1
        i += 1
    out.append(source[start:])
    return out


def hoist_boundary(parts: list[str]) -> str:
    """One alternation of ``parts`` with the leading ``\\b`` of neighbouring parts shared."""
    flat = [alt for part in parts for alt in alternatives(part)]
    groups: list[str] = []
    run: list[str] = []
    for alt in flat:
        if alt.startswith(BOUNDARY):
            run.append(alt[len(BOUNDARY) :])
            continue
        if run:
            groups.append(BOUNDARY + "(?:" + "|".join(run) + ")")
            run = []
        groups.append("(?:" + alt + ")")
    if run:
        groups.append(BOUNDARY + "(?:" + "|".join(run) + ")")
    return "|".join(groups)


@lru_cache(maxsize=16384)
def _lower(text: str) -> str:
    return text.lower()


class Pattern:
    """A concept's expression, matched without regard to case.

    The lexicon is written in lower case, so the text is lower-cased once (and remembered)
    and matched case-sensitively, several times faster than IGNORECASE matching, which
    folds every character it compares (and ``\\b``/``\\w`` are ASCII for an ASCII pattern, as
    the lexicon's words are).  Positions are those of the original text; a text
    whose lower-case form has another length (a few non-ASCII letters) is matched with
    IGNORECASE instead.
    """

    __slots__ = ("_source", "_exact", "_folding")

    def __init__(self, source: str) -> None:
        self._source = source
        self._exact = re.compile(source, re.ASCII) if source.isascii() else re.compile(source)
        self._folding: re.Pattern[str] | None = None

    @classmethod
    def of(cls, patterns: list[str]) -> Pattern:
        """The alternation of a lexicon entry's expressions (``source_of`` each)."""
        return cls(hoist_boundary([source_of(p) for p in patterns]))

    def _pick(self, text: str) -> tuple[re.Pattern[str], str]:
        low = _lower(text)
        if len(low) == len(text):
            return self._exact, low
        if self._folding is None:
            self._folding = re.compile(self._source, re.IGNORECASE)
        return self._folding, text

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        pattern, subject = self._pick(text)
        return pattern.search(subject, pos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        pattern, subject = self._pick(text)
        return pattern.match(subject, pos)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        pattern, subject = self._pick(text)
        return pattern.finditer(subject)
