"""The Next experiment field: exactly one experiment, aimed at the derived bottleneck."""

from __future__ import annotations

import re

from grader.checks.attention import attention_proposal
from grader.checks.counting import count, items
from grader.checks.registry import Context, Verdict, check
from grader.report.keyword_lists import is_keyword_list
from grader.report.language import has, mentions
from grader.report.model import Report

TARGETS = {
    "movement-bound": "finding or removing the source of the copies/casts/transfers",
    "overhead-bound": "cutting launch and Python overhead (compile, CUDA graphs, batching, fusion)",
    "compute-bound": "kernel-level work on the dominant math",
    "host-bound": "taking the host work off the critical path",
    "communication-bound": "overlapping communication with compute, or making less of it",
}


@check("one-next-experiment")
def one_next_experiment(ctx: Context) -> Verdict:
    """The Next experiment field names exactly one experiment.

    One experiment may have a method and a measurement ("wrap the model call in
    record_function ranges and re-profile to see which op calls to()").  Several distinct
    changes or alternatives fail ("try torch.compile, CUDA graphs, larger batch and a fused
    kernel"), and so does a list of several.

    PASS (partB):
        Next experiment: torch.compile(model, mode="reduce-overhead") and re-measure the
        per-token latency.

    FAIL (partB):
        Next experiment:
        - torch.compile the decode step
        - CUDA graphs
        - batch 8 requests instead of 1

    FAIL (partA):
        Next experiment: cast the KV cache to bf16 at allocation and build the inputs on
        the GPU.
    """
    f = ctx.report.field("next_experiment")
    if f is None:
        return Verdict.no(None, "no Next experiment field with content")
    n, why = count(f)
    evidence = ctx.report.quote_value(f)
    if n == 1:
        return Verdict.yes(evidence, why)
    # two changes, one of them a verb the grader does not know as a change: is it one?
    # ... or a probe and then a change: one experiment if the change fixes what the probe
    # finds, two if it is a guess of its own (labellers split on such fields)
    doubtful = n == 2 and ("another change" in why or why.startswith("a probe and then"))
    return Verdict.no(evidence, why if n == 0 else f"{why}: choose one", review=doubtful)


def _about_movement(text: str) -> bool:
    return has("movement", text) or has("dtype_or_device", text)


def _acts_on_movement(text: str) -> bool:
    return has("locate", text) or has("remove_movement", text)


# The matmul's own speed: "check whether the matmuls run on the bf16 tensor cores (look for
# HMMA kernels)" works on the math, whatever dtype it names.
_MATMUL_SPEED = re.compile(r"\b(?:tensor[- ]?cores?|h?mma|wmma|sol|speed[- ]of[- ]light)\b", re.I)


def _targets(text: str, bottleneck: str, params: dict[str, object]) -> bool:
    if bottleneck == "movement-bound":
        if _MATMUL_SPEED.search(text) and not has("movement", text):
            return False
        about = _about_movement(text)
        action = _acts_on_movement(text)
        if params.get("require_dtype_or_device") and not has("dtype_or_device", text):
            return False
        return about and action
    if bottleneck == "overhead-bound":
        return bool(mentions("fix_overhead", text))
    if bottleneck == "compute-bound":
        return has("fix_compute", text)
    if bottleneck == "communication-bound":
        return has("fix_communication", text)
    return has("fix_host", text)


def experiment_targets(report: Report, bottleneck: str) -> bool:
    """Does the report's Next experiment go after ``bottleneck``?"""
    f = report.field("next_experiment")
    return f is not None and any(_targets(item, bottleneck, {}) for item in items(f))


@check("next-experiment-targets-bottleneck")
def next_experiment_targets_bottleneck(ctx: Context) -> Verdict:
    """The Next experiment goes after the bottleneck the table shows.

    Movement-bound: find or remove the source of the copies (who calls to()/.cpu()/copy_:
    with_stack=True, record_function ranges, a breakpoint; dtype mismatches; tensors made
    on the CPU).  Overhead-bound: cut launch and Python overhead (torch.compile, CUDA graphs,
    batching, fusing the tiny ops); a faster matmul or attention kernel does not count.
    Compute-bound: kernel-level work on the dominant math.  Host-bound: take the host work
    off the critical path.  Communication-bound (a multi-GPU run): overlap the collectives
    with compute, or make fewer or smaller ones (bucket sizes, a different parallel layout).
    An attention kernel proposed here, for a run that is not compute-bound, misses.

    PASS (partA):
        Next experiment: profile with with_stack=True and read which lines call aten::to.

    FAIL (partA):
        Next experiment: autotune the matmul kernels with cuBLASLt.

    FAIL (partB):
        Next experiment: replace the matmul with a tensor-core MMA kernel.
    """
    f = ctx.report.field("next_experiment")
    if f is None:
        return Verdict.no(None, "no Next experiment field with content")
    evidence = ctx.report.quote_value(f)
    if ctx.expected != "compute-bound":
        proposal = attention_proposal(ctx.report)
        if proposal is not None and proposal[0].where == "next_experiment":
            # beside a step that does go after the class, labellers split evenly (34 true,
            # 28 false of 62 labelled, the project's own labels false): a person decides
            beside = any(_targets(item, ctx.expected, ctx.params) for item in items(f))
            return Verdict.no(
                evidence, "an attention kernel does not address this bottleneck", review=beside
            )
    if is_keyword_list(f.value):
        return Verdict.no(evidence, "a list of terms is not an experiment")
    if any(_targets(item, ctx.expected, ctx.params) for item in items(f)):
        return Verdict.yes(evidence, TARGETS[ctx.expected])
    extra = (
        " and mention dtype or device movement" if ctx.params.get("require_dtype_or_device") else ""
    )
    # Half of a movement experiment: the copies named with no way to find or remove them,
    # or a probe with nothing said of what it looks for.
    partial = ctx.expected == "movement-bound" and any(
        _about_movement(item) != _acts_on_movement(item) for item in items(f)
    )
    return Verdict.no(evidence, f"expected {TARGETS[ctx.expected]}{extra}", review=partial)
