"""Find the five fields of a report, however they are written.

A field is a label and its value: ``Label: value`` (also ``-``, ``—`` or ``=``), a heading
with the value below it, a bullet or numbered item, or a row of a two-column table.  The
label is matched fuzzily against ``data/fields.yaml``; the text the learner wrote is kept,
because field-names-exact judges it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from grader.report.document import Line
from grader.report.labels import (
    ANSWER,
    DECOR,
    QUESTION_MARK,
    FieldSpec,
    field_specs,
    label_value,
    match_label,
)
from grader.report.leads import LABEL_LEAD, opens_part, section_of

# "TODO (not sure between compile and cuda graphs)", "TBD - need to discuss": a placeholder
# with an aside after it is still a placeholder, and so is one put off: "TBD after standup".
_PLACEHOLDER_FIRST = re.compile(
    r"^(?:todo|tbd|tba|n/a)\b\s*(?:[\u2014\u2013(:,;.-]|$|(?:after|until|till|once|when|pending"
    r"|later|for now|by)\b)",
    re.I,
)

PLACEHOLDERS = re.compile(
    r"^\s*(?:todo|tbd|n/?a|none|null|nil|\?+|\.+|…|-+|—|–|xxx+|fill (?:me )?in|\[.*\]|<.*>)?"
    r"\s*\.?$"
    # a placeholder that points elsewhere: "TBD, see list", "TODO (later)"
    r"|^\s*(?:todo|tbd|tba|to be decided|to be done)\b\W*(?:not sure(?: yet)?|unsure|"
    r"don.t know(?: yet)?|no idea|see (?:the )?(?:list|below|above|notes?)|later|pending|"
    r"for now)?\W*$"
    # no answer yet: "(not sure yet)", "no idea"
    r"|^\s*\(?\s*(?:not sure|unsure|no idea|don.t know|idk|no clue)(?: yet)?\s*\)?\W*$"
    # a pointer elsewhere: "see Next experiment below", "see the list"
    r"|^\s*see (?:the )?(?:[\w/]+ ){0,3}(?:below|above|list|later|notes?)\W*$",
    re.IGNORECASE,
)


# A wrapped line that starts a new item rather than continuing the sentence above it.
_NEW_ITEM = re.compile(r"(?:[A-Z]|\(?[a-h1-9]\)|[-*•]|->|→)")
_ENDS_SENTENCE = re.compile(r"[.!?:]\s*$")
_ALNUM = re.compile(r"[A-Za-z0-9]")
_QUESTION = re.compile(QUESTION_MARK)


@dataclass(frozen=True)
class Field:
    spec: FieldSpec
    label: str  # the label as the learner wrote it (decoration removed)
    label_line: int
    value_lines: tuple[Line, ...]
    exact: bool  # the label is one of the accepted exact spellings
    fuzzy: bool = False  # matched only as a near spelling ("Hardwre"), not exact or an alias
    label_block: int = 0  # the block of the label's line (a dense paragraph has several)

    @property
    def lines(self) -> set[tuple[int, int]]:
        """The (line number, block) of every line the field takes, its label's included."""
        return {(self.label_line, self.label_block)} | {
            (ln.number, ln.block) for ln in self.value_lines
        }

    @cached_property
    def value(self) -> str:
        """The value's lines, a hard-wrapped sentence joined back into one line."""
        out: list[list[str]] = []
        ends = False  # does the last line of ``out`` end a sentence (read on its last piece)?
        previous: Line | None = None
        for line in self.value_lines:
            new = _NEW_ITEM.match(line.text)
            wrapped = previous is not None and previous.block == line.block
            if out and wrapped and not new and not ends:
                out[-1].append(line.text)
                ends = bool(_ENDS_SENTENCE.search(line.text)) if line.text.strip() else ends
            else:
                out.append([line.text])
                ends = bool(_ENDS_SENTENCE.search(line.text))
            previous = line
        return "\n".join(" ".join(pieces) for pieces in out)

    @property
    def substantive(self) -> bool:
        text = self.value.strip()
        return (
            bool(_ALNUM.search(text))
            and not PLACEHOLDERS.match(text)
            and not _PLACEHOLDER_FIRST.match(text)
        )


class Start(NamedTuple):
    """A line that names a field."""

    at: int  # its place in the report's lines
    spec: FieldSpec
    label: str  # as written
    value: str  # on the label's own line
    exact: bool  # an accepted exact spelling
    fuzzy: bool  # only a near spelling


def label_starts(lines: list[Line]) -> list[Start]:
    """Every line that names a field, in order."""
    starts: list[Start] = []
    for i, line in enumerate(lines):
        lv = label_value(line)
        if lv is None:
            continue
        label, value, strict = lv
        hit = match_label(label)
        if hit is None or (strict and hit[2]):
            continue
        spec, exact, fuzzy = hit
        starts.append(Start(i, spec, label, value, exact, fuzzy))
    return starts


def find_fields(lines: list[Line], named: list[Start]) -> dict[str, Field]:
    """Each field, keyed by the field's key: its first occurrence with content, else its
    first occurrence ("the five names: Workload, Hardware, ..." listed bare, then filled).
    ``named``: the lines that name a field (``label_starts``)."""
    found: dict[str, Field] = {}
    starts = _in_order(named)
    start_idx = {s.at for s in starts}
    for i, spec, label, value, exact, fuzzy in starts:
        if spec.key in found and found[spec.key].substantive:
            continue
        line = lines[i]
        value_lines: list[Line] = []
        if value.strip():
            value_lines.append(Line(line.number, value.strip(), line.kind, line.level, line.block))
        if line.kind != "table":
            value_lines += _continuation(lines, i, start_idx, bool(value.strip()))
        value_lines = [_answer(ln) for ln in value_lines]
        field = Field(
            spec,
            DECOR.sub("", label).strip(),
            line.number,
            tuple(value_lines),
            exact,
            fuzzy,
            line.block,
        )
        if spec.key not in found or field.substantive:
            found[spec.key] = field
    return found or _numbered_slots(lines)


def _in_order(starts: list[Start]) -> list[Start]:
    """Labels past the Next experiment, the last of the five, that name an earlier field only
    by a substitute word ("- device: print .device on every input" in a list of experiments)
    are not that field: the five fields come in order, and such words begin other lines."""
    ends = [s.at for s in starts if s.spec.key == "next_experiment"]
    if not ends:
        return starts
    last = min(ends)
    return [
        s for s in starts if s.at <= last or s.exact or s.fuzzy or s.spec.key == "next_experiment"
    ]


_SLOT = re.compile(r"^\s*\(?([1-5])\)\s*(?P<value>\S.*)$")


def _numbered_slots(lines: list[Line]) -> dict[str, Field]:
    """Five answers numbered (1) to (5) in a report that names no field: the template's five
    fields in their order.  Each is marked as a near match, so a person may check it (and
    the names were not written, which Part C's criterion judges)."""
    specs, _ = field_specs()
    for i in range(len(lines) - 4):
        run = lines[i : i + 5]
        slots = [_SLOT.match(ln.text) for ln in run]
        numbered = all(m and m.group(1) == str(n) for n, m in enumerate(slots, start=1))
        listed = all(ln.ordered and ln.first and ln.level == run[0].level for ln in run) and (
            len({ln.list_id for ln in run}) == 1
        )
        if not numbered and not listed:
            continue
        out = {}
        for spec, ln, m in zip(specs, run, slots, strict=True):
            value = m.group("value") if m else ln.text
            out[spec.key] = Field(
                spec,
                f"({run.index(ln) + 1})",
                ln.number,
                (Line(ln.number, value, ln.kind, ln.level, ln.block),),
                False,
                True,
                ln.block,
            )
        return out
    return {}


def _answer(line: Line) -> Line:
    """A value line without the "A:" of a question-and-answer layout."""
    m = ANSWER.match(line.text)
    return line._replace(text=line.text[m.end() :]) if m else line


def _opens_own_part(line: Line, previous: Line) -> bool:
    """Below a field's heading, a new block that opens a part of its own ("Hypotheses:",
    "Reading: ..."); prose under the heading is still the field's value."""
    if not line.first or line.block == previous.block:
        return False
    short_lead = section_of(line.text) is not None and len(line.text.split()) <= 12
    return bool(LABEL_LEAD.match(line.text)) or short_lead


def _continuation(lines: list[Line], i: int, starts: set[int], has_value: bool) -> list[Line]:
    """Lines below a label that belong to its value."""
    head = lines[i]
    out: list[Line] = []
    for j in range(i + 1, len(lines)):
        line = lines[j]
        if j in starts or line.kind in ("heading", "rule"):
            break
        if head.kind == "heading" and out and _opens_own_part(line, out[-1]):
            break
        if head.kind == "heading":
            out.append(line)
            continue
        same_block = line.block == head.block
        if same_block and opens_part(line.text):
            break  # "vs Part A" on the line after "Next experiment: ..." opens its own part
        nested = line.kind == "item" and head.kind == "item" and line.level > head.level
        nested_under_paragraph = head.kind == "paragraph" and not has_value and line.kind == "item"
        if same_block or nested or nested_under_paragraph:
            out.append(line)
            continue
        if not has_value and not out:
            # no value in the next block: the last of the names listed bare ("Workload:" ...
            # "Next experiment:"), a block that is a label of its own ("Filled in for the
            # run:"), or a question ("Q: Filled in for the fake run")
            in_run = i > 0 and (i - 1) in starts and lines[i - 1].block == head.block
            if in_run or line.text.rstrip().endswith(":") or _QUESTION.match(line.text):
                break
            out.append(line)  # "Label:" alone, the value is the next block
            continue
        if not has_value and out and line.block == out[-1].block:
            out.append(line)
            continue
        break
    return out
