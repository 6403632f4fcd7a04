"""Footnotes: "[3] ..." / "[^tok]: ..." lines, and the references to them in a sentence."""

from __future__ import annotations

import re

from grader.report.model import Report

# "[3] ...", "[^3]: ...", and named ones: "[^tok]: ..."
_FOOTNOTE = re.compile(r"^\[(?:\^?(\d{1,2})|\^([\w-]{1,16}))\][:.]?\s+(\S.*)$")
_FOOTNOTE_REF = re.compile(r"\[(?:\^?(\d{1,2})|\^([\w-]{1,16}))\](?![:(])")


def footnotes(report: Report) -> dict[str, str]:
    """The report's footnotes by number ("[3] Zero CUDA time, ...", "[^3]: ...")."""
    found: dict[str, str] = {}
    for tl in report.text_lines:
        m = _FOOTNOTE.match(tl.text)
        if m:
            found.setdefault(m.group(1) or m.group(2), m.group(3))
    return found


def footnote_refs(text: str) -> list[str]:
    """The footnotes a text refers to, in order, unless it is a footnote itself."""
    if _FOOTNOTE.match(text):
        return []
    return [m.group(1) or m.group(2) for m in _FOOTNOTE_REF.finditer(text)]
