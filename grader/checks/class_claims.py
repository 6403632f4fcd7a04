"""Claims of a class: the words a report names a run's limit with, read as this run's.

"this run is compute-bound", "the matmul is the bottleneck": a claim names a class outright or
says that its subject limits the run.  A claim asked ("movement-bound??"), denied ("we can't
say attention is the problem") or about another run ("in a compute-bound prefill it might
help") is not one.
"""

from __future__ import annotations

import re
from functools import lru_cache

from grader.report.language import claim, negated
from grader.report.patterns import Pattern

CLAIM_WORDS = Pattern(
    "bound|bottleneck|dominat|problem|limit|issue|matter|heavy|important|most|mainly|largely|busy"
    "|(?:real|main|actual|true|biggest) cost|saturat|peg|maxed|utili[sz]"
)
# "In a compute-bound prefill it might help", "if it were compute-bound": a claim about
# another run, not this one.
# What a healthy run would show: "I'd expect the step to be dominated by the matmuls" (but "this
# is exactly what you'd expect: compute bound" says what this run is).
_EXPECT_WORDS = r"(?<!what )(?:i.d expect|i would expect|you.d expect|one would expect)"
HYPOTHETICAL = Pattern(
    r"\b(?:if|unless|when|whether|in an?|for an?|were|would be"
    # a first reading the report then leaves behind ("At first I read this as compute-bound")
    r"|at first|initially|first glance|i (?:first )?thought|looked like|seemed|my first"
    rf"|{_EXPECT_WORDS}|should normally)\b"
)


# ... said before the pieces of its sentence that describe it.
EXPECTING = Pattern(rf"\b(?:{_EXPECT_WORDS})\b")


def claim_words(text: str) -> bool:
    """Does the text use a word a claim of a class is made with ("bound", "problem", ...)?"""
    return CLAIM_WORDS.search(text) is not None


_WORD_START = re.compile(r"\b\w")


def _closest(pattern: Pattern, text: str, m: re.Match[str]) -> re.Match[str]:
    """The claim read from its subject's last mention before the verdict: in "it's already
    flash attention and we can't say attention is the problem" the claim is "attention is
    the problem", which "we can't say" denies."""
    closest = m
    for w in _WORD_START.finditer(text, m.start() + 1, m.end()):
        later = pattern.match(text, w.start())
        if later is not None and later.end() == m.end():
            closest = later
    return closest


@lru_cache(maxsize=8192)
def claims_class(text: str, bottleneck: str) -> bool:
    """The text names ``bottleneck`` as this run's limit ("this run is compute-bound")."""
    if text.rstrip().endswith("?") or not CLAIM_WORDS.search(text):
        return False
    pattern = claim(bottleneck)
    for m in (_closest(pattern, text, found) for found in pattern.finditer(text)):
        if negated(text, m.start(), m.end()):
            continue
        if asked(text, m):
            continue  # "movement-bound?? copy_ to ...": asked, not claimed
        before = text[max(0, m.start() - 60) : m.start()]
        if not HYPOTHETICAL.search(re.split(r"[.;!?]", before)[-1]):
            return True
    return False


def asked(text: str, m: re.Match[str]) -> bool:
    """A judgement followed by a question mark ("movement-bound?? copy_ to ...") is asked;
    asking why ("just moving data - why??") is the judgement itself."""
    return "?" not in m.group(0) and text[m.end() : m.end() + 2].lstrip().startswith("?")
