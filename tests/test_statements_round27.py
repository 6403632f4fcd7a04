"""Statements from the twenty-seventh stop's work, each a table row.

Written from criteria.md's definitions, not copied from any labelled report.
"""

from __future__ import annotations

import pytest

from tests.test_statements import experiments_in, grade, grade_text


@pytest.mark.parametrize(
    ("hypotheses", "passed"),
    [
        # one line of tests for both causes, in parallel clauses, in their order
        (
            "The copies might be the mask arriving in fp32 and cast every layer, or the ids "
            "being built on the CPU and uploaded.\n"
            "To test: log the mask dtype at layer entry, and log the ids' device before the "
            "forward.",
            True,
        ),
        (
            "The copies might be an fp32 -> bf16 cast of the cache, or inputs moved from CPU "
            "to GPU. Tests: print the cache dtype; look for Memcpy HtoD in the trace.",
            True,
        ),
        # one test with two steps is not one test for each cause
        (
            "The copies might be an fp32 -> bf16 cast of the cache, or inputs moved from CPU "
            "to GPU. To test: log the cache dtype and re-profile.",
            False,
        ),
    ],
)
def test_one_line_of_tests_after_either_or_causes(hypotheses: str, passed: bool) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"] is passed


@pytest.mark.parametrize(
    ("next_experiment", "n"),
    [
        # what time allows, in brackets, is a second experiment
        (
            "find the callers of aten::to with with_stack=True. (If there's time, also try "
            "FlashAttention-3 and see how much attention time comes off.)",
            2,
        ),
        (
            "log the dtype of every tensor entering the layers (time permitting, also move "
            "the sampler onto the GPU)",
            2,
        ),
        # a probe, then also a change of its own
        (
            "run with with_stack=True to find who calls to(), then also allocate the KV cache "
            "in bf16 and re-profile",
            2,
        ),
        # brackets that explain the one experiment add nothing
        ("find the callers of aten::to with with_stack=True (sort by self CUDA time)", 1),
        ("keep the cache in bf16 on the GPU and re-profile to see if copy_ goes away", 1),
    ],
)
def test_what_also_adds_is_a_second_experiment(next_experiment: str, n: int) -> None:
    assert experiments_in(next_experiment) == n


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # movement that does no arithmetic, and a doubt that it is needed
        ("copy_ and to (35 ms) do no arithmetic at all.", True),
        ("copy_ and to (35 ms) only shuttle bytes, and I doubt all of that is needed.", True),
        # a group named by the rows listed after its name, then spoken of by that name
        (
            "Split the table in two: the math (matmul, attention: ~70 ms) and the plumbing "
            "(copy_, to: ~35 ms). The plumbing should mostly vanish in a bf16 run.",
            True,
        ),
        # the name of the math group carries the math, not the movement
        (
            "Split the table in two: the math (matmul, attention: ~70 ms) and the plumbing "
            "(copy_, to: ~35 ms). The math should mostly vanish in a bf16 run.",
            False,
        ),
        # named apart, but nothing said of it
        ("Split the table in two: the math and the plumbing (copy_, to: ~35 ms).", False),
    ],
)
def test_movement_set_apart_in_more_words(diagnosis: str, passed: bool) -> None:
    assert grade("partA", diagnosis=diagnosis)["separates-math-from-movement"] is passed


@pytest.mark.parametrize(
    ("not_yet", "proposes"),
    [
        (
            "Not yet: slice, 436 calls but 1.4 ms. Attention could benefit from a "
            "hand-written Triton kernel, so I'd prototype one in parallel.",
            True,
        ),
        # a kernel attention already runs is no proposal
        ("Not yet: attention. It already runs a flash kernel, so it gets nothing more.", False),
    ],
)
def test_attention_that_could_benefit_from_a_kernel(not_yet: str, proposes: bool) -> None:
    assert grade("partA", not_yet=not_yet)["no-premature-attention-kernel"] is not proposes


@pytest.mark.parametrize(
    ("aside", "proposes"),
    [
        ("Attention could benefit from FA3.", True),
        ("Attention would really benefit from a fused kernel of its own.", True),
        ("Attention could not benefit from FA3: it is flash already.", False),
    ],
)
def test_could_benefit_from_proposes(aside: str, proposes: bool) -> None:
    assert grade("partA", stretch=aside)["no-premature-attention-kernel"] is not proposes


@pytest.mark.parametrize(
    ("next_experiment", "n"),
    [
        ("find the to() callers, and separately benchmark FlashAttention-3", 2),
        ("find the to() callers and independently try CUDA graphs", 2),
        ("time prefill and decode separately with record_function ranges", 1),
    ],
)
def test_separately_adds_an_experiment(next_experiment: str, n: int) -> None:
    assert experiments_in(next_experiment) == n


@pytest.mark.parametrize(
    ("next_experiment", "passed"),
    [
        # batching said in words, and the loop taken out of Python
        (
            "Next experiment: run 8 prompts through the loop together instead of one, and "
            "watch time per token.",
            True,
        ),
        (
            "Next experiment: script the decode loop with TorchScript so the host stops "
            "paying Python per op, and compare ms/token.",
            True,
        ),
        ("Next experiment: move the decode loop off Python and compare ms/token.", True),
        # a faster kernel does not go after launches
        ("Next experiment: write the matmul in CUDA and compare ms/token.", False),
        ("Next experiment: run 8 warm-up iterations before timing.", False),
    ],
)
def test_overhead_fixes_in_more_words(next_experiment: str, passed: bool) -> None:
    assert grade("partB", next=next_experiment)["next-experiment-targets-bottleneck"] is passed


@pytest.mark.parametrize(
    ("hypotheses", "two", "tested"),
    [
        # two causes joined by "and separately", their tests by "the first ..., and the
        # second ..."
        (
            "My guesses: the logits get pulled to the host with .cpu() for sampling every "
            "token, and separately the mask is float32 and cast down in each layer. I'd "
            "confirm the first by searching the code for .cpu() and looking for DtoH copies "
            "in the trace, and the second by registering a forward pre-hook that prints "
            "dtypes.",
            True,
            True,
        ),
        # the first tested, the second not
        (
            "My guesses: the logits get pulled to the host with .cpu() every token, and also "
            "the mask is float32 and cast down in each layer. I'd confirm the first by "
            "looking for DtoH copies in the trace.",
            True,
            False,
        ),
        # two wordings of one cause are one hypothesis
        (
            "My guesses: the mask is float32 and cast each layer, and also the inputs are "
            "fp32 and converted to bf16.",
            False,
            False,
        ),
    ],
)
def test_causes_joined_by_and_separately(hypotheses: str, two: bool, tested: bool) -> None:
    got = grade("partA", hypotheses=hypotheses)
    assert got["two-hypotheses"] is two
    assert got["experiment-per-hypothesis"] is tested


def test_a_share_said_as_a_decimal() -> None:
    text = (
        "Workload: 7B decoder, generating tokens one at a time\n"
        "Hardware: L4\n"
        "Top CUDA time: aten::copy_: {share} of all CUDA time\n"
        "Top CPU / orchestration cost: the Python loop\n"
        "Next experiment: log the dtype of every tensor passed to copy_\n"
    )
    assert grade_text(text.format(share="0.61"), "partC")["copy-share-stated"]
    assert not grade_text(text.format(share="0.16"), "partC")["copy-share-stated"]
