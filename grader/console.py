"""The ``grade`` entry point: pick the command, run it, and turn what goes wrong into exit codes.

The first argument names a command (``grade batch ...``); anything else is the default
command, ``grade REPORT``, whose options may come before or after the report.  The commands
and their options are defined in ``grader.cli``.  This is the single boundary where a
``GraderError`` becomes one message and exit code 2.
"""

from __future__ import annotations

import sys
from typing import NoReturn

from grader.cli import COMMANDS, DEFAULT
from grader.errors import GraderError


def run(argv: list[str]) -> int:
    """Run one command line (without the program name); the exit code."""
    if not argv:
        DEFAULT.parser().print_help(sys.stderr)
        return 2
    chosen = COMMANDS.get(argv[0])
    try:
        return chosen.invoke(argv[1:]) if chosen else DEFAULT.invoke(argv)
    except GraderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def main() -> NoReturn:
    """Console entry point."""
    raise SystemExit(run(sys.argv[1:]))
