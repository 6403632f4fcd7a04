"""The ``grade`` command: a thin layer that builds objects, hands them on, and prints.

``grade REPORT.md --exercise partA`` grades a report (the default command); the other
commands are subcommands (``grade analyze partA``).  Every ``GraderError`` becomes one
message on stderr and exit code 2, here and nowhere else.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from grader.errors import GraderError

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
    from grader.exercises import resolve_exercise
    from grader.reporters.exercise_text import render_exercise

    try:
        ex = resolve_exercise(exercise)
    except GraderError as exc:
        raise _fail(exc) from None
    typer.echo(render_exercise(ex))


@app.command("analyze")
def analyze_cmd(exercise: ExerciseArg, fmt: FormatOpt = Format.text) -> None:
    """Derive the bottleneck class of an exercise's table, with evidence and caveats."""
    import json

    from grader.analyzer import analyze
    from grader.exercises import resolve_exercise
    from grader.reporters.exercise_text import render_analysis

    try:
        ex = resolve_exercise(exercise)
    except GraderError as exc:
        raise _fail(exc) from None
    result = analyze(ex.table)
    if fmt is Format.json:
        typer.echo(json.dumps({"exercise": ex.id, **result.to_dict()}, indent=2))
    else:
        typer.echo(render_analysis(ex, result))


def main() -> None:
    """Console entry point: a first argument that is not a command is a report to grade."""
    argv = sys.argv[1:]
    commands = {c.name for c in app.registered_commands} | {"--help", "-h", "--version"}
    if argv and argv[0] not in commands and not argv[0].startswith("-"):
        argv = ["report", *argv]
    elif argv and argv[0] == "--version":
        from grader import __version__

        print(f"triage-grader {__version__}")
        return
    try:
        app(args=argv, prog_name="grade")
    except GraderError as exc:  # a last net: library errors never reach the user as a trace
        typer.echo(f"error: {exc}", err=True)
        raise SystemExit(2) from None
