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
from functools import lru_cache
from typing import NamedTuple

from grader.report.fields import Field
from grader.report.keyword_lists import is_keyword_list, strip_asides
from grader.report.language import any_change, change_kinds, has, mentions, unnegated

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

_INLINE_ITEM = re.compile(
    r"(?:^|(?<=\s))(?:\(?[1-9]\)|[1-9]\.|\((?:[a-h]|i{1,3}|iv)\)|[a-h]\))\s+(?=\S)"
)
# Where one step may end and another begin, inside an item: "; ", "and also", ", and", " + "
# and " and " (the last three only when a new verb follows: "dtype + device" is one thing).
_HARD_STEP = re.compile(
    r"\s*;\s*|\s(?:and|&) also\s|,?\s(?:as well as|and additionally)\s"
    # a sentence that adds another: "... to find where aten::to gets called. Maybe also ..."
    r"|[.!]\s+(?:(?:and|maybe|perhaps|i.d|i would|i.ll|i will|we could|could)\s+)?also\s",
    re.IGNORECASE,
)
_SOFT_STEP = re.compile(r",\s(?:and\s)?(?:then\s)?|\s\+\s|\splus\s|\sand\s(?:then\s)?")
_SOFT_STEP_KEPT = re.compile(f"({_SOFT_STEP.pattern})")
# A step that only describes or predicts: "under the hood it fuses ...", "if latency barely
# moves, overhead is confirmed", "expect an fp32 cast per layer".
_NOT_A_STEP = re.compile(
    r"^\W*(?:under the hood|internally|it|this|that|which|if|expect\w*|so|because|since|"
    r"where|whether|while|as|to)\b",
    re.IGNORECASE,
)
# A method or means: "via torch.compile", "using CUDA graphs", "with reduce-overhead".
# It runs to the clause's end: in 'torch.compile with mode="reduce-overhead", CUDA graphs
# for the decode step, and raising the batch to 8' the graphs and the batch are changes too.
_LAST_MEANS = re.compile(r"\s(?:via|using|through|by means of)\s[^,;]*$", re.IGNORECASE)
_METHOD = re.compile(r"\s(?:via|using|through|with|by means of)\s[^,;]*", re.IGNORECASE)
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
_OR_MAYBE = re.compile(r"^\W*or (?:maybe|perhaps|possibly)\b", re.IGNORECASE)
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
            if not tools - changes_in(before) and not _opens_with_change(_OR_LEAD.sub("", offered)):
                continue
            return True
        if changes_in(offered) or _opens_with_change(_OR_LEAD.sub("", offered)):
            return True
        if not has("test_probe", offered) and not has("locate", offered):
            return True
    return False


_OR_LEAD = re.compile(r"^\W*(?:either|or|alternatively)\W+(?:just |simply |even )?", re.IGNORECASE)


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
_BRACKETS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def _opens_with_change(text: str) -> bool:
    """Does ``text`` open with a verb that changes the run ("drop", "move", "keep")?"""
    m = _OPENER.match(text)
    return m is not None and has("test_change", m.group(1)) and not has("test_probe", text)


def _acts(text: str) -> bool:
    """Does ``text`` open with something done: a change, a probe, or a tool applied?"""
    m = _OPENER.match(text)
    word = m.group(1) if m else ""
    # a tool named first ("CUDA graphs for the decode step") is applied
    head = " ".join(text[m.start(1) :].split()[:2]) if m else ""
    named_first = any(p.match(head) for p in change_kinds().values())
    return bool(has("test_change", word) or has("test_probe", word) or named_first)


def split_steps(item: str) -> list[list[str]]:
    """The steps of one item, each opening with what it does, grouped by the clearly
    separate parts they stand in ("; ", "and also").  What stands in brackets explains the
    step it is in ("keep the cache on the GPU in bf16 (drop the .to + cast)")."""
    groups: list[list[str]] = []
    # "(and maybe try FlashAttention-3 at the same time)" adds a step; other brackets explain
    item = _ADDED_IN_BRACKETS.sub(lambda m: f"; {m.group(1)}", item)
    for part in _HARD_STEP.split(_BRACKETS.sub(" ", item)):
        part = _drop_reason(part)  # "..., because FA3 is the newest and fastest"
        steps: list[str] = []
        pieces = _SOFT_STEP_KEPT.split(part)  # text, joint, text, joint, ...
        current = pieces[0]
        for joint, piece in zip(pieces[1::2], pieces[2::2], strict=True):
            # "... is kept in fp32 and converted/moved every step": a participle goes on
            # describing; it does not start a step
            if _acts(piece) and not _NOT_A_STEP.match(piece) and not _PARTICIPLE.match(piece):
                steps.append(current)
                current = piece
            else:  # the joint stays: "FlashAttention-3 and a fused QKV kernel"
                current = f"{current}{joint}{piece}"
        steps.append(current)
        groups.append([s for s in steps if s.strip() and not _NOT_A_STEP.match(s)])
    return groups


_ADDED_IN_BRACKETS = re.compile(
    r"\(\s*((?:(?:and|plus)\s+(?:maybe|perhaps|also|then|try)|also)\b[^()]*)\)", re.IGNORECASE
)
# A reason given for a step is not a step of its own.
_REASON_TAIL = re.compile(r",?\s(?:because|since|given that)\s.*$", re.IGNORECASE | re.DOTALL)
_PARTICIPLE = re.compile(r"^\W*\w+ed(?:/\w+ed)?\b", re.IGNORECASE)


# What an outcome would mean is no step: "... if it does, we were overhead-bound and
# batching amortizes it".
_READING_TAIL = re.compile(
    r"(?:[.;,]\s*|\s)if (?:it|they|that|this|so|yes|true)\b[^.;,]{0,30},\s*(?:then\s+)?"
    r"(?:we|it|that|this|the (?:run|gpu|model|copies))\s+(?:was|were|is|are|had|has|means?"
    r"|confirms?|shows?)\b.*$",
    re.IGNORECASE | re.DOTALL,
)


def _drop_reason(part: str) -> str:
    """``part`` without the reason given for its step, to its end; but a reason set between
    commas before another step keeps that step ("check the cache dtype and, because why not,
    switch attention to FlashAttention-2")."""
    part = _READING_TAIL.sub("", part)
    m = _REASON_TAIL.search(part)
    if m is None:
        return part
    reason = part[m.start() :].lstrip(", ")
    for comma in re.finditer(r",\s+", reason):
        after = reason[comma.end() :]
        if _acts(after):
            return f"{part[: m.start()]}, then {after}"
    return part[: m.start()]


def _changes(step: str) -> set[str]:
    """The distinct changes one step makes: each tool, and at most one fix.  A measurement
    ("and see whether the copies get fused away") makes none."""
    if has("measurement_step", step):
        return set()
    # "check whether the ids are created on the CPU and moved to the GPU": what follows
    # "whether" is the question the probe asks, not a change it makes
    main = strip_asides(_QUESTION.split(step, maxsplit=1)[0])
    # the method of a change is part of it; when the method holds the change itself ("capture
    # the step with CUDA graphs via torch.compile"), only the last means is its method
    kinds = (
        changes_in(_METHOD.sub("", main))
        or changes_in(_LAST_MEANS.sub("", main))
        or changes_in(main)
    )
    if {"attention_kernel", "fusion"} <= kinds and _fused_attention(main):
        kinds -= {"fusion"}  # "a FlashAttention-2 fused block": fusing is what the kernel does
    tools = set(kinds - FIX_KINDS)
    fix = set(kinds & FIX_KINDS)
    if not fix and not tools and _opens_with_change(main):
        fix = {"change"}  # "drop the .cpu() on the logits": a fix of a kind not listed
    return tools | ({min(fix)} if fix else set())


_JOINED = re.compile(r"\band\b|\bplus\b|[,;+]", re.IGNORECASE)


def _fused_attention(text: str) -> bool:
    """Is every fusion in ``text`` said of the attention kernel beside it ("a FlashAttention-2
    fused block", "a Triton attention kernel fused with the QKV matmul"), with no "and"
    between that would make it a change of its own ("FlashAttention-3 and a fused QKV kernel")?"""
    kinds = change_kinds()
    attention = [m.span() for m in kinds["attention_kernel"].finditer(text)]
    for f in kinds["fusion"].finditer(text):
        if not any(
            not _JOINED.search(text[min(e, f.end()) : max(s, f.start())]) for s, e in attention
        ):
            return False
    return True


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


def count(f: Field) -> Count:
    """How many experiments the field names, and why, in words a learner reads."""
    if is_keyword_list(f.value):
        return Count(0, "a list of terms, not an experiment")
    if not _has_method(f.value):
        return Count(0, "names no experiment: say what you would run, measure or change")
    if _ONLY_ASKS.search(f.value):
        return Count(0, "asks questions but names no experiment to run")
    if _offers_alternatives(_EXPECTED.sub("", f.value)):
        return Count(2, "alternatives ('either ... or', 'whichever')")
    if _ONE_BY_ONE.search(f.value):
        return Count(2, "several things looked at one by one: choose one")
    listed = items(f)
    if len(listed) >= 2:
        separate = [i for i in listed if not has("measurement_step", i)]
        if len(separate) >= 2:
            return Count(len(separate), f"a list of {len(separate)} separate items")
    groups = [group for item in listed for group in split_steps(_untitled(item))]
    changes = [
        kinds for group in groups for kinds in _merge_fixes([k for k in map(_changes, group) if k])
    ]
    n_changes = sum(len(k) for k in changes)
    if n_changes >= 2:
        names = sorted({KIND_NAMES.get(k, "another change") for c in changes for k in c})
        if len(names) < 2:
            return Count(n_changes, f"{n_changes} separate changes")
        return Count(n_changes, "several changes: " + ", ".join(names))
    steps = [s for g in groups for s in g]
    if n_changes == 1 and _probe_before_change(steps) and not _fix_tested(f.value, steps):
        return Count(2, "a probe and then a change: two experiments")
    return Count(1, "one experiment")


# A short title before a colon names the experiment the rest spells out: "pin the dtype:
# check whether activations enter in fp32 ...; make the whole path bf16 and re-profile".
_TITLE = re.compile(r"^\W*(?:[\w.-]+ ){0,3}[\w.-]+:\s+(?=(?:\S+\s+){2}\S)")


def _untitled(item: str) -> str:
    """The item without a title that names no tool ("torch.compile: and also ..." keeps it)."""
    m = _TITLE.match(item)
    return item[m.end() :] if m and not changes_in(m.group(0)) else item


# A change that tests what the probe looked for: "find the fp32 cast with with_stack=True;
# keep everything bf16 and re-profile" is one experiment (look, fix, measure), while "...
# and also allocate the cache in bf16" adds a second.
_MEASURED = re.compile(
    r"\b(?:and|then)\s+(?:re-?profile|re-?measure|measure|compare|re-?run|see (?:if|whether)|"
    r"check (?:if|whether)|confirm)\b",
    re.IGNORECASE,
)
_ADDED = re.compile(r"\band also\b|\bas well\b|\badditionally\b|\bplus\b", re.IGNORECASE)


def _fix_tested(value: str, steps: list[str]) -> bool:
    if len(steps) > 3 or _ADDED.search(value):
        return False
    last = steps[-1]
    return bool(_MEASURED.search(last)) or (len(steps) == 3 and has("measurement_step", last))


def _probe_before_change(steps: list[str]) -> bool:
    """A step that only looks (profiles, logs, checks) and a later step that changes the
    run: "profile with with_stack=True ..., and also allocate the KV cache in bf16".  A look
    after a change is its measurement ("cast the cache to bf16 and re-profile")."""
    seen_probe = False
    previous = ""
    probed: set[str] = set()  # what the probes look at ("the to() that moves the KV cache")
    for step in steps:
        if _changes(step):
            # "... then keep that tensor on the GPU": a fix of what the probe finds is
            # part of the probe's experiment
            # the fix's object, at the start of a sentence; not a reason after it ("... since
            # attention is the #2 op and we'll want it anyway"); "If yes, make ..." may end
            # the step before it
            heads = [" ".join(c.split()[:8]) for c in re.split(r"(?<=[.!?])\s+", step)]
            heads.append(" ".join(previous.split()[-3:]))
            # "... and keep the cache on GPU in bf16": the fix acts on what was looked at
            same = bool(probed & _objects(heads[0]))
            follows = (same or any(_FOLLOWS_UP.search(h) for h in heads)) and not _ADDED.search(
                step
            )
            return seen_probe and not follows
        if has("test_probe", step):
            seen_probe = True
            probed |= _objects(step)
        previous = step
    return False


_OBJECT = re.compile(
    r"\b(cache|mask|inputs?|ids|logits|weights|tensors?|buffers?|rope|activations?|"
    r"positions?|embeddings?)\b",
    re.IGNORECASE,
)


def _objects(text: str) -> set[str]:
    """The tensors a step speaks of, singular: {"cache", "mask"}."""
    return {m.group(1).lower().rstrip("s") for m in _OBJECT.finditer(text)}


_FOLLOWS_UP = re.compile(
    r"\b(?:that|those|the|this) (?:[\w↔→/-]+ ){0,3}?(?:tensor|tensors|one|ones|culprit|"
    r"offender|call|calls|line|lines|source|op|ops|buffer|code|cast|casts|copy|copies|"
    r"transfer|transfers|conversion|round-?trips?)\b|\b(?:it|them|whatever|wherever|anything|"
    r"everything|instead)\b|\boffending\b|"
    r"\bfound\b|\bif (?:yes|so|it is|they are|that.s|true|confirmed|it does|they do)\b",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"\b(?:to )?(?:check|see|find out|verify|determine|confirm|test|tell)\w* (?:\w+ ){0,2}?"
    r"(?:whether|if)\b",
    re.IGNORECASE,
)


# Fixes of one kind of movement, said in two steps, are one fix: "pin host memory and use
# non_blocking copies".
_FIX_FAMILY = {"pinned_memory": "transfer", "device_fix": "transfer", "sampling_fix": "transfer"}


def _merge_fixes(changes: list[set[str]]) -> list[set[str]]:
    out: list[set[str]] = []
    for kinds in changes:
        previous = out[-1] if out else set()
        families = {_FIX_FAMILY.get(k, k) for k in kinds | previous if k in FIX_KINDS}
        fixes_only = kinds <= FIX_KINDS | {"change"} and previous <= FIX_KINDS | {"change"}
        if previous and fixes_only and (len(families) <= 1 or "change" in kinds | previous):
            out[-1] = previous | kinds if "change" not in kinds else previous
            continue
        out.append(kinds)
    return [k - {"change"} or k for k in out]
