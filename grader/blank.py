"""Nothing to grade yet: a report that holds no more than its exercise's template.

A blank template, a file holding "x", or five labels with nothing after them say nothing a
criterion could judge, so no criterion may pass on them by absence (no attention kernel
proposed, say): the engine gives such a report 0 with a message that there is nothing to
grade yet.  What the learner wrote is every word of the report that is not a field label
and not a line of the template.
"""

from __future__ import annotations

import re

from grader.exercises import Exercise
from grader.report.model import Report

MIN_WORDS = 3
NOTHING_TO_GRADE = (
    "nothing to grade yet: the report holds no more than the template; fill in the five "
    "fields and the parts the exercise asks for"
)
_WORD = re.compile(r"[A-Za-z0-9_]+")
_SPACES = re.compile(r"\s+")


_MARKS = re.compile(r"^\s*(?:[-*+>#]+|\d+[.)])?\s*")


def _plain(line: str) -> str:
    return _SPACES.sub(" ", _MARKS.sub("", line).strip(" \t*_:`")).lower()


_TEMPLATES: dict[tuple[str, str], str] = {}


def _template_text(exercise: Exercise) -> str:
    """The exercise's template as one normalised text, each line between two newlines."""
    key = (exercise.id, str(exercise.path))
    if key not in _TEMPLATES:
        from grader.reporters.template import render_template

        lines = render_template(exercise).splitlines()
        _TEMPLATES[key] = "\n" + " ".join(_plain(line) for line in lines) + "\n"
    return _TEMPLATES[key]


def written_words(report: Report, exercise: Exercise) -> int:
    """How many words the learner wrote beyond the template and the field labels."""
    template = _template_text(exercise)
    labels = {(f.label_line, f.label_block) for f in report.fields.values()}
    return sum(
        len(_WORD.findall(ln.text))
        for ln in report.lines
        if (ln.number, ln.block) not in labels
        and _plain(ln.text) not in template  # a line of the template
    )


def nothing_to_grade(report: Report, exercise: Exercise) -> bool:
    if any(report.field(key) is not None for key in report.fields):
        return False
    return written_words(report, exercise) < MIN_WORDS
