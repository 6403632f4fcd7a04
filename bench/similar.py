"""Time the similarity check (`grade batch --similar`) for 300, 3,000 and 10,000 reports.

Usage (from the project root, package installed): python bench/similar.py [N ...]

Reports are generated as bench/batch_10k.py generates them (the labelled reports' blocks
recombined, with small edits), so many of them share whole paragraphs: far more pairs look
copied than in a real class, which makes this a hard case for the check, not an easy one.
For each N it prints the time to read each part as the comparison does (done by the
batch's workers, in parallel, as they grade) and the time to find the pairs (done by the
batch process once every report is graded), whether every pair was scored or only
candidates sharing rare word 3-grams, and how many pairs were found.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch_10k import generate  # noqa: E402

from grader.exercises import resolve_exercise  # noqa: E402
from grader.grading import grade_parts  # noqa: E402
from grader.similar import pairs  # noqa: E402
from grader.similar.text import similarity_text  # noqa: E402
from grader.submission import read_submission  # noqa: E402


def docs_of(folder: Path) -> list[pairs.Doc]:
    exercises = {name: resolve_exercise(name) for name in ("partA", "partB", "partC")}
    docs = []
    for path in sorted(folder.rglob("*.md")):
        sub = read_submission(path)
        student = str(sub.front_matter.get("student") or path.stem)
        for name, text in grade_parts(sub, None):
            docs.append(
                pairs.Doc(student, student, str(path), name, similarity_text(text, exercises[name]))
            )
    return docs


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [300, 3_000, 10_000]
    print(
        f"threshold {pairs.THRESHOLD:g}; every pair scored up to {pairs.ALL_PAIRS:,} parts "
        f"of an exercise, beyond that pairs sharing {pairs.MIN_SHARED}+ word 3-grams held by "
        f"at most {pairs.RARE} parts"
    )
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            generate(n, folder)
            start = time.perf_counter()
            docs = docs_of(folder)
            read = time.perf_counter() - start
            start = time.perf_counter()
            found = pairs.find_similar(docs)
            took = time.perf_counter() - start
        per = max(len([d for d in docs if d.exercise == e]) for e in ("partA", "partB", "partC"))
        how = "every pair" if per <= pairs.ALL_PAIRS else "pruned candidates"
        print(
            f"{n:>6,} reports: find pairs {took:6.2f} s ({how}; {len(found):,} pairs found); "
            f"reading the parts {read:5.2f} s in one process"
        )


if __name__ == "__main__":
    main()
