"""The changes an experiment makes to the run, by kind (counting.py and steps.py read them).

A change is a tool applied (torch.compile, CUDA graphs, batching, fusion, quantization, a
new kernel) or a fix made (cast the cache to bf16, build the inputs on the GPU, pin memory);
the fixes are facets of one change, the tools each a change of its own.
"""

from __future__ import annotations

import re
from functools import lru_cache

from grader.report.keyword_lists import strip_asides
from grader.report.language import any_change, change_kinds, has, unnegated

# Kinds of change that are facets of one fix rather than separate tools.
FIX_KINDS = frozenset({"dtype_fix", "device_fix", "sampling_fix", "pinned_memory"})
KIND_NAMES = {
    "compile": "torch.compile",
    "graphs": "CUDA graphs",
    "batching": "batching",
    "fusion": "kernel fusion",
    "quantization": "quantization",
    "attention_kernel": "an attention kernel",
    "matmul_kernel": "a matmul kernel",
    "dtype_fix": "a dtype fix",
    "device_fix": "a device fix",
    "sampling_fix": "sampling on the GPU",
    "pinned_memory": "pinned memory",
    "tokenizer_fix": "a faster tokenizer",
    "hardware": "other hardware",
}


@lru_cache(maxsize=4096)  # the same field is counted by several checks
def changes_in(text: str) -> frozenset[str]:
    """Kinds of change named in ``text`` outside asides and purpose clauses, not negated."""
    main = strip_asides(text)
    if not any_change().search(main):
        return frozenset()
    return frozenset(
        kind
        for kind, pattern in change_kinds().items()
        if next(unnegated(pattern, main), None) is not None
    )


_OPENER = re.compile(
    r"^\W*(?:(?:also|then|maybe|perhaps|finally|meanwhile|simultaneously|at the same time|"
    r"in parallel)\W+)*(\S+)",
    re.IGNORECASE,
)


def opens_with_change(text: str) -> bool:
    """Does ``text`` open with a verb that changes the run ("drop", "move", "keep")?"""
    m = _OPENER.match(text)
    return m is not None and has("test_change", m.group(1)) and not has("test_probe", text)


def acts(text: str) -> bool:
    """Does ``text`` open with something done: a change, a probe, or a tool applied?"""
    m = _OPENER.match(text)
    word = m.group(1) if m else ""
    # a tool named first ("CUDA graphs for the decode step") is applied
    head = " ".join(text[m.start(1) :].split()[:2]) if m else ""
    named_first = any(p.match(head) for p in change_kinds().values())
    return bool(has("test_change", word) or has("test_probe", word) or named_first)
