"""Worker processes for a batch that outlive a killed worker and bound each report's time.

The parent hands each worker chunks of files, two at a time so that a worker never waits
for the parent, and gets back each chunk's rows.  Each worker notes in shared memory which
file of which chunk it is on and since when, so the parent knows without a message per
file.  A worker that dies (the out-of-memory killer, a crash) costs only the file it was
on: that file is tried once more on its own, and if it kills a worker again it becomes an
error row; the rest goes to another worker.  A worker that spends more than the time limit
on one file is killed and the file becomes an error row ("took too long to grade").
Workers die with the parent (Linux's parent-death signal, and the end of their pipe
elsewhere) and ignore Ctrl-C, which the parent handles.
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
AHEAD = 2  # chunks sent to a worker before their rows come back
STRIDE = 1 << 20  # progress holds chunk * STRIDE + place in the chunk
PIPE_ROOM = 32_000  # bytes of a chunk's paths that surely fit in a pipe's buffer


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
    similar: bool = False,
) -> None:
    """A worker: grade each chunk received and send back its rows, until the pipe ends.
    Before each file it notes the time in ``progress[2 * slot + 1]``, then the chunk and
    the file's place in it in ``progress[2 * slot]`` (one number: one store)."""
    from grader.batch import run

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's clean stop
    _die_with_parent(parent)
    for other in others:  # the parent's ends of other workers' pipes, inherited by fork
        other.close()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        seq, paths = message
        rows = []
        for n, path in enumerate(paths):
            progress[2 * slot + 1] = time.monotonic()
            progress[2 * slot] = seq * STRIDE + n
            if similar:
                rows.append(run.grade_path(Path(path), exercise, similar=True))
            else:
                rows.append(run.grade_path(Path(path), exercise))
        conn.send((seq, rows))


@dataclass
class _Task:
    seq: int
    indices: list[int]  # of the files of the chunk
    since: float = 0.0  # when it became the chunk the worker is on


@dataclass
class _Worker:
    process: Any
    conn: Connection
    slot: int
    tasks: deque[_Task] = field(default_factory=deque)  # sent, rows not yet received


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
        similar: bool = False,
    ) -> None:
        self.paths = paths
        self.exercise = exercise
        self.similar = similar  # workers keep each part's text for the similarity check
        self.size = workers
        self.time_limit = time_limit
        self.queue: deque[list[int]] = deque(
            list(range(i, min(i + chunk, len(paths)))) for i in range(0, len(paths), chunk)
        )
        self.seq = 0
        self.retried: set[int] = set()
        self.idle_deaths = 0
        self.workers: list[_Worker] = []
        self.fork = "fork" in multiprocessing.get_all_start_methods()
        self.context: Any = multiprocessing.get_context("fork" if self.fork else "spawn")
        self.progress = self.context.RawArray("d", 2 * workers)

    def _start(self) -> None:
        slot = min(set(range(self.size)) - {w.slot for w in self.workers})
        self.progress[2 * slot] = -1
        ours, theirs = self.context.Pipe()
        others = [w.conn for w in self.workers] if self.fork else []
        args = (theirs, self.exercise, os.getpid(), others, self.progress, slot, self.similar)
        process = self.context.Process(target=_work, args=args, daemon=True)
        process.start()
        theirs.close()
        self.workers.append(_Worker(process, ours, slot))

    def _assign(self, worker: _Worker) -> None:
        task = _Task(self.seq, self.queue.popleft(), time.monotonic())
        self.seq += 1
        worker.tasks.append(task)
        with contextlib.suppress(OSError):  # if it died, its sentinel will say so
            worker.conn.send((task.seq, [str(self.paths[i]) for i in task.indices]))

    def _ahead(self, worker: _Worker) -> bool:
        """Whether to send the next chunk before the worker's rows come back: yes while it
        surely fits in the pipe's buffer (so that sending never waits on a worker that is
        itself waiting to send its rows)."""
        if len(worker.tasks) >= AHEAD or len(self.queue) <= len(self.workers):
            return False  # near the end, a chunk goes to whichever worker is free first
        size = sum(4 * len(str(self.paths[i])) + 8 for i in self.queue[0])  # UTF-8 at most
        return size < PIPE_ROOM

    def _on(self, worker: _Worker) -> tuple[int, float]:
        """The place in its current chunk of the file the worker is on (-1 before the
        first), and since when."""
        head = worker.tasks[0]
        seq, n = divmod(int(self.progress[2 * worker.slot]), STRIDE)
        if seq != head.seq:
            return -1, head.since
        return n, self.progress[2 * worker.slot + 1]

    def _drain(self, worker: _Worker) -> Iterator[tuple[int, Row]]:
        """The rows of every chunk the worker has sent back."""
        while worker.tasks:
            try:
                if not worker.conn.poll():
                    return
                seq, rows = worker.conn.recv()
            except (EOFError, OSError):
                return
            task = worker.tasks.popleft()
            yield from zip(task.indices, rows, strict=True)
            if worker.tasks:
                worker.tasks[0].since = time.monotonic()

    def _lost(self, worker: _Worker, timed_out: bool = False) -> Iterator[tuple[int, Row]]:
        """The worker is gone: the file it was on gets an error row or one more try; the
        rest of its chunks go back to the queue."""
        worker.process.join(timeout=5)
        yield from self._drain(worker)
        if not worker.tasks:
            self._remove(worker)
            return
        head, later = worker.tasks[0], list(worker.tasks)[1:]
        on = min(self._on(worker)[0], len(head.indices) - 1)
        for task in reversed(later):
            self.queue.appendleft(task.indices)
        self._remove(worker)
        if on < 0:  # it died before the chunk's first file: none of them is to blame
            self.queue.appendleft(head.indices)
            self.idle_deaths += 1
            if self.idle_deaths > MAX_IDLE_DEATHS:
                raise GraderError("worker processes keep ending before they grade anything")
            return
        index, rest = head.indices[on], head.indices[:on] + head.indices[on + 1 :]
        if rest:
            self.queue.appendleft(rest)
        if timed_out:
            message = f"took too long to grade (more than {self.time_limit:g} s); skipped"
            yield index, _error(self.paths[index], message)
        elif index in self.retried:
            yield index, _error(self.paths[index], _killed(worker.process.exitcode))
        else:
            self.retried.add(index)
            self.queue.appendleft([index])

    def _remove(self, worker: _Worker) -> None:
        self.workers.remove(worker)
        worker.tasks.clear()
        with contextlib.suppress(OSError):
            worker.conn.close()
        worker.process.join(timeout=5)

    def _receive(self, worker: _Worker) -> Iterator[tuple[int, Row]]:
        """The rows the worker sent; and if it has died, what it was on."""
        yield from self._drain(worker)
        if not worker.process.is_alive():
            yield from self._lost(worker)

    def _overdue(self) -> Iterator[tuple[int, Row]]:
        for worker in [w for w in self.workers if w.tasks]:
            on, since = self._on(worker)
            if time.monotonic() - since > self.time_limit:
                with contextlib.suppress(OSError):
                    os.kill(worker.process.pid, signal.SIGKILL)
                worker.process.join(timeout=5)
                # the file it was on when killed is the one that overran, if it is the same
                yield from self._lost(worker, timed_out=on >= 0 and self._on(worker)[0] == on)

    def rows(self) -> Iterator[tuple[int, Row]]:
        """(index, row) for every file, in the order they finish."""
        try:
            while self.queue or any(w.tasks for w in self.workers):
                while self.queue and len(self.workers) < self.size:
                    self._start()
                for worker in self.workers:
                    while self.queue and (not worker.tasks or self._ahead(worker)):
                        self._assign(worker)
                busy = [w for w in self.workers if w.tasks]
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
                if worker.tasks:
                    os.kill(worker.process.pid, signal.SIGKILL)
                else:
                    worker.conn.send(None)
        for worker in list(self.workers):
            self._remove(worker)
