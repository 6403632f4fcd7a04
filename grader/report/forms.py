"""Answers written into a form: blanks to fill in and boxes to tick.

A learner who fills in a self-assessment form leaves its marks in the answer::

    Workload: ____ → decoder-only LLM, 4096 in / 128 out, bf16, batch 1
    Bottleneck:  [ ] compute-bound  [x] movement-bound  [ ] overhead-bound

``unform`` removes the blanks ("____", "____ →") around what was written in them, and
drops the options left unticked where some option was ticked: "[ ] compute-bound" beside
"[x] movement-bound" is an option the learner did not choose, not a claim that the run is
compute-bound.  Boxes all left empty, boxes all ticked, and a checklist of things done and
still to do ("- [x] five lines filled", "- [ ] maybe also try FlashAttention-3 ...") are
what the learner wrote, and stay.  Lines keep their numbers.
"""

from __future__ import annotations

import re

_BOX = re.compile(r"\[([ xX\u2713\u2714])\]")
# a blank of a form, and the arrow that points from it to the answer ("____ → L4")
_BLANK = re.compile(r"_{3,}[ \t]*(?:\u2192|->|=>)?[ \t]*")
_ONLY_BLANK = re.compile(r"^[ \t]*_{3,}[ \t]*$")  # a line of underscores is a rule


def _ticked(mark: str) -> bool:
    return mark != " "


def _drop_unticked(line: str) -> str:
    """``line`` without its unticked options: each "[ ] option" up to the next box."""
    boxes = list(_BOX.finditer(line))
    if len(boxes) == 1:
        return "" if not _ticked(boxes[0].group(1)) else line
    keep = line[: boxes[0].start()]
    for box, nxt in zip(boxes, [*boxes[1:], None], strict=True):
        piece = line[box.start() : nxt.start() if nxt else len(line)]
        if _ticked(box.group(1)):
            keep += piece
    return keep.rstrip()


_OPTION_WORDS = 8


def _choice(run: list[str]) -> bool:
    """Do the boxes of ``run`` offer options to choose from ("[x] movement-bound [ ] compute-
    bound"), rather than list things done and still to do ("- [x] five lines filled",
    "- [ ] Won't touch yet: flash attention, ...")?  Options stand side by side on a line,
    or each is short and says no more than its name."""
    if any(len(_BOX.findall(line)) >= 2 for line in run):
        return True
    options = [_BOX.split(line, maxsplit=1)[-1] for line in run]
    return all(len(o.split()) <= _OPTION_WORDS and ":" not in o for o in options)


def unform(text: str) -> str:
    """``text`` without a form's blanks and the options it leaves unticked."""
    if "___" in text:
        text = "\n".join(
            line if _ONLY_BLANK.match(line) else _BLANK.sub("", line) for line in text.split("\n")
        )
    if "[ ]" not in text:
        return text
    lines = text.split("\n")
    out = list(lines)
    i = 0
    while i < len(lines):
        if not _BOX.search(lines[i]):
            i += 1
            continue
        end = i
        while end < len(lines) and _BOX.search(lines[end]):
            end += 1
        marks = [m.group(1) for line in lines[i:end] for m in _BOX.finditer(line)]
        if any(map(_ticked, marks)) and not all(map(_ticked, marks)) and _choice(lines[i:end]):
            for k in range(i, end):
                out[k] = _drop_unticked(lines[k])
        i = end
    return "\n".join(out)
