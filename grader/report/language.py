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


_LIST_SEPARATOR = re.compile(r"[,;]")
_PARENTHESES = re.compile(r"\([^()]*\)")
# Where the main change of a sentence ends and its purpose, reason or method begins: "so
# that ...", "to see ...", "and see whether ...", "by compiling ...", "that fuses ...".
_ASIDE = re.compile(
    r"\s(?:so|so that|because|since|which|in order to|to (?:see|find|check|confirm|make|"
    r"measure|know|learn|identify|locate|tell|get|verify|attribute|compare|read|record|fuse|reduce|"
    r"remove|avoid|cut|eliminate|lower|speed|save|hide|amortize|amortise|shrink|improve|"
    r"increase|boost|raise|reach|hit))\b"
    r"|\s(?:and|then) (?:see|check|watch) (?:if|whether)\b|\sby \w+ing\b|\s(?:that|which) \w+s\b"
    r"|,\s*which\b|\s[\u2014\u2013]\s|\s-\s"
)


_JUDGING_ITEM = re.compile(
    r"\b(?:likely|probably|possibly|clearly|definitely|maybe|surely|almost certainly) "
    r"(?:avoidable|unnecessary|unexplained|suspicious|wasteful|redundant|a bug|bogus)\b"
    r"|\b(?:investigate|explain|check|chase|fix|look at|find out)\w* (?:it |them |this )?first\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def is_keyword_list(text: str) -> bool:
    """A line of bare terms ("copy, cast, dtype, bf16, fp32, tokenizer, CPU, TTFT, ...").

    Such lines name concepts without saying anything about them, so they never count as a
    diagnosis, an explanation or a proposal: keyword stuffing earns nothing.
    """
    lead = concept("glossary_lead").search(text)
    if lead is not None and not _GRAMMAR.search(text[lead.end() :]):
        return True  # "Key terms: copy, cast, dtype, ..." ("Notes. The device time ..." is prose)
    items = [i.strip() for i in _LIST_SEPARATOR.split(text) if i.strip()]
    if len(items) >= 5:
        short = sum(1 for i in items if len(i.split()) <= 3)
        # a terse note that judges what it lists ("2.8 GiB -> movement, likely avoidable,
        # investigate first") says something
        return short / len(items) >= 0.8 and not any(_JUDGING_ITEM.search(i) for i in items)
    return _term_run(text)


# A run of terms with no separators at all ("copy_ 61% 7B decode bf16 fp32 dtype device
# movement .to() .cpu() H2D memcpy ..."): long, no word that builds a sentence, no clause
# mark, and terms of several of the course's concepts side by side.
_GRAMMAR = re.compile(
    r"\b(?:the|a|an|is|are|was|were|be|of|to|and|in|on|for|it|that|this|with|by|as|at|from|"
    r"so|because|but|or|if|then|than|which|i|we|you|they|can|could|would|should|will|do|"
    r"does|has|have)\b",
    re.IGNORECASE,
)
_CLAUSE_MARK = re.compile(r"[,;|→=—–]|(?<!:):(?!:)|\.(?=\s|$)")
_TERM_CONCEPTS = ("movement", "dtype_or_device", "attention_kernel", "locate", "latency", "math")
# A shorter run ("tokenizer CPU TTFT orchestration slice 436", "movement-bound prefill decode
# LLM 4096 bf16") is bare terms too when it joins three of the course's ideas and reads no
# measurement off the table: a terse but real value says what it measured ("tokenizer.encode
# 22 ms CPU, 0 ms CUDA").
_SHORT_RUN_CONCEPTS = (*_TERM_CONCEPTS, "launch_overhead", "tokenizer")
_CLASS_WORD = re.compile(r"\b\w+[- ]bound\b", re.IGNORECASE)
# Words that make a short run a sentence ("find where fp32 tensors get copied into bf16").
_SENTENCE_WORD = re.compile(
    r"\b(?:where|when|who|what|how|why|get|gets|into|onto|using|via|each|every|after|before|"
    r"them|its|my|our|their|not|no|all|find|check|see|look|run|print|log|move|keep|make|use|"
    r"add|put|call|calls|called|should|must|need|needs|happen|happens|cast|casts|copied|moved)\b",
    re.IGNORECASE,
)
_PART_NAME = re.compile(r"\bpart [abc]\b", re.IGNORECASE)
# "matmul add relu": Part B's ops by name, not the verb "add"
_OP_RUN = re.compile(r"\b(?:matmul|add|relu)(?:\W+(?:matmul|add|relu)\b)+", re.IGNORECASE)
_CALL_COUNT = re.compile(r"\b\d+\s*(?:calls|launches)\b", re.IGNORECASE)  # a count, not "who calls"
_OP_TO = re.compile(r"(?<=copy_)\s*(?:\+|and|/|&)?\s*to\b|(?<=copy)\s*(?:\+|/|&)\s*to\b", re.I)
_MEASURE = re.compile(r"\d\s?(?:ms|us|µs|μs|s|%|gib|gb|mib|mb)\b", re.IGNORECASE)


def _term_run(text: str) -> bool:
    words = text.split()
    if len(words) < 5:
        return False
    if _CLAUSE_MARK.search(text):
        # "tokenizer CPU GPU TTFT orchestration latency, encode": a run of terms that is
        # nearly all of the line, whatever trails it after a comma
        chunk = max(_CLAUSE_MARK.split(text), key=lambda c: len(c.split()))
        n = len(chunk.split())
        # ... or a run of twelve words or more, whatever the rest of the line says
        lone = sum(w.isalpha() for w in chunk.split())
        return (
            n >= 5
            and (n >= 0.7 * len(words) or lone >= 12)
            and not _CLAUSE_MARK.search(chunk)
            and _term_run(chunk)
        )
    # ".to()" and "copy_ to" name an op, not the word "to"; "part A" a part, not "a"
    bare = _PART_NAME.sub(" ", _OP_TO.sub(" ", _CALL_COUNT.sub(" ", _OP_RUN.sub(" ops ", text))))
    plain = " ".join(w for w in bare.split() if w.isalpha())
    if _GRAMMAR.search(plain):
        return False
    worded = sum(any(c.isalnum() for c in w) for w in words)  # not "+", "≈"
    if worded >= 12 and sum(has(c, text) for c in _TERM_CONCEPTS) >= 4:
        return True
    # a measurement read off the table makes it a terse value, unless it is a lone number
    # among many terms ("... movement compute bandwidth memory-bound 2.8 GiB")
    if len(_MEASURE.findall(text)) >= max(1, worded // 5) or _SENTENCE_WORD.search(plain):
        return False  # a terse value reads something off the table, or says something
    ideas = sum(has(c, text) for c in _SHORT_RUN_CONCEPTS) + bool(_CLASS_WORD.search(text))
    # "torch.compile CUDA graphs batching fuse MMA tensor cores": tools side by side; a long
    # run needs fewer ideas ("Matmul add relu 240 240 240 launches microseconds Python loop
    # 38 decode GPU idle CPU")
    return (
        ideas >= (2 if worded >= 12 else 3)
        or sum(bool(p.search(text)) for p in change_kinds().values()) >= 3
    )


def strip_asides(text: str) -> str:
    """Drop parentheses, and purpose or reason clauses ("so that ...", "to see ...")."""
    out = _PARENTHESES.sub(" ", text)
    out = _PARENTHESES.sub(" ", out)
    return _ASIDE.split(out, maxsplit=1)[0]
