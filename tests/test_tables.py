from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.errors import GraderError
from grader.exercises import resolve_exercise
from grader.tables import parse_table
from grader.units import format_time, parse_memory_bytes, parse_time_us

DATA = Path(__file__).parent / "data"


def _same(a, b) -> bool:
    return len(a.rows) == len(b.rows) and all(
        x.same_numbers(y) for x, y in zip(a.rows, b.rows, strict=False)
    )


def test_key_averages_of_part_a_parses_to_the_course_rows():
    course = resolve_exercise("partA").table
    text = (DATA / "partA_key_averages.txt").read_text()
    table = parse_table(text, "ka.txt")
    assert table.source_format == "key_averages"
    assert _same(course, table)


def test_newer_memory_units_and_other_device_names_parse_the_same():
    course = resolve_exercise("partA").table
    text = (DATA / "partA_key_averages.txt").read_text()
    newer = text.replace(" Gb", " GB").replace("CUDA", "XPU")
    assert _same(course, parse_table(newer, "xpu.txt"))


def test_markdown_pipe_table_parses_to_the_course_rows():
    course = resolve_exercise("partA").table
    table = parse_table((DATA / "partA_markdown.md").read_text(), "a.md")
    assert table.source_format == "markdown"
    assert _same(course, table)


def test_cpu_only_key_averages_has_zero_cuda_and_a_note():
    text = (DATA / "partA_key_averages.txt").read_text()
    lines = text.splitlines()
    # drop the six CUDA columns (Self CUDA .. CUDA time avg and the two CUDA Mem columns)
    import re

    cut = []
    for ln in lines:
        cells = re.split(r"(?<=\S)(?=  +\S)", ln)
        keep = [c for i, c in enumerate(cells) if i not in (6, 7, 8, 9, 12, 13)]
        cut.append("".join(keep))
    table = parse_table("\n".join(cut), "cpu.txt")
    assert all(r.cuda_us == 0 for r in table.rows)
    assert any("CPU-only" in n for n in table.notes)
    assert table.rows[0].cpu_us == pytest.approx(4100)


def test_truncated_names_keep_their_dots_and_footer_ends_the_table():
    name = "aten::some_extremely_long_operator_name_that_pytorch_cuts..."
    text = (
        (DATA / "partA_key_averages.txt")
        .read_text()
        .replace("tokenizer.encode".rjust(55), name.rjust(55))
    )
    table = parse_table(text, "t.txt")
    assert table.rows[-1].name == name
    assert len(table.rows) == 6


@pytest.mark.parametrize(
    ("text", "us"),
    [("38.4 ms", 38400), ("512.000us", 512), ("0 ms", 0), ("1.5 s", 1.5e6), ("21 µs", 21)],
)
def test_times(text, us):
    assert parse_time_us(text) == pytest.approx(us)


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("2.8 GiB", int(2.8 * 1024**3)),
        ("12 MiB", 12 * 1024**2),
        ("0 B", 0),
        ("1 KB", 1000),
        ("3 GB", 3 * 10**9),
    ],
)
def test_memory(text, n):
    assert parse_memory_bytes(text) == n


def test_binary_si_for_pytorch_units():
    assert parse_memory_bytes("2.80 Gb", binary_si=True) == int(round(2.8 * 1024**3))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12 parsecs", "unknown time unit 'parsecs'"),
        ("-3 ms", "cannot be negative"),
        ("fast", "expected a time"),
    ],
)
def test_bad_times_say_what_was_expected(text, message):
    with pytest.raises(GraderError, match=message):
        parse_time_us(text)


@given(st.floats(min_value=0, max_value=1e7, allow_nan=False))
def test_formatted_times_parse_back_close(us):
    assert parse_time_us(format_time(us)) == pytest.approx(us, rel=0.06, abs=50)
