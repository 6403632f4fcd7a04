"""Answers written as YAML or JSON, read as the lines they stand for (structured.py)."""

from __future__ import annotations

import pytest

from grader.report.model import Report
from grader.report.structured import unstructure
from tests.test_statements import grade_text

_YAML_A = """\
# Part A

```yaml
Workload: decoder-only LLM, 4096-token prompt, 128 new tokens, bf16, batch 1
Hardware: L4
Top CUDA time: >
  matmul 38.4 ms and attention 31.7 ms are the math;
  copy_ + to add 35 ms of movement that should not be needed
Top CPU / orchestration cost: >-
  tokenizer.encode, 22 ms on the CPU and none on the GPU, still adds to TTFT
Next experiment: re-profile with with_stack=True to find who calls aten::to
hypotheses:
  - id: H1
    claim: "the KV cache is kept in fp32 and cast to bf16 every layer"
    test: "log cache.dtype at each layer's entry"
  - id: H2
    claim: "the ids are built on the CPU and copied over every step"
    test: "look for Memcpy HtoD rows in the trace"
not_yet:
  what: the attention kernel
  why: it is already a flash kernel and the copies are unexplained
stretch_ranges:
  - "tokenize"
  - "decode_step"
```
"""


def test_a_yaml_block_is_read_as_fields_and_parts() -> None:
    got = grade_text(_YAML_A, "partA")
    for criterion in (
        "five-fields",
        "separates-math-from-movement",
        "tokenizer-outside-gpu",
        "two-hypotheses",
        "experiment-per-hypothesis",
        "not-yet-with-reason",
        "stretch-named-ranges",
    ):
        assert got[criterion], criterion


def test_each_line_written_points_at_its_key() -> None:
    report = Report.parse(_YAML_A)
    assert report.field("hardware").label_line == 5  # type: ignore[union-attr]
    assert report.field("top_cuda").label_line == 6  # type: ignore[union-attr]
    assert report.field("next_experiment").label_line == 11  # type: ignore[union-attr]


def test_a_file_that_is_one_json_object() -> None:
    text = (
        '{\n  "workload": "bs 1, prompt 32, decode 128",\n  "hardware": "L4",\n'
        '  "top_cuda_time": "matmul 6.1 ms over 240 calls, about 25 us each",\n'
        '  "top_cpu_orchestration_cost": "the Python loop, 38 ms of CPU against 15 ms of CUDA",\n'
        '  "next_experiment": "capture the decode step in a CUDA graph",\n'
        '  "contrast": ["A: matmul was real math", "B: matmul means little, tiny calls",\n'
        '    "A: copies; B: launches", "no attention op in B and the GPU waits"]\n}\n'
    )
    got = grade_text(text, "partB")
    assert got["five-fields"]
    assert got["contrast-four-bullets"]


@pytest.mark.parametrize(
    "text",
    [
        "```python\nx = {'a': 1}\nprint(x)\n```\n",  # code, not data
        "```\nfoo: 1\nbar: 2\n```\n",  # untagged data that names no field
        "```yaml\n- just\n- a list\n```\n",  # no mapping
        "```yaml\nkey: [unclosed\n```\n",  # not YAML at all
        "Workload: bs 1\nHardware: L4\n",  # no block
    ],
)
def test_blocks_that_are_not_a_report_as_data_are_left_alone(text: str) -> None:
    assert unstructure(text) == (text, [])


@pytest.mark.parametrize(
    "body",
    [
        "workload: &w decode\nhardware: *w\n",  # an alias
        "workload: " + "[" * 3000 + "]" * 3000 + "\nhardware: L4\n",  # nested past any report
    ],
)
def test_hostile_data_is_left_as_code(body: str) -> None:
    text = f"```yaml\n{body}```\n"
    assert unstructure(text) == (text, [])
