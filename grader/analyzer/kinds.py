"""Which kind of work a profiler op is, from the patterns in ``data/op_kinds.yaml``."""

from __future__ import annotations

import re
from functools import cache

from grader.yamlload import package_data

KINDS = ("host", "orchestration", "movement", "math", "elementwise", "utility", "wrapper", "other")
_PREFIX = re.compile(r"^(aten|torch|prim|c10d|triton|cuda|nvtx)::", re.IGNORECASE)


@cache
def _rules() -> tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]:
    data = package_data("op_kinds.yaml")
    return tuple(
        (entry["kind"], tuple(re.compile(p, re.IGNORECASE) for p in entry["patterns"]))
        for entry in data["kinds"]
    )


def base_name(op: str) -> str:
    """The op name without its namespace and the '...' of a name PyTorch cut short."""
    name = op.strip()
    if name.endswith("..."):
        name = name[:-3]
    return _PREFIX.sub("", name)


@cache
def op_kind(op: str) -> str:
    """One of :data:`KINDS` for the op name ``op``.

    >>> op_kind("aten::copy_"), op_kind("Python decode loop"), op_kind("aten::slice")
    ('movement', 'orchestration', 'utility')
    >>> op_kind("tokenizer.encode"), op_kind("aten::_scaled_dot_product_flash_attention")
    ('host', 'math')
    """
    name = base_name(op)
    for kind, patterns in _rules():
        if any(p.search(name) for p in patterns):
            return kind
    return "other"
