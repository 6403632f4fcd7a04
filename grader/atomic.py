"""Outputs written atomically: temporary files beside their targets, then renames.

An interrupted run leaves either the old file or the new one, never half a CSV.  An
``OutputSet`` renames all of a run's outputs together at the end, under a lock on their
folders, so the CSV, JSON and HTML on disk always come from one run.  A temporary's name
holds the writer's process id; one left by a killed run is removed by the next write to the
same folder.  A new file gets the mode an ordinary write would give it (0666 less the
umask); a replaced file keeps its mode.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from grader.errors import GraderError, Location

_TEMP = re.compile(r"^\..+\.grade-(\d+)-[0-9a-f]+\.tmp$")


def _umask() -> int:
    """The process's umask, read without changing it where the system says it."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)  # elsewhere the only way to read it: set it and put it back
    os.umask(mask)
    return mask


def _fail(path: Path, exc: OSError) -> GraderError:
    return GraderError(f"cannot write: {exc.strerror or exc}", Location(str(path)))


def check_output_file(path: Path) -> None:
    """Refuse a target that is a folder (or lies below a file) before anything is written."""
    if path.is_dir():
        raise GraderError("is a folder; give a file name", Location(str(path)))
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if parent.exists() and not parent.is_dir():
        raise GraderError(f"cannot write: {parent} is a file, not a folder", Location(str(path)))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


# Temporaries this process made and has not yet renamed or removed.
_CREATED: set[str] = set()


def remove_own_temporaries() -> None:
    """Remove every temporary this process left (a run stopped by a signal mid-write)."""
    for tmp in list(_CREATED):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _CREATED.discard(tmp)


def _remove_stale_temporaries(folder: Path) -> None:
    """Remove temporaries that writers which no longer run left in ``folder``."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            m = _TEMP.match(entry.name)
            if m and int(m.group(1)) != os.getpid() and not _alive(int(m.group(1))):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


@contextlib.contextmanager
def _locked(folders: list[Path]) -> Iterator[None]:
    """An exclusive lock on each folder (in a fixed order), where the system offers one."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    fds = []
    try:
        for folder in sorted(set(folders), key=str):
            with contextlib.suppress(OSError):
                fd = os.open(folder, os.O_RDONLY)
                fds.append(fd)
                fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        for fd in fds:
            os.close(fd)  # closing releases the lock


class OutputSet:
    """A run's outputs: each written to a temporary, all renamed at once on ``commit``.

    Used as a context manager, it commits when the block ends normally and removes every
    temporary when it ends with an exception (Ctrl-C included).
    """

    def __init__(self) -> None:
        self._pending: list[tuple[str, Path]] = []
        self._cleaned: set[Path] = set()
        self._mode: int | None = None

    def _temporary(self, path: Path) -> tuple[int, str]:
        check_output_file(path)
        folder = path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if folder not in self._cleaned:
                self._cleaned.add(folder)
                _remove_stale_temporaries(folder)
            name = f".{path.name}.grade-{os.getpid()}-{secrets.token_hex(4)}.tmp"
            tmp = os.path.join(folder, name)
            _CREATED.add(tmp)  # before it exists: a signal from here on cannot orphan it
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            raise _fail(path, exc) from None
        try:
            mode = os.stat(path).st_mode & 0o7777
        except OSError:
            if self._mode is None:
                self._mode = 0o666 & ~_umask()
            mode = self._mode
        with contextlib.suppress(OSError):
            os.fchmod(fd, mode)
        return fd, tmp

    @contextlib.contextmanager
    def open(
        self, path: Path, mode: str = "w", newline: str | None = None, buffering: int = -1
    ) -> Iterator[IO[Any]]:
        """A temporary for ``path`` (text, or bytes with ``mode="wb"``), renamed on commit.
        A large ``buffering`` suits a large output written in pieces."""
        path = Path(path)
        fd, tmp = self._temporary(path)
        try:
            encoding = None if "b" in mode else "utf-8"
            with os.fdopen(fd, mode, buffering, encoding=encoding, newline=newline) as handle:
                yield handle
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        self._pending.append((tmp, path))

    def write_text(self, path: Path, text: str) -> None:
        with self.open(path) as handle:
            handle.write(text)

    def commit(self) -> None:
        """Rename every temporary onto its target, holding the lock on their folders."""
        pending, self._pending = self._pending, []
        try:
            with _locked([path.parent for _, path in pending]):
                for n, (tmp, path) in enumerate(pending):
                    try:
                        os.replace(tmp, path)
                        _CREATED.discard(tmp)
                    except OSError as exc:
                        self._pending = pending[n + 1 :]
                        with contextlib.suppress(OSError):
                            os.unlink(tmp)
                        raise _fail(path, exc) from None
        finally:
            self.discard()

    def discard(self) -> None:
        for tmp, _ in self._pending:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        self._pending = []

    def __enter__(self) -> OutputSet:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


@contextlib.contextmanager
def atomic_open(
    path: Path, mode: str = "w", newline: str | None = None, buffering: int = -1
) -> Iterator[IO[Any]]:
    """Open a temporary file for writing; on success it replaces ``path``."""
    with OutputSet() as outputs, outputs.open(path, mode, newline, buffering) as handle:
        yield handle


def write_text(path: Path, text: str) -> None:
    with atomic_open(path) as handle:
        handle.write(text)
