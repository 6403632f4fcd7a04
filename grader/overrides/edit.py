"""Write entries into an overrides file, keeping what a person wrote there.

A new entry that changes the same criterion of the same student's part as an entry of the
file replaces that entry where it stands; any other is appended.  Everything else in the
file (comments, blank lines, the other entries as they were written) is kept byte for
byte.  Adjustments are always appended: two adjustments of a part add up.  The file is
written atomically and read back through the loader before it replaces the old one, so a
written file is always one ``grade batch --overrides`` accepts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from grader.atomic import write_text
from grader.errors import GraderError
from grader.overrides.model import Override, check_unique, read_overrides_file

HEADER = (
    "# Instructor overrides: grade batch ... --overrides THIS_FILE\n"
    "# Each entry changes a criterion's verdict (passed: true/false, or points) or adjusts a\n"
    "# part's score (adjust: +/-points), with a note the student reads.\n"
)


def entry_text(entry: Override, indent: int = 0) -> str:
    """The entry as a block list item: '- student: ...' and its other keys below."""
    body = yaml.safe_dump(entry.to_yaml(), sort_keys=False, allow_unicode=True, width=88)
    pad = " " * (indent + 2)
    lines = body.rstrip("\n").split("\n")
    return " " * indent + "- " + lines[0] + "".join(f"\n{pad}{line}" for line in lines[1:])


def _last_line(node: yaml.Node) -> int:
    """The 0-based last line a list item's own text takes (its end mark may lie past
    comments that follow it)."""
    while isinstance(node, yaml.MappingNode | yaml.SequenceNode) and not node.flow_style:
        if not node.value:
            break
        last = node.value[-1]
        node = last[1] if isinstance(node, yaml.MappingNode) else last
    end = node.end_mark
    return int(end.line - 1 if end.column == 0 else end.line)


def _item_span(text: str, item: yaml.Node) -> tuple[int, int, int]:
    """Where a list item stands in ``text``: from its dash to the end of its last line,
    and the dash's column."""
    dash = text.rindex("-", 0, item.start_mark.index)
    column = dash - (text.rfind("\n", 0, dash) + 1)
    lines = text.split("\n")
    last = _last_line(item)
    end = sum(len(line) + 1 for line in lines[: last + 1]) - 1
    return dash, max(end, item.start_mark.index), column


def _replace(text: str, root: Any, at: dict[int, Override]) -> str:
    """``text`` with the items at the given indexes rewritten, from the last one up."""
    for index in sorted(at, reverse=True):
        start, end, column = _item_span(text, root.value[index])
        text = text[:start] + entry_text(at[index], column).lstrip(" ") + text[end:]
    return text


def add_entries(path: Path, entries: list[Override]) -> tuple[int, int]:
    """Write ``entries`` into the overrides file at ``path`` (made if missing); the number
    of entries that replaced one and the number appended."""
    check_unique(entries)
    old: list[Override] = []
    root: Any = None
    text = HEADER
    if path.exists():
        old, root = read_overrides_file(path)
        text = path.read_text(encoding="utf-8")
    flow = root is not None and getattr(root, "flow_style", False)
    where = {o.key: i for i, o in enumerate(old) if o.key is not None}
    at: dict[int, Override] = {}
    added: list[Override] = []
    for entry in entries:
        index = where.get(entry.key) if entry.key is not None else None
        if index is None or flow:
            added.append(entry)
        else:
            at[index] = entry
    if flow:  # a one-line [..] list: written again whole, in block style
        kept = [o for o in old if o.key not in {e.key for e in entries if e.key}]
        text, added = HEADER, [*kept, *entries]
    elif at:
        text = _replace(text, root, at)
    if added:
        text = (text if text.endswith("\n") or not text else text + "\n") + "".join(
            entry_text(e) + "\n" for e in added
        )
    _write_checked(path, text)
    return len(at), len(added)


def _write_checked(path: Path, text: str) -> None:
    """Write ``text`` only if the loader accepts it (it always should)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / path.name
        probe.write_text(text, encoding="utf-8")
        try:
            read_overrides_file(probe)
        except GraderError as exc:  # pragma: no cover - a bug here, not the user's mistake
            raise GraderError(f"could not write a valid overrides file: {exc.message}") from None
    write_text(path, text)
