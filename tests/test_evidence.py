"""Honest evidence: a quoted line is the report's own text, as it stands at that line.

Every criterion whose evidence names a line quotes text that the report holds there (the
plain text of that line and, for a sentence wrapped over several lines, the lines after
it): never a made-up sentence such as "all five fields have content"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.grading import grade_file
from grader.report.document import parse_document
from grader.submission import read_submission
from tests.conftest import ROOT, SHARED

REPORTS = sorted((ROOT / "submissions").glob("*.md")) + sorted(
    (SHARED / "examples" / "submissions").glob("*.md")
)
_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _text_from(path: Path, line: int) -> str:
    """The report's plain text from ``line`` on, lines joined by spaces."""
    lines = parse_document(read_submission(path).text)
    return _norm(" ".join(ln.text for ln in lines if ln.number >= line))


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_quoted_evidence_stands_in_the_report(path: Path) -> None:
    letter = re.search(r"([abc])-?\d+\.md$", path.name)
    assert letter, path.name
    exercise = f"part{letter.group(1).upper()}"
    for result in grade_file(path, exercise):
        for c in result.criteria:
            if c.evidence.line is None:
                continue
            quoted = _norm(c.evidence.text)
            assert quoted, (c.id, "empty evidence")
            assert quoted in _text_from(path, c.evidence.line), (c.id, c.evidence)
