"""Authors' files, fuzzed: every exercise YAML and every table text ends in a result or in
one GraderError (a message with its place), never another exception, and a result always
serializes to strict JSON (no Infinity or NaN)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.analyzer import analyze
from grader.errors import GraderError
from grader.exercises import load_exercise
from grader.reporters.exercise_text import render_analysis, render_table
from grader.tables import Table, parse_table

ROOT = Path(__file__).resolve().parent.parent
PART_B = (ROOT / "exercises" / "partB.yaml").read_text()
KA_HEADER = (ROOT / "tests" / "data" / "partA_key_averages.txt").read_text().splitlines()[:3]

CELLS = st.sampled_from(
    [
        "0 ms", "38.4 ms", "512.000us", "1.203s", "-3 ms", "1e999 ms", "1e300 s", "nan ms",
        "inf ms", "1e-300 us", "0 B", "2.80 Gb", "12 MiB", "1e300 GiB", "-1.5 GB", "unknown",
        "?", "", " ", "240", "²", "٣", "9" * 30, "1,024", "many", "aten::copy_",
        "tokenizer.encode", "ncclDevKernel_AllReduce", "Python decode loop", "|", "---",
        "Self CUDA time total: 1ms", "  ", "\t", "aten::a  b",
    ]
)  # fmt: skip
ROW = st.lists(CELLS, min_size=0, max_size=16)
HEADERS = st.sampled_from(
    [
        ["op\tCUDA total\tCPU total\tcalls\tmemory"],
        ["| op | CUDA total | CPU total | calls | memory |", "|---|---:|---:|---:|---:|"],
        KA_HEADER,
        ["====", "title", "====", *KA_HEADER],
        [],
    ]
)
SEPARATORS = st.sampled_from(["\t", "  ", " | ", "   ", "\t\t"])


@st.composite
def table_texts(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(
            st.text(alphabet=st.sampled_from(list("ab:_|-\t \n.0123456789msuBGie²")), max_size=300)
        )
    sep = draw(SEPARATORS)
    lines = list(draw(HEADERS))
    for cells in draw(st.lists(ROW, max_size=8)):
        line = sep.join(cells)
        lines.append(f"| {line} |" if sep == " | " else line)
    if draw(st.booleans()):
        lines += [
            KA_HEADER[0],
            draw(st.sampled_from(["Self CPU time total: 2ms", "Self CUDA time total: x"])),
        ]
    return "\n".join(lines)


def _strict_json(table: Table) -> None:
    a = analyze(table)
    json.dumps(a.to_dict(), allow_nan=False)
    render_table(table)


@settings(max_examples=300, deadline=None)
@given(text=table_texts())
def test_any_table_text_gives_a_table_or_one_error(text: str):
    try:
        table = parse_table(text, "fuzz.txt")
    except GraderError as exc:
        assert str(exc).startswith("fuzz.txt")
        return
    _strict_json(table)


FRAGMENTS = st.sampled_from(
    [
        "1", "-1", "0x1F", "1_000", "190:20:30", "9" * 150, "1e999", "1.0e999", ".inf", "-.inf",
        ".nan", "2024-01-01", "2024-01-01T10:00:00", "true", "null", "~", "'quoted'", '"a\\tb"',
        "[a, b]", "{a: 1}", "[[[[]]]]", "&x [1, 2]", "*x", "!!binary aGVsbG8=",
        "!!python/object:os.system x",
        "|\n  block", ">\n  folded", "'2024-01-01'", "[*x, *x]", "{? [a, b] : c}", "- a\n- b",
        "1: one", "? [a]\n: b", "<<: {a: 1}", "\"\\x00\"", "@", "`", "%", "{", "]",
    ]
)  # fmt: skip
KEYS = st.sampled_from(
    ["id", "title", "prompt", "hardware", "table", "workload", "batch", "model", "rubric", "extra"]
)


@st.composite
def exercise_texts(draw: st.DrawFn) -> str:
    text = PART_B
    for _ in range(draw(st.integers(1, 3))):
        key = draw(KEYS)
        fragment = draw(FRAGMENTS | st.text(max_size=40))
        how = draw(st.sampled_from(["replace", "add_top", "add_workload", "table_cell"]))
        if how == "replace" and f"\n{key}:" in text:
            start = text.index(f"\n{key}:") + len(key) + 2
            end = text.find("\n", start)
            text = text[:start] + " " + fragment.replace("\n", "\n  ") + text[end:]
        elif how == "add_workload":
            text = text.replace("  phase: decode\n", f"  phase: decode\n  {key}: {fragment}\n")
        elif how == "table_cell":
            text = text.replace("\t240\t", f"\t{fragment.splitlines()[0] if fragment else ''}\t", 1)
        else:
            text = f"{key}_x: {fragment}\n" + text
    return text


@pytest.fixture(scope="module")
def cache_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=exercise_texts())
def test_any_exercise_yaml_gives_an_exercise_or_one_error(
    text: str, tmp_path: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache_home))
    path = tmp_path / "fuzz.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        ex = load_exercise(path)
    except GraderError as exc:
        assert str(exc).startswith(str(path))
        return
    json.dumps(ex.workload, allow_nan=False, sort_keys=True, default=str)
    render_analysis(ex, analyze(ex.table))
    _strict_json(ex.table)
