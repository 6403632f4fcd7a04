"""``grade import-trace``: an exercise from a trace, or its per-stage layer report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grader.traces.exercise import import_trace
from grader.traces.layers import breakdown
from grader.traces.link import link_kernels
from grader.traces.reader import read_trace


def render_report(b: dict[str, Any]) -> str:
    h = b["health"]
    lines = [
        f"prefill layers: {b['prefill_layers']}   decode layers: {b['decode_layers']}   "
        f"decode rounds: {b['decode_rounds']} of {b['layers_per_round']} layers",
        f"stages decided mostly by: {b['stage_source']}",
        f"health: round consistency {h['round_consistency']['score']:g} "
        f"({h['round_consistency']['grade']}), type sequence {h['type_sequence']['score']:g} "
        f"({h['type_sequence']['grade']}), overall {h['overall']:g} ({h['grade']})",
        "",
        f"{'kernel type':16} {'PREFILL us':>14} {'DECODE us':>14}",
    ]
    for kind, per in b["kernel_types"].items():
        lines.append(f"{kind:16} {per['PREFILL']:>14,.1f} {per['DECODE']:>14,.1f}")
    return "\n".join(lines) + "\n"


def run_import(
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
