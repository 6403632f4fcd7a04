"""Worker processes for a batch that outlive a killed worker and bound each report's time.

The parent hands each worker a chunk of files and gets back the chunk's rows.  Each worker
notes in shared memory which file of its chunk it is on and since when, so the parent
knows without a message per file.  A worker that dies (the out-of-memory killer, a crash)
costs only the file it was on: that file is tried once more on its own, and if it kills a
worker again it becomes an error row; the rest of the chunk goes to another worker.  A
worker that spends more than the time limit on one file is killed and the file becomes an
error row ("took too long to grade").  Workers die with the parent (Linux's parent-death
signal, and the end of their pipe elsewhere) and ignore Ctrl-C, which the parent handles.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from grader.batch.run import Row
from grader.errors import GraderError

TIME_LIMIT = 10.0  # seconds for one report; a report grades in milliseconds
MAX_IDLE_DEATHS = 10  # workers that die before grading anything: something else is wrong


def _die_with_parent(parent: int) -> None:
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


def _work(
    conn: Connection,
    exercise: str | None,
    parent: int,
    others: list[Connection],
    progress: Any,
    slot: int,
) -> None:
    """A worker: grade each chunk received and send back its rows, until the pipe ends.
    Before each file it notes the time, then the file's place in the chunk, in
    ``progress[2 * slot + 1]`` and ``progress[2 * slot]``."""
    from grader.batch import run

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's clean stop
    _die_with_parent(parent)
    for other in others:  # the parent's ends of other workers' pipes, inherited by fork
        other.close()
    while True:
        try:
            paths = conn.recv()
        except (EOFError, OSError):
            return
        if paths is None:
            return
        rows = []
        for n, path in enumerate(paths):
            progress[2 * slot + 1] = time.monotonic()
            progress[2 * slot] = n
            rows.append(run.grade_path(Path(path), exercise))
        conn.send(rows)


@dataclass
class _Worker:
    process: Any
    conn: Connection
    slot: int
    task: list[int] = field(default_factory=list)  # indices of the files of its chunk


def _error(path: Path, message: str) -> Row:
    return Row(str(path), path.stem, error=message)


def _killed(exitcode: int | None) -> str:
    how = f"killed by signal {-exitcode}" if exitcode and exitcode < 0 else "ended"
    return f"the process grading it was {how} (out of memory?) twice; it could not be graded"


class Pool:
    def __init__(
        self,
        paths: list[Path],
        exercise: str | None,
        workers: int,
        chunk: int,
        time_limit: float,
    ) -> None:
        self.paths = paths
        self.exercise = exercise
        self.size = workers
        self.time_limit = time_limit
        self.queue: deque[list[int]] = deque(
            list(range(i, min(i + chunk, len(paths)))) for i in range(0, len(paths), chunk)
        )
        self.retried: set[int] = set()
        self.idle_deaths = 0
        self.workers: list[_Worker] = []
        self.fork = "fork" in multiprocessing.get_all_start_methods()
        self.context: Any = multiprocessing.get_context("fork" if self.fork else "spawn")
        self.progress = self.context.RawArray("d", 2 * workers)

    def _start(self) -> None:
        slot = min(set(range(self.size)) - {w.slot for w in self.workers})
        ours, theirs = self.context.Pipe()
        others = [w.conn for w in self.workers] if self.fork else []
        args = (theirs, self.exercise, os.getpid(), others, self.progress, slot)
        process = self.context.Process(target=_work, args=args, daemon=True)
        process.start()
        theirs.close()
        self.workers.append(_Worker(process, ours, slot))

    def _assign(self, worker: _Worker) -> None:
        worker.task = self.queue.popleft()
        self.progress[2 * worker.slot + 1] = time.monotonic()
        self.progress[2 * worker.slot] = -1  # not begun: the worker sets 0 at the first file
        with contextlib.suppress(OSError):  # if it died, its sentinel will say so
            worker.conn.send([str(self.paths[i]) for i in worker.task])

    def _on(self, worker: _Worker) -> tuple[int, float]:
        """The place in its chunk of the file the worker is on, and since when."""
        return int(self.progress[2 * worker.slot]), self.progress[2 * worker.slot + 1]

    def _lost(self, worker: _Worker, timed_out: int | None = None) -> Iterator[tuple[int, Row]]:
        """The worker is gone: the file it was on gets an error row or one more try; the
        rest of its chunk goes back to the queue."""
        worker.process.join(timeout=5)
        on = min(self._on(worker)[0], len(worker.task) - 1)
        if on < 0:  # it died before its first file: none of them is to blame
            self.queue.appendleft(worker.task)
            self._remove(worker)
            self.idle_deaths += 1
            if self.idle_deaths > MAX_IDLE_DEATHS:
                raise GraderError("worker processes keep ending before they grade anything")
            return
        index, rest = worker.task[on], worker.task[:on] + worker.task[on + 1 :]
        if rest:
            self.queue.appendleft(rest)
        if timed_out == on:
            message = f"took too long to grade (more than {self.time_limit:g} s); skipped"
            yield index, _error(self.paths[index], message)
        elif index in self.retried:
            yield index, _error(self.paths[index], _killed(worker.process.exitcode))
        else:
            self.retried.add(index)
            self.queue.appendleft([index])
        self._remove(worker)

    def _remove(self, worker: _Worker) -> None:
        self.workers.remove(worker)
        worker.task = []
        with contextlib.suppress(OSError):
            worker.conn.close()
        worker.process.join(timeout=5)

    def _receive(self, worker: _Worker) -> Iterator[tuple[int, Row]]:
        """The chunk's rows if the worker sent them; else what it was on when it died."""
        try:
            rows = worker.conn.recv() if worker.conn.poll() else None
        except (EOFError, OSError):
            rows = None
        if rows is not None:
            yield from zip(worker.task, rows, strict=True)
            worker.task = []
        elif not worker.process.is_alive():
            yield from self._lost(worker)

    def _overdue(self) -> Iterator[tuple[int, Row]]:
        for worker in [w for w in self.workers if w.task]:
            on, since = self._on(worker)
            if time.monotonic() - since > self.time_limit:
                with contextlib.suppress(OSError):
                    os.kill(worker.process.pid, signal.SIGKILL)
                yield from self._lost(worker, timed_out=on)

    def rows(self) -> Iterator[tuple[int, Row]]:
        """(index, row) for every file, in the order they finish."""
        try:
            while self.queue or any(w.task for w in self.workers):
                while self.queue and len(self.workers) < self.size:
                    self._start()
                for worker in self.workers:
                    if not worker.task and self.queue:
                        self._assign(worker)
                busy = [w for w in self.workers if w.task]
                since = min(self._on(w)[1] for w in busy)
                timeout = max(0.0, since + self.time_limit - time.monotonic()) + 0.01
                ready = set(
                    wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout)
                )
                for worker in busy:
                    if worker.conn in ready or worker.process.sentinel in ready:
                        yield from self._receive(worker)
                yield from self._overdue()
        finally:
            self.close()

    def close(self) -> None:
        """Idle workers are told to stop; busy ones (after Ctrl-C) are killed."""
        for worker in self.workers:
            with contextlib.suppress(OSError):
                if worker.task:
                    os.kill(worker.process.pid, signal.SIGKILL)
                else:
                    worker.conn.send(None)
        for worker in list(self.workers):
            self._remove(worker)
