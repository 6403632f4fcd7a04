"""Plain-language helpers: concepts from the lexicon, clauses, negation and conditionals.

Everything a check knows about words comes from ``data/lexicon.yaml``; this module only
knows how to apply it: find a concept, cut text into sentences and clauses, and decide
whether a mention is negated ("I would NOT write a custom attention kernel yet") or put
strictly after the current work ("only once the casts are gone would I look at attention").
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import islice
from typing import Any

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
