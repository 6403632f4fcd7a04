from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.errors import GraderError
from grader.exercises import resolve_exercise
from grader.tables import parse_table
from grader.units import (
    format_time,
    parse_count,
    parse_memory_bytes,
    parse_memory_cell,
    parse_time_us,
)

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


def test_key_averages_self_columns_footers_banner_and_stack_lines():
    """As ``table(header=..., top_level_events_only=True)`` prints it with stacks."""
    table = parse_table((DATA / "key_averages_banner_stack.txt").read_text(), "ka.txt")
    assert table.source_format == "key_averages"
    assert [r.name for r in table.rows] == [
        "aten::conv2d",
        "aten::cudnn_convolution",
        "sm80_xmma_fprop",
    ]
    conv, cudnn, kernel = table.rows
    assert (conv.cuda_us, conv.self_cuda_us, conv.self_cpu_us) == (8000, 0, 100)
    assert cudnn.self_cpu_us == 0  # a negative self time (overlapping children) is none
    assert (kernel.cpu_us, kernel.self_cuda_us) == (0, 8000)
    assert all(r.memory_bytes is None for r in table.rows)  # no memory column: unknown
    assert (table.device_total_us, table.cpu_total_us) == (10_000, 10_000)


def test_a_blank_cell_is_read_by_the_dashed_columns():
    text = (DATA / "partA_key_averages.txt").read_text()
    lines = text.splitlines()
    # blank the "Self CPU Mem" cell of copy_: splitting on spaces would shift every cell
    row = next(i for i, ln in enumerate(lines) if "aten::copy_" in ln)
    spans = [m.span() for m in re.finditer(r"-+", lines[0])]
    a, b = spans[11]
    lines[row] = lines[row][:a] + " " * (b - a) + lines[row][b:]
    table = parse_table("\n".join(lines), "blank.txt")
    copy = next(r for r in table.rows if r.name == "aten::copy_")
    assert copy.calls == 54 and copy.memory_bytes == int(round(2.8 * 1024**3))


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("²", "expected a whole number of calls, got '²'"),
        ("9" * 30, "a call count must be below"),
    ],
)
def test_calls_are_ascii_whole_numbers_of_sane_size(cell, message):
    with pytest.raises(GraderError, match=message):
        parse_count(cell)


@pytest.mark.parametrize("text", ["1e999 ms", "1e300 s", "inf ms"])
def test_times_are_finite(text):
    with pytest.raises(GraderError):
        parse_time_us(text)


def test_memory_cells_may_say_unknown():
    assert parse_memory_cell("unknown") is None
    assert parse_memory_cell("n/a") is None
    assert parse_memory_cell("12 MiB") == 12 * 1024**2
    with pytest.raises(GraderError, match="below 1 EiB"):
        parse_memory_cell("1e300 GiB")
