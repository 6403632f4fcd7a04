"""The parts after the five fields: hypotheses, experiments, not-yet, stretch, contrast.

A part starts at a heading or at a line whose first words are its lead ("Hypotheses",
"How I'd test them:", "Not yet:", "Stretch:", "Contrast with Part A"), and runs until the
next part, the next field or a heading.  A new paragraph that opens with another lead label
("Side note:", "Conclusion:") ends it.  A part's *units* (its hypotheses, its experiments)
are cut in units.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from grader.report.document import Line
from grader.report.language import _raw
from grader.report.patterns import Pattern, hoist_boundary, source_of
from grader.report.units import (
    HYPOTHESIS_NAMES,
    MARKER,
    SUBSCRIPT,
    Unit,
    nested,
    split_units,
    tests_several,
)

# A line that opens with a label of its own: "Not yet: ...", "Reading: ...".
LABEL_LEAD = re.compile(r"^[\w*_`'’ /&+-]{1,40}?:\s")
# Arrows, symbols and emoji a line may open with ("✅ Workload:", "🧪 Hypotheses").
MARKS = r"[\u2190-\u21ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff\ufe0f]"
# Decoration before a lead: markdown marks, a checkbox ("- [ ] Not yet:"), or an enumerator
# that is not a unit's label ("C) not yet:", "3. Hypotheses").
# A lab notebook's time stamp ("**09:41** Why ...", "[14:05] Workload:") or bracketed tag
# ("[t+4] ...") before a line's words: decoration here, and before a field's label.
TIME_STAMP = r"\[?\d{1,2}:\d{2}(?::\d{2})?\]?"
BRACKET_TAG = r"\[[^\]\n]{1,12}\]"
_DECOR = re.compile(
    rf"^(?:[\s*_`#>\u2014\u2013-]|{MARKS}|\[[ xX]\]|(?:[A-Z]|\d{{1,2}}[a-z]?)[.)]\s"
    r"|\d{1,2}(?:\.\d{1,2})+\.?\s"
    # requirement-style numbers: "R1. Hypotheses", "R2 Experiments", "REQ-3: ..."
    r"|(?:R|REQ-?)\d{1,2}(?:\.\d{1,2})*[.:)]?\s"
    r"|\u00a7\s?\d{1,2}(?:\.\d{1,2})*[.:)]?\s"  # a section sign: "§4 Not yet"
    # a deck's or a form's own numbering: "Slide 6 — Not yet", "Step 2: Hypotheses"
    r"|(?:[Ss]lide|[Ss]ection|[Ss]tep|[Pp]age|SLIDE|STEP)\s?#?\d{1,2}\s*(?:[\u2014\u2013:.)-]\s*|\s(?=[A-Z]))"
    rf"|{TIME_STAMP}(?=[\s*_\]])|{BRACKET_TAG}(?=\s)|Q\d{{0,2}}\s*(?:[:.)]|\s[\u2014\u2013-])\s)+"
)
_ARROW = re.compile(r"^\s*(?:->|→|=>)")
_LAZY_LABELS = ("not_yet", "stretch", "contrast")
_DASH_ITEM = re.compile(r"^[-*+]\s+\S")
_LEAD_MARKER = re.compile(
    r"\b(?:hyp\w*|tests?|checks?|for|experiments?)\.?\s+(?:h\s*)?([a-d1-9])\b", re.IGNORECASE
)
_HYPOTHESIS_START = re.compile(
    rf"^\W*(?:(?:h|hyp(?:othesis)?\.?\s*)\d\b|{SUBSCRIPT % '[a-d1-9]'}"
    rf"|(?:{HYPOTHESIS_NAMES})\s*#?\s*(?:[1-9]|[a-d](?=\s*[:.)\u2014\u2013-]))\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Section:
    name: str
    lead: Line
    lead_rest: str  # text on the lead line after the lead words ("Not yet: slice" -> "slice")
    lines: tuple[Line, ...]

    @property
    def text(self) -> str:
        return "\n".join([self.lead_rest, *[ln.text for ln in self.lines]]).strip()

    def units(self) -> list[Unit]:
        units = split_units(self.lines, self.lead_rest, self.lead.number)
        named = _LEAD_MARKER.search(
            self.lead.text[: max(0, len(self.lead.text) - len(self.lead_rest))]
        )
        if units and named and units[0].line == self.lead.number and units[0].marker is None:
            units[0] = units[0]._replace(marker=named.group(1).lower())  # "To test A: ..."
        return units

    def list_items(self) -> list[Line]:
        """The items of the first list in the section, at its top level."""
        items = [ln for ln in self.lines if ln.kind == "item" and ln.first]
        if not items:
            # bullets that markdown reads as the lead's paragraph (indented under "Contrast
            # with A:" with no blank line) are still the bullets a reader sees
            return [ln for ln in self.lines if ln.kind == "paragraph" and _DASH_ITEM.match(ln.text)]
        first_list = items[0].list_id
        return [ln for ln in items if ln.list_id == first_list]


# What is left of a lead before its separator ("Hypotheses (two):" -> "(two):").
# A lead's separator: a colon (not the "::" of "aten::slice"), a dash, or a full stop.
_LEAD_TAIL = re.compile(r"^(?:[^:—–-]|::){0,40}?(?:(?<!:):(?!:)|[—–-]|\.(?=\s))\s*")
_SEPARATOR = re.compile(r"(?<!:):(?!:)|[—–-]|\.\s")


@cache
def _section_leads() -> Pattern:
    """Every part's lead words in one expression, a named group per part, in the lexicon's
    order: matched at the start of a line, the first part whose lead fits wins, as if each
    were tried in turn."""
    return Pattern(
        "|".join(
            f"(?P<{name}>{hoist_boundary([source_of(p) for p in pats])})"
            for name, pats in _raw()["sections"].items()
        )
    )


# A title that names the next part too: "Hypotheses and discriminating experiments."
# The question's own tail, copied from the course without its question mark: ", and why."
_AND_WHY = re.compile(r"^\W*(?:yet|now|for now)?\W*(?:and )?why\W*$", re.IGNORECASE)
_ALSO_NAMED = re.compile(
    r"^\s*(?:and|&|\+)\s+(?:\w+\s+){0,2}(?:experiments?|tests?|checks?|hypothes[ie]s)\W*$", re.I
)


def undecorated(text: str) -> str:
    """A line without the marks and enumerators before its words ("5.1 ", "- [ ] ")."""
    return _DECOR.sub("", text).strip()


_TAGGED_LEAD = re.compile(r"^[A-Za-z]+(?:\s[A-Za-z]+)?\s*\(([^()]{3,30})\)\s*[.:\u2014\u2013-]\s*")


def section_of(text: str) -> tuple[str, str] | None:
    """The part a line opens, and the rest of the line after its lead words."""
    plain = _DECOR.sub("", text).strip()
    m = _section_leads().match(plain)
    if m is None:
        # a lead of one's own that names its part in brackets: "Remark (not yet). The ..."
        tagged = _TAGGED_LEAD.match(plain)
        inner = section_of(tagged.group(1)) if tagged else None
        if tagged is None or inner is None or inner[1]:
            return None
        return inner[0], plain[tagged.end() :].strip(" *_")
    name = next(n for n, g in m.groupdict().items() if g is not None)
    rest = plain[m.end() :]
    if plain[: m.end()].rstrip().endswith(":"):
        pass  # the lead ran to its colon: "copy_/to: probably casting. Could also be ..."
    elif _SEPARATOR.search(rest[:45]):
        rest = _LEAD_TAIL.sub("", rest, count=1)
    elif len(plain.split()) <= 8 and (not rest.rstrip().endswith(".") or _ALSO_NAMED.match(rest)):
        rest = ""  # a lead standing alone: "What I would leave alone for now"
    elif rest.rstrip(" *_").endswith("?") or _AND_WHY.match(rest):
        rest = ""  # a question, answered below: "One thing you would not optimize yet, and why?"
    return name, rest.strip(" *_")


def opens_part(text: str) -> bool:
    """A line that opens a part of its own even inside another block's paragraph: a short
    lead alone ("Hypotheses", "13:18 vs Part A"), a labelled one ("Not yet: SDPA - already
    flash."), or a marked hypothesis ("H1 fp32 inputs cast to bf16 -> ...")."""
    if _HYPOTHESIS_START.match(text):
        return True
    found = section_of(text)
    if found is None:
        return False
    if found[0] == "not_yet" and text[:1].isupper():
        return True  # a line of its own: "Leave attention alone; it's already the fast kind."
    return (not found[1] and len(text.split()) <= 6) or bool(LABEL_LEAD.match(text))


def find_sections(lines: list[Line], field_lines: set[tuple[int, int]]) -> dict[str, list[Section]]:
    """Every part found, by name, in order of appearance.

    A part opened by a heading runs to the next heading.  A lead alone on its line
    ("Hypotheses:") heads the blocks below it until another lead label.  A lead with text
    after it ("Not yet: slice, because ...") holds its own paragraph and any list under it,
    and ends at the next paragraph.
    """
    out: dict[str, list[Section]] = {}
    current: tuple[str, Line, str] | None = None
    body: list[Line] = []

    def close() -> None:
        if current is not None:
            name, lead, rest = current
            out.setdefault(name, []).append(Section(name, lead, rest, tuple(body)))

    marked_blocks = {ln.block for ln in lines if ln.first and MARKER.match(ln.text)}
    titles = _titles(lines)
    last = ""  # the part most recently closed
    for line in lines:
        if (line.number, line.block) in field_lines:
            close()
            current, body, last = None, [], ""
            continue
        if current is not None and _ends(current, line, body, titles):
            close()  # and the line may open the next part ("H2: ..." after "H1: ...")
            last, current, body = current[0], None, []
        opens = line.first or line.kind == "paragraph"
        found = section_of(line.text) if opens else None
        if not opens and line.kind == "item":
            # A labelled line carried into the last list item (no blank line before it):
            # "Experiments: (1) ...; (2) ..." still tests them all, "Not yet: ..." is its own part
            lazy = section_of(line.text)
            if lazy and (
                (lazy[0] == "experiments" and tests_several(lazy[1]))
                or (lazy[0] in _LAZY_LABELS and LABEL_LEAD.match(_DECOR.sub("", line.text)))
            ):
                found = lazy
        if found and line.kind == "heading" and found[0] in ("hypotheses", "experiments"):
            found = (found[0], "")  # "## Why copy_ and to might be there" holds no unit
        inside = current[0] if current else None
        if found and _heading_led(current) and found[0] != inside and _prose(line.text):
            found = None  # "The first hypothesis can be tested by ..." under "## Experiments"
        if found and found[0] == inside and line.first and not _heading_led(current):
            found = None  # "One possibility is ..." inside "Hypotheses:" is one of them
        if (
            found
            and found[0] not in ("hypotheses", "experiments")
            and _heading_led(current)
            and line.kind == "item"
            and any(b.kind == "item" and b.list_id == line.list_id for b in body)
        ):
            found = None  # under "### Contrast", "- Fused attention: not now ..." is its 4th
        if (
            not found
            and current is None
            and line.first
            and last in CONTINUES
            and CONTINUES[last].match(_DECOR.sub("", line.text))
        ):
            found = (last, line.text)  # "Another is ..." after "One possibility is ..."
        if (
            found
            and found[0] == "experiments"
            and (inside == "hypotheses" or line.block in marked_blocks)
            and (not line.first or _ARROW.match(line.text) or nested(line))
            and not tests_several(found[1])
            and found[1]  # a lead alone ("R2. Experiments") heads a part of its own
        ):
            found = None  # "-> check: ..." under a hypothesis is that hypothesis's test
            # (but "Experiments: (1) ...; (2) ..." right under the list tests them all)
        if (
            not found
            and _HYPOTHESIS_START.match(line.text)
            and (
                inside not in ("hypotheses", "experiments")
                or (inside == "experiments" and len(line.text.split()) <= 2)
            )
        ):
            found = ("hypotheses", line.text)  # "H1 fp32 casts ...", or "H2?" after tests
        if found:
            close()
            current, body = (found[0], line, found[1]), []
            continue
        if line.kind == "heading":
            continue
        if current is not None:
            body.append(line)
    close()
    return out


# A paragraph that goes on with the part just before it: "Another is ...", "The second can
# be tested by ...".
CONTINUES = {
    "hypotheses": re.compile(
        r"(?:another|a (?:second|third|further)|the (?:other|second|third)|second(?:ly)?|"
        r"my (?:second|other|next)(?: (?:guess|idea|hypothesis|theory|suspect|one))?\b|"
        r"third(?:ly)?|alternatively|or (?:maybe|perhaps)"
        r"|(?:according to|in|under) the (?:second|other|third)"
        r"|(?:it |that |this )?(?:could|might|may) also)\b"
        # "Hypothesis: a cast. Hypothesis: the input is on the cpu.", "Model 1: ... Model 2: ..."
        rf"|(?:hypothesis|{HYPOTHESIS_NAMES})\s*#?\s*(?:\d|[a-d])?\s*:",
        re.IGNORECASE,
    ),
    "experiments": re.compile(
        r"(?:(?:for|to (?:test|check)|testing|checking) )?(?:the )?(?:second|third|other|"
        r"latter|former)\b|(?:e|exp(?:eriment)?\.?\s*|test (?:for )?h)\d\b"
        r"|(?:for|to (?:test|check)|testing|checking) the [\w/-]+ (?:hypothesis|idea|theory|"
        r"one|case|guess|explanation|suspect)\b|experiment\s*\d?\s*:",
        re.IGNORECASE,
    ),
}


def _prose(text: str) -> bool:
    """A sentence of prose rather than a lead: long, with no "Label:" before it."""
    return len(text.split()) > 12 and not LABEL_LEAD.match(text)


def _heading_led(current: tuple[str, Line, str] | None) -> bool:
    return current is not None and current[1].kind == "heading"


def _titles(lines: list[Line]) -> frozenset[int]:
    """Lines that title the paragraph they open ("Plan", "Summary" over its text): a short
    phrase with no end mark, with more of its paragraph below it."""
    out = set()
    for line, below in zip(lines, lines[1:], strict=False):
        words = line.text.split()
        if (
            line.kind == "paragraph"
            and line.first
            and below.block == line.block
            and 1 <= len(words) <= 3
            and line.text[:1].isupper()
            and line.text[-1:].isalnum()
            and not MARKER.match(line.text)
        ):
            out.add(line.number)
    return frozenset(out)


def _sibling_title(lead: Line, line: Line) -> bool:
    """A numbered title at the level of a numbered lead alone: the memo's next section."""
    words = line.text.split()
    return (
        lead.ordered
        and line.ordered
        and line.first
        and line.level == lead.level
        and 1 <= len(words) <= 5
        and line.text[:1].isupper()
        and line.text[-1:].isalnum()
    )


def _ends(
    current: tuple[str, Line, str],
    line: Line,
    body: list[Line],
    titles: frozenset[int] = frozenset(),
) -> bool:
    """Does ``line`` end the part ``current`` (see :func:`find_sections`)?"""
    _, lead, rest = current
    if line.kind == "heading":
        return True
    if lead.kind == "heading" or (not rest and not body):
        return False  # a lead alone ("Not yet") holds at least the block below it
    if _sibling_title(lead, line):
        return True  # "4. Further recommendations" after "3. Not yet" and its paragraphs
    new_paragraph = line.first and line.kind == "paragraph" and line.block != lead.block
    if rest and lead.kind != "heading" and not _HYPOTHESIS_START.match(lead.text):
        return new_paragraph
    return new_paragraph and (bool(LABEL_LEAD.match(line.text)) or line.number in titles)
