"""Which files a batch grades, in a fixed order."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from grader.errors import GraderError, Location

SUFFIXES = (".md", ".txt")
FEEDBACK_MARK = ".grade-feedback"  # marks a folder of feedback a batch wrote: not reports


def collect(paths: list[Path]) -> list[Path]:
    """Files named on the command line, and every .md/.txt below the folders named.

    Something below a folder that is named like a report but is not a regular file (a
    directory "alice.md", a broken link), a folder that cannot be read, and a path named
    that does not exist are kept, so that each becomes an error row instead of vanishing
    or cancelling the batch; only when no path named exists is it the user's mistake.
    The order is sorted and duplicates are dropped.
    """
    found: set[str] = set()
    missing = [p for p in paths if not (p.exists() or p.is_symlink())]
    if missing and len(missing) == len(paths):
        raise GraderError("no such file or folder", Location(str(missing[0])))
    for path in paths:
        if path.is_dir():
            found.update(_reports_below(str(path)))
        else:
            found.add(str(path))
    return [Path(p) for p in sorted(found)]


def _reports_below(root: str) -> Iterator[str]:
    """Names ending in .md/.txt below ``root``, hidden files and folders left out, and
    feedback folders a batch wrote; linked folders are not followed (a link loop cannot
    hang the batch)."""
    unreadable: list[OSError] = []  # os.walk skips a folder it cannot list: name it
    for folder, dirs, files in os.walk(root, onerror=unreadable.append):
        if FEEDBACK_MARK in files:
            dirs[:] = []
            continue
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in (*files, *dirs):
            if not name.startswith(".") and name.lower().endswith(SUFFIXES):
                yield os.path.join(folder, name)
    yield from (str(err.filename) for err in unreadable if err.filename)
