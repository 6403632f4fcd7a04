"""Fuzzing what a learner controls: the bytes of a report and its front matter.

Every input ends in results or in one ``GraderError`` (a message for the learner), never in
another exception, and grading it twice gives the same results.  The pieces are the ones a
report is made of (labels, part headings, leads, markers, markdown, concept words), the
ones hostile inputs are made of (control characters, anchors and aliases, deep nesting,
byte-order marks, broken UTF-8), and any text at all.
"""

from __future__ import annotations

import codecs
import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.errors import GraderError
from grader.grading import grade_submission
from grader.submission import decode_submission

REPORT_PIECES = [
    "Workload: ", "Hardware: ", "Top CUDA time: ", "Top CPU / orchestration cost: ",
    "Next experiment: ", "## Part A\n", "# Part B: overhead\n", "### part c\n", "## Part B vs A\n",
    "Hypotheses:\n", "How I'd test them:\n", "Not yet: ", "Stretch: ", "Contrast with Part A: ",
    "H1 ", "(a) ", "1) ", "2. ", "-> ", "→ ", "- ", "* ", "  - ", "> ", "| a | b |\n",
    "|---|---|\n", "```\n", "    ", "**", "_", "`", "[", "](", "\\", "#", "---\n", "===\n",
    "copies", "copy_", "aten::to", "compute-bound", "movement-bound", "overhead-bound", "not ",
    "don't ", "but ", "because ", "only after ", "flash attention", "FlashAttention-3",
    "torch.compile", "CUDA graphs", "bf16", "fp32", "casts", "tokenizer", "38.4 ms", "61%",
    ", ", "; ", ": ", ". ", "? ", "(", ")", "—", " - ", "\n", "\n\n", "\t", " ", "  ",
    "é", "中文", "\u202e", "\u2028", "\ufeff", "\x00", "\x1b[2J", "\x07", "\x85", "\r\n", "\r",
]  # fmt: skip

FRONT_PIECES = [
    "student: ", "Ada", "'Ada'", '"Ada\\0"', '"\\x1b[2J"', "&a ", "*a", "[", "]", "{", "}",
    "- ", ": ", ", ", "\n", "  ", "01234", "2024-01-01", "!!binary aGk=", "!!python/object:x ",
    "? ", "|\n  x", ">\n  y", "null", "~", "true", "x" * 120, "#", "'", '"', "%TAG ! x\n",
]  # fmt: skip


def _text(pieces: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.one_of(st.sampled_from(pieces), st.text(max_size=6)), max_size=40).map(
        "".join
    )


@st.composite
def reports(draw: st.DrawFn) -> bytes:
    body = draw(_text(REPORT_PIECES))
    if draw(st.booleans()):
        body = "---\n" + draw(_text(FRONT_PIECES)) + "\n---\n" + body
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8", "utf-8-sig", "utf-16", "broken"]))
    if encoding == "broken":
        data = body.encode("utf-8", errors="surrogatepass")
        cut = draw(st.integers(0, len(data)))
        return data[:cut] + draw(st.binary(max_size=4)) + data[cut:]
    data = body.encode(encoding, errors="surrogatepass")
    return codecs.BOM_UTF8 + data if encoding == "utf-8-sig" else data


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _outcome(data: bytes, exercise: str | None) -> object:
    try:
        sub = decode_submission(data, "fuzz.md")
        results = grade_submission(sub, exercise)
    except GraderError as exc:
        assert exc.message and "\n" not in exc.message
        return ("error", str(exc))
    out = [r.to_dict() for r in results]
    shown = json.dumps(out, allow_nan=False)  # what the outputs write must be strict JSON
    # Nothing a terminal, a spreadsheet or a browser would act on reaches what is shown.
    assert not any(CONTROL.search(text) for text in _strings(json.loads(shown)))
    student = sub.front_matter.get("student")
    assert student is None or (isinstance(student, str) and 0 < len(student) <= 100)
    assert not CONTROL.search(str(student or ""))
    return (sub.front_matter, out)


@settings(
    max_examples=2500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(reports(), st.sampled_from([None, "partA", "partB", "partC"]))
def test_any_report_ends_in_results_or_one_message_and_the_same_twice(data, exercise):
    first = _outcome(data, exercise)
    assert _outcome(data, exercise) == first
