"""Gradescope: results.json for one graded report, and the autograder's run step.

The format is Gradescope's autograder specification: top-level ``score``, ``output``,
``visibility``, ``stdout_visibility`` and ``tests``, each test with ``name``, ``score``,
``max_score``, ``status`` ("passed"/"failed"), ``output`` and ``visibility``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from grader.atomic import write_text

REVIEW = "Flagged for instructor review: the evidence for this verdict is partial or mixed."


def _test_name(c: dict[str, Any]) -> str:
    name = f"{c['id']}: {c['title']}"
    return name + " (bonus)" if c["bonus"] and "(bonus)" not in name.lower() else name


def results_json(result: dict[str, Any]) -> dict[str, Any]:
    tests = []
    flagged = 0
    for c in result["criteria"]:
        out = [c["feedback"]]
        if c["evidence"]["line"] is not None:
            out.append(f'Line {c["evidence"]["line"]}: "{c["evidence"]["text"]}"')
        elif c["evidence"]["text"]:
            out.append(c["evidence"]["text"])
        if c["hint"]:
            out.append(f"Hint: {c['hint']}")
        if "override" in c:
            auto = c["auto"]
            verdict = "passed" if auto["passed"] else "failed"
            was = f"{verdict}, {auto['points']:g}/{c['max_points']:g}"
            out.append(f"Changed by your instructor: {c['override']['note']} (automatic: {was})")
        elif c.get("review"):
            out.append(REVIEW)
            flagged += 1
        tests.append(
            {
                "name": _test_name(c),
                "score": c["points"],
                "max_score": 0 if c["bonus"] else c["max_points"],
                "status": "passed" if c["passed"] else "failed",
                "output": "\n".join(out),
                "visibility": "visible",
            }
        )
    summary = (
        f"{result['exercise']}: {result['score']:g}/100 ({result['grade']}). "
        f"Expected diagnosis: {result['bottleneck']['expected']}."
    )
    if "auto" in result:
        auto = result["auto"]
        summary += (
            f"\nYour instructor changed this grade; the automatic grader gave "
            f"{auto['score']:g}/100 ({auto['grade']})."
        )
        for a in result.get("adjustments", ()):
            summary += f"\nScore adjusted by {a['points']:+g}: {a['note']}"
    if flagged:
        summary += (
            f"\n{flagged} verdict{'s are' if flagged > 1 else ' is'} flagged for instructor review."
        )
    for w in result.get("warnings", []):
        summary += f"\nWarning: {w}"
    return {
        "score": result["score"],
        "output": summary,
        "visibility": "visible",
        "stdout_visibility": "visible",
        "tests": tests,
    }


def parts_results(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One results.json for a file's parts: every part's tests, named with their part, and
    the sum of the parts' scores."""
    if len(results) == 1:
        return results_json(results[0])
    each = [results_json(r) for r in results]
    return {
        "score": round(sum(r["score"] for r in results), 1),
        "output": "\n".join(d["output"] for d in each),
        "visibility": "visible",
        "stdout_visibility": "visible",
        "tests": [
            {**t, "name": f"{r['exercise']} {t['name']}"}
            for r, d in zip(results, each, strict=True)
            for t in d["tests"]
        ],
    }


def batch_results(row: Any) -> dict[str, Any]:
    """``grade batch --gradescope``: the results of the batch's one file (a ``Row``)."""
    if row.error:
        return error_results(row.error)
    return parts_results([g.data() for g in row.results])


def error_results(message: str) -> dict[str, Any]:
    return {
        "score": 0,
        "output": f"Your report could not be graded: {message}",
        "visibility": "visible",
        "stdout_visibility": "visible",
        "tests": [],
    }


def run(
    submission: Path, exercise: str, out: Path, time_limit: float | None = None
) -> dict[str, Any]:
    """Grade the report found in ``submission`` and write ``out``; never raises.  The
    report is graded in a worker process that gets ``time_limit`` seconds (default 10)."""
    from grader.batch.run import grade_all
    from grader.pick_report import pick_report

    choice = pick_report(submission)
    if choice.report is None:
        data = error_results("no .md or .txt file was found in the submission")
    else:
        row = next(grade_all([choice.report], exercise, 1, None, time_limit))
        if row.error:
            data = error_results(f"{choice.shown}: {row.error}")
        elif not row.results:
            data = error_results(f"{choice.shown}: nothing to grade")
        else:
            result = row.results[0].data()
            data = results_json(result)
            if not result["criteria"][0]["passed"] and any(
                "no field" in w for w in result.get("warnings", [])
            ):
                data["output"] = (
                    "No field of the five-line report (Workload, Hardware, Top CUDA time, "
                    "Top CPU / orchestration cost, Next experiment) was found.\n" + data["output"]
                )
    described = choice.describe()
    if described:
        data["output"] = described + "\n" + data["output"]
    write_text(out, json.dumps(data, indent=2) + "\n")
    return data


def main(argv: list[str] | None = None) -> int:
    """``python -m grader.gradescope EXERCISE SUBMISSION_DIR RESULTS_JSON`` (run_autograder)."""
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 3:
        print("usage: python -m grader.gradescope EXERCISE SUBMISSION_DIR RESULTS_JSON")
        return 2
    exercise, submission, out = args
    try:
        data = run(Path(submission), exercise, Path(out))
    except Exception as exc:  # noqa: BLE001 - Gradescope must always get a results.json
        data = error_results(f"internal error: {type(exc).__name__}: {exc}")
        write_text(Path(out), json.dumps(data, indent=2) + "\n")
    print(data["output"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
