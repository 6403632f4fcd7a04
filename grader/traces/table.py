"""The op table of a trace, in the course's format: per top-level op, CUDA total (what it
launched, inclusive), CPU total, calls, memory moved by its copies."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from grader.analyzer.kinds import op_kind
from grader.tables.model import Row, Table
from grader.traces.kernels import kernel_function
from grader.traces.link import Kernel, top_level_ops
from grader.traces.reader import Event, Trace, byte_count

MAX_ROWS = 14
# Top-level ops whose device time is opaque: typed by kernel instead (compiled regions).
OPAQUE = re.compile(r"compiled|cudagraph|graph_?replay", re.IGNORECASE)
WRAPPER_SHARE = 0.9  # a span covering this much of the trace is a wrapper (a step), not a row
GRAPH_ROW = {
    "LINEAR": "gemm kernels",
    "ATTENTION": "attention kernels",
    "MOE": "moe expert kernels",
    "QUANTIZATION": "quantize kernels",
    "COMMUNICATION": "nccl communication kernels",
    "MEMORY": "memcpy/copy kernels",
    "NORM": "norm elementwise kernels",
    "ELEMENTWISE": "elementwise kernels",
    "OTHER": "other kernels",
}


@dataclass
class _Acc:
    cuda: float = 0.0
    cpu: float = 0.0
    calls: int = 0
    memory: int = 0
    seen: set[int] = field(default_factory=set)


_COLLECTIVE = re.compile(
    r"(all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|broadcast|send|recv)", re.IGNORECASE
)


def communication_row(name: str) -> str:
    """A collective's row: the NCCL/RCCL kernel's name, or the collective it performs
    first, so that any reader knows it for communication (vLLM's custom all-reduce).

    >>> communication_row("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)")
    'ncclDevKernel_AllGather_RING_LL'
    >>> communication_row("void (anonymous namespace)::multimem_all_reduce_kernel<float>(x)")
    'all_reduce (multimem_all_reduce_kernel)'
    """
    function = kernel_function(name)
    if re.search("nccl|rccl", function, re.IGNORECASE):
        return function
    found = _COLLECTIVE.search(function)
    what = found.group(1).lower().replace("allreduce", "all_reduce") if found else "collective"
    return f"{what} ({function})"


def _row_name(k: Kernel) -> str | None:
    """The row a kernel's device time goes to, when not the op that launched it:
    communication kernels are their own rows (never the op that launched them, as DDP's
    all-reduce under AccumulateGrad), and kernels under a compiled region or replayed from a
    graph go to a row per kernel type, so math, movement and elementwise shares come out."""
    if k.type == "COMMUNICATION":
        return communication_row(k.event.name)
    if k.op is not None and not OPAQUE.search(k.op.name):
        return None
    where = k.op.name if k.op is not None else k.launcher.name if k.launcher else "no launch"
    return f"{GRAPH_ROW[k.type]} ({where})"


def op_table(trace: Trace, kernels: list[Kernel]) -> tuple[Table, list[str]]:
    """The table and the notes that explain what it left out."""
    rows: dict[str, _Acc] = {}
    notes: list[str] = []
    for op in top_level_ops(trace):
        acc = rows.setdefault(op.name, _Acc())
        acc.cpu += op.dur
        acc.calls += 1
    outside = 0
    for k in kernels:
        if not k.in_window:
            outside += 1
            continue
        name = _row_name(k)
        if name is None and k.op is not None:
            acc = rows.setdefault(k.op.name, _Acc())
        else:
            acc = rows.setdefault(name or "", _Acc())
            key = id(k.launcher) if k.launcher is not None and k.type != "COMMUNICATION" else id(k)
            if key not in acc.seen:
                acc.seen.add(key)
                acc.calls += 1
        acc.cuda += k.event.dur
        if k.event.cat == "gpu_memcpy":
            acc.memory += byte_count(k.event.a.bytes)
    for span in _host_spans(trace):
        acc = rows.setdefault(_short(span.name), _Acc())
        acc.cpu += span.dur
        acc.calls += 1
    if outside:
        notes.append(f"{outside} GPU events whose launch is not in the trace were left out")
    if not kernels:
        notes.append("no GPU kernels in the trace (a CPU-only profile): CUDA totals are 0")
    ranked = sorted(rows.items(), key=lambda kv: (-kv[1].cuda, -kv[1].cpu, kv[0]))
    kept = ranked[:MAX_ROWS]
    hosts = [kv for kv in ranked[MAX_ROWS:] if op_kind(kv[0]) in ("host", "orchestration")]
    if len(ranked) > MAX_ROWS:
        notes.append(f"{len(ranked) - MAX_ROWS - len(hosts)} smaller ops were left out")
    table = Table(
        tuple(
            Row(name, acc.cuda, acc.cpu, acc.calls, acc.memory, line=i + 2)
            for i, (name, acc) in enumerate(kept + hosts)
        ),
        "course",
        tuple(notes),
    )
    return table, notes


def _host_spans(trace: Trace) -> list[Event]:
    """Annotated or Python spans worth a row: host work and loops, never whole-step wrappers
    nor a span inside another of the same name (one pass: spans come sorted by start, so
    a span is inside an earlier one of its name exactly when that one ends after it)."""
    events = trace.events
    span = (max(e.end for e in events) - events[0].ts) or 1.0
    out: list[Event] = []
    ends: dict[str, float] = {}
    worth: dict[str, bool] = {}  # by name: Python stacks repeat the same frames
    for e in trace.of("user_annotation", "python_function"):
        if e.dur >= WRAPPER_SHARE * span:
            continue
        keep = worth.get(e.name)
        if keep is None:
            keep = worth[e.name] = not e.name.startswith("ProfilerStep") and (
                e.cat == "user_annotation" or op_kind(_short(e.name)) in ("host", "orchestration")
            )
        if not keep or ends.get(e.name, float("-inf")) >= e.end:
            continue
        ends[e.name] = e.end
        out.append(e)
    return out


def _short(name: str) -> str:
    """'transformers/generation/utils.py(1234): generate' -> 'generate'."""
    return name.rsplit("): ", 1)[-1] if "): " in name else name


def clean(text: str, limit: int = 200) -> str:
    """An op name fit for one cell: control characters and runs of spaces (which the course
    format reads as column breaks) become one space; cut at ``limit`` characters."""
    one = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return one if len(one) <= limit else one[: limit - 3] + "..."


def format_table(table: Table) -> str:
    from grader.units import format_bytes

    lines = ["op\tCUDA total\tCPU total\tcalls\tmemory"]
    for r in table.rows:
        name = clean(r.name) or "(unnamed)"
        lines.append(
            f"{name}\t{r.cuda_us / 1e3:.3f} ms\t{r.cpu_us / 1e3:.3f} ms\t{r.calls}\t"
            f"{format_bytes(r.memory_bytes)}"
        )
    return "\n".join(lines)
