"""Which files a batch grades: reports below folders, in order, nothing hidden, no loops."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from grader.batch.collect import collect
from grader.errors import GraderError
from tests.cli_run import grade


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


def test_a_missing_path_among_others_is_kept_to_become_an_error_row(tmp_path):
    _tree(tmp_path)
    found = collect([tmp_path / "sub", tmp_path / "typo.md", tmp_path / "nofolder"])
    names = [p.relative_to(tmp_path).as_posix() for p in found]
    assert names == ["nofolder", "sub/d.md", "typo.md"]


def test_an_unreadable_folder_is_kept_to_become_an_error_row(tmp_path, monkeypatch):
    # os.walk drops a folder it cannot list; the kernel refuses root nothing, so the refusal
    # is made where os.walk meets it.
    _tree(tmp_path)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "e.md").write_text("x")
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    names = [p.relative_to(tmp_path).as_posix() for p in collect([tmp_path])]
    assert "locked" in names and "locked/e.md" not in names


def test_a_batch_names_an_unreadable_folder_and_a_missing_path_and_exits_1(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    (folder / "locked").mkdir(parents=True)
    (folder / "locked" / "lost.md").write_text("Workload: x\n")
    (folder / "good.md").write_text("Workload: x\n")
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    out = tmp_path / "out.csv"
    result = grade("batch", str(folder), str(tmp_path / "typo"), "-e", "partA", "--csv", str(out))
    assert result.exit_code == 1
    rows = {r["file"]: r for r in csv.DictReader(out.open())}
    assert rows[str(folder / "good.md")]["error"] == ""
    assert rows[str(folder / "locked")]["error"] == (
        "is a folder that cannot be read (permission denied); the reports in it were not graded"
    )
    assert rows[str(tmp_path / "typo")]["error"] == "no such file"
    assert "2 could not be graded" in result.output


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any folder")
def test_a_folder_without_read_permission_is_an_error_row(tmp_path):  # pragma: no cover
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "e.md").write_text("x")
    (tmp_path / "locked").chmod(0)
    try:
        assert [p.name for p in collect([tmp_path])] == ["locked"]
    finally:
        (tmp_path / "locked").chmod(0o755)
