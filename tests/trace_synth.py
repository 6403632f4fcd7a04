"""Synthetic profiler traces of known structure, for testing layer and round recovery.

N prefill layers, then M decode rounds of L layers, each layer a fixed kernel sequence in a
vendor's naming style, launched by a cpu_op through a runtime call with a correlation id.
Noise puts 1 to 3 small utility kernels (grid [1, 1, 1]) into decode layers that carry a
single decode-voting attention kernel: the case where the old grid rule flipped layers.
"""

from __future__ import annotations

import random
from typing import Any

STYLES: dict[str, dict[str, Any]] = {
    "cuda": {
        "norm": "void vllm::rms_norm_kernel<c10::BFloat16, 8>",
        "gemm": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64",
        "prefill_attn": "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64>>",
        "decode_attn": "void paged_attention_v2_kernel<__nv_bfloat16, 128>",
        "act": "void vllm::act_and_mul_kernel<c10::BFloat16, silu>",
        "launch": "cudaLaunchKernel",
        "utility": [
            "void at::native::index_elementwise_kernel<128, 4>",
            "void at::native::vectorized_elementwise_kernel<4, CUDAFunctorOnSelf_add>",
            "void (anonymous namespace)::elementwise_kernel_with_index<arange_cuda_out>",
        ],
        "sample": "void at::native::reduce_kernel<512, 1, ArgMaxOps<float>>",
    },
    "rocm": {
        "norm": "_ZN5aiter24add_rmsnorm_quant_kernelIDF16b",
        "gemm": "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x32x256_MI16x16x1",
        "prefill_attn": "FmhaBatchPrefillWithPagedKVCacheKernel",
        "decode_attn": "mla_a8w8_qh16_qseqlen1_gqaratio16_kernel",
        "act": "_ZN7sgl_hip10activation18act_and_mul_kernel",
        "launch": "hipLaunchKernel",
        "utility": [
            "void at::native::index_elementwise_kernel<128, 4>",
            "void at::native::vectorized_elementwise_kernel<4, CUDAFunctorOnSelf_add>",
            "void (anonymous namespace)::elementwise_kernel_with_index<arange_cuda_out>",
        ],
        "sample": "void at::native::reduce_kernel<512, 1, ArgMaxOps<float>>",
    },
}


def _layer(style: dict[str, Any], decode: bool) -> list[tuple[str, list[int]]]:
    big, small = [4096, 1, 1], [96, 1, 1]
    gemm_grid = big if decode else small
    attn = style["decode_attn"] if decode else style["prefill_attn"]
    return [
        (style["norm"], big),
        (style["gemm"], gemm_grid),
        (attn, big if decode else small),
        (style["gemm"], gemm_grid),
        (style["norm"], big),
        (style["gemm"], gemm_grid),
        (style["act"], big),
        (style["gemm"], gemm_grid),
    ]


def synth_trace(
    prefill_layers: int,
    rounds: int,
    layers_per_round: int,
    *,
    style: str = "cuda",
    noise: bool = False,
    annotate: bool = False,
    grid_on_runtime: bool = False,
    seed: int = 0,
) -> dict[str, Any]:
    rng = random.Random(seed)
    s = STYLES[style]
    events: list[dict[str, Any]] = []
    t = 1000.0
    corr = 1

    def emit(name: str, grid: list[int]) -> None:
        nonlocal t, corr
        ext = corr + 100000
        events.append(
            {
                "ph": "X",
                "cat": "cpu_op",
                "name": "aten::op",
                "pid": 1,
                "tid": 1,
                "ts": t,
                "dur": 8.0,
                "args": {"External id": ext},
            }
        )
        runtime_args: dict[str, Any] = {"correlation": corr, "External id": ext}
        kernel_args: dict[str, Any] = {
            "correlation": corr,
            "External id": ext,
            "device": 0,
            "stream": 7,
        }
        (runtime_args if grid_on_runtime else kernel_args)["grid"] = grid
        if style == "rocm":
            kernel_args["kind"] = "Dispatch Kernel"
        events.append(
            {
                "ph": "X",
                "cat": "cuda_runtime",
                "name": s["launch"],
                "pid": 1,
                "tid": 1,
                "ts": t + 1,
                "dur": 4.0,
                "args": runtime_args,
            }
        )
        events.append(
            {
                "ph": "X",
                "cat": "kernel",
                "name": name,
                "pid": 0,
                "tid": 7,
                "ts": t + 6,
                "dur": 5.0,
                "args": kernel_args,
            }
        )
        t += 10.0
        corr += 1

    def tail() -> None:
        emit(s["norm"], [4096, 1, 1])
        emit(s["gemm"], [4096, 1, 1])
        emit(s["sample"], [1, 1, 1])

    def step(label: str, body) -> None:  # type: ignore[no-untyped-def]
        nonlocal t
        start = t
        body()
        if annotate:
            events.append(
                {
                    "ph": "X",
                    "cat": "user_annotation",
                    "name": label,
                    "pid": 1,
                    "tid": 1,
                    "ts": start - 0.5,
                    "dur": t - start + 1.0,
                    "args": {},
                }
            )
        t += 2000.0  # the device idles between steps

    def prefill() -> None:
        for _ in range(prefill_layers):
            for name, grid in _layer(s, decode=False):
                emit(name, grid)
        tail()

    def decode() -> None:
        for _ in range(layers_per_round):
            kernels = _layer(s, decode=True)
            if noise and rng.random() < 0.4:
                for _ in range(rng.randint(1, 3)):
                    at = rng.randint(1, len(kernels) - 1)
                    kernels.insert(at, (rng.choice(s["utility"]), [1, 1, 1]))
            for name, grid in kernels:
                emit(name, grid)
        tail()

    if prefill_layers:
        step("step[EXTEND bs=1]", prefill)
    for _ in range(rounds):
        step("step[DECODE bs=8]", decode)
    return {"traceEvents": events, "deviceProperties": [{"id": 0, "name": f"Synthetic {style}"}]}


# Multi-step serving runs: 1 prefill step then N decode steps of the same layers, as vLLM
# records them.  "h100": FA3's persistent attention kernel in every step with grid = SM
# count, decode GEMM grids under 200.  "mi300x": hipBLASLt GEMMs whose grid counts
# work-items (hipExtModuleLaunchKernel), paged attention in every step and the prefill
# kernel _fwd_kernel in the prefill step only.  Steps are 0.5-0.9 ms apart.
SERVING: dict[str, dict[str, Any]] = {
    "h100": {
        "launch": "cudaLaunchKernel",
        "gemm_launch": "cudaLaunchKernelExC",
        "norm": "void vllm::rms_norm_kernel<c10::BFloat16, 8>",
        "gemm": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1",
        "rotary": "void vllm::rotary_embedding_kernel<c10::BFloat16, true>",
        "cache": "void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16>",
        "attention": {
            "prefill": [
                "void cutlass::device_kernel<flash::enable_sm90_or_later<"
                "flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2>>>>"
            ],
            "decode": [
                "void cutlass::device_kernel<flash::enable_sm90_or_later<"
                "flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2>>>>"
            ],
        },
        "attention_grid": {"prefill": [132, 1, 1], "decode": [132, 1, 1]},
        "gemm_grid": {"prefill": [528, 1, 1], "decode": [112, 1, 1]},
        "block": [384, 1, 1],
        "act": "void vllm::act_and_mul_kernel<c10::BFloat16, silu>",
        "embed": "void at::native::vectorized_gather_kernel<16, long>",
        "sample": "void at::native::reduce_kernel<512, 1, ArgMaxOps<float>>",
    },
    "mi300x": {
        "launch": "hipLaunchKernel",
        "gemm_launch": "hipExtModuleLaunchKernel",
        "norm": "_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdINS_27Rmsnorm2dFwdPipelineOnePass",
        "gemm": "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1_SN_LDSB1",
        "rotary": "void vllm::rotary_embedding_kernel<c10::BFloat16, true>",
        "cache": "void vllm::reshape_and_cache_flash_kernel<__hip_bfloat16>",
        "attention": {
            "prefill": ["_fwd_kernel", "void paged_attention_ll4mi_QKV_mfma16_kernel<0>"],
            "decode": ["void paged_attention_ll4mi_QKV_mfma16_kernel<0>"],
        },
        "attention_grid": {"prefill": [64, 8, 1], "decode": [64, 8, 1]},
        "gemm_grid": {"prefill": [71680, 1, 1], "decode": [16384, 1, 1]},  # work-items
        "block": [256, 1, 1],
        "act": "_ZN4vllm18act_and_mul_kernelI14__hip_bfloat16",
        "embed": "void at::native::vectorized_gather_kernel<16, long>",
        "sample": "void at::native::reduce_kernel<512, 1, ArgMaxOps<float>>",
    },
}


def serving_trace(
    vendor: str,
    layers: int = 8,
    decode_steps: int = 9,
    *,
    annotate: bool = False,
    idle: bool = True,
    seed: int = 0,
) -> dict[str, Any]:
    """A vLLM-style run: 1 prefill step, then ``decode_steps`` decode steps; with
    ``idle=False`` the steps follow each other with no idle gap (graph replays)."""
    rng = random.Random(seed)
    s = SERVING[vendor]
    events: list[dict[str, Any]] = []
    t, corr = 1000.0, 1

    def emit(name: str, grid: list[int] | None, dur: float, launch: str) -> None:
        nonlocal t, corr
        dur *= rng.uniform(0.9, 1.1)
        args: dict[str, Any] = {"correlation": corr, "External id": corr, "stream": 7}
        if grid is not None:
            args |= {"grid": grid, "block": s["block"]}
        events.extend(
            [
                {"ph": "X", "cat": "cpu_op", "name": "aten::op", "pid": 1, "tid": 1, "ts": t,
                 "dur": 6.0, "args": {"External id": corr}},
                {"ph": "X", "cat": "cuda_runtime", "name": launch, "pid": 1, "tid": 1,
                 "ts": t + 1, "dur": 4.0, "args": {"correlation": corr, "External id": corr}},
                {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": t + 6,
                 "dur": dur, "args": args},
            ]
        )  # fmt: skip
        t += 6 + dur + rng.uniform(1.0, 3.0)
        corr += 1

    def step(phase: str) -> None:
        nonlocal t
        start, heavy = t, 40.0 if phase == "prefill" else 1.0
        emit(s["embed"], [64, 1, 1], 3.0, s["launch"])
        for _ in range(layers):
            emit(s["norm"], [256, 1, 1], 4.0, s["launch"])
            emit(s["gemm"], s["gemm_grid"][phase], 8.0 * heavy, s["gemm_launch"])
            emit(s["rotary"], [256, 1, 1], 3.0, s["launch"])
            emit(s["cache"], [256, 1, 1], 3.0, s["launch"])
            for name in s["attention"][phase]:
                emit(name, s["attention_grid"][phase], 6.0 * heavy, s["launch"])
            emit(s["gemm"], s["gemm_grid"][phase], 6.0 * heavy, s["gemm_launch"])
            emit(s["norm"], [256, 1, 1], 4.0, s["launch"])
            emit(s["gemm"], s["gemm_grid"][phase], 14.0 * heavy, s["gemm_launch"])
            emit(s["act"], [256, 1, 1], 3.0, s["launch"])
            emit(s["gemm"], s["gemm_grid"][phase], 10.0 * heavy, s["gemm_launch"])
        emit(s["norm"], [256, 1, 1], 4.0, s["launch"])
        emit(s["gemm"], [1024, 1, 1], 30.0, s["gemm_launch"])  # LM head
        emit(s["sample"], [1, 1, 1], 3.0, s["launch"])
        if annotate:
            ctx, gen = (1, 0) if phase == "prefill" else (0, 8)
            label = (
                f"execute_{ctx * 512 + gen}_context_{ctx}(sq{ctx * 512}sk{ctx * 512})"
                f"_generation_{gen}(sq{gen}sk{gen * 600})"
            )
            events.append(
                {"ph": "X", "cat": "user_annotation", "name": label, "pid": 1, "tid": 1,
                 "ts": start - 0.5, "dur": t - start + 1.0, "args": {}}
            )  # fmt: skip
        t += rng.uniform(500.0, 900.0) if idle else 2.0  # the host prepares the next step

    step("prefill")
    for _ in range(decode_steps):
        step("decode")
    name = "NVIDIA H100 80GB HBM3" if vendor == "h100" else "AMD Instinct MI300X"
    return {"traceEvents": events, "deviceProperties": [{"id": 0, "name": name}]}
