"""Statements from the eleventh unseen round (tests/labelled/s32 to s35), each a table row.

The four sets were measured once, unseen (93.0%, rules frozen at 4ad81c7), before their
disagreements were read; the rules written from them are pinned here.
"""

from __future__ import annotations

import pytest

from grader.report.leads import section_of
from tests.test_statements import grade, grade_text


def test_struck_out_text_is_withdrawn() -> None:
    nxt = (
        "Next experiment: ~~swap in FlashAttention-3 to cut the 31.7 ms~~ profile with "
        "with_stack=True and find the code path calling aten::to."
    )
    got = grade("partA", next=nxt)
    assert got["no-premature-attention-kernel"] and got["next-experiment-targets-bottleneck"]
    # the same words not struck out are a proposal
    assert not grade("partA", next=nxt.replace("~~", ""))["no-premature-attention-kernel"]


REQUIREMENTS = """R1. Hypotheses for copy_/to
  R1.1 dtype mismatch: the rotary tables are held in fp32 and cast to bf16 every layer.
  R1.2 host<->device traffic: position ids are built on the CPU and DMA'd over every layer.
R2. Experiments
  R2.1 Log src/dst dtype at every to() call. fp32 in, bf16 out -> R1.1 confirmed.
  R2.2 Look for Memcpy HtoD rows under the copy_ kernels. None -> R1.2 rejected.
"""


def test_requirement_style_numbers_lead_parts_and_label_units() -> None:
    got = grade("partA", hypotheses=REQUIREMENTS)
    assert got["two-hypotheses"] and got["experiment-per-hypothesis"]


@pytest.mark.parametrize(
    ("sep", "passed"),
    [(" | ", True), (" · ", True), (" and ", False)],
)
def test_fields_set_apart_on_one_line(sep: str, passed: bool) -> None:
    line = sep.join(
        [
            "Workload: bs 1, 32 in / 128 out, tiny hidden",
            "Hardware: L4",
            "Top CUDA time: matmul, 6.1 ms in 240 calls of ~25 us",
            "Top CPU / orchestration cost: Python loop 38 ms CPU vs ~15 ms of GPU work",
            "Next experiment: CUDA-graph the decode step and compare ms/token.",
        ]
    )
    assert grade_text(line + "\n", "partB")["five-fields"] is passed


@pytest.mark.parametrize(
    ("top_cpu", "passed"),
    [
        # a sentence's end ends the reach of "rather than" before it
        (
            "Those rows are a design bug rather than a requirement. The tokenizer never appears "
            "on the device (0 ms CUDA), so those 22 ms are paid straight into time-to-first-token.",
            True,
        ),
        # "counts against" TTFT adds to it
        (
            "tokenizer.encode 22 ms host-only; it's serial with the request, so it counts "
            "against TTFT.",
            True,
        ),
        # in everyday words
        (
            "turning the text into tokens takes 22 ms on the regular processor. The graphics card "
            "isn't involved at all, yet the customer waits for it before seeing the first word.",
            True,
        ),
        (
            "tokenizer 22 ms, host side; it never touches the GPU so it's off the critical path.",
            False,
        ),
    ],
)
def test_the_tokenizer_in_more_words(top_cpu: str, passed: bool) -> None:
    text = (
        "Workload: decoder-only LLM, 4096 in, 128 out, bf16, batch 1\nHardware: L4\n"
        "Top CUDA time: matmul 38.4 ms, attention 31.7 ms\n"
        f"Top CPU / orchestration cost: {top_cpu}\n"
        "Next experiment: profile with with_stack=True to find who calls aten::to\n"
    )
    assert grade_text(text, "partA")["tokenizer-outside-gpu"] is passed, top_cpu


@pytest.mark.parametrize(
    ("diagnosis", "criterion", "passed"),
    [
        ("copy_ 19.6 + to 15.1 = 34.7 ms — movement, needs an owner.", "diagnosis-matches", True),
        (
            "copy_ + to ≈ 35 ms is movement/casting that adds nothing to the output.",
            "diagnosis-matches",
            True,
        ),
        (
            "copy_ and to are not model, they are memory traffic which is not free at all and "
            "shouldnt need to happen.",
            "diagnosis-matches",
            True,
        ),
        (
            "The shuffling (~35 ms, 5.6 GiB) is the first thing to explain.",
            "separates-math-from-movement",
            True,
        ),
        # classes run together before one "bound" commit to none
        ("Overall it is math and movement and memory bound.", "diagnosis-matches", False),
        (
            "The bottleneck is a mix of compute and movement and overhead.",
            "diagnosis-matches",
            False,
        ),
    ],
)
def test_part_a_diagnoses_of_round_11(diagnosis: str, criterion: str, passed: bool) -> None:
    assert grade("partA", diagnosis=diagnosis, next="")[criterion] is passed, diagnosis


@pytest.mark.parametrize(
    ("hypotheses", "two"),
    [
        # a paragraph of guesses, their tests in the same paragraph
        (
            "Why would copy_/to show up? My first guess is a dtype mismatch: the mask is fp32 and "
            "every layer casts it to bf16. My second guess is a host/device hop: a tensor built "
            "on the CPU each step gets shipped across PCIe. To separate them: for the first, "
            "print the dtypes at each to() call site. For the second, look for Memcpy HtoD in the "
            "trace.\n",
            True,
        ),
        # everyday words for a dtype cast
        (
            "Why might the copies be there?\n1. The number format doesn't match: data kept in "
            "32-bit gets converted to the model's 16-bit format every time.\n2. Data shuttles "
            "between the CPU and the graphics card every step.\n",
            True,
        ),
    ],
)
def test_hypotheses_in_prose_and_plain_words(hypotheses: str, two: bool) -> None:
    assert grade("partA", hypotheses=hypotheses)["two-hypotheses"] is two


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        ("I'd hold off on the attention kernel — it's already flash attention.", True),
        ("I'd not touch the tokenizer yet: it's CPU work, and the GPU is where the time is.", True),
        ("### Not yet\ncustom attention kernel bc its already flash attention\n", True),
        ("I'd hold off on the attention kernel.", False),
    ],
)
def test_not_yet_in_more_words(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed, not_yet


def test_a_line_that_leaves_something_alone_is_not_the_next_experiment() -> None:
    text = (
        "Copies are the problem — about a third of GPU time.\n"
        "Next experiment: find who calls to() (stack traces on).\n"
        "Leave attention alone; it's already the fast kind.\n"
    )
    got = grade_text(text, "partA")
    assert got["not-yet-with-reason"] and got["one-next-experiment"]


@pytest.mark.parametrize(
    "lead",
    ["**One experiment each**", "R2. Experiments", "**Q2 – experiments**"],
)
def test_more_leads_of_the_experiments(lead: str) -> None:
    found = section_of(lead)
    assert found is not None and found[0] == "experiments"


CONTRAST_B = """Workload: batch 1, prompt 32, decode 128, tiny hidden
Hardware: L4
Top CUDA time: matmul 6.1 ms over 240 calls
Top CPU / orchestration cost: Python decode loop 38 ms vs ~15 ms CUDA; the GPU waits on Python
Next experiment: capture the decode step in a CUDA graph and compare ms/token

Contrast: {contrast}
"""


@pytest.mark.parametrize(
    ("contrast", "criterion", "passed"),
    [
        (
            "In part A the matmul at the top was actual heavy prefill math on a 4096 prompt, in "
            "part B matmul at top is tiny kernels and doesnt mean the GPU is busy.",
            "top-cuda-meaning",
            True,
        ),
        (
            "A fused attention kernel is the wrong thing to try: the table doesn't have any "
            "attention in it, and a faster kernel would just mean the GPU waits longer.",
            "fused-attention-wrong-here",
            True,
        ),
        (
            "Fused attention is wrong here because there is no attention in the profile and "
            "making the kernels faster doesnt matter when the cpu is the limit.",
            "fused-attention-wrong-here",
            True,
        ),
    ],
)
def test_part_b_contrast_in_prose(contrast: str, criterion: str, passed: bool) -> None:
    text = CONTRAST_B.format(contrast=contrast)
    assert grade_text(text, "partB")[criterion] is passed


def test_requirement_labels_name_the_parts() -> None:
    text = CONTRAST_B.format(contrast="") + (
        "- REQ-A: top CUDA op (matmul) = real work on a 4096-token prefill.\n"
        "- REQ-B: top CUDA op (matmul) = biggest of many tiny kernels; the ranking means little.\n"
    )
    assert grade_text(text, "partB")["top-cuda-meaning"]


PART_B_DENIED = """Workload: bs1, 32 prompt, 128 decode, tiny hidden size
Hardware: L4
Top CUDA time: matmul 6.1 ms (240 calls)
Top CPU / orchestration cost: Python decode loop, 38 ms CPU
Next experiment: capture the decode step in a CUDA graph and compare ms/token
{note}
"""


@pytest.mark.parametrize(
    ("note", "passed"),
    [
        # the class denied by name, and nowhere claimed without the denial
        (
            "I wouldn't call this overhead-bound: the 38 ms is Python on the host, which isn't "
            "the GPU's problem; the kernel is the limiter.",
            False,
        ),
        ("I would not call this overhead-bound. The Python loop is just bookkeeping.", False),
        # denied, then taken back with the class named outright
        (
            "At first I would not have called this overhead-bound, but it is overhead-bound: the "
            "GPU waits on Python.",
            True,
        ),
        # a supposition denies nothing
        (
            "If it were not overhead-bound, CUDA graphs would not help; the GPU idles between "
            "launches.",
            True,
        ),
    ],
)
def test_the_class_denied_by_name(note: str, passed: bool) -> None:
    text = PART_B_DENIED.format(note=note)
    assert grade_text(text, "partB")["diagnosis-matches"] is passed, note
