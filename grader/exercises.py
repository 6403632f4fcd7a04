"""Exercises as data: load, validate and look up the YAML files in ``exercises/``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from grader.errors import GraderError, Location
from grader.paths import data_dir
from grader.suggest import did_you_mean
from grader.tables import Table, parse_table
from grader.yamlload import load_yaml, node_line, once_per_file

SCHEMA = "exercise.schema.json"


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    prompt: str
    workload: dict[str, Any]
    hardware: str
    table: Table
    table_text: str
    path: Path
    deliverables: tuple[str, ...] = ()
    acceptance: tuple[str, ...] = ()
    stretch: str = ""
    debrief: str = ""
    table_note: str = ""
    table_given: bool = True  # False: the course gives no table; `stated` says what it states
    stated: str = ""
    source: str = ""
    rubric_path: Path | None = None  # the exercise's own rubric, from its ``rubric:`` key
    extra: dict[str, Any] = field(default_factory=dict)


def _table_first_line(root: yaml.Node | None) -> int:
    """Line of the table's first text line: below ``table: |`` for a block scalar."""
    line = node_line(root, ["table"]) or 1
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            if key.value == "table" and isinstance(value, yaml.ScalarNode) and value.style in "|>":
                return line + 1
    return line


def _parse_table(data: dict[str, Any], root: yaml.Node | None, file: str) -> Table:
    try:
        return parse_table(data["table"], file, _table_first_line(root))
    except GraderError as exc:
        where = exc.location or Location(file)
        raise GraderError(
            exc.message, Location(file, "$.table", where.line, where.column)
        ) from None


def _own_rubric(data: dict[str, Any], root: yaml.Node | None, path: Path) -> Path | None:
    """The file the ``rubric:`` key names, relative to the exercise; it must exist."""
    if "rubric" not in data:
        return None
    rubric = path.parent / data["rubric"]
    if not rubric.is_file():
        raise GraderError(
            f"no rubric file {str(rubric)!r}; give a path relative to this exercise file",
            Location(str(path), "$.rubric", node_line(root, ["rubric"])),
        )
    return rubric


def load_exercise(path: Path) -> Exercise:
    """An exercise file, loaded and validated once per process while it is unchanged."""
    return once_per_file("exercise", path, _load_exercise)


def _load_exercise(path: Path) -> Exercise:
    checked: list[tuple[Table, Path | None]] = []

    def check(data: dict[str, Any], root: yaml.Node | None) -> None:
        checked.append((_parse_table(data, root, str(path)), _own_rubric(data, root, path)))

    data, root = load_yaml(path, SCHEMA, then=check)
    table, rubric = checked[0]
    return Exercise(
        id=data["id"],
        title=data["title"],
        prompt=data["prompt"],
        workload=dict(data["workload"]),
        hardware=data["hardware"],
        table=table,
        table_text=data["table"],
        path=path,
        deliverables=tuple(data.get("deliverables", ())),
        acceptance=tuple(data.get("acceptance", ())),
        stretch=data.get("stretch", ""),
        debrief=data.get("debrief", ""),
        table_note=data.get("table_note", ""),
        table_given=data.get("table_given", True),
        stated=data.get("stated", ""),
        source=data.get("source", ""),
        rubric_path=rubric,
    )


def exercise_files(directory: Path | None = None) -> list[Path]:
    directory = directory or data_dir("exercises")
    return sorted(directory.glob("*.yaml")) + sorted(directory.glob("*.yml"))


def list_exercises(directory: Path | None = None) -> list[Exercise]:
    """Every exercise of a folder; two files with one id is an error naming both."""
    seen: dict[str, Path] = {}
    out = []
    for path in exercise_files(directory):
        ex = load_exercise(path)
        if ex.id in seen:
            raise GraderError(
                f"duplicate exercise id {ex.id!r}: already used by {seen[ex.id]}",
                Location(str(path), "$.id"),
            )
        seen[ex.id] = path
        out.append(ex)
    return out


def resolve_exercise(name: str, directory: Path | None = None) -> Exercise:
    """An exercise by id (``partA``) or by the path of any exercise YAML file."""
    candidate = Path(name)
    if candidate.suffix in (".yaml", ".yml") or candidate.exists():
        return load_exercise(candidate)
    files = exercise_files(directory)
    for path in files:
        if path.stem == name:
            ex = load_exercise(path)
            if ex.id == name:
                return ex
    for ex in list_exercises(directory):
        if ex.id == name:
            return ex
    stems = sorted(p.stem for p in files)
    known = ", ".join(stems) or "none"
    raise GraderError(
        f"unknown exercise {name!r};{did_you_mean(name, stems)} expected an id ({known}) "
        "or the path of an exercise YAML file"
    )
