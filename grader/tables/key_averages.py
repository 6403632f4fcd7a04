"""The text table printed by PyTorch's ``prof.key_averages().table()``.

Columns are separated by two or more spaces and framed by dashed lines; the header names
them: "Name", ("Overload Name"), "Self CPU %", "Self CPU", "CPU total %", "CPU total",
"CPU time avg", then for a device "Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg"
(XPU, MTIA or another device name in place of CUDA), with ``profile_memory`` "CPU Mem",
"Self CPU Mem", "CUDA Mem", "Self CUDA Mem", then "# of Calls" and optionally "Node ID",
"Input Shapes", "Source Location" (one extra line per stack frame) and FLOPs.  A
``header=`` title or the top-level-only notice may stand above the table between lines of
``=``.  Times look like ``38.400ms``, ``512.000us`` or ``1.203s``; memory like ``2.80 Gb``
(older releases) or ``2.80 GB``.  The footer states the totals: ``Self CPU time total:``
and ``Self CUDA time total:``, the device time of every kernel, listed or not.

Totals are inclusive (an op's time contains the ops it called); the Self columns are not,
and the analyzer prefers them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from grader.errors import GraderError, Location
from grader.tables.model import Row, Table
from grader.units import parse_count, parse_memory_bytes, parse_time_us

T = TypeVar("T")
TEXT_COLUMNS = ("input shapes", "source location")  # trailing columns that may be blank
_SEPARATOR = re.compile(r"^\s*-{3,}(\s+-{3,})*\s*$")
_BANNER = re.compile(r"^\s*={3,}\s*$")
_SPLIT = re.compile(r"\s{2,}")
_FOOTER = re.compile(r"^\s*Self (\w+) time total:\s*(\S+)\s*$", re.IGNORECASE)
_DEVICE_TOTAL = re.compile(r"^(?!CPU\b)(\w+) total$", re.IGNORECASE)
_DEVICE_SELF = re.compile(r"^Self (?!CPU\b)(\w+)$", re.IGNORECASE)
_DEVICE_MEM = re.compile(r"^(?!CPU\b)(\w+) Mem$", re.IGNORECASE)


def _table_start(lines: list[str]) -> int | None:
    """Index of the dashed line above the header: the first line, or the first after a
    banner (a line of ``=`` and the title under it, at most twice)."""
    i = 0
    for _ in range(2):
        if i < len(lines) and _BANNER.match(lines[i]):
            i += 2
    return i if i < len(lines) and _SEPARATOR.match(lines[i]) else None


def looks_like_key_averages(text: str) -> bool:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    start = _table_start(lines)
    return start is not None and _has_name(lines[start + 1 : start + 3])


def _has_name(lines: list[str]) -> bool:
    return any(re.search(r"\bName\b", ln) for ln in lines)


def _split(line: str) -> list[str]:
    return [c for c in _SPLIT.split(line.strip()) if c]


def _spans(separator: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"-+", separator)]


def _by_position(line: str, spans: list[tuple[int, int]]) -> list[str]:
    """Cells cut at the columns of the dashed line: keeps empty cells (an overload name
    that is blank) that splitting on spaces would lose."""
    return [line[a:b].strip() for a, b in spans]


def _self_time(text: str) -> float:
    """A Self column: PyTorch can print a small negative self time when children overlap
    their parent; it means no time of its own."""
    return 0.0 if text.strip().startswith("-") else parse_time_us(text)


def parse_key_averages(text: str, file: str = "<table>", first_line: int = 1) -> Table:
    """Rows of a key_averages table: name, device and CPU times, calls, device memory."""
    lines = text.splitlines()
    sep = next((i for i, ln in enumerate(lines) if _SEPARATOR.match(ln)), None)
    header_idx = next(
        (
            i
            for i, ln in enumerate(lines)
            if (sep is None or i > sep) and ln.strip() and not _SEPARATOR.match(ln)
        ),
        None,
    )
    if header_idx is None:
        raise GraderError("the table is empty", Location(file, line=first_line))
    header = _split(lines[header_idx])
    index = {h.lower(): i for i, h in enumerate(header)}
    where = Location(file, line=header_idx + first_line)
    if "name" not in index:
        raise GraderError(f"expected a 'Name' column in the header, got {header}", where)
    for needed in ("cpu total", "# of calls"):
        if needed not in index:
            raise GraderError(f"missing column {needed!r}; the header has {header}", where)
    spans = _spans(lines[sep]) if sep is not None else []
    device_total = next((h for h in header if _DEVICE_TOTAL.match(h)), None)
    device_self = next((h for h in header if _DEVICE_SELF.match(h)), None)
    device_mem = next((h for h in header if _DEVICE_MEM.match(h)), None)
    mem_col = device_mem or next((h for h in header if h.lower() == "cpu mem"), None)
    has_stack = "source location" in index
    optional = [h for h in header if h.lower() in TEXT_COLUMNS]
    notes = []
    if device_total is None:
        notes.append("no device column: a CPU-only profile, so CUDA totals are 0")

    rows: list[Row] = []
    totals: dict[str, float] = {}
    for i in range(header_idx + 1, len(lines)):
        line = lines[i]
        line_no = i + first_line
        footer = _FOOTER.match(line)
        if footer:
            try:
                totals[footer.group(1).upper()] = parse_time_us(footer.group(2))
            except GraderError as exc:
                raise exc.at(Location(file, line=line_no)) from None
            continue
        if totals or not line.strip() or _SEPARATOR.match(line):
            continue
        cells = _split(line)
        if has_stack and len(cells) == 1 and rows:
            continue  # a further stack frame of the row above
        missing = len(header) - len(cells)
        if 0 < missing <= len(optional) and all(
            h.lower() in TEXT_COLUMNS for h in header[-missing:]
        ):
            cells += [""] * missing  # no source location or input shapes for this row
        elif missing and len(spans) == len(header):
            cells = _by_position(line, spans)
        elif len(cells) > len(header):  # a name with two spaces in it
            extra = len(cells) - len(header)
            cells = ["  ".join(cells[: extra + 1]), *cells[extra + 1 :]]
        if len(cells) != len(header):
            raise GraderError(
                f"expected {len(header)} columns as in the header, got {len(cells)}",
                Location(file, line=line_no),
            )

        def parsed(
            column: str, parse: Callable[[str], T], cells: list[str] = cells, line_no: int = line_no
        ) -> T:
            try:
                return parse(cells[index[column.lower()]])
            except GraderError as exc:
                raise exc.at(Location(file, line=line_no, column=column)) from None

        def memory(text: str) -> int:
            return parse_memory_bytes(text, binary_si=True, allow_negative=True)

        rows.append(
            Row(
                name=cells[index["name"]],
                cuda_us=parsed(device_total, parse_time_us) if device_total else 0.0,
                cpu_us=parsed("CPU total", parse_time_us),
                calls=parsed("# of Calls", parse_count),
                memory_bytes=parsed(mem_col, memory) if mem_col else None,
                line=line_no,
                self_cuda_us=parsed(device_self, _self_time) if device_self else None,
                self_cpu_us=parsed("Self CPU", _self_time) if "self cpu" in index else None,
            )
        )
    if not rows:
        raise GraderError("the table has a header but no rows", where)
    device = next((v for k, v in totals.items() if k != "CPU"), None)
    return Table(
        rows=tuple(rows),
        source_format="key_averages",
        notes=tuple(notes),
        device_total_us=device,
        cpu_total_us=totals.get("CPU"),
    )
