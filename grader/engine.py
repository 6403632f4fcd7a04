"""One engine: run a rubric's checks on a report and sum them into a grade."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from grader.analyzer import Analysis, analyze
from grader.blank import NOTHING_TO_GRADE, nothing_to_grade
from grader.checks.registry import Context, Evidence, Verdict, get_check
from grader.exercises import Exercise
from grader.report.model import Report
from grader.rubric import Rubric, criterion_titles, rubric_for
from grader.stuffing import (
    ABSTRACT,
    FORM_WITH_CONTENT,
    GENERAL,
    JUDGE_CLAIMS,
    LOOK_AGAIN,
    NO_FIELDS,
    NO_FIELDS_FAILED,
    STUFFED_FORM,
    abstract_words,
    fieldless,
    fieldless_claims_fail,
    generalities,
    judged_description,
    stuffed_line,
    stuffed_verdict,
)

LETTERS = ((90, "A"), (80, "B"), (70, "C"), (60, "D"))


class CriterionResult(NamedTuple):
    id: str
    title: str
    passed: bool
    points: float
    max_points: float
    bonus: bool
    feedback: str
    hint: str
    evidence: Evidence
    detail: str
    review: bool = False  # flagged for a person to look at; ``passed`` is still the verdict

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "title": self.title,
            "passed": self.passed,
            "points": self.points,
            "max_points": self.max_points,
            "bonus": self.bonus,
            "feedback": self.feedback,
            "hint": self.hint,
            "evidence": {"line": self.evidence.line, "text": self.evidence.text},
            "detail": self.detail,
            "review": self.review,
        }


@dataclass(frozen=True)
class GradeResult:
    exercise: str
    submission: str
    score: float
    max_score: float
    grade: str
    analysis: Analysis
    criteria: tuple[CriterionResult, ...]
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "exercise": self.exercise,
            "submission": self.submission,
            "score": self.score,
            "max_score": self.max_score,
            "grade": self.grade,
            "bottleneck": {
                "expected": self.analysis.bottleneck,
                "evidence": list(self.analysis.evidence),
                "runner_up": self.analysis.runner_up,
            },
            "criteria": [c.to_dict() for c in self.criteria],
            "warnings": list(self.warnings),
        }


def letter(score: float) -> str:
    return next((grade for floor, grade in LETTERS if score >= floor), "F")


def percent(earned: float, max_score: float) -> float:
    """A part's score out of 100: earned points over the non-bonus maximum, bonus points
    filling what was missed but never past 100."""
    return round(min(100.0, 100.0 * earned / max_score), 1) if max_score else 0.0


def grade_report(
    report: Report,
    exercise: Exercise,
    rubric: Rubric | None = None,
    analysis: Analysis | None = None,
) -> GradeResult:
    analysis = analysis or analyze(exercise.table)
    rubric = rubric or rubric_for(exercise.id, own=exercise.rubric_path)
    titles = criterion_titles()
    results = []
    blank = nothing_to_grade(report, exercise)
    if blank:
        report.warnings = (*report.warnings, f"{report.source}: {NOTHING_TO_GRADE}")
    stuffed = None if blank else stuffed_line(report)
    # the claims a report passes are flagged for a person when it reads like stuffing: its
    # Workload or Hardware judges the run, or it fills none of the five fields
    look_again = None
    if not blank and stuffed is None:
        if judged_description(report) is not None:
            look_again = LOOK_AGAIN
        elif fieldless(report):
            look_again = NO_FIELDS
        elif words := abstract_words(report):
            look_again = ABSTRACT.format(words=", ".join(dict.fromkeys(words)))
        elif words := generalities(report):
            look_again = GENERAL.format(words=", ".join(dict.fromkeys(words)))
    # a claim in a report with no fields is not counted from prose alone (unless it is an essay)
    claims_fail = look_again == NO_FIELDS and fieldless_claims_fail(report)
    for crit in rubric.applicable(analysis.bottleneck):
        if blank:
            verdict = Verdict.no(None, NOTHING_TO_GRADE)
        elif stuffed is not None and crit.id in JUDGE_CLAIMS:
            verdict = stuffed_verdict(stuffed)
        else:
            verdict = get_check(crit.check).fn(Context(report, exercise, analysis, crit.params))
            if claims_fail and verdict.passed and crit.id in JUDGE_CLAIMS:
                verdict = Verdict.no(verdict.evidence, NO_FIELDS_FAILED, review=True)
            elif look_again and verdict.passed and crit.id in JUDGE_CLAIMS:
                verdict = verdict._replace(review=True, detail=verdict.detail or look_again)
            elif (stuffed or look_again) and verdict.passed and crit.id in FORM_WITH_CONTENT:
                verdict = verdict._replace(review=True, detail=STUFFED_FORM)
        results.append(
            CriterionResult(
                id=crit.id,
                title=titles.get(crit.id, crit.id),
                passed=verdict.passed,
                points=crit.points if verdict.passed else 0.0,
                max_points=crit.points,
                bonus=crit.bonus,
                feedback=crit.feedback_pass if verdict.passed else crit.feedback_fail,
                hint="" if verdict.passed else crit.hint,
                evidence=verdict.evidence,
                detail=verdict.detail,
                review=verdict.review,
            )
        )
    max_score = sum(r.max_points for r in results if not r.bonus)
    earned = sum(r.points for r in results)
    score = percent(earned, max_score)
    return GradeResult(
        exercise=exercise.id,
        submission=report.source,
        score=score,
        max_score=100.0,
        grade=letter(score),
        analysis=analysis,
        criteria=tuple(results),
        warnings=report.warnings,
    )
