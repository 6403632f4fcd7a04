"""References to the course's parts in a learner's text: "Part A", "In A,", "A's", "A:",
and terse notes' bare letters ("A copies, B python").

A Part B report that sets B beside A speaks of A in some of its words; the checks read what
it says of its own part (``own_share``) and skip what it says of another.
"""

from __future__ import annotations

import re
from functools import lru_cache

# A reference to a part of the course: "Part A", "In A,", "A's", "A:" (the bare letter only
# in capitals, so the article "A fused kernel" is not read as Part A).
_PART_REF = re.compile(
    r"\b(?:[Pp]art(?:e|ie)?|[Tt]eil|REQ-|[Rr]eq-) ?([ABCabc])\b"
    r"|\b(?:[Ii]n|[Ff]or|[Uu]nlike|[Vv]ersus|vs\.?|[Tt]han) ([ABC])\b"
    r"|\b([ABC])(?:'s|’s)\b|^\W*(?:\[[ xX]\]\s*)?([ABC])\s*(?:[:=,]|->|→|=>|[\u2014\u2013]|-\s)"
    r"|\b([ABC]) (?:was|had|is|has|needs|needed)\b|(?:[,;(.\u2014\u2013]\s*|\s-\s)([ABC])\s*[:=]"
    # "A top = matmul doing real prefill math", "B top (matmul): tiny calls"
    r"|^\W*([ABC]) top\b(?! (?:op|kernel|row|entry|line|item|priority)s?\b)"
    # "A matmul = real math", "B bottleneck: launches", "A matmul on top = prefill math"
    r"|^\W*([ABC]) (?:matmul|copies|copy_|bottleneck|problem|diagnosis|class|cost|limit|"
    r"prefill|decode|gpu|cpu)(?: (?:on |at the )?top)?\s*(?:=|:|->|→)"
    # a title's part in brackets after it: "Meaning of top CUDA (A): ..."
    r"|(?<=\w )\(([ABC])\)"
)
_PART_HINT = re.compile(r"[ABC]|[Pp]art|[Tt]eil")
# Terse notes set the parts side by side by their bare letters ("A copies, B python"): a
# bare capital letter opening a text or a clause names a part when another bare letter does
# too in the same text, or when it is a "B" or "C" (never an article) opening the text.
_BARE = re.compile(r"(?:^|[,;/|]|\bvs\.?|\band\b)\W*?\b([ABC])\s+(?=[\w(])")


@lru_cache(maxsize=64)
def own_part(exercise_id: str) -> str | None:
    m = re.fullmatch(r"part([abc])", exercise_id, re.IGNORECASE)
    return m.group(1).lower() if m else None


def _marks(text: str) -> list[tuple[int, str]]:
    """Where each reference to a part starts, with its lower-case letter, in order."""
    marks = [
        (m.start(), next(g for g in m.groups() if g).lower()) for m in _PART_REF.finditer(text)
    ]
    bare = list(_BARE.finditer(text))
    if (
        len({m.group(1) for m in bare}) >= 2
        or bare
        and bare[0].start() == 0
        and bare[0].group(1) != "A"
    ):
        marks += [(m.start(1), m.group(1).lower()) for m in bare]
    return sorted(marks)


@lru_cache(maxsize=8192)
def part_refs(text: str) -> frozenset[str]:
    """The parts of the course a text refers to, as lower-case letters."""
    if not _PART_HINT.search(text):
        return frozenset()
    return frozenset(letter for _, letter in _marks(text))


def lead_letter(text: str) -> str:
    """The bare part letter a text opens with ("A matmul = real" -> "a"), or ""."""
    m = _BARE.match(text)
    return m.group(1).lower() if m else ""


def about_other_part(text: str, exercise_id: str) -> bool:
    """Does this text speak of another part of the course ("In A, ...", "Part A's ...")?"""
    mine = own_part(exercise_id)
    return mine is not None and bool(part_refs(text) - {mine})


def own_share(text: str, exercise_id: str) -> str:
    """What a text that sets the parts side by side says of this part: "A = copies problem,
    B = too many launches" says "B = too many launches" of Part B; "" if nothing."""
    mine = own_part(exercise_id)
    marks = _marks(text) if mine is not None else []
    ends = [start for start, _ in marks[1:]] + [len(text)]
    return " ".join(
        text[start:end].strip(" ,;.")
        for (start, letter), end in zip(marks, ends, strict=True)
        if letter == mine
    ).strip()
