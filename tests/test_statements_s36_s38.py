"""Statements from the twelfth unseen round (tests/labelled/s36 to s38), each a table row.

The three sets were measured once, unseen (95.4%, rules frozen at 54dd07b), before their
disagreements were read; the rules written from them are pinned here.
"""

from __future__ import annotations

import pytest

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report
from tests.test_statements import experiments_in, grade, grade_text

LOWER_QA = "\n".join(
    [
        "q: workload?",
        "a: decoder-only llm, 4096 token prompt and 128 generated, bf16 weights, batch 1.",
        "",
        "q: hardware?",
        "a: one L4.",
        "",
        "q: top cuda time?",
        "a: matmul 38.4ms and flash sdpa 31.7ms are the math. copy_ 19.6 and to 15.1 (~35ms) "
        "isn't computing anything, it shouldn't be lumped in with the model math.",
        "",
        "q: top cpu / orchestration cost?",
        "a: tokenizer.encode 22ms (cpu only); the user pays those 22ms in time-to-first-token.",
        "",
        "q: next experiment?",
        "a: re-profile with with_stack=True to find the lines that issue aten::to.",
        "",
        "q: why copy_ and to?",
        "a: hypothesis A: the kv cache is fp32 and gets downcast to bf16 every layer. "
        "hypothesis B: the mask is built on cpu and copied over every step.",
        "",
        "q: how to test?",
        "a: for A, log dtypes at layer boundaries with a forward hook; fp32 confirms it. "
        "for B, look for Memcpy HtoD rows in the trace; none rejects it.",
        "",
    ]
)


def test_a_lower_case_question_and_answer_layout() -> None:
    got = grade_text(LOWER_QA, "partA")
    assert got["five-fields"] and got["tokenizer-outside-gpu"]
    assert got["two-hypotheses"] and got["experiment-per-hypothesis"]


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("next experiment? torch.compile the step with mode='reduce-overhead'", True),
        ("why is it slow? the host", False),
    ],
)
def test_a_field_asked_with_its_answer_on_the_line(line: str, field: bool) -> None:
    report = Report.parse(line + "\n")
    assert (report.field("next_experiment") is not None) is field


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # a class word asked, not claimed
        ("movement-bound?? copy_ to 2.8 GiB x2 sync stall frame budget.", False),
        # asking why the copies are there is the judgement
        ("copy_+to 34.7ms (just moving data — why??)", True),
    ],
)
def test_a_class_asked_is_not_claimed(diagnosis: str, passed: bool) -> None:
    assert grade("partA", diagnosis=diagnosis, next="")["diagnosis-matches"] is passed


@pytest.mark.parametrize(
    ("hypotheses", "passed"),
    [
        # predictions under a hypothesis are part of it; a falsification test tests it
        (
            "**H1. Dtype mismatch.** The mask is held in fp32 and converted to bf16 per layer.\n"
            "- Prediction: the to() calls carry a dtype argument and no device change.\n"
            "- Falsification test: log the dtypes entering a layer; all bf16 rejects H1.\n\n"
            "**H2. Host/device traffic.** Position ids are built on the CPU every step.\n"
            "- Prediction: Memcpy HtoD events appear next to the copies.\n"
            "- Falsification test: build the inputs on the device and re-profile.\n",
            True,
        ),
        (
            "- H1: fp32 tensors are cast to bf16 inside each layer. Falsified if every tensor "
            "entering a layer is already bf16 (log dtypes at layer entry).\n"
            "- H2: logits go back to the host with .cpu() every step. Falsified if the trace "
            "contains no DtoH memcpy near the copies.\n",
            True,
        ),
        (
            "- H1: fp32 tensors are cast to bf16 inside each layer.\n"
            "- Prediction: the to() calls carry a dtype argument.\n",
            False,
        ),
    ],
)
def test_predictions_and_falsification_tests(hypotheses: str, passed: bool) -> None:
    assert grade("partA", hypotheses=hypotheses)["experiment-per-hypothesis"] is passed


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # other changes offered after a comma or in brackets
        ("torch.compile with reduce-overhead, or cuda graphs by hand, or just batch more", 2),
        ("write a fused Triton attention kernel (or just try FlashAttention-3)", 2),
        # another setting of the same change
        ("quantize weights to int8 (or fp8 on L4) and measure the total CUDA time", 1),
        # what a probe looks for
        (
            "run with with_stack=True and find which line casts tensors between fp32 and bf16 "
            "(or moves them CPU→GPU) at each step",
            1,
        ),
        (
            "print the dtype and device of the KV cache and the inputs (fp32 against bf16, or CPU "
            "against GPU)",
            1,
        ),
    ],
)
def test_or_after_a_comma_or_in_brackets(value: str, n: int) -> None:
    assert experiments_in(value) == n


@pytest.mark.parametrize(
    ("hypotheses", "two"),
    [
        (
            "Why copies: either a dtype cast (fp32 mask → bf16) or inputs living on the CPU and "
            "being uploaded every call.\n",
            True,
        ),
        ("Why copies: either the mask is cast to bf16 or the cache is cast to bf16.\n", False),
    ],
)
def test_either_or_without_a_comma(hypotheses: str, two: bool) -> None:
    assert grade("partA", hypotheses=hypotheses)["two-hypotheses"] is two


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # a question about the copies dismisses nothing
        (
            "copy_ + to are 35 ms of moving stuff around. Is that normal or a smell? I don't "
            "believe 5.6 GiB of uploads per request is necessary.",
            True,
        ),
        # but the answer to it can
        (
            "Could copying be something big models always do? Probably, that's normal for decode.",
            False,
        ),
    ],
)
def test_questions_and_their_answers(diagnosis: str, passed: bool) -> None:
    assert grade("partA", diagnosis=diagnosis, next="")["diagnosis-matches"] is passed


def test_a_paragraph_that_opens_with_notes_is_prose_not_a_list_of_terms() -> None:
    from grader.report.keyword_lists import is_keyword_list

    assert is_keyword_list("Notes: copy, cast, dtype, bf16, fp32, tokenizer, TTFT")
    assert not is_keyword_list(
        "Notes. The tokenizer is host-only (0 ms CUDA) but the request cannot start prefill "
        "without it, so its 22 ms feed straight into time to first token."
    )


@pytest.mark.parametrize(
    ("title", "passed"),
    [
        ("2) The tokenizer", True),  # a numbered title alone: what follows is about it
        ("2) The attention kernel", False),
    ],
)
def test_a_title_carries_the_tokenizer_to_the_lines_below(title: str, passed: bool) -> None:
    text = (
        "Workload: decoder-only LLM, 4096 in, 128 out, bf16, batch 1\nHardware: L4\n"
        "Top CUDA time: matmul 38.4 ms\nTop CPU / orchestration cost: 22 ms of host time\n"
        "Next experiment: profile with with_stack=True to find who calls aten::to\n\n"
        f"{title}\nIt has 0 ms of CUDA time, so it is not GPU execution. It is on the critical "
        "path of the request, so those 22 ms go straight into TTFT.\n"
    )
    assert grade_text(text, "partA")["tokenizer-outside-gpu"] is passed


@pytest.mark.parametrize(
    ("workload", "passed"),
    [
        ("a 7-billion-parameter chat model generating its answer token by token", True),
        ("7 billion parameters, decode", True),
        ("a 70-billion-parameter model, decode", False),
    ],
)
def test_the_model_size_in_words(workload: str, passed: bool) -> None:
    text = (
        f"Workload: {workload}\nHardware: L4\nTop CUDA time: aten::copy_, about 61% of CUDA "
        "time\nTop CPU / orchestration cost: python loop\nNext experiment: check the dtype of "
        "the KV cache\n"
    )
    assert grade_text(text, "partC")["copy-share-stated"] is passed


def _review(text: str, exercise: str) -> dict[str, tuple[bool, bool]]:
    result = grade_report(Report.parse(text), resolve_exercise(exercise))
    return {c.id: (c.passed, c.review) for c in result.criteria}


HALF_B = """Workload: batch 1, prompt 32, decode 128, tiny hidden
Hardware: L4
Top CUDA time: matmul 6.1 ms over 240 calls
Top CPU / orchestration cost: Python decode loop 38 ms vs 15 ms CUDA; the GPU waits on Python
Next experiment: capture the decode step in a CUDA graph and compare ms/token

Contrast:
- B: matmul on top means little, each of the 240 calls is tiny.
- A bottleneck: copies. B bottleneck: launches.
- Fused attention: there is no attention op in the table.
- CUDA graphs cut the launches.
"""


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        # half of the reason or of the meaning: failed, and flagged for a person to read
        ("fused-attention-wrong-here", (False, True)),
        ("top-cuda-meaning", (False, True)),
    ],
)
def test_half_an_answer_is_flagged_for_review(criterion: str, expected: tuple[bool, bool]):
    assert _review(HALF_B, "partB")[criterion] == expected


def test_a_hypothesis_without_its_test_is_flagged_for_review() -> None:
    hypotheses = (
        "Hypotheses:\n1. The mask is built in fp32 and cast to bf16 in every layer.\n"
        "2. The inputs are created on the CPU and copied to the GPU on every step.\n\n"
        "Experiments:\n1. Log the dtype of every layer input; an fp32 input confirms it.\n"
    )
    from tests.test_statements import BASES, DEFAULTS

    text = (
        (BASES / "base_partA.md")
        .read_text()
        .format(**{**DEFAULTS["partA"], "hypotheses": hypotheses})
    )
    assert _review(text, "partA")["experiment-per-hypothesis"] == (False, True)
    # both tested: passed, no flag
    both = hypotheses + "2. Look for Memcpy HtoD rows in the trace; none rejects it.\n"
    text = (BASES / "base_partA.md").read_text().format(**{**DEFAULTS["partA"], "hypotheses": both})
    assert _review(text, "partA")["experiment-per-hypothesis"] == (True, False)
