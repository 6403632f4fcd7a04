"""Derive one bottleneck class from a table, by the definitions in the grading contract.

Each class gets a score scaled so that 1.0 is its threshold: a class *fires* exactly when
its score is at least 1.0.

* host-bound: host work (tokenizer, data loading, pre/post-processing, any CPU-only row
  that is not an op, a runtime call or a loop) CPU time over the device time.
* overhead-bound: the host's launch cost (a Python loop or launch calls, and the ops' own
  dispatch) over the device time, when launches are tiny (<= ``TINY_LAUNCH_US`` of device
  time per call, utility ops not counted).  With larger launches the score is capped
  below 1.0 (at ``TINY_LAUNCH_US`` / the average launch): the host may be slow, but the
  contract's overhead is many tiny launches.
* movement-bound: copies/casts/transfers over ``MOVEMENT_SHARE`` of device time, or over
  ``MOVEMENT_SHARE_WITH_BYTES`` when they also move at least ``LARGE_MOVE_BYTES``.
* communication-bound: collectives' device time over that of the largest other kind of
  device work (math, movement, elementwise, other): it fires when they take the largest
  share.
* compute-bound: as the contract defines it, device work (math, elementwise, other) is
  at least ``COMPUTE_SHARE`` of the device time AND movement is small AND the host keeps up
  (AND neither collectives nor host work outweigh it).  Its score is the weakest of these
  conditions (the work share over ``COMPUTE_SHARE``, and the inverse of the movement,
  host-time, collective and host-work ratios), so any problem to explain first that fires
  keeps it below 1.0.

The highest score wins (on a tie, a problem to explain first), so the chosen class never
scores below the runner-up, and the margin, the gap between their scores, is never
negative.  Host, overhead, movement and communication are problems to explain before the
math: that order lives in compute-bound's score, not in a second rule that could pick a
class scoring below the runner-up.  Utility ops (slice, view, arange, index...) never vote
by their call counts: their calls are left out of launch counts, and their CPU time counts
only where Self columns give it as time of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.analyzer.evidence import caveats, evidence_for
from grader.analyzer.metrics import Metrics, compute_metrics
from grader.tables.model import Table

CLASSES = (
    "movement-bound",
    "overhead-bound",
    "compute-bound",
    "host-bound",
    "communication-bound",
)
FIRST_TO_EXPLAIN = ("host-bound", "overhead-bound", "movement-bound", "communication-bound")

TINY_LAUNCH_US = 100.0
MOVEMENT_SHARE = 0.15
MOVEMENT_SHARE_WITH_BYTES = 0.08
LARGE_MOVE_BYTES = 1024**3
COMPUTE_SHARE = 0.5
SCORE_CAP = 999.0  # an infinite ratio (no device time at all), as a number JSON can hold
WORK_SHORT = "device work is under half of the device time"


@dataclass(frozen=True)
class Score:
    bottleneck: str
    score: float
    limit: str = field(default="", compare=False)  # compute-bound: what caps its score

    @property
    def fired(self) -> bool:
        return self.score >= 1.0


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
    why: str = ""  # in words: why the winner won over the runner-up
    margin_means: str = ""  # in words: what the margin measures here
    metrics: Metrics | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "bottleneck": self.bottleneck,
            "evidence": list(self.evidence),
            "runner_up": self.runner_up,
            "margin": self.margin,
            "why": self.why,
            "margin_means": self.margin_means,
            "scores": {s.bottleneck: {"score": s.score, "fired": s.fired} for s in self.scores},
            "shares": self.shares,
            "top_cuda_op": self.top_cuda,
            "top_cpu_op": self.top_cpu,
            "caveats": list(self.caveats),
        }


def _ratio(a: float, b: float) -> float:
    if b <= 0:
        return SCORE_CAP if a > 0 else 0.0
    return min(SCORE_CAP, a / b)


def score_classes(m: Metrics) -> dict[str, Score]:
    movement_share = m.share(m.movement_us)
    movement = movement_share / MOVEMENT_SHARE
    if m.movement_bytes is not None and m.movement_bytes >= LARGE_MOVE_BYTES:
        movement = max(movement, movement_share / MOVEMENT_SHARE_WITH_BYTES)
    cpu_ratio = _ratio(m.cpu_side_us, m.device_us)
    overhead = cpu_ratio
    if not 0 < m.avg_launch_us <= TINY_LAUNCH_US:
        overhead = min(overhead, TINY_LAUNCH_US / m.avg_launch_us) if m.launches else 0.0
    others = (m.math_us, m.movement_us, m.elementwise_us, m.other_us - m.unlisted_us)
    communication = _ratio(m.communication_us, max(others))
    host = _ratio(m.host_cpu_us, m.device_us)
    # Compute-bound as the contract defines it: the work dominates AND movement is small
    # AND the CPU keeps up (AND no collective or host work outweighs it).  Its score is
    # the weakest of these, so a problem to explain first that fires keeps it below 1.
    conditions = {
        WORK_SHORT: m.share(m.math_us + m.elementwise_us + m.other_us) / COMPUTE_SHARE,
        "the copies take too large a share": 1 / movement if movement else SCORE_CAP,
        "the host does not keep up": 1 / cpu_ratio if cpu_ratio else SCORE_CAP,
        "host work outweighs the device time": 1 / host if host else SCORE_CAP,
        "collectives outweigh the other work": 1 / communication if communication else SCORE_CAP,
    }
    limit = min(conditions, key=lambda k: conditions[k])
    scores = [
        Score("host-bound", host),
        Score("overhead-bound", overhead),
        Score("movement-bound", movement),
        Score("communication-bound", communication),
        Score("compute-bound", conditions[limit], limit),
    ]
    return {s.bottleneck: Score(s.bottleneck, round(s.score, 3), s.limit) for s in scores}


def decide(scores: dict[str, Score], exclude: str | None = None) -> str:
    """The highest score; on a tie a problem to explain first, then the order of CLASSES."""
    pool = [s for k, s in scores.items() if k != exclude]
    return min(
        pool,
        key=lambda s: (-s.score, s.bottleneck not in FIRST_TO_EXPLAIN, CLASSES.index(s.bottleneck)),
    ).bottleneck


FIRST = "host-, overhead-, movement- and communication-bound"
WHAT = {
    "host-bound": "host work (CPU only, outside the device loop) against the device time",
    "overhead-bound": "the host's launch and dispatch time against the device time, with "
    "tiny launches",
    "movement-bound": "copies, casts and transfers as a share of device time",
    "communication-bound": "collectives against the largest other kind of device work",
    "compute-bound": "device work as a share of device time, capped by movement, host time "
    "and collectives",
}


def explain(winner: str, runner: str, scores: dict[str, Score], no_device: bool) -> tuple[str, str]:
    """(why the winner won, what the margin measures), in words."""
    win, compute = scores[winner], scores["compute-bound"]
    means = (
        f"the gap between {winner}'s score and {runner}'s; each score is scaled so 1.0 is "
        "its class's threshold"
    )
    if no_device:
        return (
            "no op in the table takes device time: the host does all the work",
            "nothing: with no device time there is nothing to weigh",
        )
    if not win.fired:
        return (
            f"no class is over its threshold; {winner} ({WHAT[winner]}) scores highest, so "
            "it is only the best guess",
            means,
        )
    if winner == "compute-bound":
        return (
            f"device work is at least half of the device time, movement is small and the "
            f"host keeps up: no problem to explain first ({FIRST}) is over its threshold",
            means,
        )
    why = f"{winner} is over its threshold ({WHAT[winner]}) and scores highest"
    if compute.limit and compute.limit != WORK_SHORT:
        why += (
            f"; it is a problem to explain before the math ({FIRST} come first), so it caps "
            f"compute-bound's score at {compute.score:.2f}: the contract's compute-bound "
            f"needs small movement, a host that keeps up and no dominant collectives or "
            f"host work, and here {compute.limit}"
        )
    return why, means


def analyze(table: Table) -> Analysis:
    m = compute_metrics(table)
    scores = score_classes(m)
    winner = "host-bound" if m.device_us <= 0 else decide(scores)
    runner = decide(scores, exclude=winner)
    win, run = scores[winner], scores[runner]
    margin = 0.0 if m.device_us <= 0 else win.score - run.score
    shares = {
        "math": round(m.share(m.math_us), 4),
        "movement": round(m.share(m.movement_us), 4),
        "movement_as_listed": round(_ratio(m.movement_listed_us, m.device_listed_us), 4),
        "elementwise": round(m.share(m.elementwise_us), 4),
        "communication": round(m.share(m.communication_us), 4),
        "utility": round(m.share(m.utility_us), 4),
        "other": round(m.share(m.other_us), 4),
        "device_ms": round(m.device_us / 1e3, 3),
        "device_ms_as_listed": round(m.device_listed_us / 1e3, 3),
        "unlisted_ms": round(m.unlisted_us / 1e3, 3),
        "host_work_cpu_ms": round(m.host_cpu_us / 1e3, 3),
        "orchestration_cpu_ms": round(m.cpu_side_us / 1e3, 3),
        "host_over_device": _ratio(m.host_cpu_us + m.cpu_side_us, m.device_us),
        "avg_launch_us": round(m.avg_launch_us, 1),
    }
    counted = [r.row for r in m.rows if r.kind != "wrapper"] or list(table.rows)
    why, means = explain(winner, runner, scores, m.device_us <= 0)
    return Analysis(
        bottleneck=winner,
        evidence=evidence_for(winner, m),
        runner_up=runner,
        margin=round(margin, 2),
        scores=tuple(scores.values()),
        shares=shares,
        top_cuda=max(counted, key=lambda r: r.cuda_us).name,
        top_cpu=max(counted, key=lambda r: r.cpu_us).name,
        caveats=caveats(m, table.notes, m.device_us > 0 and margin < 0.25, not win.fired),
        why=why,
        margin_means=means,
        metrics=m,
    )
