"""The steps of one Next experiment item and the changes each makes (counting.py counts them).

An item is cut into steps at "; ", "and also", ", and" before a new verb; a step's method
("via torch.compile"), purpose and reason are part of it; a probe followed by a fix of what
it finds is one experiment, a probe followed by an unrelated change two.
"""

from __future__ import annotations

import re

from grader.checks.changes import FIX_KINDS, acts, changes_in, opens_with_change
from grader.report.keyword_lists import LIST_COLON, strip_asides
from grader.report.language import change_kinds, has

# Where one step may end and another begin, inside an item: "; ", "and also", ", and", " + "
# and " and " (the last three only when a new verb follows: "dtype + device" is one thing).
_HARD_STEP = re.compile(
    # ("also" stays with the step it adds: step_changes reads it, see probe_before_change)
    r"\s*;\s*|\s(?:and|&) (?=also\s)|\s(?:and|&) (?:separately|independently|on the side)\s"
    r"|,?\s(?:as well as|and additionally)\s"
    # a sentence that adds another: "... to find where aten::to gets called. Maybe also ..."
    r"|[.!]\s+(?:(?:and|maybe|perhaps|i.d|i would|i.ll|i will|we could|could)\s+)?(?=also\s)",
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
# ... and the units a change runs on: "FP8 weights for the matmuls on the L4's FP8 tensor
# cores" is one change, made on tensor cores.
_METHOD = re.compile(
    r"\s(?:via|using|through|with|by means of)\s[^,;]*"
    r"|\s(?:on|onto)\s(?:the\s)?(?:[\w'\u2019]+\s){0,3}tensor[- ]?cores?\b",
    re.IGNORECASE,
)
_BRACKETS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def split_steps(item: str) -> list[list[str]]:
    """The steps of one item, each opening with what it does, grouped by the clearly
    separate parts they stand in ("; ", "and also").  What stands in brackets explains the
    step it is in ("keep the cache on the GPU in bf16 (drop the .to + cast)")."""
    groups: list[list[str]] = []
    # "(and maybe try FlashAttention-3 at the same time)" adds a step; other brackets explain
    item = _ADDED_IN_BRACKETS.sub(lambda m: f"; {m.group(1)}", item)
    item = _SAID_AGAIN.sub(" ", item)  # ", or equivalently compile it with reduce-overhead,"
    for part in _HARD_STEP.split(_BRACKETS.sub(" ", item)):
        part = _drop_reason(part)  # "..., because FA3 is the newest and fastest"
        steps: list[str] = []
        pieces = _SOFT_STEP_KEPT.split(part)  # text, joint, text, joint, ...
        current = pieces[0]
        for joint, piece in zip(pieces[1::2], pieces[2::2], strict=True):
            # "... is kept in fp32 and converted/moved every step": a participle goes on
            # describing; it does not start a step
            if acts(piece) and not _NOT_A_STEP.match(piece) and not _PARTICIPLE.match(piece):
                steps.append(current)
                current = piece
            else:  # the joint stays: "FlashAttention-3 and a fused QKV kernel"
                current = f"{current}{joint}{piece}"
        steps.append(current)
        groups.append([s for s in steps if s.strip() and not _NOT_A_STEP.match(s)])
    return groups


# The same change said another way, set off by commas: no step of its own.
_SAID_AGAIN = re.compile(
    r",?\s+or,?\s+(?:equivalently|in other words|put (?:differently|another way))\b[^,;()]*,?",
    re.IGNORECASE,
)
_ADDED_IN_BRACKETS = re.compile(
    # "(If there's time, also try FlashAttention-3 ...)": what time allows is added too
    r"\(\s*(?:(?:if (?:there.s|there is|i have|we have) time|time permitting|optionally)"
    r"\s*,?\s*)?((?:(?:and|plus)\s+(?:maybe|perhaps|also|then|try)|also)\b[^()]*)\)",
    re.IGNORECASE,
)
# A reason given for a step is not a step of its own.
_REASON_TAIL = re.compile(r",?\s(?:because|since|given that)\s.*$", re.IGNORECASE | re.DOTALL)
# (and the irregular ones: "kept in fp32 and cast to bf16 on every step", "built on the CPU
# and sent over"; "cast" with no object after it is the participle, "cast it to bf16" is not)
_PARTICIPLE = re.compile(
    r"^\W*(?:\w+ed(?:/\w+ed)?\b|(?:kept|built|made|sent|held|left)\b"
    r"|(?:cast|put|set)\s+(?:to|into|onto|on|back|as|every|each|per|again)\b)",
    re.IGNORECASE,
)


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
    listed = LIST_COLON.search(reason)  # "... since I can't tell which: A, and B"
    if listed:
        return f"{part[: m.start()]}: {reason[listed.end() :]}"
    for comma in re.finditer(r",\s+", reason):
        after = reason[comma.end() :]
        if acts(after):
            return f"{part[: m.start()]}, then {after}"
    return part[: m.start()]


def step_changes(step: str) -> set[str]:
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
    if not fix and not tools and opens_with_change(main):
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


# A change that tests what the probe looked for: "find the fp32 cast with with_stack=True;
# keep everything bf16 and re-profile" is one experiment (look, fix, measure), while "...
# and also allocate the cache in bf16" adds a second.
_MEASURED = re.compile(
    r"\b(?:and|then)\s+(?:re-?profile|re-?measure|measure|compare|re-?run|see (?:if|whether)|"
    r"check (?:if|whether)|confirm)\b",
    re.IGNORECASE,
)
_ADDED = re.compile(r"\balso\b|\bas well\b|\badditionally\b|\bplus\b", re.IGNORECASE)


def fix_tested(value: str, steps: list[str]) -> bool:
    if len(steps) > 3 or _ADDED.search(value):
        return False
    last = steps[-1]
    return bool(_MEASURED.search(last)) or (len(steps) == 3 and has("measurement_step", last))


def probe_before_change(steps: list[str]) -> bool:
    """A step that only looks (profiles, logs, checks) and a later step that changes the
    run: "profile with with_stack=True ..., and also allocate the KV cache in bf16".  A look
    after a change is its measurement ("cast the cache to bf16 and re-profile")."""
    seen_probe = False
    previous = ""
    probed: set[str] = set()  # what the probes look at ("the to() that moves the KV cache")
    for step in steps:
        if step_changes(step):
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
    r"everything|instead|whichever)\b|\boffending\b|"
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


def merge_fixes(changes: list[set[str]]) -> list[set[str]]:
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
