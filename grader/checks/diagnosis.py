"""What limits the run: the diagnosis, judged against the class derived from the table."""

from __future__ import annotations

import re
from functools import cache

from grader.analyzer.classify import CLASSES
from grader.checks.attention import attention_proposal
from grader.checks.claims import find_claim, find_wrong_claim, movement_dismissed
from grader.checks.class_claims import claim_words, claims_class
from grader.checks.common import (
    Sentence,
    diagnosis_sentences,
    find_statement,
    parts,
    statements,
)
from grader.checks.counting import count
from grader.checks.experiments import experiment_targets
from grader.checks.partrefs import about_other_part, part_refs
from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.keyword_lists import is_keyword_list
from grader.report.language import (
    _raw,
    claim,
    diagnosis_kinds,
    has,
    negated,
)
from grader.report.model import Report

_CLASS_WORD = re.compile(r"[- ]bound\b", re.IGNORECASE)
EXPLAINED = {
    "movement-bound": "copies, casts or transfers as the problem to look at first",
    "overhead-bound": "launch / Python overhead, the GPU waiting on the CPU",
    "compute-bound": "the model math as the limit",
    "host-bound": "host work (tokenizer, data loading) as the limit",
    "communication-bound": "collective communication between devices as the limit",
}


@check("diagnosis-matches")
def diagnosis_matches(ctx: Context) -> Verdict:
    """The report's diagnosis matches the bottleneck the table shows.

    It says, or clearly implies, that the run is limited by the class the analyzer derives
    (Part A and C: the unexplained copies/casts/transfers are the problem to look at first;
    Part B: launch and orchestration overhead, the GPU waits on the CPU).  The class word
    itself is not needed.  Naming another class as the main limit fails, and so does a list
    of keywords or a question ("Overhead-bound? Compute-bound?") that commits to nothing.

    PASS (partA):
        Top CUDA time: matmul and attention are the math; copy_ + to are 35 ms of movement
        that should not be there, so they are the first thing to explain.

    FAIL (partA):
        Top CUDA time: matmul 38.4 ms, attention 31.7 ms. The GPU is busy doing math, so
        this request is compute-bound.

    PASS (partB):
        Top CPU / orchestration cost: the Python loop takes 38 ms of CPU against 15 ms of
        CUDA, so the GPU sits idle waiting for the next launch.

    FAIL (partB):
        Key terms: overhead, launches, Python loop, CUDA graphs, 240 calls, compute-bound.
    """
    hedge = _commits_to_none(ctx.report)
    if hedge is not None:
        return Verdict.no(
            Evidence(hedge.line.number, hedge.text),
            "names several classes, or everything, as the limit at once: which one is it?",
        )
    wrong = find_wrong_claim(ctx.report, ctx.expected, ctx.exercise.id)
    hit = find_statement(ctx.report, ctx.expected, ctx.exercise.id)
    named = outweighs(ctx.report, ctx.expected, ctx.exercise.id, wrong)
    if wrong is not None and named is not None:
        # "Math dominates, but ... Movement-bound until proven otherwise": the class named
        # outright is the verdict; the other reads as a description of the table.
        return Verdict.yes(
            Evidence(named.line.number, named.text),
            f"names {ctx.expected} outright, after '{wrong.text}'",
            review=True,
        )
    if wrong is not None:
        return Verdict.no(
            Evidence(wrong.line.number, wrong.text),
            f"names another class as the limit; the table is {ctx.expected}",
            review=hit is not None,  # it also says the right one: which does it mean?
        )
    denied = class_denied(ctx.report, ctx.expected, ctx.exercise.id)
    if denied is not None:
        return Verdict.no(
            Evidence(denied.line.number, denied.text),
            f"says the run is not {ctx.expected}, which the table shows it is",
        )
    dismissed = movement_dismissed(ctx.report) if ctx.expected == "movement-bound" else None
    if dismissed is not None:
        return Verdict.no(
            Evidence(dismissed.line.number, dismissed.text),
            "waves the copies away as normal; they are what limits this run",
            review=hit is not None,
        )
    if hit is None:
        implied = _implied_by_experiment(ctx)
        if implied is not None:
            return implied
        return Verdict.no(
            None,
            f"looked for a statement of {EXPLAINED[ctx.expected]} in the fields and notes; "
            "found none",
            # the experiment goes after the class the report never names: said in words
            # the grader does not know?
            review=experiment_targets(ctx.report, ctx.expected),
        )
    elsewhere = not experiment_targets(ctx.report, ctx.expected) or attention_proposal(ctx.report)
    if hit.kind == "share" and elsewhere and not _said_otherwise(ctx, hit):
        # "Top CUDA time: aten::copy_ 61%" restates the table; with the next experiment
        # going after something else (attention, launch overhead), nothing says the copies
        # are the problem
        return Verdict.no(
            Evidence(hit.line.number, hit.text),
            "states the copies' share but goes after something else next",
            review=True,
        )
    detail = "said of the subject without naming it" if hit.implied else ""
    return Verdict.yes(Evidence(hit.line.number, hit.text), detail, review=hit.implied)


def refused(ctx: Context) -> Sentence | None:
    """The statement with which a report turns the table's class down by name ("I would
    not say that this run is overhead-bound"): numbers cited around it back no diagnosis
    of this class.  (A claim of another class is not enough: labellers still count the
    evidence of reports that also name the right class in words the grader misses.)"""
    return class_denied(ctx.report, ctx.expected, ctx.exercise.id)


# A finding the report leaves open ("Which of these matters most? Hard to say").
_UNDECIDED = re.compile(
    r"\?|\b(?:hard|difficult|impossible) to (?:say|tell)\b|\bunclear\b|\bnot sure\b|"
    r"\b(?:can.t|cannot|can not) (?:yet )?(?:say|tell)\b",
    re.IGNORECASE,
)


_DESCRIBE = ("workload", "hardware")  # a Workload is a list of terms anyway
_FINDINGS = ("top_cuda", "top_cpu")


def _judges(text: str, expected: str) -> bool:
    """Does a line of the findings judge anything, or leave a finding open?  A report that
    judges something and not the class ("The GPU is the slow side", "copy_ and to are not
    the problem") does not leave its diagnosis to its experiment."""
    if _UNDECIDED.search(text) or claim_words(text):
        return True
    return any(p.search(text) for p in diagnosis_kinds(expected)[1].values())


def _implied_by_experiment(ctx: Context) -> Verdict | None:
    """No sentence states the class, but the one Next experiment goes straight after it
    ("find out what's calling aten::to"): choosing it as the first thing to do says the
    class is what to look at first, which the contract counts as a diagnosis it "clearly
    implies".  Not when the report reaches for an attention kernel, leaves its findings as
    questions, or names nothing else it would look at; a person may look again."""
    f = ctx.report.field("next_experiment")
    if f is None or count(f).n != 1 or not experiment_targets(ctx.report, ctx.expected):
        return None
    if attention_proposal(ctx.report):
        return None
    found = [v.value for k in _FINDINGS if (v := ctx.report.fields.get(k)) is not None]
    described = [v.value for k in _DESCRIBE if (v := ctx.report.fields.get(k)) is not None]
    body = [t.text for t in ctx.report.lines_in("body")]
    if any(_judges(text, ctx.expected) for text in [*described, *found, *body]):
        return None
    if any(is_keyword_list(text) for text in found):
        return None  # a finding given as a bare list of terms
    return Verdict.yes(
        Evidence(f.label_line, f.value),
        "implied by the next experiment, which goes after it first",
        review=True,
    )


def _said_otherwise(ctx: Context, share: Sentence) -> bool:
    """Another statement of the class than the share alone, not one that reaches for an
    attention kernel ("switch to FlashAttention-2, the copies will shrink")."""
    return any(
        s.kind != "share" and not has("attention_kernel", s.text)
        for s in statements(ctx.report, ctx.expected, ctx.exercise.id)
        if s.text != share.text
    )


def outweighs(
    report: Report, expected: str, exercise_id: str, wrong: Sentence | None
) -> Sentence | None:
    """The statement naming ``expected`` outright ("Movement-bound until proven
    otherwise") that outweighs a claim of another class said only in words ("Math
    dominates"), which then reads as a description of the table; None if there is none."""
    if wrong is None or _CLASS_WORD.search(wrong.text):
        return None
    named = find_claim(report, expected, exercise_id)
    if named is None or not _CLASS_WORD.search(named.text):
        return None
    # "overhead-bound: the matmuls are too slow, so the CPU waits for the GPU": the reason
    # given in the same sentence claims the other class; nothing outweighs it
    same = named.line.number == wrong.line.number and (
        wrong.text in named.text or named.text in wrong.text
    )
    return None if same else named


def class_denied(report: Report, expected: str, exercise_id: str) -> Sentence | None:
    """ "I wouldn't call this overhead-bound": the class denied by name, and named nowhere
    else without the denial.  Of 48 labelled reports that deny it so, 44 fail diagnosis."""
    if find_claim(report, expected, exercise_id) is not None:
        return None
    pattern = claim(expected)
    for s in diagnosis_sentences(report):
        for piece in parts(s.text):
            if about_other_part(piece, exercise_id):
                continue
            for m in pattern.finditer(piece):
                if negated(piece, m.start(), m.end()) and not _HYPOTHETICAL_DENIAL.search(piece):
                    return Sentence(piece.strip(), s.line)
    return None


# "if it were overhead-bound", "whether it is movement-bound": no denial of this run
_HYPOTHETICAL_DENIAL = re.compile(r"\b(?:if|unless|whether|were)\b", re.IGNORECASE)


def _commits_to_none(report: Report) -> Sentence | None:
    """A sentence that names several classes as this run's limit at once ("compute-bound,
    movement-bound and overhead-bound together"), or everything ("limited by everything in
    the table at once"): a diagnosis that commits to none."""
    for s in diagnosis_sentences(report):
        if part_refs(s.text):
            continue  # "A was movement-bound, B is overhead-bound"
        if has("no_commitment", s.text) or len(_classes_run_together(s.text)) >= 2:
            return s
        if sum(claims_class(s.text, c) for c in CLASSES) >= 2:
            return s
    return None


# Classes named side by side before one "bound": "math and movement and memory bound",
# "compute/overhead-bound".  "launch/host bound" names one class in two words.
_CLASS_RUN = re.compile(
    r"\b((?:[a-z]+\s*(?:/|,|\+|&|\band\b|\bor\b)\s*)+[a-z]+)[- ]bound\b", re.IGNORECASE
)


@cache
def _class_of_word() -> dict[str, str]:
    return {w: c for c, words in _raw()["class_words"].items() for w in words}


def _classes_run_together(text: str) -> set[str]:
    class_of = _class_of_word()
    found: set[str] = set()
    for m in _CLASS_RUN.finditer(text):
        words = re.findall(r"[a-z]+", m.group(1).lower())
        found |= {class_of[w] for w in words if w in class_of}
    return found
