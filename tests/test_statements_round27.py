"""Statements from the twenty-seventh stop's work, each a table row.

Written from criteria.md's definitions, not copied from any labelled report.
"""

from __future__ import annotations

import pytest

from tests.test_statements import experiments_in, grade


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
