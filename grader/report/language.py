"""Plain-language helpers: concepts from the lexicon, negation and conditionals.

Everything a check knows about words comes from ``data/lexicon.yaml``; this module only
knows how to apply it: find a concept and decide, within the clause around it (clauses.py),
whether a mention is negated ("I would NOT write a custom attention kernel yet") or put
strictly after the current work ("only once the casts are gone would I look at attention").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import islice
from typing import Any

from grader.report.clauses import clause_end, clause_start
from grader.report.patterns import Pattern
from grader.yamlload import package_data


@cache
def _raw() -> dict[str, Any]:
    data: dict[str, Any] = package_data("lexicon.yaml")
    return data


@cache
def concept(name: str) -> Pattern:
    """One regular expression for a concept of the lexicon."""
    raw = _raw()
    if name not in raw or not isinstance(raw[name], list):
        known = ", ".join(k for k, v in raw.items() if isinstance(v, list))
        raise KeyError(f"unknown concept {name!r}; known: {known}")
    return Pattern.of(raw[name])


@cache
def claim(bottleneck: str) -> Pattern:
    return Pattern.of(_raw()["claims"][bottleneck])


@cache
def diagnosis_kinds(bottleneck: str) -> tuple[str, dict[str, Pattern]]:
    """For a class: the concept a diagnosis of it is about, and each kind of judgement that
    makes a mention of that concept a diagnosis (priority, avoidability, dominance, ...)."""
    entry = dict(_raw()["diagnosis"][bottleneck])
    subject = entry.pop("subject")
    entry.pop("whole", None)
    return subject, {kind: Pattern.of(patterns) for kind, patterns in entry.items()}


@cache
def whole_diagnosis(bottleneck: str) -> Pattern | None:
    """Statements that are a diagnosis of the class on their own, naming their own subject
    ("the GPU sits idle" for overhead: the class's definition says the device idles)."""
    patterns = _raw()["diagnosis"][bottleneck].get("whole")
    return Pattern.of(patterns) if patterns else None


@cache
def change_kinds() -> dict[str, Pattern]:
    return {k: Pattern.of(v) for k, v in _raw()["changes"].items()}


@cache
def any_change() -> Pattern:
    """Every kind of change in one expression: one scan tells whether any is named."""
    return Pattern.of([p for v in _raw()["changes"].values() for p in v])


def precompile() -> None:
    """Compile every concept now (a batch does it once, before forking its workers)."""
    raw = _raw()
    for name, value in raw.items():
        if isinstance(value, list) and all(isinstance(p, str) for p in value):
            concept(name)
    for bottleneck in raw["claims"]:
        claim(bottleneck)
    for bottleneck in raw["diagnosis"]:
        diagnosis_kinds(bottleneck)
        whole_diagnosis(bottleneck)
    change_kinds()
    any_change()


@lru_cache(maxsize=32768)
def has(name: str, text: str) -> bool:
    return bool(concept(name).search(text))


# "and"/"or" starting a new predicate ("and probably should", "and is"); a plain "and"
# keeps a negation's scope: "do not swap in FlashAttention-3 or xformers".
_CONJUNCTION = re.compile(
    r"\b(?:and|or|but)\s+(?=(?:probably|maybe|likely|possibly|clearly|certainly|definitely|so|"
    r"then|thus|therefore|should|must|may|might|could|would|will|can|is|are|was|were|seems?|"
    r"looks?)(?:n[\x27\u2019]?t)?\b)"
    # a clause of its own: "a faster kernel can not help when the GPU is already waiting"
    r"|\b(?:when|because|since|whereas)\s+(?=(?:the|it|its|this|that|they|we|there|all|most)\b)"
    # a coordinated clause with a subject of its own: "no attention op here and the GPU is
    # idle anyway"
    r"|\band\s+(?=the (?:gpu|device|cpu|host|kernels?|python loop) (?:is|are|was|sits?|waits?)\b)"
    # "no attention in the table and the bottleneck is the host"
    r"|\band\s+(?=the (?:real |main )?(?:bottleneck|problem|limit|limiter|issue) (?:is|are|was)\b)"
    r"|\s\+\s(?=[a-z])"  # "no attention in table + gpu idle anyway"
    # a clause that affirms with "does": "while it costs no GPU time it does push back ..."
    r"|\b(?=(?:it|this|that|they)\s+(?:does|do|did)\s+(?!not\b|n.t\b)\w)",
    re.IGNORECASE,
)
# ... and a conjunction right before a mention that opens a predicate ("is not free and
# shouldn't need to happen")
_TRAILING_CONJUNCTION = re.compile(r"\b(?:and|or|but)\s+$", re.IGNORECASE)
_PREDICATE = re.compile(
    r"(?:should|must|may|might|could|would|will|can|is|are|was|were|does|do)(?:n[\x27\u2019]?t)?\b",
    re.IGNORECASE,
)


# A negation cue is read within a few words of a mention, so its clause is read at most
# this many characters either side of it: in a text with no clause marks, each mention
# costs a few hundred characters, not the whole text.
NEGATION_REACH = 200


_SAYS_THAT = re.compile(
    r"\b(?:say|said|think|thought|believe|claim|argue|agree|conclude|accept|suggest|find|"
    r"found|concede|assert|call it|mean)\s+that$",
    re.IGNORECASE,
)
_LAST_COPULA = re.compile(r".*\b(is|are|was|were)\b", re.DOTALL)
_RELATIVE = re.compile(r"\b(?:that|which|who)\b")


@lru_cache(maxsize=32768)  # several checks ask about the same mention
def negated(text: str, start: int, end: int, window: int = 8, after: bool = True) -> bool:
    """Is the mention at text[start:end] negated, by a cue before it in its clause (within
    ``window`` words) or by a verdict after it ("... is the wrong next experiment")?"""
    begin = max(clause_start(text, start), start - NEGATION_REACH)
    before = text[begin:start]
    if not _HAS_CONJUNCTION.search(before):
        return _cue_before(before, window) or (after and _verdict_after(text, end))
    # "not model math and probably should not be there": a cue before a conjunction that
    # opens a new predicate belongs to the phrase it stands in, not to the one after it (the
    # conjunction read with the mention after it: "no attention and the GPU waits")
    cuts = [m.end() for m in _CONJUNCTION.finditer(text, begin, end) if m.end() <= start]
    if cuts:
        before = text[cuts[-1] : start]
    if _TRAILING_CONJUNCTION.search(before) and _PREDICATE.match(text, start):
        before = ""  # "... is not free and shouldn't need to happen": the match opens a predicate
    # "bytes that never touch a tensor core is the suspicious part": a cue inside a relative
    # clause of the subject does not reach past the main verb
    relative = _RELATIVE.search(before)
    if relative is not None and not _SAYS_THAT.search(before[: relative.end()]):
        # ("I would not say that this run is overhead-bound": "that" after a verb of saying
        # opens what is said, and the cue before it denies all of it)
        copula = _LAST_COPULA.match(before)
        if copula is not None and relative.start() < copula.start(1):
            before = before[copula.end() :]
    return _cue_before(before, window) or (after and _verdict_after(text, end))


# Any word the splits above look for: most stretches before a mention hold none.
_HAS_CONJUNCTION = re.compile(
    r"\b(?:and|or|but|when|because|since|whereas|that|which|who|does|do|did)\b|\s\+\s",
    re.IGNORECASE,
)


def _cue_before(before: str, window: int) -> bool:
    words = before.split()[-window:]
    return concept("negation_before").search(" ".join(words)) is not None


def _verdict_after(text: str, end: int) -> bool:
    stop = clause_end(text, end, NEGATION_REACH)
    if not text[end:stop].strip() and text[stop : stop + 1] in (":", "=", "\u2014", "\u2013"):
        # "fused attention: wrong": the verdict stands after the mark that follows the name
        stop = clause_end(text, stop + 1, NEGATION_REACH)
    tail = text[end:stop]
    return bool(concept("negation_after").search(tail))


def conditional_after(sentence: str) -> bool:
    """Does the sentence put its proposal strictly after other work ("only after ...")?"""
    return has("conditional_after", sentence)


# No report names one concept this often in one text; a text that does (a line of "not flash
# attention" repeated to the size limit) is read no further than this, so that the time a
# report takes stays bounded whatever it repeats.
MAX_MENTIONS = 512


def unnegated(pattern: Pattern | re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` in ``text`` that are not negated (of the first
    ``MAX_MENTIONS``)."""
    found = islice(pattern.finditer(text), MAX_MENTIONS)
    return (m for m in found if not negated(text, m.start(), m.end()))


@lru_cache(maxsize=32768)
def mentions(name: str, text: str) -> tuple[tuple[int, int], ...]:
    """Where a concept is mentioned in ``text`` and not negated: (start, end) spans."""
    return tuple(m.span() for m in unnegated(concept(name), text))


SUBJECT_NEGATION_WINDOW = 3


@lru_cache(maxsize=32768)
def names(name: str, text: str) -> bool:
    """Is a concept named in ``text`` as a subject: not denied ("no copies", "not the
    copies")?  Only a cue right before the name denies it: in "I can't account for why
    aten::to runs 54 times" the "can't" is the judgement of aten::to, not a denial of it,
    and in "the math is not the problem" the math is still what is spoken of."""
    return any(
        not negated(text, m.start(), m.end(), SUBJECT_NEGATION_WINDOW, after=False)
        for m in concept(name).finditer(text)
    )


@lru_cache(maxsize=32768)
def claimed(bottleneck: str, text: str) -> bool:
    """Does ``text`` claim the class outright ("compute-bound"), not negated?"""
    return next(unnegated(claim(bottleneck), text), None) is not None
