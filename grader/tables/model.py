"""One in-memory profiler table, whatever format it was read from."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One op of a profiler table; times in microseconds, memory in bytes."""

    name: str
    cuda_us: float
    cpu_us: float
    calls: int
    memory_bytes: int
    line: int = 0  # line in the source text, for messages

    def same_numbers(self, other: Row, tolerance: float = 0.01) -> bool:
        """Same op and numbers within ``tolerance`` (relative), ignoring where it was read."""

        def close(a: float, b: float) -> bool:
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
    """The rows of a profiler table and the format they came from."""

    rows: tuple[Row, ...]
    source_format: str  # "course", "key_averages" or "markdown"
    notes: tuple[str, ...] = ()

    @property
    def cuda_total_us(self) -> float:
        return sum(r.cuda_us for r in self.rows)

    def top_cuda(self) -> Row:
        return max(self.rows, key=lambda r: r.cuda_us)

    def top_cpu(self) -> Row:
        return max(self.rows, key=lambda r: r.cpu_us)
