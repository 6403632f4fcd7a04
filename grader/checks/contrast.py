"""Part B: the contrast with Part A, as four bullets, and what the top CUDA name means."""

from __future__ import annotations

import re

from grader.checks.common import iter_sentences
from grader.checks.diagnosis import diagnosis_matches
from grader.checks.partrefs import lead_letter, own_part, part_refs
from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.fields import PLACEHOLDERS
from grader.report.language import has, mentions
from grader.report.model import Report, TextLine

# Where a contrast turns from one part to the other: "; whereas while but", a full stop, or a
# comma before the other part's letter ("A matmul = real, B matmul = tiny").
_TURN_OR_STOP = re.compile(
    r";|\bwhereas\b|\bwhile\b|\bbut\b|(?<=\.)\s|,\s*(?=(?:[Ii]n )?(?:[Pp]art )?[ABC](?:'s|’s|:)?\s)"
)


_SIDE_BY_SIDE = re.compile(r"\bvs\.?\b|\bversus\b|\bboth\b|\bunlike\b|\bwhereas\b", re.IGNORECASE)


def contrast_items(report: Report) -> tuple[list[TextLine], TextLine | None]:
    """The top-level items of the contrast's first list, and the contrast's lead line."""
    for sec in report.section("contrast"):
        items = sec.list_items()
        if items and items[0].kind == "item":
            # the whole list, though an item of it opens a part of its own ("- Fused
            # attention: not for now." is the contrast's fourth bullet and a "not yet")
            items = [
                ln
                for ln in report.lines
                if ln.kind == "item"
                and ln.first
                and ln.list_id == items[0].list_id
                and ln.level == items[0].level
                # the lead is no bullet of its own (items may share its line: a JSON list)
                and ln.number >= sec.lead.number
                and ln.block != sec.lead.block
            ]
        lead = TextLine(sec.lead.number, sec.lead.text, "contrast")
        return [TextLine(i.number, i.text, "contrast") for i in items], lead
    # No lead: a list whose items set the parts side by side ("- A: matmul on top ...",
    # "- B: ...") is the contrast, given without a heading.
    lists: dict[int, list[TextLine]] = {}
    for ln in report.lines:
        if ln.kind == "item" and ln.first and ln.level <= 1:
            lists.setdefault(ln.list_id, []).append(TextLine(ln.number, ln.text, "contrast"))
    for listed in lists.values():
        if sum(bool(part_refs(i.text)) for i in listed) >= 2:
            return listed, listed[0]
    # a list of three or more that sets something side by side at least once ("A movement,
    # B overhead", "overhead-bound vs movement-bound", "Both A and B have matmul on top")
    for listed in lists.values():
        if len(listed) >= 3 and any(
            part_refs(i.text) or _SIDE_BY_SIDE.search(i.text) for i in listed
        ):
            return listed, listed[0]
    return [], None


@check("contrast-four-bullets")
def contrast_four_bullets(ctx: Context) -> Verdict:
    """The contrast with Part A is given as four bullets.

    Four list items (bulleted or numbered), not a paragraph and not three or six; a
    template's item left as it was ("- [bullet 3]") is not a bullet given.

    PASS (partB):
        Contrast with A:
        1. A's bottleneck was copies; B's is the host loop.
        2. In B matmul on top means little: each call is tiny.
        3. In A matmul on top was real prefill math.
        4. No attention in B, and the GPU waits on launches.

    FAIL (partB):
        Contrast with Part A. In Part A matmul was real work, whereas in Part B it means
        little, and a fused attention kernel cannot help a GPU that waits on launches.
    """
    items, lead = contrast_items(ctx.report)
    if lead is None:
        return Verdict.no(None, "looked for a contrast with Part A (a 'Contrast'/'vs' part); none")
    empty = [i for i in items if PLACEHOLDERS.match(i.text)]  # "- [bullet 3]", "- TODO"
    if len(items) == 4 and not empty:
        return Verdict.yes(lead, "four bullets")
    if empty:
        return Verdict.no(
            Evidence(empty[0].number, empty[0].text),
            f"{len(items) - len(empty)} of the {len(items)} bullets have something in them",
        )
    if not items:
        return Verdict.no(lead, "the contrast is a paragraph, not four bullets")
    return Verdict.no(lead, f"the contrast has {len(items)} bullets, not four")


def _meaning_pieces(
    report: Report, own: frozenset[str]
) -> list[tuple[str, frozenset[str], TextLine]]:
    """Sentences of the contrast, and their pieces, each with the parts it speaks of.

    A piece with no part named ("each launch is tiny") speaks of the part named before it
    in the same sentence.
    """
    scope = report.lines_in("contrast") or [t for t in report.text_lines if t.where == "body"]
    out = []
    line_at, line_refs = None, frozenset[str]()  # the parts the line's sentences named last
    for s in iter_sentences(scope, join_pronouns=False):
        if s.line is not line_at:
            line_at, line_refs = s.line, frozenset()
        here = own if _HERE.search(s.text) else frozenset()
        sentence_refs = part_refs(s.text) or here
        # "- Part B: matmul on top is trivia. Each call is tens of microseconds.": a sentence
        # that names no part goes on speaking of the part its line named
        line_refs = sentence_refs or line_refs
        out.append((s.text, line_refs, s.line))
        carried: frozenset[str] = line_refs if not sentence_refs else frozenset()
        run = ""  # the pieces in a row that speak of the same part, read together
        for piece in _TURN_OR_STOP.split(s.text):
            if not piece.strip():
                continue
            refs = (
                part_refs(piece)
                or _bare_lead(piece, sentence_refs)
                or (own if _HERE.search(piece) else carried)
            )
            run = f"{run} {piece}" if refs == carried and run else piece
            carried = refs
            out.append((piece, carried, s.line))
            if run != piece:  # "B: matmul on top = the biggest of 240 crumbs while the GPU idles"
                out.append((run, carried, s.line))
    return out


def _bare_lead(piece: str, sentence_refs: frozenset[str]) -> frozenset[str]:
    """The part a piece opens with by its bare letter, when the sentence names the parts that
    way ("A matmul = real" in "A matmul = real, B matmul = tiny")."""
    letter = lead_letter(piece)
    return frozenset(letter) if letter and letter in sentence_refs else frozenset()


_COMMA = re.compile(r",\s*")


def _said_of_top(piece: str) -> str:
    """The piece without its comma clauses whose subject is the copies, not the math: in
    "A: matmul top, copies big" nothing is said of matmul."""
    clauses = _COMMA.split(piece)
    if len(clauses) < 2:
        return piece
    return ", ".join(c for c in clauses if not _opens_with_movement(c) or has("math", c))


def _opens_with_movement(clause: str) -> bool:
    head = " ".join(clause.split()[:3])
    return bool(mentions("movement", head))


# Words that point at the part being written ("here the top op is 240 launches").
_HERE = re.compile(r"\b(?:here|this (?:table|run|part|one|case|profile|time)|now)\b", re.I)


@check("top-cuda-meaning")
def top_cuda_meaning(ctx: Context) -> Verdict:
    """What the top CUDA name means in each part.

    In A, matmul on top is real prefill math (with movement close behind); in B, matmul on
    top means little, since each call is tiny and the GPU is mostly idle waiting for the
    host.  Both halves are needed.

    PASS (partB):
        - A: matmul on top is actual heavy math for a long prefill.
        - B: matmul on top is 240 tiny calls; the GPU is mostly idle.

    FAIL (partB):
        - Part A: matmul was the top CUDA op, so the math is the bottleneck.
        - Part B: matmul is again the top CUDA op, same story, just a smaller model.
    """
    a_half = b_half = None
    for whole, refs, tl in _meaning_pieces(ctx.report, frozenset(own_part(ctx.exercise.id) or "")):
        piece = _said_of_top(whole)
        if "a" in refs and "b" not in refs and has("top_name", piece) and has("real_work", piece):
            a_half = a_half or tl
        if (
            "b" in refs
            and "a" not in refs
            and has("top_name", piece)
            and mentions("means_little", piece)  # "the GPU isn't idle" says it means much
            and not mentions("gpu_busy", piece)  # "the GPU is saturated by small GEMMs"
        ):
            b_half = b_half or tl
    if a_half and b_half:
        # B's half says the GPU waits on the host: a report whose diagnosis the grader
        # reads otherwise says two things (no labelled report passes one and fails the other)
        return Verdict.yes(
            b_half, "both parts' top CUDA names explained", review=not diagnosis_matches(ctx).passed
        )
    # one half explained: the other may be said in words the grader does not know
    if a_half:
        return Verdict.no(
            a_half, "explains A's matmul as real math, not why B's means little", review=True
        )
    if b_half:
        return Verdict.no(
            b_half, "explains B's matmul, not that A's was real prefill math", review=True
        )
    return Verdict.no(None, "looked for what matmul on top means in A and in B; found neither")
