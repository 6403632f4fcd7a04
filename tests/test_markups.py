"""Reports in org-mode, reStructuredText or AsciiDoc: each mark read as its markdown."""

from __future__ import annotations

import pytest

from grader.report.markups import unmarkup
from tests.test_statements import grade_text


@pytest.mark.parametrize(
    ("line", "read"),
    [
        # a term and its description
        ("- Workload :: batch 1, 4096 in", "- Workload: batch 1, 4096 in"),
        ("Hardware:: L4", "Hardware: L4"),
        (":Next experiment: with_stack=True", "Next experiment: with_stack=True"),
        ("Top CUDA time::", "Top CUDA time:"),
        # headings
        ("== Part A", "## Part A"),
        ("** Hypotheses", "## Hypotheses"),
        # items the markup numbers
        ("#. fp32 cache cast per layer", "1. fp32 cache cast per layer"),
        (". fp32 cache cast per layer", "1. fp32 cache cast per layer"),
        # an org table's rule, keywords, attributes, a directive
        ("|------+-----|", "|------|-----|"),
        ("#+TITLE: Part B", "# Part B"),
        ("#+AUTHOR: me", ""),
        ("[source,python]", ""),
        (".. note::", ""),
        # markdown and op names stay
        ("aten::matmul 38.4 ms", "aten::matmul 38.4 ms"),
        ("* a bullet", "* a bullet"),
        ("Workload: batch 1", "Workload: batch 1"),
        ("= 70 ms of math", "= 70 ms of math"),  # arithmetic going on, not a heading
        ("[x] done", "[x] done"),
    ],
)
def test_a_mark_is_read_as_its_markdown(line: str, read: str) -> None:
    # (a line of its own after a first line that cues the markups)
    assert unmarkup(f"== Report\n{line}").split("\n")[1] == read


def test_org_stars_are_headings_only_in_org_mode() -> None:
    assert unmarkup("#+TITLE: x\n* Part A").split("\n")[1] == "# Part A"
    assert unmarkup("== x\n* Part A").split("\n")[1] == "* Part A"


def test_code_and_a_directives_body() -> None:
    text = "#+BEGIN_SRC python\nx :: y\n#+END_SRC\n.. note::\n\n   I would not optimize slice."
    assert unmarkup(text).split("\n") == [
        "```",
        "x :: y",
        "```",
        "",
        "",
        "I would not optimize slice.",
    ]


ORG = """\
#+TITLE: Part A
* Five lines
- Workload :: decoder-only LLM, 4096-token prompt, 128 out, bf16, batch 1
- Hardware :: L4
- Top CUDA time :: matmul + attention ~70 ms of math; copy_ + to 35 ms of movement I can't explain
- Top CPU / orchestration cost :: tokenizer.encode 22 ms on the CPU, before prefill, so in TTFT
- Next experiment :: re-profile with with_stack=True to find who calls aten::to
"""


def test_an_org_mode_report_is_graded() -> None:
    got = grade_text(ORG, "partA")
    assert got["five-fields"] and got["diagnosis-matches"] and got["one-next-experiment"]
    assert not grade_text(ORG.replace("- Hardware :: L4\n", ""), "partA")["five-fields"]
