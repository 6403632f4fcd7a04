"""Time `grade batch` over N generated reports with CSV and JSON outputs.

Usage (from the project root, package installed): python bench/batch_10k.py [N] [--keep DIR]

Reports are made by recombining the blocks (paragraphs, lists, headings with their text) of
the labelled reports of one part, with small edits (a dropped line, a typo, a reordered
bullet), each under its '## Part X' heading and a front-matter student.  Prints reports per
second, the time for one report (wall / N, and per core), and peak memory of the batch
process and of its largest worker, at N and at N/10 to show how memory grows.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "submissions", ROOT.parent / "shared" / "examples" / "submissions"]
GRADE = Path(sys.executable).parent / "grade"


def blocks_by_part() -> dict[str, list[list[str]]]:
    parts: dict[str, list[list[str]]] = {"A": [], "B": [], "C": []}
    for folder in SOURCES:
        for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
            letter = path.stem.split("-")[1][0].upper() if "-" in path.stem else ""
            if letter not in parts:
                continue
            text = path.read_text()
            parts[letter].append([b for b in text.split("\n\n") if b.strip()])
    return parts


def edit(block: str, rng: random.Random) -> str:
    lines = block.splitlines()
    roll = rng.random()
    if roll < 0.15 and len(lines) > 2:
        lines.pop(rng.randrange(1, len(lines)))
    elif roll < 0.3:
        i = rng.randrange(len(lines))
        words = lines[i].split(" ")
        j = rng.randrange(len(words))
        if len(words[j]) > 4:
            w = words[j]
            words[j] = w[:2] + w[3] + w[2] + w[4:]
        lines[i] = " ".join(words)
    elif roll < 0.4 and len(lines) > 2:
        rng.shuffle(lines)
    return "\n".join(lines)


def generate(n: int, folder: Path, seed: int = 7) -> None:
    rng = random.Random(seed)
    parts = blocks_by_part()
    for i in range(n):
        letter = "ABC"[i % 3]
        base = rng.choice(parts[letter])
        donor = rng.choice(parts[letter])
        blocks = [edit(b, rng) if rng.random() < 0.5 else b for b in base]
        if len(donor) > 2 and rng.random() < 0.6:
            k = rng.randrange(len(blocks))
            blocks[k] = rng.choice(donor)
        body = "\n\n".join(blocks).replace("# Part", "Part")
        sub = folder / f"{i // 1000:02d}"
        sub.mkdir(exist_ok=True)
        (sub / f"r{i:05d}.md").write_text(
            f"---\nstudent: student-{i:05d}\n---\n## Part {letter}\n\n{body}\n"
        )


def timed_batch(folder: Path, out: Path) -> tuple[float, float, str]:
    start = time.perf_counter()
    proc = subprocess.run(
        [
            str(GRADE),
            "batch",
            str(folder),
            "--csv",
            str(out / "out.csv"),
            "--json",
            str(out / "out.json"),
        ],
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if proc.returncode not in (0, 1):
        sys.exit(f"grade batch failed ({proc.returncode}): {proc.stderr[-800:]}")
    return wall, peak_mb, proc.stdout.splitlines()[0]


def main() -> None:
    args = sys.argv[1:]
    n = int(args[0]) if args and args[0].isdigit() else 10_000
    keep = Path(args[args.index("--keep") + 1]) if "--keep" in args else None
    with tempfile.TemporaryDirectory() as tmp:
        base = keep or Path(tmp)
        small, big, out = base / "small", base / "big", base / "out"
        for d in (small, big, out):
            d.mkdir(parents=True, exist_ok=True)
        generate(n // 10, small)
        generate(n, big)
        _, peak_small, _ = timed_batch(small, out)
        wall, peak, first = timed_batch(big, out)
        cores = len(__import__("os").sched_getaffinity(0))
        print(f"{first}")
        print(
            f"{n} reports in {wall:.2f} s wall: {n / wall:.0f} reports/s; "
            f"{1000 * wall / n:.2f} ms per report wall, {1000 * wall * cores / n:.2f} ms "
            f"per report per core ({cores} cores)"
        )
        if n == 10_000:
            print(f"bound (at most 10 s for 10,000 reports): {'met' if wall <= 10 else 'NOT met'}")
        print(
            f"peak memory of one process: {peak_small:.0f} MB at {n // 10} reports, "
            f"{peak:.0f} MB at {n} reports"
        )
        json_mb = (out / "out.json").stat().st_size / 1e6
        print(
            f"outputs: out.csv {(out / 'out.csv').stat().st_size / 1e6:.1f} MB, "
            f"out.json {json_mb:.1f} MB"
        )


if __name__ == "__main__":
    main()
