"""Part C: the fake run's facts stated in the filled template."""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz import fuzz

from grader.analyzer.kinds import base_name
from grader.checks.common import DEVICE_WORD
from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.model import TextLine
from grader.report.numbers import with_digits

_PCT = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(?:%|per ?cent\b)", re.IGNORECASE
)  # "61%", "61,0 %", "61 per cent"
_PHASE = re.compile(r"\bdecod\w*|\bgenerat\w*|\btoken[- ]by[- ]token\b|\bautoregressive\b", re.I)


def _facts(ctx: Context) -> tuple[str, float, str | None]:
    table = ctx.exercise.table
    top = table.top_cuda()
    share = ctx.params.get("share_pct") or round(100 * top.cuda_us / table.cuda_total_us)
    size = re.search(r"\d+(?:\.\d+)?\s?[BM]\b", str(ctx.exercise.workload.get("model") or ""))
    return base_name(top.name), float(share), size.group().replace(" ", "") if size else None


# ("61% of the step's CPU time", "61% of the time on the CPU side"; not "61% of CUDA time")
_CPU_SHARE = re.compile(
    r"(?:%|per ?cent)\s*(?:of\s+)?(?:the\s+|all\s+)?(?:(?!cuda|gpu|device)[\w'\u2019]+\s+){0,3}?"
    r"(?:cpu|host)\b",
    re.IGNORECASE,
)


def _of_cpu_time(tl: TextLine) -> bool:
    """The share said of CPU time: "61% of CPU time", or in the CPU field with no word of
    the device."""
    if _CPU_SHARE.search(tl.text):
        return True
    return tl.where == "top_cpu" and not DEVICE_WORD.search(tl.text)


_SCALE = {"B": "billion", "M": "million"}


_WORDS = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen", "twenty"),
)
_TENS = {"30": "thirty", "40": "forty", "50": "fifty", "60": "sixty", "70": "seventy"}


def _size_pattern(size: str) -> str:
    """ "7B", "7 B", "7-B", and in words "7-billion-parameter", "seven-billion", "7 billion"."""
    digits, unit = size[:-1], size[-1].upper()
    spelled = _WORDS[int(digits)] if digits.isdigit() and int(digits) < len(_WORDS) else None
    number = re.escape(digits) + (f"|{spelled}" if spelled else "")
    number += f"|{_TENS[digits]}" if digits in _TENS else ""
    return rf"\b(?:{number})\s?-?{unit}\b|\b(?:{number})[\s-]?{_SCALE.get(unit, unit)}\b"


_PROMPT_WORDS = 8
_PROMPT_MATCH = 90


_MARKUP = re.compile(r"[`*_\"]")


@lru_cache(maxsize=64)
def _plain(text: str) -> str:
    """``text`` without markup, in lower case, its spaces collapsed (a prompt is read once)."""
    return " ".join(_MARKUP.sub("", text).lower().split())


def _from_prompt(text: str, prompt: str) -> bool:
    """Is ``text`` the exercise's own prompt, kept in the file ("Fill them for a fake run
    where aten::copy_ is 61% of CUDA time on a 7B decode.")?"""
    if len(text.split()) < _PROMPT_WORDS or not prompt:
        return False
    return fuzz.partial_ratio(_plain(text), _plain(prompt)) >= _PROMPT_MATCH


def _share_of(text: str, stem: str) -> float | None:
    """The share a line gives the op: the first percentage after its name, else the last
    before it ("aten::copy_, about 39 % (matmuls take the other 61 %)" gives 39)."""
    text = with_digits(text)  # "copy underscore at sixty one percent"
    at = text.lower().find(stem.lower())
    if at < 0:
        return None
    after = [m for m in _PCT.finditer(text) if m.start() > at]
    before = [m for m in _PCT.finditer(text) if m.start() < at]
    m = after[0] if after else (before[-1] if before else None)
    return float(m.group(1).replace(",", ".")) if m else None


@check("copy-share-stated")
def copy_share_stated(ctx: Context) -> Verdict:
    """The filled template states the run's facts: aten::copy_ at about 61% of CUDA time,
    on a 7B model decoding (in Workload).

    PASS (partC):
        Workload: 7B decoder-only model, decode phase, batch 1
        Top CUDA time: aten::copy_ at 61% of CUDA time

    FAIL (partC):
        Workload: 7B LLM, token-by-token decode
        Top CUDA time: aten::copy_, by far the largest item
    """
    op, share, size = _facts(ctx)
    stem = op.rstrip("_")
    stated = None
    for tl in ctx.report.text_lines:
        if _of_cpu_time(tl):
            continue  # "aten::copy_ - 61% of CPU time": the share of the wrong clock
        if _from_prompt(tl.text, ctx.exercise.prompt):
            continue  # the assignment kept in the file states the share; the learner did not
        said = _share_of(tl.text, stem)
        if said is not None and abs(said - share) <= 2:
            stated = tl
            break
    if stated is None:
        return Verdict.no(None, f"looked for {op} at about {share:.0f}% of CUDA time; not stated")
    workload = ctx.report.field("workload")
    text = workload.value if workload else ""
    size_ok = size is None or re.search(_size_pattern(size), text, re.I)
    if not size_ok or not _PHASE.search(text):
        want = f"a {size} model decoding" if size else "the decode phase"
        where = Evidence(workload.label_line, text) if workload else None
        return Verdict.no(where, f"Workload should name {want}")
    return Verdict.yes(stated)
