"""Reading helpers shared by several checks: sentences with their lines, diagnoses, claims."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from grader.report.language import claimed, diagnosis_kinds, mentions, sentences, unnegated
from grader.report.model import Report, TextLine
from grader.report.patterns import Pattern

CLASSES = ("movement-bound", "overhead-bound", "compute-bound", "host-bound")
# A reference to a part of the course: "Part A", "In A,", "A's", "A:" (the bare letter only
# in capitals, so the article "A fused kernel" is not read as Part A).
_PART_REF = re.compile(
    r"\b[Pp]art ([ABCabc])\b|\b(?:[Ii]n|[Ff]or|[Uu]nlike|[Vv]ersus|vs\.?|[Tt]han) ([ABC])\b"
    r"|\b([ABC])(?:'s|’s)\b|^\W*([ABC])\s*[:=,]|\b([ABC]) (?:was|had|is|has|needs|needed)\b"
)
_PART_HINT = re.compile(r"[ABC]|[Pp]art")
NOT_A_DIAGNOSIS = ("hypotheses", "experiments", "stretch")


class Sentence(NamedTuple):
    text: str
    line: TextLine


_PRONOUN = re.compile(r"\b(?:those|these|they|this|that|it|both|them)\b", re.IGNORECASE)


def iter_sentences(lines: list[TextLine], join_pronouns: bool = True) -> Iterator[Sentence]:
    """Sentences of each line; one that speaks through a pronoun ("Those need explaining",
    "I want to know where it comes from") is read together with the sentence before it,
    which holds its subject."""
    for tl in lines:
        for s in line_sentences(tl.text, join_pronouns):
            yield Sentence(s, tl)


@lru_cache(maxsize=8192)
def line_sentences(text: str, join_pronouns: bool = True) -> tuple[str, ...]:
    """The sentences of one line as ``iter_sentences`` reads them (remembered: every check
    reads the same lines)."""
    out: list[str] = []
    previous = ""
    for s in sentences(text):
        out.append(f"{previous} {s}" if join_pronouns and previous and _PRONOUN.search(s) else s)
        previous = s
    return tuple(out)


_TURN_TO_OTHER = re.compile(r";|\bwhereas\b|\bwhile\b|\bunlike\b|,?\s\bbut\b")
_TURN_WORDS = (";", "whereas", "while", "unlike", "but")  # a cheap test before the split


@lru_cache(maxsize=8192)
def parts(sentence: str) -> tuple[str, ...]:
    """A sentence cut where it turns to another subject (";", "whereas", "while", "but")."""
    if not any(word in sentence for word in _TURN_WORDS):
        return (sentence,) if sentence.strip() else ()
    return tuple(p for p in _TURN_TO_OTHER.split(sentence) if p.strip())


@lru_cache(maxsize=64)
def own_part(exercise_id: str) -> str | None:
    m = re.fullmatch(r"part([abc])", exercise_id, re.IGNORECASE)
    return m.group(1).lower() if m else None


@lru_cache(maxsize=8192)
def part_refs(text: str) -> frozenset[str]:
    """The parts of the course a text refers to, as lower-case letters."""
    if not _PART_HINT.search(text):
        return frozenset()
    return frozenset(next(g for g in m.groups() if g).lower() for m in _PART_REF.finditer(text))


def about_other_part(text: str, exercise_id: str) -> bool:
    """Does this text speak of another part of the course ("In A, ...", "Part A's ...")?"""
    mine = own_part(exercise_id)
    return mine is not None and bool(part_refs(text) - {mine})


def co_occur(text: str, subject: str, judgement: str) -> bool:
    """A subject and a judgement in one text, neither negated."""
    return bool(mentions(judgement, text)) and bool(mentions(subject, text))


def states_class(text: str, bottleneck: str) -> bool:
    """The text says the run is limited by ``bottleneck`` (not as a question, not negated)."""
    return diagnosis_kind(text, bottleneck) is not None


def has_subject(text: str, bottleneck: str) -> bool:
    """Does ``text`` mention, not negated, what a diagnosis of ``bottleneck`` is about?"""
    return bool(mentions(diagnosis_kinds(bottleneck)[0], text))


@lru_cache(maxsize=8192)
def diagnosis_kind(text: str, bottleneck: str, carried: bool = False) -> str | None:
    """How ``text`` says the run is limited by ``bottleneck``: "claim" for the class named
    outright, else the kind of judgement it makes of the class's subject ("priority",
    "avoidability", "dominance", ...); None when it says nothing of the kind, asks, or negates.

    ``carried``: the subject was named just before, so a pronoun here stands for it
    ("copy_ and to only move data; that is overhead I'd want to get rid of").
    """
    if text.rstrip().endswith("?"):
        return None
    if claimed(bottleneck, text):
        return "claim"
    subject, kinds = diagnosis_kinds(bottleneck)
    if not mentions(subject, text) and not (carried and _PRONOUN.search(text)):
        return None
    for kind, pattern in kinds.items():
        if next(unnegated(pattern, text), None) is not None:
            return kind
    return None


_CLAIM_WORDS = Pattern("bound|bottleneck|dominat|problem|limit|busy")


def claims_class(text: str, bottleneck: str) -> bool:
    """The text names ``bottleneck`` outright as the limit ("this run is compute-bound")."""
    if text.rstrip().endswith("?") or not _CLAIM_WORDS.search(text):
        return False
    return claimed(bottleneck, text)


def diagnosis_lines(report: Report) -> list[TextLine]:
    return [t for t in report.text_lines if t.where not in NOT_A_DIAGNOSIS]


def diagnosis_sentences(report: Report) -> list[Sentence]:
    return report.remember(
        "diagnosis-sentences", lambda: list(iter_sentences(diagnosis_lines(report)))
    )


def find_statement(report: Report, bottleneck: str, exercise_id: str) -> Sentence | None:
    return report.remember(
        ("statement", bottleneck, exercise_id),
        lambda: _find_statement(report, bottleneck, exercise_id),
    )


def _find_statement(report: Report, bottleneck: str, exercise_id: str) -> Sentence | None:
    for s in diagnosis_sentences(report):
        carried = False
        for piece in parts(s.text):
            if about_other_part(piece, exercise_id):
                carried = False
                continue
            if diagnosis_kind(piece, bottleneck, carried) is not None:
                return Sentence(piece.strip(), s.line)
            carried = has_subject(piece, bottleneck)
    return None


_TURN = Pattern(r"\b(?:but|however|actually|in fact|rather|instead)\b")


def retracted(piece: str, expected: str) -> bool:
    """ "It looks compute-bound at first, but actually the copies are the problem": a claim
    taken back by a turn ("but", "actually") that states the expected class after it."""
    turn = _TURN.search(piece)
    return turn is not None and states_class(piece[turn.end() :], expected)


def find_wrong_claim(report: Report, expected: str, exercise_id: str) -> Sentence | None:
    return report.remember(
        ("wrong-claim", expected, exercise_id),
        lambda: _find_wrong_claim(report, expected, exercise_id),
    )


def _find_wrong_claim(report: Report, expected: str, exercise_id: str) -> Sentence | None:
    for s in diagnosis_sentences(report):
        if retracted(s.text, expected):
            continue
        for piece in parts(s.text):
            if not _CLAIM_WORDS.search(piece) or about_other_part(piece, exercise_id):
                continue
            for other in CLASSES:
                if other != expected and claims_class(piece, other):
                    return Sentence(piece.strip(), s.line)
    return None
