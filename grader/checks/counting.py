"""How many experiments a Next experiment field names.

criteria.md, one-next-experiment: "One experiment may have a method and a measurement ...;
several distinct changes or alternatives fail, including a list of several."  So the field
is cut into steps (list items, "(a) ... (b) ...", "; ", " + ", "and also", ", and" before
a new verb), and each step is read as one of three things:

- a change to the run: a tool applied (torch.compile, CUDA graphs, batching, fusion,
  quantization, a new kernel) or a fix made (cast the cache to bf16, build the inputs on
  the GPU, pin memory).  Every change is an experiment of its own; within one step each
  distinct tool counts ("try torch.compile, CUDA graphs and a larger batch" is three), while
  the facets of one fix do not ("allocate the cache in bf16 on the GPU" is one);
- a probe: profiling, stacks, ranges, logging, hooks, a breakpoint.  Probes are one
  experiment together ("profile with with_stack=True and find who calls aten::to");
- a measurement of what came before ("and re-profile", "then compare the latency").

A change's method is part of it ("fuse add+relu via torch.compile", "by compiling the step",
"with reduce-overhead, which captures CUDA graphs"), and so is its purpose ("to see ...").
Alternatives ("either ... or ...", "or maybe", "(or just try ...)", "whichever is quicker")
are several; another way to look ("(or use with_stack=True)") or another setting of the
same change ("int8 (or fp8)") is not.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from grader.checks.alternatives import offers_alternatives
from grader.checks.changes import KIND_NAMES, changes_in
from grader.checks.steps import (
    fix_tested,
    merge_fixes,
    probe_before_change,
    split_steps,
    step_changes,
)
from grader.report.fields import Field
from grader.report.keyword_lists import is_keyword_list
from grader.report.language import has, mentions

_INLINE_ITEM = re.compile(
    r"(?:^|(?<=\s))(?:\(?[1-9]\)|[1-9]\.|\((?:[a-h]|i{1,3}|iv)\)|[a-h]\))\s+(?=\S)"
)


# "Who calls to()? Or is it the tokenizer? Not sure what to run next."
_ONLY_ASKS = re.compile(
    r"\bnot sure (?:what|which|how) to (?:run|do|try|test)\b|\bnot sure which(?: first| one)?\W*$",
    re.I,
)
# "Look at copy_, to, attention, tokenizer and slice one by one": a round of experiments.
# (not "so the CPU doesn't launch each small kernel one by one")
_ONE_BY_ONE = re.compile(
    r"\b(?:look|check|profil|examin|inspect|go|test|tr[yi]|investigat)\w*\b[^.;]{0,80}?"
    r"\b(?:one (?:by|after) (?:one|another)|each in turn)\b",
    re.I,
)


# A menu of tools joined by slashes ("compile / graphs / batch", "with_stack / record_function
# / torch.compile"): three or more items, each naming a method, are alternatives laid side by
# side, a list of several.  (Slashes between regions, "around embed / layers / lm_head", or
# facets, "dtype/device/shape", name no method and are the object of one.)
_SLASH = re.compile(r"\s*/\s*")
_WORD = r"[^\s/,;:()+\u2192]+"
_PIECE = rf"{_WORD}(?:[ \t]+{_WORD}){{0,3}}"  # up to four words
_SLASHED_RUN = re.compile(rf"{_PIECE}(?:\s*/\s*{_PIECE}){{2,}}")
_WITH = re.compile(r"\bw/\s*", re.IGNORECASE)  # "w/" is "with", not a slash
_BARE_TOOL = re.compile(r"^\W*(?:graphs?|cudagraphs?|batch\w*|fus\w*)\b", re.IGNORECASE)


def _menu(value: str) -> int:
    """How many methods a slash-joined menu in ``value`` offers (0 when there is none)."""
    best = 0
    for m in _SLASHED_RUN.finditer(_WITH.sub("with ", value)):
        pieces = [p for p in _SLASH.split(m.group(0)) if p.strip()]
        tools = sum(
            1
            for p in pieces
            if _BARE_TOOL.match(p) or changes_in(p) or has("locate", p) or has("fix_compute", p)
        )
        best = max(best, tools)
    return best if best >= 3 else 0


class Count(NamedTuple):
    n: int
    why: str


def items(f: Field) -> list[str]:
    """The field's list items (a markdown list, or "1) ... 2) ..." / "(a) ... (b) ..." on
    one line), or its one value when it is not a list."""
    listed = [ln.text for ln in f.value_lines if ln.kind == "item" and ln.first]
    if len(listed) >= 2:
        return listed
    marks = list(_INLINE_ITEM.finditer(f.value))
    if len(marks) >= 2:
        ends = [m.start() for m in marks[1:]] + [len(f.value)]
        return [f.value[m.end() : e].strip(" ;,") for m, e in zip(marks, ends, strict=True)]
    return [f.value]


_METHOD_KINDS = (
    "experiment_action",
    "locate",
    "remove_movement",
    "fix_overhead",
    "fix_compute",
    "fix_host",
    "fix_communication",
)


def _has_method(value: str) -> bool:
    """Does the field say anything to run, measure, look up or change?"""
    # "dtype or device movement, not FlashAttention": a tool refused is no method
    return bool(changes_in(value)) or any(mentions(kind, value) for kind in _METHOD_KINDS)


_FINDS = re.compile(
    r"\b(?:find|finds|who calls|callers?|which (?:line|code|op|call|layer)|with_stack|stack "
    r"traces?|where (?:it|they|the \w+) comes? from)\b",
    re.IGNORECASE,
)


_ALSO = re.compile(r"^\W*also\b", re.IGNORECASE)


def _looks_after_change(steps: list[str]) -> bool:
    """A change, then "also" a look that searches for something of its own ("cast everything
    to bf16 at load and also rerun with with_stack=True to find who calls to()"): not the
    change's measurement but a second experiment."""
    changed = False
    for step in steps:
        if step_changes(step):
            changed = True
        elif changed and _ALSO.match(step) and _FINDS.search(step):
            return True
    return False


def count(f: Field) -> Count:
    """How many experiments the field names, and why, in words a learner reads."""
    if is_keyword_list(f.value):
        return Count(0, "a list of terms, not an experiment")
    if not _has_method(f.value):
        return Count(0, "names no experiment: say what you would run, measure or change")
    if _ONLY_ASKS.search(f.value):
        return Count(0, "asks questions but names no experiment to run")
    if n := _menu(f.value):
        return Count(n, f"a menu of {n} methods joined by slashes")
    if offers_alternatives(f.value):
        return Count(2, "alternatives ('either ... or', 'whichever')")
    if _ONE_BY_ONE.search(f.value):
        return Count(2, "several things looked at one by one: choose one")
    listed = items(f)
    if len(listed) >= 2:
        # an item that only measures ("(b) re-profile and compare") is the item before's
        # measurement; one that changes the run, or looks for something of its own ("(a)
        # re-profile with with_stack=True to find the callers of to()"), is an experiment
        # (an item that names nothing to run, "copies first, attention later", is a remark)
        separate = [
            i
            for i in listed
            if _has_method(i)
            and (not has("measurement_step", i) or changes_in(i) or _FINDS.search(i))
        ]
        if len(separate) >= 2:
            return Count(len(separate), f"a list of {len(separate)} separate items")
    groups = [group for item in listed for group in split_steps(_untitled(item))]
    changes = [
        kinds
        for group in groups
        for kinds in merge_fixes([k for k in map(step_changes, group) if k])
    ]
    n_changes = sum(len(k) for k in changes)
    if n_changes >= 2:
        names = sorted({KIND_NAMES.get(k, "another change") for c in changes for k in c})
        if len(names) < 2:
            return Count(n_changes, f"{n_changes} separate changes")
        return Count(n_changes, "several changes: " + ", ".join(names))
    steps = [s for g in groups for s in g]
    if n_changes == 1 and probe_before_change(steps) and not fix_tested(f.value, steps):
        return Count(2, "a probe and then a change: two experiments")
    if n_changes == 1 and _looks_after_change(steps):
        return Count(2, "a change and also a look for something else: two experiments")
    return Count(1, "one experiment")


# A short title before a colon names the experiment the rest spells out: "pin the dtype:
# check whether activations enter in fp32 ...; make the whole path bf16 and re-profile".
_TITLE = re.compile(r"^\W*(?:[\w.-]+ ){0,3}[\w.-]+:\s+(?=(?:\S+\s+){2}\S)")


def _untitled(item: str) -> str:
    """The item without a title that names no tool ("torch.compile: and also ..." keeps it)."""
    m = _TITLE.match(item)
    return item[m.end() :] if m and not changes_in(m.group(0)) else item
