"""The ``grade`` entry point: pick the command, run it, and turn what goes wrong into exit codes.

The first argument names a command (``grade batch ...``); anything else is the default
command, ``grade REPORT``, whose options may come before or after the report.  The commands
and their options are defined in ``grader.cli``.  This is the single boundary where a
``GraderError`` becomes one message and exit code 2, and where a reader that closed the
pipe (``grade ... | head -1``) ends the output quietly.
"""

from __future__ import annotations

import os
import select
import sys
from typing import NoReturn

from grader.cli import COMMANDS, DEFAULT
from grader.errors import GraderError

# What a shell reports for a process ended by SIGPIPE, as `git log | head -1` would be.
CLOSED_PIPE = 141


def _looks_like_a_command(word: str) -> bool:
    """A word that could be a mistyped command: no option, no path, no file suffix."""
    return (
        not word.startswith("-") and not any(c in word for c in "./\\") and not os.path.exists(word)
    )


def run(argv: list[str]) -> int:
    """Run one command line (without the program name); the exit code."""
    if not argv:
        DEFAULT.parser().print_help(sys.stderr)
        return 2
    chosen = COMMANDS.get(argv[0])
    if chosen is None and _looks_like_a_command(argv[0]):
        from grader.suggest import closest

        near = closest(argv[0], COMMANDS)
        if near:
            print(
                f"grade: error: no command or file {argv[0]!r}; did you mean 'grade {near}'?",
                file=sys.stderr,
            )
            return 2
    try:
        return chosen.invoke(argv[1:]) if chosen else DEFAULT.invoke(argv)
    except GraderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _stdout_closed() -> bool:
    """Whether stdout is a pipe whose reader has gone (poll says POLLERR)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # no poll (Windows), or not a real file
        return False


def main() -> NoReturn:
    """Console entry point."""
    try:
        try:
            code = run(sys.argv[1:])
        except SystemExit as exc:  # argparse's help, --version and usage errors
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
        sys.stdout.flush()
    except BrokenPipeError:
        if not _stdout_closed():
            raise
        # Point stdout at nothing so that the interpreter's last flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = CLOSED_PIPE
    raise SystemExit(code)
