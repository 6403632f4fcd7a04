"""Statements from the unseen rounds (tests/labelled/s7 ... s16), each as a table row.

Every held-out set was measured once before its disagreements were read; the rules written
from them are pinned here as single statements in an otherwise good report (the bases of
tests/test_statements.py), so a later change that loses one fails here, not only in the
agreement figures.
"""

from __future__ import annotations

import pytest

from tests.test_statements import NO_LEAD, TWO_CAUSES, grade


@pytest.mark.parametrize(
    "sentence",
    [
        "copy_ and to are movement of data, not calculation, and it is not clear why it is there.",
        "About 1/3 of GPU time is data being moved, not computed.",
        "copy_ + to ≈ 35 ms (movement — why?)",
        "copy_ + to = 34.7 ms / 5.6 GiB = junk until proven otherwise.",
        "copy_ + to (34.7 ms, 5.6 GiB) = movement we haven't explained.",
        "copy_ and to move 5.6 GiB; that's the part I don't trust.",
        "Math:movement ≈ 2:1, way too much movement for a model whose weights are already bf16.",
        "copy_ and to are the GPU just copying stuff around, and we don't think it all has to "
        "happen.",
    ],
)
def test_movement_said_in_other_words(sentence: str) -> None:
    assert grade("partA", diagnosis=sentence, next=NO_LEAD)["diagnosis-matches"], sentence


@pytest.mark.parametrize(
    ("sentence", "passed"),
    [
        ("Writing my own attention kernel now would be polishing the wrong thing.", True),
        ('My reflex was "FlashAttention", but no: the copies come first.', True),
        ("Fused attention would also not fix the 38 ms of Python.", True),
        ("If the SDPA kernel is under 60% of SOL, write a Triton flash variant.", False),
    ],
)
def test_attention_refused_or_proposed(sentence: str, passed: bool) -> None:
    got = grade("partA", diagnosis=sentence)
    assert got["no-premature-attention-kernel"] is passed, sentence


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        ("Wouldn't optimize: the tokenizer yet, because 22 ms is small next to 106 ms.", True),
        ("Not optimizing yet: slice - tiny.", True),
        ("Nicht optimieren: the attention kernel, it is already Flash.", True),
        ("[14:26] not yet: flash attention. It's already the fused kernel.", True),
        ("Q: What would you leave alone?\nA: aten::slice: 436 calls but only 1.4 ms.", True),
        (
            "The copies come first. I would not touch the attention kernel yet; it's already "
            "the flash path.",
            True,
        ),
        ("Won't touch: attention.", False),
    ],
)
def test_not_yet_in_other_forms(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed, not_yet


@pytest.mark.parametrize(
    ("hypotheses", "passed"),
    [
        (
            "## Hypothesen\n" + TWO_CAUSES + "\n## Experimente\n1. Log the dtype of every "
            "layer input.\n2. Look for Memcpy HtoD rows in the trace.\n",
            True,
        ),
        (
            "Hyp: (a) fp32 to bf16 casts per layer (b) CPU to GPU transfers of the inputs\n"
            "Test: (a) dtype check at layer entry (b) Memcpy HtoD in the trace?\n",
            True,
        ),
        (
            "I think there are two likely explanations for the copies. One is that the mask "
            "is fp32 and cast to bf16 in every layer. The other is that the inputs are built "
            "on the CPU and copied over.\n\nTo test the first one I would log the dtypes with "
            "a pre-hook. To test the second one I would look for Memcpy HtoD rows in the "
            "trace.\n",
            True,
        ),
        (
            "Hypotheses:\n" + TWO_CAUSES + "\nTest: check dtypes going into the forward, fix "
            "them, see if aten::to disappears. / Look for Memcpy HtoD in the trace, see if "
            "copy_ shrinks.\n",
            True,
        ),
        (
            "Hypotheses:\n" + TWO_CAUSES + "\nExperiments:\n1. Run with CUDA graphs and "
            "compare the time.\n2. Try torch.compile and see if the copies get fused away.\n",
            False,
        ),
    ],
    ids=["first-language", "inline-letters", "prose-counted", "slash", "speed-up-tools"],
)
def test_hypotheses_and_tests_in_other_layouts(hypotheses: str, passed: bool) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"], hypotheses
    assert got["experiment-per-hypothesis"] is passed, hypotheses


@pytest.mark.parametrize(
    ("second", "passed"),
    [
        (
            "A fused attention kernel is wrong: the problem is launches, not the speed of any "
            "kernel.",
            True,
        ),
        ("Fused attention makes no sense: the GPU isn't what's slow.", True),
        ("Fused attention is wrong here.", False),
    ],
)
def test_fused_attention_wrong_for_the_launches(second: str, passed: bool) -> None:
    got = grade("partB", attention_1="There is no attention in B's table.", attention_2=second)
    assert got["fused-attention-wrong-here"] is passed, second


STUFFED_A = """Workload: LLM inference, movement-bound prefill decode TTFT
Hardware: L4 bf16 tensor cores
Top CUDA time: copy_ and to are 35 ms of movement that should not be there, the first thing.
Top CPU / orchestration cost: tokenizer.encode on the CPU, 0 ms CUDA, adds to TTFT.
Next experiment: record_function with_stack dtype device to() .cpu() contiguous graphs
"""

TERSE_A = """Workload: llm, 4k prompt, 128 out, bf16, bs1
Hardware: L4
Top CUDA time: copy_ and to are 35 ms of movement that should not be there, the first thing.
Top CPU / orchestration cost: tokenizer.encode on the CPU, 0 ms CUDA, adds to TTFT.
Next experiment: profile w/ with_stack=True to see who calls .to()
"""


@pytest.mark.parametrize(("text", "stuffed"), [(STUFFED_A, True), (TERSE_A, False)])
def test_keyword_stuffing_earns_no_claim(text: str, stuffed: bool) -> None:
    """Analysis words in the Workload and a bare list of terms for a finding: the report's
    claims earn nothing, its form still counts; a terse honest report is not touched."""
    from grader.engine import grade_report
    from grader.exercises import resolve_exercise
    from grader.report.model import Report
    from grader.stuffing import STUFFED

    result = grade_report(Report.parse(text), resolve_exercise("partA"))
    got = {c.id: c for c in result.criteria}
    assert got["diagnosis-matches"].passed is not stuffed
    assert (got["diagnosis-matches"].detail == STUFFED) is stuffed
    assert got["five-fields"].passed


@pytest.mark.parametrize(
    ("value", "passed"),
    [
        ("TODO (not sure between compile and cuda graphs)", False),
        ("TBD - need to discuss with my team which of compile / graphs we may use", False),
        ("todo list of the copies' callers, from with_stack=True", True),
    ],
)
def test_a_placeholder_with_an_aside_is_still_a_placeholder(value: str, passed: bool) -> None:
    from grader.report.model import Report

    text = TERSE_A.replace(
        "Next experiment: profile w/ with_stack=True to see who calls .to()",
        f"Next experiment: {value}",
    )
    assert (Report.parse(text).field("next_experiment") is not None) is passed
