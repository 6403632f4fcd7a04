"""Link GPU work to the host op that launched it, and each kernel to its phase.

A GPU event and its runtime/driver call share ``args.correlation``.  The op is the cpu_op
with the call's ``External id`` when that op exists on the same thread and spans the call;
else the innermost cpu_op on the launching thread whose span contains the call.  A graph
replay (cudaGraphLaunch/hipGraphLaunch) launches many kernels under one correlation.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from grader.traces.kernels import (
    UNKNOWN,
    classify_stage,
    kernel_type,
    phase_of_annotation,
)
from grader.traces.reader import Event, Trace

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
RUNTIME_CATS = ("cuda_runtime", "cuda_driver")
SPAN_CATS = ("user_annotation", "python_function")


@dataclass(frozen=True)
class Kernel:
    event: Event
    type: str
    stage: str
    stage_source: str
    op: Event | None  # the top-level cpu_op it belongs to
    launcher: Event | None  # the runtime call that launched it
    step: int | None = None  # which step annotation it ran under, when there is one


class _Spans:
    """Nested spans of one thread, for 'which spans contain time t' queries."""

    def __init__(self, spans: list[Event]) -> None:
        self.spans = sorted(spans, key=lambda e: (e.ts, -e.dur))
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
            if self.spans[i].ts > e.ts:
                break
        return -1


def _by_thread(events: list[Event]) -> dict[object, _Spans]:
    groups: dict[object, list[Event]] = {}
    for e in events:
        groups.setdefault((e.pid, e.tid), []).append(e)
    return {k: _Spans(v) for k, v in groups.items()}


def link_kernels(
    trace: Trace, *, ignore_annotations: bool = False, grid_fallback_for_all: bool = False
) -> list[Kernel]:
    ops = trace.of("cpu_op")
    op_threads = _by_thread(ops)
    by_external = {e.args["External id"]: e for e in ops if "External id" in e.args}
    runtime = {e.args["correlation"]: e for e in trace.of(*RUNTIME_CATS) if "correlation" in e.args}
    phase_spans = [e for e in trace.of(*SPAN_CATS) if phase_of_annotation(e.name)]
    phase_threads = _by_thread(phase_spans)
    gpu_phases = sorted(
        (e for e in trace.of("gpu_user_annotation") if phase_of_annotation(e.name)),
        key=lambda e: e.ts,
    )
    kernels = []
    for g in trace.of(*GPU_CATS):
        launcher = runtime.get(g.args.get("correlation"))
        op = None
        if launcher is not None:
            threads = op_threads.get((launcher.pid, launcher.tid))
            ext = launcher.args.get("External id", g.args.get("External id"))
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
        annotation, step = None, None
        if not ignore_annotations:
            annotation, step = _annotation_phase(g, launcher, phase_threads, gpu_phases)
        grid = g.args.get("grid") or (launcher.args.get("grid") if launcher else None)
        kind = kernel_type(g.name) if g.cat == "kernel" else "MEMORY"
        stage, source = classify_stage(
            g.name, kind, grid, annotation, grid_fallback_for_all=grid_fallback_for_all
        )
        kernels.append(Kernel(g, kind, stage, source, op, launcher, step))
    kernels.sort(key=lambda k: k.event.ts)
    return kernels


def _annotation_phase(
    g: Event, launcher: Event | None, threads: dict[object, _Spans], gpu_phases: list[Event]
) -> tuple[str | None, int | None]:
    """The phase an annotation around the kernel states, and which annotation (a step)."""
    if launcher is not None:
        spans = threads.get((launcher.pid, launcher.tid))
        if spans is not None:
            for span in spans.chain(launcher.ts):
                phase = phase_of_annotation(span.name)
                if phase:
                    return phase, id(span)
    for span in gpu_phases:
        if span.ts <= g.ts <= span.end:
            return phase_of_annotation(span.name), id(span)
    return None, None


def top_level_ops(trace: Trace) -> list[Event]:
    """cpu_ops that no other cpu_op on their thread contains."""
    out = []
    for spans in _by_thread(trace.of("cpu_op")).values():
        out += [e for e, p in zip(spans.spans, spans.parent, strict=True) if p < 0]
    return sorted(out, key=lambda e: e.ts)


__all__ = ["Kernel", "link_kernels", "top_level_ops", "UNKNOWN"]
