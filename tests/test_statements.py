"""Statements learners write, each in an otherwise good report, and the verdict they earn.

Each row puts one statement into a slot of a base report (tests/statements/base_*.md) and
says what one criterion must decide.  The rows come from the judgment issue (#9): correct
answers in a learner's own words that the grader used to fail, and proposals or keyword
soup it used to pass.  A ``neutral`` row checks that the base alone does not already decide
the criterion, so each row tests the statement, not the base.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report

BASES = Path(__file__).parent / "statements"

DEFAULTS = {
    "partA": {
        "next": "Next experiment: profile with with_stack=True and find which code calls aten::to.",
        "diagnosis": "copy_ (19.6 ms) and to (15.1 ms) come next.",
        "hypotheses": (
            "Hypotheses:\n"
            "1. The attention mask is built in fp32 and cast to bf16 in every layer.\n"
            "2. The inputs are created on the CPU and copied to the GPU on every step.\n\n"
            "Experiments:\n"
            "1. Log the dtype of every layer input with a forward pre-hook; an fp32 input "
            "confirms it.\n"
            "2. Look for Memcpy HtoD rows in the trace; none would reject it.\n"
        ),
        "not_yet": "Not yet: aten::slice, because its 436 calls cost only 1.4 ms of CUDA time.",
        "stretch": 'Stretch: record_function("tokenize") and record_function("decode_step").',
    },
    "partB": {
        "next": "Next experiment: capture the decode step in a CUDA graph and compare the time "
        "per token.",
        "diagnosis": "",
        "attention_1": "No attention op appears anywhere in B's table.",
        "attention_2": "The GPU waits on Python and launches, so a faster fused attention "
        "kernel cannot help.",
    },
}


# A Next experiment that goes after no class: with it, a diagnosis row is judged on its own
# words, not on what a well-aimed experiment implies (tests/test_statements_s19_s20.py).
NO_LEAD = "Next experiment: rerun the same request on an A100 and compare the totals."


def grade(exercise: str, **slots: str) -> dict[str, bool]:
    text = (BASES / f"base_{exercise}.md").read_text()
    text = text.format(**{**DEFAULTS[exercise], **slots})
    return grade_text(text, exercise)


def grade_text(text: str, exercise: str) -> dict[str, bool]:
    """Each criterion's verdict on a whole report."""
    result = grade_report(Report.parse(text), resolve_exercise(exercise))
    return {c.id: c.passed for c in result.criteria}


def experiments_in(value: str) -> int:
    """How many experiments a Next experiment field holding ``value`` names."""
    from grader.checks.counting import count

    field = Report.parse(f"Next experiment: {value}\n").field("next_experiment")
    assert field is not None
    return count(field).n


MOVEMENT_DIAGNOSES = [
    "copy_ + to (35 ms) is unnecessary data movement.",
    "copy_ + to (35 ms) is data movement that should not be needed.",
    "copy_ + to (35 ms) is data movement that could be avoided.",
    "copy_ + to (35 ms) is movement we don't need.",
    "copy_ + to (35 ms) is data movement that should not be there.",
    "copy_ and to (35 ms) only move data; that is overhead I'd want to get rid of.",
    "copy_ and to are movement; they shouldn't be that big and they're what I'd chase first.",
    "copy_ and to are movement, not needed by the model, and must be explained.",
]

DIAGNOSES_ONLY = [
    "I'd start with the copies.",
    "Copies before kernels.",
    "The copies are the whole story in this run.",
    "Most of those copies could be dropped altogether.",
    "The decode is spending most of its device time moving data rather than computing.",
]


@pytest.mark.parametrize("sentence", MOVEMENT_DIAGNOSES)
def test_movement_diagnosis_and_separation(sentence: str) -> None:
    got = grade("partA", diagnosis=sentence, next=NO_LEAD)
    assert got["diagnosis-matches"], sentence
    assert got["separates-math-from-movement"], sentence


@pytest.mark.parametrize("sentence", DIAGNOSES_ONLY)
def test_movement_diagnosis(sentence: str) -> None:
    got = grade("partA", diagnosis=f"copy_ and to follow. {sentence}", next=NO_LEAD)
    assert got["diagnosis-matches"], sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "copy_ (19.6 ms) and to (15.1 ms) come next.",
        "copy_ and to are the usual KV-cache bookkeeping and nothing to worry about.",
        "Are the copies the problem? Or is it compute?",
        "Keywords: copies, casts, movement, bottleneck, unexplained, avoidable, first.",
        "The GPU is busy with math, so the run is compute-bound; copy_ and to come next.",
        "copy_ and to are not the problem here.",
    ],
)
def test_not_a_movement_diagnosis(sentence: str) -> None:
    assert not grade("partA", diagnosis=sentence, next=NO_LEAD)["diagnosis-matches"], sentence


@pytest.mark.parametrize(
    ("sentence", "passed"),
    [
        ("", False),
        ("The CPU is the slow side here.", True),
        ("The GPU sits idle waiting for the host.", True),
        ("The host cannot launch kernels fast enough to keep the GPU busy.", True),
        ("Is the CPU the slow side here?", False),
        ("The GPU is the slow side here.", False),
    ],
)
def test_overhead_diagnosis(sentence: str, passed: bool) -> None:
    got = grade(
        "partB", diagnosis=sentence, attention_2="A faster kernel is not the answer.", next=NO_LEAD
    )
    assert got["diagnosis-matches"] is passed, sentence


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        ("I would not optimize aten::slice: 436 calls but only 1.4 ms of CUDA time.", True),
        ("I wouldn't touch the attention kernel because it is already flash attention.", True),
        (
            "### What I would not optimize yet\n\nThe attention kernel: it is already a "
            "flash kernel, and the copies are still unexplained.",
            True,
        ),
        ("Not yet: aten::slice.", False),
        ("I would not optimize aten::slice.", False),
    ],
)
def test_not_yet_with_reason(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed, not_yet


TWO_CAUSES = (
    "1. The attention mask is built in fp32 and cast to bf16 in every layer.\n"
    "2. The inputs are created on the CPU and copied to the GPU on every step.\n"
)


@pytest.mark.parametrize(
    ("hypotheses", "passed"),
    [
        (
            "Hypotheses:\n" + TWO_CAUSES + "\nExperiment for H1: log the dtype of every layer "
            "input with a forward pre-hook.\nExperiment for H2: look for Memcpy HtoD rows in "
            "the trace.\n",
            True,
        ),
        (
            "Hypotheses:\n" + TWO_CAUSES + "\nTest H1: log the dtype of every layer input "
            "with a forward pre-hook.\n\nTest H2: look for Memcpy HtoD rows in the trace.\n",
            True,
        ),
        (
            "Hypotheses:\n"
            "- H1: the mask is built in fp32 and cast to bf16 in every layer. To test it, I "
            "would log the dtype of every layer input with a pre-hook.\n"
            "- H2: the inputs are created on the CPU and copied to the GPU. To test it, I "
            "would look for Memcpy HtoD rows in the trace.\n",
            True,
        ),
        (
            "Hypotheses:\n"
            "- fp32 mask cast per layer -> log dtypes with a pre-hook\n"
            "- inputs built on the CPU each step -> look for Memcpy HtoD rows in the trace\n",
            True,
        ),
        (
            "| Hypothesis | Experiment |\n|---|---|\n"
            "| fp32 mask cast to bf16 in every layer | log dtypes with a forward pre-hook |\n"
            "| inputs built on the CPU and copied over | look for Memcpy HtoD rows in the "
            "trace |\n",
            True,
        ),
        (
            "Hypotheses:\n(i) the mask is built in fp32 and cast to bf16 in every layer;\n"
            "(ii) the inputs are created on the CPU and copied to the GPU.\n\nExperiments:\n"
            "(i) log the dtype of every layer input with a forward pre-hook;\n"
            "(ii) look for Memcpy HtoD rows in the trace.\n",
            True,
        ),
        (
            "Hypotheses:\n" + TWO_CAUSES + "\nExperiment: profile it more carefully and see "
            "which one it is.\n",
            False,
        ),
    ],
    ids=["experiment-for", "test-h", "to-test-it", "arrow", "table", "roman", "one-vague"],
)
def test_experiment_per_hypothesis(hypotheses: str, passed: bool) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"], hypotheses
    assert got["experiment-per-hypothesis"] is passed, hypotheses


def test_stretch_ranges_in_backticks() -> None:
    stretch = "Stretch: I'd add ranges `tokenize`, `prefill`, `decode_step` before the next run."
    assert grade("partA", stretch=stretch)["stretch-named-ranges"]


@pytest.mark.parametrize(
    ("sentence", "passed"),
    [
        ("matmul and flash attention take 70 ms; copy_ and to add another 35 ms.", True),
        ("Switching to xformers would not help.", True),
        ("Maybe also try FlashAttention-3 for the attention part.", False),
        ("I'd swap in xformers for attention as well.", False),
    ],
)
def test_attention_proposals(sentence: str, passed: bool) -> None:
    got = grade("partA", diagnosis=sentence)
    assert got["no-premature-attention-kernel"] is passed, sentence


@pytest.mark.parametrize(
    ("first", "second", "passed"),
    [
        (
            "There is no attention in B's table at all.",
            "The GPU idles between launches, so a faster fused attention kernel cannot help.",
            True,
        ),
        (
            "Attention is not where the time goes in B.",
            "The GPU is waiting on the Python loop; a fused kernel would not change that.",
            True,
        ),
        (
            "A fused attention kernel is the wrong next step because matmul is bigger.",
            "matmul is the top op.",
            False,
        ),
    ],
)
def test_fused_attention_wrong_here(first: str, second: str, passed: bool) -> None:
    got = grade("partB", attention_1=first, attention_2=second)
    assert got["fused-attention-wrong-here"] is passed, (first, second)


# --- the review flag: set where the evidence is partial or conflicting, and only there ---


def review(exercise: str, criterion: str, **slots: str) -> tuple[bool, bool]:
    text = (BASES / f"base_{exercise}.md").read_text()
    text = text.format(**{**DEFAULTS[exercise], **slots})
    result = grade_report(Report.parse(text), resolve_exercise(exercise))
    c = next(c for c in result.criteria if c.id == criterion)
    return c.passed, c.review


@pytest.mark.parametrize(
    ("criterion", "slots", "expected"),
    [
        # the base report alone: clear verdicts, no flag
        (
            "diagnosis-matches",
            {"diagnosis": "copy_ and to are movement that should not be there."},
            (True, False),
        ),
        # a wrong class claimed beside the right statement: conflicting
        (
            "diagnosis-matches",
            {
                "diagnosis": "copy_ and to are unexplained movement. "
                "Overall the run is compute-bound."
            },
            (False, True),
        ),
        # declining an attention kernel and hedging it in one clause
        (
            "no-premature-attention-kernel",
            {
                "not_yet": "Not yet: maybe don't switch to FlashAttention-3, since it is "
                "already flash."
            },
            (True, True),
        ),
        ("no-premature-attention-kernel", {}, (True, False)),
        # two casts of different tensors, each named: two causes, but whether they differ
        # enough is a judgement a person should confirm
        (
            "two-hypotheses",
            {
                "hypotheses": "Hypotheses:\n1. The weights are loaded in fp32 and cast to bf16.\n"
                "2. The KV cache is kept in fp32 and cast to bf16 per layer.\n"
            },
            (True, True),
        ),
        # two wordings of one cast, the learner setting them apart: flagged as read as one
        (
            "two-hypotheses",
            {
                "hypotheses": "Hypotheses:\n1. The inputs are fp32 and get cast to bf16.\n"
                "2. There is a precision mismatch, so PyTorch converts tensors to bf16.\n"
            },
            (False, True),
        ),
    ],
    ids=[
        "clear",
        "conflict",
        "hedged-attention",
        "no-attention",
        "two-tensors",
        "one-cause-twice",
    ],
)
def test_review_flag(criterion: str, slots: dict[str, str], expected: tuple[bool, bool]) -> None:
    assert review("partA", criterion, **slots) == expected


def test_a_label_read_as_a_near_spelling_is_flagged() -> None:
    text = (BASES / "base_partA.md").read_text().format(**DEFAULTS["partA"])
    result = grade_report(
        Report.parse(text.replace("Hardware:", "Hardwre:")), resolve_exercise("partA")
    )
    five = next(c for c in result.criteria if c.id == "five-fields")
    assert five.passed and five.review
    assert "Hardwre" in five.detail


def test_text_output_marks_flagged_verdicts() -> None:
    from grader.reporters.grade_text import REVIEW_NOTE, render_grade

    clear = {**DEFAULTS["partA"], "diagnosis": "copy_ and to are movement that should not be."}
    text = (BASES / "base_partA.md").read_text().format(**clear)
    result = grade_report(
        Report.parse(text.replace("Hardware:", "Hardwre:")), resolve_exercise("partA")
    )
    out = render_grade(result)
    assert "PASS? five-fields" in out
    assert REVIEW_NOTE.split()[0] in out
    assert "1 verdict flagged for instructor review" in out
    clean = render_grade(grade_report(Report.parse(text), resolve_exercise("partA")))
    assert "?" not in clean.split("Score:")[0].replace("what you would", "")
    assert "flagged" not in clean


def test_a_sub_heading_naming_part_a_stays_in_part_b() -> None:
    """Under --exercise partB, '## Part B vs Part A' is a sub-heading of Part B, not a new
    part: the contrast below it is graded, and the score is what it is without it."""
    from grader.grading import grade_submission
    from grader.submission import decode_submission

    body = (BASES / "base_partB.md").read_text().format(**DEFAULTS["partB"])
    plain = "## Part B\n\n" + body
    titled = plain.replace("Contrast with Part A:", "## Part B vs Part A\n")
    assert titled != plain
    scores = []
    for text in (plain, titled):
        (result,) = grade_submission(decode_submission(text.encode(), "r.md"), "partB")
        got = {c.id: c.passed for c in result.criteria}
        assert got["contrast-four-bullets"] and got["top-cuda-meaning"], got
        scores.append(result.score)
    assert scores[0] == scores[1] == 100
