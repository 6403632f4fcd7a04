"""Which files a batch grades, in a fixed order."""

from __future__ import annotations

from pathlib import Path

from grader.errors import GraderError, Location

SUFFIXES = (".md", ".txt")


def collect(paths: list[Path]) -> list[Path]:
    """Files named on the command line, and every .md/.txt below the folders named.

    Something below a folder that is named like a report but is not a regular file (a
    directory "alice.md", a broken link) is kept, so that it becomes an error row instead
    of vanishing.  The order is sorted and duplicates are dropped.
    """
    found: set[Path] = set()
    for path in paths:
        if path.is_dir():
            for candidate in path.rglob("*"):
                if candidate.suffix.lower() in SUFFIXES and not _hidden(candidate, path):
                    found.add(candidate)
        elif path.exists() or path.is_symlink():
            found.add(path)
        else:
            raise GraderError("no such file or folder", Location(str(path)))
    return sorted(found)


def _hidden(candidate: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in candidate.relative_to(root).parts)
