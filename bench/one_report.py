"""Wall time of `grade` on one report, and where start-up goes.

Usage (from the project root, package installed): python bench/one_report.py [RUNS]
Prints the median and worst wall time of RUNS runs of the installed `grade` command, then
the slowest imports of `python -X importtime` for the same job.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "submissions" / "s-a01.md"
GRADE = Path(sys.executable).parent / "grade"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    cmd = [str(GRADE), str(REPORT), "--exercise", "partA"]
    # A first run writes the package's bytecode, unless PYTHONDONTWRITEBYTECODE is set (as
    # in this project's sandbox): compile it once, as any ordinary first run would.
    package = Path(__import__("grader").__file__).parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    subprocess.run(cmd, capture_output=True, check=True)  # warm the caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    print(
        f"grade one report: median {statistics.median(times):.3f} s, "
        f"worst {max(times):.3f} s over {runs} runs"
    )
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "grader", *cmd[1:]],
        capture_output=True,
        text=True,
    )
    rows = []
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit():
                rows.append((int(cumulative), name.rstrip()))
    top = [r for r in rows if not r[1].startswith("  ")]  # one space: imported by the job
    total = sum(c for c, _ in top)
    print(f"imports: {total / 1e6:.3f} s in all; the largest top-level ones:")
    for cumulative, name in sorted(top, reverse=True)[:8]:
        print(f"  {cumulative / 1e6:.3f} s  {name.strip()}")


if __name__ == "__main__":
    main()
