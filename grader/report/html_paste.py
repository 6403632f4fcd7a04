"""Reports pasted from a rich-text editor or a learning platform, so they carry HTML.

``<p><b>Workload:</b> batch 1<br><b>Hardware:</b> L4</p>`` is the five-line report with its
lines joined by ``<br>``; ``<ol><li>H1 ...<br><em>Test:</em> ...</li></ol>`` is a numbered
list whose items have a second line.  Markdown shows such HTML but reads it as one block of
raw markup.  ``unhtml`` writes it as the markdown it stands for: a paragraph per ``<p>``, a
line per ``<br>``, a bullet per ``<li>`` (numbered in an ``<ol>``), a heading per ``<h1>`` to
``<h6>``, a table row per ``<tr>``, ``**bold**``, ``*italics*``, `` `code` ``, and entities
as their characters (``&nbsp;``, ``&amp;``).  Markdown around the HTML is kept.

Each line written keeps the number of the line it came from, so evidence still points at
the report's own line.  It runs only on a text with at least two HTML tags of a report's
kind; "x < 5" or "copy_ -> <to>" alone is no HTML.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_TAGS = re.compile(
    r"</?(?:p|br|b|strong|em|i|u|li|ul|ol|h[1-6]|table|tr|td|th|div|span|code|blockquote)\b[^>]*>",
    re.IGNORECASE,
)
_BLOCKS = {"p", "div", "blockquote", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6"}
_INLINE = {"b": "**", "strong": "**", "em": "*", "i": "*", "code": "`"}


class _Writer(HTMLParser):
    """Markdown lines, each with the number of the source line it starts on."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[str, int]] = [("", 1)]
        self.lists: list[list[int]] = []  # per open list: [ordered, items so far]
        self.row: list[str] | None = None
        self.rows = 0
        self.cell: list[str] | None = None
        self.in_item = 0  # 1 while inside an <li>: a line broken there goes on in the item

    # -- writing ---------------------------------------------------------------------
    def _line_no(self) -> int:
        return self.getpos()[0]

    def _write(self, text: str) -> None:
        if self.cell is not None:
            self.cell.append(text)
            return
        parts = text.split("\n")
        line, at = self.lines[-1]
        self.lines[-1] = (line + parts[0], at)
        start = self._line_no()
        for k, part in enumerate(parts[1:], start=1):
            self.lines.append((part, start + k))

    def _break(self, blank: bool = False) -> None:
        if self.cell is not None:
            self.cell.append(" ")
            return
        # a line broken inside a list's item goes on in that item
        indent = "   " * len(self.lists) if self.in_item else ""
        if self.lines[-1][0].strip():
            self.lines.append((indent, self._line_no()))
        else:
            self.lines[-1] = (indent, self._line_no())
        if blank and len(self.lines) >= 2 and self.lines[-2][0].strip():
            self.lines.append(("", self._line_no()))

    # -- the parser's events -----------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and self.cell is None and self.lines[-1][0].lstrip().startswith("|"):
            self._write(" ")  # "| a<br>b |": a markdown table's row stays one line
        elif tag == "br":
            self._break()
        elif tag in ("ul", "ol"):
            self._break(blank=not self.lists)
            self.lists.append([tag == "ol", 0])
        elif tag == "li":
            self.in_item = 0
            self._break()
            self.in_item = 1
            ordered, n = self.lists[-1] if self.lists else [False, 0]
            if self.lists:
                self.lists[-1][1] = n + 1
            indent = "  " * max(len(self.lists) - 1, 0)
            self._write(f"{indent}{n + 1}. " if ordered else f"{indent}- ")
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._break(blank=True)
            self._write("#" * int(tag[1]) + " ")
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []
        elif tag in _BLOCKS:
            self._break(blank=True)
        elif tag in _INLINE:
            self._write(_INLINE[tag])

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()).replace("|", "/"))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self._break()
            self._write("| " + " | ".join(self.row) + " |")
            if self.rows == 0:  # markdown reads a table from its header row and a rule
                self.lines.append(("|" + "---|" * len(self.row), self._line_no()))
            self.rows += 1
            self.row = None
        elif tag == "table":
            self.rows = 0
            self._break(blank=True)
        elif tag == "li":
            self.in_item = 0
        elif tag in ("ul", "ol"):
            self.in_item = 0
            if self.lists:
                self.lists.pop()
            self._break(blank=not self.lists)
        elif tag in _BLOCKS:
            self._break(blank=True)
        elif tag in _INLINE:
            self._write(_INLINE[tag])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        if self.row is not None and self.cell is None:
            return  # the space between a row's cells
        if self.rows and self.cell is None:
            if not data.strip():
                return  # the space between rows: they stay one table
            self.rows = 0
            self._break(blank=True)
        self._write(data)


def unhtml(text: str) -> tuple[str, list[int]]:
    """``text`` with its HTML written as markdown, and for each line written the number of
    the line of ``text`` it came from (an empty list when there was no HTML to write)."""
    if len(_TAGS.findall(text, 0, 200_000)) < 2:
        return text, []
    writer = _Writer()
    writer.feed(text)
    writer.close()
    lines = [(line.rstrip(), at) for line, at in writer.lines]
    return "\n".join(line for line, _ in lines), [at for _, at in lines]
