"""Write the generated tables of tests/tables/: ``python tests/tables/make_tables.py``.

Each profile below is a call tree of the kind a real run records (ops, the ops they call,
the kernels they launch, per-call times of the right order for the hardware named), printed
as PyTorch's key_averages text (``.txt``) or as the course's tab-separated table (``.tsv``).
The folder is the class the grading contract's definitions give the run; the analyzer is
tested against it, never the other way round.
"""

from pathlib import Path

from key_averages_format import render, render_course
from profiles_llm import (
    compiled_decode,
    llama,
    logits_to_host,
    offloaded_layers,
    weights_cast_decode,
)
from profiles_other import (
    audio_classification,
    image_service,
    mlp_training,
    resnet18_ddp_training,
    resnet50_inference,
)

HERE = Path(__file__).parent


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
