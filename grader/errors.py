"""The one error type library code raises; the CLI turns it into a message and exit code 2."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """Where in a file a problem is: a YAML path like ``$.workload.batch``, or a line/column."""

    file: str
    path: str | None = None
    line: int | None = None
    column: str | int | None = None

    def __str__(self) -> str:
        out = self.file
        if self.path:
            out += f"::{self.path}"
            if self.line is not None:
                out += f" (line {self.line})"
        elif self.line is not None:
            out += f":{self.line}"
        if self.column is not None:
            out += f" (column {self.column})"
        return out


class GraderError(Exception):
    """A user's input is wrong: says which file, where, and what was expected."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        if self.location is None:
            return self.message
        return f"{self.location}: {self.message}"

    def at(self, location: Location) -> GraderError:
        """The same error, placed in a file (used when a string was parsed out of its file)."""
        return GraderError(self.message, location)
