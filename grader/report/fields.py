"""Find the five fields of a report, however they are written.

A field is a label and its value: ``Label: value`` (also ``-``, ``—`` or ``=``), a heading
with the value below it, a bullet or numbered item, or a row of a two-column table.  The
label is matched fuzzily against ``data/fields.yaml``; the text the learner wrote is kept,
because field-names-exact judges it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

from rapidfuzz import fuzz, process

from grader.report.document import Line
from grader.report.sections import (
    BRACKET_TAG,
    LABEL_LEAD,
    MARKS,
    TIME_STAMP,
    opens_part,
    section_of,
)
from grader.yamlload import package_data

_SEPARATOR = re.compile(
    # "Label: value", "Label - value", "Label = value", a dotted leader "Label ..... value",
    # a code block's columns "Label  value"
    r"^(?P<label>[^:|=.]{1,60}?)(?:\s*(?::|\s[-–—=]+(?:\s|$)|[–—]|=|\.{3,}|…+)|(?<=\S)  (?=\S)"
    r"|\s(?:->|→|=>|⇒|\|)\s)"
    r"\s*(?P<value>.*)$"
)
# An enumerator, a bullet, a heading mark, or a lab notebook's time stamp ("[14:05] Workload:")
_NUMBERING = re.compile(
    rf"^\s*(?:\d{{1,2}}(?:\.\d{{1,2}})+\.?(?=\s)|"
    rf"\u00a7\s?\d{{1,2}}(?:\.\d{{1,2}})*[.:)]?(?=\s)|"  # a section sign: "§1 Workload"
    rf"\(?\d+[a-z]?[.)]|[-*•·>]|#+|"
    rf"\(?(?:i{{1,3}}|iv|v|vi{{1,3}}|ix|x)[.)](?=\s)|"  # roman numbering: "ii. Hardware: L4"
    # a mark or emoji before the label: "✅ Workload:", "➤ Hardware:"
    rf"{MARKS}+|"
    rf"(?:{TIME_STAMP}|{BRACKET_TAG})(?=\s))\s*"  # "1.1 Workload:", a memo's numbering
)
_LEADER = re.compile(r"\.{3,}|…|\S  \S|\s(?:->|→|=>|⇒|\|)\s")
_DECOR = re.compile(r"[*_`#~]+")
_ASKED = re.compile(
    r"^(?:what(?:'s|\s+is|\s+was|\s+are|\s+were|\s+takes|\s+took|\s+leads|\s+dominates)?|which)"
    r"\s+(?:(?:the|your)\s+)?",
    re.I,
)
# "TODO (not sure between compile and cuda graphs)", "TBD - need to discuss": a placeholder
# with an aside after it is still a placeholder, and so is one put off: "TBD after standup".
_PLACEHOLDER_FIRST = re.compile(
    r"^(?:todo|tbd|tba|n/a)\b\s*(?:[\u2014\u2013(:,;.-]|$|(?:after|until|till|once|when|pending"
    r"|later|for now|by)\b)",
    re.I,
)
_ROW_NUMBER = re.compile(r"^\s*(?:#|\d{1,2}[.)]?|[a-e][.)])?\s*$")
_SUB_ENUMERATOR = re.compile(r"^\s*\d{1,2}[a-z][.)]\s")
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


@dataclass(frozen=True)
class FieldSpec:
    name: str
    key: str
    exact: tuple[str, ...]
    aliases: tuple[str, ...]


# A wrapped line that starts a new item rather than continuing the sentence above it.
_NEW_ITEM = re.compile(r"(?:[A-Z]|\(?[a-h1-9]\)|[-*•]|->|→)")
_ENDS_SENTENCE = re.compile(r"[.!?:]\s*$")
_ALNUM = re.compile(r"[A-Za-z0-9]")
_SLASH = re.compile(r"\s*/\s*")
_WS = re.compile(r"\s+")


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


@cache
def field_specs() -> tuple[tuple[FieldSpec, ...], int]:
    data = package_data("fields.yaml")
    specs = tuple(
        FieldSpec(f["name"], f["key"], tuple(f["exact"]), tuple(f.get("aliases", ())))
        for f in data["fields"]
    )
    return specs, int(data["fuzzy_threshold"])


def normalise_label(label: str) -> str:
    text = _DECOR.sub("", label)
    text = _NUMBERING.sub("", text)
    text = _SLASH.sub("/", text.lower())
    text = _WS.sub(" ", text).strip(" .:-–—?")
    return text


@lru_cache(maxsize=4096)
def match_label(label: str) -> tuple[FieldSpec, bool, bool] | None:
    """The field a label names, whether it is an exact spelling, and whether it was matched
    only as a near spelling; None if it names none."""
    norm = normalise_label(label)
    if not norm or len(norm.split()) > 7:
        return None
    specs, threshold = field_specs()
    for spec in specs:
        if norm in spec.exact:
            return spec, True, False
    for spec in specs:
        if norm in spec.aliases:
            return spec, False, False
    choices = {f"{i}:{e}": e for i, s in enumerate(specs) for e in s.exact}
    # A near spelling keeps its first letter: "Hardwre" is Hardware, "One experiment" is not
    # Next experiment, however many letters they share.
    for _, _, key in process.extract(norm, choices, scorer=fuzz.ratio, score_cutoff=threshold):
        if choices[key][0] == norm[0]:
            return specs[int(key.split(":")[0])], False, True
    if "/" in norm:
        # A label given in two languages, "Charge de travail / Workload": the field is the
        # half that names it exactly (not an exact spelling of the whole label).
        for half in norm.split("/"):
            for spec in specs:
                if half.strip() in spec.exact:
                    return spec, False, False
    return None


# "Q: Workload?" with the answer below ("A: ..."), and "Workload. Decoder-only LLM, ...".
# The marks of a question-and-answer layout, "Q:"/"A:", "Q1)", "q:"/"a:" (lower case only
# with a colon: "a) ..." and "a. ..." are a list's items); layouts.py reads them too.
QUESTION_MARK = r"^\s*(?:Q\s*\d*\s*[:.)]|q\s*\d*\s*:)"
ANSWER_MARK = r"^\s*(?:A\s*\d*\s*[:.)]|a\s*\d*\s*:)"
_QUESTION = re.compile(rf"{QUESTION_MARK}\s*(?P<label>[^?]{{1,60}}?)\s*\?\s*(?P<value>.*)$")
_ANSWER = re.compile(rf"{ANSWER_MARK}\s*")
# A heading of the learner's own that names the field in brackets at its end.
_NAMED_IN_BRACKETS = re.compile(r"\(([^()]{3,80})\)\W*$")
# A label in brackets: "[Workload] decoder-only LLM"
_BRACKET_LABEL = re.compile(
    r"^\W{0,3}\[(?P<label>[^\]]{1,40})\]\s*[:.\u2014\u2013-]?\s*(?P<value>\S.*)$"
)
# An answer that names its field in brackets: "A (Top CUDA time): matmul ..."
_ANSWER_LABEL = re.compile(
    r"^\s*(?:A|Answer)\s*\d*\s*\((?P<label>[^()]{1,40})\)\s*[:.\u2014\u2013-]?\s*(?P<value>.*)$"
)
_ASKED_INLINE = re.compile(r"^(?P<label>[^?:]{1,40}?)\s*\?\s+(?P<value>\S.*)$")
_DOT_LABEL = re.compile(r"^(?P<label>[^.:]{1,40})\.\s+(?P<value>\S.*)$")


def _label_value(line: Line) -> tuple[str, str, bool] | None:
    """The label and value a line may hold, and whether the label needs an exact or known
    spelling (a label ended by a full stop could be any sentence's first words)."""
    if line.kind == "table":
        cells = list(line.cells)
        if len(cells) >= 3 and _ROW_NUMBER.match(cells[0]):
            cells = cells[1:]  # "| 1 | Workload | 7B decode |": the row's number first
        if len(cells) >= 2:
            return cells[0], " ".join(c for c in cells[1:] if c), False
        return None
    if line.kind == "heading":
        named = _NAMED_IN_BRACKETS.search(line.text)  # "What I'd do next (Next experiment)"
        if named is not None and (hit := match_label(named.group(1))) is not None and hit[1]:
            return named.group(1), "", False
        if named is not None:  # "Next experiment (putting it first because it's the point)"
            return line.text[: named.start()], "", True
        return line.text, "", False
    if not line.first and line.kind == "item" and not _SUB_ENUMERATOR.match(line.text):
        return None  # but "1a. Workload: ..." under "1. Five-line report" is a line of its own
    if line.bold_lead and (hit := match_label(line.bold_lead)) is not None and not hit[2]:
        rest = line.text[line.text.find(line.bold_lead) + len(line.bold_lead) :]
        return line.bold_lead, rest.strip().lstrip(":").strip(), False  # "**Workload**: ..."
    if (b := _BRACKET_LABEL.match(line.text)) is not None and match_label(b.group("label")):
        return b.group("label"), b.group("value"), True  # "[Workload] decoder-only LLM"
    text = _NUMBERING.sub("", line.text)
    if (a := _ANSWER_LABEL.match(text)) is not None and match_label(a.group("label")):
        return a.group("label"), a.group("value"), False  # "A (Hardware): one L4 card"
    q = _QUESTION.match(text)
    if q:  # "Q: Workload?" with the answer below, or on the same line after the "?"
        label = _ASKED.sub("", q.group("label"))  # "What is the workload?"
        return label, q.group("value").strip(), False
    asked = _ASKED_INLINE.match(text)
    label = _ASKED.sub("", asked.group("label")) if asked else ""
    if asked and (hit := match_label(label)) is not None and not hit[2]:
        return label, asked.group("value"), True  # "workload? bs 1, prompt 32 ..."
    d = _DOT_LABEL.match(text)
    if d and (hit := match_label(d.group("label"))) is not None and not hit[2]:
        return d.group("label"), d.group("value"), True  # "Workload. Decoder-only LLM: ..."
    m = _SEPARATOR.match(text)
    if m:  # a dotted leader or a column gap needs a label spelled right ("Next we
        # experimented... and it failed")
        leader = _LEADER.search(text, 0, m.start("value") + 1)
        return m.group("label"), m.group("value"), leader is not None
    if d:
        return d.group("label"), d.group("value"), True
    if line.text.rstrip().endswith("?"):  # "What is the workload?" asked, answer below
        return _ASKED.sub("", line.text), "", False
    return line.text, "", False  # a label alone on its line, value below


def find_fields(lines: list[Line]) -> dict[str, Field]:
    """Each field, keyed by the field's key: its first occurrence with content, else its
    first occurrence ("the five names: Workload, Hardware, ..." listed bare, then filled)."""
    found: dict[str, Field] = {}
    starts: list[tuple[int, FieldSpec, str, str, bool, bool]] = []
    for i, line in enumerate(lines):
        lv = _label_value(line)
        if lv is None:
            continue
        label, value, strict = lv
        hit = match_label(label)
        if hit is None or (strict and hit[2]):
            continue
        spec, exact, fuzzy = hit
        starts.append((i, spec, label, value, exact, fuzzy))
    starts = _in_order(starts)
    start_idx = {s[0] for s in starts}
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
            _DECOR.sub("", label).strip(),
            line.number,
            tuple(value_lines),
            exact,
            fuzzy,
            line.block,
        )
        if spec.key not in found or field.substantive:
            found[spec.key] = field
    return found or _numbered_slots(lines)


def _in_order(
    starts: list[tuple[int, FieldSpec, str, str, bool, bool]],
) -> list[tuple[int, FieldSpec, str, str, bool, bool]]:
    """Labels past the Next experiment, the last of the five, that name an earlier field only
    by a substitute word ("- device: print .device on every input" in a list of experiments)
    are not that field: the five fields come in order, and such words begin other lines."""
    ends = [i for i, spec, _, value, exact, _ in starts if spec.key == "next_experiment"]
    if not ends:
        return starts
    last = min(ends)
    return [s for s in starts if s[0] <= last or s[4] or s[5] or s[1].key == "next_experiment"]


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
    m = _ANSWER.match(line.text)
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
            if line.text.rstrip().endswith(":"):
                break  # the next block is a label of its own ("Filled in for the run:")
            out.append(line)  # "Label:" alone, the value is the next block
            continue
        if not has_value and out and line.block == out[-1].block:
            out.append(line)
            continue
        break
    return out
