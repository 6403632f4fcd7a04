"""Alternatives offered in a Next experiment ("either ... or", "(or just try ...)"): several
experiments, unless each is another way to look or another setting of the same change."""

from __future__ import annotations

import re

from grader.checks.changes import FIX_KINDS, changes_in, opens_with_change
from grader.report.language import change_kinds, has

_ALTERNATIVES = re.compile(
    r"\beither\b.+\bor\b|\bor (?:just |simply |even )?(?:try|use|maybe|perhaps|alternatively|write|"
    r"build|implement|port|swap|switch)\b"
    r"|\balternatively\b|\(or\b|,\s+or\s"
    r"|\bwhichever (?:is|one|of|comes|works|you)\b|\bor else\b"
    r"|[\u2014\u2013,;]\s*or,? if\b",  # "CUDA graphs — or if capture is painful, torch.compile"
    re.IGNORECASE,
)


# What the run is expected to show is not an alternative to it: "I expect either an fp32
# cache being cast or a cache living on the CPU".
_EXPECTED = re.compile(
    r"\b(?:expect\w*|suspect\w*|predict\w*|bet|guess|(?:should|will|would) (?:show|tell|reveal)"
    r"|to see|whether|which of)\b[^.;]*",
    re.IGNORECASE,
)


_OR_MAYBE = re.compile(r"^\W*or (?:maybe|perhaps|possibly)\b", re.IGNORECASE)
# The same change said another way is no alternative: "capture it in a CUDA graph (or,
# equivalently, torch.compile with reduce-overhead)".
_EQUIVALENT = re.compile(
    r"^\W*or\W+(?:equivalently|in other words|put (?:differently|another way)|what amounts to "
    r"the same(?: thing)?|the same thing)\b",
    re.IGNORECASE,
)
# Another way to make the same thing, named by a pronoun: one change, two means.
_SAME_THING = re.compile(
    r"\b(?:generate|write|build|make|produce|emit|do|handle)s? (?:it|that|this|them)(?: for me)?"
    r"\W*$",
    re.IGNORECASE,
)


# Two attention kernels side by side are alternatives, not one change: "swap SDPA for
# FlashAttention-3 / xformers", "FlashAttention-3 (or an xformers kernel)".  (Other slashes
# join settings of one change: "TF32 / bf16 tensor cores", "torch.cuda.graphs / CUDAGraph".)
_SPACED_SLASH = re.compile(r"\s/\s")


def _kernels_side_by_side(value: str) -> bool:
    pieces = [_attention_names(p) for p in _SPACED_SLASH.split(value)]
    named = [p for p in pieces if p]
    return len(named) >= 2 and len(frozenset().union(*named)) >= 2


def _attention_names(text: str) -> frozenset[str]:
    """The attention kernels ``text`` names, spelled plainly ("flashattention3", "xformers")."""
    found = change_kinds()["attention_kernel"].finditer(text)
    return frozenset(re.sub(r"[^a-z0-9]", "", m.group(0).lower()) for m in found)


def _offers_alternatives(value: str) -> bool:
    """Alternatives offered, unless each is a way to look, not a change: "set a breakpoint
    on Tensor.to (or use with_stack=True)" is one probe, as probes together are one
    experiment; "write a Triton kernel (or just try FlashAttention-3)" is two."""
    if _kernels_side_by_side(value):
        return True
    for m in _ALTERNATIVES.finditer(value):
        close = value.find(")", m.end())
        if value.rfind("(", 0, m.start() + 1) > value.rfind(")", 0, m.start()) and close > 0:
            offered = value[m.start() : close].lstrip("(")  # "(or use with_stack=True)"
        else:
            offered = value[m.start() :]
        if m.group(0)[0] in "(,":
            # "(or ...)", ", or ...": another change offered, not what a probe looks for
            # ("find which line casts to bf16 (or moves them to the GPU)") nor another
            # setting of the same change ("quantize to int8 (or fp8)")
            before = value[: m.start()]
            if _EQUIVALENT.match(offered):
                continue  # "(or, equivalently, torch.compile with reduce-overhead)"
            if _OR_MAYBE.match(offered) and not has("test_probe", offered):
                return True  # "check the copies, or maybe attention, not sure which"
            if _SAME_THING.search(offered):
                continue  # "fuse add+relu into one kernel (or let torch.compile generate it)"
            kernels = _attention_names(before)
            if kernels and _attention_names(offered) - kernels:
                return True  # "FlashAttention-3 (or an xformers kernel)": another kernel
            tools = changes_in(offered) - FIX_KINDS
            if has("test_probe", before) and not tools:
                continue
            if not tools - changes_in(before) and not opens_with_change(_OR_LEAD.sub("", offered)):
                continue
            return True
        if changes_in(offered) or opens_with_change(_OR_LEAD.sub("", offered)):
            return True
        if not has("test_probe", offered) and not has("locate", offered):
            return True
    return False


_OR_LEAD = re.compile(r"^\W*(?:either|or|alternatively)\W+(?:just |simply |even )?", re.IGNORECASE)


def offers_alternatives(value: str) -> bool:
    """Alternatives offered in ``value``, what the run is expected to show set aside ("I
    expect either an fp32 cache or a cache on the CPU" offers none)."""
    return _offers_alternatives(_EXPECTED.sub("", value))
