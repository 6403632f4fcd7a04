"""Claims of a class and dismissals of the copies, read from a report's sentences.

criteria.md, diagnosis-matches: "naming the wrong class as the main limit fails", so the
first claim of each class is found (this part's, not another's, and not taken back by a
turn such as "but actually"); and a diagnosis of movement is defeated by a dismissal of the
copies ("the usual KV-cache bookkeeping", "expected").
"""

from __future__ import annotations

import re

from grader.analyzer.classify import CLASSES
from grader.checks.class_claims import CLAIM_WORDS, EXPECTING, HYPOTHETICAL, claims_class
from grader.checks.common import (
    PRONOUN,
    Sentence,
    diagnosis_sentences,
    line_sentences,
    opens_own,
    parts,
    states_class,
)
from grader.checks.partrefs import about_other_part, own_share
from grader.report.language import concept, has, mentions, names
from grader.report.model import Report
from grader.report.patterns import Pattern

_TURN = Pattern(r"\b(?:but|however|actually|in fact|rather|instead)\b")


def retracted(piece: str, expected: str) -> bool:
    """ "It looks compute-bound at first, but actually the copies are the problem": a claim
    taken back by a turn ("but", "actually") that states the expected class after it."""
    turn = _TURN.search(piece)
    return turn is not None and states_class(piece[turn.end() :], expected)


def find_wrong_claim(report: Report, expected: str, exercise_id: str) -> Sentence | None:
    """The first claim that another class than ``expected`` limits the run."""
    claims = (find_claim(report, c, exercise_id, expected) for c in CLASSES if c != expected)
    found = [c for c in claims if c is not None]
    return min(found, key=lambda s: s.line.number) if found else None


def find_claim(
    report: Report, bottleneck: str, exercise_id: str, expected: str | None = None
) -> Sentence | None:
    """The first statement that ``bottleneck`` limits this run (this part, not another),
    unless the sentence takes it back for ``expected`` ("looks compute-bound at first, but
    actually the copies are the problem")."""
    return _claims(report, exercise_id, expected).get(bottleneck)


def _claims(report: Report, exercise_id: str, expected: str | None) -> dict[str, Sentence]:
    """The first claim of each class, found in one reading of the report."""
    return report.remember(
        ("claims", exercise_id, expected), lambda: _scan_claims(report, exercise_id, expected)
    )


def _scan_claims(report: Report, exercise_id: str, expected: str | None) -> dict[str, Sentence]:
    found: dict[str, Sentence] = {}
    for s in diagnosis_sentences(report):
        if not CLAIM_WORDS.search(s.text):
            continue
        if expected is not None and retracted(s.text, expected):
            continue
        expecting = False  # "I'd expect the step to be bandwidth-heavy but dominated by ..."
        for piece in parts(s.text):
            expecting = expecting or bool(EXPECTING.search(piece))
            if expecting:
                continue
            if about_other_part(piece, exercise_id):
                piece = own_share(piece, exercise_id)
            if not CLAIM_WORDS.search(piece):
                continue
            for bottleneck in CLASSES:
                if bottleneck not in found and claims_class(piece, bottleneck):
                    found[bottleneck] = Sentence(piece.strip(), s.line)
    return found


_COMMA = re.compile(r",\s+")


def movement_dismissed(report: Report) -> Sentence | None:
    """A statement that waves the copies away ("copy_ and to are the usual KV-cache
    bookkeeping", "expected, part of the attention path").  The dismissal must be said of
    the copies: in "the math looks fine, the copies don't" it is said of the math."""
    return report.remember("movement-dismissed", lambda: _movement_dismissed(report))


def _movement_dismissed(report: Report) -> Sentence | None:
    for tl in report.text_lines:
        if not has("dismissal", tl.text) and not has("deferral", tl.text):
            continue  # no word of dismissal on the line at all
        carried = False
        for sentence in line_sentences(tl.text, join_pronouns=False):
            if sentence.rstrip().endswith("?"):
                # "is copy_ at like 5% normal or is even that a smell?" asks; its subject
                # goes on to the answer ("Probably, that's normal for decode.")
                carried = concept("movement").search(sentence) is not None
                continue
            # "They are normal." goes on about the copies; "The slice row is 436 calls but
            # only 1.4 ms, so it's noise." opens with a subject of its own
            carried = carried and bool(PRONOUN.search(sentence)) and not opens_own(sentence)
            for piece in parts(sentence):
                for fragment in _COMMA.split(piece):
                    subject = concept("movement").search(fragment)  # "not chase the copies"
                    other = names("math_talk", fragment) or names("tokenizer", fragment)
                    # "copy_ at 61%, which is the attention compute": a relative clause
                    # speaks of what it follows, whatever else it names
                    relative = carried and _RELATIVE.match(fragment) is not None
                    # "so a new kernel would optimize the part that is already fine" has a
                    # subject of its own: the copies named before are not what it calls fine
                    own = opens_own(fragment)
                    about = subject is not None or (carried and not other and not own) or relative
                    at = subject.start() if subject and not relative else 0
                    if about and _dismisses(fragment, at):
                        return Sentence(fragment.strip(), tl)
                    if subject is not None and any(
                        start >= subject.end() for start, _ in mentions("deferral", fragment)
                    ):
                        return Sentence(fragment.strip(), tl)
                    carried = about
    return None


_RELATIVE = re.compile(r"^\W*(?:which|that|who)\b", re.IGNORECASE)


def _dismisses(fragment: str, subject_at: int) -> bool:
    """A dismissal said after the copies are named ("copy_ and to are the usual ...") and
    not as a supposition ("if the copies turn out to be harmless")."""
    for start, _ in mentions("dismissal", fragment):
        if start > subject_at and not HYPOTHETICAL.search(fragment[:start]):
            return True
    return False
