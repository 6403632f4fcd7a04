"""Statements from the twenty-first unseen round, each a table row.

s73 to s77 were measured once, unseen, with the rules of 3f9d4d1 (93.4%), before their
disagreements were read: a community-college class, data engineers, reports pasted with
their HTML (tests/test_html_paste.py), reports in org-mode, reStructuredText or AsciiDoc
(tests/test_markups.py) and a large class of short answers.
"""

from __future__ import annotations

import pytest

from tests.test_statements import grade, grade_text

FIVE = "Workload, Hardware, Top CUDA time, Top CPU / orchestration cost, Next experiment"


@pytest.mark.parametrize(
    ("names", "passed"),
    [
        # the five names listed in order, exactly, not used as labels
        (f"Five field names: {FIVE}.", True),
        ("Workload, Hardware, Top CUDA time, Top CPU / orchestration, Next experiment", True),
        # out of order, or a name substituted
        ("Hardware, Workload, Top CUDA time, Top CPU / orchestration cost, Next experiment", False),
        ("Workload, Hardware, Top GPU time, Top CPU / orchestration cost, Next experiment", False),
    ],
)
def test_the_five_names_listed(names: str, passed: bool) -> None:
    text = f"{names}\n\nFake run: copy_ is 61% of CUDA time on a 7B decode.\n"
    assert grade_text(text, "partC")["field-names-exact"] is passed


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # two hyphens typed for a dash end the thing named; the reason follows
        (
            "Not yet: the flash attention op -- it is already flash, and the copies come first.",
            True,
        ),
        ("Not yet: the flash attention op -- later.", False),
    ],
)
def test_two_hyphens_as_a_dash(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


PART_B = """\
Workload: batch 1, prompt 32, decode 128, tiny hidden size
Hardware: L4
Top CUDA time: matmul 6.1 ms over 240 calls, ~25 us each
Top CPU / orchestration cost: Python decode loop 38 ms, over twice the ~15 ms of GPU time
Next experiment: capture one decode step in a CUDA graph and compare ms per token

### Contrast
- A: matmul on top was real prefill math; B: matmul on top is tiny launches
- A was copies; B is launches from Python
- {third}
- Fused attention: not now, {fourth}
"""


def test_an_item_of_a_headed_contrast_stays_in_it() -> None:
    text = PART_B.format(
        third="A's GPU was busy; B's GPU mostly idles",
        fourth="there's no attention in B's table and the bottleneck is the host",
    )
    got = grade_text(text, "partB")
    assert got["contrast-four-bullets"] and got["diagnosis-matches"]
    # "and the bottleneck is the host" is a clause of its own: the "no" before it is not its
    assert got["fused-attention-wrong-here"]


B_BASE = """\
Workload: batch 1, prompt 32, decode 128
Hardware: L4
Top CUDA time: aten::matmul 6.1 ms
Top CPU / orchestration cost: Python decode loop 38 ms
Next experiment: rerun the same request on an A100 and compare the totals.

{said}
"""


@pytest.mark.parametrize(
    ("said", "passed"),
    [
        # a clause of its own after "and": the "no" before it denies the attention, not it
        ("There's no attention in B's table and the bottleneck is the host.", True),
        ("There's no attention in B's table and the host is not the bottleneck.", False),
        ("There's no attention in B's table, so the bottleneck is not the host.", False),
    ],
)
def test_a_negation_stops_at_a_clause_with_its_own_subject(said: str, passed: bool) -> None:
    assert grade_text(B_BASE.format(said=said), "partB")["diagnosis-matches"] is passed


A_BASE = """\
Workload: decoder-only LLM, 4096 prompt, 128 out, bf16, batch 1
Hardware: L4
Top CUDA time: {top}
Top CPU / orchestration cost: {cpu}
Next experiment: profile with with_stack=True and find which code calls aten::to.
"""
CPU_OK = "tokenizer.encode 22 ms on the CPU, 0 ms CUDA, and it adds to TTFT"
MATH_OK = "matmul + attention ~70 ms of math; copy_ + to 35 ms of movement that needs explaining"


@pytest.mark.parametrize(
    ("cpu", "passed"),
    [
        # the request unable to get its first token: the latency half, said through a negation
        (
            "tokenizer.encode, 22ms, CPU-only (nothing on CUDA), but the request can't get its "
            "first token until it finishes",
            True,
        ),
        ("tokenizer.encode, 22ms, CPU-only (nothing on CUDA)", False),
    ],
)
def test_no_first_token_until_the_tokenizer_finishes(cpu: str, passed: bool) -> None:
    text = A_BASE.format(top=MATH_OK, cpu=cpu)
    assert grade_text(text, "partA")["tokenizer-outside-gpu"] is passed


@pytest.mark.parametrize(
    ("top", "detail"),
    [
        # the copies said to be "just moving memory around" are set apart from the compute,
        # not counted in with it (whether they are avoidable is another matter)
        (
            "matmul (38.4ms) and flash attention (31.7ms) are the actual compute, then copy_ "
            "and to are 35ms together which is just moving memory around",
            "never sets the copies apart",
        ),
        ("matmul, attention, copy_ and to are the forward pass work, 105 ms", "counts the copies"),
    ],
)
def test_copies_said_to_move_memory_are_not_model_work(top: str, detail: str) -> None:
    from grader.engine import grade_report
    from grader.exercises import resolve_exercise
    from grader.report.model import Report

    text = A_BASE.format(top=top, cpu=CPU_OK)
    result = grade_report(Report.parse(text), resolve_exercise("partA"))
    got = next(c for c in result.criteria if c.id == "separates-math-from-movement")
    assert not got.passed and detail in got.detail
