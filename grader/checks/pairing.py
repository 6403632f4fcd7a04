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
from typing import NamedTuple

from grader.checks.experiment_text import (
    _NEXT_SENTENCE,
    _PREDICTION,
    SHARED_TESTS_LEAD,
    _is_test_unit,
    is_test,
    split_test,
)
from grader.checks.hypothesis_layouts import (
    _alternatives,
    _counted_paragraph,
    _either_or,
    _free_paragraphs,
    _loose_units,
    _table_pairs,
    _units,
)
from grader.checks.hypothesis_refs import _ORDINAL_LEAD, cause_of, label_number, references
from grader.report.model import Report
from grader.report.units import Unit


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


def hypothesis_units(report: Report) -> list[Unit]:
    """The units of the hypotheses part, each hypothesis the learner set apart, whether or
    not a cause is read in it; tests among them left out."""
    return [
        u
        for whole in _units(report, "hypotheses")
        for u in _alternatives(whole)
        if not _is_test_unit(u) and not _PREDICTION.match(u.text)
    ]


# A line under a hypothesis that opens with the hypotheses it tests: "For H1, the re-profile
# ...; for H2, ...", "The experiment for 1 is ..."
_TESTS_LEAD = re.compile(
    r"^\W*(?:(?:the )?(?:test|check|experiment)s? )?for (?:h\s?[1-9]|[1-9]\b|the first\b"
    r"|(?-i:[A-D])\s*[:,])",  # "For A: check the dtypes ..."
    re.I,
)


def _hypothesis_part(report: Report) -> list[Unit]:
    """The units of the hypotheses part, a hypothesis's trailing line of tests for several
    hypotheses set apart as a unit of its own."""
    out: list[Unit] = []
    for unit in _units(report, "hypotheses"):
        lines = unit.text.split("\n")
        cut = next(
            (
                j
                for j in range(1, len(lines))
                if _TESTS_LEAD.match(lines[j]) and len(references("\n".join(lines[j:]))) >= 2
            ),
            None,
        )
        if cut is None:
            out.append(unit)
            continue
        out.append(unit._replace(text="\n".join(lines[:cut])))
        out.append(Unit("\n".join(lines[cut:]), unit.line + cut, None, unit.from_list))
    return out


def hypotheses(report: Report) -> list[Hypothesis]:
    """Every hypothesis that names a cause of the copies, with the test written with it."""
    return report.remember("hypotheses", lambda: _hypotheses(report))


def _hypotheses(report: Report) -> list[Hypothesis]:
    found: list[tuple[Unit, str, str]] = []
    rows = _table_pairs(report)
    in_tables = {unit.line for unit, _ in rows}
    for unit in [u for whole in _hypothesis_part(report) for u in _alternatives(whole)]:
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


def tests(report: Report) -> list[Test]:
    """The experiments written apart from their hypotheses ("Experiments", "Test H2: ...",
    "E2 - ..." below H2)."""
    out = []
    units = [
        piece
        for u in _hypothesis_part(report)
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
                line = unit.line + unit.text[: max(0, unit.text.find(text))].count("\n")
                out.append(Test(line, text, label_number(unit.marker), refs))
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


_AND = re.compile(r",?\s+and\s+|,\s+", re.I)


def _shared_tests(test: str, n: int) -> list[str]:
    """The tests of all ``n`` hypotheses written after the last one, under a lead for all of
    them ("Tests:", "To test:"), set apart by semicolons, or in parallel clauses that open
    with the same verb ("To test: check the dtype, and check the device."); [] when the
    test is not that."""
    lead = SHARED_TESTS_LEAD.match(test)
    if lead is None or n < 2:
        return []
    rest = test[lead.end() :]
    pieces = [p.strip() for p in rest.split(";") if p.strip()]
    if len(pieces) != n:
        pieces = [p.strip(" .") for p in _AND.split(rest) if p.strip(" .")]
        verbs = {p.split()[0].lower() for p in pieces}
        if len(pieces) != n or len(verbs) != 1:
            return []
    if not all(is_test(p) for p in pieces):
        return []
    return pieces


_ORDINAL_JOINT = re.compile(r";|,\s*and\s+(?=(?:for\s+)?the\s+(?:second|third|other)\b)", re.I)
# A sentence that opens with the number of the hypothesis it tests: "The experiment for 1
# is ...", "For 2, I would look for ..."
_NUMBER_LEAD = re.compile(r"^\W*(?:the (?:test|check|experiment) )?for (?:h\s?)?[1-9]\b", re.I)


def _test_pieces_by_reference(test: str, n: int) -> list[str]:
    # "To test the first I'd ...; to test the second I'd ...": sentences, or halves of one
    pieces = [
        q.strip()
        for p in _NEXT_SENTENCE.split(test)
        for q in _ORDINAL_JOINT.split(p)  # "...; the second by ...", ", and the second by"
        if q.strip()
    ]
    led = [
        p
        for p in pieces
        if (_ORDINAL_LEAD.match(p) or _NUMBER_LEAD.match(p)) and 0 < references(p)[0] <= n
    ]
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
