"""Apply an instructor's overrides to one graded part, in the JSON form every output reads.

A changed criterion keeps what the grader said under ``auto`` (its verdict, points,
feedback and hint) and says who changed it under ``override`` (the note and the entry's
place in its file); its ``passed``, ``points``, ``feedback`` and ``hint`` become the
instructor's.  The part keeps the grader's score and letter under ``auto`` and lists its
``adjustments``; its score is summed again from the criteria's points (as the engine sums
them), then adjusted, and kept within 0-100.

An entry that no longer applies is returned as ``Stale`` with the reason, never dropped:
a criterion the part does not have, points above the criterion's maximum, or a verdict the
grader now gives by itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.engine import letter, percent
from grader.overrides.model import Override
from grader.rubric import Rubric


@dataclass(frozen=True)
class Stale:
    """An override that was not applied, and why."""

    override: Override
    reason: str

    def to_dict(self) -> dict[str, Any]:
        o = self.override
        return {
            "source": str(o.where),
            "student": o.student,
            "exercise": o.exercise,
            "file": o.file,
            "criterion": o.criterion,
            "change": o.change(),
            "reason": self.reason,
        }

    def __str__(self) -> str:
        return f"{self.override.where}: not applied ({self.override.describe()}): {self.reason}"


def _verdict(passed: bool, points: float, max_points: float) -> str:
    return f"{'passed' if passed else 'failed'} {points:g}/{max_points:g}"


def _changed(c: dict[str, Any], o: Override, rubric: Rubric | None) -> dict[str, Any] | str:
    """The criterion as the override makes it, or why the override does not apply."""
    top = float(c["max_points"])
    if o.points is not None and o.points > top:
        return f"{o.points:g} points is more than {o.criterion}'s {top:g}"
    points = o.points if o.points is not None else (top if o.passed else 0.0)
    passed = o.passed if o.passed is not None else points >= top
    if passed == c["passed"] and points == c["points"]:
        now = _verdict(passed, points, top)
        return f"the grader now gives the same verdict by itself ({now})"
    spec = next((k for k in rubric.criteria if k.id == c["id"]), None) if rubric else None
    new = dict(c)
    new["auto"] = {key: c[key] for key in ("passed", "points", "feedback", "hint")}
    new["override"] = {"note": o.note, "source": str(o.where)}
    new["passed"], new["points"] = passed, points
    if spec is not None and passed != c["passed"]:
        new["feedback"] = spec.feedback_pass if passed else spec.feedback_fail
        new["hint"] = "" if passed else spec.hint
    return new


def apply_part(
    result: dict[str, Any], entries: list[Override], rubric: Rubric | None
) -> tuple[dict[str, Any] | None, list[Stale]]:
    """``result`` (a graded part's JSON) with ``entries`` applied, or None when none of
    them applies; and the entries that do not, with the reason."""
    stale: list[Stale] = []
    criteria = list(result["criteria"])
    index = {c["id"]: i for i, c in enumerate(criteria)}
    changed = False
    for o in entries:
        if o.criterion is None:
            continue
        i = index.get(o.criterion)
        if i is None:
            known = ", ".join(c["id"] for c in criteria)
            stale.append(Stale(o, f"this part has no criterion {o.criterion!r} ({known})"))
            continue
        new = _changed(criteria[i], o, rubric)
        if isinstance(new, str):
            stale.append(Stale(o, new))
        else:
            criteria[i] = new
            changed = True
    adjustments = [o for o in entries if o.criterion is None and o.adjust is not None]
    if not changed and not adjustments:
        return None, stale
    earned = sum(float(c["points"]) for c in criteria)
    top = sum(float(c["max_points"]) for c in criteria if not c["bonus"])
    adjusted = percent(earned, top) + sum(o.adjust or 0.0 for o in adjustments)
    score = round(max(0.0, min(100.0, adjusted)), 1)
    out = dict(result)
    out["criteria"] = criteria
    out["auto"] = {"score": result["score"], "grade": result["grade"]}
    out["adjustments"] = [
        {"points": o.adjust, "note": o.note, "source": str(o.where)} for o in adjustments
    ]
    out["score"], out["grade"] = score, letter(score)
    return out, stale
