"""A batch's results as CSV, JSON and one markdown feedback file per student."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from grader.atomic import atomic_open, write_text
from grader.batch.run import Row
from grader.batch.summary import Summary

BIG_BUFFER = 1 << 20  # a class's CSV and JSON are written in ten thousand pieces


def criterion_ids(rows: list[Row]) -> list[str]:
    """Every criterion seen, in the order rubrics list them."""
    seen: dict[str, None] = {}
    exercises: set[str] = set()  # an exercise's criteria are the same in every report
    for row in rows:
        for result in row.results:
            if result.exercise not in exercises:
                exercises.add(result.exercise)
                for cid, _, _ in result.criteria:
                    seen.setdefault(cid, None)
    return list(seen)


def write_csv(path: Path, rows: list[Row]) -> None:
    ids = criterion_ids(rows)
    with atomic_open(path, newline="", buffering=BIG_BUFFER) as handle:
        out = csv.writer(handle)
        out.writerow(["student", "file", "exercise", "score", "grade", *ids, "error"])
        for row in rows:
            if row.error:
                out.writerow([row.student, row.file, "", "", "", *([""] * len(ids)), row.error])
                continue
            for result in row.results:
                points = {cid: pts for cid, _, pts in result.criteria}
                out.writerow(
                    [
                        row.student,
                        row.file,
                        result.exercise,
                        result.score,
                        result.grade,
                        *(f"{points[i]:g}" if i in points else "" for i in ids),
                        "",
                    ]
                )


def write_json(path: Path, rows: list[Row], summary: Summary) -> None:
    """``{"reports": [...], "summary": {...}}``: each graded part's JSON with its student and
    file first, and an error entry for a report that could not be graded.  Entries are
    written one by one as the workers encoded them, never held twice in memory."""
    with atomic_open(path, "wb", buffering=BIG_BUFFER) as handle:
        handle.write(b'{"reports": [')
        sep = b""
        for row in rows:
            if row.error:
                error = {"student": row.student, "file": row.file, "error": row.error}
                handle.write(sep + json.dumps(error).encode("ascii"))
                sep = b", "
            for r in row.results:
                handle.write(sep)
                handle.write(r.entry)
                sep = b", "
        handle.write(b'], "summary": ')
        handle.write(json.dumps(summary.to_dict()).encode("ascii"))
        handle.write(b"}\n")


_UNSAFE = re.compile(r"[^\w.@+-]+")


def feedback_name(student: str) -> str:
    return (_UNSAFE.sub("_", student).strip("._") or "student") + ".md"


def render_feedback(student: str, rows: list[Row]) -> str:
    lines = [f"# Feedback for {student}", ""]
    for row in rows:
        if row.error:
            lines += [f"`{Path(row.file).name}` could not be graded: {row.error}", ""]
        for r in (g.data() for g in row.results):
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
