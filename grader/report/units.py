"""The units of a part: its hypotheses, its experiments, one bullet each.

Within a part (sections.py), units are its list items, or its lines when each starts with a
marker such as ``H1``, ``(a)``, ``2.`` or ``Theory A:``, or the pieces of one line that
numbers its units inline ("(1) ... (2) ...").
"""

from __future__ import annotations

import re
from typing import NamedTuple

from grader.report.document import Line

# Arrows, symbols and emoji a line may open with ("✅ Workload:", "🧪 Hypotheses", "💡 H1:").
MARKS = r"[\u2190-\u21ff\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff\ufe0f]"
# Other names for a hypothesis (and for its test) that a number or letter labels.
HYPOTHESIS_NAMES = r"theory|suspect|idea|guess|cause|reason|possibility|candidate|explanation|model"
_NAMED_UNIT = rf"{HYPOTHESIS_NAMES}|check|experiment|verify(?: idea| theory)?"
# A label written as a subscript: "H_a.", "$H_{1}$:" (%s: the label's own pattern).
SUBSCRIPT = r"\$?h_\{?%s\}?\$?(?=[\s.:)])"
# A unit's label: H1, Hyp. 2, E1, (a), (ii), a), 2.
MARKER = re.compile(
    rf"^\s*(?:{MARKS}+\s*)?"  # an emoji before the label: "💡 H1: ..."
    r"(?:\[[ xX]\]\s*)?"  # a checkbox before the label: "[ ] Hypothesis 1 — ..."
    r"(?:\(?(?:h|hyp(?:othesis)?\.?\s*|(?:e|exp(?:eriment)?\.?|test)\s*(?:for\s+)?h?)\s*(\d)\)?\b"
    r"|\((i{1,3}|iv|vi{0,3}|[a-h1-9])\)|(i{1,3}|iv|[a-h1-9])[.)]\s|\d{1,2}([a-h])[.)]?\s"
    rf"|{SUBSCRIPT % '([a-d1-9])'}"
    r"|([1-9])\s(?=[a-z])|([1-9])\s[-\u2013\u2014]\s"  # "1 the inputs ...", "2 - the mask ..."
    r"|(?:->|→|=>|⇒)\s*(?:h\s*)?([a-d1-9])\s*[:.)]"  # "→ B: look for Memcpy HtoD ..."
    r"|(?:hyp(?:othesis)?|test|exp(?:eriment)?)\.?\s+([a-d])\b(?=\s*[:.)\u2014\u2013-])"
    r"|(?:r|req-?)?\d{1,2}\.(\d{1,2})[.):]?\s"  # "R1.2 host<->device traffic", "1.2 A ..."
    # a bare capital letter as a label, or an answer's number: "A: the cache ...", "A2: ..."
    r"|(?-i:([A-D]))\s*:\s|(?-i:A)([1-9])(?:\s*[:.)]|\s+[-\u2013\u2014])\s"  # "A2 – a device hop"
    # a hypothesis or its test by another name: "Theory A:", "Suspect 1 -", "Check 2 -"
    rf"|(?:{_NAMED_UNIT})\s*#?\s*([1-9]|[a-d](?=\s*[:.)\u2014\u2013-]))\b)",
    re.IGNORECASE,
)


class Unit(NamedTuple):
    """One hypothesis, one experiment, one bullet: its text and the line it starts on."""

    text: str
    line: int
    marker: str | None  # "1", "a", ... when the unit is numbered or lettered
    from_list: bool


def split_units(lines: tuple[Line, ...], lead_rest: str, lead_line: int) -> list[Unit]:
    """Units of a part: list items, or marked lines, or paragraphs."""
    units: list[Unit] = []
    texts: list[list[str]] = []  # each unit's lines, joined once at the end
    if lead_rest and (MARKER.match(lead_rest) or len(lead_rest.split()) >= 2):
        units.append(Unit(lead_rest, lead_line, marker_of(lead_rest), False))
        texts.append([lead_rest])
    # the part's own top level: its items may sit under the lead's own list item
    # ("1. Hypotheses" with the hypotheses as its sub-bullets)
    top = max(1, min((ln.level for ln in lines if ln.kind == "item"), default=1))
    for line in lines:
        starts_new = (
            line.kind == "item"
            and (line.first or (bool(MARKER.match(line.text)) and not _lettered_under(line)))
            and line.level <= top
        ) or (line.kind != "item" and (bool(MARKER.match(line.text)) or line.first))
        if starts_new or not units:
            units.append(Unit(line.text, line.number, marker_of(line.text), line.kind == "item"))
            texts.append([line.text])
        else:
            texts[-1].append(line.text)
    units = [
        u._replace(text="\n".join(t)) if len(t) > 1 else u
        for u, t in zip(units, texts, strict=True)
    ]
    return [piece for u in units if u.text.strip() for piece in _split_inline(u)]


_LETTER = re.compile(r"^\s*\(?[a-h][.)]\s", re.IGNORECASE)


def _lettered_under(line: Line) -> bool:
    """A lettered line inside a numbered item is the item's own sub-point ("1. the inputs are
    fp32 ..." / "a. test: log the dtypes ..."), not a unit of its own."""
    return line.ordered and not line.first and bool(_LETTER.match(line.text))


# Hypotheses by letter, "hypothesis A: ... hypothesis B: ...", and the tests that name
# them, "for A, ... for B, ..." (also one of grader/checks/hypothesis_refs.py's references)
HYP_LETTER = r"\bhyp(?:othesis)?\.?\s+([a-d])\s*:"
FOR_LETTER = r"(?-i:\b[Ff]or ([A-D]))"

_INLINE_MARKER = re.compile(
    r"(?:^|(?<=[;.,:]))\s*(?=(?:for\s+)?(?:\(?(?:h|hyp(?:othesis)?\.?\s*)[1-9]\b\)?"
    r"|\((?:i{1,3}|iv|[a-h1-9])\)|[1-9]\)\s"
    rf"|{HYP_LETTER}|{FOR_LETTER}\s*,))",
    re.IGNORECASE,
)


_PIECE_MARKER = re.compile(
    r"\b(?:h|hyp(?:othesis)?\.?\s*)([1-9])\b|\((i{1,3}|iv|[a-h1-9])\)|\b([1-9])\)"
    rf"|{HYP_LETTER}|{FOR_LETTER}\s*,",
    re.IGNORECASE,
)


# "(a) fp32 casts per layer (b) CPU transfers": parenthesised markers after a plain space,
# taken only when they run in order (a, b, c / 1, 2, 3 / i, ii, iii).
_LOOSE_MARKER = re.compile(r"(?:^|(?<=[\s;.,:]))\s*(?=\(?(i{1,3}|iv|[a-h]|[1-9])\)\s)", re.I)
_SEQUENCES = ("abcdefgh", "123456789", ("i", "ii", "iii", "iv"))


def _in_order(labels: list[str]) -> bool:
    return any(list(seq[: len(labels)]) == labels for seq in _SEQUENCES)


def nested(line: Line) -> bool:
    """A list item under another ("- H1: ..." / "  - test: ..."): the test of the one above."""
    return line.kind == "item" and line.level >= 2


# "check the dtype ... (for 1); look for HtoD ... (for 2)": tests that say whom they test
# (also one of the hypothesis references of grader/checks/hypothesis_refs.py)
FOR_REF = re.compile(r"\((?:for|re|tests?) (?:h|hyp\w*\.?\s*)?([1-9])\)", re.IGNORECASE)


# Tests numbered aloud: "one print the mask dtype ...; two look for memcpy HtoD ..."
_SPOKEN_SEVERAL = re.compile(r"^\W*one\b[^;]*?[,;]\s*two\b", re.IGNORECASE)


def tests_several(text: str) -> bool:
    """ "(1) ...; (2) ...", "... (for 1); ... (for 2)" or "one ...; two ...": tests of
    several hypotheses."""
    return (
        _inline_markers(text) >= 2
        or len(set(FOR_REF.findall(text))) >= 2
        or bool(_SPOKEN_SEVERAL.match(text))
    )


def _inline_markers(text: str) -> int:
    """How many units "(1) ...; (2) ..." or "(a) ... (b) ..." on one line holds."""
    loose = [m.group(1).lower() for m in _LOOSE_MARKER.finditer(text)]
    strict = len(_INLINE_MARKER.findall(text))
    return max(strict, len(loose)) if _in_order(loose) else strict


def _split_inline(unit: Unit) -> list[Unit]:
    """ "(1) fp32 casts; (2) host copies" on one line is two units, one per marker."""
    starts = [m.end() for m in _INLINE_MARKER.finditer(unit.text)]
    loose = list(_LOOSE_MARKER.finditer(unit.text))
    if len(loose) > len(starts) and _in_order([m.group(1).lower() for m in loose]):
        starts = [m.end() for m in loose]
    if len(starts) < 2:
        return [unit]
    pieces = [
        unit.text[a:b].strip(" ;,.") for a, b in zip(starts, [*starts[1:], None], strict=True)
    ]
    head = unit.text[: starts[0]].strip(" ;,.:")
    out = [Unit(head, unit.line, unit.marker, unit.from_list)] if len(head.split()) > 3 else []
    for piece in pieces:
        m = _PIECE_MARKER.search(piece[:16])
        marker = next((g for g in m.groups() if g), None) if m else None
        out.append(Unit(piece, unit.line, marker.lower() if marker else None, unit.from_list))
    return out


def marker_of(text: str) -> str | None:
    m = MARKER.match(text)
    if not m:
        return None
    return next(g for g in m.groups() if g).lower()
