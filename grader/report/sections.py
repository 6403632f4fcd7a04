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

from grader.report.document import Line
from grader.report.leads import _DECOR, _HYPOTHESIS_START, LABEL_LEAD, section_of
from grader.report.units import HYPOTHESIS_NAMES, MARKER, Unit, nested, split_units, tests_several

_ARROW = re.compile(r"^\s*(?:->|→|=>)")
_REASON_LABEL = re.compile(r"^\W*(?:reason|why|because)\s*:", re.IGNORECASE)
_LAZY_LABELS = ("not_yet", "stretch", "contrast")
_DASH_ITEM = re.compile(r"^(?:[-*+]|->|=>|\u2192|\u21d2)\s+\S")  # "- ...", "-> A: ..."
_LEAD_MARKER = re.compile(
    r"\b(?:hyp\w*|tests?|checks?|for|experiments?)\.?\s+(?:h\s*)?([a-d1-9])\b", re.IGNORECASE
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


def _in_list_of(line: Line, body: list[Line]) -> bool:
    """Is ``line`` an item of a list the part already holds?"""
    return any(b.kind == "item" and b.list_id == line.list_id for b in body)


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
        if found and line.asked:
            found = (found[0], "")  # a question quoted ("Two hypotheses for why ...") is asked
        if found and line.kind == "heading" and found[0] in ("hypotheses", "experiments"):
            found = (found[0], "")  # "## Why copy_ and to might be there" holds no unit
        inside = current[0] if current else None
        if found and _heading_led(current) and found[0] != inside and _prose(line.text):
            found = None  # "The first hypothesis can be tested by ..." under "## Experiments"
        if found and inside == "not_yet" and _REASON_LABEL.match(line.text):
            found = None  # "Reason: it's already a flash kernel" under "Not yet" is its why
        if found and found[0] == inside and line.first and not _heading_led(current):
            found = None  # "One possibility is ..." inside "Hypotheses:" is one of them
        if (
            found
            and found[0] not in ("hypotheses", "experiments")
            and _heading_led(current)
            and line.kind == "item"
            and _in_list_of(line, body)
        ):
            found = None  # under "### Contrast", "- Fused attention: not now ..." is its 4th
        if (
            found
            and found[0] == "hypotheses"
            and inside == "experiments"
            and line.kind == "item"
            and (not body or _in_list_of(line, body))
        ):
            found = None  # under "Experiments:", "- dtype hypothesis: print dtypes ..." tests it
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
    name, lead, rest = current
    if line.kind == "heading":
        return True
    if name == "not_yet" and _REASON_LABEL.match(line.text):
        return False  # "Reason: it is already flash" below the thing named is its why
    if lead.kind == "heading" or (not rest and not body):
        return False  # a lead alone ("Not yet") holds at least the block below it
    if _sibling_title(lead, line):
        return True  # "4. Further recommendations" after "3. Not yet" and its paragraphs
    new_paragraph = line.first and line.kind == "paragraph" and line.block != lead.block
    if rest and lead.kind != "heading" and not _HYPOTHESIS_START.match(lead.text):
        return new_paragraph
    return new_paragraph and (bool(LABEL_LEAD.match(line.text)) or line.number in titles)
