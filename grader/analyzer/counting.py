"""How each row's device and CPU time is counted once, whatever the table's columns.

Profiler totals are inclusive: ``aten::conv2d`` contains ``aten::convolution`` contains
``aten::cudnn_convolution``, and ``aten::to`` contains ``aten::_to_copy`` contains
``aten::copy_``.  Adding the CUDA column up counts such a chain once per level.  So:

* with PyTorch's Self columns, each row counts its own (self) time.  A key_averages table
  lists both the ops and the kernels they launched (a kernel row has device time and no
  CPU time); the two sets hold the same device time, so only one is counted: the one whose
  time the kinds can name (the kernels under a compiled region are typed, the region's own
  row is not; otherwise the ops).
* without them, each call chain of ``op_kinds.yaml`` counts by the level whose rows add up
  to the most (a lower bound), and a named range is not counted on top of the ops it ran.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from grader.analyzer.kinds import base_name, chain_level, is_core_op, is_namespaced, op_kind
from grader.tables.model import Row, Table

# Kinds whose device time is work the kinds can name (not "other").
TYPED = ("communication", "movement", "math", "elementwise", "utility")
# Prefer the kernel rows only when they name clearly more of the device time than the ops.
KERNELS_OVER_OPS = 1.05
# A range whose device time is at most this times the ops' is taken to contain them.
RANGE_SLACK = 1.05


@dataclass(frozen=True)
class KindRow:
    row: Row
    kind: str
    device_us: float = 0.0  # device time this row adds to the count (0: counted elsewhere)
    cpu_us: float = 0.0  # CPU time this row adds (its Self CPU, or its total)
    kernel: bool = False  # a device-side row: a kernel or a memcpy, with no CPU time

    @property
    def short(self) -> str:
        return base_name(self.row.name)

    @property
    def listed_device_us(self) -> float:
        """Its device time as the table states it: self time where there is one."""
        own = self.row.self_cuda_us
        return self.row.cuda_us if own is None else own


def row_kind(row: Row, table_has_device: bool) -> str:
    """The row's kind by name, then the host rule: CPU time, no device time, not an op of
    PyTorch, not a runtime call, not a loop: host work, whatever library it comes from."""
    kind = op_kind(row.name)
    if (
        kind == "other"
        and table_has_device
        and row.cuda_us <= 0
        and not row.self_cuda_us
        and row.cpu_us > 0
        and not is_core_op(row.name)
    ):
        return "host"
    return kind


def is_kernel(row: Row) -> bool:
    return row.cpu_us <= 0 and not row.self_cpu_us and (row.cuda_us > 0 or bool(row.self_cuda_us))


def by_self_columns(table: Table, kinds: list[str]) -> tuple[list[KindRow], bool]:
    """Rows counted by their Self columns, from the op rows or from the kernel rows."""
    op_names = {r.name for r in table.rows if not is_kernel(r)}
    rows = []
    for row, kind in zip(table.rows, kinds, strict=True):
        kernel = is_kernel(row)
        if kernel and row.name in op_names:
            kind = "wrapper"  # the device-side copy of a record_function range
        cpu = row.cpu_us if row.self_cpu_us is None else row.self_cpu_us
        rows.append(KindRow(row, kind, 0.0, cpu, kernel))

    def typed(kernels: bool) -> float:
        return sum(r.listed_device_us for r in rows if r.kernel == kernels and r.kind in TYPED)

    use_kernels = typed(True) > KERNELS_OVER_OPS * typed(False)
    counted = [
        KindRow(r.row, r.kind, r.listed_device_us, r.cpu_us, r.kernel)
        if r.kernel == use_kernels and r.kind != "wrapper"
        else r
        for r in rows
    ]
    return counted, use_kernels


def _is_range(row: Row, kind: str) -> bool:
    """A named range (record_function, a Python function, a loop): not an op, not a kernel."""
    return (
        kind in ("other", "orchestration", "host")
        and not is_namespaced(row.name)
        and row.cpu_us > 0
        and row.cuda_us > 0
    )


def by_chains(table: Table, kinds: list[str]) -> list[KindRow]:
    """Rows counted by inclusive totals, each call chain once: device time by the level
    whose rows add up to the most, CPU time likewise (the outer level, usually).  A named
    range's device time is that of the ops it ran: it is not counted again when the op
    rows hold at least as much."""
    levels: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i, row in enumerate(table.rows):
        where = chain_level(row.name) if kinds[i] != "wrapper" else None
        if where:
            levels[where[0]][where[1]].append(i)
    device_keep: set[int] = set()
    cpu_keep: set[int] = set()
    in_chain: set[int] = set()
    for by_level in levels.values():
        groups = [by_level[k] for k in sorted(by_level)]
        in_chain.update(i for g in groups for i in g)
        device_keep.update(max(groups, key=lambda g: sum(table.rows[i].cuda_us for i in g)))
        cpu_keep.update(max(groups, key=lambda g: sum(table.rows[i].cpu_us for i in g)))
    out = []
    for i, (row, kind) in enumerate(zip(table.rows, kinds, strict=True)):
        if kind == "wrapper":
            out.append(KindRow(row, kind))
            continue
        device = row.cuda_us if i not in in_chain or i in device_keep else 0.0
        cpu = row.cpu_us if i not in in_chain or i in cpu_keep else 0.0
        out.append(KindRow(row, kind, device, cpu, is_kernel(row)))
    ops_device = sum(r.device_us for r in out if not _is_range(r.row, r.kind))
    return [
        KindRow(r.row, r.kind, 0.0, r.cpu_us, r.kernel)
        if _is_range(r.row, r.kind) and r.row.cuda_us <= RANGE_SLACK * ops_device
        else r
        for r in out
    ]
