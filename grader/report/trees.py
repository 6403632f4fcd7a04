"""Answers drawn as a tree: a mind-map in box-drawing characters, read as a nested list.

Some learners draw the report as the output of ``tree``, a field on each branch and its
answer on the leaf below it::

    one request on the L4
    ├── Workload
    │   └── decoder-only LLM, 4096-token prompt, bf16, batch 1
    └── Next experiment
        └── re-profile with with_stack=True

Markdown reads those lines as one paragraph.  ``untree`` rewrites each branch as the
bullet it stands for, indented by its depth ("- Workload", "  - decoder-only LLM ..."), so
a field's name on a branch and its answer on the leaf below are a label and its value, as
in any outline; a rail alone ("│") is a blank line, and a line of the drawing between a
label and its answer on one branch ("Workload ── bs 1") a dash.  Line numbers stay.  A
text with fewer than three branches is left as it stands: one "└─" in prose draws no tree.
``unarrow`` reads an outline drawn with arrows ("=> Workload", "     -> Mistral 7B") the
same way.
"""

from __future__ import annotations

import re

# The rails before a branch ("│   ", "    "), the branch ("├── ", "└─ ", "`-- ", "+-- "),
# and what it holds.
_BRANCH = re.compile(
    # (or a root's name drawn into the tree: " RUN ───┼── Top CUDA time")
    r"^(?P<rails>(?:[ \t]*[\u2502\u2503|][ \t]*|[ \t])*?|[ \t]*\w[\w ]{0,20}[\u2500\u2501]+)"
    r"(?P<branch>[\u251c\u2514\u2523\u2517\u250c\u253c`+](?:[\u2500\u2501\u2014-]+>?|>))"
    r"[ \t]*(?P<text>.*)$"
)
# A label set off from its answer on the branch by a line of the drawing: "Workload ── bs 1"
_DRAWN_DASH = re.compile(r"[ \t]+[\u2500\u2501]+[ \t]+")
# An outline drawn with arrows, each field's name on one ("=> Workload", "     -> L4").
_ARROW = re.compile(
    r"^(?P<indent>[ \t]*)(?:=>|->|\u2192|\u21d2|\u27a1\ufe0f?)[ \t]+(?P<text>\S.*)$"
)
_RAIL_ONLY = re.compile(r"^[ \t]*[\u2502\u2503][ \t\u2502\u2503]*$")
_MIN_BRANCHES = 3
_STEP = 4  # a tab's columns


def untree(text: str) -> str:
    """``text`` with a tree drawn in it rewritten as a nested bullet list."""
    if "\u251c" not in text and "\u2514" not in text and "`--" not in text:
        return text  # no branch at all: most reports
    lines = text.split("\n")
    branches = [_BRANCH.match(line) for line in lines]
    if sum(m is not None and bool(m.group("text").strip()) for m in branches) < _MIN_BRANCHES:
        return text
    out = list(lines)
    # each width of rails is a level (the tree may stand indented, its rails any width), and
    # a branch is at most one level below the branch above it
    widths = sorted({len(m.group("rails").expandtabs(_STEP)) for m in branches if m is not None})
    last = -1
    for i, (line, m) in enumerate(zip(lines, branches, strict=True)):
        if m is not None:
            drawn = widths.index(len(m.group("rails").expandtabs(_STEP)))
            depth = last = min(drawn, last + 1)
            held = _DRAWN_DASH.sub(" \u2014 ", m.group("text").strip())
            out[i] = f"{'  ' * depth}- {held}"
        elif _RAIL_ONLY.match(line):
            out[i] = ""
    return "\n".join(out)


def unarrow(text: str) -> str:
    """``text`` with an outline drawn with arrows ("=> Workload" / "     -> Mistral 7B, ...")
    rewritten as a nested bullet list, when three or more of its arrows carry a field's
    name; each distinct indent is a level.  (An arrow under a hypothesis, "-> check: ...",
    in a report that labels its fields otherwise, is left to the parts that read it.)"""
    if "->" not in text and "=>" not in text and "\u2192" not in text and "\u21d2" not in text:
        return text
    from grader.report.labels import match_label  # labels reads lines this module makes

    lines = text.split("\n")
    arrows = [_ARROW.match(line) for line in lines]
    named = 0
    for m in arrows:
        hit = match_label(m.group("text").strip(" *_:")) if m is not None else None
        named += hit is not None and hit[1]
    if named < _MIN_BRANCHES:
        return text
    indents = sorted({len(m.group("indent").expandtabs(_STEP)) for m in arrows if m is not None})
    out = list(lines)
    for i, m in enumerate(arrows):
        if m is not None:
            depth = indents.index(len(m.group("indent").expandtabs(_STEP)))
            out[i] = f"{'  ' * depth}- {m.group('text').strip()}"
    return "\n".join(out)
