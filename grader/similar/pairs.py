"""Pairs of reports whose text is near-identical: copied, or copied and touched up.

Two parts of the same exercise by different students are scored by rapidfuzz's
``token_sort_ratio`` on their own words (``grader.similar.text``): the words of each,
sorted, compared as one string, 0-100.  Sorting makes a copy with its lines (or words)
reordered score as an exact one; a copy with a few words swapped loses a few points.  A
pair scoring ``THRESHOLD`` or more is listed, with the longest line of the first report
that the second has near-identically (the shared passage).

Two reports by different authors on the same exercise share the course's vocabulary (op
names, the table's figures, "bf16", "prefill"): among the 333 labelled reports of nine
authors, the closest pair by different authors scores 80, and copies with one word in ten
moved and a few words changed almost all score 90 or more (10 of the copies of 3,364 labelled
parts score under it: parts with few words of their own).  ``THRESHOLD`` is 90.  Parts of
fewer than ``MIN_WORDS`` words of their own are not compared: two short, correct answers
to the same question can agree without copying.

Up to ``ALL_PAIRS`` parts of an exercise, every pair is scored.  Beyond that, a pair is
scored only if the two share at least ``MIN_SHARED`` rare word 3-grams (held by at most
``RARE`` parts of the exercise; one 3-gram in ``SAMPLE`` is kept, chosen by its hash, so
both parts keep the same ones): a copied pair shares most of its 3-grams, and the ones its
two reports alone hold are rare.  Pruning can only miss a pair (a passage shared by more
than ``RARE`` students), never add one: every pair listed was scored the same way.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from rapidfuzz import fuzz, process

from grader.similar.text import SimText

THRESHOLD = 90.0
MIN_WORDS = 15
ALL_PAIRS = 2000
RARE = 20
MIN_SHARED = 3
SAMPLE = 4
KEEP_ALL = 60
PASSAGE_CUTOFF = 85.0  # how alike a line of each must be to be the shared passage


@dataclass(frozen=True)
class Doc:
    """One counted part: whose, which file, which exercise, and its text."""

    student: str
    key: str  # the student as the batch tells them apart
    file: str
    exercise: str
    text: SimText


@dataclass(frozen=True)
class Pair:
    score: float
    exercise: str
    a: Doc
    b: Doc
    passage: str
    line_a: int | None
    line_b: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "exercise": self.exercise,
            "a": {"student": self.a.student, "file": self.a.file, "line": self.line_a},
            "b": {"student": self.b.student, "file": self.b.file, "line": self.line_b},
            "passage": self.passage,
        }


def _all_pairs(docs: list[Doc]) -> Iterator[tuple[int, int, float]]:
    words = [d.text.words for d in docs]
    for i in range(len(words) - 1):
        rest = words[i + 1 :]
        for _, score, j in process.extract(
            words[i], rest, scorer=fuzz.ratio, score_cutoff=THRESHOLD, limit=None
        ):
            yield i, i + 1 + j, score


def _shingles(text: SimText) -> set[int]:
    """The part's word 3-grams (within a line; a shorter line whole), one in ``SAMPLE``;
    a short part (fewer than ``KEEP_ALL`` 3-grams: terse notes) keeps them all, or a copy
    with a few words moved would share too few to be scored."""
    hashes = set()
    for _, _, line in text.lines:
        words = line.split(" ")
        for k in range(max(1, len(words) - 2)):
            hashes.add(zlib.crc32(" ".join(words[k : k + 3]).encode()))
    if len(hashes) < KEEP_ALL:
        return hashes
    return {h for h in hashes if h % SAMPLE == 0}


def _pruned_pairs(docs: list[Doc]) -> Iterator[tuple[int, int, float]]:
    postings: dict[int, list[int]] = {}
    for n, d in enumerate(docs):
        for h in _shingles(d.text):
            postings.setdefault(h, []).append(n)
    shared: Counter[tuple[int, int]] = Counter()
    for held in postings.values():
        if 1 < len(held) <= RARE:
            shared.update(combinations(held, 2))
    for (i, j), n in shared.items():
        if n >= MIN_SHARED:
            score = fuzz.ratio(docs[i].text.words, docs[j].text.words, score_cutoff=THRESHOLD)
            if score:
                yield i, j, score


def _passage(a: SimText, b: SimText) -> tuple[str, int | None, int | None]:
    """The longest line of ``a`` that ``b`` has near-identically, with both line numbers."""
    theirs = [words for _, _, words in b.lines]
    best: tuple[int, str, int | None, int | None] = (0, "", None, None)
    for number, line, words in a.lines:
        size = words.count(" ") + 1
        if size <= best[0]:
            continue
        match = process.extractOne(
            words, theirs, scorer=fuzz.token_sort_ratio, score_cutoff=PASSAGE_CUTOFF
        )
        if match is not None:
            best = (size, line, number, b.lines[match[2]][0])
    return best[1], best[2], best[3]


def find_similar(docs: list[Doc]) -> list[Pair]:
    """Near-identical pairs of parts of one exercise by different students, the closest
    first."""
    by_exercise: dict[str, list[Doc]] = {}
    for d in docs:
        if d.text.size >= MIN_WORDS:
            by_exercise.setdefault(d.exercise, []).append(d)
    pairs = []
    for exercise, group in sorted(by_exercise.items()):
        found = _all_pairs(group) if len(group) <= ALL_PAIRS else _pruned_pairs(group)
        for i, j, score in found:
            a, b = group[i], group[j]
            if a.key == b.key:
                continue  # one student's two files: a resubmission, not a copy
            passage, line_a, line_b = _passage(a.text, b.text)
            pairs.append(Pair(round(score, 1), exercise, a, b, passage, line_a, line_b))
    pairs.sort(key=lambda p: (-p.score, p.exercise, p.a.file, p.b.file))
    return pairs
