"""The stage report of ``grade import-trace --report``: layers per stage, decode rounds, and
how regular the segmentation is (its health).

Rounds are the decode steps: the layer counts of consecutive decode layers in one step.
Health, as the trace analyzer scores it: round consistency (share of decode rounds with the
most common layer count), type-sequence consistency (share of a step's layers whose
compute-kernel type sequence repeats that of a layer next to them), and stage coverage (share of
layers whose stage is known), each mapped to 0-100.  With no layer, or no layer of a known
stage, there is nothing to grade: health is "n/a", never A.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from grader.traces.kernels import (
    DECODE,
    MIXED,
    PREFILL,
    UNKNOWN,
    mark_eager_attention,
    stage_by_grid,
    stage_by_name,
)
from grader.traces.layers import Layer
from grader.traces.link import Kernel
from grader.traces.steps import decide, segment

STAGES = (PREFILL, DECODE, MIXED, UNKNOWN)


def rounds(layers: list[Layer]) -> list[int]:
    """Layer counts of the decode rounds: runs of decode layers within one step."""
    out: list[int] = []
    count, step = 0, None
    for layer in layers:
        if layer.stage != DECODE or layer.step != step:
            if count:
                out.append(count)
            count = 0
        step = layer.step
        if layer.stage == DECODE:
            count += 1
    if count:
        out.append(count)
    return out


def _score(share: float) -> float:
    if share >= 0.95:
        return 100.0
    if share >= 0.8:
        return 80.0
    if share >= 0.6:
        return 60.0
    return round(100 * share, 1)


def letter(score: float) -> str:
    return "A" if score >= 90 else "B" if score >= 75 else "C" if score >= 60 else "F"


def _part(share: float) -> dict[str, Any]:
    score = _score(share)
    return {"share": round(share, 4), "score": score, "grade": letter(score)}


def _regular(seqs: list[tuple[str, ...]]) -> int:
    """How many layers repeat the kernel-type sequence of a layer next to them (one or two
    before or after): a run of one block kind, two that alternate (TimeSformer's time and
    space attention), or runs of one kind after another (FLUX's double, then single blocks)."""
    if len(seqs) < 2:
        return len(seqs)
    return sum(
        1
        for i, seq in enumerate(seqs)
        if any(0 <= i + d < len(seqs) and seqs[i + d] == seq for d in (-2, -1, 1, 2))
    )


def health(layers: list[Layer], round_sizes: list[int]) -> dict[str, Any]:
    known = [x for x in layers if x.stage != UNKNOWN]
    if not known:
        why = "no layers were found" if not layers else "no layer's stage is known"
        return {"grade": "n/a", "overall": None, "reason": why}
    if round_sizes:
        common = Counter(round_sizes).most_common(1)[0][0]
        round_share = sum(1 for r in round_sizes if r == common) / len(round_sizes)
    else:
        round_share = 1.0
    groups: dict[tuple[int, str], list[tuple[str, ...]]] = {}
    for x in known:
        groups.setdefault((x.step, x.stage), []).append(x.types)
    same = sum(_regular(seqs) for seqs in groups.values())
    parts = {
        "round_consistency": _part(round_share),
        "type_sequence": _part(same / len(known)),
        "stage_coverage": _part(len(known) / len(layers)),
    }
    overall = round(sum(p["score"] for p in parts.values()) / len(parts), 1)
    return {**parts, "overall": overall, "grade": letter(overall)}


def _legacy_votes(layers: list[Layer]) -> None:
    """The analyzer's rule before the seed's fix: every kernel votes by name, then by grid
    (utility kernels too), a layer takes the majority, and an UNKNOWN layer its
    neighbour's stage.  Only for tests that show what it breaks."""
    for layer in layers:
        votes: Counter[str] = Counter()
        for k in layer.kernels:
            stage = stage_by_name(k.label)
            if stage == UNKNOWN:
                stage = stage_by_grid(k.type, k.workgroups, grid_fallback_for_all=True)
            if stage != UNKNOWN:
                votes[stage] += 1
        top = votes.most_common(2)
        tie = len(top) == 2 and top[0][1] == top[1][1]
        layer.stage, layer.source = (top[0][0], "legacy") if top and not tie else (UNKNOWN, "none")
    for i, layer in enumerate(layers):
        if layer.stage == UNKNOWN:
            before = next((x.stage for x in reversed(layers[:i]) if x.stage != UNKNOWN), None)
            after = next((x.stage for x in layers[i + 1 :] if x.stage != UNKNOWN), None)
            layer.stage = before or after or UNKNOWN


def breakdown(kernels: list[Kernel], *, grid_fallback_for_all: bool = False) -> dict[str, Any]:
    """The per-stage report of the kernels launched inside the profiled window."""
    compute = [k for k in kernels if k.event.cat == "kernel" and k.in_window]
    eager = mark_eager_attention(compute)
    steps = segment(compute)
    layers = [x for s in steps for x in s.layers]
    if grid_fallback_for_all:
        _legacy_votes(layers)
    else:
        decide(steps)
    sizes = rounds(layers)
    kinds: dict[str, dict[str, float]] = {}
    for layer in layers:
        for k in layer.kernels:
            per = kinds.setdefault(k.type, dict.fromkeys(STAGES, 0.0))
            per[layer.stage] = round(per[layer.stage] + k.event.dur, 3)
    sources = Counter(x.source for x in layers if x.stage != UNKNOWN)
    count = Counter(x.stage for x in layers)
    return {
        "layers": len(layers),
        "prefill_layers": count[PREFILL],
        "decode_layers": count[DECODE],
        "mixed_layers": count[MIXED],
        "unknown_layers": count[UNKNOWN],
        "steps": sum(1 for s in steps if s.layers),
        "decode_rounds": len(sizes),
        "layers_per_round": Counter(sizes).most_common(1)[0][0] if sizes else 0,
        "stage_source": sources.most_common(1)[0][0] if sources else "none",
        "eager_attention_blocks": eager,
        "left_out": sum(1 for k in kernels if not k.in_window),
        "health": health(layers, sizes),
        "kernel_types": dict(sorted(kinds.items())),
    }
