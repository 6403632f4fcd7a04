"""What a hypothesis or a test says of itself: its label as a number (``H2``, ``(b)``,
``(ii)``, ``2.`` and ``E2`` are all 2), the hypotheses it refers to ("confirms H1", "the
second one"), and the kind of cause it names (a dtype cast, a host/device transfer, ...)."""

from __future__ import annotations

import re
from functools import cache

from grader.report.language import _raw
from grader.report.patterns import Pattern
from grader.report.units import (
    FOR_LETTER,
    FOR_REF,
)

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6}


def label_number(label: str | None) -> int | None:
    """``"2"``, ``"b"``, ``"ii"`` -> 2; None for no label."""
    if not label:
        return None
    label = label.lower()
    if label.isdigit():
        return int(label)
    if label in _ROMAN:
        return _ROMAN[label]
    if len(label) == 1 and "a" <= label <= "h":
        return ord(label) - ord("a") + 1
    return None


_ORDINALS = {"first": 1, "one": 1, "second": 2, "two": 2, "third": 3, "three": 3}
# A reference to a hypothesis: "H2", "hyp. 2", "hypothesis two", "(ii)", "E2", "the second".
_REF = re.compile(
    r"^\W*(?:->|→|=>|⇒)\s*([A-Da-d1-9])\s*[:.)]|"  # "→ A: log the dtypes ...", "-> 2. ..."
    r"^\W*([A-D1-9])\s*(?:->|→|=>|⇒)\s|"  # "A → print dtypes at the call site ..."
    r"\b(?:test(?:ing)?|for|check(?:ing)?)\s+\d\.([1-9])\b(?!\s?(?:ms|gib|gb|%))|"  # "To test 1.2:"
    r"\b(?:h|hyp(?:othesis)?\.?\s*|e|exp(?:eriment)?\.?\s*|test\s+)([1-9]|one|two|three)\b"
    r"|\b(?:theory|suspect|idea|guess|cause|possibility|candidate|check|experiment|model)\s*#?\s*"
    r"([1-9]|[a-d](?=\s*[:.)\u2014\u2013-]))\b"  # "Verify idea 1:", "Experiment A:"
    r"|\((i{1,3}|iv|[a-d1-9])\)|\b(?:hyp(?:othesis)?|test|exp(?:eriment)?)\.?\s+([a-d])\b(?=\s*[:.)\u2014\u2013-])"
    r"|\bthe (first|second|third) (?:one|hypothesis|theory|guess|cause|suspect)\b"
    # "The experiment for 1 is ...", "For 2, I would look for ..."
    r"|\b(?:experiment|test|check) for (?:h\s?)?([1-9])\b|(?:^|(?<=[.;:]\s))for (?:h\s?)?([1-9]),"
    r"|(?:^|(?<=[.;:]\s))for (one|two|three),? (?=(?:i|we)(?:.d| would| will| can|.ll)\b)"
    r"|(?:^|(?<=\n))\W*for (one|two|three),"  # "for one, print the input dtypes ..."
    r"|\bfor the (first|second|third)\b(?! (?:time|step|token|run|layer|call))"
    rf"|{FOR_LETTER}(?=\s*[,:])"  # "for A, check the dtypes ..."
    rf"|{FOR_REF.pattern}",  # "... (for 2)"
    re.IGNORECASE,
)


_FOR_ORDINAL = re.compile(r"\W*(?:for|to (?:test|check)|testing|checking)\s", re.IGNORECASE)
_ORDINAL_LEAD = re.compile(
    r"^\W*(?:(?:for|to (?:test|check)|testing|checking"
    # "I'd confirm the first by ..."
    r"|(?:i.d|i would|i.ll|i will|we.d|we would) (?:confirm|test|check|verify|rule out))\s+)?"
    r"(?:the\s+)?(first|second|third)\b",
    re.IGNORECASE,
)


def references(text: str) -> list[int]:
    """The hypotheses a text names, in order ("confirms H1 ... H2" -> [1, 2]; "The second
    can be tested by ..." -> [2])."""
    out: list[int] = []
    lead = _ORDINAL_LEAD.match(text)
    if lead:
        out.append(_ORDINALS[lead.group(1).lower()])
    for m in _REF.finditer(text):
        word = next(g for g in m.groups() if g).lower()
        n = _ORDINALS.get(word) or label_number(word)
        if n is not None and n not in out:
            out.append(n)
    return out


@cache
def _causes() -> dict[str, Pattern]:
    return {k: Pattern.of(v) for k, v in _raw()["causes"].items()}


def cause_of(text: str) -> str | None:
    """The main kind of cause a hypothesis names: most mentions, then the earliest."""
    best: tuple[int, int, str] | None = None
    for kind, pattern in _causes().items():
        hits = list(pattern.finditer(text))
        if hits:
            key = (-len(hits), hits[0].start(), kind)
            best = key if best is None or key < best else best
    return best[2] if best else None


@cache
def _objects() -> dict[str, Pattern]:
    return {k: Pattern.of(v) for k, v in _raw()["cause_objects"].items()}


# What a cast converts to is not what it acts on: "converts tensors to the weights' dtype",
# "fp32 activations meeting bf16 weights".
_TARGET = re.compile(
    r"\b(?:to|into|against|with|meet\w*|match\w*)\s+(?:the\s+)?(?:bf16\s+|fp16\s+|model.?s?\s+)?"
    r"(?:weights?|params?|parameters)\S*(?:\s+dtype)?|\bweights?.?\s+dtype\b|\bbf16 weights\b"
    r"|\blike (?:the )?(?:model.?s? )?weights\b",
    re.IGNORECASE,
)


def objects_of(text: str) -> frozenset[str]:
    """The tensors a hypothesis says are cast or moved (the mask, the KV cache, the weights,
    the data flowing through ...), not what they are cast to."""
    claim = _TARGET.sub(" ", text)
    return frozenset(name for name, pattern in _objects().items() if pattern.search(claim))


def object_of(text: str) -> str | None:
    """The tensor a hypothesis names first, or None."""
    claim = _TARGET.sub(" ", text)
    hits = [(m.start(), n) for n, p in _objects().items() if (m := p.search(claim)) is not None]
    return min(hits)[1] if hits else None
