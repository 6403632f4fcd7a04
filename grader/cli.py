"""The ``grade`` command: a thin layer that builds objects, hands them on, and prints.

``grade REPORT.md --exercise partA`` grades a report (the default command); the other
commands are subcommands (``grade analyze partA``).  Every ``GraderError`` becomes one
message on stderr and exit code 2, here and nowhere else.
"""

from __future__ import annotations

import argparse
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from grader.errors import GraderError

if TYPE_CHECKING:
    from grader.exercises import Exercise

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Grade profiler-triage reports; analyze and show the exercises they answer.\n\n"
    "Grade a report: grade REPORT.md --exercise partA",
)


class Format(StrEnum):
    text = "text"
    json = "json"


def _fail(exc: GraderError) -> typer.Exit:
    typer.echo(f"error: {exc}", err=True)
    return typer.Exit(2)


def _exercise(name: str) -> Exercise:
    """The exercise an argument names, or the one error message and exit code 2."""
    from grader.exercises import resolve_exercise

    try:
        return resolve_exercise(name)
    except GraderError as exc:
        raise _fail(exc) from None


ExerciseArg = Annotated[
    str, typer.Argument(help="an exercise id (see 'grade exercises') or an exercise YAML file")
]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="text or json")]


@app.command("exercises")
def exercises_cmd(
    directory: Annotated[
        Path | None, typer.Option("--dir", help="a folder of exercise YAML files")
    ] = None,
) -> None:
    """List the exercises with their derived bottleneck."""
    from grader.analyzer import analyze
    from grader.exercises import list_exercises

    try:
        found = list_exercises(directory)
    except GraderError as exc:
        raise _fail(exc) from None
    for ex in found:
        typer.echo(f"{ex.id:12} {analyze(ex.table).bottleneck:16} {ex.title}")


@app.command("show")
def show_cmd(exercise: ExerciseArg) -> None:
    """Print an exercise as a learner sees it, the table aligned with its units."""
    from grader.reporters.exercise_text import render_exercise

    typer.echo(render_exercise(_exercise(exercise)))


@app.command("analyze")
def analyze_cmd(exercise: ExerciseArg, fmt: FormatOpt = Format.text) -> None:
    """Derive the bottleneck class of an exercise's table, with evidence and caveats."""
    import json

    from grader.analyzer import analyze
    from grader.reporters.exercise_text import render_analysis

    ex = _exercise(exercise)
    result = analyze(ex.table)
    if fmt is Format.json:
        typer.echo(json.dumps({"exercise": ex.id, **result.to_dict()}, indent=2))
    else:
        typer.echo(render_analysis(ex, result))


@app.command("report", hidden=True)
def report_cmd(
    report: Annotated[Path, typer.Argument(help="the learner's markdown report")],
    exercise: Annotated[
        str | None,
        typer.Option(
            "--exercise",
            "-e",
            help="exercise id or YAML file; without it, each '## Part X' of the file is graded",
        ),
    ] = None,
    fmt: FormatOpt = Format.text,
    fail_under: Annotated[
        float | None, typer.Option("--fail-under", help="exit 1 when the score is below this")
    ] = None,
) -> None:
    """Grade a report: grade REPORT.md --exercise partA."""
    code = run_report(report, exercise, fmt, fail_under)
    if code:
        raise typer.Exit(code)


def run_report(report: Path, exercise: str | None, fmt: Format, fail_under: float | None) -> int:
    """Grade one file and print it; the exit code (0 graded, 1 under --fail-under, 2 bad)."""
    import json

    from grader.grading import grade_file

    try:
        results = grade_file(report, exercise)
    except GraderError as exc:
        typer.echo(f"error: {exc}", err=True)
        return 2
    if fmt is Format.json:
        payload = [r.to_dict() for r in results]
        typer.echo(json.dumps(payload[0] if len(payload) == 1 else payload, indent=2))
    else:
        from grader.reporters.grade_text import render_grade

        typer.echo("\n\n".join(render_grade(r) for r in results))
    if fail_under is not None and any(r.score < fail_under for r in results):
        return 1
    return 0


def fast_report_parser() -> argparse.ArgumentParser:
    """The options of ``grade REPORT`` for the fast path; a test keeps them equal to typer's."""
    parser = argparse.ArgumentParser(prog="grade", add_help=False, exit_on_error=False)
    parser.add_argument("report")
    parser.add_argument("--exercise", "-e", default=None)
    parser.add_argument("--format", "-f", dest="fmt", default="text")
    parser.add_argument("--fail-under", type=float, default=None)
    return parser


def _fast_report(argv: list[str]) -> int | None:
    """Grade with a stdlib parser: current typer coerces each parameter through pydantic,
    whose import alone costs about as much as grading a report.  Anything unusual
    (help, a bad option or value) returns None and goes to typer for its own message."""
    try:
        ns, rest = fast_report_parser().parse_known_args(argv)
    except (argparse.ArgumentError, SystemExit):
        return None
    if rest or ns.fmt not in {f.value for f in Format}:
        return None
    return run_report(Path(ns.report), ns.exercise, Format(ns.fmt), ns.fail_under)


def fast_batch_parser() -> argparse.ArgumentParser:
    """The options of ``grade batch`` for the fast path; a test keeps them equal to typer's."""
    parser = argparse.ArgumentParser(prog="grade batch", add_help=False, exit_on_error=False)
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--exercise", "-e", default=None)
    for option, dest in (
        ("--csv", "csv_out"),
        ("--json", "json_out"),
        ("--feedback-dir", "feedback_dir"),
        ("--html", "html_out"),
        ("--gradescope", "gradescope_out"),
    ):
        parser.add_argument(option, dest=dest, type=Path, default=None)
    parser.add_argument("--workers", "-j", type=int, default=None)
    return parser


def _fast_batch(argv: list[str]) -> int | None:
    """``grade batch`` with the stdlib parser (see ``_fast_report``); None sends it to typer."""
    from grader.batch.cli_run import run_batch

    try:
        ns, rest = fast_batch_parser().parse_known_args(argv)
    except (argparse.ArgumentError, SystemExit):
        return None
    if rest or (ns.workers is not None and ns.workers < 1):
        return None
    try:
        return run_batch(
            [Path(p) for p in ns.paths],
            ns.exercise,
            ns.csv_out,
            ns.json_out,
            ns.feedback_dir,
            ns.html_out,
            ns.gradescope_out,
            ns.workers,
        )
    except GraderError as exc:
        typer.echo(f"error: {exc}", err=True)
        return 2


@app.command("batch")
def batch_cmd(
    paths: Annotated[list[Path], typer.Argument(help="report files and folders of reports")],
    exercise: Annotated[
        str | None,
        typer.Option("--exercise", "-e", help="grade every report as this exercise"),
    ] = None,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="one row per report")] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="every report's JSON and the summary")
    ] = None,
    feedback_dir: Annotated[
        Path | None, typer.Option("--feedback-dir", help="one markdown file per student")
    ] = None,
    html_out: Annotated[
        Path | None, typer.Option("--html", help="a self-contained class report")
    ] = None,
    gradescope_out: Annotated[
        Path | None,
        typer.Option("--gradescope", help="Gradescope results.json (one report only)"),
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-j", min=1, help="processes (default: cores)")
    ] = None,
) -> None:
    """Grade a class: many reports, a summary, and exports for spreadsheets and Gradescope."""
    from grader.batch.cli_run import run_batch

    try:
        code = run_batch(
            paths, exercise, csv_out, json_out, feedback_dir, html_out, gradescope_out, workers
        )
    except GraderError as exc:
        raise _fail(exc) from None
    raise typer.Exit(code)


@app.command("gradescope-autograder")
def gradescope_autograder_cmd(
    exercise: Annotated[str, typer.Option("--exercise", "-e", help="the exercise to grade")],
    out: Annotated[Path, typer.Option("--out", "-o", help="the zip to write")] = Path(
        "autograder.zip"
    ),
    wheels: Annotated[
        Path | None,
        typer.Option("--wheels", help="a folder of dependency wheels to ship for offline setup"),
    ] = None,
) -> None:
    """Build the autograder zip Gradescope accepts (setup.sh, run_autograder, a wheel)."""
    from grader.autograder import build_autograder

    try:
        path = build_autograder(exercise, out, wheels)
    except GraderError as exc:
        raise _fail(exc) from None
    typer.echo(f"wrote {path}")


@app.command("import-trace")
def import_trace_cmd(
    trace: Annotated[
        Path, typer.Argument(help="a torch.profiler Chrome trace (.json or .json.gz)")
    ],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="write the exercise YAML here")
    ] = None,
    report: Annotated[
        bool, typer.Option("--report", help="print the per-stage layer breakdown instead")
    ] = False,
    fmt: FormatOpt = Format.text,
    ignore_annotations: Annotated[
        bool, typer.Option("--ignore-annotations", help="classify stages from names and grids")
    ] = False,
) -> None:
    """Turn a profiler trace into an exercise, or report its kernels' stages and layers."""
    from grader.traces.cli_run import run_import

    try:
        typer.echo(run_import(trace, out, report, fmt.value, ignore_annotations), nl=False)
    except GraderError as exc:
        raise _fail(exc) from None


@app.command("template")
def template_cmd(exercise: ExerciseArg) -> None:
    """Print a blank report to fill in for an exercise."""
    from grader.reporters.template import render_template

    typer.echo(render_template(_exercise(exercise)))


@app.command("explain")
def explain_cmd(
    criterion: Annotated[str, typer.Argument(help="a criterion id, e.g. two-hypotheses")],
) -> None:
    """Print what a criterion judges, what passes and what fails, with examples."""
    from grader.reporters.explain import render_explain

    try:
        typer.echo(render_explain(criterion))
    except GraderError as exc:
        raise _fail(exc) from None


def main() -> None:
    """Console entry point: a first argument that is not a command is a report to grade."""
    argv = sys.argv[1:]
    commands = {c.name for c in app.registered_commands} | {"--help", "-h", "--version"}
    if argv and argv[0] not in commands and not argv[0].startswith("-"):
        code = _fast_report(argv)
        if code is not None:
            raise SystemExit(code)
        argv = ["report", *argv]
    elif argv and argv[0] == "batch":
        code = _fast_batch(argv[1:])
        if code is not None:
            raise SystemExit(code)
    elif argv and argv[0] == "--version":
        from grader import __version__

        print(f"triage-grader {__version__}")
        return
    try:
        app(args=argv, prog_name="grade")
    except GraderError as exc:  # a last net: library errors never reach the user as a trace
        typer.echo(f"error: {exc}", err=True)
        raise SystemExit(2) from None
