"""Write an exercise from a trace: the op table, inferred workload facts and a draft prompt."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

from grader.atomic import write_text
from grader.exercises import Exercise, load_exercise
from grader.traces.link import link_kernels
from grader.traces.reader import Trace
from grader.traces.report import breakdown
from grader.traces.table import format_table, op_table

_BATCH = re.compile(r"\bbs\s*=\s*(\d+)|\bbatch(?:_size)?\s*[=:]\s*(\d+)", re.IGNORECASE)


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def exercise_id(out: Path | None, trace_path: Path) -> str:
    stem = (out or trace_path).name
    for suffix in (".gz", ".json", ".yaml", ".yml"):
        stem = stem.removesuffix(suffix)
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "_", stem).strip("_-") or "trace"
    return cleaned if cleaned[0].isalpha() else f"t_{cleaned}"


def infer_phase(report: dict[str, Any]) -> str | None:
    """The phase the stage report found: by its layers, a mixed step named as such."""
    prefill, decode, mixed = (report[f"{s}_layers"] for s in ("prefill", "decode", "mixed"))
    if mixed >= max(prefill, decode) and mixed:
        return "mixed (prefill and decode tokens in one step)"
    if prefill and decode and min(prefill, decode) > 0.2 * max(prefill, decode):
        return "prefill and decode"
    if not (prefill or decode):
        return None
    return "decode" if decode > prefill else "prefill"


def infer_batch(trace: Trace) -> int | None:
    for e in trace.of("user_annotation", "gpu_user_annotation"):
        m = _BATCH.search(e.name)
        if m:
            return int(m.group(1) or m.group(2))
    return None


def render_exercise(trace: Trace, ex_id: str, source: Path) -> str:
    kernels = link_kernels(trace)
    table, notes = op_table(trace, kernels)
    report = breakdown(kernels)
    fallback = "CPU only (no GPU in the trace)" if not kernels else "unknown GPU"
    device = trace.device_name or fallback
    phase = infer_phase(report)
    batch = infer_batch(trace)
    facts = [f"hardware: {device}"]
    if phase:
        facts.append(f"phase: {phase}")
    if batch:
        facts.append(f"batch: {batch}")
    prompt = (
        "You receive this profiler table, imported from a real run (below).\n\n"
        + "\n".join(f"- {f}" for f in facts)
        + "\n\nWrite a five-line report:\n\n```\nWorkload:\nHardware:\nTop CUDA time:\n"
        "Top CPU / orchestration cost:\nNext experiment:\n```\n"
    )
    note = "; ".join(notes) if notes else ""
    lines = [
        f"# Imported by `grade import-trace` from {source.name}.",
        "# The table is per top-level op: CUDA total is the kernels and copies it launched.",
        f"id: {ex_id}",
        f"title: {_q(f'Imported trace: {source.name}')}",
        "prompt: |",
        textwrap.indent(prompt, "  ").rstrip(),
        "workload:",
        "  model: null",
        "  prompt_tokens: null",
        "  output_tokens: null",
        "  dtype: null",
        f"  batch: {batch if batch else 'null'}",
        f"  phase: {_q(phase) if phase else 'null'}",
        f"hardware: {_q(device)}",
        "table: |",
        textwrap.indent(format_table(table), "  "),
    ]
    if note:
        lines.append(f"table_note: {_q(note)}")
    lines.append(f"source: {_q(str(source))}")
    return "\n".join(lines) + "\n"


def import_trace(trace: Trace, source: Path, out: Path | None) -> tuple[str, Exercise | None]:
    """The exercise's YAML text, validated by loading it back; written to ``out`` if given."""
    text = render_exercise(trace, exercise_id(out, source), source)
    if out is None:
        return text, None
    write_text(out, text)
    return text, load_exercise(out)
