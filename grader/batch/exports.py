"""A batch's results as CSV, JSON and one markdown feedback file per student."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

from grader.atomic import atomic_open, write_text
from grader.batch.run import Row
from grader.batch.summary import Summary


def criterion_ids(rows: list[Row]) -> list[str]:
    """Every criterion seen, in the order rubrics list them."""
    seen: dict[str, None] = {}
    for row in rows:
        for result in row.results:
            for c in result["criteria"]:
                seen.setdefault(c["id"], None)
    return list(seen)


def write_csv(path: Path, rows: list[Row]) -> None:
    ids = criterion_ids(rows)
    with atomic_open(path, newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["student", "file", "exercise", "score", "grade", *ids, "error"])
        for row in rows:
            if row.error:
                out.writerow([row.student, row.file, "", "", "", *([""] * len(ids)), row.error])
                continue
            for result in row.results:
                points = {c["id"]: c["points"] for c in result["criteria"]}
                out.writerow(
                    [
                        row.student,
                        row.file,
                        result["exercise"],
                        result["score"],
                        result["grade"],
                        *(f"{points[i]:g}" if i in points else "" for i in ids),
                        "",
                    ]
                )


def row_dicts(rows: list[Row]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for row in rows:
        if row.error:
            out.append({"student": row.student, "file": row.file, "error": row.error})
        for result in row.results:
            out.append({"student": row.student, "file": row.file, **result})
    return out


def write_json(path: Path, rows: list[Row], summary: Summary) -> None:
    with atomic_open(path) as handle:
        json.dump({"reports": row_dicts(rows), "summary": summary.to_dict()}, handle, indent=1)
        handle.write("\n")


_UNSAFE = re.compile(r"[^\w.@+-]+")


def feedback_name(student: str) -> str:
    return (_UNSAFE.sub("_", student).strip("._") or "student") + ".md"


def render_feedback(student: str, rows: list[Row]) -> str:
    lines = [f"# Feedback for {student}", ""]
    for row in rows:
        if row.error:
            lines += [f"`{Path(row.file).name}` could not be graded: {row.error}", ""]
        for r in row.results:
            lines += [
                f"## {r['exercise']}: {r['score']:g}/100 ({r['grade']})",
                f"Expected diagnosis: {r['bottleneck']['expected']}.",
                "",
            ]
            passed = [c for c in r["criteria"] if c["passed"]]
            failed = [c for c in r["criteria"] if not c["passed"]]
            if passed:
                lines.append("What passed:")
                lines += [f"- **{c['id']}**: {c['feedback']}" for c in passed]
                lines.append("")
            if failed:
                lines.append("What to work on:")
                for c in failed:
                    where = c["evidence"]
                    quote = f' (line {where["line"]}: "{where["text"]}")' if where["line"] else ""
                    lines.append(f"- **{c['id']}**: {c['feedback']}{quote}")
                    lines.append(f"  - Hint: {c['hint']}")
                lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def write_feedback(directory: Path, rows: list[Row]) -> int:
    by_student: dict[str, list[Row]] = {}
    for row in rows:
        by_student.setdefault(row.student, []).append(row)
    used: set[str] = set()
    for student, own in by_student.items():
        name = feedback_name(student)
        while name in used:  # two students whose names clean to the same file name
            name = name[:-3] + "_.md"
        used.add(name)
        write_text(directory / name, render_feedback(student, own))
    return len(by_student)
