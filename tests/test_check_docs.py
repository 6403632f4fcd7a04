"""Every check's docstring examples are graded: the documentation cannot drift."""

from __future__ import annotations

import pytest

from grader.analyzer import analyze
from grader.checks.registry import Context, load_all
from grader.exercises import resolve_exercise
from grader.report.model import Report

EXAMPLES = [
    (kind.id, n, should_pass, exercise, text)
    for kind in sorted(load_all().values(), key=lambda k: k.id)
    for n, (should_pass, exercise, text) in enumerate(kind.examples())
]


def test_every_check_documents_a_pass_and_a_fail():
    for kind in load_all().values():
        verdicts = {p for p, _, _ in kind.examples()}
        assert verdicts == {True, False}, kind.id


@pytest.mark.parametrize(
    ("check_id", "n", "should_pass", "exercise", "text"),
    EXAMPLES,
    ids=[f"{e[0]}-{e[1]}-{'pass' if e[2] else 'fail'}" for e in EXAMPLES],
)
def test_docstring_example(check_id, n, should_pass, exercise, text):
    ex = resolve_exercise(exercise)
    ctx = Context(Report.parse(text), ex, analyze(ex.table), {})
    if check_id == "next-experiment-targets-bottleneck" and exercise == "partC":
        ctx = Context(ctx.report, ex, ctx.analysis, {"require_dtype_or_device": True})
    verdict = load_all()[check_id].fn(ctx)
    assert verdict.passed is should_pass, verdict
