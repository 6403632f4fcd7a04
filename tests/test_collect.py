"""Which files a batch grades: reports below folders, in order, nothing hidden, no loops."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.batch.collect import collect
from grader.errors import GraderError


def _tree(root: Path) -> None:
    for name in ("b.md", "a.txt", "C.MD", "notes.pdf", ".hidden.md", "sub/d.md", ".git/e.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x")
    (root / "folder.md").mkdir()  # named like a report: kept, to become an error row


def test_reports_below_a_folder_sorted_without_hidden_ones(tmp_path):
    _tree(tmp_path)
    names = [p.relative_to(tmp_path).as_posix() for p in collect([tmp_path])]
    assert names == ["C.MD", "a.txt", "b.md", "folder.md", "sub/d.md"]


def test_a_file_named_twice_is_graded_once(tmp_path):
    _tree(tmp_path)
    found = collect([tmp_path, tmp_path / "b.md", tmp_path / "sub"])
    assert len(found) == len(set(found)) == 5


def test_a_link_loop_is_not_followed(tmp_path):
    _tree(tmp_path)
    (tmp_path / "sub" / "loop").symlink_to(tmp_path, target_is_directory=True)
    assert len(collect([tmp_path])) == 5


def test_a_missing_path_is_named(tmp_path):
    with pytest.raises(GraderError, match="no such file or folder") as err:
        collect([tmp_path / "nope"])
    assert "nope" in str(err.value)
