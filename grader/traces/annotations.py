"""What serving frameworks' step annotations say: the phase, the batch and the tokens.

- SGLang: ``step[DECODE bs=32]``, ``step[EXTEND bs=1]``, ``step[MIXED ...]`` around a step;
  its attention backends' per-layer ``forward_extend`` / ``forward_decode`` Python spans
  state a phase but are not steps.
- vLLM: ``execute_{N}_context_{C}(sq..sk..)_generation_{G}(sq..sk..)`` (and the older
  ``execute_context_{C}({tokens}_{...})_generation_{G}(...)``) around a model step: C
  requests in prefill (context) and G in decode (generation), and their query tokens.
- The profiler's own ``ProfilerStep#N`` separates steps without stating a phase.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.traces.kernels import DECODE, MIXED, PREFILL

_NUM = r"(\d{1,12})"  # a count; longer digit runs are not counts and are not read
_SGLANG = re.compile(r"^step\[(?P<phase>DECODE|EXTEND|PREFILL|MIXED|IDLE)\b(?P<rest>[^\]]*)", re.I)
_SGLANG_BS = re.compile(r"\bbs\s*=\s*" + _NUM + r"\b", re.I)
_LAYER_PHASE = re.compile(r"forward_(decode|extend|prefill)\b", re.I)
_VLLM = re.compile(
    r"^execute_(?:\d+_)?context_" + _NUM + r"\((?:sq)?" + _NUM + r"?[^)]*\)"
    r"_generation_" + _NUM + r"\((?:sq)?" + _NUM + r"?",
)
_PROFILER_STEP = re.compile(r"^ProfilerStep#\d+$")
_BATCH = re.compile(r"\bbatch(?:_size)?\s*[=:]\s*" + _NUM + r"\b", re.I)


@dataclass(frozen=True)
class StepNote:
    """What one annotation states; ``step`` is False for per-layer spans."""

    phase: str | None
    step: bool = True
    batch: int | None = None
    prefill_tokens: int | None = None
    decode_tokens: int | None = None
    source: str = "annotation"


def read_annotation(name: str) -> StepNote | None:
    """
    >>> read_annotation("step[DECODE bs=32]")
    StepNote(phase='DECODE', step=True, batch=32, prefill_tokens=None, decode_tokens=None, \
source='sglang')
    >>> read_annotation("execute_context_1(888_788544)_generation_0(0)").phase
    'PREFILL'
    >>> read_annotation("SGLangAttn.forward_extend").step
    False
    """
    m = _SGLANG.match(name)
    if m:
        word = m.group("phase").upper()
        phase = {"DECODE": DECODE, "EXTEND": PREFILL, "PREFILL": PREFILL, "MIXED": MIXED}.get(word)
        bs = _SGLANG_BS.search(m.group("rest"))
        return StepNote(phase, batch=int(bs.group(1)) if bs else None, source="sglang")
    m = _VLLM.match(name)
    if m:
        ctx, ctx_tokens, gen, gen_tokens = (int(g) if g else 0 for g in m.groups())
        phase = MIXED if ctx and gen else PREFILL if ctx else DECODE if gen else None
        return StepNote(
            phase,
            batch=ctx + gen or None,
            prefill_tokens=ctx_tokens if ctx else None,
            decode_tokens=(gen_tokens or gen) if gen else None,
            source="vllm",
        )
    if _PROFILER_STEP.match(name):
        return StepNote(None, source="profiler")
    m = _LAYER_PHASE.search(name)
    if m:
        word = m.group(1).upper()
        return StepNote(DECODE if word == "DECODE" else PREFILL, step=False, source="layer span")
    return None


def batch_in(name: str) -> int | None:
    """A batch size a span's name states (``bs=8``, ``batch_size: 4``), if any."""
    note = read_annotation(name)
    if note is not None and note.batch:
        return note.batch
    m = _BATCH.search(name)
    return int(m.group(1)) if m else None
