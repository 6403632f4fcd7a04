"""Reports written in an editor's own markup (org-mode, reStructuredText, AsciiDoc) and handed
in as markdown.

Each markup writes the same report with other marks, and markdown reads those marks as text
or as something else ("* Part A" is a bullet to markdown, a heading to org-mode).
``unmarkup`` writes each mark as its markdown equivalent, one line for one, so line numbers
stay:

- a term and its description, ``Workload :: batch 1`` (org-mode, with a bullet),
  ``Workload:: batch 1`` (AsciiDoc) or ``:Workload: batch 1`` (a reStructuredText field
  list), is the labelled line ``Workload: batch 1``;
- a heading, ``== Part A`` (AsciiDoc) or ``** Hypotheses`` (org-mode; ``* Part A`` too in a
  text that is org-mode), is ``## Part A``;
- an item numbered by the markup, ``#. ...`` (reStructuredText) or ``. ...`` (AsciiDoc), is
  ``1. ...``;
- an org table's rule, ``|----+----|``, is ``|----|----|``; a source block,
  ``#+BEGIN_SRC`` to ``#+END_SRC``, is fenced; ``#+TITLE: Part A`` is a heading and other
  ``#+KEY:`` lines, AsciiDoc's ``[source,python]`` and reStructuredText's ``.. note::`` are
  blank, the directive's indented body read as the learner's text.
"""

from __future__ import annotations

import re

_DESCRIPTION = re.compile(
    r"^(?P<lead>\s*(?:[-+*]\s+)?)(?P<term>[A-Za-z][^:\n]{0,60}?)\s*::(?:\s+(?P<rest>.*))?$"
)
_FIELD_LIST = re.compile(r"^(?P<lead>\s*):(?P<term>[A-Za-z][^:\n]{0,40}):\s+(?P<rest>\S.*)$")
_HEADING_MARKS = re.compile(r"^(?P<marks>={1,6}|\*{2,6})\s+(?=[^\W\d_])")  # not "= 70 ms"
_ORG_STAR_HEADING = re.compile(r"^(?P<marks>\*{1,6})\s+(?=\S)")
_AUTO_NUMBER = re.compile(r"^(?P<lead>\s*)(?:#\.|\.)\s+(?=\S)")
_ORG_RULE = re.compile(r"^\s*\|[-+:|]*\+[-+:|]*\|?\s*$")
_ORG_KEYWORD = re.compile(r"^\s*#\+(?P<key>[A-Za-z_]+):?\s*(?P<rest>.*)$")
_ATTRIBUTES = re.compile(
    r"^\[(?:source|horizontal|quote|verse|listing|literal|NOTE|TIP|WARNING|IMPORTANT|CAUTION|"
    r"cols|options|%|\.)[^\]]*\]\s*$"
)
_DIRECTIVE = re.compile(r"^(?P<lead>\s*)\.\.\s+[\w-]+::.*$")
_ORG = re.compile(r"^#\+[A-Za-z_]+|^\*{2,6}\s+\S|^\s*[-+]\s+[^:\n]{1,60}?\s::\s", re.MULTILINE)
_CUES = re.compile(
    r"::|^#\+|^:[A-Za-z]|^#\.|^={1,6}\s|^\*{2,6}\s|^\s*\|[-+]*\+|^\.\s|^\[", re.MULTILINE
)


def _heading(line: str, org: bool) -> str | None:
    m = _HEADING_MARKS.match(line) or (_ORG_STAR_HEADING.match(line) if org else None)
    return None if m is None else "#" * len(m.group("marks")) + " " + line[m.end() :]


def _keyword(m: re.Match[str]) -> str:
    key = m.group("key").upper()
    if (
        key.startswith("BEGIN_SRC")
        or key.startswith("END_SRC")
        or key in ("BEGIN_EXAMPLE", "END_EXAMPLE")
    ):
        return "```"
    if key == "TITLE" and m.group("rest"):
        return "# " + m.group("rest")
    return ""


def unmarkup(text: str) -> str:
    """``text`` with org-mode, reStructuredText and AsciiDoc marks written as markdown."""
    if not _CUES.search(text):
        return text
    org = bool(_ORG.search(text))
    lines = text.split("\n")
    out: list[str] = []
    body_indent: int | None = None  # the indent of a directive's body being read
    in_fence = False
    for line in lines:
        fence = line.lstrip().startswith(("```", "~~~"))
        if in_fence:  # code is read as it stands, to the fence or #+END_SRC that closes it
            k = _ORG_KEYWORD.match(line)
            closes = k is not None and k.group("key").upper().startswith("END_")
            in_fence = not (fence or closes)
            out.append("```" if closes else line)
            continue
        if fence:
            in_fence = True
            out.append(line)
            continue
        if body_indent is not None:
            depth = len(line) - len(line.lstrip())
            if not line.strip():
                out.append("")
                continue
            if depth >= body_indent and depth > 0:
                out.append(line[body_indent:])
                continue
            body_indent = None
        if (d := _DIRECTIVE.match(line)) is not None:
            out.append("")
            body_indent = len(d.group("lead")) + 3
            continue
        if (k := _ORG_KEYWORD.match(line)) is not None:
            out.append(_keyword(k))
            in_fence = out[-1] == "```"  # a source block is read as code
            continue
        if _ATTRIBUTES.match(line):
            out.append("")
            continue
        if _ORG_RULE.match(line):
            out.append(line.replace("+", "|"))
            continue
        if (m := _FIELD_LIST.match(line) or _DESCRIPTION.match(line)) is not None:
            rest = m.group("rest") or ""
            out.append(f"{m.group('lead')}{m.group('term').strip()}: {rest}".rstrip())
            continue
        if (h := _heading(line, org)) is not None:
            out.append(h)
            continue
        if (n := _AUTO_NUMBER.match(line)) is not None:
            out.append(f"{n.group('lead')}1. {line[n.end() :]}")
            continue
        out.append(line)
    return "\n".join(out)
