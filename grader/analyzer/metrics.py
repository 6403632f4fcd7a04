"""The figures the analyzer reasons from, computed once from a table.

Profiler totals are inclusive: ``aten::to`` contains ``aten::_to_copy`` contains
``aten::copy_``.  So movement time is kept twice: as listed (the sum, as the course adds
"copy_ + to") and as a lower bound (the copy chain counted once, by its largest row).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.analyzer.kinds import base_name, op_kind
from grader.tables.model import Row, Table

# Movement ops that all end in one copy kernel, so nested rows may count the same copies.
_COPY_CHAIN = re.compile(
    r"^(copy_|to|_to_copy|_copy_from|_copy_from_and_resize|contiguous|clone|type_as|item|"
    r"_local_scalar_dense|cpu|cuda|memcpy.*|cudamemcpy.*|hipmemcpy.*|.*copy_kernel.*)$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class KindRow:
    row: Row
    kind: str

    @property
    def short(self) -> str:
        return base_name(self.row.name)


@dataclass(frozen=True)
class Metrics:
    rows: tuple[KindRow, ...]
    device_listed_us: float  # every row's CUDA total added up, as the table lists it
    device_us: float  # the same with nested copies counted once
    movement_listed_us: float
    movement_us: float  # lower bound: the copy chain counted once
    movement_bytes: int
    math_us: float
    elementwise_us: float
    utility_us: float
    other_us: float
    host_cpu_us: float  # host work (tokenizer, data loading) CPU time
    orchestration_cpu_us: float  # Python loops, launch calls, hooks
    dispatch_cpu_us: float  # CPU time of the ops that launch device work (no utility/movement)
    launches: int  # calls of ops with device time, utility ops excluded
    launch_device_us: float  # device time of those calls

    def of(self, kind: str) -> tuple[KindRow, ...]:
        return tuple(r for r in self.rows if r.kind == kind)

    @property
    def avg_launch_us(self) -> float:
        return self.launch_device_us / self.launches if self.launches else 0.0

    @property
    def cpu_side_us(self) -> float:
        """Host time spent driving the device: the loop/launch rows, or the ops' own dispatch.

        The larger of the two, not the sum: a loop's CPU total may already contain its ops.
        """
        return max(self.orchestration_cpu_us, self.dispatch_cpu_us)

    def share(self, us: float) -> float:
        return us / self.device_us if self.device_us else 0.0


def compute_metrics(table: Table) -> Metrics:
    rows = tuple(KindRow(r, op_kind(r.name)) for r in table.rows)
    counted = [r for r in rows if r.kind != "wrapper"]

    def cuda(kind: str) -> float:
        return sum(r.row.cuda_us for r in counted if r.kind == kind)

    movement = [r for r in counted if r.kind == "movement"]
    chain = [r for r in movement if _COPY_CHAIN.match(r.short)]
    others = [r for r in movement if not _COPY_CHAIN.match(r.short)]
    movement_listed = sum(r.row.cuda_us for r in movement)
    movement_lb = max((r.row.cuda_us for r in chain), default=0.0) + sum(
        r.row.cuda_us for r in others
    )
    chain_bytes = max((r.row.memory_bytes or 0 for r in chain), default=0)
    device_listed = sum(r.row.cuda_us for r in counted)
    launching = [r for r in counted if r.row.cuda_us > 0 and r.kind not in ("utility", "host")]
    dispatch = [r for r in launching if r.kind in ("math", "elementwise", "other")]
    return Metrics(
        rows=rows,
        device_listed_us=device_listed,
        device_us=device_listed - (movement_listed - movement_lb),
        movement_listed_us=movement_listed,
        movement_us=movement_lb,
        movement_bytes=chain_bytes + sum(r.row.memory_bytes or 0 for r in others),
        math_us=cuda("math"),
        elementwise_us=cuda("elementwise"),
        utility_us=cuda("utility"),
        other_us=cuda("other") + cuda("orchestration") + cuda("host"),
        host_cpu_us=sum(r.row.cpu_us for r in counted if r.kind == "host"),
        orchestration_cpu_us=sum(r.row.cpu_us for r in counted if r.kind == "orchestration"),
        dispatch_cpu_us=sum(r.row.cpu_us for r in dispatch),
        launches=sum(r.row.calls for r in launching),
        launch_device_us=sum(r.row.cuda_us for r in launching),
    )
