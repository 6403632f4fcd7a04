"""Evidence and caveats in words a learner can check against the table."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from grader.analyzer.kinds import chain_level
from grader.analyzer.metrics import SYNC_CPU_PER_CALL_US, KindRow, Metrics
from grader.units import format_bytes, format_time

SYNC_CPU_OVER_CUDA = 3.0
NOISY_UTILITY_CALLS = 100
UNLISTED_WORTH_A_WORD = 0.01


def _pct(x: float) -> str:
    return f"{x:.0%}"


def _names(rows: Sequence[KindRow], limit: int = 3) -> str:
    top = sorted(rows, key=lambda r: -r.listed_device_us)[:limit]
    return " + ".join(r.short for r in top)


def _listed(m: Metrics, kind: str) -> list[KindRow]:
    """Rows of a kind with device time, as the table lists them (each chain level)."""
    if m.counting == "self":
        return [r for r in m.of(kind) if r.device_us > 0]
    return [r for r in m.of(kind) if r.row.cuda_us > 0]


def _counted(m: Metrics, kind: str) -> list[KindRow]:
    """Rows of a kind whose device time is counted (one level of each call chain)."""
    return [r for r in m.of(kind) if r.device_us > 0]


def _memory_detail(rows: list[KindRow]) -> str:
    calls = {r.row.calls for r in rows}
    mems = {r.row.memory_bytes for r in rows}
    if len(rows) > 1 and (len(calls) > 1 or len(mems) > 1):
        return ""
    n, size = next(iter(calls)), next(iter(mems))
    each = " each" if len(rows) > 1 else ""
    if size is None:
        return f", {n} calls{each} (memory not recorded)"
    return f", {format_bytes(size)} in {n} calls{each}"


def _movement(m: Metrics) -> list[str]:
    rows = _listed(m, "movement")
    if not rows:
        return ["no copy, cast or transfer op takes device time"]
    listed = sum(r.listed_device_us for r in rows)
    total = m.device_listed_us if m.counting == "chains" else m.device_us
    out = [
        f"{_names(rows)}: {format_time(listed)} of {format_time(total)} CUDA "
        f"({_pct(listed / total)}){_memory_detail(rows)}"
    ]
    if m.counting == "chains" and m.movement_us < listed - 1:
        out.append(
            f"counting nested copies once, at least {format_time(m.movement_us)} of "
            f"{format_time(m.device_us)} ({_pct(m.share(m.movement_us))})"
        )
    if m.math_us:
        out.append(f"model math ({_names(_counted(m, 'math'))}): {format_time(m.math_us)}")
    return out


def _overhead(m: Metrics) -> list[str]:
    loop = sorted(m.of("orchestration"), key=lambda r: -r.cpu_us)
    if m.counting == "self":
        who = (
            f"host CPU driving the device {format_time(m.cpu_side_us)} (loop and launch "
            f"calls {format_time(m.orchestration_cpu_us)}, op dispatch "
            f"{format_time(m.dispatch_cpu_us)})"
        )
    elif loop and m.orchestration_cpu_us >= m.dispatch_cpu_us:
        who = f"{loop[0].row.name} {format_time(m.orchestration_cpu_us)} CPU"
    else:
        who = f"op dispatch {format_time(m.dispatch_cpu_us)} CPU"
    return [
        f"{who} against {format_time(m.device_us)} of CUDA; "
        f"{m.launches} launches averaging {format_time(m.avg_launch_us)}",
        "the host takes longer to issue the work than the device takes to run it",
    ]


def _host(m: Metrics) -> list[str]:
    rows = sorted(m.of("host"), key=lambda r: -r.cpu_us)
    names = " + ".join(r.row.name for r in rows[:3]) or "host work"
    return [
        f"{names}: {format_time(m.host_cpu_us)} of CPU with "
        f"{format_time(sum(r.row.cuda_us for r in rows))} CUDA, against "
        f"{format_time(m.device_us)} of device time",
        "the device is idle while the host prepares or post-processes the request",
    ]


def _communication(m: Metrics) -> list[str]:
    rows = _counted(m, "communication")
    others = ", ".join(
        f"{kind} {_pct(m.share(us))}"
        for kind, us in (
            ("math", m.math_us),
            ("movement", m.movement_us),
            ("elementwise", m.elementwise_us),
            ("other", m.other_us),
        )
    )
    return [
        f"collectives ({_names(rows)}): {format_time(m.communication_us)} of "
        f"{format_time(m.device_us)} device time ({_pct(m.share(m.communication_us))}), "
        f"more than any other kind of work ({others})",
        "the devices spend more time exchanging data than on any kind of computation",
    ]


def _compute(m: Metrics) -> list[str]:
    return [
        f"model math ({_names(_counted(m, 'math'))}): {format_time(m.math_us)} of "
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
        "communication-bound": _communication,
        "compute-bound": _compute,
    }
    return tuple(builders[bottleneck](m))


def _same_copies(m: Metrics) -> list[str]:
    """Rows of one copy chain with the same calls (and memory): counted twice in a sum."""
    if m.counting != "chains":
        return []
    groups: dict[tuple[str, int, int | None], list[KindRow]] = defaultdict(list)
    for r in m.of("movement"):
        where = chain_level(r.row.name)
        if where and r.row.calls:
            groups[(where[0], r.row.calls, r.row.memory_bytes)].append(r)
    out = []
    for (_, calls, size), rows in groups.items():
        if len(rows) < 2:
            continue
        names = " and ".join([", ".join(r.row.name for r in rows[:-1]), rows[-1].row.name])
        same = f"the same {calls} calls and {format_bytes(size)}"
        if size is None:
            same = f"the same {calls} calls (memory not recorded)"
        out.append(
            f"{names} have {same}: profiler totals are inclusive, so these are probably "
            "the same copies counted twice"
        )
    return out


def _noisy_utility(m: Metrics) -> list[str]:
    noisy = [
        r
        for r in sorted(m.of("utility"), key=lambda r: -r.row.calls)
        if r.row.calls >= NOISY_UTILITY_CALLS and m.share(r.row.cuda_us) < 0.05
    ]
    if not noisy:
        return []
    shown = ", ".join(f"{r.row.name}: {r.row.calls} calls" for r in noisy[:3])
    more = f" (and {len(noisy) - 3} more)" if len(noisy) > 3 else ""
    cuda = format_time(sum(r.row.cuda_us for r in noisy))
    only = "only" if len(noisy) == 1 else "together only"
    return [f"{shown}{more} but {only} {cuda} CUDA; utility ops get no vote on the class"]


def caveats(
    m: Metrics, table_notes: tuple[str, ...], borderline: bool, nothing_fired: bool
) -> tuple[str, ...]:
    out = list(table_notes)
    out += _same_copies(m)
    for r in m.of("movement"):
        per_call = r.row.cpu_us / max(r.row.calls, 1)
        if per_call >= SYNC_CPU_PER_CALL_US and r.row.cpu_us > SYNC_CPU_OVER_CUDA * max(
            r.row.cuda_us, 1
        ):
            out.append(
                f"{r.row.name}: CPU time {format_time(r.row.cpu_us)} dwarfs its CUDA time "
                f"{format_time(r.row.cuda_us)}; it is likely waiting on a device sync"
            )
    if _listed(m, "movement") and m.movement_bytes is None:
        out.append(
            "the table records no memory for its copies: the bytes they move are unknown, "
            "so only their time can make the run movement-bound"
        )
    out += _noisy_utility(m)
    if m.unlisted_us > UNLISTED_WORTH_A_WORD * m.device_us:
        out.append(
            f"{format_time(m.unlisted_us)} of the {format_time(m.device_us)} of device time "
            "the footer states is in rows the table does not list (row_limit): counted as "
            "device work of unknown kind"
        )
    if m.kernels_counted:
        out.append(
            "device time is counted from the kernel rows, which name more of it than the op "
            "rows (a compiled region or a custom op hides what it runs)"
        )
    if m.device_us <= 0:
        out.append("no device time at all: a CPU-only profile cannot show a device bottleneck")
    elif nothing_fired:
        out.append("no class is over its threshold: the class is a best guess")
    if borderline:
        out.append("borderline: the runner-up class is close; check the table by hand")
    return tuple(out)
