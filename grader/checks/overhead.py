"""Part B: the overhead diagnosis backed by the table's numbers."""

from __future__ import annotations

import re

from grader.checks.common import DEVICE_WORD, Sentence, iter_sentences, line_sentences
from grader.checks.diagnosis import diagnosis_matches, refused
from grader.checks.partrefs import part_refs
from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.numbers import with_digits

_NUMBER = re.compile(r"(\d+(?:\.\d+)?)\s*(ms|µs|us|μs|s\b|calls?|launch\w*|x|×)?", re.I)
_PER_CALL = re.compile(
    r"\b(?:\d+(?:\.\d+)?\s*(?:µs|us|μs)|tens of (?:µs|us|microseconds)|microseconds?)\b|"
    r"\b(?:each|per (?:call|launch|kernel|op))\b|\btiny\b|\bsmall launches\b|"
    r"\b(?:spread|split|divided|chopped) (?:over|across|into) \d+ (?:calls|launches|kernels)\b",
    re.I,
)
_ABOVE_DEVICE = re.compile(
    r"\b(?:bigger|larger|greater|longer|more|higher) than (?:the |its |their |all )?"
    r"(?:cuda|gpu|device)|\bthan (?:on |in )(?:the )?(?:device|gpu|cuda)\b",
    re.I,
)
# A launch's own time, a few tens of microseconds ("~25 us per call", "20-µs nibbles").
_TENS_OF_US = re.compile(r"(?<![\d.])(?:[1-9]\d|[5-9])(?:\.\d+)?\s*-?\s*(?:µs|us|μs)\b", re.I)
_COMPARE = re.compile(
    r"\bwait\w*|\bidl\w*|\bstarv\w*|\bratio\b|\bthan on\b|<<|≪|\bless than\b|\bvs\.?\b|"
    r"\bversus\b|\bagainst\b|\bmore than\b|\btwice\b|\bdouble\b|\btimes\b|"
    r"\d\s*[x×]\b|\bexceed|\blonger than\b|\bcompared\b|\bwhile\b|\bonly\b|\bwith (?:0|nothing)|"
    # "38 ms > all CUDA combined (~15 ms)"; not an arrow ("->", "=>")
    r"\b(?:bigger|larger|greater) than\b|\bdwarf\w*|\boutweigh\w*|(?<![-=<])>(?![>=])|≫",
    re.I,
)


def _numbers(text: str) -> list[float]:
    return [float(m.group(1)) for m in _NUMBER.finditer(text)]


def _close(x: float, target: float) -> bool:
    return abs(x - target) <= max(1.0, 0.1 * target)


# (an arrow only before what it concludes: "38 ms -> 15 ms after compile" is a change)
_CONCLUDES = re.compile(
    r"\b(?:so|therefore|thus|hence|which means)\b"
    r"|(?:→|=>|->|⇒)\s*(?:\w+[- ])?(?:bound|limited|overhead|idl\w*|wait\w*|starv\w*)",
    re.IGNORECASE,
)
_MULTIPLE = re.compile(r"\bmore than|twice|double|\d\s*[x×]", re.IGNORECASE)


@check("overhead-evidence")
def overhead_evidence(ctx: Context) -> Verdict:
    """The overhead diagnosis is backed by the table's numbers.

    Many tiny launches (240 calls each, a few tens of microseconds per call) and/or the
    Python loop's CPU time against the device time (38 ms of CPU against about 15 ms of
    CUDA).  The numbers must be read off this table and said of it, not listed as keywords.

    PASS (partB):
        Top CUDA time: matmul 6.1 ms over 240 calls, about 25 us per call.

    FAIL (partB):
        Top CPU / orchestration cost: Python decode loop 38 ms.
    """
    m = ctx.analysis.metrics
    assert m is not None
    loop_ms = max(m.orchestration_cpu_us, m.dispatch_cpu_us) / 1e3
    host_ms = (loop_ms, sum(r.row.cpu_us for r in m.rows) / 1e3)  # the loop, or all the CPU
    device_ms = m.device_listed_us / 1e3
    counts = {r.row.calls for r in m.rows if r.row.cuda_us > 0 and r.row.calls >= 20}
    counts |= {m.launches}
    # A sentence, or a whole line: "Python loop 38 ms. All CUDA is 15.4 ms, so the CPU side
    # is more than 2x" sets the two numbers against each other across its full stop.
    lines = [
        Sentence(tl.text, tl) for tl in ctx.report.text_lines if len(line_sentences(tl.text)) > 1
    ]
    # (each sentence also on its own: one joined to the sentence before for its pronoun,
    # "This is the opposite of Part A. There are 240 calls and none of them ...", would
    # otherwise be read as said of Part A)
    joined = list(iter_sentences(ctx.report.text_lines))
    read = {s.text for s in joined}
    alone = [
        s for s in iter_sentences(ctx.report.text_lines, join_pronouns=False) if s.text not in read
    ]
    for said in [*joined, *alone, *lines]:
        if "a" in part_refs(said.text) and ctx.exercise.id.lower() == "partb":
            continue
        # figures said in words are read as digits ("thirty eight milliseconds"); the
        # evidence quotes the sentence as written
        s = said._replace(text=with_digits(said.text))
        nums = _numbers(s.text)
        many = any(abs(n - c) <= 0.02 * c for n in nums for c in counts if n == int(n))
        # "kernels that run for ~20 µs", "in 20-µs nibbles": each launch's time read off the
        # table says the launches are tiny, however many there are
        if (many and _PER_CALL.search(s.text)) or _TENS_OF_US.search(s.text):
            return _backs(ctx, Evidence(s.line.number, said.text), "many tiny launches")
        has_loop = any(_close(n, ms) for n in nums for ms in host_ms)
        total = any(_close(n, device_ms) for n in nums)
        has_device = total or DEVICE_WORD.search(s.text)
        # the device's time set against the host's: its total, a multiple, or the CUDA side
        # said to be smaller ("the CPU total is bigger than the CUDA total")
        versus = total or _MULTIPLE.search(s.text) or _ABOVE_DEVICE.search(s.text)
        # both totals read off the table and a conclusion drawn from them set them against
        # each other too: "the CPU is 38 ms and the GPU is ~15 ms, so we're overhead-bound"
        weighed = _COMPARE.search(s.text) or (total and _CONCLUDES.search(s.text))
        if has_loop and has_device and weighed and versus:
            return _backs(ctx, Evidence(s.line.number, said.text), "host time against device")
    return Verdict.no(
        None,
        f"looked for {sorted(counts)} calls at tens of microseconds each, or "
        f"{loop_ms:.0f} ms of CPU against {device_ms:.1f} ms of CUDA; found neither",
    )


def _backs(ctx: Context, evidence: Evidence, what: str) -> Verdict:
    """The numbers back the overhead diagnosis, unless the report turns that diagnosis down
    ("I would not say that this run is overhead-bound; the 240 launches are ...")."""
    turned_down = refused(ctx)
    if turned_down is None:
        # numbers beside no diagnosis the grader reads: labellers pass the evidence only
        # with the diagnosis (every labelled report that fails one fails the other)
        unbacked = not diagnosis_matches(ctx).passed
        return Verdict.yes(evidence, what, review=unbacked)
    return Verdict.no(
        Evidence(turned_down.line.number, turned_down.text),
        f"cites the numbers ({what}) but does not conclude the run is {ctx.expected}",
    )
