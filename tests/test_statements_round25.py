"""Statements from the twenty-fifth stop's work, each a table row.

Written from criteria.md's definitions, not copied from any labelled report.
"""

from __future__ import annotations

import pytest

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report
from tests.test_statements import grade


@pytest.mark.parametrize(
    ("attention_2", "passed"),
    [
        # fused-attention-wrong-here: "a faster kernel cannot help", said with "nothing",
        # "can't touch", or the GPU said not to be what anyone waits on
        (
            "Fused attention is pointless: there's no attention row, and a quicker kernel "
            "would do nothing while the Python loop sets the pace.",
            True,
        ),
        (
            "No fused attention: nothing in the table is attention, and the time sits in the "
            "launch loop, which a better kernel can't touch.",
            True,
        ),
        (
            "A fused kernel is the wrong call: attention isn't in B at all, and the device "
            "isn't the part we're waiting on.",
            True,
        ),
        # "does not touch the GPU" says where a thing runs, not that a kernel cannot help
        ("No attention in B's table; the Python loop does not touch the GPU.", False),
    ],
)
def test_a_faster_kernel_said_not_to_help(attention_2: str, passed: bool) -> None:
    got = grade("partB", attention_1="", attention_2=attention_2)
    assert got["fused-attention-wrong-here"] is passed


GENERAL = """\
Workload: decoder-only LLM, long prompt, short output, bf16 weights, batch 1
Hardware: L4
Top CUDA time: matmul and flash attention lead; copy_ and to are movement {a}.
Top CPU / orchestration cost: tokenizer.encode runs on the CPU and adds to TTFT.
Next experiment: wrap the forward in record_function ranges to see who calls to().
"""


@pytest.mark.parametrize(
    ("words", "flagged"),
    [
        # what is usual, and no figure from the table: the claims it passes go to a person
        ("that is often the silent cost in modern systems", True),
        # the same words beside a figure read off the table: judged as usual
        ("that is often the silent cost, 35 ms of it", False),
        # plain words, no figure: judged as usual
        ("worth explaining before anything else", False),
    ],
)
def test_generalities_without_a_figure_flag_the_claims(words: str, flagged: bool) -> None:
    text = GENERAL.format(a=words)
    result = grade_report(Report.parse(text), resolve_exercise("partA"))
    got = {r.id: r for r in result.criteria}
    assert got["next-experiment-targets-bottleneck"].passed
    assert got["next-experiment-targets-bottleneck"].review is flagged
    assert got["five-fields"].review is False  # a criterion of form is never flagged for it
