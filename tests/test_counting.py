"""Each op's time counted once (Self columns, call chains, ranges) and host rows by rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.analyzer import analyze
from grader.exercises import resolve_exercise
from grader.tables import Row, Table, parse_table

HERE = Path(__file__).parent


def _table(name: str) -> Table:
    path = HERE / "tables" / name
    return parse_table(path.read_text(), str(path))


# --- Self columns and call chains: each op's device time counted once -------------------


def test_self_columns_give_the_footer_total_not_the_column_sum():
    table = _table("compute-bound/resnet50_inference_key_averages.txt")
    a = analyze(table)
    assert table.device_total_us is not None
    assert a.shares["device_ms"] == pytest.approx(table.device_total_us / 1e3)
    column_sum = sum(r.cuda_us for r in table.rows) / 1e3
    assert column_sum > 3 * a.shares["device_ms"]  # conv2d > ... > cudnn_convolution, kernels


def test_without_self_columns_each_call_chain_counts_once():
    """The same profile as inclusive totals only: conv2d > convolution > _convolution >
    cudnn_convolution, batch_norm > ... > cudnn_batch_norm, relu_ > clamp_min_ count once."""
    footer = _table("compute-bound/resnet50_inference_key_averages.txt").device_total_us
    a = analyze(_table("compute-bound/resnet50_inference_inclusive.tsv"))
    assert footer is not None
    assert a.shares["device_ms"] == pytest.approx(footer / 1e3, rel=0.01)
    assert a.shares["device_ms_as_listed"] > 4 * a.shares["device_ms"]


def test_a_range_row_is_not_counted_on_top_of_the_ops_it_ran():
    ops = [Row("aten::mm", 80_000, 2_000, 100, 0), Row("aten::add", 20_000, 1_000, 100, 0)]
    ranged = Table((Row("model_forward", 100_000, 9_000, 10, 0), *ops), "course")
    assert analyze(ranged).shares["device_ms"] == pytest.approx(100.0)


def test_kernel_rows_are_counted_when_they_name_what_a_compiled_region_hides():
    a = analyze(_table("compute-bound/compiled_decode_key_averages.txt"))
    assert a.metrics is not None and a.metrics.kernels_counted
    assert a.shares["other"] < 0.01  # the Triton kernels are typed, not one opaque row
    assert a.shares["elementwise"] > 0.05


def test_a_row_limit_leaves_device_time_the_footer_states():
    a = analyze(_table("compute-bound/llama8b_prefill_top20_key_averages.txt"))
    assert a.shares["unlisted_ms"] > 0
    assert any("does not list (row_limit)" in c for c in a.caveats)


def test_key_averages_and_course_forms_of_part_a_agree():
    ka = analyze(parse_table((HERE / "data" / "partA_key_averages.txt").read_text()))
    course = analyze(resolve_exercise("partA").table)
    assert ka.bottleneck == course.bottleneck == "movement-bound"
    assert ka.shares["device_ms"] == pytest.approx(course.shares["device_ms"])
    assert ka.shares["movement"] == pytest.approx(course.shares["movement"])


# --- Host rows whatever library they come from ------------------------------------------


@pytest.mark.parametrize(
    ("name", "host"),
    [
        ("faiss.IndexIVFPQ.search", True),
        ("librosa.feature.melspectrogram", True),
        ("torchvision::decode_jpeg", True),  # an op, but not PyTorch's: judged by what it does
        ("numpy/fft/_pocketfft.py(94): _raw_fft", True),
        ("aten::empty", False),  # an op of PyTorch with no kernel: dispatch, not host work
        ("aten::upsample_bilinear2d", False),
        ("cudaStreamSynchronize", False),  # a runtime call: waiting on the device
        ("Python decode loop", False),  # a loop: orchestration
    ],
)
def test_a_cpu_only_row_is_host_work_unless_it_is_an_op_a_runtime_call_or_a_loop(name, host):
    table = Table((Row("aten::mm", 50_000, 1_000, 10, 0), Row(name, 0, 80_000, 4, 0)), "course")
    assert (analyze(table).bottleneck == "host-bound") is host


def test_a_cpu_only_table_has_no_host_rule():
    """With no device time at all, every row has none: the rule would say nothing."""
    table = Table((Row("my_step", 0, 5_000, 3, 0), Row("aten::mm", 0, 9_000, 3, 0)), "course")
    assert analyze(table).metrics.of("host") == ()  # type: ignore[union-attr]


def test_large_batch_decode_with_tiny_kernels_is_overhead_bound_though_matmul_leads():
    for name in ("large_batch_decode_key_averages.txt", "large_batch_decode_inclusive.tsv"):
        a = analyze(_table(f"overhead-bound/{name}"))
        assert a.top_cuda in ("aten::linear", "aten::matmul", "aten::mm")
        assert a.shares["avg_launch_us"] < 100
        assert a.bottleneck == "overhead-bound", name
