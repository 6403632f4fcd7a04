"""Count the instructions grading one report costs, with callgrind: a figure that a busy or
throttled machine cannot blur, to compare changes by.

Usage (from the project root, package installed, valgrind on PATH):
    python bench/instructions.py [N]

Generates N reports as bench/batch_10k.py does, then runs under callgrind a process that
warms up as a batch worker does and grades none of them, and one that grades all N; the
difference over N is the cost of one report.  Printed twice: as a batch runs (texts seen
before are remembered: the generated reports share many sentences, as a class's reports
share their template lines), and with every remembered text forgotten before each report
(as if every sentence were new).  Takes a few minutes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from batch_10k import generate  # noqa: E402

CHILD = """
import sys
from pathlib import Path
from grader.batch import run
from grader.batch.collect import collect

files = collect([Path(sys.argv[1])])[: int(sys.argv[2])]
forget = sys.argv[3] == "forget"
run.warm_up(None)
caches = [
    f
    for name, module in list(sys.modules.items())
    if name.startswith("grader.")
    for f in vars(module).values()
    if callable(getattr(f, "cache_clear", None)) and hasattr(f, "cache_info")
    and f.cache_info().maxsize and f.cache_info().maxsize > 64
]
for path in files:
    if forget:
        for f in caches:
            f.cache_clear()
    run.grade_path(path, None)
"""


def instructions(folder: Path, n: int, mode: str) -> int:
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            CHILD,
            str(folder),
            str(n),
            mode,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    m = re.search(r"Collected : (\d+)", out.stderr)
    if not m:
        sys.exit(f"no instruction count in valgrind's output: {out.stderr[-400:]}")
    return int(m.group(1))


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    if shutil.which("valgrind") is None:
        sys.exit("valgrind not found; install it (Debian: apt install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        generate(n, folder)
        base = instructions(folder, 0, "remember")
        for mode, label in (("remember", "as a batch runs"), ("forget", "every text new")):
            per = (instructions(folder, n, mode) - base) / n
            print(f"{per / 1e6:.2f}M instructions per report ({label}; {n} reports)")


if __name__ == "__main__":
    main()
