"""The batch command's work: check the outputs, grade, summarise, write every output."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, cast

from grader.atomic import remove_own_temporaries
from grader.batch.collect import collect
from grader.batch.names import shown
from grader.batch.outputs import Findings, Outputs, check_outputs, similar_line, write_outputs
from grader.batch.run import Row, grade_all
from grader.batch.students import resolve_duplicates, sort_rows, student_key
from grader.batch.summary import Summary, render_summary
from grader.errors import GraderError
from grader.exercises import resolve_exercise
from grader.overrides.model import load_overrides
from grader.overrides.rows import apply_to_rows

if TYPE_CHECKING:
    from grader.rubric import Rubric
    from grader.similar.pairs import Pair

PROGRESS_OVER = 20
WARNINGS_SHOWN = 20  # on the terminal; the CSV and HTML list every one
SIMILAR_SHOWN = 20  # pairs that look copied, on the terminal


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


def _report_problems(rows: list[Row], outputs: Outputs) -> None:
    """Each error on stderr; warnings too, the first few with a count of the rest."""
    warnings = []
    for row in rows:
        if row.error:
            print(f"error: {shown(row.file)}: {shown(row.error)}", file=sys.stderr)
        warnings += [f"{shown(row.file)}: {n}" for n in row.notes]
        for result in row.results:
            warnings += list(result.warnings)
    for w in warnings[:WARNINGS_SHOWN]:
        print(f"warning: {w}", file=sys.stderr)
    if len(warnings) > WARNINGS_SHOWN:
        where = "the CSV's warnings column and the HTML" if outputs.csv or outputs.html else ""
        more = f"{len(warnings) - WARNINGS_SHOWN} more warnings"
        print(f"warning: ... {more}" + (f" (all in {where})" if where else ""), file=sys.stderr)


def _one_report(row: Row, written: Path) -> str:
    """What ``--gradescope`` prints for its one report, instead of a class summary."""
    if row.error:
        return f"{shown(row.file)}: could not be graded; wrote {written}"
    parts = ", ".join(f"{r.exercise} {r.score:g}/100 ({r.grade})" for r in row.results)
    return f"{shown(row.file)}: {parts}; wrote {written}"


@contextlib.contextmanager
def _stop_cleanly_on_sigterm() -> Iterator[None]:
    """``kill PID`` ends the batch as Ctrl-C does: workers stopped, temporaries removed,
    the outputs on disk left as they were."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    except BaseException:
        remove_own_temporaries()  # one caught mid-creation has no handler to remove it
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_batch(
    paths: list[Path],
    exercise: str | None,
    csv_out: Path | None = None,
    json_out: Path | None = None,
    feedback_dir: Path | None = None,
    html_out: Path | None = None,
    gradescope_out: Path | None = None,
    workers: int | None = None,
    time_limit: float | None = None,
    overrides: list[Path] | None = None,
    review_csv: Path | None = None,
    similar: bool = False,
) -> int:
    """Grade ``paths``; 0 when every file was graded, 1 when some could not be.
    ``time_limit`` bounds the seconds one report may take (default 10); ``overrides`` are
    files of instructor overrides (YAML, or filled-in review queues); ``similar`` lists
    reports that look copied (also done for the HTML)."""
    outputs = Outputs(csv_out, json_out, feedback_dir, html_out, gradescope_out, review_csv)
    with _stop_cleanly_on_sigterm():
        return _run(paths, exercise, outputs, workers, time_limit, overrides or [], similar)


def _rubric_of(exercise: str | None) -> Callable[[str], Rubric | None]:
    """The rubric each part was graded with: the chosen exercise's, else its own."""
    from grader.batch.run import _exercise_bundle

    def rubric(part: str) -> Rubric | None:
        try:
            return cast("Rubric", _exercise_bundle(exercise or part)[1])
        except GraderError:
            return None

    return rubric


def _similar_pairs(rows: list[Row]) -> list[Pair]:
    from grader.similar.pairs import Doc, find_similar

    docs = [
        Doc(shown(row.student), student_key(row.student), shown(row.file), r.exercise, r.text)
        for row in rows
        for r in row.results
        if row.counted(r) and r.text is not None
    ]
    return find_similar(docs)


def _report_findings(findings: Findings) -> None:
    """Overrides not applied, on stderr; pairs that look copied, on stdout."""
    for stale in findings.stale or ():
        print(f"warning: override {stale}", file=sys.stderr)
    if findings.similar:
        print(f"\n{len(findings.similar)} pairs of reports look copied:")
        for pair in findings.similar[:SIMILAR_SHOWN]:
            print(f"  {similar_line(pair)}")
        if len(findings.similar) > SIMILAR_SHOWN:
            print(f"  ... {len(findings.similar) - SIMILAR_SHOWN} more (all in --json and --html)")


def _run(
    paths: list[Path],
    exercise: str | None,
    outputs: Outputs,
    workers: int | None,
    time_limit: float | None,
    overrides: list[Path],
    similar: bool,
) -> int:
    files = collect(paths)
    if not files:
        raise GraderError("no .md or .txt report found in " + ", ".join(map(str, paths)))
    if outputs.gradescope is not None and len(files) != 1:
        raise GraderError(f"--gradescope writes the results of one report; got {len(files)}")
    if exercise is not None:
        resolve_exercise(exercise)  # a bad --exercise is the user's mistake: say so once
    check_outputs(outputs, paths, files, overrides)
    entries = load_overrides(overrides) if overrides else None
    similar = similar or outputs.html is not None
    bar = _progress(len(files))
    rows: list[Row] = []
    summary = Summary()
    try:
        tick = (lambda n: bar[0].advance(bar[1], n)) if bar else None
        for row in grade_all(files, exercise, workers, tick, time_limit, similar):
            rows.append(row)
            summary.add(row)  # while the workers grade, the parent counts
    finally:
        if bar:
            bar[0].stop()
    rows = sort_rows(rows)
    for row, result in resolve_duplicates(rows):
        summary.uncount(row, result)
    findings = Findings()
    if entries is not None:
        findings.stale = apply_to_rows(rows, entries, _rubric_of(exercise), summary)
    if similar:
        findings.similar = _similar_pairs(rows)
    summary.finish(rows)
    write_outputs(outputs, rows, summary, findings)
    _report_problems(rows, outputs)
    if outputs.gradescope is not None:
        print(_one_report(rows[0], outputs.gradescope))
    else:
        print(render_summary(summary))
    _report_findings(findings)
    return 1 if summary.failed else 0
