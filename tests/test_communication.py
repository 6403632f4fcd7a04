"""A communication-bound exercise (a tensor-parallel decode) grades like the course's parts:
the diagnosis and the next experiment are judged against collectives as the limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.engine import grade_report
from grader.exercises import load_exercise
from grader.report.model import Report

TABLE = Path(__file__).parent / "tables" / "communication-bound" / "tp8_decode_pcie.tsv"


@pytest.fixture(scope="module")
def exercise(tmp_path_factory: pytest.TempPathFactory):
    table = "\n".join("  " + line for line in TABLE.read_text().splitlines())
    path = tmp_path_factory.mktemp("ex") / "tp8.yaml"
    path.write_text(
        "id: tp8\ntitle: TP8 decode\nprompt: Triage this tensor-parallel decode.\n"
        "workload: {model: 70B, prompt_tokens: null, output_tokens: null, dtype: bf16, batch: 32}\n"
        "hardware: 8x L40S over PCIe\n"
        f"table: |\n{table}\n"
    )
    return load_exercise(path)


def _grade(exercise, diagnosis: str, experiment: str) -> dict[str, bool]:
    text = (
        "Workload: 70B decode, batch 32, TP8\nHardware: 8x L40S, PCIe\n"
        f"Top CUDA time: ncclDevKernel_AllReduce 962 ms, mm 804 ms. {diagnosis}\n"
        "Top CPU / orchestration cost: nccl:all_reduce 88 ms of CPU\n"
        f"Next experiment: {experiment}\n"
    )
    result = grade_report(Report.parse(text), exercise)
    return {c.id: c.passed for c in result.criteria}


def test_the_exercise_is_communication_bound(exercise):
    from grader.analyzer import analyze

    assert analyze(exercise.table).bottleneck == "communication-bound"


@pytest.mark.parametrize(
    ("diagnosis", "experiment", "diagnosed", "targeted"),
    [
        (
            "The all-reduce is the bottleneck: the GPUs spend more time in collectives "
            "than in math.",
            "overlap the all-reduce with the next layer's compute and re-measure step time",
            True,
            True,
        ),
        (
            "Communication dominates this decode.",
            "try TP4 x PP2 instead of TP8 so fewer all-reduces cross PCIe",
            True,
            True,
        ),
        (
            "The matmuls are the bottleneck, so this is compute-bound.",
            "autotune the GEMMs with cuBLASLt",
            False,
            False,
        ),
        (
            "All-reduce takes most of the time.",
            "switch attention to FlashAttention-3",
            True,
            False,
        ),
    ],
)
def test_communication_diagnosis_and_target(exercise, diagnosis, experiment, diagnosed, targeted):
    got = _grade(exercise, diagnosis, experiment)
    assert got["diagnosis-matches"] is diagnosed
    assert got["next-experiment-targets-bottleneck"] is targeted
