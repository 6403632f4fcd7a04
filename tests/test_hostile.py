"""Hostile reports: every pass over a report is linear, and a report has bounded structure.

Issue 12 items 3 and 19.  The guards below are not speed measurements (bench/worst_case.py
prints those): each runs a pass on an input large enough that a quadratic pass would take
minutes, under a deadline that a linear one meets many times over, so a pass that turns
quadratic again fails here instead of hanging a batch.  Where a pass was rewritten, a
property test checks that it gives what the old one gave, so no verdict moves.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.errors import GraderError
from grader.grading import grade_submission
from grader.parts import split_parts
from grader.report import bounds, clauses, language
from grader.report.document import Line, parse_document
from grader.report.fields import Field
from grader.report.labels import field_specs
from grader.report.model import Report, TextLine, _join_wrapped
from grader.report.units import split_units
from grader.submission import decode_submission
from grader.tables.markdown import _ALIGN_ROW, parse_markdown
from tests.cli_run import grade


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: a pass is no longer linear")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --- hard-wrapped lines are joined in one pass ------------------------------------------

_WRAP_END = re.compile(r"[.!?:]\s*$")
_NEW_START = re.compile(r"^(?:[A-Z]|\(?[a-h1-9]\)|[-*•]|->|→)")


def _join_wrapped_before(lines: list[TextLine], doc: list[Line]) -> list[TextLine]:
    """The join as it was (quadratic): the reference the linear one must agree with."""
    block_of = {ln.number: ln.block for ln in doc}
    out: list[TextLine] = []
    for tl in lines:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.where == tl.where
            and block_of.get(prev.number) == block_of.get(tl.number)
            and not _WRAP_END.search(prev.text)
            and not _NEW_START.match(tl.text)
        ):
            out[-1] = TextLine(prev.number, f"{prev.text} {tl.text}", prev.where)
        else:
            out.append(tl)
    return out


WORDS = st.sampled_from(["x", "copies", "Then", "end.", "so:", "(a) y", "- z", "", " ", "a!  "])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(WORDS, st.integers(0, 2), st.sampled_from(["body", "top_cuda"]))))
def test_joining_wrapped_lines_gives_what_the_old_join_gave(rows):
    lines = [TextLine(i + 1, text, where) for i, (text, _, where) in enumerate(rows)]
    doc = [Line(i + 1, text, "paragraph", block=block) for i, (text, block, _) in enumerate(rows)]
    assert _join_wrapped(lines, doc) == _join_wrapped_before(lines, doc)


def test_a_paragraph_of_100000_lines_is_joined_in_one_pass():
    lines = [TextLine(i + 1, "x", "body") for i in range(100_000)]
    doc = [Line(i + 1, "x", "paragraph", block=1) for i in range(100_000)]
    with deadline(10):
        joined = _join_wrapped(lines, doc)
    assert len(joined) == 1 and len(joined[0].text) == 199_999


def test_a_field_value_of_100000_wrapped_lines_is_joined_in_one_pass():
    spec = field_specs()[0][0]
    value = tuple(Line(i + 2, "x", "paragraph", block=1) for i in range(100_000))
    field = Field(spec, "Workload", 1, value, True)
    with deadline(10):
        assert len(field.value) == 199_999


def test_a_unit_of_100000_lines_is_built_in_one_pass():
    words = "x" * 40
    lines = tuple(
        Line(i + 2, words, "item", level=1, block=1, first=i == 0) for i in range(100_000)
    )
    with deadline(10):
        units = split_units(lines, "", 1)
    assert len(units) == 1 and units[0].text == "\n".join([words] * 100_000)


def test_units_are_the_lines_they_were_built_from():
    lines = (
        Line(2, "H1 copies", "paragraph", block=1),
        Line(3, "and casts", "paragraph", block=1, first=False),
        Line(4, "(b) launches", "paragraph", block=2),
    )
    units = split_units(lines, "two of them", 1)
    assert [(u.text, u.line, u.marker) for u in units] == [
        ("two of them", 1, None),
        ("H1 copies\nand casts", 2, "1"),
        ("(b) launches", 4, "b"),
    ]


def test_a_file_of_100000_part_headings_is_split_in_one_pass():
    text = "## Part A\nWorkload: x\n" * 50_000
    with deadline(10):
        parts = split_parts(text)
    assert list(parts) == ["partA"]


# --- a mention's clause is found without rescanning the text before it -----------------


def _clause_start_before(text: str, pos: int) -> int:
    # a mark may look one character past its end (a sentence ends where a capital follows)
    start = 0
    for m in clauses._CLAUSE.finditer(text, 0, min(len(text), pos + 1)):
        if m.start() < pos:
            start = min(m.end(), pos)
    return start


def _clause_end_before(text: str, pos: int) -> int:
    m = clauses._CLAUSE.search(text, pos)
    return m.start() if m else len(text)


CLAUSE_PIECES = st.sampled_from(
    [" ", "a", "so", "also", "but", "and then", "which", ",", ", ", " - ", " -> ", "→", ";",
     "(", ")", "—", "x" * 70, "whereas", "sol", "\n", ". A", ". b", "e. T"]
)  # fmt: skip


@settings(max_examples=800, deadline=None)
@given(st.lists(CLAUSE_PIECES, max_size=40).map("".join), st.data())
def test_clause_bounds_are_what_a_scan_from_the_start_finds(text, data):
    pos = data.draw(st.integers(0, len(text)))
    reach = data.draw(st.integers(0, 120))
    clauses._clause_marks.cache_clear()
    clauses._mark_positions.cache_clear()
    assert clauses.clause_start(text, pos) == _clause_start_before(text, pos)
    assert clauses.clause_end(text, pos) == _clause_end_before(text, pos)
    assert clauses.clause_end(text, pos, reach) == min(_clause_end_before(text, pos), pos + reach)


def test_a_line_of_thousands_of_mentions_finds_each_clause_in_one_pass():
    text = "Top CUDA time: " + "the copies are not the problem (maybe) " * 2150  # 84 KB
    positions = [m.start() for m in re.finditer("copies", text)]
    with deadline(10):
        for _ in range(5):
            clauses._clause_marks.cache_clear()
            clauses._mark_positions.cache_clear()
            starts = [clauses.clause_start(text, p) for p in positions]
            ends = [clauses.clause_end(text, p) for p in positions]
    assert starts[1] == text.index("(maybe)") + len("(maybe)")
    assert ends[1] == text.index("(", starts[1])


def test_negation_is_read_near_a_mention_in_a_clause_without_marks():
    text = "compute-bound " * 40_000  # 560 KB, one clause
    with deadline(10):
        # a text is read for MAX_MENTIONS mentions of a concept ...
        found = list(language.unnegated(language.claim("compute-bound"), text))
        # ... and a mention anywhere in it, however far in, is read for its negation alone
        far = [m.start() for m in re.finditer("compute-bound", text)][::20]
        read = [language.negated(text, at, at + 13) for at in far]
    assert len(found) == language.MAX_MENTIONS
    assert len(read) == 2_000 and not any(read)
    negated = "not " * 10 + "compute-bound"
    assert language.negated(negated, negated.index("compute"), len(negated))


# --- an alignment row is matched without backtracking ----------------------------------

_ALIGN_ROW_BEFORE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=" \t|:-x", max_size=30))
def test_alignment_rows_are_those_the_old_expression_matched(line):
    assert bool(_ALIGN_ROW.match(line)) == bool(_ALIGN_ROW_BEFORE.match(line))


def test_an_alignment_row_followed_by_100000_spaces_is_refused_at_once():
    with deadline(5), pytest.raises(GraderError, match="table header"):
        parse_markdown("| op | cuda |\n|---" + " " * 100_000 + "x\n")


# --- a report has bounded structure -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x\n" * 100_000, "has 100,000 lines; a report may have at most 10,000"),
        ("copies " * 40_000, "has 40,000 words; a report may have at most 20,000"),
        ("[" * 100_000, "has 100,000 markdown markup characters (* _ ` [ \\); a report may"),
        (
            "|" + "a|" * 300 + "\n|" + "-|" * 300 + "\n" + ("|" + "x|" * 300 + "\n") * 200,
            "has more than 50,000 markdown elements (paragraphs, list items, table cells)",
        ),
    ],
    ids=["lines", "words", "markup", "elements"],
)
def test_a_report_with_more_structure_than_a_report_has_is_refused(
    tmp_path: Path, text: str, message: str
):
    path = tmp_path / "r.md"
    path.write_text(text)
    with deadline(10):
        result = grade(str(path), "-e", "partA")
    assert result.exit_code == 2
    assert f"error: {path}: {message}" in result.output


def test_the_bounds_are_far_above_any_real_report(root: Path):
    for path in sorted((root / "submissions").glob("*.md")):
        text = path.read_text()
        assert text.count("\n") * 100 < bounds.MAX_LINES
        assert len(text.split()) * 50 < bounds.MAX_WORDS
        assert len(parse_document(text)) * 100 < bounds.MAX_ELEMENTS


def test_the_element_bound_stops_the_parse_early():
    row = "|" + "x|" * 300 + "\n"
    text = "|" + "a|" * 300 + "\n|" + "-|" * 300 + "\n" + row * 200
    with pytest.raises(GraderError) as err:
        Report.parse(text, "r.md")
    assert str(err.value).startswith("r.md: has more than 50,000 markdown elements")


def test_a_sentence_of_thousands_of_declined_attention_kernels_reads_each_clause_once():
    # One clause, 6,000 negated mentions: each used to slice and search the whole clause.
    text = "Top CUDA time: copies.\n\nNext experiment: " + "not flash attention " * 6000
    with deadline(10):
        results = grade_submission(decode_submission(text.encode(), "r.md"), "partA")
    assert results[0].exercise == "partA"
