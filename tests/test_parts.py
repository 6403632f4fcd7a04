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


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        # one file for the whole homework, each part titled on a line of its own
        ("PART A\nWorkload: a\n\nPART B\nWorkload: b\n", ["partA", "partB"]),
        ("**Part A**\nWorkload: a\n\nPart C - from memory\nWorkload: c\n", ["partA", "partC"]),
        # one title alone names no other part: the file is one part, read whole
        ("Part B\nWorkload: b\n", []),
        # sentences that open with a part's name are no titles
        ("Part A: the copies dominate.\n\nPart B: the launches do.\n", []),
        # nor is a part named where a wrapped sentence ends
        ("PART B\nWorkload: b\n\nmatmul is on top just like in\nPart A.\n", []),
    ],
)
def test_parts_titled_on_lines_of_their_own(text: str, parts: list[str]) -> None:
    assert list(split_parts(text)) == parts


def test_a_part_titled_on_its_own_line_keeps_only_its_lines():
    text = "PART A\nWorkload: a\n\nPART C\nWorkload: c\n"
    assert split_parts(text)["partC"].split("\n") == ["", "", "", "PART C", "Workload: c", ""]
