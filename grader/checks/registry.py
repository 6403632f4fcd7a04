"""Check kinds, registered once by decorator and keyed by the criterion ID they judge.

A check is a function ``(ctx, params) -> Verdict``.  Its docstring is the rationale a
learner reads (``grade explain``); the ``PASS (exercise):`` and ``FAIL (exercise):`` blocks
in it are examples that the test suite grades, so the documentation cannot drift from the
behaviour.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from grader.analyzer import Analysis
from grader.errors import GraderError
from grader.exercises import Exercise
from grader.report.model import Evidence, Report, TextLine


class Verdict(NamedTuple):
    passed: bool
    evidence: Evidence
    detail: str = ""  # what was looked for and where, when nothing decided it
    review: bool = False  # the evidence is partial or conflicting: a person should look

    @classmethod
    def yes(
        cls, where: TextLine | Evidence | None, detail: str = "", review: bool = False
    ) -> Verdict:
        return cls(True, _evidence(where, detail), detail, review)

    @classmethod
    def no(cls, where: TextLine | Evidence | None, detail: str, review: bool = False) -> Verdict:
        return cls(False, _evidence(where, detail), detail, review)


def _evidence(where: TextLine | Evidence | None, detail: str) -> Evidence:
    if isinstance(where, Evidence):
        return where
    if where is None:
        return Evidence(None, detail)
    return Evidence(where.number, where.text)


class Context(NamedTuple):
    report: Report
    exercise: Exercise
    analysis: Analysis
    params: dict[str, Any]

    @property
    def expected(self) -> str:
        return self.analysis.bottleneck


CheckFn = Callable[[Context], Verdict]


@dataclass(frozen=True)
class CheckKind:
    id: str
    fn: CheckFn
    doc: str

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0]

    def examples(self) -> list[tuple[bool, str, str]]:
        """(should_pass, exercise, report text) for each PASS/FAIL block of the docstring."""
        out = []
        pattern = re.compile(r"^(PASS|FAIL) \((\w+)\):\n((?:(?:    .*)?\n)+)", re.MULTILINE)
        for m in pattern.finditer(self.doc + "\n"):
            body = inspect.cleandoc(m.group(3))
            out.append((m.group(1) == "PASS", m.group(2), body))
        return out


CHECKS: dict[str, CheckKind] = {}


def check(check_id: str) -> Callable[[CheckFn], CheckFn]:
    """Register ``fn`` as the check for ``check_id``; a second registration is an error."""

    def register(fn: CheckFn) -> CheckFn:
        if check_id in CHECKS:
            raise RuntimeError(f"check {check_id!r} is registered twice")
        CHECKS[check_id] = CheckKind(check_id, fn, inspect.getdoc(fn) or "")
        return fn

    return register


def get_check(check_id: str) -> CheckKind:
    if check_id not in CHECKS:
        load_all()
    if check_id not in CHECKS:
        known = ", ".join(sorted(CHECKS))
        raise GraderError(f"unknown check {check_id!r}; known checks: {known}")
    return CHECKS[check_id]


def load_all() -> dict[str, CheckKind]:
    """Import every check module so that their decorators have run."""
    from grader.checks import (  # noqa: F401
        attention,
        contrast,
        diagnosis,
        experiments,
        fields,
        hypotheses,
        overhead,
        part_c,
        separation,
        tokenizer,
        wrapup,
    )

    return CHECKS
