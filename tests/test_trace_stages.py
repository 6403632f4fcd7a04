"""Kernel types across vendors, steps and their stages, layers and health (issue 10)."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest

import grader.traces.annotations
import grader.traces.kernels
import grader.traces.table
from grader.analyzer import analyze
from grader.exercises import load_exercise
from grader.traces.annotations import read_annotation
from grader.traces.exercise import import_trace
from grader.traces.kernels import kernel_type, stage_by_grid
from grader.traces.link import link_kernels
from grader.traces.reader import read_trace
from grader.traces.report import breakdown
from tests.trace_synth import serving_trace, synth_trace

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "traces"


def _trace(tmp_path: Path, data: dict[str, Any], name: str = "t.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "module", [grader.traces.kernels, grader.traces.annotations, grader.traces.table]
)
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        # attention is decided by the kernel itself, before quantization and the rest
        (
            "_ZN7ck_tile6kentryILi2ENS_38FmhaBatchPrefillWithPagedKVCacheKernelINS_"
            "BlockAttentionQuantScaleEnumE",
            "ATTENTION",
        ),  # fmt: skip
        (
            "void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<"
            "flash::CollectiveMainloopFwdSm90<2>>>>",
            "ATTENTION",
        ),  # fmt: skip
        ("kernel_unified_attention_2d", "ATTENTION"),
        ("_fwd_kernel", "ATTENTION"),
        ("attn_fwd", "ATTENTION"),
        ("sage_fwd_kernel<128>", "ATTENTION"),
        ("aiter::fmha_fwd_hd128_bf16_rtz", "ATTENTION"),
        (
            "fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvCausalP16VarSeqQ128Kv128PersistentContext",
            "ATTENTION",
        ),  # fmt: skip
        # ... and never because a helper mentions one further on
        (
            "triton_red_fused__to_copy_add_addmm_as_strided_fmha_v3_fwd_mean_mul_neg_pow_rsqrt_3",
            "NORM",
        ),  # fmt: skip
        ("triton_poi_fused_addmm_cat_gelu_view_25", "ELEMENTWISE"),
        ("triton_poi_fused__to_copy_1", "MEMORY"),
        ("triton_poi_fused_constant_pad_nd_moe_forward_0", "ELEMENTWISE"),
        (
            "void tensorrt_llm::kernels::quantize_with_block_size<(tensorrt_llm::BlockScaleQuanti"
            "zationType)2, __nv_bfloat16, flashinfer::cutlass::Fp8>(int)",
            "QUANTIZATION",
        ),  # fmt: skip
        (
            "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(int)",
            "COMMUNICATION",
        ),  # fmt: skip
        ("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)", "COMMUNICATION"),
        ("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu", "MOE"),
        ("void moe::dev::routing::routingIndicesHistogramKernel<moe::dev::routing::P>", "OTHER"),
        ("_topk_forward", "OTHER"),
        ("igemm_fwd_gtcx3_nhwc_bf16_bx0_ex1_bt64x128x32", "LINEAR"),
        ("std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int>(int)", "LINEAR"),
        ("batched_transpose_32x32_half", "MEMORY"),
    ],
)
def test_kernel_types_hold_across_vendors(name, kind):
    assert kernel_type(name) == kind


def test_annotations_of_serving_frameworks():
    note = read_annotation(
        "execute_8192_context_9(sq8155sk8430sqsq7475785sqsk7671310)_generation_37(sq37sk34489)"
    )
    assert note is not None
    assert (note.phase, note.batch, note.prefill_tokens, note.decode_tokens) == (
        "MIXED",
        46,
        8155,
        37,
    )
    assert read_annotation("execute_32_context_0(sq0sk0)_generation_32(sq32sk32785)").phase == (
        "DECODE"
    )
    assert read_annotation("step[MIXED bs=4]").phase == "MIXED"
    layer = read_annotation("sglang/srt/layers/attention/aiter_backend.py(40): forward_extend")
    assert layer is not None and not layer.step and layer.phase == "PREFILL"
    assert read_annotation("ProfilerStep#3").phase is None
    assert read_annotation("step[DECODE bs=" + "9" * 5000 + "]").batch is None


@pytest.mark.parametrize("step_span", [True, False])
def test_per_layer_phase_spans_are_not_steps(tmp_path, step_span):
    """SGLang's attention backend wraps each layer in a forward_extend Python span: one step
    (of 4 prefill layers), whether or not a step[EXTEND] span holds them."""
    data = synth_trace(4, 0, 0, annotate=step_span)
    for layer in range(4):  # each layer is 8 launches, 10 us apart, from t = 1000
        data["traceEvents"].append(
            {"ph": "X", "cat": "python_function", "pid": 1, "tid": 1, "args": {},
             "name": "sglang/srt/layers/attention/aiter_backend.py(412): forward_extend",
             "ts": 1000.0 + 80 * layer + 0.2, "dur": 79.5}
        )  # fmt: skip
    for ignore in (False, True):
        b = breakdown(link_kernels(read_trace(_trace(tmp_path, data)), ignore_annotations=ignore))
        assert (b["steps"], b["prefill_layers"], b["layers"]) == (1, 4, 4)
        assert b["stage_source"] == ("name" if ignore else "annotation")


@pytest.mark.parametrize("vendor", ["h100", "mi300x"])
@pytest.mark.parametrize("annotate", [False, True])
@pytest.mark.parametrize("idle", [False, True], ids=["back-to-back", "idle-gaps"])
def test_multi_step_serving_runs_are_recovered(tmp_path, vendor, annotate, idle):
    """1 prefill + 9 decode steps of 8 layers: FA3's persistent grid and decode GEMM grids
    under 200 (H100), hipBLASLt work-item grids and paged attention in every step with
    _fwd_kernel in the prefill (MI300X); steps under 1 ms apart, or with no gap at all."""
    trace = read_trace(_trace(tmp_path, serving_trace(vendor, annotate=annotate, idle=idle)))
    for ignore in (False, True):
        b = breakdown(link_kernels(trace, ignore_annotations=ignore))
        assert (b["prefill_layers"], b["decode_layers"], b["steps"]) == (8, 72, 10)
        assert (b["decode_rounds"], b["layers_per_round"]) == (9, 8)
        assert b["stage_source"] == ("annotation" if annotate and not ignore else "work")
        assert b["health"]["grade"] == "A"


def test_grids_are_read_in_workgroups(tmp_path):
    kernels = link_kernels(read_trace(_trace(tmp_path, serving_trace("mi300x", 2, 1))))
    gemms = {k.workgroups for k in kernels if k.event.name.startswith("Cijk_")}
    assert gemms == {(280, 1, 1), (64, 1, 1), (4, 1, 1)}  # 71680 / 256 work-items, ...


def test_the_grid_fallback_alone_would_call_h100_decode_steps_prefill(tmp_path):
    """Why relative work comes before the grid: FA3 and decode GEMMs launch under 200."""
    kernels = link_kernels(read_trace(_trace(tmp_path, serving_trace("h100", 2, 2))))
    decode = [k for k in kernels if k.workgroups in ((112, 1, 1), (132, 1, 1))]
    assert decode and all(stage_by_grid(k.type, k.workgroups) == "PREFILL" for k in decode)
    assert breakdown(kernels)["decode_layers"] == 4


def _eager(layers: int, sampler: bool = True) -> dict[str, Any]:
    names = []
    for _ in range(layers):
        names += ["layer_norm_kernel", "cutlass_gemm_qkv", "cutlass_gemm_bmm", "mul_kernel",
                  "softmax_warp_forward", "cutlass_gemm_bmm", "cutlass_gemm_proj",
                  "vectorized_elementwise_kernel<add>", "cutlass_gemm_fc1", "gelu_kernel",
                  "cutlass_gemm_fc2"]  # fmt: skip
    if sampler:
        names += ["cutlass_gemm_head", "softmax_warp_forward", "argmax_kernel", "copy_kernel",
                  "index_elementwise_kernel", "layer_norm_kernel", "cutlass_gemm_next"]  # fmt: skip
    events = []
    for i, name in enumerate(names):
        events.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7,
                       "ts": 10.0 * i, "dur": 5.0, "args": {}})  # fmt: skip
    return {"traceEvents": events}


def test_eager_attention_is_found_and_a_sampler_softmax_is_not(tmp_path):
    b = breakdown(link_kernels(read_trace(_trace(tmp_path, _eager(6)))))
    assert b["eager_attention_blocks"] == 6 and b["layers"] == 6
    assert b["prefill_layers"] == 6 and b["health"]["grade"] == "A"


def test_health_is_na_without_layers_or_without_a_known_stage(tmp_path):
    conv = {"ph": "X", "cat": "kernel", "name": "conv_fwd_gemm", "pid": 0, "tid": 7,
            "ts": 1.0, "dur": 2.0, "args": {}}  # fmt: skip
    no_layers = {"traceEvents": [conv]}
    b = breakdown(link_kernels(read_trace(_trace(tmp_path, no_layers, "a.json"))))
    assert b["health"] == {"grade": "n/a", "overall": None, "reason": "no layers were found"}
    data = synth_trace(0, 1, 4)
    for e in data["traceEvents"]:  # attention no rule can place, grids too large to vote
        if e["cat"] == "kernel":
            e["name"] = e["name"].replace("paged_attention_v2", "mystery_attention")
    b = breakdown(link_kernels(read_trace(_trace(tmp_path, data, "b.json"))))
    assert b["layers"] == 4 and b["unknown_layers"] == 4
    assert b["health"]["grade"] == "n/a" and "stage" in b["health"]["reason"]


def test_layers_start_with_the_repeating_sequence(tmp_path):
    """BERT-like: q, k, v projections, a head after the last layer: layers stay whole and
    regular (the old cut gave [v, attn, o, MLP, next q, k] and a B)."""
    names = ["embed_gather", "layer_norm_kernel"]
    layer = ["gemm_q", "gemm_k", "gemm_v", "flash_fwd_kernel", "gemm_o", "add_kernel",
             "layer_norm_kernel", "gemm_fc1", "gelu_kernel", "gemm_fc2", "add_kernel",
             "layer_norm_kernel"]  # fmt: skip
    names += layer * 4 + ["gemm_head", "gelu_kernel", "layer_norm_kernel", "gemm_decoder"]
    events = [{"ph": "X", "cat": "kernel", "name": n, "pid": 0, "tid": 7, "ts": 10.0 * i,
               "dur": 5.0, "args": {}} for i, n in enumerate(names)]  # fmt: skip
    kernels = [k for k in link_kernels(read_trace(_trace(tmp_path, {"traceEvents": events})))]
    from grader.traces.steps import segment

    layers = [[k.event.name for k in x.kernels] for x in segment(kernels)[0].layers]
    assert len(layers) == 4 and all(x == layers[0] for x in layers)
    assert all(x.index("gemm_v") - x.index("gemm_q") == 2 for x in layers)  # q, k, v together
    assert not any(n in x for x in layers for n in ("gemm_head", "gemm_decoder"))
    assert breakdown(kernels)["health"]["overall"] == 100


def test_out_of_window_work_is_left_out_of_report_and_table(tmp_path):
    data = synth_trace(2, 0, 0)
    early = [e for e in data["traceEvents"] if e["cat"] == "kernel"][:8]
    for e in early:  # the step before: run on the device, launched before the window
        data["traceEvents"].append(e | {"ts": e["ts"] - 900.0, "args": {"correlation": 9_999}})
    path = _trace(tmp_path, data)
    b = breakdown(link_kernels(read_trace(path)))
    assert b["layers"] == 2 and b["left_out"] == 8
    text, _ = import_trace(read_trace(path), path, None)
    assert "8 GPU events whose launch is not in the trace were left out" in text


def test_communication_kernels_are_rows_of_their_own(tmp_path):
    data = synth_trace(1, 0, 0)
    data["traceEvents"] += [
        {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: "
         "torch::autograd::AccumulateGrad", "pid": 1, "tid": 1, "ts": 5000.0, "dur": 50.0,
         "args": {"External id": 1}},
        {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1,
         "ts": 5001.0, "dur": 5.0, "args": {"correlation": 777, "External id": 1}},
        {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_Generic(ncclDevKernelArgsStorage)",
         "pid": 0, "tid": 9, "ts": 5010.0, "dur": 900.0, "args": {"correlation": 777}},
    ]  # fmt: skip
    path = _trace(tmp_path, data)
    out = tmp_path / "ex.yaml"
    import_trace(read_trace(path), path, out)
    rows = {r.name: r for r in load_exercise(out).table.rows}
    assert rows["ncclDevKernel_Generic"].cuda_us == 900.0
    assert rows["autograd::engine::evaluate_function: torch::autograd::AccumulateGrad"].cuda_us == 0


def test_device_name_from_runtime_and_memory(tmp_path):
    data = synth_trace(1, 0, 0, style="rocm")
    data["deviceProperties"] = [{"id": 0, "name": "", "totalGlobalMem": 206141652992,
                                 "computeMajor": 9, "computeMinor": 4}]  # fmt: skip
    path = _trace(tmp_path, data)
    text, _ = import_trace(read_trace(path), path, None)
    assert 'hardware: "AMD MI300X-class GPU (192 GiB; the trace records no device name)"' in text


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/traces is not present")
def test_ddp_and_compiled_tables_show_communication_and_typed_kernels(tmp_path):
    ddp = SHARED / "mi300x_resnet34_ddp_train.json.gz"
    _, ex = import_trace(read_trace(ddp), ddp, tmp_path / "ddp.yaml")
    assert ex is not None
    top = ex.table.rows[0]
    assert top.name == "ncclDevKernel_Generic" and 45_000 < top.cuda_us < 50_000
    assert analyze(ex.table).bottleneck == "communication-bound"
    assert 60_000 < ex.table.cuda_total_us < 75_000  # the step before the window left out
    compiled = SHARED / "mi300x_torch_compile_triton.json.gz"
    _, ex = import_trace(read_trace(compiled), compiled, tmp_path / "compiled.yaml")
    assert ex is not None
    names = {r.name for r in ex.table.rows if r.cuda_us > 0}
    assert {n.split(" (")[0] for n in names} >= {"gemm kernels", "attention kernels",
                                                  "elementwise kernels"}  # fmt: skip
    assert all("Torch-Compiled Region" in n for n in names)


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/traces is not present")
def test_vllm_annotations_give_batch_tokens_and_device(tmp_path):
    mixed = SHARED / "vllm_gpt-oss-20b_mixed_piecewise_mi300x.json.gz"
    _, ex = import_trace(read_trace(mixed), mixed, tmp_path / "m.yaml")
    assert ex is not None
    assert ex.workload["batch"] == 46 and ex.workload["phase"].startswith("mixed")
    assert "8155 prefill + 37 decode tokens" in ex.prompt
    assert ex.hardware.startswith("AMD MI300X-class GPU (192 GiB")
    prefill = SHARED / "b200_gpt-oss-120b_tp8_prefill.json.gz"
    _, ex = import_trace(read_trace(prefill), prefill, tmp_path / "p.yaml")
    assert ex is not None and ex.workload["prompt_tokens"] == 888
    flux = SHARED / "mi300x_xdit_flux1_compiled.json.gz"
    text, _ = import_trace(read_trace(flux), flux, None)
    assert "kernel launches were captured, not run" in text
