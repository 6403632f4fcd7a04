"""Reading reports: field layouts, negation scope, counting experiments; one table each."""

from __future__ import annotations

import pytest

from grader.checks.attention import attention_proposal
from grader.checks.claims import find_wrong_claim
from grader.checks.common import find_statement
from grader.checks.counting import count as count_experiments
from grader.report.model import Report

FIVE = ["workload", "hardware", "top_cuda", "top_cpu", "next_experiment"]


@pytest.mark.parametrize(
    "text",
    [
        "Workload: a\nHardware: b\nTop CUDA time: c\nTop CPU / orchestration cost: d\n"
        "Next experiment: e\n",
        "**Workload:** a\n**Hardware:** b\n**Top CUDA time:** c\n"
        "**Top CPU / orchestration cost:** d\n**Next experiment:** e\n",
        "_Workload_ - a\n_Hardware_ - b\n_Top CUDA time_ - c\n_Top CPU/orchestration_ - d\n"
        "_Next experiment_ - e\n",
        "## Workload\na\n\n## Hardware\nb\n\n## Top CUDA time\nc\n\n"
        "## Top CPU / orchestration cost\nd\n\n## Next experiment\ne\n",
        "- Workload: a\n- Hardwre: b\n- Top CUDA time: c\n- Top CPU/orchestration: d\n"
        "- Next experiments: e\n",
        "1. Workload — a\n2. Hardware — b\n3. Top CUDA time — c\n"
        "4. Top CPU / orchestration cost — d\n5. Next experiment — e\n",
        "| Field | Value |\n|---|---|\n| Workload | a |\n| Hardware | b |\n"
        "| Top CUDA time | c |\n| Top CPU / orchestration cost | d |\n| Next experiment | e |\n",
        "```\nWorkload: a\nHardware: b\nTop CUDA time: c\nTop CPU / orchestration cost: d\n"
        "Next experiment: e\n```\n",
        "WORKLOAD: a\nHARDWARE: b\nTOP CUDA TIME (ms): c\nTOP CPU  /  ORCHESTRATION COST: d\n"
        "NEXT EXPERIMENT = e\n",
    ],
    ids=[
        "plain",
        "bold",
        "italic-dash",
        "headings",
        "bullets-typos",
        "numbered-emdash",
        "table",
        "code-block",
        "caps-spacing",
    ],
)
def test_five_fields_in_any_layout(text):
    report = Report.parse(text)
    assert list(report.fields) == FIVE
    assert [report.fields[k].value for k in FIVE] == ["a", "b", "c", "d", "e"]


@pytest.mark.parametrize(
    ("sentence", "proposed"),
    [
        ("I would NOT write a custom attention kernel yet.", False),
        ("Maybe also try FlashAttention-3.", True),
        ("Could try FlashAttention-2 too.", True),
        ("Rather than a custom attention kernel, profile the copies.", False),
        ("Only once the casts are gone would I try FlashAttention-3.", False),
        ("Once the copies are explained, FlashAttention-3 might be worth a look.", False),
        ("I won't be swapping in FlashAttention-3 at this stage.", False),
        ("FlashAttention-3 is not needed here.", False),
        ("A fused attention kernel would be the wrong next experiment here.", False),
        ("If time permits, we could also try a fused attention kernel.", True),
        ("I would not use with_stack; instead I'd try FlashAttention-3.", True),
        ("The attention op is already flash attention.", False),
        ("flash attention 31.7 ms is the second row.", False),
        ("Don't bother with xformers until the launch overhead is gone.", False),
        ("I would not write and ship a FlashAttention-3 port now.", False),
        ("Do not swap in FlashAttention-3 or xformers.", False),
        ("We should avoid both FlashAttention-3 and xformers.", False),
        ("The copies are not math and maybe try FlashAttention-3 too.", True),
    ],
)
def test_attention_proposals_respect_negation_and_order(sentence, proposed):
    assert (attention_proposal(Report.parse(sentence)) is not None) is proposed


@pytest.mark.parametrize(
    ("sentence", "states", "wrong"),
    [
        ("Top CUDA time: copies are the problem to look at first.", True, False),
        ("Top CUDA time: Movement, not math, dominates this decode.", True, False),
        ("Top CUDA time: the copies are not the bottleneck; the math is.", False, False),
        ("Top CUDA time: The GPU is busy doing math, so it is compute-bound.", False, True),
        (
            "Top CUDA time: it looks compute-bound at first glance, but actually the copies are "
            "the problem.",
            True,
            False,
        ),
        (
            "Top CUDA time: copy, cast, dtype, bottleneck, problem, first, explain, avoidable.",
            False,
            False,
        ),
        ("Top CUDA time: Compute-bound? Movement-bound?", False, False),
        (
            "Top CUDA time: copy_ and to are not model math and probably should not be there.",
            True,
            False,
        ),
        ("Top CUDA time: copy_ is bigger than everything else combined.", True, False),
        ("Top CUDA time: copy_ is 61%, but attention is the real problem.", False, True),
    ],
)
def test_diagnosis_statements(sentence, states, wrong):
    report = Report.parse(sentence)
    assert (find_statement(report, "movement-bound", "partA") is not None) is states
    assert (find_wrong_claim(report, "movement-bound", "partA") is not None) is wrong


@pytest.mark.parametrize(
    ("value", "count"),
    [
        (
            "wrap the model call in record_function ranges and re-profile to see who calls to()",
            1,
        ),
        ("torch.compile(mode='reduce-overhead') (which captures a CUDA graph) and compare", 1),
        ("try torch.compile, CUDA graphs, larger batch and a fused kernel", 4),
        ("cast the KV cache to bf16 at allocation and build the inputs on the GPU", 2),
        ("torch.compile the decode step, or try CUDA graphs", 2),
        ("1) profile with with_stack=True 2) cast the cache to bf16 once", 2),
        ("torch.compile the decode step so the copies get fused away", 1),
        ("int8 quantization to make the matmuls faster", 1),
        ("with_stack, record_function, NVTX, torch.compile, CUDA graphs", 0),
        ("CUDA-graph the decode step, or torch.compile it", 2),
    ],
)
def test_counting_experiments(value, count):
    field = Report.parse(f"Next experiment: {value}").fields["next_experiment"]
    assert count_experiments(field)[0] == count


def test_list_of_changes_counts_but_a_measurement_step_does_not():
    several = Report.parse("Next experiment:\n- torch.compile\n- CUDA graphs\n")
    one = Report.parse("Next experiment:\n- capture a CUDA graph\n- compare ms/token\n")
    assert count_experiments(several.fields["next_experiment"])[0] == 2
    assert count_experiments(one.fields["next_experiment"])[0] == 1


def test_hard_wrapped_sentence_is_read_whole():
    report = Report.parse(
        "Top CUDA time: copy_ and to are 35 ms of movement\nthat should not be there.\n"
    )
    assert find_statement(report, "movement-bound", "partA") is not None


def test_a_fused_attention_kernel_is_one_change_not_two():
    field = Report.parse("Next experiment: switch to a fused attention kernel").fields
    assert count_experiments(field["next_experiment"])[0] == 1


def test_a_text_is_read_for_so_many_mentions_of_one_concept_and_no_more():
    """A line that repeats a mention to the size limit costs bounded time: only the first
    MAX_MENTIONS of one concept are read, each for its negation."""
    from grader.report.language import MAX_MENTIONS, mentions

    many = "flash attention " * (MAX_MENTIONS + 100)
    assert len(mentions("attention_kernel", many)) == MAX_MENTIONS
    assert len(mentions("attention_kernel", "flash attention " * 3)) == 3
    # past the limit nothing is read, however it is said
    late = "not flash attention " * MAX_MENTIONS + "switch to xformers"
    assert mentions("attention_kernel", late) == ()
