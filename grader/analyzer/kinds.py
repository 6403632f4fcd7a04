"""Which kind of work a profiler op is, from the patterns in ``data/op_kinds.yaml``."""

from __future__ import annotations

import re
from functools import cache

from grader.yamlload import package_data

KINDS = (
    "wrapper",
    "communication",
    "host",
    "orchestration",
    "runtime",
    "movement",
    "math",
    "elementwise",
    "utility",
    "other",
)
_NAMESPACE = re.compile(r"^[A-Za-z_][\w.]*::")
Patterns = tuple[re.Pattern[str], ...]


def _compile(patterns: list[str]) -> Patterns:
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


@cache
def _rules() -> tuple[tuple[str, Patterns], ...]:
    data = package_data("op_kinds.yaml")
    return tuple((entry["kind"], _compile(entry["patterns"])) for entry in data["kinds"])


@cache
def chains() -> tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]:
    """(name, one pattern per level from the outer op to the inner) for each call chain."""
    data = package_data("op_kinds.yaml")
    return tuple((c["name"], _compile(c["levels"])) for c in data["chains"])


def base_name(op: str) -> str:
    """The op name without its namespace and the '...' of a name PyTorch cut short."""
    name = op.strip()
    if name.endswith("..."):
        name = name[:-3]
    return _NAMESPACE.sub("", name)


def is_namespaced(op: str) -> bool:
    """``aten::mm``, ``c10d::allreduce_``, ``vllm::rms_norm``: a dispatcher op, not a range."""
    return bool(_NAMESPACE.match(op.strip()))


@cache
def is_core_op(op: str) -> bool:
    """An op of PyTorch itself (``aten::``, ``prim::``, ``c10d::``, ``autograd::``...): with
    no device time it is still part of driving the device, never host work.  Ops of other
    libraries (``torchvision::decode_jpeg``) are judged by what they do."""
    found = _NAMESPACE.match(op.strip())
    if found is None:
        return False
    return found.group(0)[:-2] in package_data("op_kinds.yaml")["core_namespaces"]


@cache
def op_kind(op: str) -> str:
    """One of :data:`KINDS` for the op name ``op``.

    >>> op_kind("aten::copy_"), op_kind("Python decode loop"), op_kind("aten::slice")
    ('movement', 'orchestration', 'utility')
    >>> op_kind("tokenizer.encode"), op_kind("aten::_scaled_dot_product_flash_attention")
    ('host', 'math')
    >>> op_kind("nccl:all_reduce"), op_kind("cudaDeviceSynchronize")
    ('communication', 'runtime')
    """
    name = base_name(op)
    for kind, patterns in _rules():
        if any(p.search(name) for p in patterns):
            return kind
    return "other"


@cache
def chain_level(op: str) -> tuple[str, int] | None:
    """(chain name, level) of an op that belongs to a call chain, else None."""
    name = base_name(op)
    for chain, levels in chains():
        for level, pattern in enumerate(levels):
            if pattern.search(name):
                return chain, level
    return None
