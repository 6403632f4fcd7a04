"""Run ``grade serve`` in a subprocess on a free port of this machine, for the end-to-end
tests, the browser test and ``bench/serve_load.py``."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from tests.cli_run import GRADE

START_SECONDS = 60.0


@dataclass
class Server:
    address: str  # http://127.0.0.1:PORT/
    process: subprocess.Popen[str]
    stopped: tuple[int, str] | None = None  # exit code and stderr, once stopped


def _first_line(process: subprocess.Popen[str], seconds: float) -> str:
    assert process.stdout is not None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.1)
        if ready:
            return process.stdout.readline()
        if process.poll() is not None:
            break
    return ""


@contextmanager
def serving(*options: str) -> Iterator[Server]:
    """``grade serve --port 0 OPTIONS``, stopped at the end as Ctrl-C at a terminal stops it:
    SIGINT to its whole process group (the server and its grader processes)."""
    process = subprocess.Popen(
        [str(GRADE), "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal gives a job
    )
    server = Server("", process)
    try:
        line = _first_line(process, START_SECONDS)
        if "http://" not in line:
            process.kill()
            _, err = process.communicate(timeout=10)
            raise RuntimeError(f"grade serve did not start: {line!r} {err}")
        server.address = line.split("at ", 1)[1].split()[0]
        yield server
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
        try:
            _, err = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            _, err = process.communicate()
        server.stopped = (process.returncode, err)
