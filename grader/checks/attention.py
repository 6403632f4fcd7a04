"""Attention kernels: not proposed while something else limits the run."""

from __future__ import annotations

import re

from grader.checks.common import iter_sentences
from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.clauses import clause_end, clause_start, sentences
from grader.report.document import Line
from grader.report.keyword_lists import is_keyword_list
from grader.report.language import concept, conditional_after, has, mentions, negated, unnegated
from grader.report.model import Report, TextLine

_BARE_ITEM_WORDS = 5
# Fields that ask what the profile shows: a kernel listed there is a reading, not a step.
_READINGS = frozenset({"workload", "hardware", "top_cuda", "top_cpu"})


def _lead_before(report: Report, tl: TextLine) -> str:
    """The paragraph just above a list item (its lead, "Relevant techniques:")."""
    previous = [ln for ln in report.lines if ln.number < tl.number and ln.kind != "item"]
    return previous[-1].text if previous else ""


_ASKS_CHANGE = re.compile(r"\b(?:try|swap|switch|replace)", re.IGNORECASE)
_ATTENTION_WORD = re.compile(r"attention|kernel|\battn\b", re.IGNORECASE)
_NAMES_ATTENTION = re.compile(r"attention|\battn\b", re.IGNORECASE)
_GOES_ON = re.compile(
    r"^\W*(?:and|also|plus|second(?:ly)?|because|since|moreover|furthermore|besides)\b", re.I
)
_WAITS = re.compile(
    r"\b(?:wait\w*|idl\w*|starv\w*|underfed|underutili[sz]\w*)\b|\bfast enough\b"
    r"|\bbottlenecked on (?:the )?(?:cpu|host|python|loop\S*|launch\w*)",
    re.IGNORECASE,
)
# The step judged wrong in its own sentence: "Writing my own attention now would be
# polishing the wrong thing.", "Fused attention is the wrong next step because ..."
_JUDGED_WRONG = re.compile(
    r"\b(?:(?:would|will|is|.s) be|is|are|.s|was) (?:\w+ing )?(?:the |a )?"
    r"(?:wrong|premature|pointless|waste)\b",
    re.IGNORECASE,
)


def attention_proposal(report: Report) -> tuple[TextLine, str] | None:
    return report.remember("attention-proposal", lambda: _attention_proposal(report))


def _attention_proposal(report: Report) -> tuple[TextLine, str] | None:
    """The first line that proposes an attention kernel as a step now, and the sentence.

    The Next experiment field is read even when it is a bare list of terms: whatever is
    listed there is proposed.
    """
    lines = list(report.text_lines)
    f = report.fields.get("next_experiment")
    if f is not None:
        # a line wrapped into the one above is read there ("..., not" / "FlashAttention."):
        # a paragraph's lines are one text
        blocks: dict[int, list[Line]] = {}
        for ln in f.value_lines:
            blocks.setdefault(ln.block, []).append(ln)
        wrapped = {ln.number for b in blocks.values() if len(b) > 1 for ln in b}
        seen = {t.number for t in lines if t.number not in wrapped}
        read = [t.text for t in lines if t.where == "next_experiment" and t.number in seen]
        lines = [t for t in lines if t.number not in wrapped]
        lines += [
            TextLine(b[0].number, " ".join(ln.text for ln in b), "next_experiment")
            for b in blocks.values()
            if len(b) > 1
            or (b[0].number not in seen and not any(b[0].text in text for text in read))
        ]
        lines.sort(key=lambda t: t.number)
    for s in iter_sentences(lines):
        tl = s.line
        if (
            (tl.where == "not_yet" and not _proposed_alongside(s.text))
            or not mentions("attention_kernel", s.text)  # mentioned, and not negated
            # ("I'd also swap it in, in parallel, so it is ready once the loop is fixed": a
            # step now, whatever waits for the loop)
            or (conditional_after(s.text) and not _ALONGSIDE.search(s.text))
            or _JUDGED_WRONG.search(s.text)
            or _conceded(s.text)
        ):
            continue
        # (read in the sentences that name a kernel not declined: "I wouldn't write one: it
        # is already flash. That said, it could be worth flipping to xformers ..." proposes)
        own = " ".join(x for x in sentences(s.text) if mentions("attention_kernel", x))
        if has("described", own) and not _ASKS_CHANGE.search(own):
            continue
        in_next = tl.where == "next_experiment"
        bare_item = (
            len(tl.text.split()) <= _BARE_ITEM_WORDS
            and tl.where not in _READINGS  # the top op named under "Top CUDA time"
            and _is_item(report, tl)
            and not has("glossary_lead", _lead_before(report, tl))
        )
        if in_next or bare_item or _proposed(s.text):
            return tl, s.text
    return _listed_to_try(report)


# A line that lists what to try: "Experiment: profile, torch.compile, FlashAttention-3, ...",
# "... Next experiment: FlashAttention, fused kernels, compile".
_TO_TRY = re.compile(
    r"\b(?:experiments?|next steps?|things to try|to try)\s*[:\u2014\u2013-]\s*(?P<listed>\S.*)$",
    re.IGNORECASE,
)


_PUT_OFF = re.compile(
    r"\b(?:not|no|n't|skip\w*|reject\w*|avoid\w*|later|never|wait\w*|defer\w*|discard\w*"
    r"|rul\w* out|dropp\w*|parked)\b",
    re.IGNORECASE,
)


def _listed_to_try(report: Report) -> tuple[TextLine, str] | None:
    """A bare list of terms given as the experiments to run, outside the Next experiment
    field, that names an attention kernel: whatever is listed there is proposed (the lines
    of a bare list are not among the sentences read above)."""
    for ln in report.lines:
        m = _TO_TRY.search(ln.text)
        if m is None or _PUT_OFF.search(ln.text[: m.start("listed")]):
            continue  # "Experiments I'd skip for now: FlashAttention-3, xformers"
        if is_keyword_list(m.group("listed")) and mentions("attention_kernel", m.group(0)):
            return TextLine(ln.number, ln.text, "experiments"), ln.text
    return None


_BRACKET = re.compile(r"\s*\([^()]*\)")


def _clause_end_past_brackets(sentence: str, end: int) -> int:
    """Where the clause of a mention ends, reading past what stands in brackets right after
    it, which describes it: "a fused Triton attention kernel (QK^T, softmax and PV in one
    pass) is to be prototyped"."""
    stop = clause_end(sentence, end)
    aside = _BRACKET.match(sentence, stop) if sentence[stop : stop + 1] == "(" else None
    return clause_end(sentence, aside.end()) if aside else stop


_CONCESSIVE = re.compile(r"\b(?:although|though|despite|whilst|granted)\W*$", re.IGNORECASE)


def _conceded(sentence: str) -> bool:
    """Every attention kernel in the sentence stands in a clause that concedes a fact and
    goes on to something else ("although FlashAttention-3 is often recommended for long
    prompts, no change to the attention kernel is proposed; instead ...")."""
    spans = mentions("attention_kernel", sentence)
    return bool(spans) and all(
        _CONCESSIVE.search(sentence[: clause_start(sentence, start)]) for start, _ in spans
    )


_HEDGE = re.compile(r"\b(?:maybe|perhaps|might|could|possibly|probably)\b", re.IGNORECASE)


def _declined_and_proposed(report: Report) -> Evidence | None:
    """A clause that declines an attention kernel and hedges it ("maybe not FlashAttention-3
    yet, it could help"): a negation and a proposal at once.  A plain refusal ("I won't be
    swapping in FlashAttention-3") is no doubt."""
    lines = [
        t for t in report.text_lines if _HEDGE.search(t.text) and has("attention_kernel", t.text)
    ]
    for s in iter_sentences(lines):
        read: set[tuple[int, int]] = set()  # each clause once, however many mentions it has
        for m in concept("attention_kernel").finditer(s.text):
            if not negated(s.text, m.start(), m.end()):
                continue
            span = (clause_start(s.text, m.start()), clause_end(s.text, m.end()))
            if span in read:
                continue
            read.add(span)
            if _HEDGE.search(s.text[span[0] : span[1]]) and not conditional_after(s.text):
                return Evidence(s.line.number, s.text)
    return None


def _proposed(sentence: str) -> bool:
    """Is an attention kernel mentioned in ``sentence`` put forward as a step? A proposal
    word must stand in the mention's clause or before it, within the same half of a
    sentence joined by ";": in "matmul and flash attention take 70 ms; copy_ and to add
    another 35 ms" nothing is proposed."""
    read: set[tuple[int, int]] = set()  # each stretch once, however many mentions it has
    for start, end in mentions("attention_kernel", sentence):
        span = (sentence.rfind(";", 0, start) + 1, _clause_end_past_brackets(sentence, end))
        if span in read:
            continue
        read.add(span)
        # the proposal word itself negated proposes nothing: "fused attention doesn't apply"
        if mentions("proposal", sentence[span[0] : span[1]]):
            return True
    return False


# In the part that says what waits, an attention kernel is the thing declined ("Not yet:
# writing a custom attention kernel"), unless a sentence there puts it forward beside the
# work: "... so maybe also try FlashAttention-3", "I'd try xformers there in parallel".
_ALONGSIDE = re.compile(
    r"\b(?:also|in parallel|while we.re (?:at it|in there)|at the same time|meanwhile|"
    r"quick swap|one-line change|side (?:test|experiment|check|project)s?|on the side|"
    r"while (?:the |my |our |we |i )?(?:[\w-]+ ){0,3}(?:run|runs|are running|is running))\b",
    re.IGNORECASE,
)


def _proposed_alongside(sentence: str) -> bool:
    """("I'd also leave the attention kernel alone" declines it: the words of the cue itself
    propose nothing.)"""
    plain = _ALONGSIDE.sub(" ", sentence)
    return plain != sentence and _proposed(plain)


def _is_item(report: Report, tl: TextLine) -> bool:
    return any(ln.number == tl.number and ln.kind == "item" for ln in report.lines)


@check("no-premature-attention-kernel")
def no_premature_attention_kernel(ctx: Context) -> Verdict:
    """No custom, new, fused or faster attention kernel proposed as a step now.

    While copies, casts or launch overhead are unexplained, a new attention kernel (custom
    CUDA/Triton attention, FlashAttention-2/3, fused MHA, xformers) is glamorous work aimed
    at the wrong thing.  Saying you would NOT do it yet passes; so does putting it strictly
    after the real problem ("only once the casts are gone would I look at attention").  Any
    proposal of it now fails, hedged ("maybe also try FlashAttention-3") or not, wherever it
    stands in the report.

    PASS (partA):
        Not yet: I would NOT write a custom attention kernel yet; it is already flash
        attention and the copies are unexplained.

    PASS (partA):
        Only after the casts and copies are explained would I look at FlashAttention-3.

    FAIL (partA):
        Other ideas: maybe also swap in FlashAttention-3 for the attention part.

    FAIL (partC):
        Next experiment: switch the attention to FlashAttention-2.
    """
    if ctx.expected == "compute-bound":
        return Verdict.yes(None, "the run is compute-bound: kernel work may be the next step")
    hit = attention_proposal(ctx.report)
    if hit is None:
        hedged = _declined_and_proposed(ctx.report)
        if hedged is not None:  # "I wouldn't write one yet, maybe try FA3": which is it?
            return Verdict.yes(
                hedged, "declines an attention kernel and proposes one in one breath", review=True
            )
        return Verdict.yes(None, "no attention kernel proposed as a step now")
    tl, sentence = hit
    return Verdict.no(
        Evidence(tl.number, sentence),
        f"proposes an attention kernel while the run is {ctx.expected}",
    )


@check("fused-attention-wrong-here")
def fused_attention_wrong_here(ctx: Context) -> Verdict:
    """Why a fused attention kernel is the wrong next experiment for this table.

    Two things: there is no attention in the table (attention is not the cost), and the GPU
    is waiting on launches and the Python loop, so a faster kernel cannot help.  A reason
    that misses the waiting ("matmul is bigger than attention") is not the one asked for.

    PASS (partB):
        - No attention op shows up in B's table.
        - The GPU waits on Python and kernel launches, so a faster fused attention kernel
          cannot help.

    FAIL (partB):
        - A fused attention kernel is the wrong next step because matmul is bigger than
          attention here.
    """
    report = ctx.report
    # the contrast, and the notes and "not yet" part where a report may answer it apart
    lines = report.lines_in("contrast", "body", "not_yet")
    # a line about attention, and the one after it that goes on with its reason ("And
    # second, because the card is waiting for the clerk")
    scope = [
        t
        for i, t in enumerate(lines)
        if _ATTENTION_WORD.search(t.text)
        or (i and _GOES_ON.match(t.text) and _ATTENTION_WORD.search(lines[i - 1].text))
    ]
    no_cost = next((t for t in scope if has("no_attention_cost", t.text)), None)
    waits = [t for t in scope if has("kernel_cannot_help", t.text) or _gpu_waits(t.text)]
    # the line that says it of attention, before one that only names a kernel ("waiting for
    # Python to launch the next tiny kernel"): that is the line to quote
    waiting = next((t for t in waits if _NAMES_ATTENTION.search(t.text)), None) or next(
        iter(waits), None
    )
    if no_cost and waiting:
        from grader.checks.diagnosis import diagnosis_matches  # it reads attention proposals

        # the GPU said to wait on the host, in a report whose diagnosis the grader reads
        # otherwise: two things said, a person may look (5 of 393 labelled pass one alone)
        return Verdict.yes(
            waiting,
            "no attention in the table, and the GPU waits on the host",
            review=not diagnosis_matches(ctx).passed,
        )
    if scope and not no_cost and not waiting:
        return Verdict.no(scope[0], "gives no reason tied to this table")
    # half of the reason: a person may read the other half in words the grader does not know
    if no_cost:
        return Verdict.no(
            no_cost, "says attention is not the cost, but not that the GPU waits", review=True
        )
    if waiting:
        return Verdict.no(
            waiting, "says the GPU waits, but not that attention is not the cost", review=True
        )
    return Verdict.no(None, "looked in the contrast for why fused attention is wrong here; none")


def _gpu_waits(text: str) -> bool:
    return next(unnegated(_WAITS, text), None) is not None
