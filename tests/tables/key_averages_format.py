"""Print a profile the way PyTorch's ``prof.key_averages().table()`` does, from a call tree.

The tables in ``tests/tables/<class>/*.txt`` are written by ``make_tables.py`` with this, so
their numbers are consistent the way a real profile's are: an op's totals contain its
children's, its Self columns do not, each kernel launch is a ``cudaLaunchKernel`` child of
the op that launched it, every kernel also has a row of its own (device time, no CPU time),
and the footer states the Self totals.  Layout as in ``torch.autograd.profiler_util.
_build_table``: a 55-wide right-aligned name column cut to 52 characters plus "...", 12-wide
columns, two spaces between columns.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

LAUNCH = "cudaLaunchKernel"


@dataclass
class K:
    """A kernel: its name, microseconds per launch, launches per call of its op."""

    name: str
    us: float
    per_call: int = 1


@dataclass
class Op:
    """An op (or range) called ``calls`` times, ``cpu`` microseconds of its own per call."""

    name: str
    calls: int
    cpu: float
    kernels: list[K] = field(default_factory=list)
    children: list[Op] = field(default_factory=list)
    alloc: int = 0  # device bytes allocated by the op itself, per call
    launch_us: float = 4.0  # CPU time of one launch
    launcher: str = LAUNCH  # the runtime call that launches its kernels


@dataclass
class Stat:
    calls: int = 0
    self_cpu: float = 0.0
    cpu: float = 0.0
    self_dev: float = 0.0
    dev: float = 0.0
    self_mem: int = 0
    mem: int = 0
    kernel: bool = False


def _walk(op: Op, stats: dict[str, Stat]) -> tuple[float, float, int]:
    """Add ``op`` and what it contains to ``stats``; return its (cpu, device, memory) totals."""
    cpu = op.cpu * op.calls
    own_dev = 0.0
    launches = 0
    for k in op.kernels:
        n = k.per_call * op.calls
        own_dev += k.us * n
        launches += n
        ks = stats[k.name]
        ks.kernel = True
        ks.calls += n
        ks.self_dev += k.us * n
        ks.dev += k.us * n
    dev, mem = own_dev, op.alloc * op.calls
    if launches:
        ls = stats[op.launcher]
        ls.calls += launches
        ls.self_cpu += op.launch_us * launches
        ls.cpu += op.launch_us * launches
        cpu += op.launch_us * launches
    for child in op.children:
        c_cpu, c_dev, c_mem = _walk(child, stats)
        cpu += c_cpu
        dev += c_dev
        mem += c_mem
    s = stats[op.name]
    s.calls += op.calls
    s.self_cpu += op.cpu * op.calls
    s.cpu += cpu
    s.self_dev += own_dev
    s.dev += dev
    s.self_mem += op.alloc * op.calls
    s.mem += mem
    return cpu, dev, mem


def _time(us: float) -> str:
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


def _share(us: float, total: float) -> str:
    return f"{100 * us / total:.2f}%" if total else "NaN"


def _memory(n: int) -> str:
    for unit, size in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if abs(n) >= size:
            return f"{n / size:.2f} {unit}"
    return f"{n} B"


def render_course(roots: list[Op], memory: bool = True) -> str:
    """The same profile as the course's tab-separated table: inclusive totals, op rows only
    (kernel rows left out), memory as allocated."""
    stats: dict[str, Stat] = defaultdict(Stat)
    for root in roots:
        _walk(root, stats)
    rows = sorted(stats.items(), key=lambda kv: (-kv[1].dev, -kv[1].cpu, kv[0]))
    out = ["op\tCUDA total\tCPU total\tcalls\tmemory"]
    for name, s in rows:
        if s.kernel:
            continue
        mem = f"{s.mem / 1024**2:.0f} MiB" if memory else "unknown"
        out.append(f"{name}\t{s.dev / 1e3:.2f} ms\t{s.cpu / 1e3:.2f} ms\t{s.calls}\t{mem}")
    return "\n".join(out) + "\n"


def render(
    roots: list[Op], *, memory: bool = False, row_limit: int = 100, device: str = "CUDA"
) -> str:
    """The table, sorted by device total as ``sort_by="cuda_time_total"`` sorts it."""
    stats: dict[str, Stat] = defaultdict(Stat)
    for root in roots:
        _walk(root, stats)
    rows = sorted(stats.items(), key=lambda kv: (-kv[1].dev, -kv[1].cpu, kv[0]))
    self_cpu_total = sum(s.self_cpu for s in stats.values())
    self_dev_total = sum(s.self_dev for s in stats.values() if s.kernel)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    headers += [f"Self {device}", f"Self {device} %", f"{device} total", f"{device} time avg"]
    if memory:
        headers += ["CPU Mem", "Self CPU Mem", f"{device} Mem", f"Self {device} Mem"]
    headers.append("# of Calls")
    width = min(max(len(name) for name in stats) + 4, 55)
    widths = [width] + [12] * (len(headers) - 1)

    def line(cells: list[str]) -> str:
        return "".join(f"{c:>{w}}  " for c, w in zip(cells, widths, strict=True))

    sep = "".join("-" * w + "  " for w in widths)
    out = [sep, line(headers), sep]
    for name, s in rows[:row_limit]:
        shown = name[: width - 3] + "..." if len(name) >= width - 3 else name
        cells = [
            shown,
            _share(s.self_cpu, self_cpu_total),
            _time(s.self_cpu),
            _share(s.cpu, self_cpu_total),
            _time(s.cpu),
            _time(s.cpu / s.calls),
            _time(s.self_dev),
            _share(s.self_dev, self_dev_total),
            _time(s.dev),
            _time(s.dev / s.calls),
        ]
        if memory:
            cells += ["0 B", "0 B", _memory(s.mem), _memory(s.self_mem)]
        cells.append(str(s.calls))
        out.append(line(cells))
    out += [sep, f"Self CPU time total: {_time(self_cpu_total)}"]
    out.append(f"Self {device} time total: {_time(self_dev_total)}")
    return "\n".join(out) + "\n"
