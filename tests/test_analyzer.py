from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.analyzer import CLASSES, analyze
from grader.analyzer.kinds import op_kind
from grader.exercises import resolve_exercise
from grader.tables import Row, Table, parse_table

TABLES = sorted((Path(__file__).parent / "tables").glob("*/*.tsv"))


def test_every_class_has_tables():
    assert {p.parent.name for p in TABLES} == set(CLASSES)
    assert len(TABLES) >= 12


@pytest.mark.parametrize("path", TABLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_table_is_classified_as_its_folder_says(path: Path):
    result = analyze(parse_table(path.read_text(), str(path)))
    assert result.bottleneck == path.parent.name, result.evidence
    assert result.runner_up != result.bottleneck
    assert result.evidence


@pytest.mark.parametrize(
    ("exercise", "expected"),
    [("partA", "movement-bound"), ("partB", "overhead-bound"), ("partC", "movement-bound")],
)
def test_course_exercises(exercise, expected):
    assert analyze(resolve_exercise(exercise).table).bottleneck == expected


def test_part_a_evidence_is_checkable_against_the_table():
    a = analyze(resolve_exercise("partA").table)
    assert a.evidence[0] == "copy_ + to: 34.7 ms of 106.2 ms CUDA (33%), 2.8 GiB in 54 calls each"
    assert a.top_cuda == "aten::matmul"
    assert a.top_cpu == "tokenizer.encode"
    assert any("counted twice" in c for c in a.caveats)
    assert any("aten::slice: 436 calls" in c and "no vote" in c for c in a.caveats)


def test_part_b_evidence_names_loop_and_launches():
    a = analyze(resolve_exercise("partB").table)
    assert a.evidence[0] == (
        "Python decode loop 38.0 ms CPU against 15.4 ms of CUDA; 728 launches averaging 21 us"
    )
    assert a.runner_up == "compute-bound"


def test_sync_caveat_for_copy_waiting_on_device():
    table = parse_table(
        (Path(__file__).parent / "tables/movement-bound/logits_pulled_to_host.tsv").read_text()
    )
    assert any("aten::item" in c and "sync" in c for c in analyze(table).caveats)


def test_nested_copies_are_counted_once():
    table = parse_table(
        (Path(__file__).parent / "tables/compute-bound/nested_to_copy.tsv").read_text()
    )
    a = analyze(table)
    assert a.shares["movement_as_listed"] > 0.2  # summed, it would look movement-bound
    assert a.shares["movement"] < 0.15


UTILITY = [
    "aten::slice",
    "aten::view",
    "aten::arange",
    "aten::index",
    "aten::empty",
    "aten::transpose",
    "aten::reshape",
]


@settings(max_examples=60, deadline=None)
@given(
    exercise=st.sampled_from(["partA", "partB", "partC"]),
    extra=st.lists(
        st.tuples(
            st.sampled_from(UTILITY), st.integers(1, 50_000), st.floats(0, 2.0), st.floats(0, 40.0)
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_cheap_utility_ops_get_no_vote(exercise, extra):
    """Thousands of utility calls of negligible device time never change the class."""
    base = resolve_exercise(exercise).table
    before = analyze(base).bottleneck
    device = base.cuda_total_us
    rows = list(base.rows)
    for name, calls, cuda_pct, cpu_ms in extra:
        rows.append(Row(name, device * cuda_pct / 100 / len(extra), cpu_ms * 1e3, calls, 0))
    assert analyze(Table(tuple(rows), "course")).bottleneck == before


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("aten::copy_", "movement"),
        ("Memcpy DtoH (Device -> Pageable)", "movement"),
        ("aten::_to_copy", "movement"),
        ("aten::matmul", "math"),
        ("aten::addmm", "math"),
        ("aten::_scaled_dot_product_flash_attention", "math"),
        ("aten::conv2d", "math"),
        ("fused_moe_kernel", "math"),
        ("aten::add", "elementwise"),
        ("aten::layer_norm", "elementwise"),
        ("aten::slice", "utility"),
        ("aten::arange", "utility"),
        ("aten::index", "utility"),
        ("tokenizer.encode", "host"),
        ("tokenizer.decode", "host"),
        ("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "host"),
        ("Python decode loop", "orchestration"),
        ("cudaLaunchKernel", "orchestration"),
        ("ProfilerStep#6", "wrapper"),
        ("my_custom_op", "other"),
    ],
)
def test_op_kinds(name, kind):
    assert op_kind(name) == kind


def test_cpu_only_table_says_so():
    table = Table(
        (Row("aten::matmul", 0, 5000, 3, 0), Row("tokenizer.encode", 0, 9000, 1, 0)), "course"
    )
    a = analyze(table)
    assert any("CPU-only" in c for c in a.caveats)
    assert a.evidence == ("no op in the table takes device time: the host does all the work",)
