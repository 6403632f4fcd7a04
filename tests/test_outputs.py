"""Writing outputs: a folder is refused, modes follow the umask, no temporary is left."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.atomic import OutputSet, atomic_open, write_text
from grader.errors import GraderError


def test_a_folder_as_output_is_one_message(tmp_path: Path):
    (tmp_path / "out").mkdir()
    with pytest.raises(GraderError, match="is a folder; give a file name") as err:
        write_text(tmp_path / "out", "x")
    assert str(tmp_path / "out") in str(err.value)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_a_new_output_gets_the_mode_an_ordinary_write_gives(tmp_path: Path):
    old = os.umask(0o022)
    try:
        write_text(tmp_path / "class.html", "<p>")
        (tmp_path / "plain.html").write_text("<p>")
    finally:
        os.umask(old)
    mode = (tmp_path / "class.html").stat().st_mode & 0o777
    assert mode == (tmp_path / "plain.html").stat().st_mode & 0o777 == 0o644


def test_a_replaced_output_keeps_its_mode(tmp_path: Path):
    out = tmp_path / "out.csv"
    out.write_text("old")
    out.chmod(0o640)
    write_text(out, "new")
    assert out.read_text() == "new" and out.stat().st_mode & 0o777 == 0o640


def test_temporaries_of_a_killed_run_are_removed_by_the_next(tmp_path: Path):
    out = tmp_path / "out.json"
    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from grader.atomic import atomic_open\n"
        "with atomic_open(Path(sys.argv[1])) as h:\n"
        "    h.write('x' * 100000); h.flush(); os.kill(os.getpid(), 9)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, str(out)], capture_output=True)
    assert proc.returncode == -9
    assert len([p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]) == 1
    (tmp_path / ".other.tmp").write_text("not ours")
    write_text(out, "done")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.tmp", "out.json"]


def test_an_output_set_is_renamed_together_or_not_at_all(tmp_path: Path):
    a, b = tmp_path / "a.csv", tmp_path / "sub" / "b.json"
    a.write_text("old a")
    with pytest.raises(RuntimeError), OutputSet() as outputs:
        outputs.write_text(a, "new a")
        outputs.write_text(b, "new b")
        assert a.read_text() == "old a" and not b.exists()  # nothing before the commit
        raise RuntimeError
    assert a.read_text() == "old a" and not b.exists()
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.csv", "sub"]
    with OutputSet() as outputs:
        outputs.write_text(a, "new a")
        with outputs.open(b, "wb") as handle:
            handle.write(b"new b")
    assert (a.read_text(), b.read_text()) == ("new a", "new b")


def test_atomic_open_still_replaces_on_success(tmp_path: Path):
    with atomic_open(tmp_path / "x.txt") as handle:
        handle.write("hello")
    assert (tmp_path / "x.txt").read_text() == "hello"


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_commit_waits_for_another_run_holding_the_folder(tmp_path: Path):
    import fcntl
    import threading

    out = tmp_path / "out.csv"
    out.write_text("theirs")
    held = os.open(tmp_path, os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX)
    outputs = OutputSet()
    outputs.write_text(out, "ours")
    worker = threading.Thread(target=outputs.commit)
    worker.start()
    worker.join(0.3)
    assert worker.is_alive() and out.read_text() == "theirs"
    os.close(held)
    worker.join(5)
    assert out.read_text() == "ours"
