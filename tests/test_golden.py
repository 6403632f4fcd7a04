"""Golden files: each shipped report beside the JSON it grades to.

Run ``pytest tests/test_golden.py --update-golden`` after an intended change, and read the
diff of tests/golden/ before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from grader.grading import grade_file

ROOT = Path(__file__).resolve().parent.parent
LABELS = yaml.safe_load((ROOT / "submissions" / "labels.yaml").read_text())
REPORTS = sorted((ROOT / "submissions").glob("*.md"))
GOLDEN = Path(__file__).parent / "golden"


def _graded(path: Path) -> dict:
    result = grade_file(path, LABELS[path.name]["exercise"])[0].to_dict()
    result["submission"] = f"submissions/{path.name}"
    result["warnings"] = [w.replace(f"{ROOT}/", "") for w in result["warnings"]]
    return result


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.stem)
def test_golden(path: Path, request: pytest.FixtureRequest):
    golden = GOLDEN / f"{path.stem}.json"
    got = _graded(path)
    if request.config.getoption("--update-golden"):
        golden.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n")
    assert golden.exists(), f"no golden file; run pytest --update-golden and review {golden}"
    assert got == json.loads(golden.read_text())
