"""Agreement of the grader with labelled reports, per set and for the tuning / held-out split.

    python bench/accuracy.py            # every labelled set: ../shared/examples, submissions/,
                                        # tests/labelled/* (split in tests/labelled/split.yaml)
    python bench/accuracy.py DIR ...    # only these folders (labels.yaml + submissions/)

Counts as ../shared/tools/agreement.py does (null labels skipped), in process: agreement,
Cohen's kappa, false passes and false fails, the share of verdicts flagged for review, and
the agreement on verdicts not flagged ("confident").  Prints figures; asserts nothing.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from grader.grading import grade_file

ROOT = Path(__file__).resolve().parent.parent
LABELLED = ROOT / "tests" / "labelled"


@dataclass
class Tally:
    agree: int = 0
    total: int = 0
    false_pass: int = 0
    false_fail: int = 0
    true_pass: int = 0
    true_fail: int = 0
    flagged: int = 0
    confident_agree: int = 0
    confident_total: int = 0

    def add(self, other: Tally) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def kappa(self) -> float:
        n = self.total
        if not n:
            return 0.0
        tp, fp, fn, tn = self.true_pass, self.false_pass, self.false_fail, self.true_fail
        observed = (tp + tn) / n
        expected = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / (n * n)
        return (observed - expected) / (1 - expected) if expected < 1 else 1.0

    def row(self, name: str) -> str:
        pct = lambda a, b: f"{100 * a / b:5.1f}%" if b else "    -"  # noqa: E731
        return (
            f"{name:24} {self.agree:5}/{self.total:<5} {pct(self.agree, self.total)}  "
            f"kappa {self.kappa:.3f}  FP {self.false_pass:3}  FF {self.false_fail:3}  "
            f"flagged {pct(self.flagged, self.total)}  "
            f"confident {pct(self.confident_agree, self.confident_total)}"
        )


def measure(folder: Path) -> Tally:
    labels = yaml.safe_load((folder / "labels.yaml").read_text())
    sub = folder / "submissions" if (folder / "submissions").is_dir() else folder
    t = Tally()
    for name, entry in sorted(labels.items()):
        result = grade_file(sub / name, entry["exercise"])[0]
        got = {c.id: c for c in result.criteria}
        for crit, want in entry["criteria"].items():
            if want is None or crit not in got:
                continue
            c = got[crit]
            t.total += 1
            t.flagged += c.review
            if not c.review:
                t.confident_total += 1
                t.confident_agree += c.passed == want
            if c.passed == want:
                t.agree += 1
                t.true_pass += want
                t.true_fail += not want
            else:
                t.false_pass += c.passed
                t.false_fail += not c.passed
    return t


def main(argv: list[str]) -> int:
    if argv:
        groups = {"given": [Path(a) for a in argv]}
    else:
        split = yaml.safe_load((LABELLED / "split.yaml").read_text())
        shared = ROOT.parent / "shared" / "examples"
        tuning = [shared] if shared.is_dir() else []
        tuning += [ROOT / "submissions"] + [LABELLED / s for s in split["tuning"]]
        groups = {
            "tuning": tuning,
            "held out": [LABELLED / s for s in split["held_out"] if (LABELLED / s).is_dir()],
        }
    for group, folders in groups.items():
        total = Tally()
        for folder in folders:
            t = measure(folder)
            total.add(t)
            print(t.row(folder.name if folder.name != "examples" else "shared/examples"))
        if folders:
            print(total.row(f"== {group}"))
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
