"""What a GPU kernel is (its type), and what its name or grid says of the phase it ran in.

Type is decided first, by name (``data/kernel_patterns.yaml``), and the stage signals read
it: name rules apply to attention kernels, and the grid-size fallback to compute kernels
only (ATTENTION, QUANTIZATION, LINEAR, MOE).  Utility and memory kernels
(index_elementwise_kernel, CUDAFunctorOnSelf, arange) have tiny grids in every phase, so
letting the grid vote for them flips decode layers to prefill: that is the fix of the trace
analyzer this module follows, and ``grid_fallback_for_all=True`` restores the old rule only
so that tests can show what it breaks.

Eager attention (a matmul/bmm, a softmax, a matmul/bmm, as encoders and video models run
it without a fused kernel) is found as that pattern by :func:`mark_eager_attention`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

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
COMPUTE = ("ATTENTION", "LINEAR", "MOE", "QUANTIZATION")
UTILITY = ("OTHER", "MEMORY")
PREFILL, DECODE, MIXED, UNKNOWN = "PREFILL", "DECODE", "MIXED", "UNKNOWN"
EAGER_ATTENTION = "eager attention"
EAGER_BEFORE = 4  # kernels allowed between the scores matmul and the softmax (scale, mask)
EAGER_AFTER = 3  # and between the softmax and the matmul by V (dropout, cast)


def _compile(rules: list[dict[str, Any]]) -> list[tuple[str, bool, re.Pattern[str]]]:
    return [
        (r["type"], r.get("match") == "head", re.compile("|".join(r["patterns"]), re.I))
        for r in rules
    ]


def _skip_brackets(s: str, i: int) -> int:
    """The index just past the '>' that closes the '<' at ``s[i]``."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "<":
            depth += 1
        elif s[j] == ">":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(s)


@cache
def head(name: str) -> str:
    """A kernel's own name: its function and first template argument, without the return
    type, the later template arguments and the parameters.

    >>> head("void ns::quantize<(ns::Kind)2, flashinfer::T>(float*)")
    'ns::quantize<(ns::Kind)2'
    >>> head("std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int>(int)")
    'internal::gemvx::kernel<int'
    >>> head("void (anonymous namespace)::multimem_all_reduce_kernel<float, 16>(float*)")
    'multimem_all_reduce_kernel<float'
    """
    s = name.strip().replace("(anonymous namespace)::", "")
    if s.startswith("void "):
        s = s[5:]
    elif s.startswith("std::enable_if<"):
        s = s[_skip_brackets(s, s.index("<")) :].removeprefix("::type").strip()
    cut = min((i for i in (s.find("<"), s.find("(")) if i >= 0), default=-1)
    if cut < 0 or s[cut] == "(":
        return s if cut < 0 else s[:cut]
    depth = 0
    for j in range(cut, len(s)):
        if s[j] in "<(":
            depth += 1
        elif s[j] in ">)":
            depth -= 1
            if depth == 0:
                return s[: j + 1]
        elif s[j] == "," and depth == 1:
            return s[:j]
    return s


@cache
def _patterns() -> dict[str, Any]:
    data = package_data("kernel_patterns.yaml")
    helpers = data["fused_helpers"]
    return {
        "types": _compile(data["types"]),
        "helper": re.compile(helpers["pattern"], re.I),
        "helper_types": _compile(helpers["types"]),
        "helper_default": helpers["default"],
        "stages": {s: re.compile("|".join(p), re.I) for s, p in data["stages"].items()},
        "grid_below": int(data["grid_prefill_below"]),
        "grid_types": frozenset(data["grid_fallback_types"]),
    }


def kernel_function(name: str) -> str:
    """The bare function name of a kernel, for a table row.

    >>> kernel_function("void (anonymous namespace)::multimem_all_reduce_kernel<float, 16>(x)")
    'multimem_all_reduce_kernel'
    """
    own = head(name).split("<", 1)[0]
    return own.rsplit("::", 1)[-1].strip() or name


@cache
def kernel_type(name: str) -> str:
    """
    >>> kernel_type("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64")
    'LINEAR'
    >>> kernel_type("void paged_attention_ll4mi_QKV_mfma16_kernel<0>")
    'ATTENTION'
    >>> kernel_type("void at::native::index_elementwise_kernel<128, 4>")
    'OTHER'
    >>> kernel_type("triton_red_fused__to_copy_add_addmm_fmha_v3_fwd_mean_mul_pow_rsqrt_3")
    'NORM'
    """
    p = _patterns()
    if p["helper"].search(name):
        for kind, _, pattern in p["helper_types"]:
            if pattern.search(name):
                return str(kind)
        return str(p["helper_default"])
    own = head(name)
    for kind, on_head, pattern in p["types"]:
        if pattern.search(own if on_head else name):
            return str(kind)
    return "OTHER"


@cache
def stage_by_name(name: str) -> str:
    """The stage an attention kernel's name states (prefill names win), else UNKNOWN."""
    for stage, pattern in _patterns()["stages"].items():
        if pattern.search(name):
            return str(stage)
    return UNKNOWN


def stage_by_grid(kind: str, grid: Any, *, grid_fallback_for_all: bool = False) -> str:
    """PREFILL for a compute kernel (any kernel with the old rule) whose grid x is small."""
    p = _patterns()
    if not grid_fallback_for_all and kind not in p["grid_types"]:
        return UNKNOWN
    if isinstance(grid, list | tuple) and grid and isinstance(grid[0], int | float):
        return PREFILL if grid[0] < p["grid_below"] else UNKNOWN
    return UNKNOWN


class Typed(Protocol):
    type: str
    label: str


def _is_softmax(k: Typed) -> bool:
    return k.type == "ELEMENTWISE" and "softmax" in k.label.lower()


def mark_eager_attention(kernels: Sequence[Typed]) -> int:
    """Retype each (matmul, softmax, matmul) run as attention, when the run has no fused
    attention kernel; returns how many were found.  The softmax of a sampler or a MoE router
    is not between two matmuls, so it is left alone."""
    if any(k.type == "ATTENTION" for k in kernels):
        return 0
    found = 0
    for i, k in enumerate(kernels):
        if not _is_softmax(k):
            continue
        before = next(
            (
                j
                for j in range(i - 1, max(-1, i - 1 - EAGER_BEFORE), -1)
                if kernels[j].type == "LINEAR"
            ),
            None,
        )
        after = next(
            (
                j
                for j in range(i + 1, min(len(kernels), i + 1 + EAGER_AFTER))
                if kernels[j].type == "LINEAR"
            ),
            None,
        )
        if before is None or after is None:
            continue
        for j in (before, i, after):
            kernels[j].type = "ATTENTION"
            kernels[j].label = EAGER_ATTENTION
        found += 1
    return found
