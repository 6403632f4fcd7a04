"""The ``grade`` command line, in one place: every command, its arguments, options and help.

Each command is a function declared with ``@command`` (``grader.command``): its parameters
are argparse's, its docstring is its help, and it receives the parsed options by name.
``grade REPORT`` is the default command, run when the first argument is not a command's
name.  One parser per command is built from these definitions: help, usage errors and
options all come from it (a test checks every command's help).  argparse is used rather
than typer because typer coerces every option through pydantic, whose import costs about as
much as grading a report; commands import what they need only when they run.

Handlers print their output and return the exit code; library errors (``GraderError``)
reach ``grader.console``, which turns them into one message and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from grader.command import COMMANDS, Command, command, param

__all__ = ["COMMANDS", "DEFAULT"]


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {text!r}")
    return value


def _out(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


EXERCISE = param(
    "exercise",
    metavar="EXERCISE",
    help="an exercise id (see 'grade exercises') or the path of an exercise YAML file",
)
FORMAT = param(
    "-f",
    "--format",
    dest="fmt",
    choices=("text", "json"),
    default="text",
    help="text for a terminal, json for tools (default: %(default)s)",
)
FILE = {"type": Path, "metavar": "FILE", "default": None}
OVERRIDES_OUT = param(
    "-o",
    "--out",
    type=Path,
    metavar="FILE",
    default=Path("overrides.yaml"),
    help="the overrides file to write into (default: %(default)s)",
)


def grade_report(
    report: Path,
    exercise: str | None,
    fmt: str,
    fail_under: float | None,
    overrides: list[Path] | None,
) -> int:
    """Grade profiler-triage reports; analyze and show the exercises they answer.

    grade REPORT grades one report: each criterion's verdict, the line that decided it,
    feedback and a hint, and the score.  Run 'grade COMMAND -h' for a command's help."""
    from grader.grading import grade_file, parts_json

    results = grade_file(report, exercise)
    parts: list[dict[str, Any]] = [r.to_dict() for r in results]
    if overrides:
        from grader.overrides.single import apply_to_report

        parts, stale = apply_to_report(results, report, overrides, exercise)
        for s in stale:
            print(f"warning: override {s}", file=sys.stderr)
    if fmt == "json":
        _out(parts_json(parts))
    else:
        from grader.overrides.single import render_changes
        from grader.reporters.grade_text import render_grade

        texts = [render_grade(r) for r in results]
        if overrides:
            texts = [
                f"{t}\n{render_changes(p)}".rstrip() for t, p in zip(texts, parts, strict=True)
            ]
        _out("\n\n".join(texts))
    below = [p for p in parts if fail_under is not None and p["score"] < fail_under]
    for p in below:
        print(
            f"{p['submission']} ({p['exercise']}): score {p['score']:g} is under --fail-under "
            f"{fail_under:g}",
            file=sys.stderr,
        )
    return 1 if below else 0


def _version() -> str:
    from grader import __version__

    return f"triage-grader {__version__}"


DEFAULT = Command(
    "",
    grade_report,
    (
        param("report", type=Path, metavar="REPORT", help="the learner's markdown report"),
        param(
            "-e",
            "--exercise",
            metavar="EXERCISE",
            help="exercise id or YAML file; without it, each '## Part X' of the file is graded",
        ),
        FORMAT,
        param(
            "--fail-under",
            type=float,
            metavar="SCORE",
            help="exit 1 when a score is below SCORE (a pre-submit check)",
        ),
        param(
            "--overrides",
            type=Path,
            action="append",
            metavar="FILE",
            default=None,
            help="apply an instructor's overrides file (as grade batch does; repeatable)",
        ),
        param("--version", action="version", version=_version()),
    ),
)


@command("exercises", param("--dir", type=Path, metavar="DIR", dest="directory", default=None))
def exercises(directory: Path | None) -> int:
    """List the exercises with their derived bottleneck.

    --dir lists the exercise YAML files of another folder."""
    from grader.analyzer import analyze
    from grader.exercises import list_exercises

    for ex in list_exercises(directory):
        _out(f"{ex.id:12} {analyze(ex.table).bottleneck:16} {ex.title}")
    return 0


@command("show", EXERCISE)
def show(exercise: str) -> int:
    """Print an exercise as a learner reads it, the table aligned with its units."""
    from grader.exercises import resolve_exercise
    from grader.reporters.exercise_text import render_exercise

    _out(render_exercise(resolve_exercise(exercise)))
    return 0


@command("analyze", EXERCISE, FORMAT)
def analyze(exercise: str, fmt: str) -> int:
    """Derive the bottleneck class of an exercise's table, with evidence and caveats."""
    import json

    from grader.analyzer import analyze as analyze_table
    from grader.exercises import resolve_exercise
    from grader.reporters.exercise_text import render_analysis

    ex = resolve_exercise(exercise)
    result = analyze_table(ex.table)
    if fmt == "json":
        _out(json.dumps({"exercise": ex.id, **result.to_dict()}, indent=2))
    else:
        _out(render_analysis(ex, result))
    return 0


# The batch command's options are run_batch's parameters: each `dest` below is one of its
# parameter names (a test keeps the two equal), so a new batch option is one line here.
@command(
    "batch",
    param("paths", type=Path, nargs="+", metavar="PATH", help="report files and folders"),
    param("-e", "--exercise", metavar="EXERCISE", help="grade every report as this exercise"),
    param("--csv", dest="csv_out", **FILE, help="one row per graded part"),
    param("--json", dest="json_out", **FILE, help="every report's JSON and the summary"),
    param("--feedback-dir", dest="feedback_dir", **FILE, help="one markdown file per student"),
    param("--html", dest="html_out", **FILE, help="a self-contained class report"),
    param(
        "--gradescope", dest="gradescope_out", **FILE, help="Gradescope's results.json (one report)"
    ),
    param(
        "-j",
        "--workers",
        type=_at_least_one,
        metavar="N",
        default=None,
        help="processes to grade with (default: one per core)",
    ),
    param(
        "--time-limit",
        type=_seconds,
        metavar="SECONDS",
        default=None,
        help="seconds one report may take before it is an error row (default: 10)",
    ),
    param(
        "--overrides",
        dest="overrides",
        type=Path,
        action="append",
        metavar="FILE",
        default=None,
        help="instructor overrides: a YAML file, or a filled-in --review-csv (repeatable)",
    ),
    param(
        "--review-csv",
        dest="review_csv",
        **FILE,
        help="the verdicts flagged for review, as a table for a TA to fill in",
    ),
    param(
        "--similar",
        action="store_true",
        help="list pairs of reports that look copied (the HTML lists them too)",
    ),
)
def batch(**options: Any) -> int:
    """Grade a class: many reports, a summary, and exports for spreadsheets and Gradescope.

    Folders are searched for .md and .txt files.  Exit code 0 when every file was graded,
    1 when some could not be (each is an error row), 2 for bad arguments."""
    from grader.batch.cli_run import run_batch

    return run_batch(**options)


@command(
    "override",
    param(
        "report",
        type=Path,
        metavar="JSON",
        help="graded JSON: of 'grade REPORT -f json', or the file 'grade batch --json' wrote",
    ),
    param("--student", metavar="NAME", help="whose part (when the JSON holds several)"),
    param("-e", "--exercise", metavar="EXERCISE", help="which part (when there are several)"),
    param("-c", "--criterion", metavar="CRITERION", help="the criterion whose verdict changes"),
    param("--verdict", choices=("pass", "fail"), help="the criterion's new verdict"),
    param("--points", type=float, metavar="N", help="the criterion's new points (partial credit)"),
    param("--adjust", type=float, metavar="N", help="add N (or take -N) points to the score"),
    param("--note", required=True, metavar="TEXT", help="why: the student reads it"),
    OVERRIDES_OUT,
)
def override(report: Path, out: Path, **choice: Any) -> int:
    """Write an instructor override into an overrides file, from a graded report's JSON.

    The student, exercise, criterion and file come from the JSON, so no ID is typed by
    hand; an entry for the same criterion of the same part is replaced, the file's other
    lines are kept.  'grade batch ... --overrides FILE' applies the file."""
    from grader.overrides.edit import add_entries
    from grader.overrides.pick import entry_from_report

    entry = entry_from_report(report, **choice)
    replaced, _ = add_entries(out, [entry])
    _out(f"{'replaced' if replaced else 'added'} in {out}: {entry.describe()} ({entry.note})")
    return 0


@command(
    "overrides-from-csv",
    param("queue", type=Path, metavar="CSV", help="a review queue (--review-csv) a TA filled in"),
    OVERRIDES_OUT,
)
def overrides_from_csv(queue: Path, out: Path) -> int:
    """Turn a filled-in review queue into overrides: one per changed verdict.

    Rows whose ta_verdict is the grader's confirm it and add nothing; rows left blank are
    skipped; a change needs a ta_note.  Entries for the same criterion of the same part
    replace those in FILE.  ('grade batch --overrides QUEUE.csv' also reads it directly.)"""
    from grader.overrides.edit import add_entries
    from grader.overrides.queue import read_filled_queue

    filled = read_filled_queue(queue)
    replaced, added = add_entries(out, filled.entries)
    _out(
        f"{out}: {added} overrides added, {replaced} replaced; {filled.confirmed} rows "
        f"confirmed the grader's verdict, {filled.blank} left blank"
    )
    return 0


@command(
    "gradescope-autograder",
    param("-e", "--exercise", required=True, metavar="EXERCISE", help="the exercise to grade"),
    param(
        "-o",
        "--out",
        type=Path,
        metavar="ZIP",
        default=Path("autograder.zip"),
        help="the zip to write (default: %(default)s)",
    ),
    param(
        "--wheels",
        type=Path,
        metavar="DIR",
        default=None,
        help="a folder of dependency wheels to ship for an offline setup",
    ),
)
def gradescope_autograder(exercise: str, out: Path, wheels: Path | None) -> int:
    """Build the autograder zip Gradescope accepts (setup.sh, run_autograder, a wheel)."""
    from grader.autograder import build_autograder

    _out(f"wrote {build_autograder(exercise, out, wheels)}")
    return 0


@command(
    "import-trace",
    param("trace", type=Path, metavar="TRACE", help="a torch.profiler trace (.json, .json.gz)"),
    param("-o", "--out", type=Path, metavar="FILE", default=None, help="write the exercise here"),
    param("--report", action="store_true", help="print the per-stage layer breakdown instead"),
    FORMAT,
    param(
        "--ignore-annotations",
        action="store_true",
        help="classify stages from kernel names and grids only",
    ),
)
def import_trace(
    trace: Path, out: Path | None, report: bool, fmt: str, ignore_annotations: bool
) -> int:
    """Turn a profiler trace into an exercise, or report its kernels' stages and layers."""
    from grader.traces.cli_run import run_import

    sys.stdout.write(run_import(trace, out, report, fmt, ignore_annotations))
    return 0


@command(
    "serve",
    param("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"),
    param("--port", type=int, default=8000, help="port; 0 for any free one (default: %(default)s)"),
    param("--exercises", type=Path, metavar="DIR", default=None, help="a folder of exercises"),
    param(
        "--time-limit",
        type=_seconds,
        metavar="SECONDS",
        default=None,
        help="seconds one report may take to grade (default: 10)",
    ),
)
def serve(host: str, port: int, exercises: Path | None, time_limit: float | None) -> int:
    """Serve a self-check page: paste a report, see each criterion and its deciding line.

    Needs the 'serve' extra (pip install 'triage-grader[serve]').  Listens on this machine
    only unless --host says otherwise (--host 0.0.0.0 for a class).  The page's API,
    POST /api/grade, answers what 'grade REPORT --exercise X --format json' prints."""
    from grader.serve.run import serve as run_server

    return run_server(host, port, exercises, time_limit)


@command("template", EXERCISE)
def template(exercise: str) -> int:
    """Print a blank report to fill in for an exercise."""
    from grader.exercises import resolve_exercise
    from grader.reporters.template import render_template

    _out(render_template(resolve_exercise(exercise)))
    return 0


@command(
    "explain",
    param(
        "criterion",
        nargs="?",
        metavar="CRITERION",
        help="a criterion id; without it, the list of criteria",
    ),
)
def explain(criterion: str | None) -> int:
    """Print what a criterion judges, what passes and what fails, with examples.

    Without a criterion, list them all with the exercises whose rubric has each."""
    from grader.reporters.explain import render_criteria, render_explain

    _out(render_explain(criterion) if criterion else render_criteria())
    return 0
