"""``grade explain [CRITERION]``: the check's own documentation with its examples, or the list."""

from __future__ import annotations

from grader.checks.registry import get_check, load_all
from grader.errors import GraderError
from grader.exercises import exercise_files
from grader.rubric import criterion_titles, rubric_for
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


def render_criteria() -> str:
    """Every criterion of the contract with its title and the exercises whose rubric has it."""
    used: dict[str, list[str]] = {}
    for path in exercise_files():
        for c in rubric_for(path.stem).criteria:
            used.setdefault(c.id, []).append(path.stem)
    titles = criterion_titles()
    width = max(map(len, titles)) + 2
    lines = ["The criteria ('grade explain CRITERION' says what one judges, with examples):", ""]
    for cid, title in titles.items():
        where = f"  ({', '.join(used[cid])})" if cid in used else ""
        lines.append(f"  {cid:{width}}{title}{where}")
    return "\n".join(lines)
