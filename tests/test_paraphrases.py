"""The paraphrase banks (tests/paraphrases/README.md): the neutral report decides nothing by
itself, and the grader keeps agreeing with the banks it was tuned on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))
import paraphrases  # noqa: E402

FLOORS = {"p1.yaml": 0.97, "p2.yaml": 0.97, "p3.yaml": 0.96, "p5.yaml": 0.97, "h2.yaml": 0.85}


@pytest.mark.parametrize("slot", sorted(paraphrases.SLOTS))
def test_the_neutral_report_fails_each_slots_criteria(slot: str) -> None:
    passed, _ = paraphrases.verdict(slot, paraphrases.NEUTRAL[slot])
    assert not passed


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_the_tuning_banks_agree(name: str) -> None:
    bank = yaml.safe_load((paraphrases.BANKS / name).read_text(encoding="utf-8"))
    assert len(bank) >= 70
    wrong = [
        f"{e['slot']}: {e['text']}"
        for e in bank
        if paraphrases.verdict(e["slot"], str(e["text"]))[0] != bool(e["expected"])
    ]
    assert 1 - len(wrong) / len(bank) >= FLOORS[name], wrong
