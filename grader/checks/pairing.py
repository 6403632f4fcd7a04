"""Hypotheses and the experiments that test them, however a report lays them out.

Learners pair a hypothesis with its test in many layouts, all of which say the same thing:

- a "Hypotheses" part and an "Experiments" part, matched by label (H1/E1, (a), (i), 1.),
  by a reference ("Experiment for H2", "Test H1:", "for the second one"), by the cause a
  test probes, or else by order;
- the test written with its hypothesis: after an arrow ("fp32 mask cast -> log dtypes"),
  on a labelled line below it ("E1 -", "Test:", "-> check:"), or in a sentence of its own
  ("To test it, I would ...", "This can be checked by ...");
- a table with a hypothesis column and an experiment column;
- one run that says which outcome confirms each ("an fp32 input confirms H1, a CPU tensor
  confirms H2").

Every label is read as a number: ``H2``, ``(b)``, ``(ii)``, ``2.`` and ``E2`` are all 2.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from grader.report.document import Line
from grader.report.language import _raw
from grader.report.model import Report
from grader.report.patterns import Pattern
from grader.report.sections import (
    _HYPOTHESIS_START,
    CONTINUES,
    FOR_LETTER,
    FOR_REF,
    Unit,
    _marker,
    split_units,
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
    r"\b(?:test(?:ing)?|for|check(?:ing)?)\s+\d\.([1-9])\b(?!\s?(?:ms|gib|gb|%))|"  # "To test 1.2:"
    r"\b(?:h|hyp(?:othesis)?\.?\s*|e|exp(?:eriment)?\.?\s*|test\s+)([1-9]|one|two|three)\b"
    r"|\b(?:theory|suspect|idea|guess|cause|possibility|candidate|check|experiment|model)\s*#?\s*"
    r"([1-9]|[a-d](?=\s*[:.)\u2014\u2013-]))\b"  # "Verify idea 1:", "Experiment A:"
    r"|\((i{1,3}|iv|[a-d1-9])\)|\b(?:hyp(?:othesis)?|test|exp(?:eriment)?)\.?\s+([a-d])\b(?=\s*[:.)\u2014\u2013-])"
    r"|\bthe (first|second|third) (?:one|hypothesis|theory|guess|cause|suspect)\b"
    r"|\bfor the (first|second|third)\b(?! (?:time|step|token|run|layer|call))"
    rf"|{FOR_LETTER}(?=\s*[,:])"  # "for A, check the dtypes ..."
    rf"|{FOR_REF.pattern}",  # "... (for 2)"
    re.IGNORECASE,
)


_FOR_ORDINAL = re.compile(r"\W*(?:for|to (?:test|check)|testing|checking)\s", re.IGNORECASE)
_ORDINAL_LEAD = re.compile(
    r"^\W*(?:(?:for|to (?:test|check)|testing|checking)\s+)?(?:the\s+)?(first|second|third)\b",
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


class Hypothesis(NamedTuple):
    number: int  # 1-based, in order
    line: int
    text: str  # the claim, without the test written with it
    cause: str | None
    label: int | None  # H1, (a), (i), 1. -> 1
    test: str  # the test written with it, or ""
    test_line: int  # the line that test starts on


class Test(NamedTuple):
    line: int
    text: str
    label: int | None
    refs: tuple[int, ...]  # hypotheses it names


# Where a hypothesis's own test starts: an arrow or a label on a new line, an arrow before
# an action, or a sentence that leads into a test ("To test it, ...", "Check: ...").
_LINE_LEAD = re.compile(
    r"\n\s*(?:[-*+]\s+)?(?=(?:->|→|=>|⇒)|(?:e\d|exp\.?\s*\d|test|check|experiment|verify|"
    r"confirm|falsif\w*|how to (?:test|check))\b[^:\n]{0,24}[:\u2014\u2013-]"
    r"|(?:test|check|experiment)\.\s)",  # a lead with a full stop: "*Test.* Look for ..."
    re.IGNORECASE,
)
# also a table cell's edge, " | ", and an arrow back to the claim: "⇐ test: log x.dtype"
_ARROW = re.compile(r"\s(?:->|→|=>|⇒|⇐|←|<-(?!>)|\|)\s*")
_SENTENCE_START = re.compile(r"(?:[.;!?)]|\s[\u2014\u2013-])\s+|:\s+(?=[A-Z])|\s\((?=\w)")


@cache
def _test_lead() -> Pattern:
    return Pattern.of(_raw()["test_lead"])


@cache
def _test_probe() -> Pattern:
    return Pattern.of(_raw()["test_probe"])


@cache
def _test_change() -> Pattern:
    return Pattern.of(_raw()["test_change"])


def split_test(text: str) -> tuple[str, str]:
    """A hypothesis unit cut into its claim and the test written with it (maybe "")."""
    m = _LINE_LEAD.search(text)
    cut = m.end() if m else len(text)
    for a in _ARROW.finditer(text, 0, cut):
        head = " ".join(text[a.end() :].split("\n")[0].split()[:3])  # "-> dtype hooks on ..."
        probe = _test_probe().search(head) or _test_lead().match(head)
        if probe or (m is None and _test_change().search(head)):
            cut = a.start()
            break
    for s in _SENTENCE_START.finditer(text, 0, cut):
        rest = text[s.end() :]
        after_dash = text[s.start() : s.end()].strip() in ("—", "–", "-", "(") or rest[:1] in "—–"
        rest = rest.lstrip(" \u2014\u2013-")
        if _test_lead().match(rest) or (after_dash and _opens_with_probe(rest)):
            cut = s.start() + 1
            break
    return text[:cut].strip(), text[cut:].strip(" \n-→>=⇒")


def _opens_with_probe(text: str) -> bool:
    """ "check the cache dtype at allocation, ..." after a dash: the hypothesis's test."""
    first = " ".join(text.split()[:2])  # "check ...", "look for ..."
    return bool(_test_probe().match(first.lower()))


# "Not sure how to test this one yet": a test not given.
_NO_TEST = re.compile(
    r"\b(?:not sure|unsure|no idea|don.t know|do not know|can.t think|cannot think|tbd|todo)\b",
    re.IGNORECASE,
)


# A look at nothing in particular cannot confirm or reject a cause: "look at it more in
# the profiler", "check the KV cache code", "run it again and see if the numbers are the
# same" (the same run, nothing changed or looked for).
_VAGUE = re.compile(
    r"^\W*(?:\d[.)]\s*)?(?:just |simply )?(?:look|check|dig|investigate|inspect)\w*(?: at| into)?"
    r" (?:it|this|that|them|the (?:[\w-]+ ){0,2}code)(?: (?:more|again|further|closer|deeper|"
    r"in (?:the )?(?:profiler|trace|code)))*\W*$"
    r"|^\W*(?:\d[.)]\s*)?(?:re-?)?(?:run|profile)\w* (?:it|this|the (?:model|run|same \w+)) again"
    r"(?: and (?:see|check|compare) (?:if|whether) (?:the )?(?:numbers|times?|results?) "
    r"(?:are|is|stay) (?:the )?(?:same|similar|stable))?\W*$",
    re.IGNORECASE,
)


def is_test(text: str) -> bool:
    """An experiment: something done (logged, printed, hooked, traced, compared ...), said
    in more than a couple of words, that looks at something in particular."""
    if len(re.findall(r"[A-Za-z]{2,}", text)) < 3 or _NO_TEST.search(text[:60]):
        return False
    if _VAGUE.match(text.strip()):
        return False
    return bool(_test_probe().search(text) or _test_change().search(text) or _DECIDES.search(text))


# Something done, and the outcome that decides: "Do the sampling on the GPU -> if the DtoH
# copies disappear, hypothesis 2 is right" (criteria.md: an experiment that would confirm or
# reject it).
_DECIDES = re.compile(
    r"\bif\b[^.;]{3,80}?\b(?:confirm\w*|reject\w*|rules? (?:it |this |that )?out|"
    r"(?:is|was|were|are) (?:right|wrong|correct|true|false|out|the cause|it))\b"
    r"|\b(?:falsified|refuted|rejected|confirmed|ruled out) (?:if|when|unless)\b",
    re.IGNORECASE,
)


def hypothesis_units(report: Report) -> list[Unit]:
    """The units of the hypotheses part, each hypothesis the learner set apart, whether or
    not a cause is read in it; tests among them left out."""
    return [
        u
        for whole in _units(report, "hypotheses")
        for u in _alternatives(whole)
        if not _is_test_unit(u) and not _PREDICTION.match(u.text)
    ]


def _units(report: Report, section: str) -> list[Unit]:
    return [u for sec in report.section(section) for u in sec.units()]


_HYP_HEADER = re.compile(r"hypothes|cause|suspect|theor|guess|why|explanation|reason", re.I)
_TEST_HEADER = re.compile(r"experiment|test|check|verif|confirm|how|probe|evidence", re.I)


def _table_pairs(report: Report) -> list[tuple[Unit, str]]:
    """Rows of a table with a hypothesis column, each with its experiment cell."""
    out: list[tuple[Unit, str]] = []
    header: tuple[str, ...] = ()
    h_col = t_col = None
    previous_kind = ""
    for ln in report.lines:
        new_table = ln.kind == "table" and previous_kind != "table"
        previous_kind = ln.kind
        if ln.kind != "table":
            continue
        if new_table:  # a table's first row is its header
            header = ln.cells
            h_col = next((i for i, c in enumerate(header) if _HYP_HEADER.search(c)), None)
            t_col = next(
                (i for i, c in enumerate(header) if i != h_col and _TEST_HEADER.search(c)), None
            )
            continue
        if h_col is None or h_col >= len(ln.cells):
            continue
        claim = ln.cells[h_col]
        label = next((c for c in ln.cells[:h_col] if re.fullmatch(r"\W*h?\d\W*", c, re.I)), "")
        test = ln.cells[t_col] if t_col is not None and t_col < len(ln.cells) else ""
        out.append((Unit(f"{label} {claim}".strip(), ln.number, None, False), test))
    return out


_NEXT = {
    name: re.compile(r"(?<=[.!?])\s+(?=" + pattern.pattern + ")", re.IGNORECASE)
    for name, pattern in CONTINUES.items()
}
# "either fp32 tensors being cast to bf16, or CPU->GPU transfers of the inputs"
_OR_ELSE = re.compile(r"[,;]\s*or\s+(?:else\s+)?(?=\w)", re.IGNORECASE)


def _alternatives(unit: Unit, part: str = "hypotheses") -> list[Unit]:
    """A paragraph that gives several hypotheses (or tests) in turn ("One possibility is ...
    Another is ...", "The first can be tested by ... The second ..."), cut where each new
    one starts."""
    pieces = _NEXT[part].split(unit.text)
    if part == "hypotheses" and len(pieces) == 1 and re.match(r"\W*either\b", unit.text, re.I):
        # "Either ..., or .... For the first I'd ... For the second I'd ...": the tests
        # that follow the sentence are a unit of their own, not part of the last cause
        first, *after = _NEXT_SENTENCE.split(unit.text, maxsplit=1)
        tail = after if after and _is_test_unit(Unit(after[0], unit.line, None, False)) else []
        text = first if tail else unit.text
        pieces = _OR_ELSE.split(text)
        if len(pieces) == 1:  # "either a dtype cast (fp32 mask -> bf16) or inputs on the CPU"
            halves = re.split(r"\s+or\s+", text)
            if len(halves) >= 2 and len({cause_of(h) for h in halves} - {None}) == len(halves):
                pieces = halves
        pieces = [*pieces, *tail] if len(pieces) >= 2 else [unit.text]
    if part == "hypotheses" and len(pieces) == 1 and _OR_ELSE.search(unit.text):
        # "Hypotheses: dtype cast, or cpu->gpu copy.": a cause on each side of ", or"
        halves = [h for h in _OR_ELSE.split(unit.text) if h.strip()]
        causes = [cause_of(split_test(h)[0]) for h in halves]
        if len(halves) >= 2 and all(causes) and len(set(causes)) == len(causes):
            pieces = halves
    if part == "hypotheses" and len(pieces) == 1 and ";" in unit.text:
        # "weights streamed to the GPU every call; activations converted fp32 <-> bf16":
        # one cause on each side of the semicolon
        halves = [h for h in unit.text.split(";") if h.strip()]
        causes = [cause_of(h) for h in halves]
        if len(halves) >= 2 and all(causes) and len(set(causes)) == len(causes):
            pieces = halves
        else:
            pieces = _parallel(unit.text) or pieces
    if part == "hypotheses" and len(pieces) == 1 and unit.text.split("\n")[0].count(",") == 1:
        # "fp32->bf16 casts somewhere, cpu->gpu transfers of the inputs": two short causes
        halves = [h for h in unit.text.split("\n")[0].split(",") if h.strip()]
        causes = [cause_of(h) for h in halves]
        if (
            len(halves) == 2
            and all(len(h.split()) <= 8 for h in halves)
            and all(causes)
            and causes[0] != causes[1]
        ):
            rest = unit.text.split("\n", 1)[1:]  # a test on the lines below stays with it
            pieces = [halves[0], "\n".join([halves[1], *rest])]
    if len(pieces) < 2:
        return [unit]
    out: list[Unit] = []
    offset = 0
    for piece in pieces:
        line = unit.line + unit.text[:offset].count("\n")
        out.append(Unit(piece.strip(), line, unit.marker if not out else None, unit.from_list))
        at = unit.text.find(piece, offset)
        offset = at + len(piece) if at >= 0 else offset  # a rebuilt piece keeps the line
    return out


_TEST_LINE_LABEL = re.compile(r"^[^:\n]{1,24}:\s*")


def _parallel(text: str) -> list[str]:
    """ "Hyp: fp32->bf16 casts; CPU->GPU input copies" over "Test: check dtypes ...; look
    for HtoD memcpy ...": causes side by side on one line and their tests side by side on
    the line below, paired in order; [] when the layout is not that."""
    claim, test = split_test(text)
    halves = [h.strip() for h in claim.split(";") if h.strip()]
    causes = [cause_of(h) for h in halves]
    if len(halves) < 2 or not all(causes) or len(set(causes)) < len(causes):
        return []
    label = _TEST_LINE_LABEL.match(test)
    lead = label.group(0) if label else "Test: "
    checks = [t.strip() for t in test[label.end() if label else 0 :].split(";") if t.strip()]
    if len(checks) != len(halves):
        return []
    return [f"{h}\n{lead}{t}" for h, t in zip(halves, checks, strict=True)]


def _free_blocks(report: Report) -> list[list[Line]]:
    """The paragraphs and items outside every field and part, each as its lines."""
    taken = {at for f in report.fields.values() for at in f.lines}
    taken |= {
        (ln.number, ln.block)
        for secs in report.sections.values()
        for sec in secs
        for ln in (sec.lead, *sec.lines)
    }
    blocks: dict[int, list[Line]] = {}
    for ln in report.lines:
        if (ln.number, ln.block) not in taken and ln.kind in ("paragraph", "item"):
            blocks.setdefault(ln.block, []).append(ln)
    return list(blocks.values())


def _free_paragraphs(report: Report) -> list[Unit]:
    return [
        Unit("\n".join(ln.text for ln in block), block[0].number, None, False)
        for block in _free_blocks(report)
    ]


def _loose_units(report: Report) -> list[Unit]:
    """Labelled paragraphs or items outside every field and part ("(a) dtype: ...", "(b)
    device: ...") in a report that gives its hypotheses no heading."""
    out = [
        unit
        for block in _free_blocks(report)
        if _marker(block[0].text) is not None
        for unit in split_units(tuple(block), "", block[0].number)
    ]
    return out if len(out) >= 2 else []


# Where a sentence ends and the next begins with a capital, in a hypothesis or a test.
_NEXT_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_EITHER = re.compile(r"\b(?:either|guess|suspect|could be|might be|probably)\b[:,]?\s+(?=\S)", re.I)


_SAYS_HOW_MANY = re.compile(
    r"\b(?:two|2|a couple of|several) (?:\w+ )?(?:explanations|hypotheses|causes|reasons|"
    r"possibilities|guesses|suspects|candidates|theories)\b",
    re.I,
)


_FIRST_NAMED = re.compile(
    r"\b(?:my|our|the) first (?:hypothes[ie]s|guess|theory|explanation|suspect|idea|candidate)\b",
    re.I,
)


def _counted_paragraph(report: Report) -> list[Unit]:
    """ "I think there are two likely explanations for the copies. One is that ... The
    other is that ...": a paragraph that says it gives several causes, cut where each
    starts."""
    for para in _free_paragraphs(report):
        first = _FIRST_NAMED.search(para.text)
        if first is not None:  # "For why they exist, my first hypothesis is dtype: ..."
            units = _alternatives(Unit(para.text[first.start() :], para.line, None, False))
            if len(units) >= 2:
                return units
        cue = _SAYS_HOW_MANY.search(para.text)
        if cue is None:
            continue
        rest = para.text[cue.end() :]
        rest = rest[rest.find(". ") + 2 :] if ". " in rest[:80] else rest
        units = _alternatives(Unit(rest, para.line, None, False))
        if len(units) >= 2:
            return units
        # "Two candidate explanations:" over lines marked (1), (2): one unit per marked line
        offset = para.text[: cue.end()].count("\n")
        marked = [
            Unit(ln.strip(), para.line + offset + i, _marker(ln), False)
            for i, ln in enumerate(rest.split("\n"))
            if _marker(ln.strip())
        ]
        if len(marked) >= 2:
            return marked
    return []


def _either_or(report: Report) -> list[Unit]:
    """ "As for why they're there, I'd guess either the inputs are fp32 and get cast (check
    the dtype ...), or the mask is built on the CPU (look for Memcpy HtoD)": the causes a
    sentence of prose sets side by side, each with the test in its parentheses."""
    for para in _free_paragraphs(report):
        for m in _EITHER.finditer(para.text):
            rest = para.text[m.end() :]
            pieces = _OR_ELSE.split(_NEXT_SENTENCE.split(rest, maxsplit=1)[0])
            if len(pieces) >= 2 and all(cause_of(p) for p in pieces):
                return [Unit(p.strip(), para.line, None, False) for p in pieces]
    return []


def hypotheses(report: Report) -> list[Hypothesis]:
    """Every hypothesis that names a cause of the copies, with the test written with it."""
    return report.remember("hypotheses", lambda: _hypotheses(report))


def _hypotheses(report: Report) -> list[Hypothesis]:
    found: list[tuple[Unit, str, str]] = []
    rows = _table_pairs(report)
    in_tables = {unit.line for unit, _ in rows}
    for unit in [u for whole in _units(report, "hypotheses") for u in _alternatives(whole)]:
        if unit.line in in_tables or _is_test_unit(unit) or _PREDICTION.match(unit.text):
            continue
        claim, test = split_test(unit.text)
        found.append((unit, claim, test))
    for unit, test in rows:
        found.append((unit, unit.text, test))
    if len(found) < 2:
        for unit in _loose_units(report) or _either_or(report) or _counted_paragraph(report):
            claim, test = split_test(unit.text)
            found.append((unit, claim, test))
    out: list[Hypothesis] = []
    for unit, claim, test in found:
        cause = cause_of(claim)
        if cause is None:
            continue
        label = label_number(unit.marker) or next(iter(references(claim[:12])), None)
        at = unit.text.find(test[:20]) if test else -1
        test_line = unit.line + (unit.text[:at].count("\n") if at > 0 else 0)
        out.append(Hypothesis(len(out) + 1, unit.line, claim, cause, label, test, test_line))
    return out


# A unit that is a test, labelled as one, among the hypotheses: "E1 - print dtypes ...".
_TEST_LABEL = re.compile(
    r"^\W*(?:e\d|exp(?:eriment)?\.?\s*\d|test|check|experiment|verify|falsif\w*)\b",
    re.IGNORECASE,
)
# What a hypothesis predicts, under it ("- Prediction: HtoD memcpy events coincide with
# copy_"): part of that hypothesis, not one of its own.
_ARROW_REF = re.compile(r"^\W*(?:->|→|=>|⇒)\s*(?:h\s*)?[A-Da-d1-9]\s*[:.)]")
# A line that names the hypothesis it decides: "-> confirms/kills H1", "rules out H2".
_DECIDES_REF = re.compile(
    r"^\W*(?:->|→|=>|⇒)\s*([A-Da-d1-9])\s*[:.)]|"  # "→ A: log the dtypes ...", "-> 2. ..."
    r"\b(?:test(?:ing)?|for|check(?:ing)?)\s+\d\.([1-9])\b(?!\s?(?:ms|gib|gb|%))|"  # "To test 1.2:"
    r"\b(?:confirm|kill|reject|rul\w* out|falsif|refut|disprov|settl)\w*(?:/\w+)?"
    r"\s+(?:h|hyp(?:othesis)?\.?\s*)[1-9]\b",
    re.IGNORECASE,
)
_PREDICTION = re.compile(r"^\W*(?:predictions?|predicts|expected|expectation|implies)\b", re.I)


def _is_test_unit(unit: Unit) -> bool:
    """Among the hypotheses, a test: labelled as one ("E1 - ..."), or one run that says
    which outcome confirms which hypothesis ("If ..., it's H1 and H2 is out")."""
    if _ARROW_REF.match(unit.text) and is_test(unit.text):
        return True  # "→ A: log dtype of kv cache at layer entry"
    if _TEST_LABEL.match(unit.text) or (_DECIDES_REF.search(unit.text) and is_test(unit.text)):
        return True  # "E1 - ...", "print dtypes at layer boundaries -> confirms/kills H1"
    if _HYPOTHESIS_START.match(unit.text) and "\n" not in unit.text:
        return False  # "H2: ... not the same cause as H1: the logits go back with .cpu()"
    # "First, a dtype mismatch: ... Second, ... Both are tested by the logging run: for the
    # first ...": hypotheses given in order, their test after them, is not a test alone
    first = _NEXT_SENTENCE.split(unit.text, maxsplit=1)[0]
    as_hypothesis = (_ORDINAL_LEAD.match(first) and not _FOR_ORDINAL.match(first)) or re.match(
        r"\W*either\b", first, re.IGNORECASE
    )  # "Either the inputs are fp32 ..., or ... For the first I'd ..."
    if (as_hypothesis or CONTINUES["hypotheses"].match(first)) and cause_of(first):
        return False  # "My second guess is a host/device hop: ... To separate them: ..."
    return len(references(unit.text)) >= 2 and is_test(unit.text)


def tests(report: Report) -> list[Test]:
    """The experiments written apart from their hypotheses ("Experiments", "Test H2: ...",
    "E2 - ..." below H2)."""
    out = []
    units = [
        piece
        for u in _units(report, "hypotheses")
        for piece in ([u] if _is_test_unit(u) else _alternatives(u)[1:])
        if _is_test_unit(piece)  # "Either ..., or .... For the first I'd ..."
    ]
    units += [
        piece for u in _units(report, "experiments") for piece in _alternatives(u, "experiments")
    ]
    # a paragraph under no heading that says which outcome confirms which hypothesis ("That
    # single run decides between them. If ..., it's H1 and H2 is out.")
    units += [u for u in _free_paragraphs(report) if references(u.text)]
    for unit in units:
        for text in _test_pieces(unit.text):
            if is_test(text):
                refs = tuple(references(text))
                out.append(Test(unit.line, text, label_number(unit.marker), refs))
    return out


_PIECE_CUT = re.compile(rf"\s+/\s+|{_NEXT_SENTENCE.pattern}|\n(?=\s*(?:->|→|=>|⇒))")


def _test_pieces(text: str) -> list[str]:
    """One unit that holds a test of each cause ("check dtypes ..., see if aten::to goes. /
    Look for Memcpy HtoD in the trace ..."): its pieces, when they probe different causes;
    else the unit whole."""
    pieces = [p for p in _PIECE_CUT.split(text) if p.strip()]
    # "check the dtype ... (for 1); look for HtoD ... (for 2)": each piece names its own
    by_ref = [p for p in text.split(";") if p.strip()]
    refs = [references(p) for p in by_ref]
    distinct = len(by_ref) >= 2 and len({r[0] for r in refs if len(r) == 1}) >= 2
    if distinct and all(len(r) == 1 and is_test(p) for p, r in zip(by_ref, refs, strict=True)):
        return by_ref
    if len(pieces) < 2:
        return [text]
    tests = [(p, cause) for p in pieces if (cause := cause_of(p)) and is_test(p)]
    if len({cause for _, cause in tests}) < 2:
        return [text]
    return [p for p, _ in tests]


class Pairing(NamedTuple):
    line: int
    text: str
    by_order: bool  # matched to its hypothesis only by position: a person may check


def tested(report: Report) -> dict[int, Pairing]:
    """Hypothesis number -> the experiment that tests it: written with it, or matched by
    label or reference, by the outcomes it names, by the cause it probes, or by order."""
    return report.remember("tested", lambda: _tested(report))


def _tested(report: Report) -> dict[int, Pairing]:
    hyps = hypotheses(report)
    covered: dict[int, Pairing] = {}
    if hyps and (shared := _shared_tests(hyps[-1].test, len(hyps))):
        # "H1 fp32 casts; H2 CPU uploads. Tests: dtype hooks; HtoD rows in the trace": one
        # test a hypothesis, in their order
        for h, piece in zip(hyps, shared, strict=True):
            covered[h.number] = Pairing(hyps[-1].test_line, piece, False)
    for h in hyps:
        # "To check the first I'd ... To check the second I'd ..." written after the second
        # hypothesis: each sentence goes to the one it names
        pieces = _test_pieces_by_reference(h.test, len(hyps))
        for piece in pieces:
            refs = references(piece)
            targets = [refs[0]] if len(pieces) > 1 else [h.number]
            if len(pieces) == 1 and len(refs) >= 2:  # "Both are tested by one run: for the
                targets = [r for r in refs if r <= len(hyps)]  # first, ...; for the second"
            if is_test(piece):
                for target in targets:
                    covered.setdefault(target, Pairing(h.test_line, piece, False))
    by_label = {h.label: h.number for h in hyps if h.label is not None}
    for t in tests(report):
        targets = [by_label.get(r, r) for r in t.refs if by_label.get(r, r) <= len(hyps)]
        if len(targets) < 2:
            targets += _by_outcome(t.text, hyps)
        if not targets and t.label is not None:
            targets = [by_label.get(t.label, t.label)]
        if not targets:
            cause = cause_of(t.text)
            targets = [h.number for h in hyps if h.cause == cause and h.number not in covered][:1]
        guessed = not targets
        if guessed:
            targets = [h.number for h in hyps if h.number not in covered][:1]
        for target in targets:
            if 1 <= target <= len(hyps):
                covered.setdefault(target, Pairing(t.line, t.text, guessed))
    return covered


_PLURAL_LEAD = re.compile(r"^\W*(?:tests|checks|experiments)\s*[:\u2014\u2013-]\s*", re.I)


def _shared_tests(test: str, n: int) -> list[str]:
    """The tests of all ``n`` hypotheses written after the last one, under a plural lead and
    set apart by semicolons; [] when the test is not that."""
    lead = _PLURAL_LEAD.match(test)
    if lead is None or n < 2:
        return []
    pieces = [p.strip() for p in test[lead.end() :].split(";") if p.strip()]
    if len(pieces) != n or not all(is_test(p) for p in pieces):
        return []
    return pieces


def _test_pieces_by_reference(test: str, n: int) -> list[str]:
    pieces = [p for p in _NEXT_SENTENCE.split(test) if p.strip()]
    led = [p for p in pieces if _ORDINAL_LEAD.match(p) and references(p)[0] <= n]
    if len(led) < 2:
        return [test] if test else []
    return led


_OUTCOME = re.compile(r"\b(?:confirm\w*|reject\w*|rule\w* out|means|points? to|proves?)\b|=>|→")


def _by_outcome(text: str, hyps: list[Hypothesis]) -> list[int]:
    """One run that says which outcome confirms each hypothesis: the hypotheses whose causes
    appear in clauses that state an outcome ("an fp32 input confirms the cast, a CPU tensor
    the transfer")."""
    if not _OUTCOME.search(text):
        return []
    causes = {cause_of(piece) for piece in re.split(r"[;,]|\bwhile\b|\bwhereas\b", text)}
    hits = [h.number for h in hyps if h.cause in causes]
    return hits if len({hyps[i - 1].cause for i in hits}) >= 2 else []
