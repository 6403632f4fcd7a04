"""Lines of bare terms: keyword lists, which name the course's concepts and say nothing.

criteria.md: a diagnosis "commits to nothing" when it is "a list of keywords".  A line of
terms separated by commas ("copy, cast, dtype, bf16, fp32, tokenizer, CPU, TTFT"), or a run
of terms with no word that builds a sentence ("copy_ 61% 7B decode bf16 fp32 dtype device
movement"), is such a list wherever it stands: it never counts as a diagnosis, an
explanation or a proposal.  ``strip_asides`` gives a sentence's main change without its
purpose or reason clauses.
"""

from __future__ import annotations

import re
from functools import lru_cache

from grader.report.language import change_kinds, concept, has

_LIST_SEPARATOR = re.compile(r"[,;]")
_DIGIT = re.compile(r"\d")
_PARENTHESES = re.compile(r"\([^()]*\)")
# Where the main change of a sentence ends and its purpose, reason or method begins: "so
# that ...", "to see ...", "and see whether ...", "by compiling ...", "that fuses ...".
_ASIDE = re.compile(
    r"\s(?:so|so that|because|since|which|in order to|to (?:see|find|check|confirm|make|"
    r"measure|know|learn|identify|locate|tell|get|verify|attribute|compare|read|record|fuse|reduce|"
    r"remove|avoid|cut|eliminate|lower|speed|save|hide|amortize|amortise|shrink|improve|"
    r"increase|boost|raise|reach|hit))\b"
    r"|\s(?:and|then) (?:see|check|watch) (?:if|whether)\b|\sby \w+ing\b|\s(?:that|which) \w+s\b"
    r"|,\s*which\b|\s[\u2014\u2013]\s|\s-\s"
)


_JUDGING_ITEM = re.compile(
    r"\b(?:likely|probably|possibly|clearly|definitely|maybe|surely|almost certainly) "
    r"(?:avoidable|unnecessary|unexplained|suspicious|wasteful|redundant|a bug|bogus)\b"
    r"|\b(?:investigate|explain|check|chase|fix|look at|find out)\w* (?:it |them |this )?first\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def is_keyword_list(text: str) -> bool:
    """A line of bare terms ("copy, cast, dtype, bf16, fp32, tokenizer, CPU, TTFT, ...").

    Such lines name concepts without saying anything about them, so they never count as a
    diagnosis, an explanation or a proposal: keyword stuffing earns nothing.
    """
    lead = concept("glossary_lead").search(text)
    if lead is not None and not _GRAMMAR.search(text[lead.end() :]):
        return True  # "Key terms: copy, cast, dtype, ..." ("Notes. The device time ..." is prose)
    items = [i.strip() for i in _LIST_SEPARATOR.split(text) if i.strip()]
    if len(items) == 4 and all(len(i.split()) <= 3 for i in items) and not _DIGIT.search(text):
        # four bare terms with no word that builds a sentence and no figure read off the
        # table ("dtype device movement, not FlashAttention, discipline, boring evidence
        # first"); "7B, decode, bf16, batch 1" is a terse value
        # ("not FlashAttention" refuses a term, as a list does; it builds no sentence)
        plain = " ".join(w for w in text.split() if w.isalpha() and w.lower() not in ("not", "no"))
        if not _GRAMMAR.search(plain) and not _SENTENCE_WORD.search(plain):
            return not any(_JUDGING_ITEM.search(i) for i in items)
    if len(items) >= 5:
        short = sum(1 for i in items if len(i.split()) <= 3)
        # a terse note that judges what it lists ("2.8 GiB -> movement, likely avoidable,
        # investigate first") says something
        return short / len(items) >= 0.8 and not any(_JUDGING_ITEM.search(i) for i in items)
    return _term_run(text)


# A run of terms with no separators at all ("copy_ 61% 7B decode bf16 fp32 dtype device
# movement .to() .cpu() H2D memcpy ..."): long, no word that builds a sentence, no clause
# mark, and terms of several of the course's concepts side by side.
_GRAMMAR = re.compile(
    r"\b(?:the|a|an|is|are|was|were|be|of|to|and|in|on|for|it|that|this|with|by|as|at|from|"
    r"so|because|but|or|if|then|than|which|i|we|you|they|can|could|would|should|will|do|"
    r"does|has|have)\b",
    re.IGNORECASE,
)
_CLAUSE_MARK = re.compile(r"[,;|→=—–]|(?<!:):(?!:)|\.(?=\s|$)")
_TERM_CONCEPTS = ("movement", "dtype_or_device", "attention_kernel", "locate", "latency", "math")
# A shorter run ("tokenizer CPU TTFT orchestration slice 436", "movement-bound prefill decode
# LLM 4096 bf16") is bare terms too when it joins three of the course's ideas and reads no
# measurement off the table: a terse but real value says what it measured ("tokenizer.encode
# 22 ms CPU, 0 ms CUDA").
_SHORT_RUN_CONCEPTS = (*_TERM_CONCEPTS, "launch_overhead", "tokenizer")
_CLASS_WORD = re.compile(r"\b\w+[- ]bound\b", re.IGNORECASE)
# Words that make a short run a sentence ("find where fp32 tensors get copied into bf16").
_SENTENCE_WORD = re.compile(
    r"\b(?:where|when|who|what|how|why|get|gets|into|onto|using|via|each|every|after|before|"
    r"them|its|my|our|their|not|no|all|find|check|see|look|run|print|log|move|keep|make|use|"
    r"add|put|call|calls|called|should|must|need|needs|happen|happens|cast|casts|copied|moved)\b",
    re.IGNORECASE,
)
_PART_NAME = re.compile(r"\bpart [abc]\b", re.IGNORECASE)
# "matmul add relu": Part B's ops by name, not the verb "add"
_OP_RUN = re.compile(r"\b(?:matmul|add|relu)(?:\W+(?:matmul|add|relu)\b)+", re.IGNORECASE)
_CALL_COUNT = re.compile(r"\b\d+\s*(?:calls|launches)\b", re.IGNORECASE)  # a count, not "who calls"
_OP_TO = re.compile(r"(?<=copy_)\s*(?:\+|and|/|&)?\s*to\b|(?<=copy)\s*(?:\+|/|&)\s*to\b", re.I)
_MEASURE = re.compile(r"\d\s?(?:ms|us|µs|μs|s|%|gib|gb|mib|mb)\b", re.IGNORECASE)


def _term_run(text: str) -> bool:
    words = text.split()
    if len(words) < 5:
        return False
    if _CLAUSE_MARK.search(text):
        # "tokenizer CPU GPU TTFT orchestration latency, encode": a run of terms that is
        # nearly all of the line, whatever trails it after a comma
        chunk = max(_CLAUSE_MARK.split(text), key=lambda c: len(c.split()))
        n = len(chunk.split())
        # ... or a run of twelve words or more, whatever the rest of the line says
        lone = sum(w.isalpha() for w in chunk.split())
        return (
            n >= 5
            and (n >= 0.7 * len(words) or lone >= 12)
            and not _CLAUSE_MARK.search(chunk)
            and _term_run(chunk)
        )
    # ".to()" and "copy_ to" name an op, not the word "to"; "part A" a part, not "a"
    bare = _PART_NAME.sub(" ", _OP_TO.sub(" ", _CALL_COUNT.sub(" ", _OP_RUN.sub(" ops ", text))))
    plain = " ".join(w for w in bare.split() if w.isalpha())
    if _GRAMMAR.search(plain):
        return False
    worded = sum(any(c.isalnum() for c in w) for w in words)  # not "+", "≈"
    if worded >= 12 and sum(has(c, text) for c in _TERM_CONCEPTS) >= 4:
        return True
    # a measurement read off the table makes it a terse value, unless it is a lone number
    # among many terms ("... movement compute bandwidth memory-bound 2.8 GiB")
    if len(_MEASURE.findall(text)) >= max(1, worded // 5) or _SENTENCE_WORD.search(plain):
        return False  # a terse value reads something off the table, or says something
    ideas = sum(has(c, text) for c in _SHORT_RUN_CONCEPTS) + bool(_CLASS_WORD.search(text))
    # "torch.compile CUDA graphs batching fuse MMA tensor cores": tools side by side; a long
    # run needs fewer ideas ("Matmul add relu 240 240 240 launches microseconds Python loop
    # 38 decode GPU idle CPU")
    return (
        ideas >= (2 if worded >= 12 else 3)
        or sum(bool(p.search(text)) for p in change_kinds().values()) >= 3
    )


# A colon after a purpose clause opens what is done for it: "I'd try a few things to cut
# the overhead, ... so: torch.compile, CUDA graphs and batching".
LIST_COLON = re.compile(r"(?<!:):(?!:)\s")  # not the "::" of "aten::to"


def strip_asides(text: str) -> str:
    """Drop parentheses, and purpose or reason clauses ("so that ...", "to see ..."), up to
    a colon that opens the list of what is done."""
    out = _PARENTHESES.sub(" ", text)
    out = _PARENTHESES.sub(" ", out)
    head, *rest = _ASIDE.split(out, maxsplit=1)
    listed = LIST_COLON.search(rest[0]) if rest else None
    return f"{head} {rest[0][listed.end() :]}" if listed else head
