"""Statements from the sixteenth unseen round, each a table row.

s50 to s53 were measured once, unseen, with the rules of 262f1f7 (95.2%), before their
disagreements were read.  The rules written from them are pinned here.
"""

from __future__ import annotations

import pytest

from grader.report.model import Report
from tests.test_statements import grade, grade_text

FIVE_AS_COLUMNS = """\
| Workload | Hardware | Top CUDA time | Top CPU / orchestration cost | Next experiment |
|---|---|---|---|---|
| batch 1, 4096-token prompt | L4 | matmul 38.4 ms, flash attention 31.7 ms | tokenizer 22 ms \
| rerun with with_stack=True and find who calls aten::to |
"""


def test_the_five_fields_as_a_tables_columns() -> None:
    report = Report.parse(FIVE_AS_COLUMNS)
    fields = {key: f.value for key, f in report.fields.items()}
    assert fields["hardware"] == "L4"
    assert fields["next_experiment"] == "rerun with with_stack=True and find who calls aten::to"
    got = grade_text(FIVE_AS_COLUMNS, "partA")
    assert got["five-fields"] and got["one-next-experiment"]
    # the quote is the cell that decided, as written, not the row's first cell
    from grader.engine import grade_report
    from grader.exercises import resolve_exercise

    result = grade_report(report, resolve_exercise("partA"))
    one = next(c for c in result.criteria if c.id == "one-next-experiment")
    assert one.evidence is not None and one.evidence.text.startswith("rerun with")


def test_a_header_row_naming_two_fields_is_no_five_field_layout() -> None:
    text = "| Workload | Hardware | Notes |\n|---|---|---|\n| batch 1 | L4 | fine |\n"
    hardware = Report.parse(text).fields.get("hardware")
    assert hardware is None or hardware.value != "L4"


@pytest.mark.parametrize(
    ("heading", "passed"),
    [("# §4 Not yet", True), ("# § 4. Not yet", True), ("# §4 Summary", False)],
)
def test_a_section_sign_numbers_a_heading(heading: str, passed: bool) -> None:
    not_yet = f"{heading}\n\naten::slice: 436 calls but only 1.4 ms of CUDA, about 1% of the total."
    assert grade("partA", not_yet=not_yet)["not-yet-with-reason"] is passed
