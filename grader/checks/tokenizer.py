"""Part A's tokenizer: outside GPU execution, yet inside the request's latency."""

from __future__ import annotations

import re

from grader.checks.common import carries_subject, line_sentences
from grader.checks.footnotes import footnote_refs, footnotes
from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.keyword_lists import is_keyword_list
from grader.report.language import has, mentions, names
from grader.report.leads import undecorated


@check("tokenizer-outside-gpu")
def tokenizer_outside_gpu(ctx: Context) -> Verdict:
    """tokenizer.encode runs on the CPU, outside GPU execution, and still adds latency.

    Both halves are needed: that it is CPU-side work with no CUDA time (it never shows in
    GPU time), and that it still adds to request latency (TTFT, time to first token, end to
    end).  Saying only "it's CPU-only, nothing to do on the GPU" or only "it adds 22 ms to
    TTFT" is half the lesson.

    PASS (partA):
        Top CPU / orchestration cost: tokenizer.encode, 22 ms on the CPU and 0 ms CUDA;
        it is outside GPU execution but still adds to TTFT.

    FAIL (partA):
        Top CPU / orchestration cost: tokenizer.encode at 22 ms. It has 0 ms CUDA, so it
        runs purely on the CPU; nothing to do on the GPU side.

    FAIL (partA):
        Latency note: tokenization adds another 22 ms to time-to-first-token.
    """
    cpu_half: Evidence | None = None
    latency_half: Evidence | None = None
    cpu_named = latency_named = False
    notes = footnotes(ctx.report)
    titled = False  # the line before was a title naming the tokenizer ("Q: Tokenizer?")
    headings = {ln.number for ln in ctx.report.lines if ln.kind == "heading"}
    headed = False  # under a heading that names the tokenizer ("## Slide 3 — The tokenizer")
    # the field whose lines so far spoke of the tokenizer ("tokenizer.encode (22 ms)" over
    # "- not on the GPU at all"), or ""
    told_in = ""
    for tl in ctx.report.text_lines:
        title = _title_of_tokenizer(tl.text)
        if tl.number in headings:
            headed = title
        same_field = tl.where in ctx.report.fields and told_in == tl.where
        carried, titled = titled or headed or same_field, title
        for written, note in _with_footnotes(line_sentences(tl.text), notes):
            if is_keyword_list(written):
                carried = False
                continue
            sentence = _TERM_RUN.sub(" ", _SLASH_RUN.sub(" ", written))
            own = bool(mentions("tokenizer", sentence))
            other = names("math", sentence) or names("movement", sentence)
            about = own or ((carried or note) and carries_subject(sentence) and not other)
            carried = about
            if tl.where in ctx.report.fields:
                told_in = tl.where if about or told_in == tl.where else ""
            if not about:
                continue
            cpu = bool(mentions("cpu_side", sentence))
            # "it doesn't really count toward the request; a one-off before the model starts"
            latency = _adds_latency(sentence)
            latency = latency and not sentence.rstrip().endswith("?") and "? " not in sentence
            if cpu and latency and own:
                return Verdict.yes(Evidence(tl.number, written))
            if cpu and not cpu_half:
                cpu_half, cpu_named = Evidence(tl.number, written), own
            if latency and not latency_half:
                latency_half, latency_named = Evidence(tl.number, written), own
    if cpu_half and latency_half:
        # a half said of "it", the tokenizer not named: a person may check it is meant
        implied = not (cpu_named and latency_named)
        return Verdict.yes(
            max(cpu_half, latency_half, key=lambda e: e.line or 0),
            "one half said of it without naming it" if implied else "",
            review=implied,
        )
    if cpu_half or latency_half:
        said, missing = (
            (cpu_half, "that it still adds to latency (TTFT)")
            if cpu_half
            else (latency_half, "that it runs on the CPU, outside GPU execution")
        )
        return Verdict.no(said, f"half the point: never says {missing}")
    return Verdict.no(None, "looked for tokenizer.encode as CPU-side work adding to latency; none")


# Clauses a sentence joins with "; ", ", so", ", but": each says its own thing.
_JOINED_CLAUSES = re.compile(r";\s*|,\s*(?:and so|so|but|which means|meaning)\s", re.IGNORECASE)


def _adds_latency(sentence: str) -> bool:
    """Latency said of the tokenizer as a cost it adds, in one of the sentence's clauses: not
    denied anywhere in it ("it doesn't really count toward the request"), and not named
    only as something it is "relevant to" or "interacts" with ("tokenizer, CPU and TTFT all
    interact in the latency picture").  ("..., but the request waits for it before the
    first token, so it belongs in the latency picture" says it, whatever its last clause
    adds.)"""
    if has("latency_denied", sentence):
        return False  # "... doesn't really count toward the request; it's a one-off before ..."
    return any(_clause_adds_latency(c) for c in _JOINED_CLAUSES.split(sentence))


def _clause_adds_latency(clause: str) -> bool:
    found = mentions("latency", clause)
    if not found or has("latency_vague", clause):
        return False
    vague = [start for start, _ in mentions("latency_vague_before", clause)]
    return not vague or any(start < min(vague) for start, _ in found)


_TITLE_END = re.compile(r"[?:]\s*$")
# Three or more bare terms joined by slashes ("tokenizer/TTFT/CPU considerations") name
# ideas side by side and say nothing of them.
_SLASH_RUN = re.compile(
    r"(?<![\w/])[\w.-]+(?:[ \t]?/[ \t]?[\w.-]+){2,}(?![\w/])"  # "tokenizer/TTFT/CPU"
    r"|(?<![\w/])[\w.-]+(?:[ \t]+/[ \t]+[\w.-]+(?:[ \t][\w.-]+)?){2,}(?![\w/])"  # "a / b c / d"
)
# ... and so do three or more of the tokenizer's terms side by side with nothing between
# them but spaces ("tokenizer CPU TTFT host latency"); a value read off the table breaks
# the run ("tokenizer.encode 22 ms CPU, 0 CUDA").
_TERM = r"(?:tokeni[sz]\w*(?:\.encode)?|cpu|gpu|host|ttft|latency|orchestration|overhead|cuda)"
_TERM_RUN = re.compile(rf"\b{_TERM}(?:[ \t]+{_TERM}){{2,}}\b", re.IGNORECASE)


_TICKED_ANSWER = re.compile(r"\s*\[[xX\u2713\u2714]\][^\[]*$")


def _title_of_tokenizer(text: str) -> bool:
    """A short line that names the tokenizer as what follows is about ("Tokenizer?",
    "On the tokenizer:")."""
    text = undecorated(text)  # "Slide 3 — The tokenizer"
    text = _TICKED_ANSWER.sub("", text)  # a form's "Tokenizer — GPU or not?  [x] CPU"
    words = len(text.split())
    # "Tokenizer?", "On the tokenizer:", or a numbered title alone ("2) The tokenizer")
    titled = (words <= 6 and bool(_TITLE_END.search(text))) or (words <= 4 and text[-1:].isalnum())
    return titled and has("tokenizer", text)


def _with_footnotes(sentences: tuple[str, ...], notes: dict[str, str]) -> list[tuple[str, bool]]:
    """Each sentence, followed by the text of each footnote it refers to ("host-only.[3]"),
    which goes on speaking of the sentence's subject."""
    out: list[tuple[str, bool]] = []
    for sentence in sentences:
        out.append((sentence, False))
        out += [(notes[n], True) for n in footnote_refs(sentence) if n in notes]
    return out
