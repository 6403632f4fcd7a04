"""Statements from the twenty-fifth stop's work, each a table row.

Written from criteria.md's definitions, not copied from any labelled report.
"""

from __future__ import annotations

import pytest

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
