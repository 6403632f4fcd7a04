"""How much structure a report may have, so that grading one stays within a second.

The size limit alone does not bound the work: markdown-it spends microseconds per line, per
markup character and per element it builds, and the checks per word they read, so a
megabyte of one-character lines, of ``[``, of table cells or of concept words takes seconds
and hundreds of megabytes.  The largest of the 223 reports seen has 36 lines, 440 words,
88 markup characters and 93 elements; these limits are forty times that or more (a report
of 20,000 words is a book), and a report over one is refused with a message saying which,
as one over the size limit is.
"""

from __future__ import annotations

import re
from typing import Any

from grader.errors import GraderError

MAX_LINES = 10_000
MAX_WORDS = 20_000
MAX_MARKUP = 20_000  # characters that can open inline markup (see document._MARKUP)
MAX_ELEMENTS = 50_000  # markdown-it tokens: blocks, list items, table cells and their ends


# A text shorter than this cannot exceed any limit of check_text (a line, a word and a
# markup character each take a character, a word and its separator two), and without a
# table it cannot make MAX_ELEMENTS tokens (markdown-it makes at most about two a
# character: a heading "#\n" makes three); a table can, from a short text (a wide header
# and short rows are padded with empty cells).  Most reports are below it: not counted.
_SHORT = min(MAX_LINES, MAX_MARKUP, 2 * MAX_WORDS, MAX_ELEMENTS // 5)


def check_text(text: str, markup: re.Pattern[str]) -> None:
    """Refuse a text with more lines, words or markup characters than a report may have."""
    if len(text) < _SHORT:
        return
    lines = text.count("\n") + (not text.endswith("\n"))
    if lines > MAX_LINES:
        raise GraderError(f"has {lines:,} lines; a report may have at most {MAX_LINES:,}")
    words = len(text.split())
    if words > MAX_WORDS:
        raise GraderError(f"has {words:,} words; a report may have at most {MAX_WORDS:,}")
    count = sum(1 for _ in markup.finditer(text))
    if count > MAX_MARKUP:
        raise GraderError(
            f"has {count:,} markdown markup characters (* _ ` [ \\); "
            f"a report may have at most {MAX_MARKUP:,}"
        )


class Elements(list[Any]):
    """A token list that refuses to grow past ``MAX_ELEMENTS``: the parser stops as soon as a
    report has too many, before their memory is spent (markdown-it appends every token)."""

    def append(self, token: Any) -> None:
        if len(self) >= MAX_ELEMENTS:
            raise GraderError(
                f"has more than {MAX_ELEMENTS:,} markdown elements (paragraphs, list items, "
                f"table cells); a report may have at most {MAX_ELEMENTS:,}"
            )
        super().append(token)


def parse_tokens(md: Any, text: str) -> list[Any]:
    """``md.parse(text)``, with the token list bounded (the same steps as ``parse``)."""
    if len(text) < _SHORT and "|" not in text:
        tokens_of_short: list[Any] = md.parse(text)
        return tokens_of_short
    from markdown_it.rules_core import StateCore

    state = StateCore(text, md, {})
    state.tokens = Elements()
    md.core.process(state)
    tokens: list[Any] = state.tokens
    return tokens
