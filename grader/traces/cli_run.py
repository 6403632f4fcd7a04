"""``grade import-trace``: an exercise from a trace, or its per-stage layer report."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from grader.traces.exercise import import_trace
from grader.traces.link import link_kernels
from grader.traces.reader import read_trace
from grader.traces.report import STAGES, breakdown


def _health_line(h: dict[str, Any]) -> str:
    if h["grade"] == "n/a":
        return f"health: n/a ({h['reason']})"
    parts = ", ".join(
        f"{label} {h[key]['score']:g} ({h[key]['grade']})"
        for key, label in (
            ("round_consistency", "round consistency"),
            ("type_sequence", "type sequence"),
            ("stage_coverage", "stage coverage"),
        )
    )
    return f"health: {parts}, overall {h['overall']:g} ({h['grade']})"


def render_report(b: dict[str, Any]) -> str:
    lines = [
        f"layers: {b['layers']} in {b['steps']} step(s)   prefill: {b['prefill_layers']}   "
        f"decode: {b['decode_layers']}   mixed: {b['mixed_layers']}   "
        f"unknown: {b['unknown_layers']}",
        f"decode rounds: {b['decode_rounds']} of {b['layers_per_round']} layers",
        f"stages decided mostly by: {b['stage_source']}",
        _health_line(b["health"]),
    ]
    if b["eager_attention_blocks"]:
        lines.append(
            f"eager attention: {b['eager_attention_blocks']} blocks found as "
            "matmul, softmax, matmul"
        )
    if b["left_out"]:
        lines.append(f"left out: {b['left_out']} GPU events launched before the profiled window")
    lines += ["", f"{'kernel type':16}" + "".join(f"{s + ' us':>14}" for s in STAGES)]
    for kind, per in b["kernel_types"].items():
        lines.append(f"{kind:16}" + "".join(f"{per[s]:>14,.1f}" for s in STAGES))
    return "\n".join(lines) + "\n"


def run_import(
    trace_path: Path, out: Path | None, report: bool, fmt: str, ignore_annotations: bool
) -> str:
    with paused_gc():
        return _run(trace_path, out, report, fmt, ignore_annotations)


@contextmanager
def paused_gc() -> Iterator[None]:
    """The import builds hundreds of thousands of objects and no reference cycles: the cycle
    collector would walk them all again and again (a third of the time on a 120 MB trace)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _run(
    trace_path: Path, out: Path | None, report: bool, fmt: str, ignore_annotations: bool
) -> str:
    trace = read_trace(trace_path)
    if report:
        b = breakdown(link_kernels(trace, ignore_annotations=ignore_annotations))
        return json.dumps(b, indent=2) + "\n" if fmt == "json" else render_report(b)
    text, exercise = import_trace(trace, trace_path, out)
    if exercise is None:
        return text
    return f"wrote {out} ({exercise.id}); try: grade analyze {out}\n"
