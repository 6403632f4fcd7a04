"""A graded report as text for a terminal: the table of criteria, evidence, hints, score."""

from __future__ import annotations

import textwrap

from grader.engine import GradeResult

WIDTH = 88
REVIEW_NOTE = (
    "review: the evidence is partial or conflicting, so this verdict is the grader's best "
    "reading; an instructor may look again"
)


def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(text, WIDTH, initial_indent=indent, subsequent_indent=indent)


def render_grade(result: GradeResult) -> str:
    a = result.analysis
    out = [
        f"{result.submission}  ({result.exercise})",
        _wrap(f"Expected diagnosis: {a.bottleneck}. {'; '.join(a.evidence[:2])}.", ""),
        "",
    ]
    idw = max(len(c.id) for c in result.criteria) if result.criteria else 10
    for c in result.criteria:
        mark = ("PASS" if c.passed else "FAIL") + ("?" if c.review else " ")
        pts = f"{c.points:g}/{c.max_points:g}" + (" bonus" if c.bonus else "")
        out.append(f"{mark} {c.id:<{idw}}  {pts:>9}  {c.feedback}")
        if c.evidence.line is not None:
            quote = c.evidence.text if len(c.evidence.text) < 160 else c.evidence.text[:157] + "..."
            out.append(_wrap(f'line {c.evidence.line}: "{quote}"', "      "))
        if c.detail and (not c.passed or c.evidence.line is None or c.review):
            out.append(_wrap(f"({c.detail})", "      "))
        if c.review:
            out.append(_wrap(REVIEW_NOTE, "      "))
        if c.hint:
            out.append(_wrap(f"hint: {c.hint}", "      "))
    out += ["", f"Score: {result.score:g}/100  Grade: {result.grade}"]
    flagged = sum(c.review for c in result.criteria)
    if flagged:
        out.append(
            f"{flagged} verdict{'s' if flagged > 1 else ''} flagged for instructor review (?)"
        )
    for w in result.warnings:
        out.append(f"warning: {w}")
    return "\n".join(out)
