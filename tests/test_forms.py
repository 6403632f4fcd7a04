"""Answers written into a form: blanks and tick boxes (grader/report/forms.py)."""

from __future__ import annotations

import pytest

from grader.report.forms import unform
from tests.test_statements import grade_text


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Workload: ____ → decode, bs 1", "Workload: decode, bs 1"),
        ("**Hardware:** ____L4____", "**Hardware:** L4"),
        ("Workload: ____", "Workload: "),
        ("____", "____"),  # a line of underscores is a rule
        # options not ticked beside one that is
        ("[ ] compute-bound  [x] movement-bound  [ ] overhead-bound", "[x] movement-bound"),
        ("- [x] movement-bound\n- [ ] compute-bound", "- [x] movement-bound\n"),
        # all ticked, all empty, or a checklist of things done and to do: as written
        ("[x] movement [x] compute [x] overhead", "[x] movement [x] compute [x] overhead"),
        ("- [ ] re-profile\n- [ ] log dtypes", "- [ ] re-profile\n- [ ] log dtypes"),
        (
            "- [x] five lines filled\n- [ ] maybe also try FlashAttention-3 on the L4 since "
            "attention is 30% of the time",
            "- [x] five lines filled\n- [ ] maybe also try FlashAttention-3 on the L4 since "
            "attention is 30% of the time",
        ),
    ],
)
def test_what_a_form_leaves_in_the_answer(text: str, read: str) -> None:
    assert unform(text) == read


_FORM_A = """\
Workload: ____ → decoder-only LLM, 4096 prompt / 128 out, bf16, batch 1
Hardware: ____ → L4
Top CUDA time: ____ → matmul 38.4 ms and attention 31.7 ms are the math; copy_ + to add 35 \
ms of movement that should not be needed
Top CPU / orchestration cost: ____ → tokenizer.encode 22 ms
Next experiment .. re-profile with with_stack=True to find who calls aten::to

Bottleneck (tick one):  [ ] compute-bound  [x] movement-bound  [ ] overhead-bound

Tokenizer: GPU or not?  [ ] GPU  [x] CPU
Zero CUDA time, but the user waits for it before the first token, so it is part of TTFT.

6. One thing I would NOT optimize yet
[x] attention kernel  [ ] matmul  [ ] slice
Reason: it is already a flash kernel and the copies are unexplained.
"""


def test_a_filled_in_self_assessment_form() -> None:
    got = grade_text(_FORM_A, "partA")
    assert got["five-fields"]
    assert got["diagnosis-matches"]
    assert got["separates-math-from-movement"]
    assert got["tokenizer-outside-gpu"]
    assert got["not-yet-with-reason"]
