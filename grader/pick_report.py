"""Which file of a Gradescope submission is the report, chosen as a person would.

A submission folder holds what the learner uploaded: the report, perhaps a README, notes,
an archive's ``__MACOSX`` metadata, hidden files.  The report is the ``.md``/``.txt`` file
that names most of the five fields (then ``.md`` before ``.txt``, a shallower file first,
then by name); hidden entries and ``__MACOSX`` are skipped, and so is a link that leads
out of the submission folder (its target is not the learner's to show).  The folder is
walked without recursion and within bounds, so a tree nested a thousand deep or holding a
million files costs little.  Every file passed over is named with the reason.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from grader.errors import GraderError

SUFFIXES = (".md", ".txt")
MAX_DEPTH = 32
MAX_ENTRIES = 20_000
MAX_CANDIDATES = 50
_LABEL_END = re.compile(r"[:|=–—]")
_LEAD = re.compile(r"^[\s#*>|_`0-9.)(-]+")


@dataclass
class Choice:
    report: Path | None = None
    shown: str = ""  # its path inside the submission
    ignored: list[tuple[str, str]] = field(default_factory=list)  # path, why
    notes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        lines = [f"Graded {self.shown}."] if self.report else []
        lines += [f"Ignored {path}: {why}." for path, why in self.ignored[:10]]
        if len(self.ignored) > 10:
            lines.append(f"Ignored {len(self.ignored) - 10} more files.")
        return "\n".join(lines + self.notes)


def _fields_named(path: Path) -> int:
    """How many of the five fields the file's lines name (a quick look, bounded)."""
    from grader.report.labels import match_label
    from grader.submission import read_submission

    text = read_submission(path).text
    found = set()
    for n, line in enumerate(text.split("\n")):
        if n >= 400:
            break
        label = _LABEL_END.split(_LEAD.sub("", line[:120]), maxsplit=1)[0]
        hit = match_label(label) if label.strip() else None
        if hit:
            found.add(hit[0].key)
    return len(found)


def _walk(root: Path, choice: Choice) -> list[tuple[int, str, Path]]:
    """(depth, path inside the submission, path) of every report-like file, and the
    skipped ones noted in ``choice``."""
    real_root = os.path.realpath(root)
    found: list[tuple[int, str, Path]] = []
    stack: list[tuple[Path, str, int]] = [(root, "", 0)]
    seen = 0
    while stack:
        folder, rel, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            choice.notes.append(f"Could not read the folder {rel or '.'}.")
            continue
        for entry in entries:
            seen += 1
            if seen > MAX_ENTRIES:
                choice.notes.append(f"Only the first {MAX_ENTRIES:,} entries were searched.")
                return found
            name = f"{rel}{entry.name}"
            report_like = entry.name.lower().endswith(SUFFIXES)
            if entry.name.startswith(".") or entry.name == "__MACOSX":
                if report_like or entry.name == "__MACOSX":
                    why = "macOS archive metadata" if entry.name == "__MACOSX" else "hidden"
                    choice.ignored.append((name, why))
                continue
            if entry.is_symlink():
                target = os.path.realpath(entry.path)
                if os.path.commonpath([real_root, target]) != real_root:
                    choice.ignored.append((name, "a link to a file outside the submission"))
                    continue
                if report_like and os.path.isfile(target):
                    found.append((depth, name, Path(entry.path)))
                continue  # a linked folder is not followed
            if entry.is_dir(follow_symlinks=False):
                if depth + 1 >= MAX_DEPTH:
                    choice.notes.append(
                        f"Folders deeper than {MAX_DEPTH} levels were not searched."
                    )
                else:
                    stack.append((Path(entry.path), f"{name}/", depth + 1))
            elif report_like and entry.is_file(follow_symlinks=False):
                found.append((depth, name, Path(entry.path)))
    return found


def pick_report(root: Path) -> Choice:
    """The report to grade in ``root`` and what was passed over."""
    choice = Choice()
    found = sorted(_walk(root, choice), key=lambda f: (f[0], f[1]))
    if len(found) > MAX_CANDIDATES:
        for _, name, _ in found[MAX_CANDIDATES:]:
            choice.ignored.append((name, f"only the first {MAX_CANDIDATES} files were read"))
        found = found[:MAX_CANDIDATES]
    ranked = []
    for depth, name, path in found:
        try:
            fields, problem = _fields_named(path), ""
        except GraderError as exc:
            fields, problem = -1, exc.message
        md = name.lower().endswith(".md")
        ranked.append(((-fields, not md, depth, name), name, path, fields, problem))
    ranked.sort(key=lambda r: r[0])
    for n, (_, name, path, fields, problem) in enumerate(ranked):
        if n == 0:
            choice.report, choice.shown = path, name
        elif problem:
            choice.ignored.append((name, problem))
        else:
            best = ranked[0][3]
            choice.ignored.append(
                (name, f"names {fields} of the five fields (the graded file {best})")
            )
    choice.notes = list(dict.fromkeys(choice.notes))
    return choice
