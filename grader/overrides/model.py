"""Overrides as data: read from a YAML list (or a filled-in review queue), checked, frozen.

An entry names a student and an exercise (and, optionally, the report's file name) and
either changes one criterion's verdict (``passed`` and/or ``points``) or adjusts the part's
score (``adjust``); every entry has a note saying why.  The YAML file goes through the one
loader (``grader.yamlload``: safe load, the bundled JSON Schema, ``file::$[3].points (line
12): ...`` errors) and may not use aliases.  Two entries that change the same criterion of
the same student's part are refused, naming both; several adjustments of a part add up.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.batch.students import student_key
from grader.errors import GraderError, Location

SCHEMA = "overrides.schema.json"


@dataclass(frozen=True)
class Override:
    student: str
    exercise: str
    note: str
    where: Location  # the entry in its file, for every message about it
    criterion: str | None = None
    passed: bool | None = None
    points: float | None = None
    adjust: float | None = None
    file: str | None = None  # the report's file name; None: whichever file counts

    @property
    def part(self) -> tuple[str, str]:
        return student_key(self.student), self.exercise

    @property
    def key(self) -> tuple[str, str, str] | None:
        """What two entries may not both set; None for an adjustment (they add up)."""
        return (*self.part, self.criterion) if self.criterion else None

    def change(self) -> str:
        """What the entry does, in a few words: 'passed', '7/10 points', 'adjust -5'."""
        if self.criterion is None:
            return f"adjust {self.adjust:+g}"
        verdict = "" if self.passed is None else ("passed" if self.passed else "failed")
        points = "" if self.points is None else f"{self.points:g} points"
        return ", ".join(x for x in (verdict, points) if x)

    def describe(self) -> str:
        what = f"{self.criterion}: {self.change()}" if self.criterion else self.change()
        return f"{self.student}, {self.exercise}, {what}"

    def to_yaml(self) -> dict[str, Any]:
        """The entry as the overrides file holds it (keys in the order people read them)."""
        out: dict[str, Any] = {"student": self.student, "exercise": self.exercise}
        if self.file:
            out["file"] = self.file
        if self.criterion is not None:
            out["criterion"] = self.criterion
        for name in ("passed", "points", "adjust"):
            value = getattr(self, name)
            if value is not None:
                out[name] = int(value) if name != "passed" and value == int(value) else value
        out["note"] = self.note
        return out


def from_entry(raw: dict[str, Any], where: Location) -> Override:
    """An entry the schema has accepted."""
    points = raw.get("points")
    adjust = raw.get("adjust")
    return Override(
        student=raw["student"],
        exercise=raw["exercise"],
        note=raw["note"].strip(),
        where=where,
        criterion=raw.get("criterion"),
        passed=raw.get("passed"),
        points=None if points is None else float(points),
        adjust=None if adjust is None else float(adjust),
        file=raw.get("file"),
    )


def read_overrides_file(path: Path) -> tuple[list[Override], Any]:
    """The entries of a YAML overrides file, and its composed node tree (for its lines)."""
    from grader.yamlload import load_yaml, node_line

    data, root = load_yaml(path, SCHEMA, top=list, aliases=False)
    entries = [
        from_entry(raw, Location(str(path), f"$[{i}]", node_line(root, [i])))
        for i, raw in enumerate(data)
    ]
    return entries, root


def load_yaml_overrides(path: Path) -> list[Override]:
    return read_overrides_file(path)[0]


def load_overrides(paths: list[Path]) -> list[Override]:
    """Every entry of the files, in order: YAML overrides files and filled-in review queues
    (``.csv``).  A criterion changed twice (in one file or two) is refused."""
    from grader.overrides.queue import read_filled_queue

    entries: list[Override] = []
    for path in paths:
        if path.suffix.lower() == ".csv":
            entries += read_filled_queue(path).entries
        else:
            entries += load_yaml_overrides(path)
    check_unique(entries)
    return entries


def check_unique(entries: list[Override]) -> None:
    seen: dict[tuple[str, str, str], Override] = {}
    for entry in entries:
        key = entry.key
        if key is None:
            continue
        first = seen.get(key)
        if first is not None:
            raise GraderError(
                f"{entry.student}'s {entry.criterion} in {entry.exercise} is also set at "
                f"{first.where}; keep one of the two",
                entry.where,
            )
        seen[key] = entry
