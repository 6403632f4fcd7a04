"""Exercises and analyses as text for a terminal."""

from __future__ import annotations

import textwrap

from grader.analyzer import Analysis
from grader.exercises import Exercise
from grader.tables import Table
from grader.units import format_bytes, format_time

HEADER = ("op", "CUDA total", "CPU total", "calls", "memory")
WIDTH = 88


def render_table(table: Table) -> str:
    cells = [HEADER] + [
        (
            r.name,
            format_time(r.cuda_us) if r.cuda_us else "0 ms",
            format_time(r.cpu_us),
            str(r.calls),
            format_bytes(r.memory_bytes),
        )
        for r in table.rows
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(len(HEADER))]
    lines = []
    for n, row in enumerate(cells):
        first = row[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join([first, *rest]).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _wrap(text: str, indent: str = "") -> str:
    return textwrap.fill(text, WIDTH, subsequent_indent=indent)


def render_exercise(ex: Exercise) -> str:
    """The exercise as the course shows it: prompt, table (or what the exercise states when
    the course gives none), acceptance criteria, stretch, debrief; the course's answer key
    (``check``) is not shown."""
    parts = [f"# {ex.title}  ({ex.id})", "", ex.prompt.rstrip(), ""]
    if ex.table_given:
        parts += ["Profiler table:", "", render_table(ex.table)]
        if ex.table_note:
            parts += ["", f"Note: {ex.table_note}"]
    else:  # the table is the exercise author's construction, for the analyzer only
        parts.append(
            _wrap(f"Profiler table: none. The course gives no table for this exercise. {ex.stated}")
        )
    if ex.acceptance:
        parts += ["", "Acceptance criteria", "", "A good answer:", ""]
        parts += [_wrap(f"  {n}. {item}", "     ") for n, item in enumerate(ex.acceptance, 1)]
    if ex.stretch:
        parts += ["", _wrap(f"Stretch: {ex.stretch}")]
    if ex.debrief:
        parts += ["", _wrap(f"Debrief: {ex.debrief}")]
    return "\n".join(parts)


def render_analysis(ex: Exercise, a: Analysis) -> str:
    s = a.shares
    m = a.metrics
    counted = (
        "each op by its Self time"
        if m is not None and m.counting == "self"
        else "each call chain counted once"
    )
    ranked = sorted(a.scores, key=lambda sc: -sc.score)
    lines = [
        f"{ex.id}: {a.bottleneck}",
        "",
        "Evidence:",
        *[f"  - {e}" for e in a.evidence],
        "",
        f"Shares of device time ({s['device_ms']:.1f} ms, {counted}): "
        f"math {s['math']:.0%}, movement {s['movement']:.0%} "
        f"({s['movement_as_listed']:.0%} as listed), elementwise {s['elementwise']:.0%}, "
        f"communication {s['communication']:.0%}, utility {s['utility']:.0%}",
        f"Host against device: host work {s['host_work_cpu_ms']:.1f} ms CPU, orchestration "
        f"{s['orchestration_cpu_ms']:.1f} ms CPU, launches average {s['avg_launch_us']:.0f} us",
        f"Top CUDA op: {a.top_cuda}    Top CPU op: {a.top_cpu}",
        f"Why {a.bottleneck}: {a.why}.",
        f"Runner-up: {a.runner_up}; margin {a.margin:.2f}: {a.margin_means}.",
        "Scores (1.0 is each class's threshold; * = over it): "
        + ", ".join(f"{sc.bottleneck} {sc.score:.2f}{'*' if sc.fired else ''}" for sc in ranked),
    ]
    if a.caveats:
        lines += ["", "Caveats:", *[f"  - {c}" for c in a.caveats]]
    return "\n".join(lines)
