"""Run the ``grade`` entry point in this process, as the console script runs it.

``grade(*argv)`` calls ``grader.console.main`` with ``sys.argv`` set, captures what it
writes to stdout and stderr, and returns them with the exit code (the attribute names of
click's ``Result``).  Tests that need the installed script itself (a closed pipe, the
real interpreter start-up) run it with ``subprocess`` instead.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

GRADE = Path(sys.executable).parent / "grade"  # the installed console script


@dataclass(frozen=True)
class Result:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        """stdout then stderr, for assertions that do not care which stream."""
        return self.stdout + self.stderr


def grade(*argv: str) -> Result:
    from grader.console import main

    out, err = io.StringIO(), io.StringIO()
    code: object = 0
    argv_set = mock.patch.object(sys, "argv", ["grade", *argv])
    with argv_set, redirect_stdout(out), redirect_stderr(err):
        try:
            main()
        except SystemExit as exc:
            code = exc.code
    if code is None:
        code = 0
    assert isinstance(code, int), f"exit code {code!r} is not an int"
    return Result(code, out.getvalue(), err.getvalue())
