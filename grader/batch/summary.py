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
            "students": self.students,
        }


def summarise(rows: list[Row]) -> Summary:
    scores: list[float] = []
    letters: Counter[str] = Counter()
    criteria: dict[str, CriterionStat] = {}
    students: dict[str, float] = {}
    for row in rows:
        if row.error:
            continue
        students[row.student] = round(students.get(row.student, 0.0) + row.total, 1)
        for result in row.results:
            scores.append(result["score"])
            letters[result["grade"]] += 1
            for c in result["criteria"]:
                stat = criteria.setdefault(c["id"], CriterionStat(c["id"], c.get("title", c["id"])))
                stat.total += 1
                if c["passed"]:
                    stat.passed += 1
                else:
                    stat.failing[(c["evidence"]["line"], c["evidence"]["text"])] += 1
    graded = sum(1 for r in rows if not r.error)
    return Summary(len(rows), graded, len(rows) - graded, scores, letters, criteria, students)


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
