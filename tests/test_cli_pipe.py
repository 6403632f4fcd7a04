"""A reader that stops reading (``grade ... | head -1``) ends grade's output quietly."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.cli_run import GRADE

ROOT = Path(__file__).resolve().parent.parent
TRACE = str(ROOT / "tests" / "data" / "cpu_tiny_decoder.json.gz")


def _into_closed_pipe(*argv: str) -> subprocess.CompletedProcess[str]:
    """Run the installed grade with stdout a pipe whose reader has already gone."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [str(GRADE), *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
    finally:
        os.close(write)


@pytest.mark.parametrize(
    "argv",
    [
        ["submissions/s-a01.md", "-e", "partA"],
        ["submissions/s-a01.md", "-e", "partA", "--format", "json"],
        ["batch", "submissions/s-a01.md", "-e", "partA", "-j", "1"],
        ["show", "partA"],
        ["analyze", "partB", "-f", "json"],
        ["exercises"],
        ["template", "partA"],
        ["explain", "two-hypotheses"],
        ["import-trace", TRACE, "--report"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_a_closed_pipe_ends_the_output_quietly(argv: list[str]):
    proc = _into_closed_pipe(*argv)
    assert proc.stderr == ""
    assert proc.returncode == 141  # as a shell reports a process ended by SIGPIPE


def test_help_into_a_closed_pipe_is_quiet():
    proc = _into_closed_pipe("batch", "--help")
    assert proc.stderr == ""  # argparse drops the failed write itself, and exits 0


def test_errors_still_reach_stderr_when_stdout_is_closed():
    proc = _into_closed_pipe("missing.md", "-e", "partA")
    assert proc.returncode == 2
    assert proc.stderr == "error: missing.md: no such file\n"
