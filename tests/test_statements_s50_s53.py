"""Statements from the sixteenth unseen round, each a table row.

s50 to s53 were measured once, unseen, with the rules of 262f1f7 (95.2%), before their
disagreements were read.  The rules written from them are pinned here.
"""

from __future__ import annotations

import pytest

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report
from tests.test_statements import BASES, DEFAULTS, NO_LEAD, experiments_in, grade, grade_text

# The five fields of a good Part A report, no judgement in them (lines 1-5).
BASE_FIELDS = """\
Workload: decoder-only LLM, prompt 4096 tokens, output 128 tokens, bf16 weights, batch 1
Hardware: NVIDIA L4
Top CUDA time: matmul 38.4 ms, flash attention 31.7 ms, copy_ 19.6 ms, to 15.1 ms
Top CPU / orchestration cost: tokenizer.encode, 22 ms of CPU and no CUDA
Next experiment: rerun the same request on an A100 and compare the totals.
"""

FIVE_AS_COLUMNS = """\
| Workload | Hardware | Top CUDA time | Top CPU / orchestration cost | Next experiment |
|---|---|---|---|---|
| batch 1, 4096-token prompt | L4 | matmul 38.4 ms, flash attention 31.7 ms | tokenizer 22 ms \
| rerun with with_stack=True and find who calls aten::to |
"""


TOKENIZER = (
    "Top CPU / orchestration cost: tokenizer.encode takes 22 ms on the CPU and 0 ms of CUDA, "
    "but it still adds to TTFT."
)


def separates(diagnosis: str) -> bool:
    """separates-math-from-movement on a diagnosis, beside a Next experiment that aims at no
    class (so the row is judged on its own words)."""
    return grade("partA", diagnosis=diagnosis, next=NO_LEAD)["separates-math-from-movement"]


def fused_attention_reason(bullet: str) -> bool:
    """fused-attention-wrong-here on a contrast bullet, beside one that says nothing of it."""
    got = grade("partB", attention_1="Matmul is on top in both parts.", attention_2=bullet)
    return got["fused-attention-wrong-here"]


def tokenizer_line(line: str) -> bool:
    """tokenizer-outside-gpu with ``line`` in place of the base report's tokenizer line."""
    text = (BASES / "base_partA.md").read_text()
    assert TOKENIZER in text
    return grade_text(text.replace(TOKENIZER, line).format(**DEFAULTS["partA"]), "partA")[
        "tokenizer-outside-gpu"
    ]


def test_the_five_fields_as_a_tables_columns() -> None:
    report = Report.parse(FIVE_AS_COLUMNS)
    fields = {key: f.value for key, f in report.fields.items()}
    assert fields["hardware"] == "L4"
    assert fields["next_experiment"] == "rerun with with_stack=True and find who calls aten::to"
    got = grade_text(FIVE_AS_COLUMNS, "partA")
    assert got["five-fields"] and got["one-next-experiment"]
    # the quote is the cell that decided, as written, not the row's first cell
    result = grade_report(report, resolve_exercise("partA"))
    one = next(c for c in result.criteria if c.id == "one-next-experiment")
    assert one.evidence is not None and one.evidence.text.startswith("rerun with")


def test_a_header_row_naming_two_fields_is_no_five_field_layout() -> None:
    text = "| Workload | Hardware | Notes |\n|---|---|---|\n| batch 1 | L4 | fine |\n"
    hardware = Report.parse(text).fields.get("hardware")
    assert hardware is None or hardware.value != "L4"


@pytest.mark.parametrize(
    ("heading", "passed"),
    [("# §4 Not yet", True), ("# § 4. Not yet", True), ("# §4 Summary", False)],
)
def test_a_section_sign_numbers_a_heading(heading: str, passed: bool) -> None:
    not_yet = f"{heading}\n\naten::slice: 436 calls but only 1.4 ms of CUDA, about 1% of the total."
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # "the latter" speaks of the last thing named
        (
            "That is 70 ms of math and 35 ms of data movement (copy_, to). The latter is not "
            "required by the model.",
            True,
        ),
        ("copy_ + to are 35 ms of movement. It should be explainable.", True),
        ("copy_ + to are 35 ms of movement. They must be accounted for.", True),
        ("copy_ + to are 35 ms of movement. The latter two are the attention's own work.", False),
    ],
)
def test_the_latter_and_a_need_for_an_account(diagnosis: str, passed: bool) -> None:
    assert separates(diagnosis) is passed


def test_a_question_that_sets_movement_against_math_opens_no_hypotheses() -> None:
    text = (
        BASE_FIELDS + "\nQ. What is math and what is movement?\nA. Math: matmul + attention,"
        " 70 ms. Movement: copy_ + to, 35 ms. The movement should be explainable.\n"
    )
    report = Report.parse(text)
    where = {t.number: t.where for t in report.text_lines}
    assert where[7] != "hypotheses"
    assert grade_text(text, "partA")["separates-math-from-movement"]
    # a question about where the copies come from does open the hypotheses
    asked = Report.parse(BASE_FIELDS + "\nWhere do the copies come from?\nfp32 casts.\n")
    assert {t.number: t.where for t in asked.text_lines}[7] == "hypotheses"


@pytest.mark.parametrize(
    ("hypotheses", "passed"),
    [
        # a test lead with a full stop, each under its hypothesis
        (
            "H1 (dtype). An fp32 mask is cast to bf16 in every layer.\n\n"
            "*Test.* Log the dtype of every layer input with a pre-hook.\n\n"
            "H2 (host to device). The inputs are built on the CPU each step.\n\n"
            "*Test.* Look for Memcpy HtoD rows in the trace.",
            True,
        ),
        # an arrow back to the claim
        (
            "H1. Casts: an fp32 tensor is converted to bf16 per layer. ⇐ test: log x.dtype.\n"
            "H2. Transfers: host-built tensors copied to the device. ⇐ test: count Memcpy HtoD "
            "events in the trace.",
            True,
        ),
        # subscript labels
        (
            "**H_a.** fp32 activations meet bf16 weights, a cast on every call.\n"
            "Test: assert x.dtype == torch.bfloat16 at each Linear input.\n"
            "**H_b.** .contiguous() on transposed K/V views before SDPA.\n"
            "Test: print q.is_contiguous() and fix the layout upstream.",
            True,
        ),
        # both tests after both hypotheses, in their order
        (
            "H1 fp32→bf16 casts; H2 CPU→GPU upload of inputs. Tests: dtype hooks on layer "
            "inputs; HtoD memcpy rows in the trace.",
            True,
        ),
        (
            "H1 fp32→bf16 casts; H2 CPU→GPU upload of inputs. Tests: dtype hooks on layer inputs.",
            False,
        ),
    ],
)
def test_more_layouts_of_hypotheses_and_tests(hypotheses: str, passed: bool) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"] is passed


def test_a_lead_that_names_its_part_in_brackets() -> None:
    not_yet = "Remark (not yet). The attention kernel: it is already flash attention."
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"]
    assert not grade("partA", not_yet="Remark (aside). The attention kernel is flash.")[
        "not-yet-with-reason"
    ]


@pytest.mark.parametrize(
    ("attention_2", "passed"),
    [
        ("[bullet 4]", False),
        ("TODO", False),
        ("...", False),
        ("The GPU waits on Python, so a fused attention kernel cannot help.", True),
    ],
)
def test_a_templates_bullet_left_as_it_was_is_no_bullet(attention_2: str, passed: bool) -> None:
    assert grade("partB", attention_2=attention_2)["contrast-four-bullets"] is passed


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # a second-language writer's "not model": not the model's own work
        (
            "After them is copy_ and to, together 34.7 ms, this is not model, is moving of the "
            "data.",
            True,
        ),
        (
            "copy_ 19.6 ms + to 15.1 ms (the movement we maybe do not want) is a third of the "
            "GPU time.",
            True,
        ),
        ("copy_ 19.6 ms + to 15.1 ms are not the model's fault, they are normal.", False),
        ("copy_ 19.6 ms + to 15.1 ms: the movement we want, part of the model.", False),
    ],
)
def test_movement_the_model_does_not_want(diagnosis: str, passed: bool) -> None:
    assert separates(diagnosis) is passed


@pytest.mark.parametrize(
    ("paragraph", "passed"),
    [
        (
            "For why copy_ and to exist, my first hypothesis is dtype: the mask is fp32 and is "
            "cast to bf16 in every layer. To test it, I print the dtypes with a hook. My second "
            "hypothesis is device: some tensor is created on CPU and copied to the GPU each "
            "step. To test it, I look for Memcpy HtoD in the trace.",
            True,
        ),
        # the first named, no second: one hypothesis
        (
            "For why copy_ and to exist, my first hypothesis is dtype: the mask is fp32 and is "
            "cast to bf16 in every layer. To test it, I print the dtypes with a hook.",
            False,
        ),
    ],
)
def test_hypotheses_counted_first_and_second_in_prose(paragraph: str, passed: bool) -> None:
    got = grade("partA", hypotheses=paragraph)
    assert got["two-hypotheses"] is passed
    assert got["experiment-per-hypothesis"] is passed


@pytest.mark.parametrize(
    ("line", "passed"),
    [
        (
            "Top CPU / orchestration cost: tokenizer.encode, 22 ms. It's free in the sense that "
            "the GPU never sees it. The user does: that's 22 ms before token one, every request.",
            True,
        ),
        (
            "Top CPU / orchestration cost: tokenizer.encode, 22 ms on the CPU, outside GPU time, "
            "added to every request.",
            True,
        ),
        (
            "Top CPU / orchestration cost: tokenizer.encode, 22 ms. It runs on the CPU, so it's "
            "outside the GPU time and doesn't really count toward the request; it's a one-off "
            "before the model starts.",
            False,
        ),
        (
            "Top CPU / orchestration cost: tokenizer.encode runs on the CPU and is not part of "
            "the request latency.",
            False,
        ),
    ],
)
def test_the_latency_half_in_other_words_and_denied(line: str, passed: bool) -> None:
    assert tokenizer_line(line) is passed


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        (
            "copy_ (19.6) and to (15.1) are the uninvited guests: 35 ms that for a bf16 batch-1 "
            "request should be roughly zero.",
            True,
        ),
        ("copy_ (19.6) and to (15.1) should be about zero.", True),
        ("copy_ (19.6) and to (15.1) are the guests of honour.", False),
    ],
)
def test_movement_that_should_be_about_zero(diagnosis: str, passed: bool) -> None:
    assert separates(diagnosis) is passed


@pytest.mark.parametrize(
    ("attention_2", "passed"),
    [
        (
            "Fused attention: wrong for B, there is no attention op to fuse and the time is not "
            "in any kernel, it is in the gaps between them.",
            True,
        ),
        (
            "Fused attention is the wrong next experiment in B: no attention in the table, and "
            "faster kernels do not help when GPU waits for launches.",
            True,
        ),
        ("Fused attention is the wrong next experiment in B: no attention in the table.", False),
    ],
)
def test_a_faster_kernel_that_cannot_close_the_gaps(attention_2: str, passed: bool) -> None:
    assert fused_attention_reason(attention_2) is passed


B_CONTRAST = """\
Workload: batch 1, prompt 32, decode 128, tiny hidden size
Hardware: L4
Top CUDA time: aten::matmul, 6.1 ms over 240 calls.
Top CPU / orchestration cost: the Python decode loop, 38 ms of CPU time.
Next experiment: capture the decode step in a CUDA graph and compare the time per token.

Contrast with Part A:
- Part A: matmul at the top is the prefill math doing real work.
- {b_line}
- A is movement-bound, B is overhead-bound.
- No attention op in B, and the GPU waits on launches, so a fused kernel cannot help.
"""


@pytest.mark.parametrize(
    ("b_line", "passed"),
    [
        # the bullet names its part once; its next sentence goes on speaking of it
        (
            "Part B: matmul at the top is trivia. Each call is tens of microseconds and the GPU "
            "is idle.",
            True,
        ),
        ("Part B, top CUDA name: matmul at 6.1 ms is top by default.", True),
        ("Part B: matmul at the top again. Each call is tens of microseconds.", True),
        ("Part B: matmul at the top again. It is the real cost here too.", False),
    ],
)
def test_a_bullets_part_carries_to_its_next_sentence(b_line: str, passed: bool) -> None:
    got = grade_text(B_CONTRAST.format(b_line=b_line), "partB")
    assert got["top-cuda-meaning"] is passed


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # another way to make the same thing, named by "it": one change
        (
            "fuse add+relu into a single Triton elementwise kernel (or let torch.compile "
            "generate it) and count launches per token before and after",
            1,
        ),
        (
            "capture the decode step in CUDA graphs (or use torch.compile to do it) and compare "
            "ms/token",
            1,
        ),
        ("write a Triton kernel (or just try FlashAttention-3)", 2),
        ("fuse add+relu into one kernel (or raise the batch to 8)", 2),
    ],
)
def test_another_means_to_the_same_change(value: str, n: int) -> None:
    assert experiments_in(value) == n


def test_a_fused_attention_judged_the_wrong_step_proposes_nothing() -> None:
    attention_2 = (
        "Fused attention is the wrong next step because writing a custom attention kernel is "
        "a lot of engineering effort for a small model."
    )
    assert grade("partB", attention_2=attention_2)["no-premature-attention-kernel"]
    proposal = "Next I would write a custom attention kernel for this model."
    assert not grade("partB", attention_2=proposal)["no-premature-attention-kernel"]


def test_a_templates_comment_is_not_read() -> None:
    text = (BASES / "base_partA.md").read_text().format(**DEFAULTS["partA"])
    commented = text.replace("Top CUDA time: ", "Top CUDA time: <!-- write here --> ")
    report = Report.parse(commented)
    assert "write here" not in report.fields["top_cuda"].value
    assert grade_text(commented, "partA")["no-premature-attention-kernel"]
    # the comment's lines are blanked where they stand: later lines keep their numbers
    two_lines = "<!-- fill in\nthe five fields -->\nHardware: L4\n"
    assert Report.parse(two_lines).fields["hardware"].label_line == 3


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # twelve words or more of bare terms, whatever follows after a comma
        (
            "movement-bound copy_ to bf16 L4 4096 matmul flash attention model math vs avoidable "
            "movement tokenizer CPU TTFT latency, one next experiment with_stack record_function, "
            "not a custom attention kernel, discipline tool boring evidence.",
            False,
        ),
        (
            "math (matmul + FA ≈ 70 ms) vs movement (copy_ + to ≈ 35 ms), the movement needs an "
            "explanation.",
            True,
        ),
    ],
)
def test_a_long_run_of_terms_says_nothing(diagnosis: str, passed: bool) -> None:
    assert separates(diagnosis) is passed


@pytest.mark.parametrize(
    ("next_experiment", "passed"),
    [
        # "CUDA time" is a column of the table, not the device a tensor lives on
        ("Next experiment: quantize the weights to int8 and compare total CUDA time.", False),
        ("Next experiment: create the mask with device='cuda' and compare total CUDA time.", True),
    ],
)
def test_cuda_time_is_not_a_device(next_experiment: str, passed: bool) -> None:
    got = grade("partA", next=next_experiment)
    assert got["next-experiment-targets-bottleneck"] is passed


def test_tuning_the_gemm_is_a_change_of_its_own() -> None:
    value = "tune the GEMM (try cuBLASLt autotune) and quantize weights to int8"
    assert experiments_in(value) == 2
    assert experiments_in("tune the GEMM with cuBLASLt autotune and compare ms") == 1


def test_a_question_as_lead_is_answered_below() -> None:
    not_yet = (
        "**Q3. One thing you would not optimize yet, and why?**\n"
        "A: Not the attention kernel — it's already flash, and the copies are unexplained.\n"
    )
    text = (BASES / "base_partA.md").read_text().format(**{**DEFAULTS["partA"], "not_yet": not_yet})
    text = text.replace("Workload:", "**Q1. Workload?**\nA:").replace(
        "Hardware:", "**Q2. Hardware?**\nA:"
    )
    assert grade_text(text, "partA")["not-yet-with-reason"]


@pytest.mark.parametrize(
    ("hypotheses", "passed"),
    [
        # both parts in one paragraph, the tests numbered after their own label
        (
            "Hypotheses: (1) fp32 tensors meeting bf16 weights, so every layer casts; (2) logits "
            "going to the CPU via .cpu() every step. Experiments: (1) check dtypes in the "
            "record_shapes output for the to() calls; (2) count DtoH memcpys in the trace.",
            True,
        ),
        # a hypothesis's own test on its line stays with it
        (
            "H1 - fp32 mask cast to bf16 each layer. Experiment: dtype asserts at the layer "
            "entry.\nH2 - logits .cpu() each step. Experiment: move sampling to the GPU and check "
            "whether the DtoH memcpys drop.",
            True,
        ),
        (
            "Hypotheses: (1) fp32 tensors meeting bf16 weights, so every layer casts; (2) logits "
            "going to the CPU via .cpu() every step. Experiments: (1) check dtypes in the "
            "record_shapes output for the to() calls.",
            False,
        ),
    ],
)
def test_experiments_labelled_inside_the_hypotheses_paragraph(hypotheses: str, passed: bool):
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"] is passed


PART_C = """\
Workload: Llama-style 7B, decode, batch 1, bf16
Hardware: L4
Top CUDA time: aten::copy_ at 61% of CUDA time. {top}
Top CPU / orchestration cost: the Python sampling loop
Next experiment: {next}
"""


@pytest.mark.parametrize(
    ("top", "next_experiment", "criterion", "passed"),
    [
        # a device move named as "between CPU and GPU"
        (
            "The run is mostly moving data.",
            "trace who calls copy_ (with_stack=True) and look "
            "for tensors moved between CPU and GPU every step",
            "next-experiment-targets-bottleneck",
            True,
        ),
        # what a healthy decode would show is not a claim about this one
        (
            "I'd expect a decode to be bandwidth heavy but dominated by the matmuls, not by "
            "copies. Here more than half the time is copying, the thing to explain first.",
            "one with_stack=True run to find the call sites of aten::copy_",
            "diagnosis-matches",
            True,
        ),
        (
            "The run is dominated by the matmuls, not by copies.",
            "one with_stack=True run to find the call sites of aten::copy_",
            "diagnosis-matches",
            False,
        ),
        # a step after a reason set between commas is a step
        (
            "The copies are the whole story.",
            "check the dtype of the KV cache and, because why "
            "not while we're in there, switch attention to FlashAttention-2",
            "one-next-experiment",
            False,
        ),
        (
            "The copies are the whole story.",
            "check the dtype of the KV cache, because a cast every step would explain the copies",
            "one-next-experiment",
            True,
        ),
    ],
)
def test_part_c_statements(top: str, next_experiment: str, criterion: str, passed: bool) -> None:
    got = grade_text(PART_C.format(top=top, next=next_experiment), "partC")
    assert got[criterion] is passed


@pytest.mark.parametrize(
    ("attention_2", "passed"),
    [
        # "no attention ... and the GPU waits": the denial stays in its own clause
        (
            "Fused attention would be the wrong experiment for B because the table shows no "
            "attention work and the GPU waits for the CPU to issue launches.",
            True,
        ),
        (
            "B's profile has zero attention rows, and the GPU is launch-starved, so a fused "
            "attention kernel would speed up nothing that matters.",
            True,
        ),
        (
            "Fused attention is wrong for B: attention isn't even in the table, and a faster "
            "kernel can't help a GPU that waits on the host.",
            True,
        ),
        (
            "Fused attention is wrong for B: the table shows no attention work and the GPU is "
            "never waiting.",
            False,
        ),
    ],
)
def test_no_attention_and_a_waiting_gpu_in_one_sentence(attention_2: str, passed: bool):
    assert fused_attention_reason(attention_2) is passed


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # "not yet" said by the learner declining, in more forms
        (
            "I'm deliberately not going to write a custom Triton attention kernel yet, since "
            "flash attention is already fast.",
            True,
        ),
        (
            "I shan't bother optimising attention at this stage, as it's already FlashAttention.",
            True,
        ),
        (
            "Hold off on attention: it's 31.7 ms of genuine math, and the copies have to be "
            "explained before kernel work makes sense.",
            True,
        ),
        (
            "Kernel-level tuning is off the table for now, because a third of CUDA time is "
            "movement that might disappear once its cause is found.",
            True,
        ),
        (
            "Leave the attention kernel alone for now; swapping kernels while copy_ and to are "
            "still a mystery would be optimising the wrong thing.",
            True,
        ),
        ("Kernel-level tuning is off the table for now.", False),
    ],
)
def test_not_yet_in_more_words(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


@pytest.mark.parametrize(
    ("line", "passed"),
    [
        (
            "Top CPU / orchestration cost: tokenizer.encode (22 ms): a CPU-side step before the "
            "GPU gets anything, so while it costs no GPU time it does push back the first token.",
            True,
        ),
        (
            "Top CPU / orchestration cost: tokenizer.encode at 22 ms runs on the CPU so the GPU "
            "never sees it, but it is part of the wait the user experiences.",
            True,
        ),
        ("Top CPU / orchestration cost: tokenizer / CPU / 22 ms / TTFT", False),
        (
            "Top CPU / orchestration cost: tokenizer.encode (22 ms on CPU), does this even count "
            "toward TTFT? Not sure.",
            False,
        ),
    ],
)
def test_tokenizer_halves_in_more_words(line: str, passed: bool) -> None:
    assert tokenizer_line(line) is passed


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # the copies put off by name, after the math was put first
        (
            "Math first, movement later: optimise matmul and attention, and leave copy_ and to "
            "for another day.",
            False,
        ),
        ("Copies first, kernels later: copy_ and to need explaining.", True),
    ],
)
def test_movement_put_off_by_name(diagnosis: str, passed: bool) -> None:
    assert separates(diagnosis) is passed


@pytest.mark.parametrize(
    ("evidence", "passed"),
    [
        # each launch's own time read off the table: the launches are tiny
        ("Meanwhile the GPU does ~15 ms of work in 20-µs nibbles, so it mostly waits.", True),
        (
            "The CPU total is bigger than the CUDA total for every op, and the loop adds 38 ms "
            "on top, so kernels can't be launched fast enough.",
            True,
        ),
        ("The Python loop is CPU-only, so it runs alongside the GPU and slows nothing.", False),
    ],
)
def test_overhead_evidence_in_more_words(evidence: str, passed: bool) -> None:
    slots = {**DEFAULTS["partB"], "diagnosis": evidence}
    text = (BASES / "base_partB.md").read_text().format(**slots)
    for said, neutral in (  # the base's own evidence taken out: the row decides
        ("aten::matmul, 6.1 ms over 240 calls, about 25 us per call.", "aten::matmul, 6.1 ms."),
        ("each of its 240 calls is tiny.", "it is small."),
    ):
        assert said in text
        text = text.replace(said, neutral)
    assert grade_text(text, "partB")["overhead-evidence"] is passed


@pytest.mark.parametrize(
    ("value", "n"),
    [
        ("maybe check the copies, or maybe attention, not sure which?", 0),
        ("look at copy_, to, attention, tokenizer and slice one by one", 2),
        (
            "use a CUDA graph so the CPU doesn't launch each small kernel one by one, and compare "
            "the time per token",
            1,
        ),
    ],
)
def test_a_round_of_looks_is_no_single_experiment(value: str, n: int) -> None:
    assert experiments_in(value) == n


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # a terse note that judges what it lists is not a list of terms
        (
            "copy_/to: 34.7 ms, 54 calls each, 2.8 GiB -> movement, likely avoidable, "
            "investigate first.",
            True,
        ),
        ("copy_/to, 34.7 ms, 54 calls, 2.8 GiB, movement, avoidable, bf16.", False),
    ],
)
def test_a_terse_note_that_judges(diagnosis: str, passed: bool) -> None:
    assert separates(diagnosis) is passed


@pytest.mark.parametrize(
    ("attention_2", "passed"),
    [
        (
            "FlashAttention-style fusion is beside the point for B: attention doesn't appear in "
            "the table, and the GPU is idling between launches.",
            True,
        ),
        ("No attn in table B + GPU waits on host -> fused attention can't help B.", True),
        (
            "Fused attention is the wrong target in B: nothing attention-shaped shows up, and "
            "step time is set by launch overhead from Python, not by kernel durations.",
            True,
        ),
        ("B doesn't show attention time at all, and its GPU is underfed by the Python loop.", True),
    ],
)
def test_the_fused_attention_reason_in_more_words(attention_2: str, passed: bool) -> None:
    assert fused_attention_reason(attention_2) is passed


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        (
            "A hand-written Triton attention kernel is out for now; the one op already flash-"
            "optimised is not where 35 ms of mystery copies sit.",
            True,
        ),
        (
            "I would not, at this stage, try to speed up the matmuls, because they're the actual "
            "model compute.",
            True,
        ),
        (
            "Attention kernel I don't optimize yet, reason: it is flash already and the copy "
            "problem is not solved.",
            True,
        ),
        ("No kernel fusion work yet, because fusing math kernels won't remove the 54 casts.", True),
        (
            "I'm fairly sure I'd leave the attention implementation alone for now, since it's "
            "already flash attention.",
            True,
        ),
        # the question names the thing, the answer gives the reason
        (
            "Should we write a new attention kernel? Not yet, because attention is already a "
            "flash kernel and the casts haven't been explained.",
            True,
        ),
        ("Should we write a new attention kernel? Not yet.", False),
    ],
)
def test_not_yet_from_the_third_bank(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


@pytest.mark.parametrize(
    ("line", "passed"),
    [
        (
            "Top CPU / orchestration cost: Tokenization, 22 ms, purely CPU, so no GPU kernel will "
            "ever speed it up, but the request can't produce a token until it's done.",
            True,
        ),
        (
            "Top CPU / orchestration cost: tokenizer.encode, 22 ms, 'free' as far as the GPU is "
            "concerned since it never runs there, but the user waiting for the first token would "
            "beg to differ.",
            True,
        ),
        (
            "Top CPU / orchestration cost: tokenizer.encode, 22 ms; not a GPU cost, since the "
            "CUDA column is 0, but I'd still count it against time to first token.",
            True,
        ),
        (
            "Top CPU / orchestration cost: tokenizer.encode, 22 ms; not a GPU cost, and it does "
            "not count against time to first token.",
            False,
        ),
    ],
)
def test_tokenizer_from_the_third_bank(line: str, passed: bool) -> None:
    assert tokenizer_line(line) is passed


@pytest.mark.parametrize(
    ("b_line", "passed"),
    [
        ("Part B: matmul on top is 240 tiny calls; the GPU is mostly idle.", True),
        ("Part B: matmul on top means the small GEMMs keep the GPU compute-bound.", False),
        (
            "Part B: matmul on top is like the engine running flat out: the GPU is saturated by "
            "small GEMMs.",
            False,
        ),
        ("Part B: matmul on top ≠ compute-bound; 240 × ~25 µs, GPU idle waiting on CPU.", True),
    ],
)
def test_b_meaning_denied_by_a_busy_gpu(b_line: str, passed: bool) -> None:
    got = grade_text(B_CONTRAST.format(b_line=b_line), "partB")
    assert got["top-cuda-meaning"] is passed


@pytest.mark.parametrize(
    ("value", "n"),
    [
        ("Who calls to()? Or is it the tokenizer? Not sure what to run next.", 0),
        ("re-profile with with_stack=True → who calls to()/copy_?", 1),
    ],
)
def test_questions_with_no_experiment(value: str, n: int) -> None:
    assert experiments_in(value) == n


@pytest.mark.parametrize(
    ("hypotheses", "two", "tested"),
    [
        # a numbered list with no heading, each item a cause with its test
        (
            "1) The mask tensors live in fp32. To test this, add a forward hook that logs any "
            "input whose dtype is not bf16.\n2) The sampler does logits.cpu() every step. To "
            "test this, look for Memcpy DtoH rows in the trace.",
            True,
            True,
        ),
        # the count said first, the causes marked inline
        (
            "ok so two ideas. 1) the mask is fp32 and gets .to(bf16) in every layer -> put a "
            "print(mask.dtype) in the attention fwd. 2) something does x.transpose(1,2)."
            "contiguous() before sdpa -> comment out the contiguous and re-profile.",
            True,
            True,
        ),
        # a second-language count in the singular, "For confirm"
        (
            "For me there is two possible reason. First reason: some part of the model stays in "
            "float32 and is converted at every layer. For confirm I will print the dtype of every "
            "parameter. Second reason: the code makes a transpose and then calls .contiguous(). "
            "For confirm I will use record_shapes and compare the dtypes in and out.",
            True,
            True,
        ),
        # the tests after both, each opening with the hypothesis it tests
        (
            "Hypothesis 1, dtype: something is in fp32 and gets cast to bf16 per layer.\n"
            "Hypothesis 2, device: something lives on the CPU and is moved to the GPU.\n"
            "The experiment for 1 is record_shapes=True and reading the aten::to dtypes. For 2, "
            "I would look for Memcpy HtoD rows in the trace.",
            True,
            True,
        ),
        # two casts of different tensors, each named: two causes (flagged for a person)
        (
            "| Hypothesis | Experiment |\n|---|---|\n| fp32 KV cache cast to bf16 on every "
            "attention call | dtype pre-hook on the attention modules |\n| weights re-cast per "
            "layer | record_shapes=True, look at the aten::to input shapes |",
            True,
            True,
        ),
        # ... but the inputs and the activations are the data, one cause worded twice
        (
            "Hypothesis 1: the inputs are fp32 and get cast to bf16. Test: print input dtypes.\n"
            "Hypothesis 2: the activations are converted from fp32 to bf16 each layer. Test: "
            "print activation dtypes.",
            False,
            False,
        ),
        # re-reading the table tests nothing
        (
            "H1: fp32 KV cache cast -> E1: look at the memory column of the table: 2.8 GiB.\n"
            "H2: CPU inputs copied -> E2: look at the calls column: 54.",
            True,
            False,
        ),
    ],
)
def test_hypothesis_blocks_from_the_bank(hypotheses: str, two: bool, tested: bool) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"] is two
    assert got["experiment-per-hypothesis"] is tested


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        ("don't optimize: attention → already flash, copies still unexplained.", True),
        ("slice ✗ (for now): 436 calls but only 1.4 ms GPU → not where the time is.", True),
        (
            "I would postpone batching changes: batching would not remove the per-request "
            "copies that need explaining.",
            True,
        ),
    ],
)
def test_not_yet_from_the_fifth_bank(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        (
            "copy_ and to are data movement, but movement on an L4 is cheap relative to math, so "
            "this run is bound by the 70 ms of matmul and attention.",
            False,
        ),
        (
            "copy_ and to are data movement the model does not need; the math is bound by "
            "nothing unusual.",
            True,
        ),
    ],
)
def test_movement_called_cheap_and_the_run_bound_by_math(diagnosis: str, passed: bool) -> None:
    assert separates(diagnosis) is passed


@pytest.mark.parametrize(
    ("attention_2", "passed"),
    [
        (
            "The data offer no support for fused attention in B: attention contributes 0 ms to the "
            "profile, and the binding constraint is launch and Python overhead, which kernel "
            "speed does not affect.",
            True,
        ),
        (
            "Whereas A at least had a flash attention row, B has none, and its device is waiting "
            "on Python launches, so a fused attention kernel would leave the decode just as slow.",
            True,
        ),
    ],
)
def test_fused_attention_from_the_fifth_bank(attention_2: str, passed: bool) -> None:
    assert fused_attention_reason(attention_2) is passed


SLIDES = """\
## Slide 1 — The five lines
- **Workload:** decoder-only LLM, 4096-token prompt, 128 new tokens, bf16, batch 1
- **Hardware:** one NVIDIA L4
- **Top CUDA time:** matmul 38.4 ms, flash attention 31.7 ms
- **Top CPU / orchestration cost:** tokenizer.encode, 22 ms
- **Next experiment:** re-run with with_stack=True and read which line issues the to() calls

## Slide 3 — The tokenizer
- 22 ms, CPU only, 0 ms CUDA: it never shows up in a kernel view
- ...but the user is waiting while it runs, so it's part of time-to-first-token

## Slide 6 — Not yet
- Attention kernel: we're already on flash attention, and 35 ms of casts are unexplained.
"""


def test_a_decks_numbered_slides() -> None:
    got = grade_text(SLIDES, "partA")
    assert got["not-yet-with-reason"]  # "Slide 6 — Not yet" opens the part
    assert got["tokenizer-outside-gpu"]  # the slide's title names what its bullets are about
    other = SLIDES.replace("## Slide 3 — The tokenizer", "## Slide 3 — The GPU")
    assert not grade_text(other, "partA")["tokenizer-outside-gpu"]
