"""Where the class stands: counts, scores, letters, and each criterion's pass rate."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from grader.batch.run import Row

LETTER_ORDER = ("A", "B", "C", "D", "F")
BINS = tuple(range(0, 100, 10))  # 0-9, 10-19, ..., 90-100


@dataclass
class CriterionStat:
    id: str
    title: str
    passed: int = 0
    total: int = 0
    failing: Counter[tuple[int | None, str]] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0

    def typical_failure(self) -> str:
        quoted = [(n, k) for k, n in self.failing.items() if k[0] is not None]
        if not quoted:
            return next(iter(self.failing), (None, ""))[1]
        return max(quoted)[1][1]


@dataclass
class Summary:
    reports: int
    graded: int
    failed: int
    scores: list[float]
    letters: Counter[str]
    criteria: dict[str, CriterionStat]
    students: dict[str, float]

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

    def add(self, row: Row) -> None:
        """Count one report in (rows may come in any order: the figures do not depend on it)."""
        from grader.rubric import criterion_titles

        self.reports += 1
        if row.error:
            self.failed += 1
            return
        self.graded += 1
        self.students[row.student] = round(self.students.get(row.student, 0.0) + row.total, 1)
        titles = criterion_titles()
        for result in row.results:
            self.scores.append(result.score)
            self.letters[result.grade] += 1
            for cid, passed, _ in result.criteria:
                stat = self.criteria.get(cid)
                if stat is None:
                    stat = self.criteria[cid] = CriterionStat(cid, titles.get(cid, cid))
                stat.total += 1
                stat.passed += passed
            for cid, line, text in result.failing:
                self.criteria[cid].failing[(line, text)] += 1

    def most_missed(self, n: int = 5) -> list[CriterionStat]:
        missed = [c for c in self.criteria.values() if c.total and c.passed < c.total]
        return sorted(missed, key=lambda c: (c.rate, c.id))[:n]

    def to_dict(self) -> dict[str, Any]:
        return {
            "reports": self.reports,
            "graded": self.graded,
            "failed": self.failed,
            "mean": self.mean,
            "median": self.median,
            "letters": {k: self.letters.get(k, 0) for k in LETTER_ORDER},
            "histogram": dict(
                zip(
                    [f"{b}-{b + 9 if b < 90 else 100}" for b in BINS], self.histogram(), strict=True
                )
            ),
            "criteria": {
                c.id: {"passed": c.passed, "total": c.total, "rate": round(c.rate, 4)}
                for c in self.criteria.values()
            },
            "students": dict(sorted(self.students.items())),
        }


def summarise(rows: list[Row]) -> Summary:
    summary = Summary(0, 0, 0, [], Counter(), {}, {})
    for row in rows:
        summary.add(row)
    return summary


def render_summary(s: Summary) -> str:
    lines = [
        f"{s.graded} of {s.reports} reports graded, {s.failed} could not be graded",
        f"score: mean {s.mean:g}, median {s.median:g}   letters: "
        + "  ".join(f"{k} {s.letters.get(k, 0)}" for k in LETTER_ORDER),
        "",
        "pass rate per criterion:",
    ]
    width = max((len(c) for c in s.criteria), default=10)
    for c in s.criteria.values():
        bar = "#" * round(20 * c.rate)
        lines.append(f"  {c.id:<{width}}  {c.rate:6.1%}  {bar}")
    lines += ["", "scores:"]
    hist = s.histogram()
    top = max(hist) or 1
    for b, n in zip(BINS, hist, strict=True):
        label = f"{b:>3}-{b + 9 if b < 90 else 100:<3}"
        lines.append(f"  {label} {'#' * round(30 * n / top):<30} {n}")
    return "\n".join(lines)
