"""Statements from the seventeenth unseen round, each a table row.

s54 to s59 were measured once, unseen, with the rules of 172f6f6 (91.7%), before their
disagreements were read: dictated answers with numbers in words (grader/report/numbers.py),
slide decks, reports with a classmate's remarks left in, reports with no fields at all.
"""

from __future__ import annotations

import pytest

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report
from grader.report.numbers import with_digits
from tests.test_statements import grade, grade_text


@pytest.mark.parametrize(
    ("said", "read"),
    [
        (
            "copy underscore at sixty one percent of CUDA time",
            "copy underscore at 61% of CUDA time",
        ),
        ("sixty-one per cent", "61%"),
        ("thirty eight milliseconds against fifteen milliseconds", "38 ms against 15 ms"),
        ("two hundred and forty calls of twenty five microseconds", "240 calls of 25 us"),
        ("six point one ms", "6.1 ms"),
        # words that are no figure stay as they are
        ("one experiment, and one run", "one experiment, and one run"),
        ("no numbers here", "no numbers here"),
    ],
)
def test_numbers_in_words(said: str, read: str) -> None:
    assert with_digits(said) == read


SPOKEN_C = """\
workload: a seven billion model doing decode, batch one
hardware: one L4
top CUDA time: aten dot copy underscore, sixty one percent of CUDA time
top CPU / orchestration cost: the python loop
next experiment: check if the KV cache is fp32 and cast to bf16 every step
"""


def test_a_dictated_share_is_read() -> None:
    assert grade_text(SPOKEN_C, "partC")["copy-share-stated"]
    wrong = SPOKEN_C.replace("sixty one percent", "thirty nine percent")
    assert not grade_text(wrong, "partC")["copy-share-stated"]


def test_dictated_overhead_evidence_is_read() -> None:
    text = (
        "Workload: batch 1, prompt 32, decode 128\nHardware: L4\nTop CUDA time: aten::matmul\n"
        "Top CPU / orchestration cost: the python loop takes thirty eight milliseconds of CPU "
        "against about fifteen milliseconds of GPU, so the GPU waits\n"
        "Next experiment: capture the decode step in a CUDA graph and compare ms per token\n"
    )
    assert grade_text(text, "partB")["overhead-evidence"]
    assert not grade_text(text.replace("thirty eight", "three"), "partB")["overhead-evidence"]


def test_a_report_with_no_fields_has_its_claims_failed_and_flagged() -> None:
    """A claim made in a report that fills none of the fields is not counted from prose alone
    (labellers failed 43 of 48 such claims), and a person is asked to look."""
    prose = (
        "The run is movement-bound: copy_ and to are 35 ms of casts the model does not need, "
        "while matmul and attention are the math. The tokenizer runs on the CPU yet adds 22 ms "
        "to time to first token.\n"
    )
    result = grade_report(Report.parse(prose), resolve_exercise("partA"))
    claims = [
        c
        for c in result.criteria
        if c.id in ("diagnosis-matches", "separates-math-from-movement", "tokenizer-outside-gpu")
    ]
    assert claims and all(not c.passed and c.review for c in claims)
    assert all(c.evidence is not None and c.evidence.line == 1 for c in claims)
    assert not next(c for c in result.criteria if c.id == "five-fields").passed


@pytest.mark.parametrize(
    ("remark", "passed"),
    [
        # a classmate's remark left in the report is not the learner's proposal
        ("[peer: I'd swap attention to FlashAttention-3, it's faster]", True),
        ("*(reviewer: why not try xformers here?)*", True),
        ("> Peer comment: I'd swap attention to xformers, it's usually faster on Ada cards.", True),
        # the learner's own reply to it is
        ("[author: I will also swap attention to FlashAttention-3 now]", False),
    ],
)
def test_a_peers_remarks_are_not_the_learners(remark: str, passed: bool) -> None:
    got = grade("partA", not_yet=remark)
    assert got["no-premature-attention-kernel"] is passed


@pytest.mark.parametrize(
    ("hypotheses", "two", "tested"),
    [
        # a lab report's "Method:" under each hypothesis
        (
            "Hypotheses\n- H1: the ids and mask are created on the CPU and sent to the GPU.\n"
            "  - Method: print .device of the inputs and look for Memcpy HtoD in the trace.\n"
            "- H2: the KV cache was allocated in fp32 and is cast to bf16 when read.\n"
            "  - Method: print the cache dtype; control run with the cache in bf16.",
            True,
            True,
        ),
        # a bulleted list under no heading, each bullet a cause with its own test
        (
            "P.S. forgot the hypotheses part!!\n- maybe the LM head got loaded in fp32 and is cast "
            "to bf16 on every call -> check param.dtype and make it bf16.\n- maybe the prompt "
            "tensor lives on the CPU and gets copied per step -> print input_ids.device.",
            True,
            True,
        ),
        # ... but a bulleted list of causes with no tests is no hypotheses part
        (
            "Notes:\n- the LM head might be fp32\n- the prompt tensor might live on the CPU",
            False,
            False,
        ),
        # the count's causes set apart by commas
        (
            "so two hypotheses for the copies, first one is a dtype mismatch, something comes in "
            "as float32 and is cast to bf16, second is moving tensors between host and device.",
            True,
            False,
        ),
    ],
)
def test_hypotheses_of_round_17(hypotheses: str, two: bool, tested: bool) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"] is two
    assert got["experiment-per-hypothesis"] is tested


@pytest.mark.parametrize(
    ("hypotheses", "two"),
    [
        # the weights named as what the data is compared with: one cast worded twice
        (
            "Hypothesis 1: the weights are bf16 but something feeding them is fp32, so it gets "
            "cast to bf16. Test: print input dtypes.\nHypothesis 2: there's a dtype conversion of "
            "the activations inside the layers. Test: print activation dtypes.",
            False,
        ),
        (
            "H1: tensors get cast from fp32 to bf16 on every forward. Test: dtype hooks.\n"
            "H2: some buffers are stored at a different precision than the weights. Test: list "
            "buffer dtypes.",
            False,
        ),
        # the weights themselves re-cast: a cause of its own beside the cache
        (
            "H1: the KV cache is kept in fp32 and cast to bf16 each step. Test: print its dtype.\n"
            "H2: the weights are re-cast to bf16 in every layer's forward. Test: record_shapes on "
            "aten::to.",
            True,
        ),
    ],
)
def test_the_weights_as_a_cast_or_as_a_comparison(hypotheses: str, two: bool) -> None:
    assert grade("partA", hypotheses=hypotheses)["two-hypotheses"] is two


def test_x_limited_names_a_class() -> None:
    text = (
        "Workload: batch 1, prompt 32, decode 128\nHardware: L4\nTop CUDA time: matmul 6.1 ms "
        "over 240 calls. The GPU is not waiting on the CPU: this is compute-limited.\n"
        "Top CPU / orchestration cost: the Python loop, 38 ms\n"
        "Next experiment: rerun on an A100 and compare the totals.\n"
    )
    assert not grade_text(text, "partB")["diagnosis-matches"]


@pytest.mark.parametrize(
    ("next_experiment", "passed"),
    [
        # op names said aloud, as a dictated answer gives them
        (
            "next experiment: turn on with stack in the profiler and find out who is calling to "
            "and dot cpu",
            True,
        ),
        ("next experiment: rerun with with_stack=True to locate the code that calls to()", True),
        ("next experiment: turn on with stack in the profiler and look at the matmul", False),
    ],
)
def test_spoken_op_names(next_experiment: str, passed: bool) -> None:
    got = grade("partA", next=next_experiment)
    assert got["next-experiment-targets-bottleneck"] is passed
