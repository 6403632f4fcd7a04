from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.analyzer import CLASSES, analyze
from grader.analyzer.kinds import op_kind
from grader.exercises import resolve_exercise
from grader.tables import Row, Table, parse_table

HERE = Path(__file__).parent
TABLES = sorted(p for p in (HERE / "tables").glob("*/*") if p.suffix in (".tsv", ".txt", ".md"))


def _table(name: str) -> Table:
    path = HERE / "tables" / name
    return parse_table(path.read_text(), str(path))


def test_every_class_has_tables_in_every_format():
    assert {p.parent.name for p in TABLES} == set(CLASSES)
    assert len(TABLES) >= 40
    for cls in CLASSES:
        assert len([p for p in TABLES if p.parent.name == cls]) >= 5, cls
    assert {parse_table(p.read_text()).source_format for p in TABLES} == {
        "course",
        "key_averages",
        "markdown",
    }


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
        ("nccl:all_reduce", "communication"),
        ("c10d::allreduce_", "communication"),
        ("c10d::_allgather_base_", "communication"),
        ("_c10d_functional::reduce_scatter_tensor", "communication"),
        (
            "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
            "communication",
        ),
        ("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", "communication"),
        ("void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(...)", "communication"),
        ("aten::gather", "other"),  # indexing, not a collective
        ("aten::broadcast_tensors", "other"),
        ("cudaLaunchKernel", "orchestration"),
        ("hipExtModuleLaunchKernel", "orchestration"),
        ("cudaDeviceSynchronize", "runtime"),
        ("cudaStreamSynchronize", "runtime"),
        ("cudaMemcpyAsync", "movement"),
        ("ProfilerStep*", "wrapper"),
        ("triton_poi_fused_add_mul_0", "elementwise"),
        ("triton_poi_fused__to_copy_3", "movement"),
        ("triton_poi_fused_cat_fmha_helper_7", "elementwise"),  # not attention: a helper
        ("triton_tem_fused_mm_4", "math"),
        ("void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<...>>(...)", "math"),
        ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64", "math"),
        ("void at::native::vectorized_elementwise_kernel<4, ...>", "elementwise"),
        ("_C::silu_and_mul", "elementwise"),
        ("Activity Buffer Request", "runtime"),  # the profiler's own bookkeeping
        ("Optimizer.zero_grad#AdamW.zero_grad", "orchestration"),  # the training loop
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


# --- Unknown memory ----------------------------------------------------------------------


def test_unknown_memory_is_never_shown_as_zero_bytes():
    from grader.reporters.exercise_text import render_table

    for name in ("unknown_memory_casts.tsv", "logits_to_host_key_averages.txt"):
        table = _table(f"movement-bound/{name}")
        a = analyze(table)
        assert all(r.memory_bytes is None for r in table.rows)
        text = " ".join([*a.evidence, *a.caveats])
        assert "0 B" not in text
        assert "memory not recorded" in text or "records no memory" in text
        assert "unknown" in render_table(table)


# --- Communication -----------------------------------------------------------------------


def test_collectives_are_their_own_kind_and_class():
    a = analyze(_table("communication-bound/ddp_resnet18_key_averages.txt"))
    assert a.bottleneck == "communication-bound"
    assert a.evidence[0].startswith("collectives (")
    assert "more than any other kind of work" in a.evidence[0]
    assert a.shares["communication"] > a.shares["math"]


def test_collectives_that_are_not_the_largest_share_leave_the_math_in_charge():
    a = analyze(_table("compute-bound/tp2_prefill_allreduce.tsv"))
    assert a.bottleneck == "compute-bound"
    assert 0 < a.shares["communication"] < a.shares["math"]


# --- The decision, its margin and its words ------------------------------------------------


NAMES = [
    "aten::mm",
    "aten::linear",
    "aten::matmul",
    "aten::copy_",
    "aten::to",
    "aten::_to_copy",
    "aten::add",
    "aten::slice",
    "aten::view",
    "tokenizer.encode",
    "faiss.search",
    "Python decode loop",
    "cudaLaunchKernel",
    "cudaDeviceSynchronize",
    "nccl:all_reduce",
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
    "Memcpy HtoD (Pageable -> Device)",
    "ProfilerStep*",
    "model_forward",
    "aten::conv2d",
    "aten::cudnn_convolution",
]
_us = st.sampled_from([0.0, 0.5, 3.0, 40.0, 900.0, 25_000.0, 400_000.0])
ROWS = st.lists(
    st.builds(
        Row,
        name=st.sampled_from(NAMES),
        cuda_us=_us,
        cpu_us=_us,
        calls=st.sampled_from([0, 1, 8, 240, 5_000]),
        memory_bytes=st.sampled_from([None, 0, 12 << 20, 3 << 30]),
        self_cuda_us=st.none() | _us,
        self_cpu_us=st.none() | _us,
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(rows=ROWS, footer=st.none() | _us)
def test_the_chosen_class_never_scores_below_the_runner_up(rows, footer):
    import json

    a = analyze(Table(tuple(rows), "key_averages", device_total_us=footer))
    scores = {s.bottleneck: s.score for s in a.scores}
    assert a.margin >= 0
    assert scores[a.bottleneck] >= max(scores.values()) or a.shares["device_ms"] == 0
    assert a.runner_up != a.bottleneck
    assert a.why and a.margin_means
    json.dumps(a.to_dict(), allow_nan=False)


def test_the_runner_up_line_says_why_in_words():
    from grader.reporters.exercise_text import render_analysis

    ex = resolve_exercise("partA")
    text = render_analysis(ex, analyze(ex.table))
    assert "Why movement-bound: movement-bound is over its threshold" in text
    assert "caps compute-bound's score" in text
    assert "Runner-up: compute-bound; margin 2.32: the gap between movement-bound's score" in text


def test_rubrics_may_name_every_class():
    from grader.yamlload import load_schema

    schema = load_schema("rubric.schema.json")
    enum = schema["properties"]["criteria"]["items"]["properties"]["unless_class"]["items"]
    assert set(enum["enum"]) == set(CLASSES)
