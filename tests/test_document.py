"""Reading markdown: the per-line inline fast path gives what full parsing gives."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from grader.report.document import _clean, inline_text, parse_document
from grader.submission import split_parts

FULL = MarkdownIt("commonmark", {"html": False}).enable("table")
FULL.disable(["html_block", "html_inline", "reference", "autolink", "image", "entity"])


def _full_text(content: str) -> list[str]:
    tokens = FULL.parseInline(content)
    out = []
    for child in tokens[0].children or []:
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n")
    return [_clean(p) for p in "".join(out).split("\n")]


PIECES = st.sampled_from(
    [
        "copy_",
        "to",
        " ",
        "  ",
        "\n",
        "**",
        "*",
        "_",
        "`",
        "\\",
        "[",
        "]",
        "(x)",
        "<b>",
        "&amp;",
        "~",
        "!",
        "ms",
        "38.4",
        "|",
        ":",
        "-",
        "#",
        "\t",
        "é",
    ]
)


@settings(max_examples=1500)
@given(st.lists(PIECES, max_size=20).map("".join))
def test_inline_text_equals_a_full_parse(content):
    assert [_clean(p) for p in inline_text(content).split("\n")] == _full_text(content)


def test_markup_is_removed_and_plain_lines_kept():
    lines = parse_document("**Workload:** `copy_` is *61%*\nplain line\n")
    assert [ln.text for ln in lines] == ["Workload: copy_ is 61%", "plain line"]


@given(st.text(alphabet=" \t\u00a0ab.\n", max_size=30))
def test_clean_collapses_every_run_of_spaces(text):
    assert _clean(text) == re.sub(r"[ \t\u00a0]+", " ", text).strip()


def test_part_headings_split_a_file_and_keep_line_numbers():
    text = "intro\n## Part A\nWorkload: a\n  ### part b\nWorkload: b\n## Part A again\n"
    parts = split_parts(text)
    assert list(parts) == ["partA", "partB"]
    assert parts["partB"].split("\n")[3:5] == ["  ### part b", "Workload: b"]
    assert parts["partA"].split("\n")[1:3] == ["## Part A", "Workload: a"]
    assert parts["partA"].split("\n")[3] == ""
