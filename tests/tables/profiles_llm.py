"""Profiles of language models: decode and prefill, compiled, cast, offloaded."""

from __future__ import annotations

from kernel_names import (
    ADD,
    ARGMAX,
    CAT,
    DTOH,
    FLASH_COMBINE,
    FLASH_DECODE,
    FLASH_PREFILL,
    GEMM,
    GEMM_WIDE,
    HTOD,
    INDEX,
    MUL,
    NEG,
    SILU,
    TRITON_CAST,
    TRITON_NORM,
    TRITON_ROPE,
    TRITON_SILU,
)
from key_averages_format import K, Op
from profile_parts import cast, ew, linear, rms_norm, util


def llama(
    steps: int,
    layers: int,
    gemm_us: list[float],
    lm_head_us: float,
    attn_us: float,
    ew_us: float = 2.2,
    cpu: float = 1.0,
    prefill: bool = False,
) -> list[Op]:
    """One forward pass of a Llama-style model in eager HF code, ``steps`` times: a decode
    step (split-KV flash decoding) or a prefill (the flash forward kernel)."""
    attention = (
        [K(FLASH_PREFILL, attn_us)]
        if prefill
        else [K(FLASH_DECODE, attn_us), K(FLASH_COMBINE, attn_us * 0.2)]
    )
    s, per_layer = steps, steps * layers
    ops: list[Op] = [
        Op(
            "aten::embedding",
            s,
            4.0 * cpu,
            children=[
                util("aten::reshape", s, cpu),
                ew("aten::index_select", s, 3.0, INDEX, 6.0 * cpu),
                util("aten::view", s, cpu),
            ],
        )
    ]
    ops += rms_norm(per_layer * 2 + s, ew_us, cpu)
    for us in gemm_us:
        ops.append(linear(per_layer, us, cpu=cpu))
    ops.append(linear(s, lm_head_us, GEMM_WIDE, cpu))
    ops += [
        ew("aten::mul", per_layer * 4, ew_us, MUL, 4.0 * cpu),
        util("aten::slice", per_layer * 4, 1.8 * cpu),
        ew("aten::neg", per_layer * 2, ew_us, NEG, 3.9 * cpu),
        ew("aten::cat", per_layer * 2, ew_us * 1.3, CAT, 6.5 * cpu),
        ew("aten::add", per_layer * 2, ew_us, ADD, 4.2 * cpu),
        util("aten::unsqueeze", per_layer * 2, 1.3 * cpu),
        util("aten::transpose", per_layer * 4, 1.4 * cpu),
        ew("aten::cat", per_layer * 2, ew_us * 2.4, CAT, 6.5 * cpu),  # the KV cache grows
        Op(
            "aten::scaled_dot_product_attention",
            per_layer,
            3.0 * cpu,
            children=[
                Op(
                    "aten::_scaled_dot_product_flash_attention",
                    per_layer,
                    4.5 * cpu,
                    children=[
                        util("aten::transpose", per_layer * 3, 1.4 * cpu),
                        Op(
                            "aten::_flash_attention_forward",
                            per_layer,
                            9.0 * cpu,
                            attention,
                            [util("aten::empty", per_layer * 2, 1.5 * cpu)],
                        ),
                    ],
                )
            ],
        ),
        ew("aten::silu", per_layer, ew_us, SILU, 4.0 * cpu),
        ew("aten::mul", per_layer, ew_us, MUL, 4.0 * cpu),
        ew("aten::add", per_layer * 2, ew_us, ADD, 4.2 * cpu),
        ew("aten::argmax", s, 4.2, ARGMAX, 6.0 * cpu),
        Op(
            "aten::item",
            s,
            2.0 * cpu,
            children=[
                Op(
                    "aten::_local_scalar_dense",
                    s,
                    6.0 * cpu,
                    [K(DTOH, 1.4)],
                    [util("cudaStreamSynchronize", s, 5.0)],
                    launch_us=9.0,
                    launcher="cudaMemcpyAsync",
                )
            ],
        ),
    ]
    return ops


def compiled_decode(steps: int, layers: int) -> list[Op]:
    """An 8B model at batch 64 under torch.compile (no CUDA graphs): Inductor's Triton
    kernels are launched from the compiled graph's range, GEMMs and attention stay ops."""
    s, pl = steps, steps * layers
    graph = Op(
        "## Call CompiledFxGraph f2x7kq4tbrq3 ##",
        s,
        350.0,
        [
            K(TRITON_NORM, 9.0, 2 * layers + 1),
            K(TRITON_ROPE, 7.0, layers),
            K(TRITON_SILU, 8.0, layers),
            K(TRITON_CAST, 4.0, layers),
        ],
        [
            linear(pl * 4, 95.0, GEMM_WIDE),
            linear(pl * 3, 40.0),
            Op(
                "aten::_scaled_dot_product_flash_attention",
                pl,
                4.0,
                children=[
                    Op(
                        "aten::_flash_attention_forward",
                        pl,
                        8.0,
                        [K(FLASH_DECODE, 45.0), K(FLASH_COMBINE, 5.0)],
                    )
                ],
            ),
        ],
        launch_us=5.0,
    )
    return [Op("Torch-Compiled Region: 0/0", s, 40.0, children=[graph])]


def weights_cast_decode(steps: int, layers: int) -> list[Op]:
    """A 7B model loaded in fp32 and run under autocast on an L4, batch 1: every linear
    casts its fp32 weight to bf16 on every call, reading 4 bytes and writing 2 per weight."""
    pl = steps * layers
    ops: list[Op] = []
    for n, weight_mib in ((3, 64), (1, 64), (3, 172)):
        calls = pl * n
        cast_us = weight_mib * 1.5 * 1024**2 / 290e9 * 1e6  # read fp32 + write bf16
        ops.append(cast(calls, cast_us, weight_mib << 19, cpu=1.0))
        ops.append(
            Op(
                "aten::linear",
                calls,
                3.0,
                children=[
                    Op(
                        "aten::matmul",
                        calls,
                        4.0,
                        children=[
                            Op(
                                "aten::mm",
                                calls,
                                6.0,
                                [K(GEMM, weight_mib / 2 * 1024**2 / 290e9 * 1e6)],
                            )
                        ],
                    )
                ],
            )
        )
    ops += rms_norm(pl * 2, 6.0)
    ops.append(
        Op(
            "aten::_scaled_dot_product_flash_attention",
            pl,
            5.0,
            children=[Op("aten::_flash_attention_forward", pl, 9.0, [K(FLASH_DECODE, 40.0)])],
        )
    )
    return ops


def offloaded_layers(steps: int, layers: int) -> list[Op]:
    """Accelerate's CPU offload: each layer's bf16 weights (400 MiB) copied from pageable host
    memory before it runs; a pageable copy is synchronous, so the CPU waits through it."""
    pl = steps * layers
    copy = Op(
        "aten::copy_", pl, 25.0, [K(HTOD, 33_000.0)], launcher="cudaMemcpyAsync", launch_us=33_050.0
    )
    return [
        Op(
            "aten::to",
            pl,
            2.0,
            children=[
                Op("aten::_to_copy", pl, 4.0, children=[util("aten::empty_strided", pl, 2.0), copy])
            ],
        ),
        linear(pl * 7, 180.0, GEMM_WIDE),
        Op(
            "aten::_scaled_dot_product_flash_attention",
            pl,
            5.0,
            children=[Op("aten::_flash_attention_forward", pl, 9.0, [K(FLASH_PREFILL, 900.0)])],
        ),
        *rms_norm(pl * 2, 40.0),
    ]


def logits_to_host(steps: int) -> list[Op]:
    """A 1B model, batch 64: each step pulls the full fp32 logits (64 x 128k) to pageable
    host memory with .cpu() for sampling in NumPy."""
    ops = llama(steps, 16, [30.0, 18.0, 18.0, 30.0, 80.0, 80.0, 80.0], 210.0, 40.0, 6.0, cpu=0.4)
    dtoh = Op(
        "aten::copy_",
        steps,
        20.0,
        [K(DTOH, 2_700.0)],
        launcher="cudaMemcpyAsync",
        launch_us=2_750.0,
    )
    ops.append(
        Op(
            "aten::to",
            steps,
            2.0,
            children=[
                Op(
                    "aten::_to_copy",
                    steps,
                    4.0,
                    children=[util("aten::empty_strided", steps, 2.0), dtoh],
                )
            ],
        )
    )
    return ops
