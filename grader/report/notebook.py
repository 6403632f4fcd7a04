"""Answers written as code: a report exported from a notebook or a script.

Learners who work in Jupyter hand in the notebook's export, and write the five fields as a
dict (``"Workload": "decoder-only, batch 1",``), a variable (``next_experiment = "..."``) or
a comment (``# Next experiment: ...``).  What they say is the same; only the quoting differs.
``uncode`` rewrites such lines as the labelled lines of a report (``Workload: decoder-only,
batch 1``), one line for one, so line numbers stay; every other line is left as it stands.
It runs only on a text that looks like such an export (a ``# In[3]:`` cell marker, or a
line that gives a field as a quoted key or a variable).
"""

from __future__ import annotations

import re

# a quoted key and its quoted value: '    "Top CUDA time": "matmul 38.4 ms ...",'
_KEY_VALUE = re.compile(
    r"""^(?P<indent>\s*)[{\[]?\s*(?P<q>["'])(?P<key>[A-Za-z][\w /&-]{0,40})(?P=q)\s*:\s*"""
    r"""(?P<v>["'])(?P<value>.*?)(?P=v)?\s*[,}\]]*\s*$"""
)
# a variable given a string: 'next_experiment = "re-run with with_stack=True"'
_ASSIGNED = re.compile(
    r"""^(?P<indent>\s*)(?P<key>[A-Za-z][A-Za-z0-9_]{0,40})\s*=\s*[(]?\s*(?P<v>["'])"""
    r"""(?P<value>.*?)(?P=v)?\s*[)]?\s*$"""
)
# a string literal alone on its line, continuing the value above it
_CONTINUED = re.compile(r"""^(?P<indent>\s*)(?P<v>["'])(?P<value>.*?)(?P=v)\s*[,)}\]]*\s*$""")
_EXPORT = re.compile(
    r"^# In\[\s*\d*\]:|^\s*[\"'](?:Workload|Hardware|Top CUDA time|Next experiment)[\"']\s*:"
    r"|^\s*(?:workload|hardware|next_experiment)\s*=\s*[\"']",
    re.MULTILINE | re.IGNORECASE,
)


# A comment, or a markdown cell exported as comments: its words without the "# " ("# Next
# experiment: ...", "# - A: matmul top = real prefill math", "# # Part A" is a heading);
# the cell markers stay ("# In[3]:", "# Out[3]:").
_COMMENT_LABEL = re.compile(r"^#[ \t]+(?!(?:In|Out)\s*\[)(?P<rest>\S.*)$")


def _label(key: str) -> str:
    """ "next_experiment" -> "Next experiment", "Top CUDA time" as it is."""
    words = key.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def uncode(text: str) -> str:
    """``text`` with its fields and answers given as code rewritten as labelled lines."""
    if not _EXPORT.search(text):
        return text
    out: list[str] = []
    in_value = False  # the line above gave a value that may go on as a string literal
    for line in text.split("\n"):
        m = _KEY_VALUE.match(line) or _ASSIGNED.match(line)
        if m is not None:
            out.append(f"{_label(m.group('key'))}: {m.group('value')}")
            in_value = True
            continue
        k = _COMMENT_LABEL.match(line)
        if k is not None:
            out.append(k.group("rest"))
            in_value = False
            continue
        c = _CONTINUED.match(line) if in_value else None
        if c is not None:
            out.append(c.group("value"))  # an unindented line goes on with the value above
            continue
        in_value = False
        out.append(line)
    return "\n".join(out)
