"""The ``grade`` entry point, and the two commands people run most, without typer.

Current typer coerces every parameter through pydantic; importing typer and pydantic costs
about as much as grading a report.  So ``grade REPORT ...`` (a learner's self-check) and
``grade batch ...`` (an instructor's class) are parsed here with argparse, with the same
options as their typer commands (a test compares them).  Anything unusual (help, an
unknown option, a bad value) and every other command go to the typer app in
``grader.cli``, which prints its own messages.
"""

from __future__ import annotations

import argparse
import sys
from enum import StrEnum
from pathlib import Path

from grader.errors import GraderError

# The typer app's commands (a test keeps this equal to them); any other first word is a
# report to grade.
COMMANDS = frozenset(
    {
        "exercises",
        "show",
        "analyze",
        "report",
        "batch",
        "gradescope-autograder",
        "template",
        "explain",
        "import-trace",
    }
)


class Format(StrEnum):
    text = "text"
    json = "json"


def _error(exc: GraderError) -> int:
    print(f"error: {exc}", file=sys.stderr)
    return 2


def run_report(report: Path, exercise: str | None, fmt: Format, fail_under: float | None) -> int:
    """Grade one file and print it; the exit code (0 graded, 1 under --fail-under, 2 bad)."""
    import json

    from grader.grading import grade_file

    try:
        results = grade_file(report, exercise)
    except GraderError as exc:
        return _error(exc)
    if fmt is Format.json:
        payload = [r.to_dict() for r in results]
        print(json.dumps(payload[0] if len(payload) == 1 else payload, indent=2))
    else:
        from grader.reporters.grade_text import render_grade

        print("\n\n".join(render_grade(r) for r in results))
    if fail_under is not None and any(r.score < fail_under for r in results):
        return 1
    return 0


def fast_report_parser() -> argparse.ArgumentParser:
    """The options of ``grade REPORT``; a test keeps them equal to typer's."""
    parser = argparse.ArgumentParser(prog="grade", add_help=False, exit_on_error=False)
    parser.add_argument("report")
    parser.add_argument("--exercise", "-e", default=None)
    parser.add_argument("--format", "-f", dest="fmt", default="text")
    parser.add_argument("--fail-under", type=float, default=None)
    return parser


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | None:
    """The arguments, or None for anything argparse cannot take whole (typer will say why)."""
    try:
        ns, rest = parser.parse_known_args(argv)
    except (argparse.ArgumentError, SystemExit):
        return None
    return None if rest else ns


def _fast_report(argv: list[str]) -> int | None:
    ns = _parse(fast_report_parser(), argv)
    if ns is None or ns.fmt not in {f.value for f in Format}:
        return None
    return run_report(Path(ns.report), ns.exercise, Format(ns.fmt), ns.fail_under)


def fast_batch_parser() -> argparse.ArgumentParser:
    """The options of ``grade batch``; a test keeps them equal to typer's."""
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
    from grader.batch.cli_run import run_batch

    ns = _parse(fast_batch_parser(), argv)
    if ns is None or (ns.workers is not None and ns.workers < 1):
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
        return _error(exc)


def main() -> None:
    """Console entry point: a first argument that is not a command is a report to grade."""
    argv = sys.argv[1:]
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
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
    from grader.cli import app

    try:
        app(args=argv, prog_name="grade")
    except GraderError as exc:  # a last net: library errors never reach the user as a trace
        raise SystemExit(_error(exc)) from None
