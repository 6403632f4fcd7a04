"""The processes that grade for ``grade serve``: off the event loop, each report in a time limit.

Grading is CPU-bound Python: in a thread it would hold the interpreter's lock, so requests
would wait on each other, and a thread cannot be stopped when a report takes too long.  So
each grader is a process (one per core by default) that loads the exercises once and then
grades one report at a time: the exercise id, the report's text and its name come in
through a pipe, and back goes the JSON text ``grade REPORT --format json`` prints (the same
functions make it), or the error message.  A grader that overruns the time limit is killed
and replaced, and only that request gets an error; one that dies is replaced too.

Requests wait for a free grader in the order they came; past ``MAX_WAITING`` waiting, the
server says it is busy rather than holding more reports in memory.  A grader keeps nothing
of a request: it receives the text, answers, and waits for the next.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import sys
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from grader.batch.pool import TIME_LIMIT

MAX_WAITING = 256  # requests waiting for a grader; more are told the server is busy
START_SECONDS = 60.0  # for a new grader to load the exercises


class Refused(Exception):
    """A request that gets an error: its HTTP status and the message for ``{"error": ...}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _grade_one(exercises: dict[str, Any], message: tuple[str, str, str]) -> tuple[int, str]:
    from grader.errors import GraderError
    from grader.grading import grade_submission, results_json
    from grader.submission import decode_submission

    exercise, text, name = message
    try:
        # As ``grade REPORT`` reads a file: the bytes decoded, checked (empty, binary),
        # front matter set aside.  A lone surrogate from JSON becomes an invalid byte, which
        # is replaced with a warning, as in a file.
        submission = decode_submission(text.encode("utf-8", "surrogatepass"), name)
        return 200, results_json(grade_submission(submission, exercises[exercise]))
    except GraderError as exc:
        return 422, str(exc)
    except Exception:  # a bug: the request gets an error, the operator the traceback
        traceback.print_exc(file=sys.stderr)
        return 500, "the grader failed on this report (a bug: the server's log has the details)"


def _serve(conn: Connection, directory: Path | None) -> None:
    """A grader process: load the exercises, say so, then grade each message received.
    Ctrl-C at a terminal reaches the whole process group: the server stops its graders."""
    from grader.exercises import list_exercises

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    exercises = {ex.id: ex for ex in list_exercises(directory)}
    conn.send("ready")
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the server closed the pipe: stop
            return
        conn.send(_grade_one(exercises, message))


def _context() -> Any:
    """Processes started from a clean server process, not forked from the event loop's
    threads: ``forkserver`` where there is one (it imports the grader once), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["grader.grading", "grader.exercises"])
        return context
    return multiprocessing.get_context("spawn")


@dataclass
class _Grader:
    process: Any
    conn: Connection


class Graders:
    """A fixed number of grader processes shared by every request of a server."""

    def __init__(
        self,
        directory: Path | None = None,
        size: int | None = None,
        time_limit: float = TIME_LIMIT,
        max_waiting: int = MAX_WAITING,
    ) -> None:
        self.directory = directory
        self.size = size or os.cpu_count() or 1
        self.time_limit = time_limit
        self.max_waiting = max_waiting
        self.context = _context()
        self.graders: list[_Grader] = []
        self.waiting = 0
        self.idle: asyncio.Queue[_Grader] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def _start(self) -> _Grader:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=_serve, args=(theirs, self.directory), daemon=True)
        process.start()
        theirs.close()
        grader = _Grader(process, ours)
        self.graders.append(grader)
        if not ours.poll(START_SECONDS):
            self._stop(grader)
            raise RuntimeError(f"a grader process did not start in {START_SECONDS:g} s")
        try:
            ours.recv()
        except EOFError:
            self._stop(grader)
            raise RuntimeError("a grader process ended while loading the exercises") from None
        return grader

    def _stop(self, grader: _Grader) -> None:
        with contextlib.suppress(OSError):
            grader.conn.close()
        if grader.process.is_alive():
            grader.process.kill()
        grader.process.join(5)
        with contextlib.suppress(ValueError):
            self.graders.remove(grader)

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.idle = asyncio.Queue()
        started = await asyncio.gather(*(asyncio.to_thread(self._start) for _ in range(self.size)))
        for grader in started:
            self.idle.put_nowait(grader)

    async def close(self) -> None:
        for grader in list(self.graders):
            await asyncio.to_thread(self._stop, grader)

    def _round_trip(self, grader: _Grader, message: tuple[str, str, str]) -> tuple[int, str]:
        """In a thread: send a report to a grader and wait for its answer at most the time
        limit; then hand the grader (or its replacement) back to the queue, whether or not
        the request that asked is still waiting for the answer."""
        name = message[2]
        lost = True  # the grader is killed mid-report, or dead: a new one takes its place
        try:
            grader.conn.send(message)
            if grader.conn.poll(self.time_limit):
                answer: tuple[int, str] = grader.conn.recv()
                lost = False
            else:
                answer = (422, f"{name}: took too long to grade (more than {self.time_limit:g} s)")
        except (EOFError, OSError):
            answer = (500, f"{name}: the process grading it ended (out of memory?); not graded")
        if lost:
            self._stop(grader)
            try:
                grader = self._start()
            except RuntimeError as exc:  # one grader fewer; grade() says so when none is left
                print(f"grade serve: {exc}", file=sys.stderr)
                return answer
        assert self.loop is not None and self.idle is not None
        self.loop.call_soon_threadsafe(self.idle.put_nowait, grader)
        return answer

    async def grade(self, exercise: str, text: str, name: str) -> str:
        """The JSON text of ``grade REPORT --exercise EXERCISE --format json`` for ``text``
        as a file named ``name``; ``Refused`` when it cannot be given."""
        if self.idle is None:
            raise RuntimeError("Graders.start() was not awaited")
        if not self.graders:
            raise Refused(503, "no grader process is running; the server's log says why")
        if self.waiting >= self.max_waiting:
            raise Refused(503, "the server is busy grading other reports; try again shortly")
        self.waiting += 1
        try:
            grader = await self.idle.get()
        finally:
            self.waiting -= 1
        status, body = await asyncio.to_thread(self._round_trip, grader, (exercise, text, name))
        if status != 200:
            raise Refused(status, body)
        return body
