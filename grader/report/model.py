"""A parsed report: its lines, its five fields and the parts after them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, TypeVar

from grader.errors import GraderError, Location
from grader.report.document import Line, parse_document
from grader.report.fields import Field, find_fields, label_starts
from grader.report.keyword_lists import is_keyword_list
from grader.report.layouts import relayout
from grader.report.sections import Section, find_sections

T = TypeVar("T")


class Evidence(NamedTuple):
    """The line that decided a verdict and its text as the report has it; ``line`` None when
    nothing was found, and then ``text`` says what was looked for."""

    line: int | None
    text: str


class TextLine(NamedTuple):
    """A line of text to judge, with where it came from (a field key, a part, or "body")."""

    number: int
    text: str
    where: str


LABEL_STARTS = "label-starts"  # the memo's key for the lines that name a field


@dataclass
class Report:
    lines: list[Line]
    fields: dict[str, Field]
    sections: dict[str, list[Section]]
    source: str = "<report>"
    warnings: tuple[str, ...] = ()
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def remember(self, key: Any, compute: Callable[[], T]) -> T:
        """``compute()`` once per report: several checks read the same statements."""
        if key not in self.memo:
            self.memo[key] = compute()
        value: T = self.memo[key]
        return value

    @classmethod
    def parse(cls, text: str, source: str = "<report>", warnings: tuple[str, ...] = ()) -> Report:
        try:
            lines = relayout(parse_document(text))
        except GraderError as exc:  # a text with too much structure: name its file
            raise (exc if exc.location else exc.at(Location(source))) from None
        named = label_starts(lines)
        fields = find_fields(lines, named)
        in_fields = {key for f in fields.values() for key in f.lines}
        sections = find_sections(lines, in_fields)
        # the lines that name a field, kept for field-names-exact (read once, here)
        return cls(lines, fields, sections, source, warnings, memo={LABEL_STARTS: named})

    def line_text(self, number: int, block: int | None = None) -> str:
        """The plain text of line ``number`` as the report has it ("" for a blank line); of
        its piece in ``block`` when a line was read as several (a table's columns)."""
        here = [ln for ln in self.lines if ln.number == number]
        own = [ln for ln in here if ln.block == block]
        return (own or here)[0].text if here else ""

    def quote(self, number: int, block: int | None = None) -> Evidence:
        """Evidence for line ``number`` (its piece in ``block``): its text as it stands."""
        return Evidence(number, self.line_text(number, block))

    def quote_label(self, f: Field) -> Evidence:
        """Evidence for the line that names field ``f``."""
        return self.quote(f.label_line, f.label_block)

    def quote_value(self, f: Field) -> Evidence:
        """Evidence for the first line of field ``f``'s value (it has one)."""
        return self.quote(f.value_lines[0].number, f.value_lines[0].block)

    def field(self, key: str) -> Field | None:
        f = self.fields.get(key)
        return f if f is not None and f.substantive else None

    def section(self, name: str) -> list[Section]:
        return self.sections.get(name, [])

    def section_lines(self, name: str) -> list[TextLine]:
        out = []
        for sec in self.section(name):
            if sec.lead_rest:
                out.append(TextLine(sec.lead.number, sec.lead_rest, name))
            out += [TextLine(ln.number, ln.text, name) for ln in sec.lines]
        return out

    @cached_property
    def text_lines(self) -> list[TextLine]:
        """Every line worth reading, field values as their own lines; keyword lists dropped.

        A field written ``Label: value`` contributes its value only, so the label's words
        ("Top CPU / orchestration cost") never count as something the learner said.
        """
        out: list[TextLine] = []
        field_line_of: dict[tuple[int, int], str] = {}
        for key, f in self.fields.items():
            for ln in f.value_lines:
                field_line_of[(ln.number, ln.block)] = key
        label_lines = {(f.label_line, f.label_block) for f in self.fields.values()}
        part_of = {
            (ln.number, ln.block): name
            for name, secs in self.sections.items()
            for sec in secs
            for ln in (sec.lead, *sec.lines)
        }
        for key, f in self.fields.items():
            for ln in f.value_lines:
                if (ln.number, ln.block) == (f.label_line, f.label_block):
                    out.append(TextLine(ln.number, ln.text, key))
        for ln in self.lines:
            at = (ln.number, ln.block)
            if at in label_lines or ln.kind == "rule":
                continue
            where = field_line_of.get(at) or part_of.get(at, "body")
            if where == "rejected":
                continue  # "Ideas I considered and threw out:": not said of this run
            out.append(TextLine(ln.number, ln.text, where))
        out.sort(key=lambda t: t.number)
        joined = _with_parent_items(_join_wrapped(out, self.lines), self.lines, set(self.fields))
        return [t for t in joined if not is_keyword_list(t.text)]

    def lines_in(self, *wheres: str) -> list[TextLine]:
        return [t for t in self.text_lines if t.where in wheres]


def _with_parent_items(lines: list[TextLine], doc: list[Line], fields: set[str]) -> list[TextLine]:
    """A field answered as an outline: an item's first sub-item, right below it, is read with
    it ("copy_ + to, 34.7 ms" / "  - not math: moving and casting tensors"), as the sub-item
    says what the item is without naming it again."""
    item_at = {ln.number: ln for ln in doc if ln.kind == "item" and ln.first}
    out: list[TextLine] = []
    for tl in lines:
        child = item_at.get(tl.number)
        head = out[-1] if out else None
        parent = item_at.get(head.number) if head is not None else None
        if (
            head is not None
            and child is not None
            and parent is not None
            and tl.where == head.where
            and tl.where in fields
            and child.level == parent.level + 1
            and child.list_id != parent.list_id
        ):
            out[-1] = TextLine(head.number, f"{head.text.rstrip()} \u2014 {tl.text}", head.where)
            continue
        out.append(tl)
    return out


_WRAP_END = re.compile(r"[.!?:]\s*$")
# A line that ends on a word no sentence ends on: the next line goes on with it, capital or not.
_OPEN_END = re.compile(
    r"\b(?:the|a|an|of|to|in|on|at|with|and|or|but|for|from|by|into|onto|than|as|is|are|was|"
    r"were|be|that|which|its|their|my|our|your|this|these|those|between|via|not|also|would|"
    r"will|could|should|can|try|use|swap|adopt|write|implement|enable|add|want|need)\s*$",
    re.IGNORECASE,
)
_NEW_START = re.compile(r"^(?:[A-Z]|\(?[a-h1-9]\)|\d{1,2}[a-z]?[.)]\s|[-*•]|->|→)")


def _join_wrapped(lines: list[TextLine], doc: list[Line]) -> list[TextLine]:
    """Join a sentence hard-wrapped over several lines of one paragraph or list item.

    A line continues the one before it when both are in the same block and part, the first
    does not end a sentence, and the second does not open a new one (a capital or a marker):
    "... 35 ms of movement" / "that should not be there".  Whether a joined line ends a
    sentence is decided by its last piece with any text, so each line is read once.
    """
    block_of = {ln.number: ln.block for ln in doc}
    groups: list[list[TextLine]] = []
    ends = False  # does the current group's text end a sentence?
    for tl in lines:
        head = groups[-1][0] if groups else None
        new = _NEW_START.match(tl.text)
        if new and new.group(0)[0].isupper() and groups and _OPEN_END.search(groups[-1][-1].text):
            new = None  # "... I'd still drop in" / "FlashAttention-2 alongside ...": a name
        if (
            head is not None
            and head.where == tl.where
            and block_of.get(head.number) == block_of.get(tl.number)
            and not ends
            and not new
        ):
            groups[-1].append(tl)
            if tl.text.strip():
                ends = bool(_WRAP_END.search(tl.text))
        else:
            groups.append([tl])
            ends = bool(_WRAP_END.search(tl.text))
    return [
        g[0] if len(g) == 1 else TextLine(g[0].number, " ".join(t.text for t in g), g[0].where)
        for g in groups
    ]
