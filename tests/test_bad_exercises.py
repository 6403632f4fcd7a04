"""Each bad exercise file names its expected message in its first line: ``# expect: ...``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader import yamlload
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


PART_B = Path(__file__).parent.parent / "exercises" / "partB.yaml"


def test_an_integer_of_5000_digits_is_one_message(tmp_path: Path):
    path = tmp_path / "big.yaml"
    path.write_text(PART_B.read_text().replace("batch: 1", "batch: " + "9" * 5000))
    with pytest.raises(GraderError) as info:
        load_exercise(path)
    assert str(info.value) == (
        f"{path}::$.workload.batch (line 25): an integer of 5,000 characters is too long "
        "(at most 100)"
    )


@pytest.mark.parametrize("name", ["infinite_time", "huge_memory", "alias_bomb", "integer_key"])
def test_cli_json_never_sees_the_bad_values(name: str):
    """Exit 2 with the message, never a traceback or JSON holding Infinity."""
    path = Path(__file__).parent / "bad_exercises" / f"{name}.yaml"
    result = grade("analyze", str(path), "--format", "json")
    assert result.exit_code == 2, result.output
    assert _expected(path) in result.output
    assert "Infinity" not in result.output and "Traceback" not in result.output


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(yamlload, "_LOADED", {})  # files read in this process, read again
    return tmp_path / "cache" / "triage-grader" / "valid"


def test_a_date_is_not_cached_as_the_string_it_prints_as(tmp_path: Path, cache: Path):
    text, title = PART_B.read_text(), 'title: "A second table, opposite smell"'
    quoted = tmp_path / "quoted.yaml"
    quoted.write_text(text.replace(title, 'title: "2024-01-01"'))
    date = tmp_path / "date.yaml"
    date.write_text(text.replace(title, "title: 2024-01-01"))
    load_exercise(quoted)
    assert len(list(cache.iterdir())) == 1
    with pytest.raises(GraderError, match=r"date.yaml::\$.title \(line 3\): .* is not of type"):
        load_exercise(date)


def test_the_cache_remembers_only_fully_valid_files(tmp_path: Path, cache: Path):
    bad_table = tmp_path / "bad_table.yaml"
    bad_table.write_text(PART_B.read_text().replace("\t240\t0 B", "\tmany\t0 B", 1))
    for _ in range(2):  # the same message fresh and on a second run
        with pytest.raises(GraderError, match="expected a whole number of calls"):
            load_exercise(bad_table)
    assert not cache.exists() or not list(cache.iterdir())
    load_exercise(PART_B)
    assert len(list(cache.iterdir())) == 1


def test_a_changed_byte_is_a_new_file(tmp_path: Path, cache: Path):
    path = tmp_path / "ex.yaml"
    path.write_text(PART_B.read_text())
    load_exercise(path)
    path.write_text(PART_B.read_text().replace("batch: 1", "batch: 0"))
    with pytest.raises(GraderError, match=r"\$.workload.batch .*less than the minimum"):
        load_exercise(path)


def test_readme_says_where_the_cache_lives_and_how_to_clear_it(root: Path):
    readme = (root / "README.md").read_text()
    assert "$XDG_CACHE_HOME/triage-grader/valid/" in readme
    assert "rm -rf ~/.cache/triage-grader" in readme


def _exercise_outside_rubrics(tmp_path: Path, rubric: str | None) -> Path:
    text = PART_B.read_text().replace("id: partB", "id: myrun")
    if rubric is not None:
        text += f"rubric: {rubric}\n"
    path = tmp_path / "myrun.yaml"
    path.write_text(text)
    return path


def test_an_exercise_outside_rubrics_names_its_own_rubric(tmp_path: Path):
    from grader.rubric import rubric_for

    (tmp_path / "myrun.rubric.yaml").write_text(
        "exercise: myrun\ncriteria:\n  - id: five-fields\n    points: 10\n"
        "    feedback: {pass: ok, fail: missing}\n    hint: write all five\n"
    )
    ex = load_exercise(_exercise_outside_rubrics(tmp_path, "myrun.rubric.yaml"))
    assert ex.rubric_path == tmp_path / "myrun.rubric.yaml"
    assert [c.id for c in rubric_for(ex.id, own=ex.rubric_path).criteria] == ["five-fields"]
    report = Path(__file__).parent.parent / "submissions" / "s-b01.md"
    result = grade(str(report), "--exercise", str(ex.path), "--format", "json")
    assert result.exit_code == 0, result.output
    assert [c["id"] for c in json.loads(result.stdout)["criteria"]] == ["five-fields"]


def test_without_a_rubric_key_an_exercise_is_graded_by_the_default_rubric(tmp_path: Path):
    from grader.rubric import rubric_for

    ex = load_exercise(_exercise_outside_rubrics(tmp_path, None))
    assert rubric_for(ex.id, own=ex.rubric_path).exercise == "default"
    result = grade("analyze", str(ex.path))
    assert result.exit_code == 0 and result.stdout.startswith("myrun: overhead-bound")


def test_a_missing_own_rubric_is_named_with_its_yaml_path(tmp_path: Path):
    path = _exercise_outside_rubrics(tmp_path, "nowhere.yaml")
    with pytest.raises(GraderError, match=r"myrun.yaml::\$.rubric \(line \d+\): no rubric file"):
        load_exercise(path)


def test_readme_gives_the_path_form_and_the_own_rubric(root: Path):
    readme = (root / "README.md").read_text()
    assert "--out exercises/myrun.yaml" in readme
    assert "grade analyze exercises/myrun.yaml" in readme
    assert "rubric: myrun.rubric.yaml" in readme
    assert "grade analyze myrun\n" not in readme and "grade analyze myrun`" not in readme
