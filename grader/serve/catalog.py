"""The exercises a ``grade serve`` offers, loaded once at start, with what the page shows.

An exercise id from a request is only ever a key of this catalogue: it never reaches
``resolve_exercise``, which would also take a path.  Each exercise comes with the text
``grade show`` prints and the blank report ``grade template`` prints, made by the same
functions, so a broken exercise or rubric stops the server at start, not a learner later.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.errors import GraderError, Location
from grader.exercises import Exercise, list_exercises
from grader.suggest import did_you_mean


@dataclass(frozen=True)
class Entry:
    exercise: Exercise
    shown: str  # what `grade show ID` prints
    template: str  # what `grade template ID` prints

    def to_dict(self) -> dict[str, str]:
        ex = self.exercise
        return {"id": ex.id, "title": ex.title, "show": self.shown, "template": self.template}


def load_catalog(directory: Path | None = None) -> dict[str, Entry]:
    """Every exercise of ``directory`` (the shipped ones by default), by id, in file order."""
    from grader.reporters.exercise_text import render_exercise
    from grader.reporters.template import render_template

    exercises = list_exercises(directory)
    if not exercises:
        raise GraderError(
            "holds no exercise (.yaml) file; give --exercises a folder of exercises",
            Location(str(directory)),
        )
    return {ex.id: Entry(ex, render_exercise(ex), render_template(ex)) for ex in exercises}


def unknown_exercise(name: str, catalog: dict[str, Entry]) -> str:
    """The message for an exercise id that is not in the catalogue."""
    name = name[:100]
    near = did_you_mean(name, list(catalog))
    return f"unknown exercise {name!r};{near} expected one of {', '.join(catalog)}"
