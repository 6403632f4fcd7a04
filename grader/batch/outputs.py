"""The outputs a batch was asked for: checked before grading, written as one set after.

Before a report is graded, every output path is checked: a file option that names a folder,
a feedback folder that is a file, two options naming one file, and an output that is one of
the reports or lies among them (it would overwrite a report, or be graded by the next
batch) are refused with one message each.  After grading, the outputs are written to
temporaries and renamed together, so the files on disk always come from one run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from grader.atomic import OutputSet, check_output_file
from grader.batch.collect import SUFFIXES
from grader.batch.run import Row
from grader.batch.summary import Summary
from grader.errors import GraderError, Location

if TYPE_CHECKING:
    from grader.overrides.apply import Stale
    from grader.similar.pairs import Pair


@dataclass(frozen=True)
class Outputs:
    csv: Path | None = None
    json: Path | None = None
    feedback_dir: Path | None = None
    html: Path | None = None
    gradescope: Path | None = None
    review_csv: Path | None = None

    def files(self) -> dict[str, Path]:
        """The file outputs asked for, by option."""
        named = {
            "--csv": self.csv,
            "--json": self.json,
            "--html": self.html,
            "--gradescope": self.gradescope,
            "--review-csv": self.review_csv,
        }
        return {option: path for option, path in named.items() if path is not None}


@dataclass
class Findings:
    """What a batch found besides the grades: overrides it could not apply (None: no
    ``--overrides``) and pairs of reports that look copied (None: not checked)."""

    stale: list[Stale] | None = None
    similar: list[Pair] | None = None


def similar_line(pair: Pair) -> str:
    """One pair as a line: score, exercise, both students and files."""
    return (
        f"{pair.score:g}  {pair.exercise}  {pair.a.student} ({pair.a.file})  and  "
        f"{pair.b.student} ({pair.b.file})"
    )


def _folder(path: str) -> str:
    """``os.path.dirname``, as a string method: ten thousand reports cost little."""
    head, sep, _ = path.rpartition(os.sep)
    return head or sep or "."


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def check_outputs(
    outputs: Outputs, inputs: list[Path], files: list[Path], read: Sequence[Path] = ()
) -> None:
    """Refuse, before anything is graded, an output that cannot or must not be written:
    among them one that is a file the batch reads (``read``: its overrides)."""
    folders = [os.path.realpath(p) for p in inputs if p.is_dir()]
    names = [str(f) for f in files]
    real_dirs = {d: os.path.realpath(d) for d in {_folder(n) for n in names}}
    seen: dict[tuple[str, str], str] = {
        (os.path.realpath(p.parent), p.name): "--overrides" for p in read
    }
    for option, path in outputs.files().items():
        if path.is_dir():
            raise GraderError(f"is a folder; {option} needs a file name", Location(str(path)))
        check_output_file(path)
        where = (os.path.realpath(path.parent), path.name)
        if where in seen:
            also = seen[where]
            lost = "; it would be overwritten" if also == "--overrides" else ""
            raise GraderError(f"{also} and {option} name the same file{lost}", Location(str(path)))
        seen[where] = option
        if where in _reports_named(path.name, names, real_dirs):
            raise GraderError(
                f"is one of the reports being graded; {option} would overwrite it",
                Location(str(path)),
            )
        real = os.path.join(*where)
        inside = next((f for f in folders if _inside(real, f)), None)
        if inside and path.suffix.lower() in SUFFIXES:
            raise GraderError(
                f"lies in {inside}, among the reports; the next batch would grade it "
                f"(write {option} outside the reports' folders)",
                Location(str(path)),
            )
    if outputs.feedback_dir is not None:
        _check_feedback_dir(outputs.feedback_dir, folders, set(real_dirs.values()))


def _reports_named(name: str, files: list[str], real_dirs: dict[str, str]) -> set[tuple[str, str]]:
    """(real folder, name) of the reports called ``name``."""
    return {
        (real_dirs[_folder(f)], name)
        for f in files
        if f.endswith(name) and f.rpartition(os.sep)[2] == name
    }


def _check_feedback_dir(folder: Path, inputs: list[str], report_dirs: set[str]) -> None:
    if folder.exists() and not folder.is_dir():
        raise GraderError("is a file; --feedback-dir needs a folder", Location(str(folder)))
    check_output_file(folder / "x")
    real = os.path.realpath(folder)
    inside = next((f for f in inputs if _inside(real, f)), None)
    if inside or real in report_dirs:
        raise GraderError(
            "lies among the reports being graded: its files could overwrite them, and the "
            "next batch would grade them; give --feedback-dir a folder of its own",
            Location(str(folder)),
        )


def write_outputs(
    outputs: Outputs, rows: list[Row], summary: Summary, findings: Findings | None = None
) -> None:
    """Every output asked for, renamed into place together."""
    from grader.batch.exports import write_csv, write_feedback, write_json

    findings = findings or Findings()
    with OutputSet() as out:
        if outputs.csv:
            write_csv(out, outputs.csv, rows, summary)
        if outputs.json:
            write_json(out, outputs.json, rows, summary, findings)
        if outputs.feedback_dir:
            write_feedback(out, outputs.feedback_dir, rows)
        if outputs.review_csv:
            from grader.overrides.queue import write_queue

            write_queue(out, outputs.review_csv, rows)
        if outputs.html:
            from grader.batch.html import render_html

            out.write_text(outputs.html, render_html(rows, summary, findings))
        if outputs.gradescope:
            from grader.gradescope import batch_results

            data = batch_results(rows[0])
            out.write_text(outputs.gradescope, json.dumps(data, indent=2) + "\n")
