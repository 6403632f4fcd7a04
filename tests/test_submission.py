"""Reading a learner's file: what is read, how it is decoded, what its front matter may say.

Everything here is in the learner's hands (issue 12 items 1, 2, 12; issue 11's encodings).
"""

from __future__ import annotations

import codecs
import csv
import json
import os
import signal
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from grader.errors import GraderError
from grader.report.document import MAX_BYTES
from grader.submission import MAX_STUDENT, decode_submission, read_submission
from tests.cli_run import grade

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail, instead of hanging the suite, if the block takes longer than ``seconds``."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --- what may be read -------------------------------------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path):
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    with deadline(5), pytest.raises(GraderError, match=r"is a named pipe \(FIFO\), not a regular"):
        read_submission(fifo)


def test_a_fifo_in_a_batch_is_an_error_row(tmp_path: Path):
    folder = tmp_path / "class"
    folder.mkdir()
    os.mkfifo(folder / "pipe.md")
    (folder / "good.md").write_text("Workload: x\n")
    out = tmp_path / "out.csv"
    with deadline(20):
        result = grade("batch", str(folder), "-e", "partA", "--csv", str(out))
    assert result.exit_code == 1
    rows = {r["student"]: r for r in csv.DictReader(out.open())}
    assert "not a regular file" in rows["pipe"]["error"]
    assert rows["good"]["error"] == ""


def test_a_link_to_a_device_is_refused_unread(tmp_path: Path):
    link = tmp_path / "zero.md"
    link.symlink_to("/dev/zero")
    with deadline(5), pytest.raises(GraderError, match="is a device, not a regular file"):
        read_submission(link)


def test_a_socket_is_refused(tmp_path: Path):
    path = tmp_path / "s.md"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        with pytest.raises(GraderError, match="is a socket"):
            read_submission(path)
    finally:
        server.close()


def test_a_file_whose_size_is_not_told_is_read_only_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # Files in /proc say they are empty; a file may grow while it is read.  Either way the
    # reader stops one byte past the limit instead of trusting the size.
    path = tmp_path / "big.md"
    path.write_bytes(b"x" * (3 * MAX_BYTES))
    real_fstat = os.fstat

    def fstat_says_empty(fd: int) -> os.stat_result:
        info = list(real_fstat(fd))
        info[6] = 0  # st_size
        return os.stat_result(info)

    reads: list[int] = []
    real_read = os.read

    def counting_read(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        reads.append(len(data))
        return data

    monkeypatch.setattr(os, "fstat", fstat_says_empty)
    monkeypatch.setattr(os, "read", counting_read)
    with pytest.raises(GraderError, match="is more than 1,000,000 bytes"):
        read_submission(path)
    assert sum(reads) == MAX_BYTES + 1


# --- encodings and control characters ---------------------------------------------------


@pytest.mark.parametrize(
    ("codec", "name"),
    [("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32-le", "UTF-32")],
)
def test_utf16_and_utf32_with_a_byte_order_mark_are_decoded_with_a_warning(codec, name):
    bom = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}.get(
        codec, codecs.BOM_UTF32_LE
    )
    text = "Workload: café, 中文\r\nHardware: A100\r\n"
    sub = decode_submission(bom + text.encode(codec), "r.md")
    assert sub.text == "Workload: café, 中文\nHardware: A100\n"
    assert sub.warnings == (
        f"r.md: {name} text (it starts with a byte-order mark); read as {name}",
    )


def test_a_notepad_unicode_report_grades_as_its_utf8_twin(tmp_path: Path):
    source = (ROOT / "submissions" / "s-a01.md").read_text()
    (tmp_path / "utf16.md").write_bytes(source.replace("\n", "\r\n").encode("utf-16"))
    result = grade(str(tmp_path / "utf16.md"), "-e", "partA", "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    twin = json.loads(grade(str(ROOT / "submissions/s-a01.md"), "-e", "partA", "-f", "json").output)
    assert data["score"] == twin["score"] == 100
    assert any("UTF-16 text" in w for w in data["warnings"])


def test_a_utf8_byte_order_mark_is_dropped_with_a_warning():
    sub = decode_submission(codecs.BOM_UTF8 + b"Workload: x\n", "r.md")
    assert sub.text == "Workload: x\n"
    assert sub.warnings == ("r.md: starts with a UTF-8 byte-order mark; read as UTF-8 without it",)


def test_broken_utf16_is_replaced_with_a_warning():
    sub = decode_submission(
        codecs.BOM_UTF16_LE + "Workload: x\n".encode("utf-16-le") + b"\x00", "r.md"
    )
    assert sub.text.startswith("Workload: x\n")
    assert any("not valid UTF-16" in w for w in sub.warnings)


def test_utf16_without_a_byte_order_mark_is_still_binary():
    with pytest.raises(GraderError, match="is a binary file"):
        decode_submission("Workload: x\n".encode("utf-16-le"), "r.md")


def test_control_characters_are_removed_with_a_warning():
    data = b"Workload: x\nHardware: \x1b[2J\x1b]0;owned\x07A100\x7f\x00\n"
    sub = decode_submission(b"\n" * 8200 + data, "r.md")  # a NUL this late is not "binary"
    assert sub.text.endswith("Workload: x\nHardware: [2J]0;ownedA100\n")
    assert sub.warnings == (
        "r.md: 5 control character(s) removed (the first on line 8202); a report is plain text",
    )
    kept = decode_submission(b"a\tb\r\nc\rd\n", "r.md")
    assert kept.text == "a\tb\nc\nd\n" and kept.warnings == ()


def test_grade_prints_no_terminal_escape_from_a_report(tmp_path: Path):
    path = tmp_path / "r.md"
    path.write_bytes(
        b"Workload: \x1b[2J\x1b[31mred\nTop CUDA time: copies\x1b[0m are the problem\n"
    )
    result = grade(str(path), "-e", "partA")
    assert result.exit_code == 0
    assert "\x1b" not in result.output
    assert "control character(s) removed" in json.dumps(
        json.loads(grade(str(path), "-e", "partA", "-f", "json").output)
    )


# --- front matter -----------------------------------------------------------------------


def _bomb(levels: int = 9, width: int = 9) -> str:
    lines = ["a0: &a0 [" + ",".join(["x"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "---\n" + "\n".join(lines) + f"\nstudent: *a{levels - 1}\n---\nWorkload: x\n"


def test_an_alias_bomb_in_front_matter_is_ignored_unexpanded():
    text = _bomb()  # 9^9 strings if expanded: gigabytes
    assert len(text) < 2500
    with deadline(5):
        sub = decode_submission(text.encode(), "r.md")
    assert sub.front_matter == {}
    assert sub.warnings == ("r.md: front matter uses YAML anchors or aliases (& or *); ignored",)
    assert sub.text.count("\n") == text.count("\n")  # line numbers kept


def test_an_alias_bomb_in_a_batch_is_named_by_its_file(tmp_path: Path):
    (tmp_path / "bomb.md").write_text(_bomb())
    out = tmp_path / "out.csv"
    with deadline(20):
        result = grade("batch", str(tmp_path / "bomb.md"), "-e", "partA", "--csv", str(out))
    assert result.exit_code == 0, result.output
    assert [r["student"] for r in csv.DictReader(out.open())] == ["bomb"]


@pytest.mark.parametrize(
    ("front", "warning"),
    [
        ("student: &me Ada\nalias: *me", "uses YAML anchors or aliases"),
        ("student: Ada\nx: " + "[" * 2000 + "]" * 2000, "is not valid YAML"),
        ("student: Ada\nnotes: " + "x" * 5000, "is 5,020 characters, more than 4,096; ignored"),
        ("student: [Ada", "is not valid YAML"),
        ("student: !!python/object:os.system x", "is not valid YAML"),
        ("student: 01234", "'student' is a int, not a name (quote it"),
        ("student: 2024-01-01", "'student' is a date, not a name"),
        ("student: [Ada, Bob]", "'student' is a list, not a name"),
        ("student:", "'student' is nothing, not a name"),
        ('student: "   "', "'student' is empty"),
        ("student: " + "A" * 101, "'student' is 101 characters long; a name may have at most 100"),
        ('student: "Ada\\0\\x1b[2J"', "'student' holds line breaks or control characters"),
        ('student: "Ada\\nLovelace"', "'student' holds line breaks or control characters"),
    ],
)
def test_front_matter_gives_only_a_short_plain_student_name(front: str, warning: str):
    sub = decode_submission(f"---\n{front}\n---\nWorkload: x\n".encode(), "r.md")
    assert "student" not in sub.front_matter
    assert len(sub.warnings) == 1 and warning in sub.warnings[0], sub.warnings


def test_a_plain_student_name_is_kept_trimmed():
    name = "  Zoë Ngũgĩ-O'Brien 陈  "
    sub = decode_submission(f'---\nstudent: "{name}"\ncourse: perf\n---\nx\n'.encode(), "r.md")
    assert sub.front_matter == {"student": name.strip(), "course": "perf"}
    assert sub.warnings == ()
    long_enough = "A" * MAX_STUDENT
    assert decode_submission(
        f"---\nstudent: {long_enough}\n---\nx\n".encode(), "r.md"
    ).front_matter == {"student": long_enough}


def test_no_nul_or_escape_from_a_student_name_reaches_the_outputs(tmp_path: Path):
    (tmp_path / "eve.md").write_text('---\nstudent: "Eve\\0\\x1b[2J"\n---\nWorkload: x\n')
    out_csv, out_html = tmp_path / "out.csv", tmp_path / "out.html"
    result = grade(
        "batch",
        str(tmp_path / "eve.md"),
        "-e",
        "partA",
        "--csv",
        str(out_csv),
        "--html",
        str(out_html),
    )
    assert result.exit_code == 0, result.output
    for out in (out_csv, out_html):
        data = out.read_bytes()
        assert b"\x00" not in data and b"\x1b" not in data
    assert [r["student"] for r in csv.DictReader(out_csv.open())] == ["eve"]


# --- which part a file says it is -------------------------------------------------------


def test_a_batch_warns_per_file_graded_as_another_part_than_its_heading_says(tmp_path: Path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("s-a01.md", "s-b02.md", "s-c01.md"):
        (folder / name).write_text((ROOT / "submissions" / name).read_text())
    (folder / "both.md").write_text("## Part B\nWorkload: x\n\n## Part C\nWorkload: y\n")
    out = tmp_path / "out.json"
    result = grade("batch", str(folder), "-e", "partA", "--json", str(out))
    assert result.exit_code == 0, result.output
    warnings = {Path(r["file"]).name: r["warnings"] for r in json.loads(out.read_text())["reports"]}
    assert not any("its heading says" in w for w in warnings["s-a01.md"])  # no part heading
    assert f"{folder / 's-b02.md'}: its heading says Part B, but it was graded as partA" in (
        " ".join(warnings["s-b02.md"])
    )
    assert any("its heading says Part B and Part C" in w for w in warnings["both.md"])


def test_no_warning_when_the_part_graded_is_one_the_file_has(tmp_path: Path):
    path = tmp_path / "r.md"
    path.write_text("## Part A\nWorkload: x\n\n## Part B\nWorkload: y\n")
    for exercise in ("partA", "partB"):
        data = json.loads(grade(str(path), "-e", exercise, "-f", "json").output)
        assert not any("its heading says" in w for w in data["warnings"])
