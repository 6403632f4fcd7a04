"""Hypotheses however a report lays them out, as units of text.

A "Hypotheses" part's items or paragraphs; a paragraph that gives several in turn ("One
possibility is ... Another is ..."), or on each side of ", or" or ";"; causes side by side
over their tests side by side; a table with a hypothesis column and an experiment column;
and, in a report that gives them no heading, labelled paragraphs ("(a) dtype: ..."), a
paragraph that counts its causes ("two likely explanations: ...", "my first hypothesis is
... My second ..."), or an either/or sentence.
"""

from __future__ import annotations

import re

from grader.checks.experiment_text import (
    _NEXT_SENTENCE,
    SHARED_TESTS_LEAD,
    _is_test_unit,
    is_test,
    split_test,
)
from grader.checks.hypothesis_refs import cause_of
from grader.report.document import Line
from grader.report.model import Report
from grader.report.sections import CONTINUES
from grader.report.units import Unit, marker_of, split_units


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
    name: re.compile(r"(?<=[.!?;])\s+(?=" + pattern.pattern + ")", re.IGNORECASE)
    for name, pattern in CONTINUES.items()
}
# "either fp32 tensors being cast to bf16, or CPU->GPU transfers of the inputs"
_OR_ELSE = re.compile(r"[,;]\s*or\s+(?:else\s+)?(?=\w)", re.IGNORECASE)
_AND_ALSO = re.compile(
    r"[,;]\s*(?:and\s+)?(?:separately|also|additionally|independently|plus)\s*,?\s+(?=\w)", re.I
)


def _alternatives(unit: Unit, part: str = "hypotheses") -> list[Unit]:
    """A paragraph that gives several hypotheses (or tests) in turn ("One possibility is ...
    Another is ...", "The first can be tested by ... The second ..."), cut where each new
    one starts."""
    if spoken := _spoken_units(unit, part):
        return spoken
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
    joint = _OR_ELSE if _OR_ELSE.search(unit.text) else _AND_ALSO
    if part == "hypotheses" and len(pieces) == 1 and joint.search(unit.text):
        # "Hypotheses: dtype cast, or cpu->gpu copy.": a cause on each side of ", or"; "the
        # logits are pulled to the host, and separately the mask is cast": of ", and also"
        halves = [h for h in joint.split(unit.text) if h.strip()]
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
    blocks = _free_blocks(report)
    out = [
        unit
        for block in blocks
        if marker_of(block[0].text) is not None
        for unit in split_units(tuple(block), "", block[0].number)
    ]
    if len(out) >= 2:
        return out
    # "1) The mask lives in fp32. To test this, ..." / "2) The sampler ...": the items of one
    # list, each naming a cause
    lists: dict[int, tuple[bool, list[Unit]]] = {}
    for block in blocks:
        first = block[0]
        if first.kind == "item" and first.first and first.level == 1:
            text = "\n".join(ln.text for ln in block)
            _, units = lists.setdefault(first.list_id, (first.ordered, []))
            units.append(Unit(text, first.number, None, True))
    for numbered, units in lists.values():
        claims_tests = [split_test(u.text) for u in units]
        causes = [cause_of(claim) for claim, _ in claims_tests]
        if len(units) < 2 or sum(map(bool, causes)) < 2:
            continue
        # a bulleted list counts only when each item carries its own test: "- maybe the LM
        # head is fp32 -> check param.dtype ...", "- maybe the prompt lives on the CPU -> ..."
        tests = [test for (_, test), c in zip(claims_tests, causes, strict=True) if c]
        if numbered or all(tests):
            return units
    return []


_EITHER = re.compile(r"\b(?:either|guess|suspect|could be|might be|probably)\b[:,]?\s+(?=\S)", re.I)


_SAYS_HOW_MANY = re.compile(
    r"\b(?:two|2|a couple of|several) (?:\w+ ){0,2}(?:explanations?|hypothes[ie]s|causes?|reasons?|"
    r"possibilit(?:y|ies)|guess(?:es)?|suspects?|candidates?|theor(?:y|ies)|ideas|stories|"
    r"scenarios|mistakes|mechanisms|sources|culprits)\b",
    re.I,
)
_COMMA_NEXT = re.compile(r",\s*(?=(?:and\s+)?(?:the\s+)?(?:second|another|other one)\b)", re.I)
# Causes marked inline after the count: "ok so two ideas. 1) the mask ... 2) something ..."
_INLINE_NUMBER = re.compile(r"(?:^|(?<=\s))(?=\(?[1-9]\)\s)")


_FIRST_NAMED = re.compile(
    r"\b(?:my|our|the) first (?:hypothes[ie]s|guess|theory|explanation|suspect|idea|candidate)\b",
    re.I,
)


# Causes numbered aloud, as dictated answers give them: "hypothesis one the mask is ...
# hypothesis two the ids are ...", "Why the copies: one, the mask ...; two, the ids ..."
_SPOKEN_NUMBER = re.compile(
    r"\b(?:hypothesis|theory|guess|cause|reason|suspect)\s+(one|two|three)\b[:,.]?\s*"
    r"|(?:^|(?<=[:;.\n]))\s*(one|two|three)\s*[,:]\s+"
    # what follows a lead ("hypotheses: one a float32 cast ..., two inputs created ..."), the
    # numbers in their order (see _spoken_units)
    r"|(?:^|(?<=[,;]))\s*(one|two|three)\b[.]?\s+(?!of\b|is\b|or\b|more\b|thing\b|way\b)",
    re.I,
)
_SPOKEN = {"one": "1", "two": "2", "three": "3"}


def _spoken_units(para: Unit, part: str = "hypotheses") -> list[Unit]:
    """The causes (or tests) of ``para`` numbered aloud, one unit each; [] when it holds no
    such numbering of two or more."""
    marks = list(_SPOKEN_NUMBER.finditer(para.text))
    said = [(m.group(m.lastindex or 1) or "").lower() for m in marks]
    if len(marks) < 2 or said != ["one", "two", "three"][: len(said)]:
        return []  # "one ..., two ...", in order, or it is no numbering
    ends = [m.start() for m in marks[1:]] + [len(para.text)]
    units = [
        Unit(para.text[m.end() : end].strip(" ;,"), para.line, _SPOKEN[number], False)
        for m, end, number in zip(marks, ends, said, strict=True)
    ]
    if part == "experiments":
        return units if all(is_test(u.text) for u in units) else []
    if sum(1 for u in units if cause_of(u.text)) < 2:
        return []
    # "... two, the ids are made on the CPU. For one I'd log ...; for two I'd ...": the tests
    # after the last cause are a unit of their own
    last, *after = _NEXT_SENTENCE.split(units[-1].text, maxsplit=1)
    if after and _is_test_unit(Unit(after[0], para.line, None, False)):
        units[-1] = units[-1]._replace(text=last)
        units.append(Unit(after[0], para.line, None, False))
    return units


def _counted_paragraph(report: Report) -> list[Unit]:
    """ "I think there are two likely explanations for the copies. One is that ... The
    other is that ...": a paragraph that says it gives several causes, cut where each
    starts."""
    for para in _free_paragraphs(report):
        aloud = _spoken_units(para)
        if aloud:
            return aloud
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
        # "two hypotheses for the copies, first one is a dtype mismatch ..., second is ...":
        # the count's causes set apart by commas
        spoken = [p.strip() for p in _COMMA_NEXT.split(rest) if p.strip()]
        if len(spoken) >= 2 and all(cause_of(p) for p in spoken[-2:]):
            return [Unit(p, para.line, None, False) for p in spoken if cause_of(p)]
        # "Two candidate explanations:" over lines marked (1), (2): one unit per marked line
        offset = para.text[: cue.end()].count("\n")
        marked = [
            Unit(ln.strip(), para.line + offset + i, marker_of(ln), False)
            for i, ln in enumerate(rest.split("\n"))
            if marker_of(ln.strip())
        ]
        if len(marked) >= 2:
            return marked
        inline = [p.strip() for p in _INLINE_NUMBER.split(rest) if p.strip()]
        if len(inline) >= 2 and all(marker_of(p) for p in inline[-2:]):
            return [Unit(p, para.line, marker_of(p), False) for p in inline if marker_of(p)]
    return []


def _either_or(report: Report) -> list[Unit]:
    """ "As for why they're there, I'd guess either the inputs are fp32 and get cast (check
    the dtype ...), or the mask is built on the CPU (look for Memcpy HtoD)": the causes a
    sentence of prose sets side by side, each with the test in its parentheses."""
    for para in _free_paragraphs(report):
        for m in _EITHER.finditer(para.text):
            rest = para.text[m.end() :]
            first, *after = _NEXT_SENTENCE.split(rest, maxsplit=1)
            pieces = _OR_ELSE.split(first)
            if len(pieces) >= 2 and all(cause_of(p) for p in pieces):
                # "... or from moving the input. To test: check the dtype, and check the
                # device.": the sentence of tests after them is written with the last
                test = _NEXT_SENTENCE.split(after[0], maxsplit=1)[0] if after else ""
                about = cause_of(test)
                ours = about is None or about == cause_of(pieces[-1])
                if test and is_test(test) and (ours or SHARED_TESTS_LEAD.match(test)):
                    pieces[-1] = f"{pieces[-1].strip()}\n{test}"
                return [Unit(p.strip(), para.line, None, False) for p in pieces]
    return []
