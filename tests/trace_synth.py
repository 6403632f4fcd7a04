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
