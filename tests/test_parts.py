"""A file's course parts: which headings open a part, and what each part holds."""

from __future__ import annotations

import pytest

from grader.parts import split_parts


def test_part_headings_split_a_file_and_keep_line_numbers():
    text = "intro\n## Part A\nWorkload: a\n  ### part b\nWorkload: b\n"
    parts = split_parts(text)
    assert list(parts) == ["partA", "partB"]
    assert parts["partB"].split("\n")[3:5] == ["  ### part b", "Workload: b"]
    assert parts["partA"].split("\n")[1:3] == ["## Part A", "Workload: a"]
    assert parts["partA"].split("\n")[3] == ""


@pytest.mark.parametrize(
    ("heading", "opens"),
    [
        ("## Part A", "partA"),
        ("# Part B: launch overhead", "partB"),
        ("### part c - from memory", "partC"),
        ("## **Part B**", "partB"),
        ("## Part A (answers)", "partA"),
        ("## Part B vs Part A", None),
        ("## Part B versus A", None),
        ("## Part B compared with Part A", None),
        ("## Part A and B", None),
        ("## Part A / Part B", None),
        ("## Contrast with Part A", None),
        ("Part A", None),  # not a heading
    ],
)
def test_which_headings_open_a_part(heading: str, opens: str | None) -> None:
    text = f"## Part B\nWorkload: b\n{heading}\nmore\n"
    parts = split_parts(text)
    if opens is None:
        assert list(parts) == ["partB"]
        assert parts["partB"].split("\n")[2:4] == [heading, "more"]
    else:
        assert opens in parts
        assert parts[opens].split("\n")[2:4] == [heading, "more"]


def test_a_sub_heading_naming_another_part_stays_in_its_part():
    text = "## Part B\nWorkload: b\n\n## Part B vs Part A\n- one\n- two\n"
    parts = split_parts(text)
    assert list(parts) == ["partB"]
    assert parts["partB"] == text.rstrip("\n") + "\n"


def test_a_part_written_under_two_headings_is_one_part():
    text = "## Part B\n\n## Part A\nWorkload: a\n## Part B\nWorkload: b\n"
    parts = split_parts(text)
    assert parts["partB"].split("\n") == ["## Part B", "", "", "", "## Part B", "Workload: b", ""]
    assert parts["partA"].split("\n")[2:4] == ["## Part A", "Workload: a"]
