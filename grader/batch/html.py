"""A self-contained class report: inline SVG charts, no scripts, no network.

Its title names the exercises and the date (``SOURCE_DATE_EPOCH`` fixes the date for
reproducible files).  Each exercise has its own figures and charts; then come the verdicts
flagged for review (one criterion at a time), what overrides changed, the reports that
look copied, the warnings, every graded part, and each student's total.
"""

from __future__ import annotations

import datetime as dt
import os
from html import escape

from grader.batch.exports import row_warnings
from grader.batch.names import shown
from grader.batch.outputs import Findings
from grader.batch.run import Row
from grader.batch.students import display_names, student_key
from grader.batch.summary import BIN_LABELS, LETTER_ORDER, ExerciseSummary, Summary

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:960px;color:#1d2433}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2.2rem}h3{font-size:1.05rem}
table{border-collapse:collapse;width:100%}td,th{padding:.3rem .5rem;border-bottom:1px solid #dde}
th{text-align:left}td.num{text-align:right}.err{color:#a4262c}.muted{color:#667}
blockquote{margin:.2rem 0;color:#555;font-style:italic}.stats span{margin-right:1.5rem}
"""


def _t(text: str) -> str:
    """Text from a report or a file name, escaped for HTML and shown faithfully."""
    return escape(shown(text))


def _evidence(line: int | None, text: str) -> str:
    """A line of the report, quoted; or, when no line decided, what the grader looked for,
    not dressed as a quote."""
    if line is None:
        return f"<span class=muted>{_t(text)}</span>"
    return f"<blockquote>{_t(text)}</blockquote>"


def run_date() -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.UTC).date().isoformat()
    return dt.date.today().isoformat()


def _histogram(e: ExerciseSummary) -> str:
    counts = e.histogram()
    top = max(counts) or 1
    left, bar_w, height = 50, 56, 160
    width = left + bar_w * len(BIN_LABELS) + 10
    parts = [
        f'<svg role="img" aria-label="score histogram of {escape(e.exercise)}" width="{width}" '
        f'height="{height + 74}" xmlns="http://www.w3.org/2000/svg">',
        f'<line x1="{left - 4}" y1="20" x2="{left - 4}" y2="{height + 20}" stroke="#889"/>',
        f'<text x="14" y="{height / 2 + 20}" font-size="12" text-anchor="middle" '
        f'transform="rotate(-90 14 {height / 2 + 20})">parts</text>',
        f'<text x="{left + bar_w * len(BIN_LABELS) / 2}" y="{height + 66}" font-size="12" '
        f'text-anchor="middle">score (out of 100)</text>',
    ]
    for i, (label, n) in enumerate(zip(BIN_LABELS, counts, strict=True)):
        h = round(height * n / top)
        x = left + i * bar_w
        mid = x + (bar_w - 8) / 2
        parts.append(
            f'<rect x="{x}" y="{height - h + 20}" width="{bar_w - 8}" height="{h}" '
            f'fill="#3b6fd4"><title>{label}: {n}</title></rect>'
            f'<text x="{mid}" y="{height + 36}" font-size="11" text-anchor="middle">{label}</text>'
            f'<text x="{mid}" y="{height - h + 16}" font-size="11" text-anchor="middle">{n}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _pass_rates(e: ExerciseSummary) -> str:
    rows = list(e.criteria.values())
    row_h, label_w, bar_w = 24, 300, 420
    height = row_h * len(rows) + 40
    parts = [
        f'<svg role="img" aria-label="pass rate per criterion of {escape(e.exercise)}" '
        f'width="{label_w + bar_w + 70}" height="{height}" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="{label_w + bar_w / 2}" y="{height - 6}" font-size="12" text-anchor="middle">'
        f"pass rate (share of {e.parts} parts that pass)</text>",
    ]
    for i, c in enumerate(rows):
        y = 5 + i * row_h
        w = round(bar_w * c.rate)
        parts.append(
            f'<text x="{label_w - 8}" y="{y + 15}" font-size="12" text-anchor="end">'
            f"{escape(c.id)}</text>"
            f'<rect x="{label_w}" y="{y + 3}" width="{bar_w}" height="16" fill="#e8ecf5"/>'
            f'<rect x="{label_w}" y="{y + 3}" width="{w}" height="16" fill="#2e8b57">'
            f"<title>{c.passed}/{c.total}</title></rect>"
            f'<text x="{label_w + bar_w + 6}" y="{y + 15}" font-size="12">{c.rate:.0%}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _exercise_section(e: ExerciseSummary) -> str:
    letters = " ".join(f"{k}: {e.letters.get(k, 0)}" for k in LETTER_ORDER)
    missed = "".join(
        f"<tr><td>{escape(c.id)}</td><td class=num>{c.rate:.0%}</td>"
        f"<td>{_evidence(*c.typical_failure())}</td></tr>"
        for c in e.most_missed()
    )
    return f"""<h2>{escape(e.exercise)}: {e.parts} part{"s" if e.parts != 1 else ""}</h2>
<p class=stats><span>mean {e.mean:g}</span><span>median {e.median:g}</span>
<span>{letters}</span></p>
<h3>Score distribution</h3>
{_histogram(e)}
<h3>Pass rate per criterion</h3>
{_pass_rates(e)}
<h3>Most missed criteria</h3>
<table><tr><th>criterion</th><th>pass rate</th><th>a typical failing line</th></tr>{missed}</table>
"""


def _warnings(rows: list[Row]) -> str:
    """The warnings of every part and the batch's notes on files, as a counted section."""
    items = []
    for row in rows:
        found = [*row_warnings(row), *(w for r in row.results for w in row_warnings(row, r))]
        items += [
            f"<tr><td>{_t(row.student)}</td><td>{_t(row.file)}</td><td>{_t(w)}</td></tr>"
            for w in dict.fromkeys(found)
        ]
    if not items:
        return "<h2>Warnings (0)</h2>\n<p class=muted>No warnings.</p>"
    return (
        f"<h2>Warnings ({len(items)})</h2>\n"
        "<table><tr><th>student</th><th>file</th><th>warning</th></tr>"
        + "".join(items)
        + "</table>"
    )


def _parts_table(rows: list[Row]) -> str:
    out = []
    for row in rows:
        who = f"<td>{_t(row.student)}</td><td>{_t(row.file)}</td>"
        if row.error:
            out.append(
                f"<tr>{who}<td></td><td></td><td></td><td></td>"
                f"<td class=err>{_t(row.error)}</td></tr>"
            )
        for r in row.results:
            counted = "yes" if row.counted(r) else "no (a later file counts)"
            auto = ""
            if r.overridden:
                auto = f" <span class=muted>(grader: {r.data()['auto']['score']:g})</span>"
            out.append(
                f"<tr>{who}<td>{escape(r.exercise)}</td><td class=num>{r.score:g}{auto}</td>"
                f"<td>{r.grade}</td><td>{counted}</td><td></td></tr>"
            )
    return (
        "<table><tr><th>student</th><th>file</th><th>exercise</th><th>score</th><th>grade</th>"
        "<th>counted</th><th>error</th></tr>\n" + "\n".join(out) + "</table>"
    )


def _totals_table(rows: list[Row], summary: Summary) -> str:
    parts: dict[str, list[str]] = {}
    for row in rows:
        own = parts.setdefault(student_key(row.student), [])
        own += [r.exercise for r in row.results if row.counted(r)]
    names = display_names(rows)
    body = "".join(
        f"<tr><td>{_t(names[key])}</td><td>{escape(', '.join(sorted(own)))}</td>"
        f"<td class=num>{summary.totals[key]:g}</td></tr>"
        for key, own in parts.items()
        if key in summary.totals
    )
    return (
        "<table><tr><th>student</th><th>parts counted</th><th>total</th></tr>" + body + "</table>"
    )


def render_html(rows: list[Row], summary: Summary, findings: Findings | None = None) -> str:
    exercises = ", ".join(summary.exercises) or "no part graded"
    title = f"Class report: {exercises}, {run_date()}"
    sections = "".join(_exercise_section(e) for e in summary.exercises.values())
    from grader.batch.html_review import overrides_section, review_queue, similar_section

    flagged = summary.flagged
    findings = findings or Findings()
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<style>{STYLE}</style></head><body>
<h1>{escape(title)}</h1>
<p class=stats><span>{summary.files} files: {summary.graded} graded, {summary.failed} could not
be graded</span><span>{summary.parts} parts counted</span>
<span>{summary.not_counted} not counted (a later submission replaces it)</span></p>
{sections}
<h2>Flagged for review ({flagged})</h2>
{review_queue(rows)}
{overrides_section(rows, findings)}
{similar_section(findings)}
{_warnings(rows)}
<h2>Graded parts</h2>
{_parts_table(rows)}
<h2>Student totals</h2>
{_totals_table(rows, summary)}
</body></html>
"""
