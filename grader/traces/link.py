"""Link GPU work to the host op that launched it, to its step annotation, and type it.

A GPU event and its runtime/driver call share ``args.correlation``.  The op is the cpu_op
with the call's ``External id`` when that op exists on the same thread and spans the call;
else the innermost cpu_op on the launching thread whose span contains the call.  A graph
replay (cudaGraphLaunch/hipGraphLaunch) launches many kernels under one correlation.

Only work launched inside the profiled window counts: when a trace records launches, a GPU
event whose launch is not in it ran for a step before the window (the device lags the host)
and is marked ``in_window=False``.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from operator import attrgetter

from grader.traces.annotations import StepNote, read_annotation
from grader.traces.kernels import UNKNOWN, kernel_type
from grader.traces.reader import Event, Trace

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
RUNTIME_CATS = ("cuda_runtime", "cuda_driver")
SPAN_CATS = ("user_annotation", "python_function")
WORK_ITEM_LAUNCH = "ExtModuleLaunchKernel"  # hipBLASLt's launch: its grid counts work-items


@dataclass(slots=True, eq=False)
class Kernel:
    event: Event
    type: str
    op: Event | None  # the top-level cpu_op it belongs to
    launcher: Event | None  # the runtime call that launched it
    in_window: bool = True
    workgroups: tuple[int, ...] | None = None  # the grid in workgroups, when known
    note: StepNote | None = None  # what the step annotation around it states
    step_key: int | None = None  # which annotated (or ProfilerStep) step it ran in
    label: str = ""  # the name the stage rules read (the kernel's, or "eager attention")
    stage: str = UNKNOWN
    stage_source: str = "none"

    @property
    def graph(self) -> int | None:
        """The graph replay that launched it, if any."""
        if self.launcher is not None and "GraphLaunch" in self.launcher.name:
            return id(self.launcher)
        return None


class _Spans:
    """Nested spans of one thread, for 'which spans contain time t' queries."""

    def __init__(self, spans: list[Event]) -> None:
        self.spans = sorted(spans, key=attrgetter("dur"), reverse=True)
        self.spans.sort(key=attrgetter("ts"))  # stable: at one start, the longest first
        self.starts = [e.ts for e in self.spans]
        self.parent: list[int] = []
        stack: list[int] = []
        for i, e in enumerate(self.spans):
            while stack and self.spans[stack[-1]].end < e.end - 1e-3:
                stack.pop()
            self.parent.append(stack[-1] if stack else -1)
            stack.append(i)

    def innermost(self, t: float) -> int:
        i = bisect.bisect_right(self.starts, t) - 1
        while i >= 0 and not (self.spans[i].ts <= t <= self.spans[i].end):
            i = self.parent[i]
        return i

    def chain(self, t: float) -> list[Event]:
        out, i = [], self.innermost(t)
        while i >= 0:
            out.append(self.spans[i])
            i = self.parent[i]
        return out

    def root_of(self, i: int) -> Event:
        while self.parent[i] >= 0:
            i = self.parent[i]
        return self.spans[i]

    def index_of(self, e: Event) -> int:
        lo = bisect.bisect_left(self.starts, e.ts)
        for i in range(lo, len(self.spans)):
            if self.spans[i] is e:
                return i
            if self.spans[i].ts != e.ts:
                break
        return -1


def _by_thread(events: list[Event]) -> dict[object, _Spans]:
    groups: dict[object, list[Event]] = {}
    for e in events:
        groups.setdefault((e.pid, e.tid), []).append(e)
    return {k: _Spans(v) for k, v in groups.items()}


def workgroups(k: Event, launcher: Event | None) -> tuple[int, ...] | None:
    """The grid in workgroups: hipBLASLt launches count work-items, so divide by the block."""
    grid = k.a.grid or (launcher.a.grid if launcher is not None else None)
    if not grid:
        return None
    block = k.a.block or (launcher.a.block if launcher is not None else None)
    launch = launcher.name if launcher is not None else ""
    items = WORK_ITEM_LAUNCH in launch or (launcher is None and k.name.startswith("Cijk_"))
    if items and block and len(block) == len(grid) and all(b > 0 for b in block):
        return tuple(-(-g // b) for g, b in zip(grid, block, strict=True))
    return tuple(grid)


class _Notes:
    """Step annotations by thread, and on the device for kernels with no launch record."""

    def __init__(self, trace: Trace, ignore_annotations: bool) -> None:
        def keep(note: StepNote | None) -> bool:
            return note is not None and (not ignore_annotations or note.source == "profiler")

        known: dict[str, StepNote | None] = {}  # by name: Python stacks repeat their frames

        def wanted(e: Event) -> bool:
            if e.name not in known:
                note = read_annotation(e.name)
                known[e.name] = note if keep(note) else None
            return known[e.name] is not None

        self.note = known.get

        self.threads = _by_thread([e for e in trace.of(*SPAN_CATS) if wanted(e)])
        self.gpu = [e for e in trace.of("gpu_user_annotation") if wanted(e)]

    def around(self, g: Event, launcher: Event | None) -> tuple[StepNote | None, int | None]:
        """The phase stated around a kernel, and its step: the outermost span around it that
        states a phase, else the outermost step span (ProfilerStep#N)."""
        chain: list[Event] = []
        if launcher is not None:
            spans = self.threads.get((launcher.pid, launcher.tid))
            if spans is not None:
                chain = spans.chain(launcher.ts)
        if not chain:
            chain = [s for s in self.gpu if s.ts <= g.ts <= s.end]
        phase: StepNote | None = None
        key: int | None = None
        stated = False
        for span in reversed(chain):  # outermost first
            note = self.note(span.name)
            if note is None:
                continue
            if note.step and not stated:  # the outermost span that states a phase, if any
                key, stated = id(span), note.phase is not None
            if phase is None and note.phase is not None:
                phase = note
        return phase, key


def link_kernels(trace: Trace, *, ignore_annotations: bool = False) -> list[Kernel]:
    ops = trace.of("cpu_op")
    op_threads = _by_thread(ops)
    by_external: dict[int | None, Event] = {
        e.a.external_id: e for e in ops if e.a.external_id is not None
    }
    runtime: dict[int | None, Event] = {
        e.a.correlation: e for e in trace.of(*RUNTIME_CATS) if e.a.correlation is not None
    }
    notes = _Notes(trace, ignore_annotations)
    kernels = []
    for g in trace.of(*GPU_CATS):
        launcher = runtime.get(g.a.correlation)
        op = None
        if launcher is not None:
            threads = op_threads.get((launcher.pid, launcher.tid))
            ext = launcher.a.external_id if launcher.a.external_id is not None else g.a.external_id
            candidate = by_external.get(ext)
            if (
                candidate is not None
                and threads is not None
                and (candidate.pid, candidate.tid) == (launcher.pid, launcher.tid)
                and candidate.ts <= launcher.ts <= candidate.end
            ):
                i = threads.index_of(candidate)
                op = threads.root_of(i) if i >= 0 else candidate
            elif threads is not None:
                i = threads.innermost(launcher.ts)
                op = threads.root_of(i) if i >= 0 else None
        note, key = notes.around(g, launcher)
        name = g.name
        kind = kernel_type(name) if g.cat == "kernel" else "MEMORY"
        kernels.append(
            Kernel(
                g,
                kind,
                op,
                launcher,
                in_window=launcher is not None or not runtime,
                workgroups=workgroups(g, launcher),
                note=note,
                step_key=key,
                label=name,
            )
        )
    kernels.sort(key=lambda k: k.event.ts)
    return kernels


def top_level_ops(trace: Trace) -> list[Event]:
    """cpu_ops that no other cpu_op on their thread contains."""
    out = []
    for spans in _by_thread(trace.of("cpu_op")).values():
        out += [e for e, p in zip(spans.spans, spans.parent, strict=True) if p < 0]
    return sorted(out, key=lambda e: e.ts)


__all__ = ["Kernel", "link_kernels", "top_level_ops", "UNKNOWN"]
