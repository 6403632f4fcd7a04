"""Which field a line's label names: the label and value a line holds, however written.

A label is ``Label: value`` (also ``-``, ``—`` or ``=``, a dotted leader or a column gap), a
heading, a bullet or numbered item, a question ("Q: Workload?"), a bracketed tag, or the
first cell of a two-column table row.  It is matched against ``data/fields.yaml``: an exact
spelling, a known substitute, or a near spelling within the fuzzy threshold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from rapidfuzz import fuzz, process

from grader.report.document import Line
from grader.report.leads import BRACKET_TAG, MARKS, THREAD_POST, TIME_STAMP
from grader.yamlload import package_data

_SEPARATOR = re.compile(
    # "Label: value", "Label - value", "Label = value", a dotted leader "Label ..... value"
    # (two dots at the longest label of a column: "Next experiment .. re-profile"),
    # a code block's columns "Label  value"
    r"^(?P<label>[^:|=.]{1,60}?)(?:\s*(?::|\s[-–—=]+(?:\s|$)|[–—]|=|\.{3,}|(?<=\s)\.\.(?=\s)|…+)"
    r"|(?<=\S)  (?=\S)"
    r"|\s(?:->|→|=>|⇒|\|)\s)"
    r"\s*(?P<value>.*)$"
)
# An enumerator, a bullet, a heading mark, or a lab notebook's time stamp ("[14:05] Workload:")
_NUMBERING = re.compile(
    rf"^\s*(?:\d{{1,2}}(?:\.\d{{1,2}})+\.?(?=\s)|"
    rf"\u00a7\s?\d{{1,2}}(?:\.\d{{1,2}})*[.:)]?(?=\s)|"  # a section sign: "§1 Workload"
    rf"\(?\d+[a-z]?[.)]|{THREAD_POST}|[-*•·>]|#+|"
    rf"\(?(?:i{{1,3}}|iv|v|vi{{1,3}}|ix|x)[.)](?=\s)|"  # roman numbering: "ii. Hardware: L4"
    # a mark or emoji before the label: "✅ Workload:", "➤ Hardware:"
    rf"{MARKS}+|"
    rf"(?:{TIME_STAMP}|{BRACKET_TAG})(?=\s))\s*"  # "1.1 Workload:", a memo's numbering
)
_LEADER = re.compile(r"\.{3,}|\s\.\.\s|…|\S  \S|\s(?:->|→|=>|⇒|\|)\s")
DECOR = re.compile(r"[*_`#~]+")
_ASKED = re.compile(
    r"^(?:what(?:'s|\s+is|\s+was|\s+are|\s+were|\s+takes|\s+took|\s+leads|\s+dominates)?|which)"
    r"\s+(?:(?:the|your)\s+)?",
    re.I,
)

_ROW_NUMBER = re.compile(r"^\s*(?:#|\d{1,2}[.)]?|[a-e][.)])?\s*$")
_SUB_ENUMERATOR = re.compile(r"^\s*\d{1,2}[a-z][.)]\s")


@dataclass(frozen=True)
class FieldSpec:
    name: str
    key: str
    exact: tuple[str, ...]
    aliases: tuple[str, ...]


_SLASH = re.compile(r"\s*/\s*")
_WS = re.compile(r"\s+")


@cache
def field_specs() -> tuple[tuple[FieldSpec, ...], int]:
    data = package_data("fields.yaml")
    specs = tuple(
        FieldSpec(f["name"], f["key"], tuple(f["exact"]), tuple(f.get("aliases", ())))
        for f in data["fields"]
    )
    return specs, int(data["fuzzy_threshold"])


def normalise_label(label: str) -> str:
    text = DECOR.sub("", label)
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
ANSWER = re.compile(rf"{ANSWER_MARK}\s*")
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


def label_value(line: Line) -> tuple[str, str, bool] | None:
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
