"""The figures the analyzer reasons from, computed once from a table.

Each row's device and CPU time is counted once (``counting.py``): by the Self columns where
the table has them, else each call chain by its largest level.  Device time the footer
states but no listed row holds (a ``row_limit``) is counted as other work.  Host time is
counted the same way: Self CPU where the table has it (then the loop's own time and the
ops' dispatch add up), else totals (then the larger of the two is taken, as a loop's total
already contains its ops).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from grader.analyzer.counting import TYPED, KindRow, by_chains, by_self_columns, row_kind
from grader.analyzer.kinds import chain_level
from grader.tables.model import Table

# Kinds whose CPU time is the host dispatching device work.
DISPATCH = ("math", "elementwise", "other", "communication")
# A copy whose own CPU time per call is above this is waiting on the device, not issuing.
SYNC_CPU_PER_CALL_US = 50.0


@dataclass(frozen=True)
class Metrics:
    rows: tuple[KindRow, ...]
    counting: str  # "self": the Self columns; "chains": each call chain once
    device_listed_us: float  # the device column added up, as the table lists it
    device_us: float  # each chain once, plus device time no listed row holds
    unlisted_us: float  # device time of the footer that no listed row holds
    kind_us: dict[str, float] = field(hash=False)  # counted device time per kind
    movement_listed_us: float = 0.0
    movement_bytes: int | None = None  # None: the table does not say
    host_cpu_us: float = 0.0  # host work (tokenizer, data loading) CPU time
    orchestration_cpu_us: float = 0.0  # Python loops, launch calls, hooks
    dispatch_cpu_us: float = 0.0  # CPU time of the ops that launch device work
    launches: int = 0  # calls of rows that add device time, utility ops excluded
    launch_device_us: float = 0.0  # device time of those calls
    kernels_counted: bool = False  # device time counted from the kernel rows

    def of(self, kind: str) -> tuple[KindRow, ...]:
        return tuple(r for r in self.rows if r.kind == kind)

    def kind_time(self, kind: str) -> float:
        return self.kind_us.get(kind, 0.0)

    @property
    def movement_us(self) -> float:
        return self.kind_time("movement")

    @property
    def math_us(self) -> float:
        return self.kind_time("math")

    @property
    def elementwise_us(self) -> float:
        return self.kind_time("elementwise")

    @property
    def utility_us(self) -> float:
        return self.kind_time("utility")

    @property
    def communication_us(self) -> float:
        return self.kind_time("communication")

    @property
    def other_us(self) -> float:
        """Device time of no named kind, including what the table does not list."""
        named = ("communication", "movement", "math", "elementwise", "utility")
        return max(0.0, self.device_us - sum(self.kind_time(k) for k in named))

    @property
    def avg_launch_us(self) -> float:
        return self.launch_device_us / self.launches if self.launches else 0.0

    @property
    def cpu_side_us(self) -> float:
        """Host time spent driving the device: the loop/launch rows and the ops' dispatch.

        Added up with Self CPU times; without them the larger of the two, since a loop's
        CPU total already contains the ops it runs.
        """
        if self.counting == "self":
            return self.orchestration_cpu_us + self.dispatch_cpu_us
        return max(self.orchestration_cpu_us, self.dispatch_cpu_us)

    def share(self, us: float) -> float:
        return us / self.device_us if self.device_us else 0.0


def _bytes_moved(movement: list[KindRow]) -> int | None:
    """Memory of the movement rows that take device time, each copy chain once (by its
    largest row: memory columns are inclusive too); None when no such row states it."""
    rows = [r for r in movement if r.row.cuda_us > 0 or r.row.self_cuda_us]
    if not rows or all(r.row.memory_bytes is None for r in rows):
        return None
    chained: dict[str, int] = defaultdict(int)
    free = 0
    for r in rows:
        size = r.row.memory_bytes or 0
        where = chain_level(r.row.name)
        if where:
            chained[where[0]] = max(chained[where[0]], size)
        else:
            free += size
    return sum(chained.values()) + free


def _dispatches(r: KindRow, counting: str) -> bool:
    """Whether a row's CPU time is the host issuing device work.

    Ops that launch (or whose callees launch) device work do.  With Self CPU times, so do
    utility ops (a view's own time is Python-side bookkeeping of the model code; without
    Self columns it is already inside the op that called it) and copies whose time per
    call is that of issuing one, not of waiting for the device to finish (a sync)."""
    launches = r.row.cuda_us > 0 or bool(r.row.self_cuda_us)
    if r.kind in DISPATCH:
        return launches
    if counting != "self":
        return False
    if r.kind == "utility":
        return True
    return r.kind == "movement" and r.cpu_us / max(r.row.calls, 1) < SYNC_CPU_PER_CALL_US


def _host_cpu(rows: list[KindRow], counting: str) -> float:
    """CPU time of host work.  With Self columns, the larger of two lower bounds: the host
    rows' own times added up (nested host ranges each count their own part), and the
    largest host row's total (a host row has no device time, so nothing under it drives
    the device: CPU ops it calls, resizing an image, are host work too)."""
    host = [r for r in rows if r.kind == "host"]
    if counting == "self":
        return max(sum(r.cpu_us for r in host), max((r.row.cpu_us for r in host), default=0.0))
    return sum(r.cpu_us for r in host)


def compute_metrics(table: Table) -> Metrics:
    has_device = any(r.cuda_us > 0 or r.self_cuda_us for r in table.rows)
    kinds = [row_kind(r, has_device) for r in table.rows]
    kernels_counted = False
    if table.has_self_device:
        rows, kernels_counted = by_self_columns(table, kinds)
        counting = "self"
    else:
        rows = by_chains(table, kinds)
        counting = "chains"
    kind_us: dict[str, float] = defaultdict(float)
    for r in rows:
        if r.device_us:
            kind_us[r.kind if r.kind in TYPED else "other"] += r.device_us
    counted = sum(kind_us.values())
    unlisted = max(0.0, (table.device_total_us or 0.0) - counted)
    listed = [
        r
        for r in rows
        if r.kind != "wrapper" and (counting == "chains" or r.kernel == kernels_counted)
    ]
    movement = [r for r in listed if r.kind == "movement"]
    launching = [r for r in rows if r.device_us > 0 and r.kind not in ("utility", "host")]
    dispatch = [r for r in rows if _dispatches(r, counting)]
    orchestration = [r for r in rows if r.kind == "orchestration"]
    if counting == "self":  # a step's own CPU time is the Python between its ops
        orchestration += [r for r in rows if r.kind == "wrapper" and not r.kernel]
    movement_bytes = _bytes_moved([r for r in rows if r.kind == "movement"])
    return Metrics(
        rows=tuple(rows),
        counting=counting,
        device_listed_us=sum(r.listed_device_us for r in listed),
        device_us=counted + unlisted,
        unlisted_us=unlisted,
        kind_us=dict(kind_us),
        movement_listed_us=sum(r.listed_device_us for r in movement),
        movement_bytes=movement_bytes,
        host_cpu_us=_host_cpu(rows, counting),
        orchestration_cpu_us=sum(r.cpu_us for r in orchestration),
        dispatch_cpu_us=sum(r.cpu_us for r in dispatch),
        launches=sum(r.row.calls for r in launching),
        launch_device_us=sum(r.device_us for r in launching),
        kernels_counted=kernels_counted,
    )
