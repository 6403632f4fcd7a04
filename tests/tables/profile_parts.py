"""Building blocks of the generated profiles: ops with the children and kernels PyTorch
records."""

from __future__ import annotations

from kernel_names import (
    ADD,
    COPY,
    GEMM,
    MEAN,
    MUL,
    POW,
    RSQRT,
)
from key_averages_format import K, Op


def util(name: str, calls: int, cpu: float = 1.2, children: list[Op] | None = None) -> Op:
    return Op(name, calls, cpu, children=children or [])


def linear(calls: int, us: float, kernel: str = GEMM, cpu: float = 1.0) -> Op:
    """aten::linear with a 3-D input: matmul folds it and calls mm."""
    return Op(
        "aten::linear",
        calls,
        2.6 * cpu,
        children=[
            util("aten::t", calls, 1.6 * cpu, [util("aten::transpose", calls, 1.4 * cpu)]),
            Op(
                "aten::matmul",
                calls,
                3.4 * cpu,
                children=[
                    util("aten::reshape", calls, 1.2 * cpu, [util("aten::view", calls, cpu)]),
                    Op("aten::mm", calls, 5.0 * cpu, [K(kernel, us)]),
                    util("aten::_unsafe_view", calls, cpu),
                ],
            ),
        ],
    )


def cast(calls: int, us: float, nbytes: int, cpu: float = 1.0) -> Op:
    """aten::to -> _to_copy -> copy_, as a dtype cast records."""
    return Op(
        "aten::to",
        calls,
        1.3 * cpu,
        children=[
            Op(
                "aten::_to_copy",
                calls,
                2.8 * cpu,
                alloc=nbytes,
                children=[
                    util("aten::empty_strided", calls, 1.9 * cpu),
                    Op("aten::copy_", calls, 3.2 * cpu, [K(COPY, us)]),
                ],
            )
        ],
    )


def ew(name: str, calls: int, us: float, kernel: str, cpu: float = 4.2) -> Op:
    return Op(name, calls, cpu, [K(kernel, us)])


def rms_norm(calls: int, us: float = 2.2, cpu: float = 1.0) -> list[Op]:
    """HF LlamaRMSNorm: upcast, pow, mean, add, rsqrt, mul, downcast, mul by weight."""
    return [
        cast(calls, us * 1.1, 0, cpu),
        ew("aten::pow", calls, us, POW, 4.0 * cpu),
        ew("aten::mean", calls, us * 1.4, MEAN, 5.5 * cpu),
        ew("aten::add", calls, us * 0.9, ADD, 4.2 * cpu),
        ew("aten::rsqrt", calls, us * 0.9, RSQRT, 3.8 * cpu),
        ew("aten::mul", calls * 2, us, MUL, 4.0 * cpu),
        cast(calls, us * 1.1, 0, cpu),
    ]
