"""Nothing to grade yet: a blank template or a file holding "x" scores 0 and says so, and no
criterion passes on it by absence."""

from __future__ import annotations

import pytest

from grader.blank import NOTHING_TO_GRADE
from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report
from grader.reporters.template import render_template


def _grade(text: str, exercise: str):
    return grade_report(Report.parse(text, "r.md"), resolve_exercise(exercise))


@pytest.mark.parametrize("exercise", ["partA", "partB", "partC"])
def test_the_blank_template_has_nothing_to_grade(exercise: str) -> None:
    result = _grade(render_template(resolve_exercise(exercise)), exercise)
    assert result.score == 0
    assert not any(c.passed for c in result.criteria)
    assert all(c.detail == NOTHING_TO_GRADE for c in result.criteria)
    assert any(NOTHING_TO_GRADE in w for w in result.warnings)


@pytest.mark.parametrize("text", ["x\n", "Workload:\nHardware:\n", "# Part A\n\n?\n"])
def test_a_file_with_next_to_nothing_scores_zero(text: str) -> None:
    result = _grade(text, "partA")
    assert result.score == 0
    assert not any(c.passed for c in result.criteria)


def test_a_few_words_of_the_learners_own_are_graded() -> None:
    result = _grade("I ran out of time before the copies.\n", "partA")
    assert not any(NOTHING_TO_GRADE in w for w in result.warnings)
    assert any(c.passed for c in result.criteria)  # nothing proposed: no attention kernel


def test_one_field_filled_is_graded() -> None:
    template = render_template(resolve_exercise("partA"))
    result = _grade(template.replace("Hardware: ", "Hardware: NVIDIA L4"), "partA")
    assert not any(NOTHING_TO_GRADE in w for w in result.warnings)
