"""Reading markdown: the per-line inline fast path gives what full parsing gives."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from grader.report.document import _clean, _parser, inline_text, parse_document, parser_for

FULL = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
FULL.disable(["html_block", "html_inline", "reference", "autolink", "image", "entity"])


def _full_text(content: str) -> list[str]:
    tokens = FULL.parseInline(content)
    out = []
    struck = 0  # ~~struck-out text~~ is withdrawn by its writer: not read
    for child in tokens[0].children or []:
        if child.type in ("s_open", "s_close"):
            struck += 1 if child.type == "s_open" else -1
        elif struck and child.type not in ("softbreak", "hardbreak"):
            continue
        elif child.type == "text":
            out.append(child.content)
        elif child.type == "code_inline":
            out.append(f"`{child.content}`")
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


def test_struck_out_text_is_not_read():
    lines = parse_document("Next experiment: ~~try FlashAttention-3~~ find who calls aten::to\n")
    assert [ln.text for ln in lines] == ["Next experiment: find who calls aten::to"]


def test_markup_is_removed_code_spans_kept_and_plain_lines_kept():
    lines = parse_document("**Workload:** `copy_` is *61%*\nplain line\n")
    assert [ln.text for ln in lines] == ["Workload: `copy_` is 61%", "plain line"]


@given(st.text(alphabet=" \t\u00a0ab.\n", max_size=30))
def test_clean_collapses_every_run_of_spaces(text):
    got = _clean(text)
    assert "\t" not in got and "\u00a0" not in got and "   " not in got
    if "\t" not in text.strip(" \t\u00a0"):
        assert got == re.sub(r"[ \t\u00a0]+", " ", text).strip()
    else:  # a tab inside a line is a column's gap of two spaces, unless it follows a marker
        assert got.replace("  ", " ") == re.sub(r"[ \t\u00a0]+", " ", text).strip()


def _tokens(md, text: str) -> list[tuple]:
    return [(t.type, t.map, t.content, t.tag, t.markup, t.info, t.level) for t in md.parse(text)]


BLOCK_PIECES = st.sampled_from(
    [
        "foo",
        "bar baz",
        " ",
        "  ",
        "   ",
        "    ",
        "\t",
        "\n",
        "\n",
        "\n",
        "- ",
        "* ",
        "+ ",
        "1. ",
        "2) ",
        "> ",
        "|",
        " | ",
        "---",
        "-",
        "--",
        "***",
        "* * *",
        "_ _ _",
        "___",
        "===",
        "=",
        "```",
        "~~~",
        "#",
        "## ",
        ":",
        "|---|",
        "| - |",
        "x|y",
    ]
)


@settings(max_examples=3000)
@given(st.lists(BLOCK_PIECES, max_size=30).map("".join))
def test_leaving_out_block_rules_a_text_cannot_use_changes_no_token(text):
    assert _tokens(parser_for(text), text) == _tokens(_parser(), text)


def test_every_labelled_report_parses_the_same_with_fewer_rules(root):
    folders = [root / "submissions", root.parent / "shared" / "examples" / "submissions"]
    texts = [p.read_text() for f in folders if f.is_dir() for p in sorted(f.glob("*.md"))]
    assert texts
    for text in texts:
        assert _tokens(parser_for(text), text) == _tokens(_parser(), text)
