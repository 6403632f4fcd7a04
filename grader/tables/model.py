"""One in-memory profiler table, whatever format it was read from."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One op of a profiler table; times in microseconds, memory in bytes.

    ``cuda_us`` and ``cpu_us`` are inclusive totals, as every format prints them.  The
    ``self_*`` figures exist only where the table has PyTorch's Self columns (the time of
    the op itself, without the ops it called); ``memory_bytes`` is None when the table has
    no memory column or the cell says it is unknown.
    """

    name: str
    cuda_us: float
    cpu_us: float
    calls: int
    memory_bytes: int | None
    line: int = 0  # line in the source text, for messages
    self_cuda_us: float | None = None
    self_cpu_us: float | None = None

    def same_numbers(self, other: Row, tolerance: float = 0.01) -> bool:
        """Same op and numbers within ``tolerance`` (relative), ignoring where it was read."""

        def close(a: float | None, b: float | None) -> bool:
            if a is None or b is None:
                return a is b
            return abs(a - b) <= tolerance * max(abs(a), abs(b), 1.0)

        return (
            self.name == other.name
            and close(self.cuda_us, other.cuda_us)
            and close(self.cpu_us, other.cpu_us)
            and self.calls == other.calls
            and close(self.memory_bytes, other.memory_bytes)
        )


@dataclass(frozen=True)
class Table:
    """The rows of a profiler table and the format they came from.

    ``device_total_us`` / ``cpu_total_us`` are the totals a key_averages footer states
    ("Self CUDA time total: 439.6ms"): the device time of every kernel, listed or not.
    """

    rows: tuple[Row, ...]
    source_format: str  # "course", "key_averages" or "markdown"
    notes: tuple[str, ...] = ()
    device_total_us: float | None = None
    cpu_total_us: float | None = None

    @property
    def has_self_device(self) -> bool:
        """The table has a Self device column, so nested ops can be counted once exactly."""
        return any(r.self_cuda_us is not None for r in self.rows)

    @property
    def cuda_total_us(self) -> float:
        return sum(r.cuda_us for r in self.rows)

    def top_cuda(self) -> Row:
        return max(self.rows, key=lambda r: r.cuda_us)

    def top_cpu(self) -> Row:
        return max(self.rows, key=lambda r: r.cpu_us)
