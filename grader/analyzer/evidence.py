"""Evidence and caveats in words a learner can check against the table."""

from __future__ import annotations

from grader.analyzer.metrics import KindRow, Metrics
from grader.units import format_bytes, format_time

SYNC_CPU_OVER_CUDA = 3.0
NOISY_UTILITY_CALLS = 100


def _pct(x: float) -> str:
    return f"{x:.0%}"


def _names(rows: tuple[KindRow, ...] | list[KindRow], limit: int = 3) -> str:
    top = sorted(rows, key=lambda r: -r.row.cuda_us)[:limit]
    return " + ".join(r.short for r in top)


def _movement(m: Metrics) -> list[str]:
    rows = [r for r in m.of("movement") if r.row.cuda_us > 0]
    if not rows:
        return ["no copy, cast or transfer op takes device time"]
    listed = sum(r.row.cuda_us for r in rows)
    calls = {r.row.calls for r in rows}
    mems = {r.row.memory_bytes for r in rows}
    detail = ""
    if len(calls) == 1 and len(mems) == 1 and len(rows) > 1:
        detail = f", {format_bytes(next(iter(mems)))} in {next(iter(calls))} calls each"
    elif len(rows) == 1:
        detail = f", {format_bytes(rows[0].row.memory_bytes)} in {rows[0].row.calls} calls"
    out = [
        f"{_names(rows)}: {format_time(listed)} of {format_time(m.device_listed_us)} CUDA "
        f"({_pct(listed / m.device_listed_us)}){detail}"
    ]
    if m.movement_us < listed - 1:
        out.append(
            f"counting nested copies once, at least {format_time(m.movement_us)} of "
            f"{format_time(m.device_us)} ({_pct(m.share(m.movement_us))})"
        )
    if m.math_us:
        out.append(f"model math ({_names(m.of('math'))}): {format_time(m.math_us)}")
    return out


def _overhead(m: Metrics) -> list[str]:
    loop = sorted(m.of("orchestration"), key=lambda r: -r.row.cpu_us)
    if loop and m.orchestration_cpu_us >= m.dispatch_cpu_us:
        who = f"{loop[0].row.name} {format_time(m.orchestration_cpu_us)} CPU"
    else:
        who = f"op dispatch {format_time(m.dispatch_cpu_us)} CPU"
    return [
        f"{who} against {format_time(m.device_us)} of CUDA; "
        f"{m.launches} launches averaging {format_time(m.avg_launch_us)}",
        "the host takes longer to issue the work than the device takes to run it",
    ]


def _host(m: Metrics) -> list[str]:
    rows = sorted(m.of("host"), key=lambda r: -r.row.cpu_us)
    names = " + ".join(r.row.name for r in rows[:3]) or "host work"
    return [
        f"{names}: {format_time(m.host_cpu_us)} of CPU with "
        f"{format_time(sum(r.row.cuda_us for r in rows))} CUDA, against "
        f"{format_time(m.device_us)} of device time",
        "the device is idle while the host prepares or post-processes the request",
    ]


def _compute(m: Metrics) -> list[str]:
    return [
        f"model math ({_names(m.of('math'))}): {format_time(m.math_us)} of "
        f"{format_time(m.device_us)} CUDA ({_pct(m.share(m.math_us))})",
        f"movement only {_pct(m.share(m.movement_us))} of device time; host CPU "
        f"{format_time(m.cpu_side_us + m.host_cpu_us)} keeps up with the device",
        f"launches average {format_time(m.avg_launch_us)} of device time each",
    ]


def evidence_for(bottleneck: str, m: Metrics) -> tuple[str, ...]:
    if m.device_us <= 0:
        return ("no op in the table takes device time: the host does all the work",)
    builders = {
        "movement-bound": _movement,
        "overhead-bound": _overhead,
        "host-bound": _host,
        "compute-bound": _compute,
    }
    return tuple(builders[bottleneck](m))


def caveats(m: Metrics, table_notes: tuple[str, ...], borderline: bool) -> tuple[str, ...]:
    out = list(table_notes)
    movement = [r for r in m.of("movement") if r.row.calls]
    for i, a in enumerate(movement):
        for b in movement[i + 1 :]:
            if a.row.calls == b.row.calls and a.row.memory_bytes == b.row.memory_bytes:
                out.append(
                    f"{a.row.name} and {b.row.name} have the same {a.row.calls} calls and "
                    f"{format_bytes(a.row.memory_bytes)}: profiler totals are inclusive, so "
                    "these are probably the same copies counted twice"
                )
    for r in movement:
        if r.row.cpu_us >= 1000 and r.row.cpu_us > SYNC_CPU_OVER_CUDA * max(r.row.cuda_us, 1):
            out.append(
                f"{r.row.name}: CPU time {format_time(r.row.cpu_us)} dwarfs its CUDA time "
                f"{format_time(r.row.cuda_us)}; it is likely waiting on a device sync"
            )
    for r in m.of("utility"):
        if r.row.calls >= NOISY_UTILITY_CALLS and m.share(r.row.cuda_us) < 0.05:
            out.append(
                f"{r.row.name}: {r.row.calls} calls but only {format_time(r.row.cuda_us)} "
                "CUDA; utility ops get no vote on the class"
            )
    if m.device_us <= 0:
        out.append("no device time at all: a CPU-only profile cannot show a device bottleneck")
    if borderline:
        out.append("borderline: the runner-up class is close; check the table by hand")
    return tuple(out)
