"""Part A's hypotheses for copy_ and to, and an experiment for each."""

from __future__ import annotations

from grader.checks.changes import changes_in
from grader.checks.hypothesis_refs import object_of, objects_of
from grader.checks.pairing import Hypothesis, cause_of, hypotheses, hypothesis_units, tested
from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.language import has
from grader.report.model import Report

# Changes that speed the run up whatever the copies are: trying one and watching the time
# cannot tell whether the copies are casts, transfers or anything else.
_BLIND_TOOLS = frozenset(
    {
        "compile",
        "graphs",
        "batching",
        "fusion",
        "attention_kernel",
        "matmul_kernel",
        "quantization",
        "hardware",
    }
)


def cannot_decide(test: str) -> bool:
    """A "test" that only applies a speed-up tool and looks at no dtype or device:
    "run with CUDA graphs and compare the time" confirms or rejects no hypothesis."""
    kinds = changes_in(test)
    if not kinds or not kinds <= _BLIND_TOOLS:
        return False
    return not has("dtype_or_device", test)  # watching "the copies" tells no cause apart


CAUSE_NAMES = {
    "dtype": "a dtype cast",
    "transfer": "a host/device transfer",
    "offload": "weights or cache offloaded to the CPU",
    "layout": "layout copies (.contiguous)",
    "cache_update": "KV-cache updates",
}


@check("two-hypotheses")
def two_hypotheses(ctx: Context) -> Verdict:
    """At least two distinct, plausible hypotheses for why copy_ and to are present.

    Plausible causes include dtype casts (fp32 inputs or cache meeting bf16 weights),
    host/device transfers (inputs built on the CPU, logits pulled back with .cpu()),
    weights or KV cache offloaded and moved per call, and .contiguous() copies of
    non-contiguous views.  Two wordings of one cause count once.

    PASS (partA):
        Hypotheses:
        1. dtype casts: the KV cache is kept in fp32 and cast to bf16 every layer.
        2. host/device transfers: inputs are built on the CPU and moved to the GPU.

    FAIL (partA):
        Hypotheses:
        1. The inputs are fp32 and get cast to bf16.
        2. There is a precision mismatch, so PyTorch converts tensors to the weights' dtype.
    """
    hyps = hypotheses(ctx.report)
    if not hyps:
        return Verdict.no(None, "looked for hypotheses (a 'Hypotheses' part, H1/H2); none")
    distinct = _distinct(hyps)
    if len(distinct) >= 2:
        second = distinct[1]
        names = [CAUSE_NAMES[h.cause or ""] for h in distinct]
        if _same_kind(distinct):
            # two casts of different tensors: whether they are two causes is a judgement
            return Verdict.yes(
                Evidence(second.line, second.text.splitlines()[0]),
                f"{names[0]} of two different tensors ("
                + ", ".join(object_of(h.text) or "" for h in distinct)
                + ")",
                review=True,
            )
        return Verdict.yes(
            Evidence(second.line, second.text.splitlines()[0]),
            "distinct causes: " + ", ".join(names),
        )
    first = hyps[0]
    detail = (
        f"only one cause ({CAUSE_NAMES[first.cause or '']}), worded {len(hyps)} ways"
        if len(hyps) > 1
        else "only one hypothesis"
    )
    # Two hypotheses the learner set apart, read as one cause: whether they differ (the
    # weights vs. the cache cast, say) is a judgement a person should confirm; and so is a
    # second one in words the grader knows no cause in ("the residual stream copied").
    unread = len(hyps) == 1 and _unread_candidates(ctx.report, first)
    return Verdict.no(
        Evidence(first.line, first.text.splitlines()[0]),
        detail + ("; another is given in words the grader knows no cause in" if unread else ""),
        review=len(hyps) > 1 or unread,
    )


def _unread_candidates(report: Report, found: Hypothesis) -> bool:
    """A unit of the hypotheses part, other than the one read, that says something (four
    words or more) in which no kind of cause is found."""
    return any(
        unit.line != found.line and len(unit.text.split()) >= 4 and cause_of(unit.text) is None
        for unit in hypothesis_units(report)
    )


def _distinct(hyps: list[Hypothesis]) -> list[Hypothesis]:
    """The first hypothesis of each cause: two wordings of one cause count once.  Two casts
    or transfers are still two causes when they act on different tensors, each named
    outright and neither named by the other (the KV cache cast, the weights re-cast)."""
    out: list[Hypothesis] = []
    for h in hyps:
        mine = objects_of(h.text) if h.cause in _OF_A_TENSOR else frozenset()
        if all(
            h.cause != seen.cause
            or (mine and (theirs := objects_of(seen.text)) and not mine & theirs)
            for seen in out
        ):
            out.append(h)
    return out


# Kinds of cause that act on a tensor the hypothesis names; a cache update or a layout copy
# is told by its kind.
_OF_A_TENSOR = frozenset({"dtype", "transfer", "offload"})


def _same_kind(hyps: list[Hypothesis]) -> bool:
    """Are the distinct hypotheses all of one kind, told apart only by what they act on?"""
    return len({h.cause for h in hyps}) < len(hyps)


@check("experiment-per-hypothesis")
def experiment_per_hypothesis(ctx: Context) -> Verdict:
    """An experiment that would confirm or reject each of at least two hypotheses.

    Tests may stand under each hypothesis ("Test: ...", "-> check: ...") or in their own
    part, matched to a hypothesis by number (H1, (a), "For H2"), by the cause they probe,
    or by order.

    PASS (partA):
        H1 fp32 to bf16 casts of the mask. Test: log dtypes at layer entry and re-profile.
        H2 inputs built on the CPU each step. Test: look for Memcpy HtoD rows in the trace.

    FAIL (partA):
        Hypotheses:
        - the weights are partly on the CPU and copied to the GPU per layer
        - the inputs are fp32 and converted to bf16

        Experiment: print model.hf_device_map; a layer on "cpu" confirms hypothesis 1.
    """
    hyps = hypotheses(ctx.report)
    distinct = _distinct(hyps)
    if len(distinct) < 2:
        found = "one distinct cause" if hyps else "none"
        return Verdict.no(None, f"needs two distinct hypotheses to test; found {found}")
    covered = {i: p for i, p in tested(ctx.report).items() if not cannot_decide(p.text)}
    causes = {hyps[i - 1].cause for i in covered}
    tested_distinct = [h for h in distinct if h.cause in causes]
    n = len(tested_distinct)
    if n >= 2:
        second = next(i for i in covered if hyps[i - 1].cause == tested_distinct[1].cause)
        line, text, _ = covered[second]
        by_order = sum(covered[h.number].by_order for h in tested_distinct if h.number in covered)
        return Verdict.yes(
            Evidence(line, text.splitlines()[0]),
            f"{n} of {len(distinct)} hypotheses have an experiment"
            + (" (matched to them by order only)" if by_order else ""),
            review=by_order > 0,
        )
    first = distinct[0]
    return Verdict.no(
        Evidence(first.line, first.text.splitlines()[0]),
        f"{n} of {len(distinct)} hypotheses {'has' if n == 1 else 'have'} an experiment",
        review=n == 1,  # the other's test may be written in a way the grader does not pair
    )
