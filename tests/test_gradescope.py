"""Gradescope: which file of a submission is graded, links out of it, deep trees, a time
limit, a results.json in every case, and a --wheels folder that really is one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from grader.batch import run as batch_run
from grader.gradescope import results_json, run
from tests.cli_run import grade

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "submissions"


def _grade(submission: Path, tmp_path: Path, **kwargs) -> dict:
    out = tmp_path / "results" / "results.json"
    data = run(submission, "partA", out, **kwargs)
    assert json.loads(out.read_text()) == data
    return data


def test_the_report_is_the_file_with_the_fields_not_the_first_name(tmp_path: Path):
    sub = tmp_path / "submission"
    (sub / "__MACOSX").mkdir(parents=True)
    (sub / ".git").mkdir()
    (sub / "README.md").write_text("# My submission\n\nSee report.md for my answers.\n")
    shutil.copy(SUBMISSIONS / "s-a01.md", sub / "report.md")
    (sub / "__MACOSX" / "._report.md").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X")
    (sub / ".git" / "notes.md").write_text("Workload: x\n")
    (sub / ".draft.md").write_text("Workload: x\nHardware: y\n")
    data = _grade(sub, tmp_path)
    assert data["score"] == 100
    out = data["output"]
    assert out.startswith("Graded report.md.\n")
    assert "Ignored README.md: names 0 of the five fields (the graded file 5)." in out
    assert "Ignored __MACOSX: macOS archive metadata." in out
    assert "Ignored .draft.md: hidden." in out


def test_a_link_out_of_the_submission_is_never_followed(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text((SUBMISSIONS / "s-a01.md").read_text() + "\nSECRET-TOKEN-42\n")
    sub = tmp_path / "submission"
    sub.mkdir()
    (sub / "report.md").symlink_to(secret)
    (sub / "passwd.md").symlink_to("/etc/passwd")
    (sub / "inside.md").symlink_to(sub / "real.txt")
    (sub / "real.txt").write_text("Workload: x\n")
    data = _grade(sub, tmp_path)
    text = json.dumps(data)
    assert "SECRET" not in text and "root:" not in text
    assert "Ignored report.md: a link to a file outside the submission." in data["output"]
    assert "Ignored passwd.md: a link to a file outside the submission." in data["output"]
    assert data["output"].startswith("Graded inside.md.")  # a link inside is a file like any


def _nest(folder: Path, depth: int) -> None:
    """``folder/d/d/.../d/report.md``, ``depth`` folders deep, made (and later removed)
    one level at a time: pathlib and shutil recurse and would fail first."""
    fds = [os.open(folder, os.O_RDONLY)]
    for _ in range(depth):
        os.mkdir("d", dir_fd=fds[-1])
        fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
    with open(os.open("report.md", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fds[-1]), "w") as f:
        f.write("Workload: x\n")
    for fd in fds:
        os.close(fd)


def _unnest(folder: Path) -> None:
    fds = [os.open(folder, os.O_RDONLY)]
    while "d" in os.listdir(fds[-1]):
        fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
    os.unlink("report.md", dir_fd=fds[-1])
    while len(fds) > 1:
        os.close(fds.pop())
        os.rmdir("d", dir_fd=fds[-1])
    os.close(fds[0])


def test_a_submission_nested_1200_deep_is_no_internal_error(tmp_path: Path):
    sub = tmp_path / "submission"
    sub.mkdir()
    _nest(sub, 1200)
    try:
        shutil.copy(SUBMISSIONS / "s-a05.md", sub / "mine.md")
        data = _grade(sub, tmp_path)
    finally:
        _unnest(sub)
    assert "internal error" not in data["output"] and data["score"] == 60
    assert "Folders deeper than 32 levels were not searched." in data["output"]


def test_a_report_over_the_time_limit_gets_results_saying_so(tmp_path, monkeypatch):
    def slow(path, exercise):
        time.sleep(60)

    monkeypatch.setattr(batch_run, "grade_path", slow)  # the forked worker inherits it
    sub = tmp_path / "submission"
    sub.mkdir()
    shutil.copy(SUBMISSIONS / "s-a01.md", sub / "report.md")
    start = time.monotonic()
    data = _grade(sub, tmp_path, time_limit=0.5)
    assert time.monotonic() - start < 10
    assert data["score"] == 0 and "took too long to grade" in data["output"]


def test_a_bonus_criterion_says_bonus_once():
    from grader.grading import grade_file

    data = results_json(grade_file(SUBMISSIONS / "s-a01.md", "partA")[0].to_dict())
    names = [t["name"] for t in data["tests"] if "bonus" in t["name"].lower()]
    assert names == ["stretch-named-ranges: Named NVTX / record_function ranges (bonus)"]


def _unpack(tmp_path: Path) -> Path:
    zip_path = tmp_path / "autograder.zip"
    result = grade("gradescope-autograder", "-e", "partA", "-o", str(zip_path))
    assert result.exit_code == 0, result.output
    root = tmp_path / "autograder"
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(root / "source")
    (root / "submission").mkdir()
    return root


def test_run_autograder_leaves_results_when_the_grader_cannot_start(tmp_path: Path):
    root = _unpack(tmp_path)
    shutil.copy(SUBMISSIONS / "s-a01.md", root / "submission" / "report.md")
    broken = tmp_path / "python"
    broken.write_text("#!/bin/sh\necho 'No module named grader' >&2\nexit 1\n")
    broken.chmod(0o755)
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": str(broken)}
    proc = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0
    data = json.loads((root / "results" / "results.json").read_text())
    assert data["score"] == 0 and data["tests"] == []
    assert "could not start" in data["output"]


def test_wheels_must_be_a_folder_holding_every_dependency(tmp_path: Path):
    out = str(tmp_path / "a.zip")

    def build(wheels: Path):
        return grade("gradescope-autograder", "-e", "partA", "-o", out, "--wheels", str(wheels))

    result = build(tmp_path / "nonexistent")
    assert result.exit_code == 2 and "no such folder; --wheels needs a folder" in result.output
    empty = tmp_path / "wheels"
    empty.mkdir()
    result = build(empty)
    assert result.exit_code == 2 and "holds no .whl file" in result.output
    (empty / "PyYAML-6.0.1-cp311-cp311-manylinux_2_17_x86_64.whl").write_bytes(b"")
    result = build(empty)
    assert (
        result.exit_code == 2 and "holds no wheel for jsonschema, markdown-it-py" in result.output
    )
    assert not Path(out).exists()
    from grader.autograder import _requires

    for requirement in _requires():  # one wheel for each dependency, PyYAML's already there
        name = requirement.split(">")[0].split("=")[0].replace("-", "_")
        if name != "pyyaml":
            (empty / f"{name}-1.0-py3-none-any.whl").write_bytes(b"")
    result = build(empty)
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(out) as z:
        assert sum(n.startswith("wheels/") for n in z.namelist()) == len(_requires())


@pytest.mark.parametrize("name", ["notes.txt", "report.md"])
def test_a_lone_file_is_graded_whatever_its_name(tmp_path: Path, name: str):
    sub = tmp_path / "submission"
    sub.mkdir()
    shutil.copy(SUBMISSIONS / "s-a05.md", sub / name)
    data = _grade(sub, tmp_path)
    assert data["score"] == 60 and data["output"].startswith(f"Graded {name}.\npartA: 60/100")
    assert sys.platform != "win32"
