"""Part A's hypotheses for copy_ and to, and an experiment for each."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.language import _raw
from grader.report.model import Report
from grader.report.patterns import Pattern
from grader.report.sections import Unit

_INLINE_TEST = re.compile(
    r"(?:(?:^|\n|(?<=[.;)]))\s*[*_]*(?:test|check|experiment|how to test|to test|confirm)[*_]*\s*:"
    r"|(?:^|\n)\s*(?:->|→|=>)\s*(?:[*_]*(?:test|check|experiment)[*_]*\s*:)?)",
    re.IGNORECASE,
)
_REF = re.compile(r"\b(?:for\s+)?(?:h|hyp(?:othesis)?\.?\s*)([1-9])\b", re.IGNORECASE)
_ACTION_WORDS = 3


@cache
def _causes() -> dict[str, Pattern]:
    return {k: Pattern.of(v) for k, v in _raw()["causes"].items()}


def cause_of(text: str) -> str | None:
    """The main kind of cause a hypothesis names: most mentions, then the earliest."""
    best: tuple[int, int, str] | None = None
    for kind, pattern in _causes().items():
        hits = list(pattern.finditer(text))
        if hits:
            key = (-len(hits), hits[0].start(), kind)
            best = key if best is None or key < best else best
    return best[2] if best else None


@dataclass(frozen=True)
class Hypothesis:
    index: int  # 1-based, in order
    unit: Unit
    claim: str
    cause: str | None
    inline_test: str


def hypotheses(report: Report) -> list[Hypothesis]:
    out: list[Hypothesis] = []
    for sec in report.section("hypotheses"):
        for unit in sec.units():
            parts = _INLINE_TEST.split(unit.text, maxsplit=1)
            claim = parts[0].strip()
            test = parts[1].strip() if len(parts) > 1 else ""
            out.append(Hypothesis(len(out) + 1, unit, claim, cause_of(claim), test))
    return [h for h in out if h.cause is not None]


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
    seen: dict[str, Hypothesis] = {}
    for h in hyps:
        seen.setdefault(h.cause or "", h)
    first = hyps[0].unit
    if len(seen) >= 2:
        second = list(seen.values())[1].unit
        return Verdict.yes(
            Evidence(second.line, second.text.splitlines()[0]),
            "distinct causes: " + ", ".join(seen),
        )
    detail = (
        f"only one cause ({hyps[0].cause}), worded {len(hyps)} times"
        if len(hyps) > 1
        else "only one hypothesis"
    )
    return Verdict.no(Evidence(first.line, first.text.splitlines()[0]), detail)


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
    if len(hyps) < 2:
        return Verdict.no(None, f"needs two hypotheses to test; found {len(hyps)}")
    covered: dict[int, str] = {h.index: h.inline_test for h in hyps if _is_test(h.inline_test)}
    for unit in [u for sec in ctx.report.section("experiments") for u in sec.units()]:
        if not _is_test(unit.text):
            continue
        target = _target(unit, hyps, covered)
        if target is not None:
            covered.setdefault(target, unit.text)
    if len(covered) >= 2:
        return Verdict.yes(
            Evidence(hyps[1].unit.line, next(iter(covered.values())).splitlines()[0]),
            f"{len(covered)} hypotheses each have a test",
        )
    return Verdict.no(
        Evidence(hyps[0].unit.line, hyps[0].unit.text.splitlines()[0]),
        f"only {len(covered)} of {len(hyps)} hypotheses has an experiment",
    )


_WORD = re.compile(r"[A-Za-z]{2,}")


def _is_test(text: str) -> bool:
    return len(_WORD.findall(text)) >= _ACTION_WORDS


def _target(unit: Unit, hyps: list[Hypothesis], covered: dict[int, str]) -> int | None:
    ref = _REF.search(unit.text)
    if ref:
        return int(ref.group(1))
    if unit.marker:
        for h in hyps:
            if h.unit.marker == unit.marker:
                return h.index
    cause = cause_of(unit.text)
    for h in hyps:
        if h.cause == cause and h.index not in covered:
            return h.index
    for h in hyps:
        if h.index not in covered:
            return h.index
    return None
