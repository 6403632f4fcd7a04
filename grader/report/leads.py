"""What a line's first words name: the lead of a part ("Hypotheses", "Not yet:", "Contrast
with Part A"), read past the decoration before it (list marks, numbering, emoji, a time
stamp).  sections.py cuts a report into its parts with these; the checks read a lead's part
and the rest of its line with ``section_of``.
"""

from __future__ import annotations

import re
from functools import cache

from rapidfuzz import fuzz, process

from grader.report.language import _raw
from grader.report.patterns import Pattern, hoist_boundary, source_of
from grader.report.units import HYPOTHESIS_NAMES, MARKS, SUBSCRIPT

# A line that opens with a label of its own: "Not yet: ...", "Reading: ...".
LABEL_LEAD = re.compile(r"^[\w*_`'’ /&+-]{1,40}?:\s")
# Decoration before a lead: markdown marks, a checkbox ("- [ ] Not yet:"), or an enumerator
# that is not a unit's label ("C) not yet:", "3. Hypotheses").
# A lab notebook's time stamp ("**09:41** Why ...", "[14:05] Workload:") or bracketed tag
# ("[t+4] ...") before a line's words: decoration here, and before a field's label.
TIME_STAMP = r"\[?\d{1,2}:\d{2}(?::\d{2})?\]?"
BRACKET_TAG = r"\[[^\]\n]{1,12}\]"
# A thread's post number: "1/9 Five-line report first:", "4/ Next experiment: ..."
THREAD_POST = r"\d{1,2}/\d{0,2}(?=\s)"
_DECOR = re.compile(
    # (and the quote a prompt kept in the file opens with: '## "3. One thing you would ...')
    rf"^(?:[\s*_`#>\u2014\u2013\"\u201c-]|{MARKS}|\[[ xX]\]|(?:[A-Z]|\d{{1,2}}[a-z]?)[.)]\s"
    r"|\d{1,2}(?:\.\d{1,2})+\.?\s"
    # requirement-style numbers: "R1. Hypotheses", "R2 Experiments", "REQ-3: ..."
    r"|(?:R|REQ-?)\d{1,2}(?:\.\d{1,2})*[.:)]?\s"
    r"|\u00a7\s?\d{1,2}(?:\.\d{1,2})*[.:)]?\s"  # a section sign: "§4 Not yet"
    # a deck's or a form's own numbering: "Slide 6 — Not yet", "Step 2: Hypotheses"
    r"|(?:[Ss]lide|[Ss]ection|[Ss]tep|[Pp]age|SLIDE|STEP)\s?#?\d{1,2}\s*(?:[\u2014\u2013:.)-]\s*|\s(?=[A-Z]))"
    # a memo's appendix: "Appendix 2 — why are copy_ and to there?", "Annex B: not yet"
    r"|(?:[Aa]ppendix|APPENDIX|[Aa]nnex)\s?(?:\d{1,2}|[A-H])\s*[\u2014\u2013:.)-]\s*"
    rf"|{THREAD_POST}\s|{TIME_STAMP}(?=[\s*_\]])|{BRACKET_TAG}(?=\s)|Q\d{{0,2}}\s*(?:[:.)]|\s[\u2014\u2013-])\s)+"
)
_HYPOTHESIS_START = re.compile(
    rf"^\W*(?:(?:h|hyp(?:othesis)?\.?\s*)\d\b|{SUBSCRIPT % '[a-d1-9]'}"
    rf"|(?:{HYPOTHESIS_NAMES})\s*#?\s*(?:[1-9]|[a-d](?=\s*[:.)\u2014\u2013-]))\b)",
    re.IGNORECASE,
)


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


# A lead alone on its line, misspelt ("experimnts", "Hypothses:"): one word, read as the
# part whose name it nearly spells (rapidfuzz's ratio, as field labels are matched).
_ONE_WORD = re.compile(r"^([A-Za-z]{6,})\s*:?\s*$")
_LEAD_NAMES = {
    "hypotheses": "hypotheses",
    "hypothesis": "hypotheses",
    "experiments": "experiments",
    "experiment": "experiments",
    "contrast": "contrast",
    "stretch": "stretch",
}
_NEAR = 85


def _misspelt_lead(plain: str) -> str | None:
    m = _ONE_WORD.match(plain)
    if m is None:
        return None
    hit = process.extractOne(m.group(1).lower(), _LEAD_NAMES.keys(), scorer=fuzz.ratio)
    return _LEAD_NAMES[hit[0]] if hit is not None and hit[1] >= _NEAR else None


def undecorated(text: str) -> str:
    """A line without the marks and enumerators before its words ("5.1 ", "- [ ] ")."""
    return _DECOR.sub("", text).strip()


_TAGGED_LEAD = re.compile(r"^[A-Za-z]+(?:\s[A-Za-z]+)?\s*\(([^()]{3,30})\)\s*[.:\u2014\u2013-]\s*")


# A line that is all a quotation, the course's prompt kept in the file: it asks, it holds
# no answer ('## "2. One experiment that would confirm or reject each hypothesis."').
_QUOTED_PROMPT = re.compile(
    r'^[\s#>*_-]*(?:\d{1,2}[.)]\s*)?["\u201c][^"\u201c\u201d]{3,160}["\u201d][\s*_]*$'
)


def section_of(text: str) -> tuple[str, str] | None:
    """The part a line opens, and the rest of the line after its lead words."""
    plain = _DECOR.sub("", text).strip()
    m = _section_leads().match(plain)
    if m is None and (misspelt := _misspelt_lead(plain)) is not None:
        return misspelt, ""
    if m is None:
        # a lead of one's own that names its part in brackets: "Remark (not yet). The ..."
        tagged = _TAGGED_LEAD.match(plain)
        inner = section_of(tagged.group(1)) if tagged else None
        if tagged is None or inner is None or inner[1]:
            return None
        return inner[0], plain[tagged.end() :].strip(" *_")
    name = next(n for n, g in m.groupdict().items() if g is not None)
    rest = plain[m.end() :]
    if _QUOTED_PROMPT.match(text):
        return name, ""  # the course's prompt quoted: '"Two hypotheses for why ... present."'
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
