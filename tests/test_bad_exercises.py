"""Each bad exercise file names its expected message in its first line: ``# expect: ...``."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import GraderError
from grader.exercises import list_exercises, load_exercise
from tests.cli_run import grade

BAD = sorted((Path(__file__).parent / "bad_exercises").glob("*.yaml"))


def _expected(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: ")
    return first.removeprefix("# expect: ").replace("{file}", str(path))


def test_there_are_many_kinds_of_bad_file():
    assert len(BAD) >= 8


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_exercise_gives_one_clear_message(path: Path):
    with pytest.raises(GraderError) as info:
        load_exercise(path)
    assert str(info.value).startswith(_expected(path)), str(info.value)


@pytest.mark.parametrize("path", BAD[:4], ids=lambda p: p.stem)
def test_cli_prints_the_message_and_exits_2_without_traceback(path: Path):
    result = grade("analyze", str(path))
    assert result.exit_code == 2
    assert _expected(path) in result.output
    assert "Traceback" not in result.output


def test_duplicate_ids_in_a_folder(tmp_path: Path):
    src = Path(__file__).parent.parent / "exercises" / "partB.yaml"
    (tmp_path / "one.yaml").write_text(src.read_text())
    (tmp_path / "two.yaml").write_text(src.read_text())
    with pytest.raises(GraderError, match=r"two.yaml::\$.id: duplicate exercise id 'partB'"):
        list_exercises(tmp_path)


def test_unknown_exercise_lists_the_known_ones():
    result = grade("analyze", "partZ")
    assert result.exit_code == 2
    assert "unknown exercise 'partZ'" in result.output
    assert "partA, partB, partC" in result.output


def test_missing_file():
    result = grade("show", "nowhere/ex.yaml")
    assert result.exit_code == 2
    assert "nowhere/ex.yaml: no such file" in result.output
