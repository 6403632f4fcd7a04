"""Derive one bottleneck class from a table, by the definitions in the grading contract.

Each class gets a score scaled so that 1.0 is its threshold:

* host-bound: host work (tokenizer, data loading, pre/post-processing) CPU time against the
  device time; the device idles through it.  Fires at 1.0 (host time >= device time).
* overhead-bound: the host's launch cost (a Python loop or launch calls, or the ops' own
  dispatch) against the device time; fires at 1.0 only when launches are tiny
  (<= ``TINY_LAUNCH_US`` of device time per call, utility ops not counted).
* movement-bound: copies/casts/transfers as a share of device time, nested copies counted
  once; fires at ``MOVEMENT_SHARE`` of device time, or at ``MOVEMENT_SHARE_WITH_BYTES`` when
  they also move at least ``LARGE_MOVE_BYTES``.
* compute-bound: device time that is real work (math, elementwise) as a share of the
  device time, fires at ``COMPUTE_SHARE``.

Host, overhead and movement are the problems to explain first: among those that fire the
highest score wins.  Compute-bound is the verdict only when none of them fires.  Utility ops
(slice, view, arange, index...) never vote: their calls are left out of launch counts and
their CPU time out of the dispatch cost; they count only through the device time they take.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.analyzer.evidence import caveats, evidence_for
from grader.analyzer.metrics import Metrics, compute_metrics
from grader.tables.model import Table

CLASSES = ("movement-bound", "overhead-bound", "compute-bound", "host-bound")
FIRST_TO_EXPLAIN = ("host-bound", "overhead-bound", "movement-bound")

TINY_LAUNCH_US = 100.0
MOVEMENT_SHARE = 0.15
MOVEMENT_SHARE_WITH_BYTES = 0.08
LARGE_MOVE_BYTES = 1024**3
COMPUTE_SHARE = 0.5


@dataclass(frozen=True)
class Score:
    bottleneck: str
    score: float
    fired: bool


@dataclass(frozen=True)
class Analysis:
    bottleneck: str
    evidence: tuple[str, ...]
    runner_up: str
    margin: float
    scores: tuple[Score, ...]
    shares: dict[str, float] = field(hash=False)
    top_cuda: str = ""
    top_cpu: str = ""
    caveats: tuple[str, ...] = ()
    metrics: Metrics | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "bottleneck": self.bottleneck,
            "evidence": list(self.evidence),
            "runner_up": self.runner_up,
            "margin": self.margin,
            "scores": {s.bottleneck: {"score": s.score, "fired": s.fired} for s in self.scores},
            "shares": self.shares,
            "top_cuda_op": self.top_cuda,
            "top_cpu_op": self.top_cpu,
            "caveats": list(self.caveats),
        }


def _ratio(a: float, b: float) -> float:
    if b <= 0:
        return float("inf") if a > 0 else 0.0
    return a / b


def score_classes(m: Metrics) -> dict[str, Score]:
    movement_share = m.share(m.movement_us)
    movement_fired = movement_share >= MOVEMENT_SHARE or (
        m.movement_bytes >= LARGE_MOVE_BYTES and movement_share >= MOVEMENT_SHARE_WITH_BYTES
    )
    tiny = 0 < m.avg_launch_us <= TINY_LAUNCH_US
    overhead = _ratio(m.cpu_side_us, m.device_us)
    host = _ratio(m.host_cpu_us, m.device_us)
    work_share = m.share(m.math_us + m.elementwise_us + m.other_us)
    scores = [
        Score("host-bound", host, host >= 1.0),
        Score("overhead-bound", overhead if tiny else overhead * 0.5, tiny and overhead >= 1.0),
        Score("movement-bound", movement_share / MOVEMENT_SHARE, movement_fired),
        Score("compute-bound", work_share / COMPUTE_SHARE, work_share >= COMPUTE_SHARE),
    ]
    return {s.bottleneck: s for s in scores}


def _decide(scores: dict[str, Score], exclude: str | None = None) -> str:
    pool = {k: s for k, s in scores.items() if k != exclude}
    first = [s for k, s in pool.items() if k in FIRST_TO_EXPLAIN and s.fired]
    if first:
        return max(first, key=lambda s: s.score).bottleneck
    if "compute-bound" in pool and pool["compute-bound"].fired:
        return "compute-bound"
    return max(pool.values(), key=lambda s: s.score).bottleneck


def _finite(x: float) -> float:
    return round(x, 3) if x != float("inf") else 999.0


def analyze(table: Table) -> Analysis:
    m = compute_metrics(table)
    scores = score_classes(m)
    winner = "host-bound" if m.device_us <= 0 else _decide(scores)
    runner = _decide(scores, exclude=winner)
    margin = _finite(scores[winner].score) - _finite(scores[runner].score)
    if winner in FIRST_TO_EXPLAIN and runner not in FIRST_TO_EXPLAIN:
        margin = _finite(scores[winner].score) - 1.0  # how far above its own threshold
    shares = {
        "math": round(m.share(m.math_us), 4),
        "movement": round(m.share(m.movement_us), 4),
        "movement_as_listed": round(_ratio(m.movement_listed_us, m.device_listed_us), 4),
        "elementwise": round(m.share(m.elementwise_us), 4),
        "utility": round(m.share(m.utility_us), 4),
        "other": round(m.share(m.other_us), 4),
        "device_ms": round(m.device_us / 1e3, 3),
        "device_ms_as_listed": round(m.device_listed_us / 1e3, 3),
        "host_work_cpu_ms": round(m.host_cpu_us / 1e3, 3),
        "orchestration_cpu_ms": round(m.cpu_side_us / 1e3, 3),
        "host_over_device": _finite(_ratio(m.host_cpu_us + m.cpu_side_us, m.device_us)),
        "avg_launch_us": round(m.avg_launch_us, 1),
    }
    counted = [r.row for r in m.rows if r.kind != "wrapper"] or list(table.rows)
    return Analysis(
        bottleneck=winner,
        evidence=evidence_for(winner, m),
        runner_up=runner,
        margin=round(margin, 2),
        scores=tuple(Score(s.bottleneck, _finite(s.score), s.fired) for s in scores.values()),
        shares=shares,
        top_cuda=max(counted, key=lambda r: r.cuda_us).name,
        top_cpu=max(counted, key=lambda r: r.cpu_us).name,
        caveats=caveats(m, table.notes, abs(margin) < 0.25),
        metrics=m,
    )
