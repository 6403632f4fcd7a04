"""Statements from the seventh unseen round (tests/labelled/s19, s20), each as a table row.

s19 and s20 were measured once, unseen (95.4%), before their disagreements were read; the
rules written from them are pinned here, each as a statement in an otherwise good report.
"""

from __future__ import annotations

import pytest

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report
from tests.test_statements import NO_LEAD, grade

TERSE_A = """Workload: LLM decode, 4k prompt, 128 out, bs1, bf16
Hardware: L4
Top CUDA time: {cuda}
Top CPU / orchestration cost: tokenizer.encode 22ms
Next experiment: {next}
"""


def _diagnosis(text: str, exercise: str = "partA") -> tuple[bool, bool, str]:
    result = grade_report(Report.parse(text), resolve_exercise(exercise))
    got = next(c for c in result.criteria if c.id == "diagnosis-matches")
    return got.passed, got.review, got.detail


@pytest.mark.parametrize(
    ("cuda", "next_experiment", "passed"),
    [
        # only numbers, and the one experiment goes after the copies: they come first
        ("matmul 38.4ms", "find out what's calling aten::to (with_stack=True)", True),
        (
            "matmul 38.4ms, copy_ 19.6, to 15.1",
            "log the dtype of every tensor passed to to()",
            True,
        ),
        # the experiment goes elsewhere, or there are several, or the findings judge
        # something else or leave it open: nothing is implied
        ("matmul 38.4ms", "try FlashAttention-3 on the prefill", False),
        ("matmul 38.4ms", "with_stack=True to find who calls to(); also try torch.compile", False),
        ("matmul 38.4ms, the GPU is busy, so math is the problem", "find who calls to()", False),
        ("matmul 38.4ms. Which of these matters most? Hard to say.", "find who calls to()", False),
        ("copy_ and to are not the problem here", "find who calls to()", False),
        (
            "Keywords: copies, casts, movement, bottleneck, unexplained",
            "find who calls to()",
            False,
        ),
    ],
)
def test_a_lone_experiment_after_the_copies_implies_the_diagnosis(
    cuda: str, next_experiment: str, passed: bool
) -> None:
    got, review, detail = _diagnosis(TERSE_A.format(cuda=cuda, next=next_experiment))
    assert got is passed, (cuda, next_experiment)
    if passed:  # an implication: a person may look again
        assert review and "implied by the next experiment" in detail


def test_the_statement_rows_are_judged_without_the_implication() -> None:
    # the bases' own experiments go after the class; the diagnosis rows use NO_LEAD
    assert grade("partA", diagnosis="copy_ (19.6 ms) and to (15.1 ms) come next.")[
        "diagnosis-matches"
    ]
    assert not grade(
        "partA", diagnosis="copy_ (19.6 ms) and to (15.1 ms) come next.", next=NO_LEAD
    )["diagnosis-matches"]


@pytest.mark.parametrize(
    ("sentence", "passed"),
    [
        ("The GPU is mostly idle.", True),
        ("GPU idle most of the step.", True),
        ("The GPU waits on the Python loop between launches.", True),
        ("The GPU is not idle; it is busy with matmul.", False),
        ("GPU utilization is high.", False),
    ],
)
def test_an_idle_device_is_the_overhead_diagnosis(sentence: str, passed: bool) -> None:
    got = grade(
        "partB", diagnosis=sentence, attention_2="A faster kernel is not the answer.", next=NO_LEAD
    )
    assert got["diagnosis-matches"] is passed, sentence


TERSE_B = """Workload: bs1, 32 prompt, 128 decode, tiny
Hardware: L4
Top CUDA time: matmul 6.1ms
Top CPU / orchestration cost: python loop 38ms
Next experiment: CUDA graphs

{contrast}
"""


@pytest.mark.parametrize(
    ("contrast", "bullets", "meaning"),
    [
        # the parts named by their bare letters, side by side, without a heading
        (
            "- A matmul = real, B matmul = tiny\n- A copies, B python\n"
            "- A flash attn present, B none\n- B GPU idle, no fused attn",
            True,
            True,
        ),
        # an article is not Part A: a list of plain sentences is no contrast
        (
            "- A fused kernel would not help\n- A bigger batch might\n"
            "- A graph capture is next\n- A compile run after that",
            False,
            False,
        ),
    ],
)
def test_a_terse_contrast_by_bare_letters(contrast: str, bullets: bool, meaning: bool) -> None:
    result = grade_report(
        Report.parse(TERSE_B.format(contrast=contrast)), resolve_exercise("partB")
    )
    got = {c.id: c.passed for c in result.criteria}
    assert got["contrast-four-bullets"] is bullets
    assert got["top-cuda-meaning"] is meaning


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        ("## Not doing yet\n\nAttention. It is already a flash kernel.", True),
        ("Q: What wouldn't you optimize yet?\nA: The tokenizer, because it's only 22 ms.", True),
        ("Not yet: attention, flash is fine.", True),
        ("Not yet: attention.", False),
    ],
)
def test_not_yet_in_more_layouts(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed, not_yet


def test_root_cause_candidates_are_hypotheses() -> None:
    hypotheses = (
        "Root cause candidates\n"
        "- A: fp32 -> bf16 casting in every layer.\n"
        "- B: tensors created on the host and moved with .to('cuda') every step.\n\n"
        "How to verify\n"
        "- A: print the dtypes of every input to forward; fp32 confirms it.\n"
        "- B: look for Memcpy HtoD in the trace; none rejects it.\n"
    )
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"]
