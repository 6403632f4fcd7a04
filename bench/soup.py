"""How keyword-stuffed reports score: the issue's target is none above 40/100.

    python bench/soup.py            # every labelled set with soups (tests/labelled/*)
    python bench/soup.py DIR ...    # only these folders (labels.yaml + submissions/)

A soup is a labelled report whose notes start with "SOUP:" (the labelling brief asks its
authors to mark them so).  For each, the grader's score is set beside the score its labels
earn under the same rubric: a soup whose labels themselves earn more than 40 (its fields are
there, it proposes no attention kernel, it states the copy share) cannot be held to 40 by
any grader that agrees with them.  Prints figures; asserts nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from grader.grading import grade_file

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 40.0


def _soups(folder: Path) -> list[tuple[Path, str, dict[str, bool | None]]]:
    labels = yaml.safe_load((folder / "labels.yaml").read_text(encoding="utf-8"))
    return [
        (folder / "submissions" / name, entry["exercise"], entry["criteria"])
        for name, entry in sorted(labels.items())
        if str(entry.get("notes") or "").startswith("SOUP")
    ]


def main(argv: list[str]) -> None:
    folders = [Path(a) for a in argv] or sorted(
        d for d in (ROOT / "tests" / "labelled").glob("s*") if d.is_dir()
    )
    rows = []
    for folder in folders:
        for path, exercise, labels in _soups(folder):
            result = grade_file(path, exercise)[0]
            earned = sum(
                c.max_points for c in result.criteria if not c.bonus and labels.get(c.id) is True
            )
            # the points the labels give, on the grader's own scale
            labelled = 100 * earned / result.max_score if result.max_score else 0.0
            rows.append((result.score, labelled, f"{folder.name}/{path.name}"))
    if not rows:
        print("no soups labelled in these folders")
        return
    above = [r for r in rows if r[0] > LIMIT]
    honest = [r for r in above if r[1] <= LIMIT]
    print(f"soups: {len(rows)}")
    print(
        f"scored <= {LIMIT:.0f}: {len(rows) - len(above)} "
        f"({100 * (1 - len(above) / len(rows)):.1f}%)"
    )
    print(
        f"above {LIMIT:.0f}: {len(above)}, of which {len(above) - len(honest)} have labels "
        f"that themselves earn more than {LIMIT:.0f}"
    )
    for score, labelled, name in sorted(above, reverse=True):
        print(f"  {score:5.1f}  (labels {labelled:5.1f})  {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
