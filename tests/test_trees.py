"""Answers drawn as a tree or an arrow outline, read as nested lists (grader/report/trees.py)."""

from __future__ import annotations

import pytest

from grader.report.model import Report
from grader.report.trees import unarrow, untree
from tests.test_statements import grade_text

_TREE = """\
one request on the L4
├── Workload
│   └── decoder-only LLM, 4096-token prompt, bf16, batch 1
│
├── Hardware ── one L4
└── Next experiment
    ├── torch.compile with reduce-overhead
    └── CUDA graphs for the decode step"""


def test_a_tree_becomes_a_nested_list_line_for_line() -> None:
    assert untree(_TREE).split("\n") == [
        "one request on the L4",
        "- Workload",
        "  - decoder-only LLM, 4096-token prompt, bf16, batch 1",
        "",
        "- Hardware \u2014 one L4",
        "- Next experiment",
        "  - torch.compile with reduce-overhead",
        "  - CUDA graphs for the decode step",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "copy_ └─ to: the casts come first.",  # one branch in prose draws no tree
        "Workload: bs 1\nHardware: L4\n",
        "H1 - fp32 cast\n-> check: log the dtype\nH2 - cpu inputs\n-> check: print the device\n",
    ],
)
def test_text_without_a_drawn_outline_is_left_alone(text: str) -> None:
    assert unarrow(untree(text)) == text


def test_the_fields_of_a_tree_and_its_leaves() -> None:
    report = Report.parse(_TREE)
    assert report.field("workload").value.startswith("decoder-only LLM")  # type: ignore[union-attr]
    assert report.field("hardware").value == "one L4"  # type: ignore[union-attr]
    assert len(report.field("next_experiment").value.split("\n")) == 2  # type: ignore[union-attr]


_INDENTED_TREE = """\
        ┌── Workload: 7B decoder, decode phase, batch 1
        ├── Hardware: L4
 RUN ───┼── Top CUDA time: aten::copy_, 61% of CUDA time
        ├── Top CPU / orchestration cost: the Python loop
        └── Next experiment: find who moves the KV cache to the GPU, with_stack=True
"""


def test_a_tree_drawn_indented_around_its_root() -> None:
    got = grade_text(_INDENTED_TREE, "partC")
    assert got["field-names-exact"]
    assert got["copy-share-stated"]
    assert got["next-experiment-targets-bottleneck"]


_ARROWS = """\
=> Workload
     -> 7B decoder, decode phase, batch 1
=> {hardware}
     -> L4
=> Top CUDA time
     -> aten::copy_, roughly 61% of CUDA time
=> Top CPU / orchestration cost
     -> the host loop issuing the copies
=> Next experiment
     -> trace every copy_ to its caller with with_stack=True: a device move or a dtype cast?
"""


@pytest.mark.parametrize(("hardware", "exact"), [("Hardware", True), ("Hardwear", False)])
def test_an_outline_drawn_with_arrows(hardware: str, exact: bool) -> None:
    got = grade_text(_ARROWS.format(hardware=hardware), "partC")
    assert got["field-names-exact"] is exact
    assert got["one-next-experiment"]
    assert got["next-experiment-targets-bottleneck"]


_TREE_C = """\
part C
├── Workload ─ 7B model decoding, batch 1
├── Hardware ─ A10G
├── Top CUDA time ─ aten::copy_ at 61% of CUDA time
├── Top CPU / orchestration cost ─ decode loop
└── Next experiment ─ find which .to() call moves tensors between cpu and gpu every step
      └── {under}
"""


@pytest.mark.parametrize(
    ("under", "one"),
    [
        ("copies first, attention later", True),  # a remark, not an experiment
        ("and also switch to FlashAttention-3", False),  # a second experiment
    ],
)
def test_a_remark_under_the_experiment_is_no_second_experiment(under: str, one: bool) -> None:
    got = grade_text(_TREE_C.format(under=under), "partC")
    assert got["field-names-exact"]
    assert got["one-next-experiment"] is one


def test_a_contrast_given_as_four_arrows() -> None:
    text = (
        "Workload: bs 1, prompt 32, decode 128\nHardware: L4\n"
        "Top CUDA time: matmul 6.1 ms over 240 calls, about 25 us each\n"
        "Top CPU / orchestration cost: the Python loop, 38 ms of CPU\n"
        "Next experiment: capture the decode step in a CUDA graph\n\n"
        "Contrast with Part A\n"
        "  -> A: matmul on top was real prefill math\n"
        "  -> B: matmul on top means little, each call is tiny\n"
        "  -> A was limited by copies; B by launches from Python\n"
        "  -> no attention op in B, and the GPU waits on the host: a fused kernel won't help\n"
    )
    assert grade_text(text, "partB")["contrast-four-bullets"]
