"""Hostile and odd traces (issue 12, items 13, 16, 17): every input ends in an exercise that
loads or in one message naming the trace (exit 2), and --out never leaves a broken file."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.errors import GraderError
from grader.exercises import load_exercise
from grader.traces.exercise import render_exercise
from grader.traces.link import link_kernels
from grader.traces.reader import read_trace
from grader.traces.report import breakdown
from grader.traces.table import op_table
from tests.cli_run import grade
from tests.trace_synth import synth_trace


def _base() -> dict[str, Any]:
    return synth_trace(1, 1, 2)


def _set(path: str, value: Any) -> dict[str, Any]:
    """The small synthetic trace with one field of its first op, launch and kernel replaced."""
    data = _base()
    where, _, key = path.rpartition(".")
    for target in data["traceEvents"][:3]:
        (target.setdefault("args", {}) if where == "args" else target)[key] = value
    return data


def _deep(depth: int) -> str:
    """The small trace with 'args' nested ``depth`` deep (JSON text: json.dumps cannot)."""
    text = json.dumps(_base())
    return text.replace(
        '"args": {', '"args": {"deep": ' + '{"x": ' * depth + "1" + "}" * depth + ", ", 1
    )


def _annotated(name: str) -> dict[str, Any]:
    data = _base()
    data["traceEvents"].append(
        {"ph": "X", "cat": "user_annotation", "name": name, "pid": 1, "tid": 1, "ts": 999.0,
         "dur": 1e6, "args": {}}
    )  # fmt: skip
    return data


def _op_named(name: str) -> dict[str, Any]:
    data = _base()
    for e in data["traceEvents"]:
        if e["cat"] == "cpu_op":
            e["name"] = name
    return data


def _no_ops() -> dict[str, Any]:
    data = _base()
    data["traceEvents"] = [e for e in data["traceEvents"] if e["cat"] != "cpu_op"]
    return data


# Item 16: the inputs that gave tracebacks, as raw text where JSON cannot say them.
HOSTILE: dict[str, Any] = {
    "pid-list": _set("pid", [1]),
    "pid-dict": _set("pid", {"a": 1}),
    "tid-list": _set("tid", [7]),
    "tid-dict": _set("tid", {}),
    "correlation-list": _set("args.correlation", [1]),
    "correlation-dict": _set("args.correlation", {"id": 1}),
    "external-id-list": _set("args.External id", [1]),
    "external-id-dict": _set("args.External id", {}),
    "bytes-lots": _set("args.bytes", "lots"),
    "bytes-dict": _set("args.bytes", {}),
    "batch-5000-digits": _annotated("step[DECODE bs=" + "9" * 5000 + "]"),
    "negative-dur": _set("dur", -5.0),
    "op-newline": _op_named("aten::mm\ndebrief: x"),
    "op-two-spaces": _op_named("aten::mm  evil   name"),
    "op-control": _op_named("aten::mm\x07\x1b[2J\x00"),
    "kernels-without-ops": _no_ops(),
}
RAW = {
    "args-1000-deep": _deep(1000),
    "ts-401-digits": '{"traceEvents":[{"ph":"X","cat":"kernel","name":"k","ts":'
    + "9" * 401
    + ',"dur":1}]}',
    "bytes-infinity": '{"traceEvents":[{"ph":"X","cat":"gpu_memcpy","name":"m","ts":1,"dur":1,'
    '"args":{"bytes":Infinity}}]}',
    "dur-nan": '{"traceEvents":[{"ph":"X","cat":"kernel","name":"k","ts":1,"dur":NaN}]}',
    "dur-huge": '{"traceEvents":[{"ph":"X","cat":"kernel","name":"k","ts":1,"dur":1e999}]}',
}


def _check_import(tmp_path: Path, trace: Path) -> None:
    out = tmp_path / "out" / "ex.yaml"
    result = grade("import-trace", str(trace), "--out", str(out))
    assert "Traceback" not in result.output, result.output  # an exception would propagate
    if result.exit_code == 0:
        load_exercise(out)  # what was written loads
    else:
        assert result.exit_code == 2, result.output
        assert str(trace) in result.output
        assert not out.exists()  # nothing broken left behind
        assert not out.parent.exists() or not list(out.parent.glob(".*.tmp"))


@pytest.mark.parametrize("case", sorted(HOSTILE) + sorted(RAW))
def test_hostile_traces_end_in_an_exercise_or_one_message(tmp_path, case):
    trace = tmp_path / f"{case}.json"
    text = RAW[case] if case in RAW else json.dumps(HOSTILE[case])
    trace.write_text(text)
    _check_import(tmp_path, trace)
    report = grade("import-trace", str(trace), "--report")
    assert report.exit_code in (0, 2) and "Traceback" not in report.output, report.output


def test_op_names_are_made_one_cell(tmp_path):
    for case in ("op-newline", "op-two-spaces", "op-control"):
        path = tmp_path / f"{case}.json"
        path.write_text(json.dumps(HOSTILE[case]))
        out = tmp_path / f"{case}.yaml"
        assert grade("import-trace", str(path), "--out", str(out)).exit_code == 0
        names = {r.name for r in load_exercise(out).table.rows}
        assert any(n.startswith("aten::mm") for n in names), names
        assert all(n.isprintable() and "  " not in n for n in names)


def test_a_trace_name_cannot_add_keys_to_the_exercise(tmp_path):
    """Item 13: the source name is written escaped, in the comment and every value."""
    trace = tmp_path / "run\ndebrief: INJECTED\n#.json"
    trace.write_text(json.dumps(_base()))
    out = tmp_path / "ex.yaml"
    result = grade("import-trace", str(trace), "--out", str(out))
    assert result.exit_code == 0, result.output
    ex = load_exercise(out)
    assert ex.debrief == "" and "INJECTED" not in out.read_text().split("\n")[1]
    assert '"run\\ndebrief: INJECTED\\n#.json"' in out.read_text().splitlines()[0]


def test_an_invalid_exercise_is_refused_before_writing(tmp_path, monkeypatch):
    """Item 16: validate before writing, name the trace, leave the old file alone."""
    trace = tmp_path / "t.json"
    trace.write_text(json.dumps(_base()))
    out = tmp_path / "ex.yaml"
    out.write_text("old\n")
    monkeypatch.setattr("grader.traces.exercise.render_exercise", lambda *a: "id: 1\ntable: 2\n")
    result = grade("import-trace", str(trace), "--out", str(out))
    assert result.exit_code == 2 and str(trace) in result.output
    assert "does not validate" in result.output
    assert out.read_text() == "old\n"


# Item 17: inputs that were quadratic.  The bounds are many times what the fixed code takes
# and far below what the quadratic code took (32.6 s for the ranges).


def test_many_same_name_ranges_are_one_pass(tmp_path):
    data = _base()
    data["traceEvents"] += [
        {"ph": "X", "cat": "user_annotation", "name": "tokenize", "pid": 1, "tid": 2,
         "ts": 10.0 + 3 * i, "dur": 1.0 + (i % 2), "args": {}}
        for i in range(20_000)
    ]  # fmt: skip
    path = tmp_path / "ranges.json"
    path.write_text(json.dumps(data))
    trace = read_trace(path)
    start = time.perf_counter()
    table, _ = op_table(trace, link_kernels(trace))
    assert time.perf_counter() - start < 3.0
    assert next(r for r in table.rows if r.name == "tokenize").calls == 20_000


def test_many_steps_are_all_recovered(tmp_path):
    """Steps are cut once (layers.py scanned every break for each layer; its time is in
    bench/trace_worst.py)."""
    path = tmp_path / "steps.json"
    path.write_text(json.dumps(synth_trace(0, 1500, 2, annotate=True)))
    b = breakdown(link_kernels(read_trace(path)))
    assert (b["decode_rounds"], b["layers_per_round"], b["steps"]) == (1500, 2, 1500)


# A fuzz test over trace events: whatever the events, a result or one GraderError.

_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
_value = st.recursive(
    _scalar,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
_field = st.sampled_from(
    ["ph", "cat", "name", "ts", "dur", "pid", "tid", "args.correlation", "args.External id",
     "args.grid", "args.block", "args.bytes", "args.device", "args.stream"]
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.integers(0, 40), _field, _value), max_size=4))
def test_fuzzed_trace_events_end_in_a_result_or_one_message(tmp_path_factory, edits):
    data = synth_trace(1, 1, 2, annotate=True)
    events = data["traceEvents"]
    for index, path, value in edits:
        event = events[index % len(events)]
        where, _, key = path.rpartition(".")
        target = event.setdefault("args", {}) if where == "args" else event
        if not isinstance(target, dict):
            continue
        target[key] = value
    trace = tmp_path_factory.mktemp("fuzz") / "t.json"
    trace.write_text(json.dumps(data))
    try:
        parsed = read_trace(trace)
        kernels = link_kernels(parsed)
        breakdown(kernels)
        render_exercise(parsed, "fuzz", trace)
    except GraderError as exc:
        assert str(trace) in str(exc)
