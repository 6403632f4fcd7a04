"""A batch's workers: a killed worker costs one file, a slow file is cut off, none outlives
the parent."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.batch import run
from grader.batch.run import grade_all

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(),
    reason="the hooks below reach the workers by fork",
)


def _class(folder: Path, names: list[str]) -> list[Path]:
    folder.mkdir()
    for name in names:
        shutil.copy(ROOT / "submissions" / "s-a01.md", folder / name)
    return sorted(folder.iterdir())


@pytest.fixture
def hooked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Workers (forked after this) kill themselves on 'boom' files, on 'once' files the
    first time only, and sleep on 'slow' files."""
    real = run.grade_path
    marks = tmp_path / "marks"
    marks.mkdir()

    def grade_path(path: Path, exercise: str | None) -> run.Row:
        if path.name.startswith("boom"):
            os.kill(os.getpid(), signal.SIGKILL)
        if path.name.startswith("once") and not (marks / path.name).exists():
            (marks / path.name).touch()
            os.kill(os.getpid(), signal.SIGKILL)
        if path.name.startswith("slow"):
            time.sleep(60)
        return real(path, exercise)

    monkeypatch.setattr(run, "grade_path", grade_path)
    return tmp_path


def test_a_killed_worker_costs_only_its_file(hooked: Path):
    names = [f"r{i:02d}.md" for i in range(30)] + ["boom.md", "once.md"]
    paths = _class(hooked / "class", names)
    rows = list(grade_all(paths, "partA", workers=2))
    assert [r.file for r in rows] == [str(p) for p in paths]
    errors = {Path(r.file).name: r.error for r in rows if r.error}
    assert list(errors) == ["boom.md"]
    assert "killed by signal 9" in errors["boom.md"] and "twice" in errors["boom.md"]
    assert all(r.results[0].score == 100 for r in rows if not r.error)


def test_a_report_over_the_time_limit_becomes_an_error_row(hooked: Path):
    paths = _class(hooked / "class", ["a.md", "slow.md", "z.md"])
    start = time.monotonic()
    rows = list(grade_all(paths, "partA", workers=2, time_limit=0.5))
    assert time.monotonic() - start < 10
    assert [r.error for r in rows] == [
        "",
        "took too long to grade (more than 0.5 s); skipped",
        "",
    ]


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "\nState:\tZ" in state


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_workers_end_with_the_parent(tmp_path: Path):
    pids = tmp_path / "pids"
    pids.mkdir()
    script = f"""
import os, time
from pathlib import Path
from grader.batch import run
def grade_path(path, exercise):
    (Path({str(pids)!r}) / str(os.getpid())).touch()
    time.sleep(120)
run.grade_path = grade_path
list(run.grade_all([Path(f"{{i}}.md") for i in range(30)], "partA", workers=2))
"""
    parent = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 30
        while len(list(pids.iterdir())) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = [int(p.name) for p in pids.iterdir()]
        assert len(workers) == 2
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 5
        while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(_gone(pid) for pid in workers)
    finally:
        parent.kill()
        for pid in [int(p.name) for p in pids.iterdir()]:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_worker_that_dies_before_its_first_file_blames_no_file(monkeypatch, tmp_path: Path):
    from grader.batch import pool

    real = pool._work
    deaths = tmp_path / "deaths"
    deaths.mkdir()

    def work(*args):
        if len(list(deaths.iterdir())) < 2:  # the first two workers die on arrival
            (deaths / str(os.getpid())).touch()
            os._exit(1)
        real(*args)

    monkeypatch.setattr(pool, "_work", work)
    paths = _class(tmp_path / "class", [f"r{i}.md" for i in range(10)])
    rows = list(grade_all(paths, "partA", workers=1))
    assert len(list(deaths.iterdir())) == 2 and [r.error for r in rows] == [""] * 10


def test_workers_that_always_die_at_once_end_the_batch_with_a_message(monkeypatch, tmp_path):
    from grader.batch import pool
    from grader.errors import GraderError

    monkeypatch.setattr(pool, "_work", lambda *args: os._exit(1))
    paths = _class(tmp_path / "class", ["a.md"])
    with pytest.raises(GraderError, match="keep ending before they grade anything"):
        list(grade_all(paths, "partA", workers=1))
