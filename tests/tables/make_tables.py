# ruff: noqa: E501  (kernel names are data, as long as CUDA prints them)
"""Write the generated tables of tests/tables/: ``python tests/tables/make_tables.py``.

Each profile below is a call tree of the kind a real run records (ops, the ops they call,
the kernels they launch, per-call times of the right order for the hardware named), printed
as PyTorch's key_averages text (``.txt``) or as the course's tab-separated table (``.tsv``).
The folder is the class the grading contract's definitions give the run; the analyzer is
tested against it, never the other way round.
"""

from __future__ import annotations

from pathlib import Path

from key_averages_format import K, Op, render, render_course

HERE = Path(__file__).parent

GEMM = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
GEMM_WIDE = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas"
MUL = "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >(int, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3>)"
ADD = "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3>)"
POW = "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#2}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#2}, at::detail::Array<char*, 2>)"
RSQRT = "void at::native::vectorized_elementwise_kernel<4, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)"
SILU = "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2>)"
NEG = "void at::native::vectorized_elementwise_kernel<4, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >(int, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2>)"
MEAN = "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)"
ARGMAX = "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::ArgMaxOps<c10::BFloat16>, unsigned int, long, 4> >(at::native::ReduceOp<c10::BFloat16, at::native::ArgMaxOps<c10::BFloat16>, unsigned int, long, 4>)"
COPY = "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)"
CAT = "void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 4, 64, 64>(at::native::(anonymous namespace)::OpaqueType<2u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 64, 64>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)"
INDEX = "void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)"
FLASH_DECODE = "void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<64, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<64, 64, 128, 4, cutlass::bfloat16_t> >, false, false, false, false, true, false, false, false>(flash::Flash_fwd_params)"
FLASH_COMBINE = "void flash::flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<64, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<64, 64, 128, 4, cutlass::bfloat16_t> >, 4, 3, false>(flash::Flash_fwd_params)"
FLASH_PREFILL = "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, false, true, false, false>(flash::Flash_fwd_params)"
DTOH = "Memcpy DtoH (Device -> Pageable)"


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


CONV = "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn"
WINO_DATA = "void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>(cudnn::winograd_nonfused::WinogradDataParams<float, float>)"
WINO_OUT = "void cudnn::winograd_nonfused::winogradForwardOutput4x4<float, float>(cudnn::winograd_nonfused::WinogradOutputParams<float, float>)"
NCHW = "void nchwToNhwcKernel<float, float, float, true, false, (cudnnKernelDataType_t)2>(int, int, int, int, float const*, float*, float, float)"
BN = "void cudnn::bn_fw_inf_1C11_kernel_NCHW<float, float, true, 1>(float, float, cudnnTensorStruct, float const*, float const*, float const*, float const*, float const*, float const*, float*, float)"
RELU = "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)"
ADD_F = "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)"
POOL = "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(int, float const*, long, long, long, int, int, int, int, int, int, int, int, int, int, float*, long*)"
SGEMM = "ampere_sgemm_128x64_tn"
DGRAD = "sm80_xmma_dgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn"
WGRAD = "sm80_xmma_wgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel_cudnn"
NCCL_AR = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
FOREACH = "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)"
HTOD = "Memcpy HtoD (Pageable -> Device)"
TRITON_NORM = "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0"
TRITON_ROPE = "triton_poi_fused_add_cat_mul_neg_slice_1"
TRITON_SILU = "triton_poi_fused_mul_silu_2"
TRITON_CAST = "triton_poi_fused__to_copy_3"


def conv_block(calls: int, kernels: list[K], alloc: int) -> Op:
    """aten::conv2d -> convolution -> _convolution -> cudnn_convolution."""
    inner = Op("aten::cudnn_convolution", calls, 28.0, kernels, alloc=alloc)
    return Op(
        "aten::conv2d",
        calls,
        2.5,
        children=[
            Op(
                "aten::convolution",
                calls,
                3.5,
                children=[Op("aten::_convolution", calls, 6.0, children=[inner])],
            )
        ],
    )


def batch_norm(calls: int, us: float, alloc: int) -> Op:
    return Op(
        "aten::batch_norm",
        calls,
        1.8,
        children=[
            Op(
                "aten::_batch_norm_impl_index",
                calls,
                2.4,
                children=[
                    Op(
                        "aten::cudnn_batch_norm",
                        calls,
                        9.5,
                        [K(BN, us)],
                        alloc=alloc,
                        children=[util("aten::empty_like", calls * 3, 1.5)],
                    )
                ],
            )
        ],
    )


def resnet50_inference(iters: int) -> list[Op]:
    """ResNet-50, batch 64, fp32 with TF32 on an A100, under record_function."""
    i = iters
    body = [
        conv_block(40 * i, [K(NCHW, 14.0, 2), K(CONV, 640.0)], 52 << 20),
        conv_block(13 * i, [K(WINO_DATA, 150.0), K(WINO_OUT, 80.0)], 26 << 20),
        batch_norm(53 * i, 88.0, 52 << 20),
        Op("aten::relu_", 49 * i, 3.5, children=[ew("aten::clamp_min_", 49 * i, 44.0, RELU, 5.0)]),
        ew("aten::add_", 16 * i, 56.0, ADD_F, 5.5),
        Op(
            "aten::max_pool2d",
            i,
            3.0,
            children=[
                Op("aten::max_pool2d_with_indices", i, 12.0, [K(POOL, 250.0)], alloc=50 << 20)
            ],
        ),
        Op("aten::adaptive_avg_pool2d", i, 3.0, children=[ew("aten::mean", i, 60.0, MEAN, 9.0)]),
        util("aten::flatten", i, 2.0, [util("aten::view", i)]),
        Op(
            "aten::linear",
            i,
            3.0,
            children=[
                util("aten::t", i, 2.0, [util("aten::transpose", i)]),
                Op("aten::addmm", i, 12.0, [K(SGEMM, 50.0)]),
            ],
        ),
    ]
    return [Op("model_inference", i, 900.0, children=body)]


def resnet18_ddp_training(steps: int, allreduce_ms: float) -> list[Op]:
    """ResNet-18, batch 32 per GPU, DDP on two nodes over a slow link: the gradient buckets'
    all-reduce outlasts the backward pass it should hide behind."""
    s = steps
    forward = [
        conv_block(20 * s, [K(CONV, 95.0)], 12 << 20),
        batch_norm(20 * s, 22.0, 12 << 20),
        Op("aten::relu_", 17 * s, 3.5, children=[ew("aten::clamp_min_", 17 * s, 11.0, RELU)]),
        ew("aten::add_", 8 * s, 12.0, ADD_F, 5.5),
        Op("aten::linear", s, 3.0, children=[Op("aten::addmm", s, 12.0, [K(SGEMM, 30.0)])]),
    ]
    backward = [
        Op(
            "autograd::engine::evaluate_function: ConvolutionBackward0",
            20 * s,
            6.0,
            children=[
                Op(
                    "ConvolutionBackward0",
                    20 * s,
                    4.0,
                    children=[
                        Op(
                            "aten::convolution_backward",
                            20 * s,
                            35.0,
                            [K(DGRAD, 110.0), K(WGRAD, 120.0)],
                            alloc=12 << 20,
                        )
                    ],
                )
            ],
        ),
        Op(
            "autograd::engine::evaluate_function: CudnnBatchNormBackward0",
            20 * s,
            5.0,
            children=[
                Op(
                    "CudnnBatchNormBackward0",
                    20 * s,
                    3.0,
                    children=[
                        Op(
                            "aten::cudnn_batch_norm_backward",
                            20 * s,
                            14.0,
                            [
                                K(
                                    "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float*, float*, float const*, float const*, float)",
                                    40.0,
                                )
                            ],
                        )
                    ],
                )
            ],
        ),
        Op(
            "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
            62 * s,
            4.0,
            children=[Op("torch::autograd::AccumulateGrad", 62 * s, 6.0)],
        ),
        Op(
            "nccl:all_reduce",
            4 * s,
            45.0,
            [K(NCCL_AR, allreduce_ms * 1e3 / 4)],
            [util("record_param_comms", 4 * s, 8.0)],
        ),
    ]
    step = [
        Op("DistributedDataParallel.forward", s, 120.0, children=forward),
        *backward,
        Op(
            "Optimizer.step#SGD.step",
            s,
            60.0,
            children=[ew("aten::_foreach_add_", s, 180.0, FOREACH, 40.0)],
        ),
    ]
    return [Op("ProfilerStep*", s, 400.0, children=step)]


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


def mlp_training(steps: int) -> list[Op]:
    """A 3-layer MLP (hidden 512), batch 32, Adam with foreach off: every op is a few
    microseconds of device time and several of host time."""
    s = steps
    fwd = [
        Op(
            "aten::linear",
            3 * s,
            3.0,
            children=[util("aten::t", 3 * s, 1.5), Op("aten::addmm", 3 * s, 9.0, [K(SGEMM, 6.0)])],
        ),
        ew("aten::relu", 2 * s, 3.0, RELU, 5.0),
        Op(
            "aten::cross_entropy_loss",
            s,
            4.0,
            children=[
                ew("aten::log_softmax", s, 4.0, MEAN, 6.0),
                ew("aten::nll_loss", s, 3.5, MEAN, 6.0),
            ],
        ),
    ]
    bwd = [
        Op(
            "autograd::engine::evaluate_function: AddmmBackward0",
            3 * s,
            6.0,
            children=[
                Op(
                    "AddmmBackward0",
                    3 * s,
                    4.0,
                    children=[Op("aten::mm", 6 * s, 8.0, [K(SGEMM, 5.0)])],
                )
            ],
        ),
        Op(
            "autograd::engine::evaluate_function: ReluBackward0",
            2 * s,
            5.0,
            children=[
                Op(
                    "ReluBackward0",
                    2 * s,
                    3.0,
                    children=[ew("aten::threshold_backward", 2 * s, 2.5, RELU, 6.0)],
                )
            ],
        ),
        Op(
            "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
            6 * s,
            4.0,
            children=[Op("torch::autograd::AccumulateGrad", 6 * s, 5.0)],
        ),
    ]
    adam = [
        ew(name, 6 * s, 2.3, ADD_F, 6.0)
        for name in (
            "aten::mul_",
            "aten::add_",
            "aten::addcmul_",
            "aten::sqrt",
            "aten::div_",
            "aten::addcdiv_",
            "aten::lerp_",
        )
    ]
    step = [
        *fwd,
        *bwd,
        Op("Optimizer.step#Adam.step", s, 90.0, children=adam),
        Op("Optimizer.zero_grad#Adam.zero_grad", s, 25.0),
    ]
    return [Op("ProfilerStep*", s, 150.0, children=step)]


def audio_classification(clips: int) -> list[Op]:
    """A speech classifier served one clip at a time: the audio is decoded and turned into
    log-mel features in NumPy (rows recorded by the Python tracer), then a small encoder
    runs on the GPU."""
    c = clips
    features = Op(
        "transformers/models/whisper/feature_extraction_whisper.py(282): __call__",
        c,
        2_000.0,
        children=[
            Op(
                "transformers/audio_utils.py(541): spectrogram",
                c,
                11_000.0,
                children=[Op("numpy/fft/_pocketfft.py(94): _raw_fft", c * 3000, 9.5)],
            ),
            Op("transformers/audio_utils.py(202): mel_filter_bank", c, 1_800.0),
        ],
    )
    load = Op("transformers/pipelines/audio_utils.py(12): ffmpeg_read", c, 21_000.0)
    encoder = [
        conv_block(2 * c, [K(CONV, 260.0)], 8 << 20),
        linear(c * 12 * 6, 95.0),
        ew("aten::gelu", c * 14, 40.0, SILU, 5.0),
        *rms_norm(c * 24, 12.0),
        Op(
            "aten::_scaled_dot_product_flash_attention",
            c * 12,
            5.0,
            children=[Op("aten::_flash_attention_forward", c * 12, 9.0, [K(FLASH_PREFILL, 160.0)])],
        ),
    ]
    return [load, features, Op("AudioClassificationPipeline.forward", c, 300.0, children=encoder)]


def image_service(batches: int) -> list[Op]:
    """ResNet-50 serving batches of 8 JPEGs: torchvision decodes and resizes each image on
    the CPU (CPU aten ops under the resize), then one batched forward pass on an A10."""
    b, n = batches, batches * 8
    resize = Op(
        "torchvision/transforms/v2/_geometry.py(176): forward",
        n,
        380.0,
        children=[
            Op("aten::upsample_bilinear2d", n, 3_900.0, children=[util("aten::empty", n, 2.0)]),
            Op(
                "aten::to",
                n,
                3.0,
                children=[Op("aten::_to_copy", n, 6.0, children=[Op("aten::copy_", n, 420.0)])],
            ),
        ],
    )
    model = [
        conv_block(53 * b, [K(CONV, 48.0)], 4 << 20),
        batch_norm(53 * b, 9.0, 4 << 20),
        Op("aten::relu_", 49 * b, 3.5, children=[ew("aten::clamp_min_", 49 * b, 5.0, RELU)]),
        ew("aten::add_", 16 * b, 6.0, ADD_F, 5.5),
    ]
    upload = Op(
        "aten::to",
        b,
        3.0,
        children=[
            Op(
                "aten::_to_copy",
                b,
                6.0,
                children=[
                    Op(
                        "aten::copy_",
                        b,
                        15.0,
                        [K(HTOD, 310.0)],
                        launcher="cudaMemcpyAsync",
                        launch_us=330.0,
                    )
                ],
            )
        ],
    )
    return [
        Op("torchvision::decode_jpeg", n, 6_200.0),
        resize,
        upload,
        Op("ResNet.forward", b, 250.0, children=model),
    ]


def write(folder: str, name: str, text: str) -> None:
    path = HERE / folder / name
    path.write_text(text)
    print(path.relative_to(HERE.parent.parent))


def main() -> None:
    # Llama-3.2-1B, batch 32, 64 decode steps on an H100 in eager HF code: kernels of tens of
    # microseconds or less, the host 1.7x slower than the device, mm on top of the CUDA
    # column all the same.
    small = llama(64, 16, [9.5, 6.8, 6.8, 9.5, 26.0, 26.0, 26.0], 61.0, 14.0, cpu=0.6)
    write("overhead-bound", "large_batch_decode_key_averages.txt", render(small))
    write("overhead-bound", "large_batch_decode_inclusive.tsv", render_course(small, False))

    # A vision model in eager mode: the footer's Self CUDA total is the device time; adding
    # the CUDA column up counts conv2d > convolution > _convolution > cudnn_convolution four
    # times over.
    write(
        "compute-bound",
        "resnet50_inference_key_averages.txt",
        render(resnet50_inference(10), memory=True),
    )
    write(
        "compute-bound", "resnet50_inference_inclusive.tsv", render_course(resnet50_inference(10))
    )
    prefill = llama(
        5, 32, [180.0, 50.0, 50.0, 180.0, 620.0, 620.0, 620.0], 900.0, 850.0, 40.0, prefill=True
    )
    write("compute-bound", "llama8b_prefill_top20_key_averages.txt", render(prefill, row_limit=20))
    write("compute-bound", "compiled_decode_key_averages.txt", render(compiled_decode(32, 32)))
    write(
        "movement-bound",
        "fp32_weights_autocast_key_averages.txt",
        render(weights_cast_decode(16, 32), memory=True),
    )
    write("movement-bound", "cpu_offload_key_averages.txt", render(offloaded_layers(2, 32)))
    write("movement-bound", "logits_to_host_key_averages.txt", render(logits_to_host(64)))
    write("overhead-bound", "mlp_training_key_averages.txt", render(mlp_training(50)))
    write("host-bound", "audio_features_key_averages.txt", render(audio_classification(16)))
    write("host-bound", "image_service_key_averages.txt", render(image_service(12)))
    write(
        "communication-bound",
        "ddp_resnet18_key_averages.txt",
        render(resnet18_ddp_training(20, 17.0), memory=True),
    )
    write(
        "compute-bound",
        "ddp_resnet18_fast_link_key_averages.txt",
        render(resnet18_ddp_training(20, 2.5)),
    )


if __name__ == "__main__":
    main()
