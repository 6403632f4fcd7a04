"""Worst-case traces (issue 12, item 17): the time and peak memory of importing each.

Usage (from the project root, package installed): python bench/trace_worst.py [SCALE]
SCALE (default 1.0) scales the sizes: 1.0 is the issue's 400 MB string and 200 MB trace.
Each import (what `grade import-trace TRACE` does, less the command line) runs in a fresh
process; a refused input shows the error's name.  Before the msgspec reader these took:
the 400 MB string 78 s, the 200 MB trace 43 s and 867 MB, 20,000 same-name ranges 32.6 s.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.trace_import import run  # noqa: E402
from tests.trace_synth import serving_trace, synth_trace  # noqa: E402

IMPORT = (
    "from pathlib import Path; from grader.traces.cli_run import run_import",
    "run_import(Path(path), None, False, 'text', False)",
)


def long_string(path: Path, scale: float) -> None:
    name = "k" * int(400e6 * scale)
    path.write_text(
        '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "'
        + name
        + '", "ts": 1, "dur": 2, "pid": 0, "tid": 7}]}'
    )


def big_trace(path: Path, scale: float) -> None:
    with path.open("w") as out:
        steps = max(2, int(1000 * scale))
        json.dump(serving_trace("mi300x", layers=32, decode_steps=steps, annotate=True), out)


def same_name_ranges(path: Path, scale: float) -> None:
    data = synth_trace(1, 1, 2)
    data["traceEvents"] += [
        {"ph": "X", "cat": "user_annotation", "name": "tokenize", "pid": 1, "tid": 2,
         "ts": 10.0 + 3 * i, "dur": 1.0, "args": {}}
        for i in range(max(1, int(20_000 * scale)))
    ]  # fmt: skip
    path.write_text(json.dumps(data))


def many_steps(path: Path, scale: float) -> None:
    path.write_text(json.dumps(synth_trace(0, max(2, int(5000 * scale)), 2, annotate=True)))


def not_a_trace(path: Path, scale: float) -> None:
    rows = [{"id": i, "label": f"row {i}"} for i in range(int(700_000 * scale))]
    path.write_text(json.dumps({"schema": 3, "rows": rows}))


CASES: dict[str, Callable[[Path, float], None]] = {
    "one 400 MB string": long_string,
    "a 200 MB trace": big_trace,
    "20,000 same-name ranges": same_name_ranges,
    "5,000 steps": many_steps,
    "a 35 MB JSON that is not a trace": not_a_trace,
}


def main() -> None:
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    folder = Path(tempfile.mkdtemp(prefix="trace-worst-"))
    try:
        print(f"{'case':36} {'size':>9} {'time':>8} {'peak':>9}  result")
        for label, make in CASES.items():
            path = folder / "case.json"
            make(path, scale)
            size = path.stat().st_size
            got = run(sys.executable, IMPORT, path)
            assert got is not None
            took, memory, status = got
            print(f"{label:36} {size / 1e6:7.1f}MB {took:7.2f}s {memory / 1e6:7.0f}MB  {status}")
            path.unlink()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
