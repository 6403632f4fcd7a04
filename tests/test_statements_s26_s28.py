"""Statements from the ninth unseen round (tests/labelled/s26, s27, s28), each a table row.

The three sets were measured once, unseen (96.1%, rules frozen at 766fb3e), before their
disagreements were read; the rules written from them are pinned here.
"""

from __future__ import annotations

import pytest

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report
from tests.test_statements import grade


@pytest.mark.parametrize(
    "hypotheses",
    [
        # one cause on each side of a semicolon
        "Hypotheses: weights being streamed to the GPU for every call; activations converted "
        "between fp32 and bf16 inside the layers.\n",
        # the hypotheses as sub-bullets of a numbered "1. Hypotheses"
        "1. Hypotheses\n   - The KV cache is copied to the GPU in every layer.\n"
        "   - The output logits are converted to float32 for the sampling.\n",
    ],
)
def test_two_hypotheses_in_more_layouts(hypotheses: str) -> None:
    assert grade("partA", hypotheses=hypotheses)["two-hypotheses"], hypotheses


def test_one_cause_split_by_a_semicolon_is_still_one() -> None:
    hypotheses = "Hypotheses: the mask is fp32 and cast to bf16; the cache is fp32 and cast too.\n"
    assert not grade("partA", hypotheses=hypotheses)["two-hypotheses"]


TERSE_B = """Workload: bs1, 32 prompt, 128 decode, tiny
Hardware: L4
Top CUDA time: matmul 6.1ms over 240 calls, ~25 us each
Top CPU / orchestration cost: python loop 38ms vs ~15 ms CUDA
Next experiment: CUDA graphs

contrast:
- A matmul = real math (big prefill)
- B matmul = small launches, not meaningful
- A = movement bound, B = overhead bound
- {attention}
"""


@pytest.mark.parametrize(
    ("attention", "passed"),
    [
        # the negation of the first clause does not reach the second
        ("no fused attn in B: no attention op + gpu idle, faster kernel changes nothing", True),
        (
            "Fused attention is wrong for B: there is no attention op at all, and a faster kernel "
            "can not help when the GPU is already waiting for the CPU.",
            True,
        ),
        ("no fused attn in B: no attention op in the table", False),
    ],
)
def test_fused_attention_reasons_in_fragments(attention: str, passed: bool) -> None:
    text = TERSE_B.format(attention=attention)
    got = {
        c.id: c.passed for c in grade_report(Report.parse(text), resolve_exercise("partB")).criteria
    }
    assert got["fused-attention-wrong-here"] is passed, attention
    assert got["top-cuda-meaning"]  # "A matmul = real math", "B matmul = small launches"
