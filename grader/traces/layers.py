"""Group a kernel sequence into transformer layers and decode rounds, and score the result.

Layers: each layer holds one attention block (consecutive ATTENTION kernels).  A layer
starts right after the last GEMM/MoE/attention kernel before it, so its norm, residual add
and any utility kernels belong to it; the last layer of a run is as long as the run's
typical layer, and what follows it (final norm, LM head, sampling) ends the round.
A layer's stage is the majority vote of its kernels' stages (UNKNOWN votes nothing); a tie
is UNKNOWN, and an UNKNOWN layer takes the stage of its neighbour.
Rounds: consecutive decode layers of one step; a round ends at a step boundary (kernels
between layers, an idle gap on the device, or a different step annotation).
Health, as the trace analyzer scores it: round consistency (share of decode rounds with the
most common layer count) and type-sequence consistency (share of a stage's layers whose
compute-kernel type sequence is the stage's most common one), each mapped to 0-100.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from grader.traces.kernels import DECODE, PREFILL, UNKNOWN
from grader.traces.link import Kernel

BOUNDARY_TYPES = ("LINEAR", "MOE", "ATTENTION", "QUANTIZATION")
SEQUENCE_TYPES = ("ATTENTION", "LINEAR", "MOE", "QUANTIZATION", "COMMUNICATION", "NORM")
IDLE_GAP_FACTOR = 20.0
IDLE_GAP_MIN_US = 1000.0


@dataclass
class Layer:
    kernels: list[Kernel]
    stage: str = UNKNOWN
    ends_round: bool = False

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(k.type for k in self.kernels if k.type in SEQUENCE_TYPES)


def _attention_groups(kernels: list[Kernel]) -> list[int]:
    """Index of the first kernel of each run of attention kernels."""
    starts, previous = [], False
    for i, k in enumerate(kernels):
        is_attn = k.type == "ATTENTION"
        if is_attn and not previous:
            starts.append(i)
        if k.type not in ("OTHER", "MEMORY"):
            previous = is_attn
    return starts


def step_breaks(kernels: list[Kernel]) -> set[int]:
    """Indices where a new step starts: a change of step annotation, or (with none) an idle
    gap on the device far longer than the usual gap between kernels."""
    if any(k.step is not None for k in kernels):
        out, last = set(), None
        for i, k in enumerate(kernels):
            if k.step is not None:  # a kernel outside every annotation decides nothing
                if last is not None and k.step != last:
                    out.add(i)
                last = k.step
        return out
    gaps = [kernels[i].event.ts - kernels[i - 1].event.end for i in range(1, len(kernels))]
    if not gaps:
        return set()
    limit = max(IDLE_GAP_MIN_US, IDLE_GAP_FACTOR * max(statistics.median(gaps), 0.0))
    return {i + 1 for i, gap in enumerate(gaps) if gap > limit}


def _back(kernels: list[Kernel], j: int, breaks: set[int]) -> int:
    """From j, the nearest GEMM/attention index at or before it, not crossing a step break;
    -1 when there is none, or -(b + 2) when a break at b stops the walk."""
    while j >= 0:
        if kernels[j].type in BOUNDARY_TYPES:
            return j
        if j in breaks:
            return -(j + 2)
        j -= 1
    return -1


def segment(kernels: list[Kernel]) -> list[Layer]:
    groups = _attention_groups(kernels)
    if not groups:
        return []
    breaks = step_breaks(kernels)
    bounds: list[int] = []
    anchors: list[int] = []
    for g in groups:
        start = -1  # -1: nothing before it says where it starts
        if g in breaks:
            start = g
        else:
            qkv = _back(kernels, g - 1, breaks)  # the GEMM that feeds attention
            if qkv < -1:
                start = -qkv - 2
            elif qkv >= 0:
                if qkv in breaks:
                    start = qkv
                else:
                    prev = _back(kernels, qkv - 1, breaks)  # the previous layer's last GEMM
                    start = prev + 1 if prev >= 0 else (-prev - 2 if prev < -1 else -1)
        if bounds and 0 <= start <= bounds[-1]:
            if g <= bounds[-1] + 1:
                continue  # two attention blocks with no GEMM between them: one layer
            start = bounds[-1] + 1
        bounds.append(start)
        anchors.append(g)
    offsets = [g - b for g, b in zip(anchors, bounds, strict=True) if b >= 0]
    median_offset = int(statistics.median(offsets)) if offsets else 0
    bounds = [
        b if b >= 0 else max(0, g - median_offset) for b, g in zip(bounds, anchors, strict=True)
    ]
    layers: list[Layer] = []
    spans = [
        (a, b)
        for a, b in zip(bounds, bounds[1:], strict=False)
        if not any(a < x <= b for x in breaks)
    ]
    gemms = [sum(k.type in BOUNDARY_TYPES for k in kernels[a:b]) for a, b in spans]
    per_layer = int(statistics.median(gemms)) if gemms else 0
    for i, start in enumerate(bounds):
        end = bounds[i + 1] if i + 1 < len(bounds) else len(kernels)
        cut = min([b for b in breaks if start < b <= end] or [end])
        count = sum(k.type in BOUNDARY_TYPES for k in kernels[start:cut])
        ends_round = i + 1 == len(bounds) or cut < end or (per_layer > 0 and count > per_layer)
        if ends_round and per_layer:
            end = start + _layer_end(kernels[start:cut], per_layer)
        if end > start:
            layers.append(Layer(kernels[start:end], ends_round=ends_round))
    return layers


def _layer_end(window: list[Kernel], gemms: int) -> int:
    """Where a layer followed by the step's tail (final norm, LM head, sampling) ends: right
    after as many GEMM/attention kernels as a whole layer has."""
    seen = 0
    for i, k in enumerate(window):
        if k.type in BOUNDARY_TYPES:
            seen += 1
            if seen == gemms:
                return i + 1
    return len(window)


def vote(layers: list[Layer]) -> None:
    for layer in layers:
        votes = Counter(k.stage for k in layer.kernels if k.stage != UNKNOWN)
        top = votes.most_common(2)
        if not top or (len(top) == 2 and top[0][1] == top[1][1]):
            layer.stage = UNKNOWN
        else:
            layer.stage = top[0][0]
    for i, layer in enumerate(layers):  # an UNKNOWN layer takes its neighbour's stage
        if layer.stage == UNKNOWN:
            before = next((x.stage for x in reversed(layers[:i]) if x.stage != UNKNOWN), None)
            after = next((x.stage for x in layers[i + 1 :] if x.stage != UNKNOWN), None)
            layer.stage = before or after or UNKNOWN


def rounds(layers: list[Layer]) -> list[int]:
    """Layer counts of the decode rounds, in order."""
    out: list[int] = []
    count = 0
    for layer in layers:
        if layer.stage != DECODE:
            if count:
                out.append(count)
            count = 0
            continue
        count += 1
        if layer.ends_round:
            out.append(count)
            count = 0
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


def health(layers: list[Layer], round_sizes: list[int]) -> dict[str, Any]:
    if round_sizes:
        common = Counter(round_sizes).most_common(1)[0][0]
        round_share = sum(1 for r in round_sizes if r == common) / len(round_sizes)
    else:
        round_share = 1.0
    same = total = 0
    for stage in (PREFILL, DECODE):
        seqs = [layer.types for layer in layers if layer.stage == stage]
        if seqs:
            common_seq = Counter(seqs).most_common(1)[0][0]
            same += sum(1 for s in seqs if s == common_seq)
            total += len(seqs)
    type_share = same / total if total else 1.0
    rc, ts = _score(round_share), _score(type_share)
    overall = round((rc + ts) / 2, 1)
    return {
        "round_consistency": {"share": round(round_share, 4), "score": rc, "grade": letter(rc)},
        "type_sequence": {"share": round(type_share, 4), "score": ts, "grade": letter(ts)},
        "overall": overall,
        "grade": letter(overall),
    }


def breakdown(kernels: list[Kernel]) -> dict[str, Any]:
    """The per-stage report of ``grade import-trace --report``."""
    compute = [k for k in kernels if k.event.cat == "kernel"]
    layers = segment(compute)
    vote(layers)
    sizes = rounds(layers)
    kinds: dict[str, dict[str, float]] = {}
    for layer in layers:
        for k in layer.kernels:
            per = kinds.setdefault(k.type, {PREFILL: 0.0, DECODE: 0.0})
            if layer.stage in per:
                per[layer.stage] = round(per[layer.stage] + k.event.dur, 3)
    sources = Counter(k.stage_source for k in compute if k.stage != UNKNOWN)
    return {
        "prefill_layers": sum(1 for x in layers if x.stage == PREFILL),
        "decode_layers": sum(1 for x in layers if x.stage == DECODE),
        "decode_rounds": len(sizes),
        "layers_per_round": Counter(sizes).most_common(1)[0][0] if sizes else 0,
        "stage_source": sources.most_common(1)[0][0] if sources else "none",
        "health": health(layers, sizes),
        "kernel_types": dict(sorted(kinds.items())),
    }
