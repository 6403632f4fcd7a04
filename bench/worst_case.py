"""Grade hostile inputs, each in its own process, and print its time and peak memory.

Usage (from the project root, package installed): python bench/worst_case.py [NAME ...]

Each shape in ``SHAPES`` is a name, the kind of input it is (the runner that grades it) and
a function that makes the input at a path (most write bytes; some make a FIFO or a link).
Adding a shape is adding one entry; adding a kind of input (a trace, an exercise) is adding
one runner to ``RUNNERS``.

A child process imports and warms up the grader on a small sample first, so the time shown
is the grading of the shape alone; a report is graded against each exercise in turn (as
``grade FILE -e partX``) and the slowest is shown.  Time is CPU time (wall time is shown
too: on a shared machine it says more about the neighbours than about the grader); memory
is the child's peak resident set (``ru_maxrss``), start-up included (see the baseline row).
Every shape under the 1 MB report limit should take under 1 s and 200 MB; exits 1 if one
does not, or if one ends in anything but a result or one clear error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

LIMIT_SECONDS = 1.0
LIMIT_MB = 200
TIMEOUT = 30  # a shape that hangs is killed after this long and reported as such
CHILD_MEMORY = 2_000_000_000  # bytes of address space a child may use
UNDER_LIMIT = 999_000  # bytes: just under the 1 MB report limit


@dataclass(frozen=True)
class Shape:
    name: str
    kind: str  # a key of RUNNERS
    make: Callable[[Path], None]  # creates the input at the path given
    note: str = ""


def _write(data: bytes | str) -> Callable[[Path], None]:
    raw = data.encode() if isinstance(data, str) else data
    return lambda path: path.write_bytes(raw)


def _repeat(unit: str, size: int = UNDER_LIMIT, head: str = "") -> Callable[[Path], None]:
    """``head``, then ``unit`` repeated to about ``size`` bytes."""
    return lambda path: path.write_text(head + unit * ((size - len(head)) // len(unit.encode())))


def _fill(unit: str, head: str = "") -> Callable[[Path], None]:
    """``head``, then ``unit`` as many times as every limit on a report lets through: the
    most work of that kind a report can ask for."""

    def make(path: Path) -> None:
        from grader.report import bounds
        from grader.report.document import _MARKUP

        n = (UNDER_LIMIT - len(head)) // len(unit.encode())
        if "\n" in unit:
            n = min(n, (bounds.MAX_LINES - 10) // unit.count("\n"))
        if unit.split():
            n = min(n, (bounds.MAX_WORDS - 10) // len(unit.split()))
        if _MARKUP.search(unit):
            n = min(n, (bounds.MAX_MARKUP - 10) // len(_MARKUP.findall(unit)))
        path.write_text(head + unit * n)

    return make


def _alias_bomb(path: Path) -> None:
    levels = ["a0: &a0 [" + ",".join(["x"] * 9) + "]"]
    for i in range(1, 9):
        levels.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    front = "\n".join(levels) + "\nstudent: *a8\n"
    path.write_text(f"---\n{front}---\nWorkload: x\n")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _control(path: Path) -> None:
    path.write_bytes(b'---\nstudent: "a\\0b\\x1b[2J"\n---\nWorkload: \x1b[2J x\x07\n')


def _wide_table(path: Path) -> None:
    # 200 columns, 600 elements a row: the element limit stops the parse early.
    head = "|" + "a|" * 200 + "\n|" + "-|" * 200 + "\n"
    path.write_text(head + ("|" + "x|" * 200 + "\n") * 2000)


SHAPES: list[Shape] = [
    Shape("baseline", "report", _write("Workload: x\nTop CUDA time: copies\n"), "a tiny report"),
    # The shapes of the reliability issue (#12), at the sizes it names.
    Shape("front-matter-alias-bomb", "report", _alias_bomb, "9 levels of 9 aliases, 1 KB"),
    Shape("fifo", "report", _fifo, "a FIFO named like a report"),
    Shape("dev-zero-link", "report", _dev_zero, "a link to /dev/zero"),
    Shape("lines-of-x", "report", _repeat("x\n", 200_000), "100,000 lines of 'x'"),
    Shape(
        "clause-marks-line",
        "report",
        _repeat("the copies are not the problem (maybe) ", 84_000, "Top CUDA time: "),
        "one 84 KB line of clause marks and mentions",
    ),
    Shape("brackets", "report", _repeat("["), "1 MB of '['"),
    Shape("list-items", "report", _repeat("- a\n"), "1 MB of '- a' lines"),
    Shape("control-characters", "report", _control, "escapes and NULs in text and student"),
    Shape("utf16-bom", "report", _write("Workload: caf\u00e9\n".encode("utf-16")), "UTF-16"),
    Shape("align-row-spaces", "table", _write("| op | cuda |\n|---" + " " * 40_000 + "x\n")),
    # Other hostile shapes near the 1 MB limit.
    Shape("front-matter-deep-flow", "report", _write("---\nstudent: " + "[" * 500_000 + "\n---\n")),
    Shape("nested-list", "report", _repeat("- " * 40 + "a\n")),
    Shape("blockquotes", "report", _repeat(">" * 100 + " a\n")),
    Shape("emphasis", "report", _repeat("*a _b ")),
    Shape("table-cells", "report", _repeat("|" * 1000 + "\n")),
    Shape("wide-table", "report", _wide_table, "200 columns"),
    Shape("one-word", "report", _repeat("a")),
    Shape("spaces", "report", _write("a" + " " * UNDER_LIMIT + "b")),
    Shape("parentheses", "report", _repeat("(")),
    Shape("nul-bytes-late", "report", _write("x" * 9000 + "\x00" * 500_000)),
    # The most of each kind of work that the limits on lines, words and markup let through.
    Shape("max-lines-of-x", "report", _fill("x\n")),
    Shape("max-wrapped-field", "report", _fill("x\n", "Top CUDA time: copies\n")),
    Shape("max-wrapped-unit", "report", _fill("  x\n", "Hypotheses:\n- H1 copies\n")),
    Shape("max-list-items", "report", _fill("- a\n")),
    Shape("max-unit-items", "report", _fill("- H1 copies\n", "Hypotheses:\n")),
    Shape("max-unit-markers", "report", _fill("H1 (a) 1) ; ", "Hypotheses: ")),
    Shape("max-headings", "report", _fill("## Part A\n")),
    Shape("max-field-labels", "report", _fill("Workload: x\n")),
    Shape("max-table-rows", "report", _fill("| x | y |\n", "| a | b |\n|---|---|\n")),
    Shape("max-brackets", "report", _fill("[")),
    Shape("max-emphasis", "report", _fill("*a _b ")),
    Shape("max-backticks", "report", _fill("`a ``b ")),
    Shape("max-links", "report", _fill("[a](b ")),
    Shape("max-sentences", "report", _fill("Copies are not the problem. ")),
    Shape("max-negated-claims", "report", _fill("not compute-bound ", "Top CUDA time: ")),
    Shape("max-mentions", "report", _fill("flash attention xformers ", "Top CUDA time: ")),
    Shape("max-clauses", "report", _fill("copies, casts; (maybe) ", "Top CUDA time: ")),
    Shape("max-declined-attention", "report", _fill("not flash attention ", "Next experiment: ")),
    Shape("max-dense-paragraph", "report", _fill("Workload: x. Hardware: y. Top CUDA time: z. ")),
    Shape(
        "max-proposals", "report", _fill("- torch.compile the decode step\n", "Next experiment:\n")
    ),
    Shape(
        "max-contrast",
        "report",
        _fill("the copies are not math but launches\n", "Contrast with Part A:\n"),
    ),
]


# --- runners: each grades one input in the child process, one job at a time: it yields a
# (label, outcome) pair per job, and the child times each job and keeps the slowest.

EXERCISES = ("partA", "partB", "partC")


def _grade_report(path: Path) -> Iterator[tuple[str, str]]:
    """Grade the file against each exercise in turn (as ``grade FILE -e partX`` would)."""
    from grader.errors import GraderError
    from grader.grading import grade_submission
    from grader.submission import read_submission

    for exercise in EXERCISES:
        try:
            sub = read_submission(path)
            results = grade_submission(sub, exercise)
            str(sub.front_matter.get("student") or path.stem)  # as a batch names the row
        except GraderError as exc:
            yield exercise, f"error: {exc.message}"
            continue
        yield exercise, "graded " + ", ".join(f"{r.score:g}" for r in results)


def _parse_table(path: Path) -> Iterator[tuple[str, str]]:
    from grader.errors import GraderError
    from grader.tables import parse_table

    try:
        table = parse_table(path.read_text(encoding="utf-8"), str(path))
    except GraderError as exc:
        yield "table", f"error: {exc.message}"
        return
    yield "table", f"parsed {len(table.rows)} rows"


RUNNERS: dict[str, Callable[[Path], Iterator[tuple[str, str]]]] = {
    "report": _grade_report,
    "table": _parse_table,
}


def _child(kind: str, path: Path) -> None:
    import resource

    # A shape that reads without bound ends in MemoryError here, not in the machine's swap.
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))
    with tempfile.TemporaryDirectory() as tmp:
        sample = Path(tmp) / "sample.md"
        sample.write_text("Workload: x\nTop CUDA time: copies\n")
        list(RUNNERS["report"](sample))  # imports, lexicons and exercises loaded before timing
    slowest = (-1.0, 0.0, "", "")
    jobs = RUNNERS[kind](path)
    while True:
        wall, cpu = time.perf_counter(), time.process_time()
        job = next(jobs, None)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if job is None:
            break
        slowest = max(slowest, (cpu, wall, *job))
    cpu, wall, label, outcome = slowest
    print(json.dumps({"seconds": cpu, "wall": wall, "outcome": f"{label}: {outcome}"}))


@dataclass(frozen=True)
class Figures:
    cpu: float | None  # seconds of CPU time of the slowest job, None if none finished
    wall: float | None
    peak_mb: float
    outcome: str


def _measure(shape: Shape, folder: Path) -> Figures:
    path = folder / f"{shape.name}.md"
    shape.make(path)
    cmd = [sys.executable, __file__, "--run", shape.kind, str(path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return Figures(None, None, _children_peak_mb(), f"killed after {TIMEOUT} s")
    peak_mb = _children_peak_mb()
    if proc.returncode != 0:
        last = (err.strip().splitlines() or ["?"])[-1]
        return Figures(None, None, peak_mb, f"exit {proc.returncode}: {last}")
    data = json.loads(out.strip().splitlines()[-1])
    return Figures(data["seconds"], data["wall"], peak_mb, data["outcome"])


def _children_peak_mb() -> float:
    """The peak RSS of the children reaped so far: one, the shape's (see ``main``)."""
    import resource

    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def _seconds(value: float | None) -> str:
    return f"{value:7.3f}s" if value is not None else "       -"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--run"]:
        _child(argv[1], Path(argv[2]))
        return 0
    if argv[:1] == ["--one"]:  # one shape, measured by a process of its own (see below)
        shape = next(s for s in SHAPES if s.name == argv[1])
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(_measure(shape, Path(tmp)).__dict__))
        return 0
    names = argv or [s.name for s in SHAPES]
    unknown = sorted(set(names) - {s.name for s in SHAPES})
    if unknown:
        print(f"unknown shape(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    print(f"{'shape':<26} {'cpu':>8} {'wall':>8} {'peak':>7}  slowest outcome")
    over = 0
    for shape in (s for s in SHAPES if s.name in names):
        # ru_maxrss of RUSAGE_CHILDREN is the largest of all children so far: measure each
        # shape from a fresh process so that its figure is its own.
        proc = subprocess.run(
            [sys.executable, __file__, "--one", shape.name], capture_output=True, text=True
        )
        if proc.returncode != 0:
            print(f"{shape.name:<26} failed: {proc.stderr.strip()[-200:]}")
            over += 1
            continue
        f = Figures(**json.loads(proc.stdout))
        bad = f.cpu is None or f.cpu > LIMIT_SECONDS or f.peak_mb > LIMIT_MB
        over += bad
        mark = "  OVER" if bad else ""
        print(
            f"{shape.name:<26} {_seconds(f.cpu)} {_seconds(f.wall)} {f.peak_mb:5.0f}MB  "
            f"{f.outcome[:64]}{mark}"
        )
    print(f"limits: {LIMIT_SECONDS:g} s of CPU time and {LIMIT_MB} MB per shape; {over} over")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
