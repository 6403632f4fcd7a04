"""Write an exercise from a trace: the op table, inferred workload facts and a draft prompt."""

from __future__ import annotations

import json
import re
import tempfile
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

from grader.atomic import write_text
from grader.errors import GraderError, Location
from grader.exercises import Exercise, load_exercise
from grader.traces.annotations import StepNote, batch_in
from grader.traces.device import device_name
from grader.traces.link import GPU_CATS, Kernel, link_kernels
from grader.traces.reader import Trace
from grader.traces.report import breakdown
from grader.traces.table import clean, format_table, op_table

CAPTURE_CALLS = re.compile(r"(?:cuda|hip)(?:StreamBeginCapture|GraphInstantiate)", re.I)
LAUNCH_CALLS = re.compile(r"launch(?:cooperative)?kernel", re.I)


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON's escapes are YAML's): no line break, no control
    character and no Unicode line separator of a trace's names can end it."""
    return json.dumps(text, ensure_ascii=True)


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


def step_notes(kernels: list[Kernel]) -> list[StepNote]:
    """The annotations of the steps the kernels ran in, one per step, in order."""
    seen: dict[int, StepNote] = {}
    for k in kernels:
        if k.note is not None and k.note.step and k.step_key is not None:
            seen.setdefault(k.step_key, k.note)
    return list(seen.values())


def infer_batch(trace: Trace, notes: list[StepNote]) -> int | None:
    """The batch a step annotation states (vLLM's requests, SGLang's bs=), else one a span's
    name states."""
    for note in notes:
        if note.batch:
            return note.batch
    for e in trace.of("user_annotation") + trace.of("gpu_user_annotation"):
        batch = batch_in(e.name)
        if batch:
            return batch
    return None


def token_facts(notes: list[StepNote]) -> tuple[int | None, str | None]:
    """Prompt tokens of a pure prefill step, and a line for the tokens every step holds."""
    prefill = sum(n.prefill_tokens or 0 for n in notes)
    decode = sum(n.decode_tokens or 0 for n in notes)
    if not (prefill or decode):
        return None, None
    parts = [f"{prefill} prefill" if prefill else "", f"{decode} decode" if decode else ""]
    line = " + ".join(p for p in parts if p) + f" tokens in {len(notes)} step(s)"
    return (prefill if prefill and not decode else None), line


def capture_note(trace: Trace) -> str | None:
    """Launches recorded while a CUDA/HIP graph was captured ran nothing: say so."""
    calls = trace.of("cuda_runtime") + trace.of("cuda_driver")
    if not any(CAPTURE_CALLS.search(e.name) for e in calls):
        return None
    ran = {e.a.correlation for e in trace.of(*GPU_CATS)}
    captured = sum(1 for e in calls if LAUNCH_CALLS.search(e.name) and e.a.correlation not in ran)
    if not captured:
        return None
    return (
        f"the trace records a CUDA/HIP graph capture: {captured} kernel launches were "
        "captured, not run, so they have no device time"
    )


def render_exercise(trace: Trace, ex_id: str, source: Path) -> str:
    kernels = link_kernels(trace)
    table, notes = op_table(trace, kernels)
    report = breakdown(kernels)
    device = clean(device_name(trace, bool(kernels)))
    phase = infer_phase(report)
    steps = step_notes(kernels)
    batch = infer_batch(trace, steps)
    prompt_tokens, tokens = token_facts(steps)
    captured = capture_note(trace)
    if captured:
        notes = [*notes, captured]
    facts = [f"hardware: {device}"]
    if phase:
        facts.append(f"phase: {phase}")
    if batch:
        facts.append(f"batch: {batch}")
    if tokens:
        facts.append(f"tokens: {tokens}")
    if captured:
        facts.append(f"note: {captured}")
    prompt = (
        "You receive this profiler table, imported from a real run (below).\n\n"
        + "\n".join(f"- {f}" for f in facts)
        + "\n\nWrite a five-line report:\n\n```\nWorkload:\nHardware:\nTop CUDA time:\n"
        "Top CPU / orchestration cost:\nNext experiment:\n```\n"
    )
    lines = [
        f"# Imported by `grade import-trace` from {_q(source.name)}.",
        "# The table is per top-level op: CUDA total is the kernels and copies it launched.",
        f"id: {ex_id}",
        f"title: {_q(f'Imported trace: {clean(source.name)}')}",
        "prompt: |",
        textwrap.indent(prompt, "  ").rstrip(),
        "workload:",
        "  model: null",
        f"  prompt_tokens: {prompt_tokens if prompt_tokens else 'null'}",
        "  output_tokens: null",
        "  dtype: null",
        f"  batch: {batch if batch else 'null'}",
        f"  phase: {_q(phase) if phase else 'null'}",
        f"hardware: {_q(device)}",
        "table: |",
        textwrap.indent(format_table(table), "  "),
    ]
    if notes:
        lines.append(f"table_note: {_q('; '.join(notes))}")
    lines.append(f"source: {_q(str(source))}")
    return "\n".join(lines) + "\n"


def import_trace(trace: Trace, source: Path, out: Path | None) -> tuple[str, Exercise | None]:
    """The exercise's YAML text, validated by loading it back before anything is written:
    a trace that cannot make a valid exercise is refused with its name, and ``out`` is left
    as it was."""
    text = render_exercise(trace, exercise_id(out, source), source)
    with tempfile.TemporaryDirectory() as tmp:
        draft = Path(tmp) / "exercise.yaml"
        draft.write_text(text, encoding="utf-8")
        try:
            exercise = load_exercise(draft)
        except GraderError as exc:
            raise GraderError(
                f"the exercise made from this trace does not validate ({exc.message}); "
                "please report this trace",
                Location(str(source)),
            ) from None
    if out is None:
        return text, None
    write_text(out, text)
    return text, replace(exercise, path=out)
