"""Statements from the twenty-seventh stop's work, each a table row.

Written from criteria.md's definitions, not copied from any labelled report.
"""

from __future__ import annotations

import pytest

from tests.test_statements import grade


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
