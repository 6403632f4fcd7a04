"""Trace import: reading, kernel types and stages, layers and rounds, exercises, bad traces."""

from __future__ import annotations

import gzip
import json
import tracemalloc
from pathlib import Path

import pytest

from grader.analyzer import analyze
from grader.errors import GraderError
from grader.exercises import load_exercise
from grader.traces.kernels import kernel_type, stage_by_grid, stage_by_name
from grader.traces.link import link_kernels
from grader.traces.reader import read_trace
from grader.traces.report import breakdown
from tests.cli_run import grade
from tests.trace_synth import synth_trace

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "traces"
DATA = Path(__file__).parent / "data"


def _write(tmp_path: Path, data: object, name: str = "t.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", "LINEAR"),
        ("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x32x256", "LINEAR"),
        ("nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NNT", "LINEAR"),
        ("void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm>", "LINEAR"),
        ("void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64>>", "ATTENTION"),
        ("void paged_attention_ll4mi_QKV_mfma16_kernel<0, __hip_bfloat16>", "ATTENTION"),
        ("mla_a8w8_qh16_qseqlen1_gqaratio16", "ATTENTION"),
        ("FmhaBatchPrefillWithPagedKVCacheKernel", "ATTENTION"),
        ("fused_moe_kernel", "MOE"),
        ("dynamic_per_token_scaled_fp8_quant_kernel", "QUANTIZATION"),
        ("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "COMMUNICATION"),
        ("Memcpy DtoH (Device -> Pinned)", "MEMORY"),
        ("void at::native::(anonymous namespace)::CatArrayBatchedCopy<OpaqueType<2>>", "MEMORY"),
        ("void at::native::vectorized_elementwise_kernel<4, bfloat16_copy_kernel_cuda>", "MEMORY"),
        ("_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64", "NORM"),
        ("void vllm::rms_norm_kernel<c10::BFloat16, 8>", "NORM"),
        ("void at::native::vectorized_elementwise_kernel<4, silu_kernel>", "ELEMENTWISE"),
        ("void at::native::index_elementwise_kernel<128, 4>", "OTHER"),
        (
            "void at::native::vectorized_elementwise_kernel<4, CUDAFunctorOnSelf_add<float>>",
            "OTHER",
        ),
        ("void (anonymous namespace)::elementwise_kernel_with_index<arange_cuda_out>", "OTHER"),
    ],
)
def test_kernel_types_by_name(name, kind):
    assert kernel_type(name) == kind


@pytest.mark.parametrize(
    ("name", "stage"),
    [
        ("mla_a8w8_qh16_qseqlen1_gqaratio16", "DECODE"),
        ("attn_qseqlen4", "DECODE"),
        ("paged_attention_v2_kernel", "DECODE"),
        ("FmhaBatchPrefillKernel", "PREFILL"),
        ("flash_fwd_splitkv_kernel", "PREFILL"),
        ("attn_qseqlen8", "PREFILL"),
        ("sm90_xmma_gemm", "UNKNOWN"),
    ],
)
def test_stage_name_rules(name, stage):
    assert stage_by_name(name) == stage


@pytest.mark.parametrize("style", ["cuda", "rocm"])
@pytest.mark.parametrize("noise", [False, True])
@pytest.mark.parametrize("annotate", [False, True])
def test_synthetic_layers_and_rounds_are_recovered(tmp_path, style, noise, annotate):
    trace = read_trace(
        _write(tmp_path, synth_trace(4, 5, 6, style=style, noise=noise, annotate=annotate, seed=3))
    )
    b = breakdown(link_kernels(trace))
    assert (b["prefill_layers"], b["decode_layers"]) == (4, 30)
    assert (b["decode_rounds"], b["layers_per_round"]) == (5, 6)
    assert b["health"]["overall"] == 100 and b["health"]["grade"] == "A"
    assert b["stage_source"] == ("annotation" if annotate else "name")


def test_old_rocm_traces_with_grid_on_the_runtime_event(tmp_path):
    data = synth_trace(3, 2, 4, style="rocm", grid_on_runtime=True, noise=True)
    b = breakdown(link_kernels(read_trace(_write(tmp_path, data))))
    assert (b["prefill_layers"], b["decode_rounds"], b["layers_per_round"]) == (3, 2, 4)


def test_the_old_grid_rule_fragments_decode_rounds_and_the_fix_does_not(tmp_path):
    """The seed's fix: small utility kernels must not vote PREFILL by their grid."""
    trace = read_trace(_write(tmp_path, synth_trace(4, 6, 8, noise=True, seed=11)))
    fixed = breakdown(link_kernels(trace))
    old = breakdown(link_kernels(trace), grid_fallback_for_all=True)
    assert (fixed["decode_rounds"], fixed["layers_per_round"]) == (6, 8)
    assert fixed["health"]["round_consistency"]["score"] == 100
    assert old["prefill_layers"] > 4  # decode layers flipped to prefill
    assert old["decode_rounds"] > 6  # rounds broken into fragments
    assert old["health"]["round_consistency"]["score"] < 100
    assert old["health"]["overall"] < fixed["health"]["overall"]


def test_utility_kernels_never_vote(tmp_path):
    trace = read_trace(_write(tmp_path, synth_trace(0, 2, 4, noise=True)))
    utility = [k for k in link_kernels(trace) if k.workgroups == (1, 1, 1) and k.type == "OTHER"]
    assert utility
    assert all(stage_by_grid(k.type, k.workgroups) == "UNKNOWN" for k in utility)
    assert all(
        stage_by_grid(k.type, k.workgroups, grid_fallback_for_all=True) == "PREFILL"
        for k in utility
    )


def test_kernels_are_linked_to_their_ops_by_external_id_and_containment(tmp_path):
    data = synth_trace(1, 1, 1)
    for e in data["traceEvents"]:
        if e["cat"] == "cuda_runtime":
            e["args"].pop("External id")  # only containment is left
    kernels = link_kernels(read_trace(_write(tmp_path, data)))
    assert kernels and all(k.op is not None and k.op.name == "aten::op" for k in kernels)


def test_reading_memory_stays_a_small_multiple_of_the_file(tmp_path):
    """Only the fields used are built (real traces: 1.9-2.9x, bench/trace_import.py); this
    dense trace of short events costs more per byte."""
    path = _write(tmp_path, synth_trace(60, 80, 24, noise=True))
    size = path.stat().st_size
    tracemalloc.start()
    trace = read_trace(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(trace.events) > 50_000
    assert peak < 4.5 * size, (peak, size)


def test_bare_event_list_and_gzip(tmp_path):
    data = synth_trace(1, 1, 2)
    path = tmp_path / "bare.json.gz"
    with gzip.open(path, "wt") as handle:
        json.dump(data["traceEvents"], handle)
    assert len(read_trace(path).of("kernel")) == len(synth_trace(1, 1, 2)["traceEvents"]) // 3


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"this is not json", "not JSON: a trace starts with '{' or '['"),
        (b'{"schemaVersion": 1}', "JSON without 'traceEvents': not a PyTorch profiler trace"),
        (
            b'{"traceEvents": [{"ph": "X", "name": "k", "ts": 1}]}',
            "::$.traceEvents[0]: complete event (ph 'X') without dur",
        ),
        (
            b'{"traceEvents": [{"ph": "X", "name": "k", "ts": 1, "dur": 2}, ',
            "is the trace cut short?",
        ),
        (b'{"traceEvents": []}', "the trace has no complete events"),
        (b"", "empty file; expected a profiler trace"),
    ],
    ids=["not-json", "no-events", "missing-field", "truncated-json", "no-complete", "empty"],
)
def test_bad_traces_give_one_clear_message(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = grade("import-trace", str(path))
    assert result.exit_code == 2
    assert message in result.output and str(path) in result.output
    assert "Traceback" not in result.output


def test_truncated_gzip(tmp_path):
    good = tmp_path / "good.json.gz"
    with gzip.open(good, "wt") as handle:
        json.dump(synth_trace(2, 2, 2), handle)
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(GraderError, match="cut short"):
        read_trace(cut)


def _import(tmp_path: Path, trace: Path) -> Path:
    out = tmp_path / "ex.yaml"
    result = grade("import-trace", str(trace), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert grade("analyze", str(out)).exit_code == 0
    assert grade("show", str(out)).exit_code == 0
    return out


def test_cpu_trace_imports_with_zero_cuda_and_a_note(tmp_path):
    ex = load_exercise(_import(tmp_path, DATA / "cpu_tiny_decoder.json.gz"))
    assert all(r.cuda_us == 0 for r in ex.table.rows)
    assert "CPU-only" in ex.table_note
    names = {r.name for r in ex.table.rows}
    assert {"aten::linear", "tokenize", "Python decode loop"} <= names
    assert ex.hardware.startswith("CPU only")
    assert ex.path.read_text().startswith('# Imported by `grade import-trace` from "cpu_tiny')


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/traces is not present")
def test_sglang_decode_trace(tmp_path):
    path = SHARED / "sglang_Qwen3-8B_decode.json.gz"
    ex = load_exercise(_import(tmp_path, path))
    assert ex.hardware == "AMD Instinct MI300X"
    assert ex.workload["batch"] == 32 and ex.workload["phase"] == "decode"
    assert analyze(ex.table).bottleneck == "compute-bound"
    trace = read_trace(path)
    for ignore in (False, True):
        b = breakdown(link_kernels(trace, ignore_annotations=ignore))
        assert (b["decode_layers"], b["prefill_layers"]) == (36, 0)
        assert (b["decode_rounds"], b["layers_per_round"]) == (1, 36)
    unannotated = link_kernels(trace, ignore_annotations=True)
    tiny = [k for k in unannotated if k.workgroups == (1, 1, 1)]
    assert tiny and all(k.type in ("OTHER", "MEMORY", "ELEMENTWISE") for k in tiny)


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/traces is not present")
def test_h100_trace(tmp_path):
    ex = load_exercise(_import(tmp_path, SHARED / "h100_Qwen1.5-0.5B.json.gz"))
    assert ex.hardware == "NVIDIA H100 80GB HBM3"
    assert ex.table.rows[0].name == "aten::linear"
    assert "launch is not in the trace" in ex.table_note


# The truth of each shared trace (../shared/traces/README.md): layers, (prefill, decode,
# mixed) layers, decode rounds of how many layers.  Without annotations a chunked-prefill
# step cannot be told from prefill: its GEMMs do a prefill's work, so it reads as prefill.
TRUTH = {
    "h100_Qwen1.5-0.5B": (24, (24, 0, 0), []),
    "sglang_Qwen3-8B_decode": (36, (0, 36, 0), [36]),
    "vllm_gpt-oss-20b_decode_graph_mi300x": (24, (0, 24, 0), [24]),
    "vllm_gpt-oss-20b_mixed_piecewise_mi300x": (24, (0, 0, 24), []),
    "b200_gpt-oss-120b_tp8_prefill": (36, (36, 0, 0), []),
    "h100_timesformer": (24, (24, 0, 0), []),
    "h100_bert-small": (4, (4, 0, 0), []),
    "mi300x_xdit_flux1_compiled": (70, (70, 0, 0), []),
    "mi300x_torch_compile_triton": (1, (1, 0, 0), []),
    "mi300x_resnet34_ddp_train": (0, (0, 0, 0), []),
    "mi210_gpu_only": (0, (0, 0, 0), []),
}
UNANNOTATED = {"vllm_gpt-oss-20b_mixed_piecewise_mi300x": (24, (24, 0, 0), [])}


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/traces is not present")
@pytest.mark.parametrize("ignore", [False, True], ids=["annotations", "ignore-annotations"])
@pytest.mark.parametrize("name", sorted(TRUTH))
def test_shared_traces_give_their_truth(name, ignore):
    layers, stages, round_sizes = (UNANNOTATED if ignore else {}).get(name, TRUTH[name])
    b = breakdown(link_kernels(read_trace(SHARED / f"{name}.json.gz"), ignore_annotations=ignore))
    assert b["layers"] == layers
    assert (b["prefill_layers"], b["decode_layers"], b["mixed_layers"]) == stages
    assert b["unknown_layers"] == 0
    assert [b["layers_per_round"]] * b["decode_rounds"] == round_sizes
    if layers:
        assert b["health"]["grade"] == "A", b["health"]
    else:
        assert b["health"]["grade"] == "n/a" and b["health"]["overall"] is None


def test_report_text(tmp_path):
    path = _write(tmp_path, synth_trace(2, 3, 4, noise=True))
    out = grade("import-trace", str(path), "--report").output
    assert "layers: 14 in 4 step(s)   prefill: 2   decode: 12   mixed: 0   unknown: 0" in out
    assert "decode rounds: 3 of 4 layers" in out
    assert "overall 100 (A)" in out
