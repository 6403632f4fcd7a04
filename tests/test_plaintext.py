"""Plain-text layouts (grid tables, lettered lists, outlines of bare field names) read as
their writers meant."""

from __future__ import annotations

import pytest

from grader.report.model import Report
from grader.report.plaintext import ungrid, unletter
from tests.test_statements import grade_text

BOX = """\
+-----------------+-----------------------------+
| WORKLOAD        | decoder-only LLM, prompt    |
|                 | 4096, out 128, batch 1      |
+-----------------+-----------------------------+
| HARDWARE        | L4                          |
+-----------------+-----------------------------+"""


def test_a_two_column_box_is_labelled_lines_on_its_rows_first_lines() -> None:
    assert ungrid(BOX).split("\n") == [
        "",
        "WORKLOAD: decoder-only LLM, prompt 4096, out 128, batch 1",
        "",
        "",
        "HARDWARE: L4",
        "",
    ]


def test_a_box_of_three_columns_and_a_text_without_boxes_stay() -> None:
    data = "+------+----+-----+\n| op   | ms | %   |\n+------+----+-----+\n| to   | 15 | 14% |"
    assert ungrid(data) == data
    assert ungrid("a + b -- c | d") == "a + b -- c | d"


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # lettered in order from "a", wrapped lines below: bullets that keep their letters
        (
            "a) A was math\n   and copies\nb) B is launches",
            "- a) A was math\n   and copies\n- b) B is launches",
        ),
        ("  a. one\n  b. two", "  - a. one\n  - b. two"),
        # one lettered line, letters out of order, a line at the margin between: no list
        ("a) alone", "a) alone"),
        ("b) one\nc) two", "b) one\nc) two"),
        ("a) one\nthen prose\nb) two", "a) one\nthen prose\nb) two"),
        # "(a)" is read where it stands, by the hypothesis layouts
        ("(a) one\n(b) two", "(a) one\n(b) two"),
    ],
)
def test_a_lettered_list_is_a_list(text: str, read: str) -> None:
    assert unletter(text) == read


PART_B = """\
WORKLOAD
  - batch 1, prompt 32, 128 decode steps, tiny hidden size
HARDWARE
  - L4
TOP CUDA TIME
  - aten::matmul, 6.1 ms over 240 calls: tiny kernels, the GPU mostly idle
TOP CPU / ORCHESTRATION COST
  - the Python decode loop, 38 ms against ~15 ms of CUDA: the GPU waits on the host
NEXT EXPERIMENT
  - capture the decode step in a CUDA graph and compare time per token

CONTRAST
a) In A the top row (matmul) was real prefill math; copies came right after it.
b) In B matmul on top is a pile of ~25 us kernels and says little.
c) A needed the copies explained; B needs fewer launches from Python.
d) Fused attention is wrong here: no attention op, and the GPU waits on the host.
"""


def test_an_outline_of_bare_names_and_a_lettered_contrast_are_graded() -> None:
    got = grade_text(PART_B, "partB")
    assert got["five-fields"] and got["one-next-experiment"] and got["contrast-four-bullets"]
    # the same contrast with a line at the margin in it is a paragraph's, not four items
    broken = PART_B.replace("c) A needed", "also: c) A needed")
    assert not grade_text(broken, "partB")["contrast-four-bullets"]


def test_a_kernel_listed_under_top_cuda_time_is_a_reading_not_a_step() -> None:
    text = (
        "Workload: 4096-token prompt, 128 out, bf16, batch 1\nHardware: L4\n"
        "Top CUDA time\n  - aten::matmul 38.4 ms\n  - flash attention 31.7 ms\n"
        "  - copy_ + to 34.7 ms: movement the model should not need\n"
        "Top CPU / orchestration cost: tokenizer.encode 22 ms on the CPU, before prefill\n"
        "Next experiment: profile with with_stack=True and find which code calls aten::to\n"
    )
    assert grade_text(text, "partA")["no-premature-attention-kernel"]
    # the same short item under Next experiment is proposed
    proposed = text.replace(
        "Next experiment: profile", "Next experiment\n  - FlashAttention-3\n  - profile"
    )
    assert not grade_text(proposed, "partA")["no-premature-attention-kernel"]


OUTLINE = """\
- Workload:
  - decoder-only LLM; 4096 prompt tokens; 128 out; bf16; batch 1
- Hardware:
  - one L4
- Top CUDA time:
  - matmul 38.4 ms + flash attention 31.7 ms
    - that's the model math, fine
  - copy_/to: 34.7 ms together and 5.6 GiB moved
    - this is movement, not math; I want to know why it exists before anything else
- Top CPU / orchestration cost:
  - tokenizer.encode: 22 ms of CPU, zero GPU; it sits in front of prefill, so it adds to TTFT
- Next experiment:
  - profile with with_stack=True and find which code calls aten::to
"""


def test_a_sub_item_in_a_field_speaks_of_the_item_above_it() -> None:
    assert grade_text(OUTLINE, "partA")["separates-math-from-movement"]
    said = [t.text for t in Report.parse(OUTLINE).text_lines]
    assert "copy_/to: 34.7 ms together and 5.6 GiB moved — this is movement, not math" in " ".join(
        said
    )
    # the same words as items of their own, each a step to the side: nothing carries the
    # subject, each line is read alone (the field, read as one text, still sets the groups
    # apart: tests/test_statements_round26.py)
    flat = OUTLINE.replace("    - that's", "  - that's").replace("    - this is", "  - this is")
    said = [t.text for t in Report.parse(flat).text_lines]
    assert "this is movement, not math; I want to know why it exists before anything else" in said


@pytest.mark.parametrize(
    ("line", "key"),
    [
        # a tab between a label and its answer, as a word processor writes a two-column line
        ("Hardware\tL4", "hardware"),
        ("Next experiment\tre-profile with with_stack=True", "next_experiment"),
    ],
)
def test_a_tab_after_a_label_sets_its_answer_apart(line: str, key: str) -> None:
    from grader.report.model import Report

    field = Report.parse(f"{line}\n").fields.get(key)
    assert field is not None and field.substantive
    # with one space the label runs into the answer: no field with content
    single = Report.parse(line.replace("\t", " ", 1) + "\n").fields.get(key)
    assert single is None or not single.substantive


def test_a_tab_after_a_lists_marker_is_the_markers_space() -> None:
    from grader.report.model import Report

    names = ["Workload", "Hardware", "Top CUDA time", "Top CPU / orchestration cost"]
    names.append("Next experiment")
    text = "".join(
        f"{n}.\t{name}: x{k}\n"
        for k, (n, name) in enumerate(zip(["i", "ii", "iii", "iv", "v"], names, strict=True))
    )
    fields = Report.parse(text).fields
    assert [fields[k].value for k in ("workload", "hardware", "next_experiment")] == [
        "x0",
        "x1",
        "x4",
    ]
    assert all(fields[k].exact for k in fields)
