"""Profiles of vision, audio and training runs."""

from __future__ import annotations

from kernel_names import (
    ADD_F,
    BN,
    BN_BACKWARD,
    CONV,
    DGRAD,
    FLASH_PREFILL,
    FOREACH,
    HTOD,
    MEAN,
    NCCL_AR,
    NCHW,
    POOL,
    RELU,
    SGEMM,
    SILU,
    WGRAD,
    WINO_DATA,
    WINO_OUT,
)
from key_averages_format import K, Op
from profile_parts import ew, linear, rms_norm, util


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
                                    BN_BACKWARD,
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
