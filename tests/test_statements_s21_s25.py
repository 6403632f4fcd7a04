"""Statements from the eighth unseen round (tests/labelled/s21 ... s25), each as a table row.

The five sets were measured once, unseen (s21-s23, s25: 95.7% with the rules of the stop
before; s24, a set of near misses and grammatical keyword soup: 90.1%), before their
disagreements were read.  The rules written from them are pinned here.
"""

from __future__ import annotations

import pytest

from grader.checks.counting import count
from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report
from tests.test_statements import NO_LEAD, grade


def _field(value: str):
    report = Report.parse(f"Next experiment: {value}\n")
    field = report.field("next_experiment")
    assert field is not None
    return field


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # nothing to run, measure, look up or change: no experiment is named
        ("an experiment that tests the movement-bound hypothesis against the launch one", 0),
        ("an experiment on dtype, device, movement and latency to test the hypothesis", 0),
        ("optimise the launch-overhead/compute balance of the orchestration", 0),
        # short, but each says what to do
        ("CUDA graphs", 1),
        ("find out what's calling aten::to", 1),
        ("check which tensors are fp32 with a forward hook", 1),
        ("time one decode step with and without torch.compile", 1),
    ],
)
def test_an_experiment_says_what_to_do(value: str, n: int) -> None:
    assert count(_field(value)).n == n, value


@pytest.mark.parametrize(
    ("sentence", "passed"),
    [
        # the copies denied as the limit, or counted as the model's own math
        ("copy_ and to take 35 ms, so copies are not the issue here.", False),
        ("copy_ and to (35 ms), which is the attention compute expressed as a copy.", False),
        # several classes, or everything, at once commits to none
        ("copy_ and to are unexplained; the run is movement-bound and compute-bound.", False),
        ("The run is limited by everything in the table at once.", False),
        # one class, said plainly, still passes
        ("copy_ and to are unexplained movement, so the run is movement-bound.", True),
        ("The run is not compute-bound; it is movement-bound.", True),
    ],
)
def test_a_diagnosis_that_denies_or_commits_to_none(sentence: str, passed: bool) -> None:
    got = grade("partA", diagnosis=sentence, next=NO_LEAD)
    assert got["diagnosis-matches"] is passed, sentence


@pytest.mark.parametrize(
    ("sentence", "passed"),
    [
        # the reason given claims the other class: the CPU waits on the GPU
        (
            "The run is overhead-bound: the matmuls are too slow, so the CPU waits for the GPU.",
            False,
        ),
        ("The run is overhead-bound: the GPU waits for the CPU between tiny launches.", True),
    ],
)
def test_overhead_with_the_wrong_direction(sentence: str, passed: bool) -> None:
    got = grade(
        "partB", diagnosis=sentence, attention_2="A faster kernel is not the answer.", next=NO_LEAD
    )
    assert got["diagnosis-matches"] is passed, sentence


def test_a_soup_of_classes_in_part_c_earns_no_diagnosis() -> None:
    text = (
        "Workload: 7B model, decode, batch 1.\nHardware: L4.\n"
        "Top CUDA time: aten::copy_ at 61%, which is the attention compute expressed as a copy.\n"
        "Top CPU / orchestration cost: the CPU launch overhead of the tokenizer.\n"
        "Next experiment: an experiment on dtype, device, movement and latency.\n"
    )
    result = grade_report(Report.parse(text), resolve_exercise("partC"))
    got = {c.id: c.passed for c in result.criteria}
    assert not got["diagnosis-matches"] and not got["one-next-experiment"]
    assert got["copy-share-stated"] and got["field-names-exact"]  # what it does say


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # a probe, then the fix of what it finds, then a measure: one experiment
        (
            "Check if the KV cache is in float32 while the weights are bf16. If yes, make the "
            "cache bf16 and profile again to see if copy_ goes down.",
            1,
        ),
        (
            "find the .to(device) / .cpu() calls in the decode loop with a with_stack profile "
            "and remove the per-token host↔device round-trip.",
            1,
        ),
        (
            "check whether the KV cache is kept in fp32 and converted/moved every step; keep it "
            "as a bf16 tensor on the GPU and re-profile",
            1,
        ),
        # a probe and an unrelated change, or one added on: two
        (
            "profile with with_stack=True to find which lines call aten::to, and also allocate "
            "the KV cache in bf16 from the start to see whether the casts go away",
            2,
        ),
        ("with_stack=True to find the to() callers; in parallel swap SDPA for FlashAttention-3", 2),
    ],
)
def test_a_probe_and_the_fix_of_what_it_finds_are_one_experiment(value: str, n: int) -> None:
    assert count(_field(value)).n == n, value


@pytest.mark.parametrize(
    "sentence",
    [
        "matmul 38.4ms, attn 31.7ms. copy_+to = 34.7ms which is a lot just for moving data "
        "around, need to explain that before anything else.",
        "matmul + flash attn ≈ 70 ms of genuine model math; copy_ + to ≈ 35 ms of data movement "
        "that nobody has justified yet.",
        "matmul + flash attn = the actual work. copy_ + to = 34.7 ms on top of that. That part "
        "is traffic we probably generate ourselves.",
        "matmul and attention are the model math. copy_ and to are data movement that could "
        "probably be trimmed.",
        "matmul + attention ≈ 70 ms model compute; copy_ + to ≈ 35 ms pure data movement. The "
        "movement is the anomaly.",
    ],
)
def test_math_set_apart_from_movement_in_own_words(sentence: str) -> None:
    got = grade("partA", diagnosis=sentence, next=NO_LEAD)
    assert got["separates-math-from-movement"], sentence


def test_the_host_as_the_main_problem_is_another_class_in_part_a() -> None:
    diagnosis = (
        "copy_ and to are data movement that could be trimmed. The main problem here is the "
        "host: the tokenizer is the biggest op on the CPU."
    )
    assert not grade("partA", diagnosis=diagnosis, next=NO_LEAD)["diagnosis-matches"]
    got = grade(
        "partB",
        diagnosis="The main problem here is the host.",
        attention_2="A faster kernel is not the answer.",
        next=NO_LEAD,
    )
    assert got["diagnosis-matches"]


@pytest.mark.parametrize(
    ("sentence", "passed"),
    [
        # "later" after a time is when, not a deferral; "out of the TTFT" is part of it
        ("The tokenizer: 22 ms on the host, so the first token comes 22 ms later.", True),
        (
            "Tokenisation is done by the CPU, so CUDA says 0 ms; the 22 ms nevertheless come "
            "straight out of the time-to-first-token.",
            True,
        ),
        ("The encode step lives on the host, but the user still waits for it.", True),
        ("The tokenizer is CPU-only, so I would leave it out of the GPU analysis.", False),
    ],
)
def test_the_tokenizer_in_more_words(sentence: str, passed: bool) -> None:
    text = (BASE_A_TOKENIZER).format(tokenizer=sentence)
    result = grade_report(Report.parse(text), resolve_exercise("partA"))
    got = {c.id: c.passed for c in result.criteria}
    assert got["tokenizer-outside-gpu"] is passed, sentence


BASE_A_TOKENIZER = """Workload: decoder-only LLM, 4096 prompt, 128 out, bf16, batch 1
Hardware: L4
Top CUDA time: matmul and attention are the math; copy_ and to are unexplained movement.
Top CPU / orchestration cost: {tokenizer}
Next experiment: profile with with_stack=True and find which code calls aten::to.
"""


@pytest.mark.parametrize(
    ("a_line", "b_line"),
    [
        (
            "A top = matmul doing real 4k-token prefill math",
            "B top = matmul too, but each call is tiny",
        ),
        ("A: matmul at the top was real prefill math.", "B: matmul at the top is a red herring."),
    ],
)
def test_what_the_top_name_means_in_terse_bullets(a_line: str, b_line: str) -> None:
    contrast = f"- {a_line}\n- {b_line}\n- A copies, B python\n- no attention in B, GPU idle"
    result = grade_report(
        Report.parse(TERSE_B.format(contrast=contrast)), resolve_exercise("partB")
    )
    assert {c.id: c.passed for c in result.criteria}["top-cuda-meaning"]


TERSE_B = """Workload: bs1, 32 prompt, 128 decode, tiny
Hardware: L4
Top CUDA time: matmul 6.1ms over 240 calls
Top CPU / orchestration cost: python loop 38ms
Next experiment: CUDA graphs

Contrast with Part A:
{contrast}
"""


@pytest.mark.parametrize(
    "hypotheses",
    [
        # the decisive outcome makes the test, whatever verb opens it
        "Hypotheses:\n1. The attention mask is created in fp32 and cast in every layer.\n"
        "2. The logits go to the CPU with .cpu() for sampling.\n\nExperiments:\n"
        "1. Create the mask on cuda in bf16 → if to/copy_ drop, hypothesis 1 is right.\n"
        "2. Do the sampling on the GPU → if the DtoH copies disappear, hypothesis 2 is right.\n",
        # an "Experiments:" line right under the list, each test saying whom it tests
        "Why copy_/to exist:\n1. Casting the prompt embeddings to bf16.\n"
        "2. Moving the input ids from the CPU to the GPU.\n"
        "Experiments: check the dtype of the embeddings before/after (for 1); look for HtoD "
        "memcpy in the trace (for 2).\n",
        # in prose: the stack traces "would show whether"
        "I have two candidate explanations. The first is that the KV cache was allocated in "
        "float32, so every layer casts it. I would check the cache's dtype and then allocate it "
        "in bf16. The second is that q/k/v are transposed into non-contiguous views and "
        "`.contiguous()` materialises them. The stack traces from a with_stack run would show "
        "whether copy_ is called from `contiguous`.\n",
    ],
)
def test_an_experiment_per_hypothesis_in_more_layouts(hypotheses: str) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"] and got["experiment-per-hypothesis"], hypotheses


@pytest.mark.parametrize(
    "stretch",
    [
        '**Stretch: ranges for the next run**\n\n`record_function("tokenize")`, '
        '`record_function("h2d_inputs")`, `record_function("decode_step")`.',
        'Q: Which ranges would you add?\nA: `"tokenize"`, `"prepare_inputs"`, `"sample"`.',
    ],
)
def test_named_ranges_in_a_list_of_calls_or_a_q_and_a(stretch: str) -> None:
    assert grade("partA", stretch=stretch)["stretch-named-ranges"], stretch


@pytest.mark.parametrize(
    ("cuda", "cpu", "passed"),
    [
        ("aten::copy_ at 61% of CUDA time", "the Python decode loop", True),
        ("aten::matmul is the top CUDA op", "aten::copy_ - 61% of CPU time", False),
        ("aten::matmul is the top CUDA op", "aten::copy_ - 61%", False),
        ("aten::mm first", "aten::copy_ at 61% of the GPU time, moved by the host", True),
    ],
)
def test_the_copy_share_is_a_share_of_cuda_time(cuda: str, cpu: str, passed: bool) -> None:
    text = (
        f"Workload: 7B model, decode, batch 1\nHardware: L4\nTop CUDA time: {cuda}\n"
        f"Top CPU / orchestration cost: {cpu}\nNext experiment: log the KV cache dtype\n"
    )
    result = grade_report(Report.parse(text), resolve_exercise("partC"))
    assert {c.id: c.passed for c in result.criteria}["copy-share-stated"] is passed


@pytest.mark.parametrize(
    "sentence",
    [
        "Workload: decode. The run is overhead-bound, with MMA-bound kernels behind it.",
        "matmul, attention, copy_ and to: movement/compute/overhead all relevant here.",
    ],
)
def test_every_class_at_once_is_no_overhead_or_movement_diagnosis(sentence: str) -> None:
    got = grade(
        "partB", diagnosis=sentence, attention_2="A faster kernel is not the answer.", next=NO_LEAD
    )
    assert not got["diagnosis-matches"], sentence


def test_one_run_that_tests_both_hypotheses_in_prose() -> None:
    hypotheses = (
        "Hypotheses. First, a dtype mismatch: the attention mask is fp32 and gets cast to bf16 "
        "in every layer. Second, a device mismatch: position_ids sit on the CPU and get copied "
        "to the GPU per layer.\nBoth are tested by the logging run: for the first, the log "
        "shows fp32→bf16 with the device unchanged; for the second, it shows cpu→cuda.\n"
    )
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"] and got["experiment-per-hypothesis"]


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # what the run should show is not an alternative to it
        (
            "check the dtype and device of the KV cache with forward hooks; I expect either an "
            "fp32 cache being cast every step or a cache living on the CPU.",
            1,
        ),
        ("either torch.compile or CUDA graphs, whichever is quicker to set up", 2),
    ],
)
def test_expected_outcomes_are_not_alternatives(value: str, n: int) -> None:
    assert count(_field(value)).n == n, value
