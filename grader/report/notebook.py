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
# an entry of a dict given a string: 'report["Next experiment"] = "CUDA graphs around a step"'
_SUBSCRIPT = re.compile(
    r"""^(?P<indent>\s*)[A-Za-z_]\w{0,40}\[\s*(?P<q>["'])"""
    r"""(?P<key>[A-Za-z][\w /&-]{0,40})(?P=q)\s*\]\s*=\s*(?P<v>["'])(?P<value>.*?)(?P=v)?\s*$"""
)
# a variable given a list of strings, one per line: 'contrast = [' then '    "A: ...",'
_LIST = re.compile(r"^(?P<indent>\s*)(?P<key>[A-Za-z][A-Za-z0-9_]{0,40})\s*=\s*\[\s*$")
# a tuple of string literals alone on its line: '  ("fp32 casts", "check dtypes"),'
_TUPLE = re.compile(r"""^\s*\(\s*(["']).*(["'])\s*\)\s*,?\s*$""")
_LITERAL = re.compile(r"""(?<![\w])"([^"]*)"|(?<![\w])'([^']*)'""")
# a string literal alone on its line, continuing the value above it
_CONTINUED = re.compile(r"""^(?P<indent>\s*)(?P<v>["'])(?P<value>.*?)(?P=v)\s*[,)}\]]*\s*$""")
_EXPORT = re.compile(
    r"^(?:#+ |\*\*)?In ?\[\s*\d*\]:"
    r"|^\s*[\"'](?:Workload|Hardware|Top CUDA time|Next experiment)[\"']\s*:"
    r"|^\s*(?:workload|hardware|next_experiment)\s*=\s*[\"'\[]"
    r"|^\s*\w+\[[\"'](?:Workload|Hardware|Next experiment)[\"']\]\s*=",
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


_FENCE = re.compile(r"^\s*(?:```|~~~)")


def _rewrite(lines: list[str]) -> tuple[list[str], list[bool]]:
    """Each line as a report's line, and whether it was code rewritten."""
    out: list[str] = []
    done: list[bool] = []
    in_value = False  # the line above gave a value that may go on as a string literal
    in_list = False  # the lines below are the items of a list of strings
    for n, line in enumerate(lines):
        after = lines[n + 1] if n + 1 < len(lines) else ""
        m = _KEY_VALUE.match(line) or _ASSIGNED.match(line) or _SUBSCRIPT.match(line)
        if m is not None:
            out.append(f"{_label(m.group('key'))}: {m.group('value')}")
            in_value, in_list = True, False
        elif (k := _COMMENT_LABEL.match(line)) is not None:
            out.append(k.group("rest"))
            in_value = False
        elif (g := _LIST.match(line)) is not None and (
            _CONTINUED.match(after) or _TUPLE.match(after)
        ):
            out.append(f"{_label(g.group('key'))}:")
            in_value, in_list = False, True
        elif (c := _CONTINUED.match(line) if in_value or in_list else None) is not None:
            # a list's item is a bullet; an unindented line goes on with the value above
            out.append(f"- {c.group('value')}" if in_list else c.group("value"))
        elif in_list and (pair := _TUPLE.match(line)) is not None:
            # a pair in a list, (cause, test): the cause and the test it leads to
            found = [a or b for a, b in _LITERAL.findall(pair.group(0))]
            out.append("- " + " -> ".join(found))
        elif in_list and line.strip() in ("]", "],", ")"):
            out.append("")  # the list's end
            in_list = False
        else:
            in_value = in_list = False
            out.append(line)
            done.append(False)
            continue
        done.append(True)
    return out, done


def uncode(text: str) -> str:
    """``text`` with its fields and answers given as code rewritten as labelled lines.

    A cell's fence goes when the cell holds an answer given as code: what is inside is the
    learner's report, not code to show ("```python" around "# - A: matmul top = real math")."""
    if not _EXPORT.search(text):
        return text
    lines = text.split("\n")
    out, done = _rewrite(lines)
    fences = [i for i, line in enumerate(lines) if _FENCE.match(line)]
    for start, end in zip(fences[::2], fences[1::2], strict=False):
        if any(done[start + 1 : end]):
            out[start] = out[end] = ""
    return "\n".join(out)
