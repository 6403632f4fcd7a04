"""A markdown report as a list of plain-text lines that remember where they stood.

markdown-it-py does the parsing; each line keeps its number in the file, whether it was a
heading, a list item, a table row, a code line or paragraph text, its list depth, and the
block it belongs to, so later rules can say "the bullet under this label" or "the four items
of this list" without regular expressions over raw markdown.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, NamedTuple

from grader.report.bounds import check_text, parse_tokens
from grader.report.delimited import undelimit
from grader.report.forms import unform
from grader.report.html_paste import unhtml
from grader.report.latex import unlatex
from grader.report.markups import unmarkup
from grader.report.notebook import uncode
from grader.report.plaintext import ungrid, unletter
from grader.report.structured import unstructure
from grader.report.trees import unarrow, untree
from grader.report.typeset import untypeset

MAX_BYTES = 1_000_000  # a report larger than this is refused: no learner writes 1 MB


class Line(NamedTuple):
    number: int  # 1-based line number in the file
    text: str  # plain text, markdown decoration removed
    kind: str  # "heading", "item", "paragraph", "table", "code", "rule" (a thematic break)
    level: int = 0  # heading level, or list depth (1 = top-level item)
    block: int = 0  # id of the paragraph / list item / table row / heading
    first: bool = True  # first line of its block
    ordered: bool = False  # item of a numbered list
    list_id: int = 0  # the list an item belongs to (0 outside lists)
    cells: tuple[str, ...] = ()  # table row cells
    bold_lead: str = ""  # "**Workload** decoder-only ...": the bold words a line opens with
    asked: bool = False  # a question of a question-and-answer layout: it holds no answer


@cache
def _parser(skipped: frozenset[str] = frozenset()) -> Any:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    # Rules whose output a report never needs (raw HTML, link references, entities, images)
    # cost a fifth of the parse.  Inline markup is parsed per line by ``inline_text``, and
    # only where there is some: most of a report's lines are plain prose.
    md.disable(["html_block", "html_inline", "reference", "autolink", "image", "entity"])
    md.disable(["inline", *skipped])
    return md


# A block rule is tried at the start of every block and, as a terminator, on every line of
# a paragraph.  A text without the marker a rule needs cannot contain that block, so the
# rule is left out of its parse: same tokens, less work (a test compares them).
_HR = re.compile(r"([-*_])(?:[ \t]*\1){2}")
_SETEXT = re.compile(r"^[ \t>]*(?:=+|-+)[ \t]*$", re.MULTILINE)
_BLOCK_RULE_NEEDS = {
    "table": lambda text: "|" in text,  # the header row holds a pipe
    "code": lambda text: "    " in text or "\t" in text,  # four columns of indentation
    "fence": lambda text: "```" in text or "~~~" in text,
    "blockquote": lambda text: ">" in text,
    "hr": lambda text: _HR.search(text) is not None,
    "heading": lambda text: "#" in text,
    "lheading": lambda text: _SETEXT.search(text) is not None,
}


def parser_for(text: str) -> Any:
    """The parser for ``text``: block rules it cannot use are not tried."""
    return _parser(frozenset(r for r, needs in _BLOCK_RULE_NEEDS.items() if not needs(text)))


# The characters that can start inline markup under the rules left enabled (escapes, code
# spans, emphasis, links); text without them parses to itself, line breaks aside.  A run of
# underscores right after a letter or digit ("copy_", "key_averages") can never open
# emphasis in CommonMark, so only a run after anything else counts.
_MARKUP = re.compile(r"[\\`*\[]|_(?<!\w_)|~~")


def inline_text(content: str) -> str:
    """The plain text of an inline block: markup removed, line breaks as newlines."""
    if not _MARKUP.search(content):
        return content
    md = _parser()
    out: list[str] = []
    struck = 0  # inside ~~struck-out text~~: withdrawn by its writer, not said
    for child in md.inline.parse(content, md, {}, []):
        if child.type in ("s_open", "s_close"):
            struck += 1 if child.type == "s_open" else -1
        elif struck > 0 and child.type != "softbreak" and child.type != "hardbreak":
            continue
        elif child.type in ("text", "text_special"):
            out.append(child.content)
        elif child.type == "code_inline":
            out.append(f"`{child.content}`")  # a quoted name stays quoted
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n")
    return "".join(out)


_SPACES = re.compile(r"[ \t\u00a0]+")
# Bold words that open a line and are followed by more text, with no colon of their own.
_BOLD_LEAD = re.compile(r"^\s*(\*\*|__)([^*_\n:]{1,40}?)\1(?=[ \t]+[^\s:\-\u2014\u2013])")


_COLUMN_GAP = re.compile(r"[ \t]{2,}|\t")


# HTML a learner pastes: cells become " | ", other tags go ("<b>Workload</b>: ...").
_CELL_EDGE = re.compile(r"</t[dh]>\s*<t[dh][^>]*>", re.IGNORECASE)
_TAG = re.compile(
    r"</?(?:b|strong|i|em|u|code|span|td|th|tr|br|p|div|li|ul|ol|table|tbody|thead|sup|sub|"
    r"mark|small|font|details|summary)\b[^>]*>",
    re.IGNORECASE,
)


# An HTML comment ("Workload: <!-- write here --> batch 1"), blanked where it stands (its
# line breaks kept, so every line keeps its number).
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)


# A peer's or reviewer's remark left in a handed-in report ("[peer: I think it's compute]",
# "*(reviewer: nice)*", "> Peer comment: ..."): another person's words, blanked where they
# stand; the author's own replies ("[author: no, because ...]") stay.
_OTHERS = r"(?:peer|reviewer|classmate|review|other student)(?: comment| note| review| remark)?"
_OTHERS_WORDS_CUE = re.compile(rf"\b{_OTHERS}\s*:", re.IGNORECASE)
_OTHERS_WORDS = re.compile(
    rf"\[\s*{_OTHERS}\s*:[^\]\n]*\]"
    rf"|[*_]{{0,2}}\(\s*{_OTHERS}\s*:[^)\n]*\)[*_]{{0,2}}"
    rf"|^[ \t]*>[ \t]*[*_]{{0,2}}{_OTHERS}[*_]{{0,2}}\s*:.*$",
    re.IGNORECASE | re.MULTILINE,
)


def _blank(m: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", m.group(0))


_TAB = re.compile(r"[ \u00a0]*\t[\t \u00a0]*")
_ENUMERATOR_TAB = re.compile(
    r"^(\s*(?:\(?(?:[ivx]{1,4}|[a-h]|\d{1,2})[.)]|[-*+\u2022\u25e6\u25aa]))\t+"
)


def _clean(text: str) -> str:
    if "<" in text and ">" in text:
        text = _TAG.sub("", _CELL_EDGE.sub(" | ", text))
    if "  " in text or "\t" in text or "\u00a0" in text:  # most lines have nothing to collapse
        # a tab inside a line sets columns apart ("Workload<TAB>batch 1", a word processor's
        # label and its answer): it stays a gap of two spaces, where a field's label may end
        text = _ENUMERATOR_TAB.sub(r"\1 ", text)  # "ii.<TAB>Hardware: L4": a list's marker
        tabbed = "\t" in text.strip()
        text = _SPACES.sub(" ", _TAB.sub("\x00", text) if tabbed else text)
        text = text.replace("\x00", "  ") if tabbed else text
    return text.strip()


# A bullet glyph at the start of a line is a list item, as it looks ("•", "◦", "▪", "●"):
# replaced by "-" (one character for one, so columns and line numbers stay).
_GLYPH_BULLET = re.compile(r"^([ \t]*)[\u2022\u25e6\u25aa\u25cf](?=[ \t])", re.MULTILINE)


# A label opening a line: "Experiments:", "**Top CPU / orchestration cost:** ...".
# ... or, in lower case, a label alone on its line ("experiments:").
_LABEL_LINE = re.compile(
    r"^(?:\*\*|__)?[A-Z][\w /&'’()?-]{0,40}(?:\*\*|__)?\s*:(?!:)"
    r"|^(?:\*\*|__)?[a-z][\w /&'’()?-]{0,40}(?:\*\*|__)?\s*:\s*$"
)


def _lazy_label(source: list[str], number: int, raw: str) -> bool:
    """Is line ``number`` (1-based) of an item's paragraph a label written at the margin
    (not indented under the item, as a wrapped line of it would be)?"""
    here = source[number - 1] if 0 < number <= len(source) else ""
    if here[:1] in (" ", "\t", ">"):
        return False
    if _LABEL_LINE.match(raw):
        return True
    # a field's name alone, the answer in an outline under it: "Hardware" then "  - L4"
    from grader.report.labels import match_label  # labels reads lines this module makes

    hit = match_label(raw.strip(" *_"))
    return hit is not None and not hit[2]


def parse_document(text: str) -> list[Line]:
    """Lines of the report in order, each with its markdown context.

    A text with more structure than a report may have is refused (see ``bounds``)."""
    check_text(text, _MARKUP)
    text = untypeset(text)  # a word processor's hyphens, spaces and marks
    if "<!--" in text:  # a comment is not shown: a template's instructions left in place
        text = _COMMENT.sub(_blank, text)
    if _OTHERS_WORDS_CUE.search(text):  # a classmate's remarks left in: not the learner's
        text = _OTHERS_WORDS.sub(_blank, text)
    if "\u2022" in text or "\u25e6" in text or "\u25aa" in text or "\u25cf" in text:
        text = _GLYPH_BULLET.sub(r"\1-", text)  # "• A: ..." pasted from a word processor
    text, origin = unlatex(text)  # LaTeX source: "\\item \\textbf{Workload:} ..." as markdown
    # each reader that may write more or fewer lines than it read says where each came from
    for rewrite in (
        unhtml,  # pasted HTML: "<p><b>Workload:</b> ...<br>" as markdown
        undelimit,  # pasted from a spreadsheet: "Workload<TAB>..." rows as a table
        unstructure,  # a YAML or JSON block: its keys as labelled lines
    ):
        text, later = rewrite(text)
        if later:
            origin = [origin[n - 1] for n in later] if origin else later
    text = unmarkup(text)  # org-mode, reStructuredText, AsciiDoc: "Workload:: ..." and so on
    text = uncode(text)  # a notebook's export: '"Workload": "...",' is "Workload: ..."
    text = ungrid(text)  # a box drawn with + - |: "| WORKLOAD | decode, bs=1 |"
    text = unletter(text)  # "a) ...", "b) ...": a list, lettered
    text = unform(text)  # a form's blanks and the options it leaves unticked
    text = unarrow(untree(text))  # a mind-map drawn with ├── └── or arrows: a nested list
    tokens = parse_tokens(parser_for(text), text)
    source = text.split("\n")
    lines: list[Line] = []
    list_stack: list[tuple[int, bool]] = []  # (list id, ordered)
    list_counter = 0
    block = 0
    heading_level = 0
    in_item = 0
    row_cells: list[str] = []
    row_line = 0
    in_cell = False
    for tok in tokens:
        t = tok.type
        if t in ("bullet_list_open", "ordered_list_open"):
            list_counter += 1
            list_stack.append((list_counter, t == "ordered_list_open"))
        elif t in ("bullet_list_close", "ordered_list_close"):
            list_stack.pop()
        elif t == "list_item_open":
            in_item += 1
            block += 1
        elif t == "list_item_close":
            in_item -= 1
        elif t == "hr":  # a thematic break ("---"): kept, as it ends a heading's text
            block += 1
            lines.append(Line(tok.map[0] + 1 if tok.map else 0, "", "rule", block=block))
        elif t == "heading_open":
            heading_level = int(tok.tag[1])
        elif t == "heading_close":
            heading_level = 0
        elif t == "tr_open":
            row_cells = []
            row_line = tok.map[0] + 1 if tok.map else 0
        elif t == "tr_close":
            block += 1
            joined = " | ".join(row_cells)
            lines.append(Line(row_line, joined, "table", block=block, cells=tuple(row_cells)))
        elif t in ("th_open", "td_open"):
            in_cell = True
        elif t in ("th_close", "td_close"):
            in_cell = False
        elif t == "inline" and in_cell:
            row_cells.append(_clean(inline_text(tok.content)))
        elif t == "inline":
            start = tok.map[0] + 1 if tok.map else 0
            if heading_level:
                block += 1
                kind, level = "heading", heading_level
            elif in_item and list_stack:
                kind, level = "item", len(list_stack)
            else:
                block += 1
                kind, level = "paragraph", 0
            list_id, ordered = list_stack[-1] if (list_stack and kind == "item") else (0, False)
            first_of_item = kind != "item" or not lines or lines[-1].block != block
            raw = tok.content.split("\n")
            for i, part in enumerate(inline_text(tok.content).split("\n")):
                if not part.strip():
                    continue
                first = i == 0 and first_of_item
                if kind == "item" and i and i < len(raw) and _lazy_label(source, start + i, raw[i]):
                    # "Experiments:" at the margin right under the last bullet: markdown
                    # carries it into that item; its writer began a new part
                    block += 1
                    kind, level, list_id, ordered, first = "paragraph", 0, 0, False, True
                bold = _BOLD_LEAD.match(raw[i]) if i < len(raw) else None
                lines.append(
                    Line(
                        start + i,
                        _clean(part),
                        kind,
                        level,
                        block,
                        first,
                        ordered,
                        list_id,
                        bold_lead=bold.group(2).strip() if bold else "",
                    )
                )
        elif t in ("fence", "code_block"):
            start = (tok.map[0] + 1 if tok.map else 0) + (1 if t == "fence" else 0)
            for i, part in enumerate(tok.content.split("\n")):
                if part.strip():
                    block += 1
                    # columns set apart by spaces ("Top CUDA time     matmul 6.1 ms") keep
                    # two spaces between them, where a field's label may end
                    part = _COLUMN_GAP.sub("  ", part.strip())
                    lines.append(Line(start + i, part, "code", block=block))
    if origin:  # each line written from HTML points at the report's own line
        return [ln._replace(number=origin[min(ln.number, len(origin)) - 1]) for ln in lines]
    return lines
