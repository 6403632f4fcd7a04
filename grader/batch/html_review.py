"""The class report's sections for a second look: the review queue, one criterion at a
time; what instructors' overrides changed and which did not apply; reports that look
copied.  ``grader.batch.html`` places them in the page."""

from __future__ import annotations

from html import escape

from grader.batch.html import _evidence, _t
from grader.batch.outputs import Findings
from grader.batch.run import Row

SIMILAR_SHOWN = 500  # pairs listed in the HTML; the JSON lists every one


def review_queue(rows: list[Row]) -> str:
    """The flagged verdicts, one criterion at a time, with any override's decision."""
    from grader.overrides.queue import queue_items

    items = queue_items(rows)
    if not items:
        return "<p class=muted>No verdict was flagged for review.</p>"
    counts: dict[str, int] = {}
    for i in items:
        counts[i.criterion] = counts.get(i.criterion, 0) + 1
    per = ", ".join(f"{escape(cid)} {n}" for cid, n in counts.items())
    out = [
        "<p>The grader gave these verdicts on partial or mixed evidence: a person should read "
        "the line and confirm or change the verdict (<code>--review-csv</code> writes this "
        f"queue as a table to fill in). Per criterion: {per}.</p>"
    ]
    header = (
        "<table><tr><th>student</th><th>file</th><th>exercise</th><th>criterion</th>"
        "<th>line</th><th>deciding line</th><th>verdict</th><th>decision</th></tr>"
    )
    current = None
    for i in items:
        if i.criterion != current:
            if current is not None:
                out.append("</table>")
            current = i.criterion
            out.append(f"<h3>{escape(i.criterion)} ({counts[i.criterion]})</h3>{header}")
        where = f"line {i.line}" if i.line is not None else ""
        out.append(
            f"<tr><td>{_t(i.student)}</td><td>{_t(i.file)}</td>"
            f"<td>{escape(i.exercise)}</td><td>{escape(i.criterion)}</td><td>{where}</td>"
            f"<td>{_evidence(i.line, i.text)}</td>"
            f"<td>{'passed' if i.passed else 'failed'}</td><td>{_t(i.decision)}</td></tr>"
        )
    out.append("</table>")
    return "".join(out)


def overrides_section(rows: list[Row], findings: Findings) -> str:
    """What overrides changed, beside what the grader said; and those not applied."""
    from grader.batch.exports import override_notes

    changed = [
        f"<tr><td>{_t(row.student)}</td><td>{_t(row.file)}</td><td>{escape(r.exercise)}</td>"
        f"<td class=num>{r.score:g}</td><td class=num>{data['auto']['score']:g}</td>"
        f"<td>{'<br>'.join(_t(n) for n in override_notes(data))}</td></tr>"
        for row in rows
        for r in row.results
        if r.overridden and row.counted(r)
        for data in [r.data()]
    ]
    stale = findings.stale or []
    if not changed and findings.stale is None:
        return ""
    out = [f"<h2>Overrides ({len(changed)} parts changed, {len(stale)} not applied)</h2>"]
    if changed:
        out.append(
            "<table><tr><th>student</th><th>file</th><th>exercise</th><th>score</th>"
            "<th>grader's score</th><th>changes (the grader's verdict, then the override)</th>"
            "</tr>" + "".join(changed) + "</table>"
        )
    if stale:
        out.append(
            "<h3>Not applied</h3><table><tr><th>entry</th><th>change</th><th>why</th></tr>"
            + "".join(
                f"<tr><td>{_t(str(s.override.where))}</td><td>{_t(s.override.describe())}</td>"
                f"<td>{_t(s.reason)}</td></tr>"
                for s in stale
            )
            + "</table>"
        )
    return "\n".join(out)


def similar_section(findings: Findings) -> str:
    """Pairs of reports that look copied, when any was found."""
    from grader.similar.pairs import THRESHOLD

    pairs = findings.similar or []
    if not pairs:
        return ""
    shown_pairs = pairs[:SIMILAR_SHOWN]
    more = len(pairs) - len(shown_pairs)
    body = "".join(
        f"<tr><td class=num>{p.score:g}</td><td>{escape(p.exercise)}</td>"
        f"<td>{_t(p.a.student)}<br><span class=muted>{_t(p.a.file)}"
        f"{f' line {p.line_a}' if p.line_a else ''}</span></td>"
        f"<td>{_t(p.b.student)}<br><span class=muted>{_t(p.b.file)}"
        f"{f' line {p.line_b}' if p.line_b else ''}</span></td>"
        f"<td><blockquote>{_t(p.passage)}</blockquote></td></tr>"
        for p in shown_pairs
    )
    note = f"<p class=muted>{more} more pairs are in the JSON (--json).</p>" if more else ""
    return (
        f"<h2>Reports that look copied ({len(pairs)})</h2>\n"
        f"<p>Pairs whose own words (the exercise's template lines and field labels removed) "
        f"score {THRESHOLD:g} or more of 100 when compared with their words sorted, so "
        "reordered lines and moved words still match. A high score is a reason to read "
        "both reports, not a finding of copying.</p>"
        "<table><tr><th>score</th><th>exercise</th><th>report</th><th>report</th>"
        "<th>the longest line both have</th></tr>" + body + "</table>" + note
    )
