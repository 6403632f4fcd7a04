"""The text table printed by PyTorch's ``prof.key_averages().table()``.

Columns are separated by two or more spaces and framed by dashed lines; the header names
them ("Name", "Self CPU %", "CPU total", "CUDA total", "CPU Mem", "CUDA Mem", "# of Calls"...;
the device columns may say XPU or another device).  Times look like ``38.400ms`` or
``512.000us``; memory like ``2.80 Gb`` (older releases) or ``2.80 GB``.  The footer lines
``Self CPU time total: ...`` close the table.  Totals are inclusive, as PyTorch computes them.
"""

from __future__ import annotations

import re

from grader.errors import GraderError, Location
from grader.tables.model import Row, Table
from grader.units import parse_count, parse_memory_bytes, parse_time_us

_SEPARATOR = re.compile(r"^\s*-{3,}(\s+-{3,})*\s*$")
_SPLIT = re.compile(r"\s{2,}")
_FOOTER = re.compile(r"^\s*Self \w+ time total:", re.IGNORECASE)
_DEVICE_TOTAL = re.compile(r"^(?!CPU\b)(\w+) total$", re.IGNORECASE)
_DEVICE_MEM = re.compile(r"^(?!CPU\b)(\w+) Mem$", re.IGNORECASE)


def looks_like_key_averages(text: str) -> bool:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return (
        bool(lines)
        and bool(_SEPARATOR.match(lines[0]))
        and any(re.search(r"\bName\b", ln) for ln in lines[1:3])
    )


def _split(line: str) -> list[str]:
    return [c for c in _SPLIT.split(line.strip()) if c]


def parse_key_averages(text: str, file: str = "<table>", first_line: int = 1) -> Table:
    """Rows of a key_averages table: name, device total, CPU total, calls, device memory."""
    lines = text.splitlines()
    header_idx = next(
        (i for i, ln in enumerate(lines) if not _SEPARATOR.match(ln) and ln.strip()), None
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
    device_total = next((h for h in header if _DEVICE_TOTAL.match(h)), None)
    device_mem = next((h for h in header if _DEVICE_MEM.match(h)), None)
    mem_col = device_mem or next((h for h in header if h.lower() == "cpu mem"), None)
    notes = []
    if device_total is None:
        notes.append("no device column: a CPU-only profile, so CUDA totals are 0")

    rows: list[Row] = []
    for i in range(header_idx + 1, len(lines)):
        line = lines[i]
        if not line.strip() or _SEPARATOR.match(line):
            continue
        if _FOOTER.match(line):
            break
        line_no = i + first_line
        cells = _split(line)
        if len(cells) > len(header):  # a name with two spaces in it
            extra = len(cells) - len(header)
            cells = ["  ".join(cells[: extra + 1]), *cells[extra + 1 :]]
        if len(cells) != len(header):
            raise GraderError(
                f"expected {len(header)} columns as in the header, got {len(cells)}",
                Location(file, line=line_no),
            )

        def cell(column: str, cells: list[str] = cells) -> str:
            return cells[index[column.lower()]]

        def parsed(column: str, parse, line_no: int = line_no):  # type: ignore[no-untyped-def]
            try:
                return parse(cell(column))
            except GraderError as exc:
                raise exc.at(Location(file, line=line_no, column=column)) from None

        rows.append(
            Row(
                name=cell("Name"),
                cuda_us=parsed(device_total, parse_time_us) if device_total else 0.0,
                cpu_us=parsed("CPU total", parse_time_us),
                calls=parsed("# of Calls", parse_count),
                memory_bytes=(
                    parsed(
                        mem_col,
                        lambda t: parse_memory_bytes(t, binary_si=True, allow_negative=True),
                    )
                    if mem_col
                    else 0
                ),
                line=line_no,
            )
        )
    if not rows:
        raise GraderError("the table has a header but no rows", where)
    return Table(rows=tuple(rows), source_format="key_averages", notes=tuple(notes))
