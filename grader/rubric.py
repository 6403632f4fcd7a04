"""Rubrics as data: which criteria grade an exercise, with points, feedback and hints."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from grader.errors import GraderError, Location
from grader.paths import data_dir
from grader.yamlload import load_yaml, once_per_file, package_data

SCHEMA = "rubric.schema.json"


@cache
def criterion_titles() -> dict[str, str]:
    """The contract's criterion IDs and titles (``data/criteria.yaml``)."""
    data: dict[str, str] = package_data("criteria.yaml")
    return data


@dataclass(frozen=True)
class Criterion:
    id: str
    check: str
    points: float
    bonus: bool
    feedback_pass: str
    feedback_fail: str
    hint: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)
    unless_class: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rubric:
    exercise: str
    title: str
    criteria: tuple[Criterion, ...]
    path: Path

    def applicable(self, bottleneck: str) -> tuple[Criterion, ...]:
        return tuple(c for c in self.criteria if bottleneck not in c.unless_class)


def load_rubric(path: Path) -> Rubric:
    """A rubric file, loaded and checked once per process while it is unchanged."""
    return once_per_file("rubric", path, _load_rubric)


def _load_rubric(path: Path) -> Rubric:
    from grader.checks.registry import load_all

    data, _ = load_yaml(path, SCHEMA)
    checks = load_all()
    titles = criterion_titles()
    seen: set[str] = set()
    criteria = []
    for i, raw in enumerate(data["criteria"]):
        where = Location(str(path), f"$.criteria[{i}].id")
        cid = raw["id"]
        if cid not in titles:
            raise GraderError(
                f"unknown criterion {cid!r}; known criteria: {', '.join(sorted(titles))}", where
            )
        if cid in seen:
            raise GraderError(f"criterion {cid!r} appears twice", where)
        seen.add(cid)
        kind = raw.get("check", cid)
        if kind not in checks:
            raise GraderError(
                f"unknown check {kind!r}; known checks: {', '.join(sorted(checks))}",
                Location(str(path), f"$.criteria[{i}].check"),
            )
        criteria.append(
            Criterion(
                id=cid,
                check=kind,
                points=float(raw["points"]),
                bonus=bool(raw.get("bonus", False)),
                feedback_pass=raw["feedback"]["pass"],
                feedback_fail=raw["feedback"]["fail"],
                hint=raw["hint"],
                params=dict(raw.get("params", {})),
                unless_class=tuple(raw.get("unless_class", ())),
            )
        )
    return Rubric(data["exercise"], data.get("title", data["exercise"]), tuple(criteria), path)


def rubric_for(exercise_id: str, directory: Path | None = None, own: Path | None = None) -> Rubric:
    """The rubric an exercise names (``own``, from its ``rubric:`` key), else
    ``rubrics/<id>.yaml``, else the default one."""
    if own is not None:
        return load_rubric(own)
    directory = directory or data_dir("rubrics")
    by_id = directory / f"{exercise_id}.yaml"
    return load_rubric(by_id if by_id.exists() else directory / "default.yaml")
