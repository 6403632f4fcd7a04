"""Part A's closing parts: one thing not to optimize yet (with why), and named ranges."""

from __future__ import annotations

import re

from grader.analyzer.kinds import base_name, is_namespaced
from grader.checks.common import line_sentences
from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.document import Line
from grader.report.language import _raw, has
from grader.report.leads import section_of, undecorated
from grader.report.model import TextLine
from grader.report.numbers import with_digits

_LABEL = re.compile(r"^([^:\u2014\u2013]{1,80}?)\s*[:\u2014\u2013]\s*")
_LEAD_WORDS = frozenset(_raw()["not_yet_lead_words"].split())
# Words that call the thing small: its reason, whether or not more is said around them.
_SMALL = r"tiny|small|cheap|negligible|trivial|insignificant|minor"
_THING_END = re.compile(
    r"[.;:\u2014\u2013(→⇒]|\s--?\s|\s[-=]>\s|\bbecause\b|\bsince\b|\bb/c\b|\bbc\b|\bcuz\b|,\s*(?:as|but)\b|,\s*(?=\d|only\b|its?\b|they\b|too\b|already\b|just\b)"
    # "slice, tiny", "slice, lots of calls but tiny cuda time": a clause that calls it small
    rf"|,\s*(?=[^,.;]{{0,40}}\b(?:{_SMALL})\b)"
    # "attention, flash is fine": a clause of its own after the thing is its reason
    r"|,\s*(?=(?:\w+\s){0,3}(?:is|are|was|were|has|have|costs?|takes?|looks?|seems?)\b)"
    # "The flash attention kernel, on the ground that it is already ...": a reason's lead
    r"|\b(?:on the grounds? (?:that|of)|given that|seeing (?:as|that)|in view of)\b"
)
_QUOTED = re.compile(r"\"([^\"\n]{1,60})\"|'([^'\n]{1,60})'|“([^”\n]{1,60})”|`([^`\n]{1,80})`")
_NAME = re.compile(r"^[A-Za-z_][\w./:-]{0,48}$")
_API = re.compile(r"torch\.|record_function|nvtx|range_(?:push|pop)|with_stack|profile", re.I)
MIN_REASON_WORDS = 3
_MEASURE = re.compile(r"\d[\d.]*\s*(?:ms|µs|us|%|calls|gib|mib)\b", re.IGNORECASE)
# A reason can be one word when the word is the reason: "slice - tiny", "attention: already flash".
_ONE_WORD_REASON = re.compile(rf"\b(?:{_SMALL}|already|noise)\b", re.I)


# A "not yet" whose words go straight to the reason: "Not yet because reason."
# ("As for what I would not optimize yet, the tokenizer ..." opens with a topic, not a reason)
_NO_THING = re.compile(
    r"^\W*(?:because|since|as(?! (?:for|to|regards|far as|with)\b)|b/c|bc|cuz)\b", re.IGNORECASE
)


# What names no part of the run: "Not yet: premature optimization, since ...", "nothing is
# ready to be optimized yet", "anything glamorous", "not optimizing prematurely".
_VAGUE_WORDS = frozenset(_raw()["not_yet_vague_words"].split())
# "Not yet:", "Not yet —", "not yet → attention": an arrow sets the thing off as a colon does
_LEAD_ONLY = re.compile(
    r"^\W*not (?:yet|now|for now)\W*?(?:[.:\u2014\u2013\u2192\u21d2-]|[-=]>)\W*", re.IGNORECASE
)
_ANYTHING_ON = re.compile(
    r"^\W*(?:anything|everything)\s+(?:on|about|in|for|around|touching|related to|to do with)\s",
    re.IGNORECASE,
)
_NOTHING_FIRST = re.compile(r"^\W*(?:is |are )?(?:nothing|anything|everything)\b", re.IGNORECASE)


def _names_nothing(text: str) -> bool:
    """Does the thing (what comes before the reason) name no part of the run?"""
    text = _LEAD_ONLY.sub("", text)  # "Not yet. I'd leave attention alone."
    m = _THING_END.search(text)
    thing = text[: m.start()] if m else text
    words = {w.lower().strip("*_`'\".,") for w in thing.split()} - {""}
    about = _ANYTHING_ON.match(thing)  # "anything on attention" names attention
    if about is not None:
        rest = words - {w.lower() for w in about.group(0).split()}
        return not rest or rest <= _VAGUE_WORDS
    return bool(_NOTHING_FIRST.match(thing)) or (bool(words) and words <= _VAGUE_WORDS)


_EMPTY_REASON_WORDS = frozenset(_raw()["not_yet_empty_reason_words"].split())


def _gives_reason(reason: str) -> bool:
    """A reason's cue ("because", "only", "already") with something said after it; "because
    of the evidence", "because of the ratios" name nothing about the thing declined (how
    small it is, what it already is, what comes first)."""
    words = {w.lower().strip("*_`'\".,;:()") for w in reason.split()} - {""}
    return has("reason_cue", reason) and not words <= _EMPTY_REASON_WORDS


def _reason(text: str) -> str:
    """What follows the thing named: the reason, with its "because"/"since" kept (numbers said
    in words read as digits: "slice, four hundred thirty six calls but one point four ms")."""
    spelled = with_digits(text)
    if spelled != text and _MEASURE.search(spelled):  # a measure said in words, not "not five"
        text = spelled
    m = _THING_END.search(text)
    if m is None:
        return ""
    start = m.start() if m.group(0)[:1].isalpha() else m.end()
    return text[start:].strip(" ,")


# An answer that turns the question around and says what to work on first ("Optimize the
# attention kernel first because ...") names nothing held off, unless it goes on to defer
# something ("... ; leave slice alone, it is tiny").  (Under "What I would not do yet:",
# "rewrite attention, because ..." is the thing not done: it puts nothing first.)
_DO_NOW = re.compile(
    r"^\W*(?:optimi[sz]e|speed up|tune|rewrite|replace|fix|start (?:with|by)|focus on|go after"
    r"|attack|prioriti[sz]e|work on)\b[^.;]*?\b(?:first|now|right away|immediately|today)\b",
    re.IGNORECASE,
)
_DEFERS = re.compile(
    r"\b(?:not|n[o']t|never|no|later|after|until|till|wait\w*|hold\w*|leav\w*|left|skip\w*"
    r"|ignor\w*|alone|defer\w*|postpon\w*|park\w*|yet)\b",
    re.IGNORECASE,
)


def _does_now(text: str) -> bool:
    """Does the part say only what to optimize now, deferring nothing?"""
    text = undecorated(text)
    return bool(_DO_NOW.match(text)) and not _DEFERS.search(text)


@check("not-yet-with-reason")
def not_yet_with_reason(ctx: Context) -> Verdict:
    """One thing you would not optimize yet, and why.

    Name it and give the reason: "the attention kernel, because it is already a flash
    kernel and the movement is unexplained"; "aten::slice: 436 calls cost only 1.4 ms of
    CUDA time".  Naming the thing alone ("Not yet: slice.") is half the answer.

    PASS (partA):
        Not now: slice, 436 calls but only 1.4 ms of CUDA time.

    FAIL (partA):
        Not yet: attention.
    """
    sections = ctx.report.section("not_yet")
    if not sections:
        said = _said_in_prose(ctx)
        if said is not None:
            return said
        return Verdict.no(None, "looked for a 'Not yet' part or 'I would not ... yet'; none")
    for sec in sections:
        if _does_now(sec.text):
            continue  # under "What not to optimize?": "Optimize the attention kernel first"
        if sec.lead.kind == "heading" or not sec.lead_rest:
            # the lines under a heading, without their numbering ("5.1 I would not ...")
            reason = _reason(_joined(sec.lines[:4]))
        else:
            # its own lines: not the next item of the list the lead stands in
            full = " ".join([sec.lead.text, *(ln.text for ln in _own_lines(sec.lead, sec.lines))])
            label = _LABEL.match(full)
            after = full[label.end() :] if label else full
            words = {w.lower().strip("*_`") for w in (label.group(1).split() if label else [])}
            # "Not yet: slice, because ..." names the thing after the lead; "Not touching
            # attention for now: it is already flash" names it in the lead itself.
            if words <= _LEAD_WORDS and (_NO_THING.match(after) or _names_nothing(after)):
                continue  # "Not yet: because it would be premature" names nothing
            reason = _reason(after) if words <= _LEAD_WORDS else after
        enough = len(reason.split()) >= MIN_REASON_WORDS or _ONE_WORD_REASON.search(reason)
        if enough and _gives_reason(reason):
            # the answer under a lead that only asks ("What are you leaving alone?") is quoted
            answer = sec.lines[0] if (not sec.lead_rest and sec.lines) else sec.lead
            return Verdict.yes(Evidence(answer.number, answer.text))
    first = sections[0]
    return Verdict.no(Evidence(first.lead.number, first.lead.text), "names a thing but not why")


def _joined(lines: tuple[Line, ...]) -> str:
    """Lines as one text: a wrapped line goes on with its sentence; a new item or paragraph
    is a clause of its own ("* I would not write a custom attention kernel now" over "* it's
    already the flash path": the thing, then its reason)."""
    out = ""
    for ln in lines:
        text = undecorated(ln.text)
        out = f"{out}; {text}" if out and ln.first else f"{out} {text}".strip()
    return out


def _own_lines(lead: Line, lines: tuple[Line, ...]) -> list[Line]:
    """Up to three lines under a lead, up to the next item of the list the lead stands in
    ("- not yet: kernel because reason" then "- one next experiment not five")."""
    own: list[Line] = []
    for ln in lines[:3]:
        if lead.kind == "item" and ln.kind == "item" and ln.first and ln.level <= lead.level:
            break
        own.append(ln)
    return own


def _said_in_prose(ctx: Context) -> Verdict | None:
    """ "... I would not touch the attention kernel yet; it's already the flash path." in
    the middle of a paragraph: a sentence that opens as a "not yet" lead, with its reason in
    the same sentence or the next."""
    for tl in ctx.report.text_lines:
        said = line_sentences(tl.text, False)
        for i, sentence in enumerate(said[1:], start=1):  # a line's first is a lead already
            found = section_of(sentence)
            if found is None or found[0] != "not_yet":
                continue
            asked = said[i - 1].rstrip().endswith("?")  # "Should we rewrite attention? Not yet,
            # because it is already flash": the question names the thing
            if asked and _NO_THING.match(found[1]):
                reason = found[1]
                if len(reason.split()) >= MIN_REASON_WORDS and _gives_reason(reason):
                    return Verdict.yes(Evidence(tl.number, tl.text))
            if _NO_THING.match(found[1]) or _names_nothing(found[1]):
                return Verdict.no(
                    Evidence(tl.number, sentence), "gives a reason but names no thing"
                )
            # "I would not touch the attention kernel yet; it's already flash": the lead
            # holds the thing, the reason follows it; "I would not start on attention: the
            # kernel is already flash" names it before the colon, and all after is the reason
            label = _LABEL.match(sentence)
            words = {w.lower().strip("*_`") for w in label.group(1).split()} if label else set()
            rest = " ".join([found[1] or sentence, *said[i + 1 : i + 2]])
            reason = rest if label and not words <= _LEAD_WORDS else _reason(rest)
            if len(reason.split()) >= MIN_REASON_WORDS and _gives_reason(reason):
                return Verdict.yes(Evidence(tl.number, sentence))
            return Verdict.no(Evidence(tl.number, sentence), "names a thing but not why")
    return None


_QUOTE = re.compile(r"[\"']")
_RANGE_WORD = re.compile(r"record_function|nvtx|\brange", re.IGNORECASE)


# A name dictated with its punctuation spoken: "quote build underscore inputs quote".
_SPOKEN_QUOTE = re.compile(r"\bquote ((?:\w+ )*?\w+) (?:end |close |un)?quote\b", re.IGNORECASE)
_SPOKEN_UNDERSCORE = re.compile(r"\s+underscore\s+", re.IGNORECASE)


def _undictated(text: str) -> str:
    if "quote" not in text.lower():
        return text
    return _SPOKEN_QUOTE.sub(lambda m: f'"{_SPOKEN_UNDERSCORE.sub("_", m.group(1))}"', text)


def range_names(text: str) -> list[str]:
    text = _undictated(text)
    names: list[str] = []
    for m in _QUOTED.finditer(text):
        inner = next(g for g in m.groups() if g is not None)
        if m.group(4) is not None and _QUOTE.search(inner):
            names += range_names(inner)
            continue
        inner = inner.strip()
        if _NAME.match(inner) and not _API.search(inner) and inner not in names:
            names.append(inner)
    return names


@check("stretch-named-ranges")
def stretch_named_ranges(ctx: Context) -> Verdict:
    """Bonus: at least two NVTX or record_function ranges, each named exactly.

    Quote or backtick each name, as you would type it: record_function("tokenize"),
    `"h2d_inputs"`, `decode_step`.  "Some NVTX ranges around the main phases" names none.

    PASS (partA):
        Stretch: record_function("tokenize"), record_function("decode_step").

    FAIL (partA):
        Stretch: I'd add some NVTX ranges around tokenization and the forward pass.
    """
    report = ctx.report
    # every line that speaks of ranges, read as written (a list of record_function calls is
    # no finding, but it is the answer here), and the answer under a question about them
    # ("Q: Which ranges would you add?" / "A: `"tokenize"`, ...")
    raw = [ln for ln in report.lines if ln.text.strip()]
    spoken = [
        TextLine(ln.number, ln.text, "body")
        for i, ln in enumerate(raw)
        if _RANGE_WORD.search(ln.text)
        or (i and _RANGE_WORD.search(raw[i - 1].text) and raw[i - 1].text.rstrip().endswith("?"))
    ]
    stretch = report.section_lines("stretch")
    taken = {t.number for t in stretch}
    lines = stretch + [t for t in spoken if t.number not in taken]
    names: list[str] = []
    first_line = None
    # a dispatcher op quoted to point at it ("find the caller of `aten::to`") is what a
    # range would wrap, not a range; so is the table's op named outside the stretch's part
    ops = {base_name(r.name) for r in ctx.exercise.table.rows}
    for tl in lines:
        found = [
            n
            for n in range_names(tl.text)
            if n not in names
            and not is_namespaced(n)
            and (tl.number in taken or base_name(n) not in ops)
        ]
        if found and first_line is None:
            first_line = tl
        names += found
    if len(names) >= 2:
        assert first_line is not None
        return Verdict.yes(
            Evidence(first_line.number, first_line.text), "ranges: " + ", ".join(names)
        )
    if names:
        return Verdict.no(first_line, f"only one named range ({names[0]}); name at least two")
    where = lines[0] if lines else None
    return Verdict.no(where, "no range named exactly (quote or backtick each name)")
