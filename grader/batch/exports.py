"""A batch's results as CSV, JSON and one markdown feedback file per student.

Each writer writes into an ``OutputSet``, which renames the run's outputs together.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from grader.atomic import OutputSet
from grader.batch.collect import FEEDBACK_MARK
from grader.batch.names import shown, unique_file_names
from grader.batch.outputs import Findings
from grader.batch.run import Graded, Row
from grader.batch.students import display_names, student_key
from grader.batch.summary import Summary

BIG_BUFFER = 1 << 20  # a class's CSV and JSON are written in ten thousand pieces
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


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


def cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: escaped, and never read as a formula."""
    text = shown(text)
    return "'" + text if text.startswith(_FORMULA) else text


def row_warnings(row: Row, result: Graded | None = None) -> list[str]:
    """The batch's notes on a row and a part's warnings, without the file name they repeat."""
    prefix = shown(row.file) + ": "
    found = [*row.notes, *(result.warnings if result else ())]
    return [w[len(prefix) :] if w.startswith(prefix) else w for w in found]


def _verdict(c: dict[str, Any]) -> str:
    return f"{'passed' if c['passed'] else 'failed'} {c['points']:g}/{c['max_points']:g}"


def override_notes(result: dict[str, Any]) -> list[str]:
    """What an instructor changed in a part, beside what the grader said:
    'two-hypotheses: failed 0/10 by the grader, passed 10/10 (note)'."""
    notes = [
        f"{c['id']}: {_verdict({**c, **c['auto']})} by the grader, {_verdict(c)} "
        f"({c['override']['note']})"
        for c in result["criteria"]
        if "override" in c
    ]
    notes += [f"score {a['points']:+g} ({a['note']})" for a in result.get("adjustments", ())]
    return notes


def write_csv(outputs: OutputSet, path: Path, rows: list[Row], summary: Summary) -> None:
    """One row per graded part (and per file that could not be graded): its points per
    criterion, the student's total, whether it counts, the criteria flagged for review,
    the grader's own score and what overrides changed, the warnings, the error."""
    ids = criterion_ids(rows)
    blank = [""] * len(ids)
    with outputs.open(path, newline="", buffering=BIG_BUFFER) as handle:
        out = csv.writer(handle)
        out.writerow(
            ["student", "file", "exercise", "score", "grade", *ids]
            + ["student_total", "counted", "review", "auto_score", "overrides"]
            + ["warnings", "error"]
        )
        for row in rows:
            who, file = cell(row.student), cell(row.file)
            total = summary.totals.get(student_key(row.student))
            shown_total = "" if total is None else f"{total:g}"
            if row.error:
                notes = cell("; ".join(row_warnings(row)))
                out.writerow(
                    [who, file, "", "", "", *blank, shown_total, "", "", "", "", notes]
                    + [cell(row.error)]
                )
                continue
            for result in row.results:
                points = {cid: pts for cid, _, pts in result.criteria}
                auto, changes = result.score, ""
                if result.overridden:
                    data = result.data()
                    auto = data["auto"]["score"]
                    changes = cell("; ".join(override_notes(data)))
                out.writerow(
                    [
                        who,
                        file,
                        result.exercise,
                        result.score,
                        result.grade,
                        *(f"{points[i]:g}" if i in points else "" for i in ids),
                        shown_total,
                        "yes" if row.counted(result) else "no",
                        "; ".join(r[0] for r in result.review),
                        auto,
                        changes,
                        cell("; ".join(row_warnings(row, result))),
                        "",
                    ]
                )


def write_json(
    outputs: OutputSet, path: Path, rows: list[Row], summary: Summary, findings: Findings
) -> None:
    """``{"reports": [...], "summary": {...}}``: each graded part's JSON with its student and
    file first, and an error entry for a report that could not be graded; then, when they
    were looked for, ``"stale_overrides"`` and ``"similar"`` pairs.  Entries are written
    one by one as the workers encoded them, never held twice in memory."""
    with outputs.open(path, "wb", buffering=BIG_BUFFER) as handle:
        handle.write(b'{"reports": [')
        sep = b""
        for row in rows:
            if row.error:
                error = {
                    "student": shown(row.student),
                    "file": shown(row.file),
                    "error": shown(row.error),
                    "notes": row.notes,
                }
                handle.write(sep + json.dumps(error).encode("ascii"))
                sep = b", "
            for r in row.results:
                handle.write(sep)
                if row.counted(r) and not row.notes:
                    handle.write(r.entry)
                else:
                    data = r.data()
                    data["counted"] = row.counted(r)
                    if not row.counted(r):
                        data["counted_instead"] = shown(row.superseded[r.exercise])
                    data["notes"] = row.notes
                    handle.write(json.dumps(data).encode("ascii"))
                sep = b", "
        handle.write(b'], "summary": ')
        handle.write(json.dumps(summary.to_dict()).encode("ascii"))
        if findings.stale is not None:
            stale = [s.to_dict() for s in findings.stale]
            handle.write(b', "stale_overrides": ' + json.dumps(stale).encode("ascii"))
        if findings.similar is not None:
            pairs = [p.to_dict() for p in findings.similar]
            handle.write(b', "similar": ' + json.dumps(pairs).encode("ascii"))
        handle.write(b"}\n")


def _changed_by_instructor(c: dict[str, Any]) -> list[str]:
    """A criterion an override changed: what the grader said, and the instructor's note."""
    if "override" not in c:
        return []
    return [
        f"  - Changed by your instructor: {shown(c['override']['note'])} "
        f"(the automatic grader said: {_verdict({**c, **c['auto']})})"
    ]


def _criterion_lines(c: dict[str, Any]) -> list[str]:
    where = c["evidence"]
    quote = f' (line {where["line"]}: "{shown(where["text"])}")' if where["line"] else ""
    lines = [f"- **{c['id']}**: {c['feedback']}{quote}", *_changed_by_instructor(c)]
    detail = c.get("detail") or ""
    if detail and (not where["line"] or detail != where["text"]):
        lines.append(f"  - What the grader found: {shown(detail)}")
    if c["hint"]:
        lines.append(f"  - Hint: {c['hint']}")
    return lines


def render_feedback(student: str, rows: list[Row]) -> str:
    lines = [f"# Feedback for {shown(student)}", ""]
    for row in rows:
        name = shown(Path(row.file).name)
        if row.error:
            lines += [f"`{name}` could not be graded: {shown(row.error)}", ""]
        for graded in row.results:
            r = graded.data()
            lines.append(f"## {r['exercise']}: {r['score']:g}/100 ({r['grade']})")
            if "auto" in r:
                auto = r["auto"]
                lines.append(
                    f"Your instructor changed this grade; the automatic grader gave "
                    f"{auto['score']:g}/100 ({auto['grade']})."
                )
                for a in r.get("adjustments", ()):
                    lines.append(f"Score adjusted by {a['points']:+g}: {shown(a['note'])}")
            if not row.counted(graded):
                later = shown(Path(row.superseded[graded.exercise]).name)
                lines.append(f"From `{name}`; not counted: `{later}`, submitted later, counts.")
            lines += [f"Expected diagnosis: {r['bottleneck']['expected']}.", ""]
            passed = [c for c in r["criteria"] if c["passed"]]
            failed = [c for c in r["criteria"] if not c["passed"]]
            if passed:
                lines.append("What passed:")
                for c in passed:
                    lines += [f"- **{c['id']}**: {c['feedback']}", *_changed_by_instructor(c)]
                lines.append("")
            if failed:
                lines.append("What to work on:")
                for c in failed:
                    lines += _criterion_lines(c)
                lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def write_feedback(outputs: OutputSet, directory: Path, rows: list[Row]) -> int:
    """One file per student (named after them, safely, distinct whatever the case), and the
    mark that keeps a later batch from grading the folder."""
    by_student: dict[str, list[Row]] = {}
    for row in rows:
        by_student.setdefault(student_key(row.student), []).append(row)
    names = display_names(rows)
    files = unique_file_names([names[key] for key in by_student], ".md")
    for key, own in by_student.items():
        outputs.write_text(directory / files[names[key]], render_feedback(names[key], own))
    outputs.write_text(
        directory / FEEDBACK_MARK,
        "Feedback files written by 'grade batch'; a batch does not grade this folder.\n",
    )
    return len(by_student)
