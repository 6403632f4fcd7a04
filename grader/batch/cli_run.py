"""The batch command's work: grade, summarise, write every output asked for."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from grader.atomic import write_text
from grader.batch.collect import collect
from grader.batch.exports import write_csv, write_feedback, write_json
from grader.batch.run import Row, grade_all, sort_rows
from grader.batch.summary import render_summary, summarise
from grader.errors import GraderError
from grader.exercises import resolve_exercise

PROGRESS_OVER = 20


def _progress(total: int):  # type: ignore[no-untyped-def]
    """A rich progress bar on stderr for a long batch at a terminal; else nothing."""
    if total <= PROGRESS_OVER or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import Progress

    bar = Progress(transient=True, console=Console(stderr=True))
    bar.start()
    task = bar.add_task("grading", total=total)
    return bar, task


def run_batch(
    paths: list[Path],
    exercise: str | None,
    csv_out: Path | None = None,
    json_out: Path | None = None,
    feedback_dir: Path | None = None,
    html_out: Path | None = None,
    gradescope_out: Path | None = None,
    workers: int | None = None,
) -> int:
    files = collect(paths)
    if not files:
        raise GraderError("no .md or .txt report found in " + ", ".join(map(str, paths)))
    if gradescope_out is not None and len(files) != 1:
        raise GraderError(f"--gradescope writes the results of one report; got {len(files)}")
    if exercise is not None:
        resolve_exercise(exercise)  # a bad --exercise is the user's mistake: say so once
    bar = _progress(len(files))
    rows: list[Row] = []
    summary = summarise([])
    try:
        tick = (lambda n: bar[0].advance(bar[1], n)) if bar else None
        for row in grade_all(files, exercise, workers, tick):
            rows.append(row)
            summary.add(row)  # while the workers grade, the parent counts
    finally:
        if bar:
            bar[0].stop()
    rows = sort_rows(rows)
    if csv_out:
        write_csv(csv_out, rows)
    if json_out:
        write_json(json_out, rows, summary)
    if feedback_dir:
        write_feedback(feedback_dir, rows)
    if html_out:
        from grader.batch.html import render_html

        write_text(html_out, render_html(rows, summary))
    if gradescope_out:
        from grader.gradescope import error_results, results_json

        row = rows[0]
        data = error_results(row.error) if row.error else results_json(row.results[0].data())
        write_text(gradescope_out, json.dumps(data, indent=2) + "\n")
    for row in rows:
        if row.error:
            print(f"error: {row.file}: {row.error}", file=sys.stderr)
    print(render_summary(summary))
    return 1 if summary.failed else 0
