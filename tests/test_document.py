"""Reading markdown: the per-line inline fast path gives what full parsing gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from grader.report.document import _clean, inline_text, parse_document

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
