"""Trace reading: this project's reader against the one it replaced, the standard library,
orjson, untyped msgspec and HolisticTraceAnalysis, on the same traces.

Usage (from the project root, package installed):
    python bench/trace_import.py [TRACE.json ...]
Without arguments it reads the shared traces of about 15 and 60 MB (decompressed into a
temporary folder) and a 37 MB JSON file that is not a trace.  Each reader runs in a fresh
process, three times; the table gives the median wall time of reading (imports excluded),
the peak memory above the process's after its imports as a multiple of the file's size,
and the time as a multiple of ours.  HolisticTraceAnalysis runs where HTA_PYTHON names a
Python that has it (``pip install holistictraceanalysis`` in a bench virtualenv: never a
project dependency).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "traces"
DEFAULT = ("b200_gpt-oss-120b_tp8_prefill", "mi300x_xdit_flux1_compiled")

# Each reader is a statement run on `path` (a str) after its imports; it prints nothing.
READERS: dict[str, tuple[str, str]] = {
    "grader (msgspec structs)": (
        "from pathlib import Path; from grader.traces.reader import read_trace",
        "read_trace(Path(path))",
    ),
    "grader import-trace": (
        "from pathlib import Path; from grader.traces.cli_run import run_import",
        "run_import(Path(path), None, False, 'text', False)",
    ),
    "before: raw_decode stream": ("import bench.stream_reader as s", "s.read(path)"),
    "json.load": ("import json", "json.load(open(path, 'rb'))"),
    "orjson.loads": ("import orjson", "orjson.loads(open(path, 'rb').read())"),
    "msgspec untyped": ("import msgspec", "msgspec.json.decode(open(path, 'rb').read())"),
}
HTA = (
    "import logging; logging.disable(logging.WARNING); "
    "from hta.common.trace import parse_trace_file",
    "parse_trace_file(path)",
)
# Memory is read from /proc (VmHWM is this process's peak, reset by exec, unlike
# ru_maxrss, which keeps the forking parent's).
CHILD = """
import sys, time
def vm(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
path = sys.argv[1]
{imports}
base = vm("VmRSS")
start = time.perf_counter()
try:
    {statement}
    status = "ok"
except Exception as exc:
    status = type(exc).__name__
took = time.perf_counter() - start
print(took, vm("VmHWM") - base, status)
"""


def run(python: str, reader: tuple[str, str], path: Path) -> tuple[float, float, str] | None:
    code = CHILD.format(imports=reader[0], statement=reader[1])
    results = []
    for _ in range(3):
        proc = subprocess.run(
            [python, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT
        )
        if proc.returncode != 0:
            return None  # the reader is not installed there
        took, memory, status = proc.stdout.split()
        results.append((float(took), float(memory), status))
    took = statistics.median(r[0] for r in results)
    return took, max(r[1] for r in results), results[0][2]


def not_a_trace(folder: Path) -> Path:
    path = folder / "not_a_trace.json"
    rows = [{"id": i, "label": f"row {i}", "values": [i, i * 2.5, None]} for i in range(500_000)]
    path.write_text(json.dumps({"schema": 3, "rows": rows}))
    return path


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="trace-bench-"))
    try:
        paths = [Path(p) for p in sys.argv[1:]]
        if not paths:
            for name in DEFAULT:
                source = SHARED / f"{name}.json.gz"
                if source.is_file():
                    paths.append(folder / f"{name}.json")
                    with gzip.open(source, "rb") as src, paths[-1].open("wb") as dst:
                        shutil.copyfileobj(src, dst)
            paths.append(not_a_trace(folder))
        hta = os.environ.get("HTA_PYTHON")
        for path in paths:
            size = path.stat().st_size
            print(f"\n{path.name}: {size / 1e6:.1f} MB")
            print(f"  {'reader':28} {'time':>8} {'memory':>8} {'vs ours':>8}  result")
            ours = None
            readers = [(name, sys.executable, r) for name, r in READERS.items()]
            if hta:
                readers.append(("HolisticTraceAnalysis", hta, HTA))
            for name, python, reader in readers:
                got = run(python, reader, path)
                if got is None:
                    print(f"  {name:28} {'(not installed)':>8}")
                    continue
                took, memory, status = got
                ours = ours or took
                print(
                    f"  {name:28} {took:7.2f}s {memory / size:7.2f}x {took / ours:7.1f}x  {status}"
                )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
