"""Where the class stands: files, parts, and per exercise its scores, letters and each
criterion's pass rate; per student the total of the parts that count.

Files and parts are kept apart (a file may hold three parts), and so are exercises: a
criterion's pass rate is over the parts of one exercise, never mixed across exercises.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from grader.batch.names import shown
from grader.batch.run import Graded, Row
from grader.batch.students import display_names, student_key

LETTER_ORDER = ("A", "B", "C", "D", "F")
BINS = tuple(range(0, 100, 10))  # 0-9, 10-19, ..., 90-100
BIN_LABELS = tuple(f"{b}-{b + 9 if b < 90 else 100}" for b in BINS)


@dataclass
class CriterionStat:
    id: str
    title: str
    passed: int = 0
    total: int = 0
    flagged: int = 0  # verdicts flagged for instructor review
    failing: Counter[tuple[int | None, str]] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0

    def typical_failure(self) -> tuple[int | None, str]:
        """The failing line quoted most often (its number and text); if no failure quoted a
        line, what the grader looked for (number None)."""
        quoted = [(n, k) for k, n in self.failing.items() if k[0] is not None]
        if not quoted:
            return next(iter(self.failing), (None, ""))
        return max(quoted)[1]


@dataclass
class ExerciseSummary:
    """The counted parts graded as one exercise."""

    exercise: str
    scores: list[float] = field(default_factory=list)
    letters: Counter[str] = field(default_factory=Counter)
    criteria: dict[str, CriterionStat] = field(default_factory=dict)

    @property
    def parts(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return round(statistics.fmean(self.scores), 1) if self.scores else 0.0

    @property
    def median(self) -> float:
        return round(statistics.median(self.scores), 1) if self.scores else 0.0

    def histogram(self) -> list[int]:
        counts = [0] * len(BINS)
        for s in self.scores:
            counts[min(int(s // 10), len(BINS) - 1)] += 1
        return counts

    def most_missed(self, n: int = 5) -> list[CriterionStat]:
        missed = [c for c in self.criteria.values() if c.total and c.passed < c.total]
        return sorted(missed, key=lambda c: (c.rate, c.id))[:n]

    def to_dict(self) -> dict[str, Any]:
        return {
            "parts": self.parts,
            "mean": self.mean,
            "median": self.median,
            "letters": {k: self.letters.get(k, 0) for k in LETTER_ORDER},
            "histogram": dict(zip(BIN_LABELS, self.histogram(), strict=True)),
            "criteria": {
                c.id: {
                    "passed": c.passed,
                    "total": c.total,
                    "rate": round(c.rate, 4),
                    "flagged": c.flagged,
                }
                for c in self.criteria.values()
            },
        }


@dataclass
class Summary:
    """Counted in as rows arrive (in any order), a second submission's part taken out
    again by ``uncount``, and finished by ``finish``."""

    files: int = 0
    graded: int = 0
    failed: int = 0
    not_counted: int = 0  # parts a later submission of the same student replaced
    warned: int = 0  # parts with a warning
    flagged: int = 0  # verdicts of counted parts flagged for instructor review
    overridden: int = 0  # counted parts an instructor's override changed
    exercises: dict[str, ExerciseSummary] = field(default_factory=dict)
    totals: dict[str, float] = field(default_factory=dict)  # student key -> total
    students: dict[str, float] = field(default_factory=dict)  # shown name -> total

    @property
    def parts(self) -> int:
        return sum(e.parts for e in self.exercises.values())

    def add(self, row: Row) -> None:
        self.files += 1
        if row.error:
            self.failed += 1
            return
        self.graded += 1
        key = student_key(row.student)
        self.totals[key] = self.totals.get(key, 0.0) + row.total
        for result in row.results:
            self.warned += bool(result.warnings)
            self._count(result, 1)

    def uncount(self, row: Row, result: Graded) -> None:
        """Take out a part that does not count (it was counted in when it arrived)."""
        self.not_counted += 1
        key = student_key(row.student)
        self.totals[key] = self.totals[key] - result.score
        self._count(result, -1)

    def replace(self, row: Row, old: Graded, new: Graded) -> None:
        """A counted part changed after it was counted in (an instructor's override)."""
        key = student_key(row.student)
        self.totals[key] = self.totals[key] - old.score + new.score
        self._count(old, -1)
        self._count(new, 1)

    def _count(self, result: Graded, sign: int) -> None:
        ex = self.exercises.get(result.exercise)
        if ex is None:
            ex = self.exercises[result.exercise] = ExerciseSummary(result.exercise)
        if sign > 0:
            ex.scores.append(result.score)
        else:
            ex.scores.remove(result.score)
        ex.letters[result.grade] += sign
        self.flagged += len(result.review) * sign
        self.overridden += result.overridden * sign
        stats = ex.criteria
        for cid, passed, _ in result.criteria:
            stat = stats.get(cid)
            if stat is None:
                stat = stats[cid] = CriterionStat(cid, _titles().get(cid, cid))
            stat.total += sign
            stat.passed += passed * sign
        for cid, *_ in result.review:
            stats[cid].flagged += sign
        for cid, line, text in result.failing:
            failing = stats[cid].failing
            failing[(line, text)] += sign
            if failing[(line, text)] <= 0:
                del failing[(line, text)]

    def finish(self, rows: list[Row]) -> Summary:
        """Exercises in order, totals rounded, students by the name shown for them."""
        self.exercises = {k: e for k, e in sorted(self.exercises.items()) if e.parts}
        self.totals = {k: round(v, 1) for k, v in self.totals.items()}
        names = display_names(rows)
        self.students = {shown(names[k]): v for k, v in self.totals.items()}
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "graded": self.graded,
            "failed": self.failed,
            "parts": self.parts,
            "not_counted": self.not_counted,
            "warned": self.warned,
            "flagged_for_review": self.flagged,
            "overridden": self.overridden,
            "exercises": {k: e.to_dict() for k, e in self.exercises.items()},
            "students": dict(sorted(self.students.items())),
        }


@cache
def _titles() -> dict[str, str]:
    from grader.rubric import criterion_titles

    return criterion_titles()


def summarise(rows: list[Row]) -> Summary:
    """The figures of ``rows``, whose second submissions are already resolved."""
    s = Summary()
    for row in rows:
        s.add(row)
    for row in rows:
        for result in row.results:
            if not row.counted(result):
                s.uncount(row, result)
    return s.finish(rows)


def _exercise_lines(e: ExerciseSummary) -> list[str]:
    lines = [
        f"{e.exercise}: {e.parts} part{'s' if e.parts != 1 else ''}, score mean {e.mean:g}, "
        f"median {e.median:g}   letters: "
        + "  ".join(f"{k} {e.letters.get(k, 0)}" for k in LETTER_ORDER),
        "  pass rate per criterion:",
    ]
    width = max((len(c) for c in e.criteria), default=10)
    for c in e.criteria.values():
        bar = "#" * round(20 * c.rate)
        flagged = f"  {c.flagged} flagged for review" if c.flagged else ""
        lines.append(f"    {c.id:<{width}}  {c.rate:6.1%}  {bar:<20}{flagged}".rstrip())
    lines.append("  scores:")
    hist = e.histogram()
    top = max(hist) or 1
    for label, n in zip(BIN_LABELS, hist, strict=True):
        lines.append(f"    {label:>6} {'#' * round(30 * n / top):<30} {n}")
    return lines


def headline(s: Summary) -> str:
    per = ", ".join(f"{k} {e.parts}" for k, e in s.exercises.items())
    out = (
        f"{s.files} file{'s' if s.files != 1 else ''}: {s.graded} graded, "
        f"{s.failed} could not be graded; {s.parts} part{'s' if s.parts != 1 else ''} "
        f"counted" + (f" ({per})" if per else "")
    )
    extra = []
    if s.not_counted:
        extra.append(f"{s.not_counted} not counted (a later submission replaces it)")
    if s.warned:
        extra.append(f"{s.warned} with warnings")
    if s.flagged:
        extra.append(f"{s.flagged} verdicts flagged for instructor review")
    if s.overridden:
        extra.append(f"{s.overridden} part{'s' if s.overridden != 1 else ''} changed by overrides")
    return out + ("\n" + "; ".join(extra) if extra else "")


def render_summary(s: Summary) -> str:
    lines = [headline(s)]
    for e in s.exercises.values():
        lines += ["", *_exercise_lines(e)]
    return "\n".join(lines)
