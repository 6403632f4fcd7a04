"""What a learner reads: grade show and grade template say what the course says, no more."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_run import grade

ROOT = Path(__file__).resolve().parent.parent
FIELD_WORDS = ("workload", "hardware", "top cuda", "top cpu", "orchestration", "next experiment")


def test_part_c_template_does_not_give_the_field_names_away():
    result = grade("template", "partC")
    assert result.exit_code == 0
    out = result.stdout.lower()
    for word in FIELD_WORDS:
        assert word not in out, word
    assert "from memory" in out


def test_a_blank_part_c_template_fails_the_names_from_memory(tmp_path: Path):
    path = tmp_path / "c.md"
    path.write_text(grade("template", "partC").stdout)
    data = json.loads(grade(str(path), "-e", "partC", "-f", "json").stdout)
    names = next(c for c in data["criteria"] if c["id"] == "field-names-exact")
    assert names["passed"] is False


@pytest.mark.parametrize("exercise", ["partA", "partB"])
def test_other_templates_still_list_the_fields(exercise: str):
    out = grade("template", exercise).stdout
    assert "Top CPU / orchestration cost: " in out and "Next experiment: " in out
