"""Outputs written atomically: a temporary file beside the target, then a rename.

An interrupted run leaves either the old file or the new one, never half a CSV.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from grader.errors import GraderError, Location


@contextlib.contextmanager
def atomic_open(
    path: Path, mode: str = "w", newline: str | None = None, buffering: int = -1
) -> Iterator[IO[Any]]:
    """Open a temporary file for writing (text, or bytes with ``mode="wb"``); on success it
    replaces ``path``.  A large ``buffering`` suits a large output written in pieces."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise GraderError(f"cannot write: {exc.strerror}", Location(str(path))) from None
    try:
        encoding = None if "b" in mode else "utf-8"
        with os.fdopen(fd, mode, buffering, encoding=encoding, newline=newline) as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(path: Path, text: str) -> None:
    with atomic_open(path) as handle:
        handle.write(text)
