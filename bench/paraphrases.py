"""Agreement on labelled one-line statements, each put into a neutral report at its slot.

    python bench/paraphrases.py                 # every bank in tests/paraphrases/
    python bench/paraphrases.py FILE... [-v]    # these banks; -v prints each disagreement

A bank (tests/paraphrases/*.yaml) holds statements (for a_hyp, blocks of lines) written from
criteria.md by authors who never saw the grader, each with the slot it goes in and whether it
satisfies the criterion that slot is judged on (tests/paraphrases/README.md).  A neutral
report with nothing in the slot fails that criterion, so each verdict is the statement's own.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import yaml

from grader.engine import grade_report
from grader.exercises import resolve_exercise
from grader.report.model import Report

ROOT = Path(__file__).resolve().parent.parent
BANKS = ROOT / "tests" / "paraphrases"

_A = """\
Workload: decoder-only LLM, prompt 4096 tokens, output 128 tokens, bf16 weights, batch 1
Hardware: NVIDIA L4
Top CUDA time: matmul (38.4 ms) and flash attention (31.7 ms) are the model math. {a_diagnosis}
Top CPU / orchestration cost: {a_tokenizer}
Next experiment: {a_next}

{a_hyp}

{a_not_yet}
"""
_B = """\
Workload: batch 1, prompt 32, decode 128, tiny hidden size
Hardware: L4
Top CUDA time: aten::matmul, 6.1 ms.
Top CPU / orchestration cost: the Python decode loop, 38 ms of CPU time. {b_evidence}
Next experiment: capture the decode step in a CUDA graph and compare the time per token.

Contrast with Part A:
- In A, matmul on top was real prefill math.
- {b_meaning}
- A is limited by its copies, B by its host loop.
- {b_fused}
"""
# What each slot holds when it is not the one tested: nothing that decides its criterion.
NEUTRAL = {
    "a_diagnosis": "",
    "a_tokenizer": "tokenizer.encode, 22 ms.",
    "a_next": "rerun the same request on an A100 and compare the totals.",
    "a_not_yet": "",
    "a_hyp": "",
    "b_evidence": "",
    "b_meaning": "Part B has matmul on top as well.",
    "b_fused": "Part B has no attention row.",
}
SLOTS = {  # slot -> exercise, template, the criteria its statement must all satisfy
    "a_diagnosis": ("partA", _A, ("diagnosis-matches", "separates-math-from-movement")),
    "a_tokenizer": ("partA", _A, ("tokenizer-outside-gpu",)),
    "a_not_yet": ("partA", _A, ("not-yet-with-reason",)),
    "a_next": ("partA", _A, ("one-next-experiment", "next-experiment-targets-bottleneck")),
    "a_hyp": ("partA", _A, ("two-hypotheses", "experiment-per-hypothesis")),
    "b_evidence": ("partB", _B, ("overhead-evidence",)),
    "b_fused": ("partB", _B, ("fused-attention-wrong-here",)),
    "b_meaning": ("partB", _B, ("top-cuda-meaning",)),
}


def verdict(slot: str, text: str) -> tuple[bool, bool]:
    """Whether the statement, in its slot, passes every criterion the slot is judged on, and
    whether any of those verdicts is flagged for review."""
    exercise, template, criteria = SLOTS[slot]
    slots = {k: v for k, v in NEUTRAL.items() if k[0] == slot[0]}
    report = template.format(**{**slots, slot: text})
    result = grade_report(Report.parse(report), resolve_exercise(exercise))
    got = [c for c in result.criteria if c.id in criteria]
    return all(c.passed for c in got), any(c.review for c in got)


def main(argv: list[str]) -> None:
    verbose = "-v" in argv
    paths = [Path(a) for a in argv if a != "-v"] or sorted(BANKS.glob("*.yaml"))
    for slot in SLOTS:  # the neutral report decides nothing by itself
        if verdict(slot, NEUTRAL[slot])[0]:
            print(f"warning: the neutral report already passes {slot}")
    for path in paths:
        tally: Counter[tuple[str, str]] = Counter()
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")):
            slot, text, expected = entry["slot"], str(entry["text"]), bool(entry["expected"])
            passed, review = verdict(slot, text)
            kind = "agree" if passed == expected else ("FP" if passed else "FF")
            tally[(slot, kind)] += 1
            tally[(slot, "flagged")] += review
            if verbose and kind != "agree":
                print(f"{kind} {slot}{' [review]' if review else ''}: {text}")
        total = agree = 0
        print(f"== {path.name}")
        for slot in SLOTS:
            n = sum(tally[(slot, k)] for k in ("agree", "FP", "FF"))
            if n:
                total, agree = total + n, agree + tally[(slot, "agree")]
                print(
                    f"  {slot:12} {tally[(slot, 'agree')]:3}/{n:<3} "
                    f"{100 * tally[(slot, 'agree')] / n:5.1f}%  FP {tally[(slot, 'FP')]:2}  "
                    f"FF {tally[(slot, 'FF')]:2}  flagged {tally[(slot, 'flagged')]:2}"
                )
        if total:
            print(f"  {'all':12} {agree:3}/{total:<3} {100 * agree / total:5.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
