"""Reading helpers shared by several checks: sentences with their lines, diagnoses, claims."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from grader.analyzer.classify import CLASSES
from grader.checks.class_claims import asked, claims_class
from grader.checks.partrefs import about_other_part, own_share
from grader.report.clauses import sentences
from grader.report.keyword_lists import is_keyword_list
from grader.report.language import (
    diagnosis_kinds,
    mentions,
    names,
    unnegated,
    whole_diagnosis,
)
from grader.report.model import Report, TextLine

NOT_A_DIAGNOSIS = ("hypotheses", "experiments", "stretch")
DEVICE_WORD = re.compile(r"\b(?:gpu|cuda|device)\b", re.IGNORECASE)


class Sentence(NamedTuple):
    text: str
    line: TextLine
    implied: bool = False  # said without naming its subject: a person may look again
    kind: str = ""  # how it was said: "claim", "priority", "dominance", ...


# "the latter": the last thing named, as in "70 ms of math and 35 ms of movement. The
# latter is not required by the model."
PRONOUN = re.compile(r"\b(?:those|these|they|this|that|it|both|them|the latter)\b", re.IGNORECASE)


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
        out.append(f"{previous} {s}" if join_pronouns and previous and PRONOUN.search(s) else s)
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


def co_occur(text: str, subject: str, judgement: str) -> bool:
    """A subject and a judgement in one text, neither negated."""
    return bool(mentions(judgement, text)) and bool(mentions(subject, text))


def states_class(text: str, bottleneck: str) -> bool:
    """The text says the run is limited by ``bottleneck`` (not as a question, not negated)."""
    return diagnosis_kind(text, bottleneck) is not None


def has_subject(text: str, bottleneck: str) -> bool:
    """Does ``text`` name, not denied, what a diagnosis of ``bottleneck`` is about?"""
    return names(diagnosis_kinds(bottleneck)[0], text)


@lru_cache(maxsize=8192)
def diagnosis_kind(text: str, bottleneck: str, carried: bool = False) -> str | None:
    """How ``text`` says the run is limited by ``bottleneck``: "claim" for the class named
    outright, else the kind of judgement it makes of the class's subject ("priority",
    "avoidability", "dominance", ...); None when it says nothing of the kind, asks, or negates.

    ``carried``: the subject was named just before and nothing else since, so this text may
    speak of it without naming it ("copy_ and to only move data; that is overhead I'd want
    to get rid of"; "movement: copy_ + to, 35 ms. Explain first.").
    """
    if text.rstrip().endswith("?"):
        # "(movement - why?)": asking why the copies are there says they need explaining
        subject, kinds = diagnosis_kinds(bottleneck)
        if "explanation" in kinds and _WHY_ASKED.search(text) and names(subject, text):
            return "explanation"
        return None
    if claims_class(text, bottleneck):
        return "claim"
    whole = whole_diagnosis(bottleneck)
    if whole is not None and next(unnegated(whole, text), None) is not None:
        return "whole"
    subject, kinds = diagnosis_kinds(bottleneck)
    if not carried and not names(subject, text):
        return None
    for kind, pattern in kinds.items():
        if any(not asked(text, m) for m in unnegated(pattern, text)):
            return kind
    return None


_WHY_ASKED = re.compile(r"[\u2014\u2013:(-]\s*why\s*\?+\)?\s*$", re.IGNORECASE)
_LAST_GROUP = r"the (?:second|last|latter|other) (?:group|one|bucket|half|pair|set)"
_PRONOUN_LED = re.compile(
    r"^\W*(?:(?:and|so|but)\W+)?(?:those|these|they|this|that|it|both|them|the latter|"
    # "the second group is suspicious", after the list that names it last
    rf"{_LAST_GROUP}|the (?:second|last|latter|other) (?:line|item|row))\b",
    re.IGNORECASE,
)
# A line that opens by pointing back at the last group named on the line before: "- moving:
# copy_, to -> about 35 ms" / "The second group is suspicious."
_GROUP_BACK = re.compile(rf"^\W*{_LAST_GROUP}\b", re.IGNORECASE)
# A name the report gives a group by listing its rows after it: "the plumbing (copy_, to:
# ~35 ms)", "bucket two: copy_ + to".  "The plumbing should mostly vanish" then speaks of it.
_NAMED_GROUP = re.compile(r"\bthe ((?:[a-z]+ )?[a-z]+)\s*(?:\(([^()]*)\)|:\s*([^.;]*))", re.I)
_OPENING = re.compile(r"^\W*(?:(?:and|so|but|then|which|thus|hence)\W+)?(\w+)")
_DETERMINERS = frozenset(
    [
        "the",
        "a",
        "an",
        "my",
        "our",
        "their",
        "your",
        "his",
        "her",
        "its",
        "each",
        "every",
        "all",
        "some",
        "any",
        "one",
        "no",
    ]
)


def opens_own(sentence: str) -> bool:
    """Does the sentence open with a noun phrase of its own ("The slice row ...")?"""
    m = _OPENING.match(sentence)
    return m is not None and m.group(1).lower() in _DETERMINERS


def carries_subject(piece: str) -> bool:
    """Can ``piece`` speak of the subject named before it without naming it?  Through a
    pronoun ("that is overhead I'd want gone"), or by having no subject of its own ("Not
    needed by the model.", "Explain first.").  A piece that opens with a noun phrase of its
    own ("The GPU is the slow side") speaks of that."""
    if PRONOUN.search(piece):
        return True
    m = _OPENING.match(piece)
    return m is None or m.group(1).lower() not in _DETERMINERS


@lru_cache(maxsize=64)
def _other_subjects(bottleneck: str) -> tuple[str, ...]:
    """What diagnoses of the other classes are about: a text that names one of these speaks
    of something else, and carries no subject over."""
    own = diagnosis_kinds(bottleneck)[0]
    names = {diagnosis_kinds(c)[0] for c in CLASSES if c != bottleneck}
    return tuple(sorted(n for n in names if n != own))


def speaks_of_other(text: str, bottleneck: str) -> bool:
    return any(names(name, text) for name in _other_subjects(bottleneck))


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
    return next(statements(report, bottleneck, exercise_id), None)


def statements(report: Report, bottleneck: str, exercise_id: str) -> Iterator[Sentence]:
    """Every statement of ``bottleneck`` as the limit, in order.  A line's subject carries over to
    its later sentences and clauses until they name something else.  A sentence that turns
    to another class ("copy_ is 61%, but attention is the real problem") states none."""
    others = [c for c in CLASSES if c != bottleneck]
    named_last = False  # did the line before end on the class's subject?
    for tl in diagnosis_lines(report):
        carried = named_last and bool(_GROUP_BACK.match(tl.text))
        named_last = False
        alias = _group_name(tl.text, bottleneck)
        for sentence in line_sentences(tl.text):
            if is_keyword_list(sentence):
                carried = False
                continue  # a sentence of bare terms inside a paragraph states nothing
            if tl.where == "next_experiment" and mentions("attention_kernel", sentence):
                # "Next experiment: enable FlashAttention-2 to cut the memory traffic, since
                # copy_ means we're memory-bound": the class serves an attention kernel
                carried = False
                continue
            pieces = parts(sentence)
            if any(claims_class(p, c) for p in pieces[1:] for c in others):
                carried = False
                continue
            for i, piece in enumerate(pieces):
                if about_other_part(piece, exercise_id):
                    piece = own_share(piece, exercise_id)
                if not piece:
                    carried = False
                    continue
                piece = elided(piece, pieces[i - 1] if i else "")
                other = speaks_of_other(piece, bottleneck)
                led = bool(_PRONOUN_LED.match(piece))  # "that is overhead I'd want gone"
                led = led or bool(alias and alias.match(piece) and not other)
                speaks_of_it = carried and (led or (not other and carries_subject(piece)))
                kind = diagnosis_kind(piece, bottleneck, speaks_of_it)
                if kind == "explanation" and tl.where == "next_experiment":
                    kind = None  # "find out who issues the copies" is the experiment itself
                if kind is not None:
                    named = kind in ("claim", "whole") or has_subject(piece, bottleneck) or led
                    yield Sentence(piece.strip(), tl, not named, kind)
                    continue
                if has_subject(piece, bottleneck):
                    carried = True
                elif other:
                    carried = False
            named_last = carried


# "The math is expected; the movement isn't.": the second clause leaves out the word the
# first one ends on.
_BARE_NEGATION = re.compile(
    r"^\W*(?:(?:but|whereas|while)\s+)?[\w_+/ ]{1,40}?\s(?:isn.?t|is not|aren.?t|are not)\W*$",
    re.IGNORECASE,
)
_LAST_PREDICATE = re.compile(r"\b(?:is|are)\s+(\w+)\W*$", re.IGNORECASE)


def elided(piece: str, before: str) -> str:
    """A clause with its predicate left out, given it back from the clause before."""
    if not _BARE_NEGATION.match(piece):
        return piece
    m = _LAST_PREDICATE.search(before)
    return f"{piece.rstrip(' .!')} {m.group(1)}" if m else piece


def _group_name(text: str, bottleneck: str) -> re.Pattern[str] | None:
    """What opens a sentence that speaks of the group ``text`` names by listing the class's
    rows after a name of its own ("the plumbing (copy_, to)"), or None."""
    for m in _NAMED_GROUP.finditer(text):
        rows = m.group(2) or m.group(3) or ""
        name = m.group(1)
        if has_subject(rows, bottleneck) and not has_subject(name, bottleneck):
            lead = r"^\W*(?:(?:and|so|but)\W+)?(?:the|that|this) "
            return re.compile(rf"{lead}{re.escape(name)}\b", re.I)
    return None
