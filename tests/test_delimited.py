"""Answers pasted from a spreadsheet, read as tables (grader/report/delimited.py)."""

from __future__ import annotations

import pytest

from grader.report.delimited import undelimit
from grader.report.model import Report
from tests.test_statements import grade_text


def test_tab_separated_rows_become_a_table_and_keep_their_line_numbers() -> None:
    text = "Intro line\nField\tAnswer\nWorkload\tdecode, bs 1\nHardware\tL4\n\nafter"
    written, origin = undelimit(text)
    assert written.split("\n") == [
        "Intro line",
        "",
        "| Field | Answer |",
        "| --- | --- |",
        "| Workload | decode, bs 1 |",
        "| Hardware | L4 |",
        "",
        "after",
    ]
    assert origin == [1, 2, 2, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    "text",
    [
        # prose: a space after every comma
        "decoder-only LLM, 4096-token prompt, bf16\nmatmul, attention, copy_ and to\n",
        # one row alone is no table
        "Hardware,L4\nsome prose after it.\n",
        # a word processor's tab after a bullet or after a label's colon
        "\u2022\tWorkload: 7B decode\n\u2022\tHardware: A10G\n",
        "Workload:\t7B decode\nHardware:\tA10G\n",
    ],
)
def test_text_that_is_no_spreadsheet_is_left_alone(text: str) -> None:
    assert undelimit(text) == (text, [])


_CSV_A = """\
Workload,"decoder-only LLM; prompt 4096 / output 128; bf16; bs=1"
Hardware,L4
Top CUDA time,"matmul 38.4 ms and attention 31.7 ms are the math; copy_ + to add 35 ms of \
movement that should not be needed"
Top CPU / orchestration cost,"tokenizer.encode 22 ms on the CPU, 0 on the GPU, still in TTFT"
Next experiment,"re-profile with with_stack=True to find who calls aten::to"

Hypotheses,Experiment
"H1: the cache is kept in fp32 and cast to bf16 every layer","print the cache dtype at layer entry"
"H2: the ids are built on the CPU and copied over each step","look for Memcpy HtoD in the trace"
"""


def test_comma_separated_fields_and_a_hypothesis_table() -> None:
    report = Report.parse(_CSV_A)
    assert report.field("hardware").value == "L4"  # type: ignore[union-attr]
    assert report.field("workload").label_line == 1  # type: ignore[union-attr]
    got = grade_text(_CSV_A, "partA")
    assert got["five-fields"]
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"]


def test_a_numbered_tab_table_with_tests_set_off_in_its_cells() -> None:
    text = (
        "#\tField\tAnswer\n"
        "1\tWorkload\tdecoder-only LLM, 4096 prompt, bf16, bs 1\n"
        "2\tHardware\tL4\n"
        "3\tTop CUDA time\tmatmul 38.4 ms, attention 31.7 ms, copy_ + to 35 ms to explain\n"
        "4\tTop CPU / orchestration cost\ttokenizer.encode 22 ms CPU, adds to TTFT\n"
        "5\tNext experiment\tre-profile with with_stack=True to find who calls to()\n"
        "\n"
        "H1\t54 calls = 3 per layer -> a per-layer cast of the fp32 mask | test: log dtypes\n"
        "H2\tids built on the CPU and shipped up | test: look for Memcpy HtoD in the trace\n"
    )
    got = grade_text(text, "partA")
    assert got["five-fields"]
    assert got["two-hypotheses"]
    assert got["experiment-per-hypothesis"]
