"""Split a run into steps and decide each step's stage from every signal the trace has.

Steps are separated by their annotations (SGLang ``step[...]``, vLLM ``execute_...``; or
the profiler's ``ProfilerStep#N``), and, where no annotation states a phase, by idle gaps
on the device: a gap far longer than the usual one between kernels, that does not fall
inside the regular run of layers (a host hiccup inside a layer is not a new step).

A step's stage comes, in this order, from:

1. ``annotation``: the phase its annotation states (a vLLM step batching prefill and
   decode requests, or SGLang's ``MIXED``, is MIXED);
2. ``work``: among steps with the same number of layers, a prefill step's GEMMs and
   attention do many times the work of a decode step's (device time per layer, with the
   grid in workgroups, where known, not saying otherwise);
3. ``name``: attention kernels named for a phase; a step holding any prefill-named one is
   prefill (decode kernels may run inside a prefill step, never the other way round);
4. ``graph``: every layer replayed from one CUDA/HIP graph, as serving engines run decode;
5. ``grid``: most of the step's compute kernels launch a small grid (compute kernels only:
   utility kernels have small grids in every phase and never vote).
"""

from __future__ import annotations

import statistics
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from grader.traces.kernels import (
    COMPUTE,
    DECODE,
    MIXED,
    PREFILL,
    UNKNOWN,
    stage_by_grid,
    stage_by_name,
)
from grader.traces.layers import Layer, Shape, Structure
from grader.traces.link import Kernel

IDLE_GAP_FACTOR = 20.0
IDLE_GAP_MIN_US = 100.0  # an idle gap must be this long, and far above the usual one
MIN_STEP_LAYERS = 4  # steps told apart by the layer sequence alone hold at least this many
WORK_PREFILL = 3.0  # per-layer work at least this many times a step's least: prefill
WORK_DECODE = 1.5  # at most this many times the least: decode


@dataclass
class Step:
    lo: int
    hi: int  # kernel index range [lo, hi)
    layers: list[Layer] = field(default_factory=list)
    stage: str = UNKNOWN
    source: str = "none"

    def kernels(self) -> list[Kernel]:
        return [k for layer in self.layers for k in layer.kernels]


def _gaps(kernels: Sequence[Kernel]) -> list[float]:
    """Idle time on the device before each kernel (after everything before it ended)."""
    out, end = [0.0], float("-inf")
    for i, k in enumerate(kernels):
        if i:
            out.append(max(0.0, k.event.ts - end))
        end = max(end, k.event.end)
    return out


def split(kernels: Sequence[Kernel], st: Structure) -> list[tuple[int, int]]:
    """Kernel index ranges of the steps."""
    if not kernels:
        return []
    breaks: set[int] = set()
    last = None
    for i, k in enumerate(kernels):
        if k.step_key is not None:  # a kernel outside every annotation decides nothing
            if last is not None and k.step_key != last:
                breaks.add(i)
            last = k.step_key
    if not any(k.note is not None and k.note.step and k.note.phase for k in kernels):
        breaks |= _idle_breaks(kernels, st)
        cuts = [0, *sorted(breaks), len(kernels)]
        for a, b in zip(cuts, cuts[1:], strict=False):
            breaks |= _sequence_breaks(st, a, b)
    cuts = [0, *sorted(breaks), len(kernels)]
    return [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]


def _sequence_breaks(st: Structure, lo: int, hi: int) -> set[int]:
    """Steps run back to back (graph replays with no idle gap) still show in the layer
    sequence: between the last layer of one step and the first of the next come the head
    and the next embedding, so the spacing of attention blocks is longer there than on
    either side.  Such peaks are step breaks when they cut the run into equal parts of at
    least MIN_STEP_LAYERS blocks, as the steps of one model are."""
    a, b = bisect_left(st.pos, lo), bisect_left(st.pos, hi)
    groups = st.in_range(a, b)
    firsts = [g[0] for g in groups]
    spacing = [y - x for x, y in zip(firsts, firsts[1:], strict=False)]
    if len(spacing) < 2 * MIN_STEP_LAYERS - 1:
        return set()
    peaks = [
        j
        for j, gap in enumerate(spacing)
        if all(gap > spacing[n] for n in (j - 1, j + 1) if 0 <= n < len(spacing))
    ]
    starts = [0] + [j + 1 for j in peaks]
    sizes = {y - x for x, y in zip(starts, [*starts[1:], len(firsts)], strict=False)}
    if len(starts) < 2 or len(sizes) != 1 or sizes.pop() < MIN_STEP_LAYERS:
        return set()
    shape = st.shape(groups, a)
    lead = shape.lead if shape is not None else 0
    out = set()
    for j in starts[1:]:
        floor = groups[j - 1][1] + 1
        out.add(st.pos[max(floor, firsts[j] - lead)])
    return out


def _idle_breaks(kernels: Sequence[Kernel], st: Structure) -> set[int]:
    """Gaps far longer than the usual one that do not fall inside the regular run of layers:
    a host stall between two layers of one step (a sync, a compile) is not a new step."""
    gaps = _gaps(kernels)
    usual = statistics.median(gaps[1:]) if len(gaps) > 1 else 0.0
    limit = max(IDLE_GAP_MIN_US, IDLE_GAP_FACTOR * usual)
    firsts = [g[0] for g in st.groups]
    spacing = [b - a for a, b in zip(firsts, firsts[1:], strict=False)]
    regular = statistics.median(spacing) if spacing else 0
    out = set()
    for i, gap in enumerate(gaps):
        if gap > limit:
            s = bisect_left(st.pos, i)  # structural position of the first kernel after it
            j = bisect_left(firsts, s)  # the attention block that follows the gap
            if not (0 < j < len(firsts) and spacing[j - 1] <= regular):
                out.add(i)
    return out


def segment(kernels: Sequence[Kernel]) -> list[Step]:
    """Steps with their layers, the layers' shape learned from the best-covered step."""
    st = Structure(kernels)
    ranges = split(kernels, st)
    bounds = [(bisect_left(st.pos, lo), bisect_left(st.pos, hi)) for lo, hi in ranges]
    per_step = [st.in_range(a, b) for a, b in bounds]
    shapes = [st.shape(g, a) for g, (a, _) in zip(per_step, bounds, strict=True)]
    known = [s for s in shapes if s is not None]
    fallback = Counter(known).most_common(1)[0][0] if known else Shape(0, 0)
    steps: list[Step] = []
    for (lo, hi), (a, b), groups, shape in zip(ranges, bounds, per_step, shapes, strict=True):
        step = Step(lo, hi)
        if groups:
            if shape is None:
                shape = Shape(min(fallback.lead, groups[0][0] - a), fallback.length)
            step.layers = st.layers(groups, a, b, shape)
            for layer in step.layers:
                layer.step = len(steps)
        steps.append(step)
    return steps


def _work(step: Step) -> tuple[float, float]:
    """Device time and workgroups of the step's compute kernels, per layer."""
    kernels = [k for k in step.kernels() if k.type in COMPUTE]
    n = max(1, len(step.layers))
    time = sum(k.event.dur for k in kernels) / n
    groups = 0
    for k in kernels:
        if k.workgroups:
            total = 1
            for w in k.workgroups:
                total *= max(1, w)
            groups += total
    return time, groups / n


def by_annotation(step: Step) -> str | None:
    votes = Counter(
        k.note.phase for k in step.kernels() if k.note is not None and k.note.phase is not None
    )
    return votes.most_common(1)[0][0] if votes else None


def by_work(steps: list[Step]) -> dict[int, str]:
    """Stages from relative work, among undecided steps with the same number of layers."""
    out: dict[int, str] = {}
    groups: dict[int, list[int]] = {}
    for i, s in enumerate(steps):
        if s.layers and s.stage == UNKNOWN:
            groups.setdefault(len(s.layers), []).append(i)
    for members in groups.values():
        if len(members) < 2:
            continue
        work = {i: _work(steps[i]) for i in members}
        least = min(members, key=lambda i: work[i][0])
        low_time, low_groups = work[least]
        if low_time <= 0 or max(w[0] for w in work.values()) < WORK_PREFILL * low_time:
            continue
        for i in members:
            time, wg = work[i]
            ratio = time / low_time
            if ratio >= WORK_PREFILL and not (wg and low_groups and wg < low_groups):
                out[i] = PREFILL
            elif ratio <= WORK_DECODE:
                out[i] = DECODE
    return out


def by_name(step: Step) -> str | None:
    stages = {stage_by_name(k.label) for k in step.kernels() if k.type == "ATTENTION"}
    return PREFILL if PREFILL in stages else DECODE if DECODE in stages else None


def by_graph(step: Step) -> str | None:
    graphs = {k.graph for k in step.kernels() if k.type in COMPUTE}
    return DECODE if len(step.layers) > 1 and len(graphs) == 1 and None not in graphs else None


def by_grid(step: Step) -> str | None:
    votes = [
        stage_by_grid(k.type, k.workgroups)
        for k in step.kernels()
        if k.type in COMPUTE and k.workgroups
    ]
    return PREFILL if votes and votes.count(PREFILL) * 2 > len(votes) else None


def decide(steps: list[Step]) -> None:
    """Set each step's (and its layers') stage and the signal that decided it."""
    for s in steps:
        phase = by_annotation(s)
        if phase in (PREFILL, DECODE, MIXED):
            s.stage, s.source = phase, "annotation"
    for i, stage in by_work(steps).items():
        steps[i].stage, steps[i].source = stage, "work"
    for s in steps:
        if s.stage != UNKNOWN or not s.layers:
            continue
        for source, rule in (("name", by_name), ("graph", by_graph), ("grid", by_grid)):
            found = rule(s)
            if found is not None:
                s.stage, s.source = found, source
                break
    for s in steps:
        for layer in s.layers:
            layer.stage, layer.source = s.stage, s.source
