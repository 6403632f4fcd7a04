"""Part A: the model math and the data movement named as separate groups, movement suspect."""

from __future__ import annotations

import re

from grader.checks.claims import find_claim, movement_dismissed
from grader.checks.common import (
    NOT_A_DIAGNOSIS,
    find_statement,
    iter_sentences,
    parts,
    states_class,
)
from grader.checks.diagnosis import class_denied, outweighs
from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.clauses import sentences
from grader.report.language import has, mentions, names
from grader.report.model import TextLine


@check("separates-math-from-movement")
def separates_math_from_movement(ctx: Context) -> Verdict:
    """Model math and data movement are named as separate groups, movement as suspect.

    The report names the math (matmul, attention) and the movement (copy_, to) apart, and
    treats the movement as possibly avoidable or needing an explanation, for example
    "matmul + attention are about 70 ms of real math; copy_ + to are about 35 ms of movement
    that may not need to happen".  Counting the copies as model work, calling them normal,
    or listing them without setting them apart fails.

    PASS (partA):
        Top CUDA time: math = matmul 38.4 + FA 31.7 (70 ms); movement = copy_ 19.6 + to
        15.1 (35 ms), unexplained and likely avoidable.

    FAIL (partA):
        Top CUDA time: matmul 38.4 ms, attention 31.7 ms, copy_ 19.6 ms, to 15.1 ms.

    FAIL (partA):
        Top CUDA time: matmul and attention are the math; copy_ and to are the usual
        KV-cache bookkeeping.

    FAIL (partA):
        Top CUDA time: matmul + attention are the math, 70 ms. I would not say this run is
        movement-bound: copy_ and to (35 ms) are the smaller part.
    """
    report = ctx.report
    dismissed = movement_dismissed(report)
    if dismissed is not None:
        return Verdict.no(
            Evidence(dismissed.line.number, dismissed.text), "treats the copies as normal"
        )
    math_claim = find_claim(report, "compute-bound", ctx.exercise.id)
    if math_claim is not None and not outweighs(
        report, "movement-bound", ctx.exercise.id, math_claim
    ):
        return Verdict.no(
            Evidence(math_claim.line.number, math_claim.text), "counts the run as math-bound"
        )
    # "I would not say this run is movement-bound; ... the copies are the smaller part": the
    # movement said not to be the problem is not set apart as the thing to explain
    denied = class_denied(report, "movement-bound", ctx.exercise.id)
    if denied is not None:
        return Verdict.no(
            Evidence(denied.line.number, denied.text), "says the movement is not the problem"
        )
    lumped = next(
        (
            s
            for s in iter_sentences(report.text_lines, join_pronouns=False)
            if s.line.where not in NOT_A_DIAGNOSIS and _lumps(s.text)
        ),
        None,
    )
    if lumped is not None:
        return Verdict.no(
            Evidence(lumped.line.number, lumped.text), "counts the copies as model work"
        )
    math_line = None
    for tl in report.text_lines:
        if _names_math_group(tl.text):
            math_line = tl
            break
    field = report.fields.get("top_cuda")
    # the groups as items of the field, one op a line ("* matmul 38.4ms", "* flash attn
    # 31.7ms", "* copy_ + to = 34.7ms: copies, not compute"): read as one text
    if (
        math_line is None
        and field is not None
        and len(field.value_lines) > 1
        and _names_math_group(". ".join(ln.text for ln in field.value_lines))
    ):
        first = field.value_lines[0]
        math_line = TextLine(first.number, first.text, "top_cuda")
    movement = find_statement(report, "movement-bound", ctx.exercise.id)
    if math_line is None:
        return Verdict.no(None, "looked for the math (matmul, attention) named as a group; none")
    if movement is None:
        # the copies named beside the math with no judgement the grader knows: a person
        # may read one in the learner's own words
        named = any(names("movement", t.text) for t in report.text_lines if t.where == "top_cuda")
        return Verdict.no(
            Evidence(math_line.number, math_line.text),
            "names the math but never sets the copies apart as avoidable or unexplained",
            review=named,
        )
    return Verdict.yes(Evidence(movement.line.number, movement.text))


# A dash sets a clause of its own apart: "it's already flash, and it's real work — swapping
# kernels now would hide nothing about the 35 ms of copies" names no group of both; "matmul +
# attention + copy_ + to — this is all the forward pass" does, before its dash.
_DASH = re.compile(r"\s[\u2014\u2013]\s|\s--?\s")


def _lumps(sentence: str) -> bool:
    """The copies counted in with the math as one group of model work: "the forward pass:
    matmul 38.4, attention 31.7, copy_ 19.6, to 15.1 ms (about 105 ms of transformer
    work)"."""
    for piece in parts(sentence):
        # the groups named together in one clause; a dash may set a clause of its own apart
        if not any(names("math", c) and names("movement", c) for c in _DASH.split(piece)):
            continue
        if has("set_apart", piece) or states_class(piece, "movement-bound"):
            continue
        if mentions("model_work", piece):
            return True
    return False


_NOT_MATH = re.compile(
    r"\b(?:not|isn.t|aren.t|don.t|doesn.t|never)\b(?: \w+){0,3}? "
    r"(?:the |actual |real |model |useful |forward )*"
    r"(?:math|maths|mathematics|work|compute|computed|computing|computation|calculation)\b",
    re.I,
)


def _names_math_group(text: str) -> bool:
    """The math named as a group: "matmul + attention are the model's math", or the copies
    said to be "not model math" beside the math ops they are set against."""
    if not mentions("math", text):
        return False
    if mentions("math_group", text) or _NOT_MATH.search(text):
        return True
    # the math ops, then a turn to the movement: "matmul 38.4 / attn 31.7 ms, but copy_+to
    # = 35 ms - movement that shouldn't be there", or the next sentence ("matmul 38.4ms,
    # attn 31.7ms. copy_+to = 34.7ms, a lot just for moving data around")
    first, *rest = [p for s in sentences(text) for p in parts(s)] or [""]
    return (
        bool(rest)
        and bool(mentions("math", first))
        and not names("movement", first)
        and names("movement", " ".join(rest))
    )
