"""A blank report for an exercise, as the learner should fill it in."""

from __future__ import annotations

from grader.exercises import Exercise
from grader.report.labels import field_specs
from grader.rubric import rubric_for

_EXTRA = {
    "two-hypotheses": "## Hypotheses for copy_ and to\n1. \n2. \n",
    "experiment-per-hypothesis": "## Experiments\n1. For H1: \n2. For H2: \n",
    "not-yet-with-reason": "## Not yet\n(one thing you would not optimize yet, and why)\n",
    "stretch-named-ranges": '## Stretch: ranges for the next run\n- record_function("...")\n',
    "contrast-four-bullets": "## Contrast with Part A\n- \n- \n- \n- \n",
}
# A rubric with this criterion grades the field names as written from memory (Part C):
# its template must not write them.
FROM_MEMORY = "field-names-exact"
FROM_MEMORY_NOTE = (
    "(Write the five field names from memory, in order, one per line, each followed by a\n"
    "colon and its value for this exercise's run.)"
)


def render_template(ex: Exercise) -> str:
    ids = [c.id for c in rubric_for(ex.id, own=ex.rubric_path).criteria]
    lines = [f"# {ex.title}", ""]
    if FROM_MEMORY in ids:
        lines.append(FROM_MEMORY_NOTE)
    else:
        specs, _ = field_specs()
        lines += [f"{spec.name}: " for spec in specs]
    for cid, block in _EXTRA.items():
        if cid in ids:
            lines += ["", block.rstrip()]
    return "\n".join(lines) + "\n"
