"""Cut a step's kernel sequence into transformer layers, at the start of the repeating
per-layer sequence.

A layer holds one attention block (attention kernels with no GEMM between them).  Where a
layer starts is found from the run itself: the kernels before the first attention block and
before the second are compared backwards, type by type, and the layer starts where they stop
matching (what comes before is the preamble: embedding, position tables).  So separate
q/k/v projections stay in their own layer whatever kernel a model starts its layers with.
The last layer ends where its kernels stop matching the layer before it, so a head after
it (final norm, LM or MLM head, sampling) is not part of it.  Utility and memory kernels
(OTHER, MEMORY) are not compared: they vary between layers and between vendors.
"""

from __future__ import annotations

import statistics
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field

from grader.traces.kernels import UNKNOWN, UTILITY
from grader.traces.link import Kernel

SEQUENCE_TYPES = ("ATTENTION", "LINEAR", "MOE", "QUANTIZATION", "COMMUNICATION", "NORM")
GROUP_BREAKERS = ("LINEAR", "MOE")  # a GEMM between two attention kernels: two blocks


@dataclass
class Layer:
    kernels: list[Kernel]
    stage: str = UNKNOWN
    source: str = "none"
    step: int = 0
    types: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        self.types = tuple(k.type for k in self.kernels if k.type in SEQUENCE_TYPES)


@dataclass(frozen=True)
class Shape:
    """Where layers start before their attention block, and how long they are (both counted
    in structural kernels: those that are not utility or memory)."""

    lead: int
    length: int


class Structure:
    """The structural kernels of a sequence and its attention blocks, in structural positions."""

    def __init__(self, kernels: Sequence[Kernel]) -> None:
        self.kernels = kernels
        self.pos = [i for i, k in enumerate(kernels) if k.type not in UTILITY]
        self.sig = [kernels[i].type for i in self.pos]
        self.groups: list[tuple[int, int]] = []  # (first, last) structural position
        open_group = False
        for s, t in enumerate(self.sig):
            if t == "ATTENTION":
                if open_group:
                    self.groups[-1] = (self.groups[-1][0], s)
                else:
                    self.groups.append((s, s))
                    open_group = True
            elif t in GROUP_BREAKERS:
                open_group = False
        self.firsts = [g[0] for g in self.groups]

    def in_range(self, lo: int, hi: int) -> list[tuple[int, int]]:
        """Attention blocks whose first kernel lies in structural positions [lo, hi)."""
        firsts = self.firsts
        return self.groups[bisect_left(firsts, lo) : bisect_left(firsts, hi)]

    def shape(self, groups: list[tuple[int, int]], lo: int) -> Shape | None:
        """The lead and length of the layers of one step, from its first two blocks."""
        if len(groups) < 2:
            return None
        (a0, e0), (a1, _) = groups[0], groups[1]
        cap = min(a1 - e0 - 1, a0 - lo)
        lead = 0
        while lead < cap and self.sig[a0 - lead - 1] == self.sig[a1 - lead - 1]:
            lead += 1
        gaps = [b[0] - a[0] for a, b in zip(groups, groups[1:], strict=False)]
        return Shape(lead, int(statistics.median(gaps)))

    def layers(self, groups: list[tuple[int, int]], lo: int, hi: int, shape: Shape) -> list[Layer]:
        """The layers of one step whose structural positions are [lo, hi)."""
        starts = []
        for i, (a, _) in enumerate(groups):
            floor = groups[i - 1][1] + 1 if i else lo
            starts.append(max(floor, a - shape.lead))
        out = []
        for i, start in enumerate(starts):
            last = i + 1 == len(starts)
            end = self._last_end(groups, start, hi, shape) if last else starts[i + 1]
            first = self.pos[start]
            stop = self.pos[end - 1] + 1 if last else self.pos[end]
            out.append(Layer(list(self.kernels[first:stop])))
        return out

    def _last_end(self, groups: list[tuple[int, int]], start: int, hi: int, shape: Shape) -> int:
        """The end of a step's last layer: as far as it goes on like the layer before it."""
        last = groups[-1][1] + 1
        limit = min(hi, start + shape.length)
        if len(groups) < 2:
            return max(last, limit)
        prev = groups[-2][1] + 1
        prev_stop = max(prev, start)  # the layer before ends where this one starts
        n = 0
        while (
            last + n < limit and prev + n < prev_stop and self.sig[last + n] == self.sig[prev + n]
        ):
            n += 1
        return last + n
