"""A self-contained class report: inline SVG charts, no scripts, no network."""

from __future__ import annotations

from html import escape

from grader.batch.run import Row
from grader.batch.summary import BINS, LETTER_ORDER, Summary

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:960px;color:#1d2433}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}td,th{padding:.3rem .5rem;border-bottom:1px solid #dde}
th{text-align:left}td.num{text-align:right}.err{color:#a4262c}
blockquote{margin:.2rem 0;color:#555;font-style:italic}.stats span{margin-right:1.5rem}
"""


def _histogram(summary: Summary) -> str:
    counts = summary.histogram()
    top = max(counts) or 1
    bar_w, height = 56, 160
    parts = [
        f'<svg role="img" aria-label="score histogram" width="{bar_w * len(BINS) + 20}" '
        f'height="{height + 50}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for i, (b, n) in enumerate(zip(BINS, counts, strict=True)):
        h = round(height * n / top)
        x = 10 + i * bar_w
        parts.append(
            f'<rect x="{x}" y="{height - h + 20}" width="{bar_w - 8}" height="{h}" '
            f'fill="#3b6fd4"><title>{b}-{b + 9 if b < 90 else 100}: {n}</title></rect>'
        )
        parts.append(
            f'<text x="{x + (bar_w - 8) / 2}" y="{height + 36}" font-size="11" '
            f'text-anchor="middle">{b}</text>'
        )
        parts.append(
            f'<text x="{x + (bar_w - 8) / 2}" y="{height - h + 16}" font-size="11" '
            f'text-anchor="middle">{n}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _pass_rates(summary: Summary) -> str:
    rows = list(summary.criteria.values())
    row_h, label_w, bar_w = 24, 300, 420
    parts = [
        f'<svg role="img" aria-label="pass rate per criterion" width="{label_w + bar_w + 70}" '
        f'height="{row_h * len(rows) + 10}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for i, c in enumerate(rows):
        y = 5 + i * row_h
        w = round(bar_w * c.rate)
        parts.append(
            f'<text x="{label_w - 8}" y="{y + 15}" font-size="12" text-anchor="end">'
            f"{escape(c.id)}</text>"
        )
        parts.append(
            f'<rect x="{label_w}" y="{y + 3}" width="{bar_w}" height="16" fill="#e8ecf5"/>'
        )
        parts.append(
            f'<rect x="{label_w}" y="{y + 3}" width="{w}" height="16" fill="#2e8b57">'
            f"<title>{c.passed}/{c.total}</title></rect>"
        )
        parts.append(
            f'<text x="{label_w + bar_w + 6}" y="{y + 15}" font-size="12">{c.rate:.0%}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def render_html(rows: list[Row], summary: Summary, title: str = "Class report") -> str:
    letters = " ".join(f"{k}: {summary.letters.get(k, 0)}" for k in LETTER_ORDER)
    missed = "".join(
        f"<tr><td>{escape(c.id)}</td><td class=num>{c.rate:.0%}</td>"
        f"<td><blockquote>{escape(c.typical_failure())}</blockquote></td></tr>"
        for c in summary.most_missed()
    )
    students = []
    for row in rows:
        if row.error:
            students.append(
                f"<tr><td>{escape(row.student)}</td><td>{escape(row.file)}</td>"
                f"<td></td><td></td><td></td><td class=err>{escape(row.error)}</td></tr>"
            )
        for r in row.results:
            students.append(
                f"<tr><td>{escape(row.student)}</td><td>{escape(row.file)}</td>"
                f"<td>{escape(r.exercise)}</td><td class=num>{r.score:g}</td>"
                f"<td>{r.grade}</td><td></td></tr>"
            )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<style>{STYLE}</style></head><body>
<h1>{escape(title)}</h1>
<p class=stats><span>{summary.graded} of {summary.reports} reports graded</span>
<span>{summary.failed} could not be graded</span><span>mean {summary.mean:g}</span>
<span>median {summary.median:g}</span><span>{letters}</span></p>
<h2>Score distribution</h2>
{_histogram(summary)}
<h2>Pass rate per criterion</h2>
{_pass_rates(summary)}
<h2>Most missed criteria</h2>
<table><tr><th>criterion</th><th>pass rate</th><th>a typical failing line</th></tr>{missed}</table>
<h2>Students</h2>
<table><tr><th>student</th><th>file</th><th>exercise</th><th>score</th><th>grade</th><th>error</th></tr>
{"".join(students)}</table>
</body></html>
"""
