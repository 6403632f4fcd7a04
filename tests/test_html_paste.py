"""Reports pasted with their HTML: read as the markdown they stand for, evidence on the
report's own lines."""

from __future__ import annotations

import pytest

from grader.report.html_paste import unhtml
from grader.report.model import Report
from tests.test_statements import grade_text


@pytest.mark.parametrize(
    ("html", "markdown"),
    [
        (
            "<p><b>Workload:</b> batch 1<br><b>Hardware:</b> L4</p>",
            "**Workload:** batch 1\n**Hardware:** L4",
        ),
        (
            "<ol><li>H1 fp32<br><em>Test:</em> dtypes</li><li>H2 cpu</li></ol>",
            "1. H1 fp32\n   *Test:* dtypes\n2. H2 cpu",
        ),
        ("<ul><li>A &amp; B</li><li>x&nbsp;ms</li></ul>", "- A & B\n- x\u00a0ms"),
        ("<h3>Not yet</h3><p>slice</p>", "### Not yet\n\nslice"),
        (
            "<table><tr><th>Field</th><th>Answer</th></tr><tr><td>Hardware</td><td>L4</td></tr></table>",
            "| Field | Answer |\n|---|---|\n| Hardware | L4 |",
        ),
    ],
)
def test_html_is_written_as_markdown(html: str, markdown: str) -> None:
    text, origin = unhtml(html)
    assert text.strip() == markdown
    assert origin and set(origin) == {1}  # all of it came from line 1


def test_text_without_html_is_left_alone() -> None:
    for text in (
        "copy_ -> <to> is x < 5",
        "Workload: batch 1\n**Hardware:** L4",
        "one <br> alone",
    ):
        assert unhtml(text) == (text, [])


PASTED = """\
---
student: "A Learner"
---
<h3>Part A</h3>
<p><b>Workload:</b> decoder-only LLM, 4096-token prompt, 128 out, bf16, batch 1<br>
<b>Hardware:</b> L4<br>
<b>Top CUDA time:</b> matmul + attention ~70&nbsp;ms of math;
copy_ + to 35&nbsp;ms of movement that needs explaining<br>
<b>Top CPU / orchestration cost:</b> tokenizer.encode 22&nbsp;ms on the CPU,
and the request waits for it (TTFT)<br>
<b>Next experiment:</b> re-profile with <code>with_stack=True</code>
to find who calls <code>.to()</code></p>
"""


def test_a_pasted_report_is_graded_and_quoted_on_its_own_lines() -> None:
    got = grade_text(PASTED, "partA")
    assert got["five-fields"] and got["diagnosis-matches"] and got["one-next-experiment"]
    fields = Report.parse(PASTED).fields
    assert fields["hardware"].label_line == 6
    assert fields["next_experiment"].label_line == 11
    # the same report with a field left out
    assert not grade_text(PASTED.replace("<b>Hardware:</b> L4<br>\n", ""), "partA")["five-fields"]


def test_a_line_break_inside_a_markdown_tables_row_keeps_the_row() -> None:
    table = "| Field | Answer |\n|---|---|\n"
    table += "| Workload | batch 1<br>prompt 32 |\n| Hardware | L4<br>x |\n"
    text, origin = unhtml(table)
    assert text.split("\n")[2:4] == ["| Workload | batch 1 prompt 32 |", "| Hardware | L4 x |"]
    assert origin[:4] == [1, 2, 3, 4]
    # outside a table, the same break starts a line
    assert unhtml("a<br>b<br>c")[0] == "a\nb\nc"
