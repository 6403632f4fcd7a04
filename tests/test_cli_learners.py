"""What a learner reads: grade show and grade template say what the course says, no more."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli_run import grade

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT.parent / "shared" / "seeds" / "002_985c7f124291412e.txt"
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


def _course_section(title: str, following: str) -> str:
    text = COURSE.read_text()
    return text.split(f"\n{title}\n", 1)[1].split(f"\n{following}\n", 1)[0].strip()


@pytest.mark.skipif(not COURSE.exists(), reason="../shared is not present")
def test_show_part_a_has_the_course_acceptance_criteria_and_debrief():
    out = grade("show", "partA").stdout
    acceptance = _course_section("Acceptance criteria", "Stretch")
    assert acceptance.startswith("A good answer:")
    items = re.findall(r"^\d\. (.+)$", acceptance, re.MULTILINE)
    assert len(items) == 4
    shown = " ".join(out.split("Acceptance criteria", 1)[1].split())  # as one line
    assert shown.startswith("A good answer: 1. ")
    for n, item in enumerate(items, 1):
        assert f" {n}. {item}" in shown
    debrief = _course_section("Debrief", "Part B — A second table, opposite smell")
    assert shown.endswith(f"Debrief: {debrief}")
    # In the course's order: acceptance criteria, stretch, debrief.
    assert out.index("Acceptance criteria") < out.index("Stretch:") < out.index("Debrief:")


def test_show_part_c_says_it_has_no_table_and_what_the_run_states():
    result = grade("show", "partC")
    assert result.exit_code == 0
    out = result.stdout
    assert "CUDA total" not in out and "aten::matmul" not in out  # no made-up table
    assert "Profiler table: none" in out
    assert "The fake run states only that aten::copy_ is 61% of CUDA time on a 7B decode" in (
        " ".join(out.split())
    )


def test_show_part_b_still_shows_its_table():
    out = grade("show", "partB").stdout
    assert "Profiler table:" in out and "Python decode loop" in out
    assert "Acceptance criteria" not in out and "Debrief" not in out  # the course has none
