"""Statements from the twentieth unseen round, each a table row.

s68 to s72 were measured once, unseen, with the rules of e5e0730 (94.3%), before their
disagreements were read: a graduate class, a corporate upskilling cohort, nested outlines,
plain-text submissions (capitals, boxes drawn with + - |, lettered lists) and a class that
computes shares and per-call times.  Their layouts are pinned in tests/test_plaintext.py.
"""

from __future__ import annotations

import pytest

from tests.test_statements import NO_LEAD, experiments_in, grade, grade_text


@pytest.mark.parametrize(
    ("diagnosis", "passed"),
    [
        # not knowing, yet, why the copies exist is the need for an explanation
        ("copy_ + to (34.7 ms) is movement, and I do not know yet why it exists.", True),
        ("copy_ + to (34.7 ms) is movement, and I don't know exactly why it is there.", True),
        ("copy_ + to (34.7 ms) is movement, and I do not know yet what it is for.", True),
        # knowing is no doubt
        ("copy_ + to (34.7 ms) is movement, and I know what it is for.", False),
    ],
)
def test_not_knowing_yet_why_the_copies_exist(diagnosis: str, passed: bool) -> None:
    got = grade("partA", diagnosis=diagnosis, next=NO_LEAD)
    assert got["diagnosis-matches"] is passed


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # "anything on attention" names attention; its reason is the next sentence
        (
            "Not yet: anything on attention. It's already the flash kernel; replacing it now "
            "would hide the real question.",
            True,
        ),
        ("Not yet: everything to do with attention, because it is already flash.", True),
        # "anything glamorous" names no part of the run
        ("Not yet: anything glamorous, because it would be premature.", False),
    ],
)
def test_anything_on_a_thing_names_it(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


@pytest.mark.parametrize(
    ("value", "n"),
    [
        # terms and a tool refused: nothing to run, measure or change
        ("dtype or device movement, not FlashAttention", 0),
        ("dtype, device, movement, not FlashAttention", 0),
        # the tool itself proposed is a method
        ("try FlashAttention-2 on the decode step", 1),
    ],
)
def test_a_tool_refused_is_no_method(value: str, n: int) -> None:
    assert experiments_in(value) == n


@pytest.mark.parametrize(
    ("not_yet", "passed"),
    [
        # a reason that names nothing about the thing declined
        ("Not yet: attention, because of the ratios.", False),
        ("Not yet: the attention kernel, because of the evidence above.", False),
        # a reason that says what the evidence shows
        ("Not yet: attention, because the ratios put the copies first.", True),
        ("Not yet: slice, because of its 1.4 ms of CUDA time.", True),
    ],
)
def test_a_reason_says_something_of_the_thing(not_yet: str, passed: bool) -> None:
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed


def test_a_next_experiment_wrapped_before_the_refused_tool_refuses_it() -> None:
    """ "..., not" at a line's end and "FlashAttention." on the next line are one sentence."""
    text = (
        "Workload: 4096-token prompt, 128 out, bf16, batch 1\nHardware: L4\n"
        "Top CUDA time: matmul + attention ~70 ms of math; copy_ + to 35 ms of movement "
        "that needs explaining\n"
        "Top CPU / orchestration cost: tokenizer.encode 22 ms on the CPU, before prefill\n"
        "Next experiment: with_stack=True to find who calls to(), rather than a custom\n"
        "attention kernel.\n"
    )
    assert grade_text(text, "partA")["no-premature-attention-kernel"]
    proposed = text.replace("rather than a custom", "and also a custom")
    assert not grade_text(proposed, "partA")["no-premature-attention-kernel"]
