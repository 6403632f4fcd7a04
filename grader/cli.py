"""The ``grade`` command: a thin layer that builds objects, hands them on, and prints.

``grade REPORT.md --exercise partA`` grades a report (the default command); the other
commands are subcommands (``grade analyze partA``).  Every ``GraderError`` becomes one
message on stderr and exit code 2, here and nowhere else.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from grader.console import Format, run_report
from grader.errors import GraderError

if TYPE_CHECKING:
    from grader.exercises import Exercise

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Grade profiler-triage reports; analyze and show the exercises they answer.\n\n"
    "Grade a report: grade REPORT.md --exercise partA",
)


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
