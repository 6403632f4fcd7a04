"""Keyword stuffing: a report that strings the course's terms where findings should be.

criteria.md: a diagnosis is a claim, and "a list of keywords ... commits to nothing".  A
stuffed report gives itself away twice: the fields that only describe the run (Workload,
Hardware) carry the words of an analysis ("movement-bound", "bandwidth", "TTFT", "tensor
cores"), and a field that should hold a finding (Top CUDA time, Top CPU / orchestration
cost, Next experiment) is a bare list of terms.  Such a report earns none of the criteria
that judge what it says; those that judge its form (the five fields are there, four
bullets, no attention kernel proposed) are judged as usual.  Of the 15 labelled reports
that show both signs, 14 are labelled as saying nothing (the other's list is its Workload).

Grammatical soup gives itself away another way: it says one course term is another's ("the
casts are the dtype of the transfers", "the orchestration of the CPU", "dtype is a hypothesis
of device").  A finding never puts it so; two such phrases in one report stuff it as a list
does.
"""

from __future__ import annotations

import re

from grader.checks.registry import Evidence, Verdict
from grader.report.keyword_lists import is_keyword_list
from grader.report.language import concept, has, mentions
from grader.report.layouts import fields_in_lowercase_prose
from grader.report.model import Report
from grader.report.numbers import with_digits

STUFFED = "a list of the course's terms, not findings: this criterion needs a claim"

# The criteria that judge what a report says (the rest judge its form).
JUDGE_CLAIMS = frozenset(
    {
        "diagnosis-matches",
        "separates-math-from-movement",
        "tokenizer-outside-gpu",
        "one-next-experiment",
        "next-experiment-targets-bottleneck",
        "two-hypotheses",
        "experiment-per-hypothesis",
        "not-yet-with-reason",
        "stretch-named-ranges",
        "overhead-evidence",
        "top-cuda-meaning",
        "fused-attention-wrong-here",
        "copy-share-stated",
    }
)
# A criterion of form whose form is a claim too: four bullets that contrast nothing are not
# "a contrast with Part A".  In a report that reads like stuffing (stuffed, or showing one of
# the signs below that flag its claims) it is judged as usual and, when it passes, flagged
# for a person: of the 46 labelled such reports whose bullets pass, 14 are labelled as
# giving no contrast.
FORM_WITH_CONTENT = frozenset({"contrast-four-bullets"})
STUFFED_FORM = (
    "the report reads like keyword stuffing: a person may check that these bullets really "
    "contrast the two parts"
)
_DESCRIBE = ("workload", "hardware")
_FINDINGS = ("top_cuda", "top_cpu", "next_experiment")


def stuffed_line(report: Report) -> Evidence | None:
    """The finding field that is a bare list of terms, when the report is stuffed; or the
    first of the sentences that say one course term is another's, when there are two."""
    return _listed(report) or _equated(report)


# Of the 26 labelled reports with two or more such phrases, all 26 are keyword soup.
_EQUATIONS = 2


def _equated(report: Report) -> Evidence | None:
    found = [(t, n) for t in report.text_lines if (n := len(mentions("equated_terms", t.text)))]
    if sum(n for _, n in found) < _EQUATIONS:
        return None
    first = found[0][0]
    return Evidence(first.number, first.text)


def _listed(report: Report) -> Evidence | None:
    described = " ".join(f.value for key, f in report.fields.items() if key in _DESCRIBE)
    if not described or not has("analysis_words", described):
        return None
    for key in _FINDINGS:
        f = report.fields.get(key)
        if f is not None and f.value_lines and is_keyword_list(f.value):
            return report.quote_value(f)
    return None


LOOK_AGAIN = (
    "the Workload or Hardware line judges the run instead of describing it, as keyword-stuffed "
    "reports do: a person may check that this claim is really made"
)


def judged_description(report: Report) -> Evidence | None:
    """The Workload or Hardware field that carries a judgement of the run ("a 4096-token
    prefill regime ... found to be co-limiting", "L4, launch-limited"), when no finding field
    is a bare list: half the sign of stuffing.  Of 62 labelled reports that show it, 57 are
    keyword soup; the claims such a report passes are flagged for a person, not failed."""
    for key in _DESCRIBE:
        f = report.fields.get(key)
        if f is not None and f.value_lines and has("judging_words", f.value):
            return report.quote_value(f)
    return None


def stuffed_verdict(evidence: Evidence) -> Verdict:
    return Verdict.no(evidence, STUFFED)


NO_FIELDS = (
    "the report gives none of the five fields, as keyword-stuffed reports often do: a person "
    "may check that this claim is really made"
)


NO_FIELDS_FAILED = (
    "the report gives none of the five fields, as keyword-stuffed reports often do, so this "
    "claim is not counted from prose alone: a person may check that it is really made"
)


def fieldless(report: Report) -> bool:
    """A report that fills none of the five fields: its claims are read from prose alone.
    Of the 52 labelled reports that do so, 36 are keyword soup."""
    return not any(f.substantive for f in report.fields.values())


def fieldless_claims_fail(report: Report) -> bool:
    """Does a fieldless report's claim fail (flagged) rather than pass (flagged)?  Of the 48
    claims such reports passed, labellers agreed with 5 and failed 43; of those in reports
    that answer three or more of the fields in sentences ("the workload is ..., and the
    hardware is an L4"), an essay rather than a soup, they agreed with 4 of 7.  So a claim
    fails unless the report is such an essay; either way a person is asked to look."""
    return fields_in_lowercase_prose(report.lines) < _ESSAY_FIELDS


_ESSAY_FIELDS = 3


ABSTRACT = (
    "the report relates the course's ideas in abstract words ({words}), as keyword-stuffed "
    "reports do: a person may check that this claim is really made"
)
# Of the labelled reports with three or more, most are keyword soup.
_ABSTRACTIONS = 3


def abstract_words(report: Report) -> list[str]:
    """The abstract words a report relates its ideas with ("interplay", "holistic",
    "landscape"), when there are enough of them to mark it as stuffed; else none."""
    text = "\n".join(t.text for t in report.text_lines)
    found = [text[a:b].lower() for a, b in mentions("abstractions", text)]
    return found if len(found) >= _ABSTRACTIONS else []


GENERAL = (
    "the report speaks of what is usual ({words}) and quotes no figure from the table, as "
    "keyword-stuffed reports do: a person may check that this claim is really made"
)
# a figure read off the table: "19.6 ms", "61%", "436 calls", "3x", "sixty one percent"
_FIGURE = re.compile(
    r"\d[\d.,]*\s*(?:ms|msec|\u00b5s|us|s\b|%|x\b|\u00d7|calls|gb|mb)|\b\d+\.\d+\b", re.IGNORECASE
)


def generalities(report: Report) -> list[str]:
    """The words that speak of what is usual ("often", "typically", "in modern systems") or
    relate ideas in the abstract ("interplay"), in a report that quotes no figure from the
    table; else none.  Of the 358 labelled reports that quote no figure, 69 use such words
    and 62 of those are keyword soup (of the 289 that do not, 139 are); the claims they pass
    are flagged for a person."""
    text = "\n".join(t.text for t in report.text_lines)
    if _FIGURE.search(text):  # most reports quote a figure: read no further
        return []
    # every use counts, denied or not: "is not always essential" speaks of what is usual too
    words = [
        m.group(0).lower()
        for kind in ("generalities", "abstractions")
        for m in concept(kind).finditer(text)
    ]
    return [] if not words or _FIGURE.search(with_digits(text)) else words
