"""What a GPU kernel is (its type) and which phase it ran in (its stage).

Type is decided first, by name (``data/kernel_patterns.yaml``).  Stage then comes, in this
order, from a phase annotation, from name rules, and last from the grid-size fallback, which
applies to compute kernels only (ATTENTION, QUANTIZATION, LINEAR, MOE).  Utility and memory
kernels (index_elementwise_kernel, CUDAFunctorOnSelf, arange) have tiny grids in every
phase, so letting the grid vote for them flips decode layers to prefill: that is the fix of
the trace analyzer this module follows, and ``grid_fallback_for_all=True`` restores the old
rule only so that tests can show what it breaks.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from grader.yamlload import package_data

TYPES = (
    "ATTENTION",
    "LINEAR",
    "MOE",
    "QUANTIZATION",
    "COMMUNICATION",
    "MEMORY",
    "NORM",
    "ELEMENTWISE",
    "OTHER",
)
PREFILL, DECODE, UNKNOWN = "PREFILL", "DECODE", "UNKNOWN"


@cache
def _patterns() -> dict[str, Any]:
    data = package_data("kernel_patterns.yaml")
    return {
        "types": [(t["type"], re.compile("|".join(t["patterns"]), re.I)) for t in data["types"]],
        "stages": {s: re.compile("|".join(p), re.I) for s, p in data["stages"].items()},
        "grid_below": int(data["grid_prefill_below"]),
        "grid_types": frozenset(data["grid_fallback_types"]),
    }


@cache
def kernel_type(name: str) -> str:
    """
    >>> kernel_type("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64")
    'LINEAR'
    >>> kernel_type("void paged_attention_ll4mi_QKV_mfma16_kernel<0>")
    'ATTENTION'
    >>> kernel_type("void at::native::index_elementwise_kernel<128, 4>")
    'OTHER'
    """
    for kind, pattern in _patterns()["types"]:
        if pattern.search(name):
            return kind
    return "OTHER"


def stage_by_name(name: str) -> str:
    for stage, pattern in _patterns()["stages"].items():
        if pattern.search(name):
            return stage
    return UNKNOWN


def stage_by_grid(kind: str, grid: Any, *, grid_fallback_for_all: bool = False) -> str:
    p = _patterns()
    if not grid_fallback_for_all and kind not in p["grid_types"]:
        return UNKNOWN
    if isinstance(grid, list | tuple) and grid and isinstance(grid[0], int | float):
        return PREFILL if grid[0] < p["grid_below"] else UNKNOWN
    return UNKNOWN


def classify_stage(
    name: str,
    kind: str,
    grid: Any,
    annotation: str | None = None,
    *,
    grid_fallback_for_all: bool = False,
) -> tuple[str, str]:
    """(stage, source): from the annotation, else the name, else the grid (compute only)."""
    if annotation in (PREFILL, DECODE):
        return annotation, "annotation"
    by_name = stage_by_name(name)
    if by_name != UNKNOWN:
        return by_name, "name"
    by_grid = stage_by_grid(kind, grid, grid_fallback_for_all=grid_fallback_for_all)
    return by_grid, "grid" if by_grid != UNKNOWN else "none"


_PHASE = re.compile(
    r"step\[(?P<step>DECODE|EXTEND|PREFILL|MIXED)|forward_(?P<fwd>decode|extend|prefill)",
    re.IGNORECASE,
)


def phase_of_annotation(name: str) -> str | None:
    """The phase a span's name states: step[DECODE ...], forward_extend, ..."""
    m = _PHASE.search(name)
    if not m:
        return None
    word = (m.group("step") or m.group("fwd") or "").upper()
    return DECODE if word == "DECODE" else PREFILL if word in ("EXTEND", "PREFILL") else None
