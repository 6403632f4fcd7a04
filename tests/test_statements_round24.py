"""Statements from the twenty-fourth stop's work, each a table row.

Written from criteria.md's definitions, not copied from any labelled report.
"""

from __future__ import annotations

import pytest

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report
from tests.test_statements import experiments_in, grade, grade_text


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # one-next-experiment: "several distinct changes or alternatives fail ... including a
        # list of several": tools laid side by side with slashes are a menu, not a choice
        ("with_stack / NVTX ranges / torch.compile", 3),
        ("compile/graphs/batching, not a new kernel", 3),
        ("a stack trace / record_function ranges / dtype checks / NVTX", 4),
        # slashes between the regions a probe wraps, or the facets it logs, name one probe
        ("wrap prefill / decode / sampling in record_function ranges and re-profile", 1),
        ("re-profile w/ record_function around embed/layers/lm_head and see who calls to()", 1),
        ("log the dtype/device/shape of each tensor entering aten::to, then re-profile", 1),
        # two slashed names of one probe are not a menu
        ("record_function / NVTX ranges around the forward, then re-profile", 1),
    ],
)
def test_a_slashed_menu_of_tools_is_several(value: str, n: int) -> None:
    assert experiments_in(value) == n


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # "addressing" is not the verb "add": an experiment named only as one names none
        ("one experiment addressing the copies", 0),
        ("add record_function ranges around prefill and decode, then re-profile", 1),
        ("adding a dtype log at each layer's entry", 1),
    ],
)
def test_an_experiment_named_only_as_one(value: str, n: int) -> None:
    assert experiments_in(value) == n


@pytest.mark.parametrize(
    ("hypotheses", "passed"),
    [
        # a lettered test under each numbered hypothesis, an outline's sub-point: each
        # hypothesis has its experiment
        (
            "Why the copies?\n"
            "1. the KV cache was allocated in fp32, so each layer casts it to bf16\n"
            "   a. test: print the cache dtype after allocation; fp32 confirms it\n"
            "2. the sampler pulls logits to the CPU with .cpu() every step\n"
            "   a. test: search the loop for .cpu(); a DtoH memcpy per step would show it\n",
            True,
        ),
        # the same outline with the tests left out
        (
            "Why the copies?\n"
            "1. the KV cache was allocated in fp32, so each layer casts it to bf16\n"
            "   a. most likely of the two\n"
            "2. the sampler pulls logits to the CPU with .cpu() every step\n",
            False,
        ),
    ],
)
def test_a_lettered_test_under_a_numbered_hypothesis(hypotheses: str, passed: bool) -> None:
    assert grade("partA", hypotheses=hypotheses)["experiment-per-hypothesis"] is passed


@pytest.mark.parametrize(
    ("top_cpu", "passed"),
    [
        # tokenizer-outside-gpu: "still adds to request latency" is a cost said of it
        (
            "tokenizer.encode, 22 ms on the CPU with 0 ms CUDA, and it adds those 22 ms to TTFT",
            True,
        ),
        ("tokenizer.encode is CPU-only (0 ms CUDA); latency-wise it delays the first token", True),
        (
            "tokenizer.encode runs on the host; it doesn't interact with the GPU, yet the user "
            "waits 22 ms for it before the first token",
            True,
        ),
        # latency named only as something it is relevant to, or interacts with
        ("tokenizer.encode runs on the CPU and is relevant to TTFT", False),
        ("the tokenizer, the host and time to first token all interact here", False),
        ("tokenizer.encode: CPU side, 0 ms on the GPU, an end-to-end latency consideration", False),
    ],
)
def test_latency_said_as_a_cost_of_the_tokenizer(top_cpu: str, passed: bool) -> None:
    text = (
        "Workload: decoder-only LLM, 4096 in, 128 out, bf16, batch 1\nHardware: L4\n"
        "Top CUDA time: matmul 38.4 ms, attention 31.7 ms\n"
        f"Top CPU / orchestration cost: {top_cpu}\n"
        "Next experiment: profile with with_stack=True to find who calls aten::to\n"
    )
    assert grade_text(text, "partA")["tokenizer-outside-gpu"] is passed, top_cpu


EXPECTED = """\
Workload: 4k prompt, 128 out, bf16, batch 1
Hardware: L4
Top CUDA time: {top}
Top CPU / orchestration cost: tokenizer.encode 22 ms on the CPU, adds to TTFT.
Next experiment: profile with with_stack=True and find which code calls aten::to.
"""


@pytest.mark.parametrize(
    ("top", "passed"),
    [
        # "what you'd expect: compute bound" says what this run is: another class claimed
        (
            "matmul 38.4, attention 31.7, copy_ 19.6, to 15.1 ms. That's what you'd expect "
            "from a 4k prefill: compute bound.",
            False,
        ),
        (
            "matmul, attention, copy_ and to: about 105 ms, exactly what one would expect "
            "here, a compute-bound run.",
            False,
        ),
        # an expectation of a healthy run, then what this one shows
        (
            "matmul 38.4, attention 31.7 ms. I'd expect a 4k prefill to be compute bound, but "
            "copy_ and to (35 ms) are unexplained movement I'd chase first.",
            True,
        ),
    ],
)
def test_what_you_would_expect_is_a_claim(top: str, passed: bool) -> None:
    got = grade_text(EXPECTED.format(top=top), "partA")
    assert got["diagnosis-matches"] is passed
    assert got["separates-math-from-movement"] is passed


NO_HARDWARE = """\
Workload: decoder-only LLM, prompt 4096, output 128, bf16 weights, batch 1
Top CUDA time: matmul 38.4 ms and attention 31.7 ms are math; copy_ + to 35 ms is movement
Top CPU / orchestration cost: tokenizer.encode 22 ms on the CPU, and it adds to TTFT
Next experiment: profile with with_stack=True and find which code calls aten::to

Experiments:
- dtype: print the dtypes at model entry and re-profile
- {label}: print .device on every input; look for Memcpy HtoD in the trace
"""


@pytest.mark.parametrize(
    ("label", "passed"),
    [
        # five-fields: a substitute name ("device" for Hardware) past the Next experiment
        # starts another line, not the missing field
        ("device", False),
        ("GPU", False),
        # the field's own name is the field wherever it stands
        ("Hardware", True),
    ],
)
def test_a_substitute_label_after_the_five_fields(label: str, passed: bool) -> None:
    assert grade_text(NO_HARDWARE.format(label=label), "partA")["five-fields"] is passed


WRAPPED = """\
WORKLOAD: decoder-only LLM, prompt 4096, output 128, bf16, batch 1
HARDWARE: L4
TOP CUDA TIME: matmul 38.4 ms, flash attention 31.7 ms; copy_ + to 35 ms of movement
TOP CPU / ORCHESTRATION COST: tokenizer.encode 22 ms on the CPU, added to TTFT
NEXT EXPERIMENT: profile with with_stack=True to see who calls to(), {tail}
"""


@pytest.mark.parametrize(
    ("tail", "passed"),
    [
        # no-premature-attention-kernel: a field hard-wrapped in plain text is one
        # paragraph, so the refusal on one line holds for the kernel on the next
        ("not\nFlashAttention.", True),
        ("and only after that\nwould I look at FlashAttention-3.", True),
        ("and also\nswitch to FlashAttention-3.", False),
    ],
)
def test_a_wrapped_refusal_of_an_attention_kernel(tail: str, passed: bool) -> None:
    got = grade_text(WRAPPED.format(tail=tail), "partA")
    assert got["no-premature-attention-kernel"] is passed


ABSTRACT = """\
Workload: decoder-only LLM, prompt 4096, output 128, bf16 weights, batch 1
Hardware: L4
Top CUDA time: matmul and flash attention lead; copy_ and to are {a} movement worth explaining.
Top CPU / orchestration cost: tokenizer.encode, 22 ms on the CPU, which adds to TTFT.
Next experiment: a {b} look with record_function ranges at who calls to(), across the {c}.
"""


@pytest.mark.parametrize(
    ("words", "flagged"),
    [
        # three abstract words relating the ideas: its passed claims go to a person
        (("holistic", "dtype-aware", "movement/compute landscape"), True),
        # plain words: judged as usual
        (("35 ms of", "quick", "prefill and decode steps"), False),
    ],
)
def test_abstract_words_flag_the_claims_for_review(words: tuple[str, ...], flagged: bool) -> None:
    a, b, c = words
    result = grade_report(Report.parse(ABSTRACT.format(a=a, b=b, c=c)), resolve_exercise("partA"))
    got = {r.id: r for r in result.criteria}
    assert got["one-next-experiment"].passed
    assert got["one-next-experiment"].review is flagged
    assert got["five-fields"].review is False  # a criterion of form is never flagged for it


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # the units a change runs on are its means, not a second change
        ("switch the matmul weights to FP8 on the L4's tensor cores and re-measure", 1),
        ("int8 weight-only quantization on the tensor cores", 1),
        # tensor cores asked for as a change of their own
        ("try int8 weights, and also enable TF32 tensor cores for attention", 2),
    ],
)
def test_the_units_a_change_runs_on(value: str, n: int) -> None:
    assert experiments_in(value) == n


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # a clause with a subject of its own: what it calls fine is not the copies
        (
            "Not yet: the attention kernel. It is already flash, and the movement is "
            "unexplained, so a new kernel would optimize the part that is already fine.",
            True,
        ),
        # the copies themselves called fine
        ("Not yet: the attention kernel, because copy_ and to are fine, they are normal.", False),
    ],
)
def test_a_clause_with_its_own_subject_does_not_dismiss_the_copies(
    not_yet: str, passed: bool
) -> None:
    diagnosis = "copy_ + to (35 ms) is movement I want explained first."
    got = grade("partA", diagnosis=diagnosis, not_yet=not_yet)
    assert got["separates-math-from-movement"] is passed


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # "real work" said of attention; the copies in a clause of their own after a dash
        (
            "Not yet: the attention kernel. It's already flash, and it's real work — swapping "
            "kernels now would tell us nothing about the 35 ms of copies.",
            True,
        ),
        # the copies listed with the math, then all of it called the forward pass
        ("Not yet: nothing. matmul + attention + copy_ + to — all of it is real work.", False),
    ],
)
def test_a_dash_sets_a_clause_apart_from_the_math(not_yet: str, passed: bool) -> None:
    diagnosis = "copy_ + to (35 ms) is movement I want explained first."
    got = grade("partA", diagnosis=diagnosis, not_yet=not_yet)
    assert got["separates-math-from-movement"] is passed


@pytest.mark.parametrize(
    ("next_", "stretch", "passed"),
    [
        # an op quoted to point at it is what a range would wrap, not a range
        (
            "Next experiment: re-profile with record_function ranges and find who calls "
            "`aten::to`.",
            'Stretch: an NVTX range called "layer_forward" around each layer, and a few more.',
            False,
        ),
        (
            "Next experiment: wrap the forward in record_function ranges and find who calls "
            "`copy_`.",
            'Stretch: a range called "layer_forward" around each decoder layer.',
            False,
        ),
        # under the stretch's own lead, an op's name is the name the learner gives a range
        ("Next experiment: profile with with_stack=True.", 'Ranges: "layer", "slice".', True),
    ],
)
def test_a_quoted_op_is_not_a_range(next_: str, stretch: str, passed: bool) -> None:
    assert grade("partA", next=next_, stretch=stretch)["stretch-named-ranges"] is passed


@pytest.mark.parametrize(
    ("attention_2", "passed"),
    [
        # fused-attention-wrong-here: the cost said to be the launches, its predicate left out
        (
            "A fused kernel is wrong here: attention isn't what costs time, the launches and "
            "Python are.",
            True,
        ),
        (
            "Fused attention is the wrong move, since attention costs nothing here; it's the "
            "launches.",
            True,
        ),
        # the cost said to be elsewhere without saying where
        ("A fused kernel is wrong here: attention isn't what costs time.", False),
    ],
)
def test_the_cost_said_to_be_the_launches(attention_2: str, passed: bool) -> None:
    got = grade("partB", attention_1="", attention_2=attention_2)
    assert got["fused-attention-wrong-here"] is passed


@pytest.mark.parametrize(
    ("top", "passed"),
    [
        # "the real problem is the attention kernel" claims another class than movement
        (
            "matmul 38.4, attention 31.7, copy_ + to 35 ms. The copies come from attention, "
            "so the real problem is the attention kernel.",
            False,
        ),
        # the attention mask is a cause of the copies, not the math
        (
            "matmul 38.4, attention 31.7 ms are math; copy_ + to 35 ms of movement, and I "
            "suspect the problem is the attention mask kept in fp32.",
            True,
        ),
    ],
)
def test_the_problem_is_the_attention_kernel(top: str, passed: bool) -> None:
    assert grade_text(EXPECTED.format(top=top), "partA")["diagnosis-matches"] is passed
