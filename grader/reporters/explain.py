"""``grade explain CRITERION``: the check's own documentation, with its examples."""

from __future__ import annotations

from grader.checks.registry import get_check, load_all
from grader.errors import GraderError
from grader.rubric import criterion_titles
from grader.suggest import did_you_mean


def render_explain(criterion: str) -> str:
    titles = criterion_titles()
    if criterion not in titles:
        known = ", ".join(sorted(titles))
        raise GraderError(
            f"unknown criterion {criterion!r};{did_you_mean(criterion, titles)} "
            f"known criteria: {known}"
        )
    load_all()
    kind = get_check(criterion)
    return f"{criterion}: {titles[criterion]}\n\n{kind.doc}"
