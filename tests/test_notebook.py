"""Reports exported from a notebook or a script: answers given as code are read as fields."""

from __future__ import annotations

import pytest

from grader.report.notebook import uncode
from tests.test_statements import grade_text


@pytest.mark.parametrize(
    ("line", "read"),
    [
        (
            '    "Top CUDA time": "matmul 38.4 ms, the math",',
            "Top CUDA time: matmul 38.4 ms, the math",
        ),
        (
            'next_experiment = "re-run with with_stack=True"',
            "Next experiment: re-run with with_stack=True",
        ),
        (
            "# Next experiment: with_stack=True, sort by line",
            "Next experiment: with_stack=True, sort by line",
        ),
        # a markdown cell exported as comments: a bullet, a heading
        ("# - A: matmul top = real prefill math", "- A: matmul top = real prefill math"),
        ("# # Part B - contrast", "# Part B - contrast"),
        # a cell marker, code and prose stay as they are
        ("# In[3]:", "# In[3]:"),
        ("# Out[3]:", "# Out[3]:"),
        ("math = df.cuda_ms[:2].sum()", "math = df.cuda_ms[:2].sum()"),
    ],
)
def test_a_line_of_code_that_answers_is_a_labelled_line(line: str, read: str) -> None:
    assert uncode(f"# In[1]:\n{line}").split("\n")[1] == read


def test_a_text_that_is_no_export_is_left_alone() -> None:
    text = 'Workload: batch 1\nnote = "x"\n# Next experiment: y'
    assert uncode(text) == text
    assert uncode("x\n" * 3) == "x\n" * 3


EXPORT = """\
# In[2]:


report = {
    "Workload": "decoder-only LLM, 4096-token prompt, 128 new tokens, bf16, batch 1",
    "Hardware": "single NVIDIA L4",
    "Top CUDA time": "matmul + flash attention = ~70 ms of model math; "
                     "copy_ + to = ~35 ms that is just moving bytes and should not be needed",
    "Top CPU / orchestration cost": "tokenizer.encode 22 ms on the host (0 ms CUDA), "
                                    "but the request waits for it, so it is part of TTFT",
    "Next experiment": "re-run the profiler with with_stack=True to see which line calls .to()",
}
"""


def test_a_notebooks_report_dict_is_graded_as_its_fields() -> None:
    got = grade_text(EXPORT, "partA")
    assert got["five-fields"] and got["one-next-experiment"]
    assert got["next-experiment-targets-bottleneck"] and got["tokenizer-outside-gpu"]
    # the same dict with a field left out
    assert not grade_text(EXPORT.replace('    "Hardware": "single NVIDIA L4",\n', ""), "partA")[
        "five-fields"
    ]


def test_a_contrast_written_as_comment_bullets_is_four_bullets() -> None:
    text = (
        "# In[1]:\n# Workload: bs1, 32 in / 128 out, tiny hidden\n# Hardware: L4\n"
        "# Top CUDA time: matmul 6.1 ms / 240 calls (~25 us each)\n"
        "# Top CPU / orchestration cost: Python loop 38 ms > ~15 ms GPU -> GPU starved\n"
        "# Next experiment: CUDA graphs on the decode step\n"
        "# - A: matmul top = real prefill math\n# - B: matmul top = tiny calls, GPU idle\n"
        "# - A: movement; B: launches\n# - no fused attn: no attention here, GPU waits on host\n"
    )
    got = grade_text(text, "partB")
    assert got["five-fields"] and got["contrast-four-bullets"] and got["top-cuda-meaning"]
    # three comment bullets are three
    three = text.replace("# - A: movement; B: launches\n", "")
    assert not grade_text(three, "partB")["contrast-four-bullets"]


@pytest.mark.parametrize(
    ("code", "read"),
    [
        # an entry of a dict set by subscript
        ('report["Hardware"] = "L4"', ["Hardware: L4"]),
        # a list of strings: a labelled line and its items; the list's end is blank
        (
            'contrast = [\n    "A: real math",\n    "B: tiny calls",\n]',
            ["Contrast:", "- A: real math", "- B: tiny calls", ""],
        ),
        # a list of pairs: the cause and the test it leads to
        (
            'hyps = [\n  ("fp32 casts", "print dtypes"),\n]',
            ["Hyps:", "- fp32 casts -> print dtypes", ""],
        ),
        # code that answers nothing stays
        ("xs = [\n  f(1),\n]", ["xs = [", "  f(1),", "]"]),
    ],
)
def test_code_that_answers_is_rewritten_line_for_line(code: str, read: list[str]) -> None:
    assert uncode(f"# In[1]:\n{code}").split("\n")[1:] == read


def test_a_cells_fence_goes_only_when_the_cell_answers() -> None:
    text = "**In [3]:**\n```python\n# - A: matmul top\n```\n\n```\naten::copy_ 35 ms\n```"
    assert uncode(text).split("\n") == [
        "**In [3]:**",
        "",
        "- A: matmul top",
        "",
        "",
        "```",
        "aten::copy_ 35 ms",
        "```",
    ]
