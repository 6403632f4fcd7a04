"""What makes a text an experiment, and where a hypothesis's own test starts.

An experiment is something done (logged, printed, hooked, traced, compared ...) that looks at
something in particular, or says which outcome decides.  A hypothesis may carry its test
after an arrow, on a labelled line below it, or in a sentence of its own; among the
hypotheses, a unit labelled as a test ("E1 - ...") or one run that says which outcome
confirms which hypothesis is a test, not a hypothesis.
"""

from __future__ import annotations

import re
from functools import cache

from grader.checks.hypothesis_refs import _FOR_ORDINAL, _ORDINAL_LEAD, cause_of, references
from grader.report.language import _raw
from grader.report.leads import _HYPOTHESIS_START
from grader.report.patterns import Pattern
from grader.report.sections import CONTINUES
from grader.report.units import Unit

# Where a sentence ends and the next begins with a capital, in a hypothesis or a test.
_NEXT_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")

# Where a hypothesis's own test starts: an arrow or a label on a new line, an arrow before
# an action, or a sentence that leads into a test ("To test it, ...", "Check: ...").
_LINE_LEAD = re.compile(
    r"\n\s*(?:[-*+]\s+)?(?:[^\w\s]{1,6}\s+)?"  # a mark before the label: "✅/❌ test: ..."
    r"(?=(?:->|→|=>|⇒)|(?:e\d|exp\.?\s*\d|test|check|experiment|verify|method|procedure|"
    r"confirm|falsif\w*|kill|refute|disprove|how to (?:test|check)|"
    # an experiment laid out as a science class writes one: what is varied, what is expected
    r"independent variable|(?:expected|predicted) (?:observation|result|outcome)|prediction)"
    r"\b[^:\n]{0,24}[:\u2014\u2013-]"
    r"|(?:test|check|experiment)\.\s)",  # a lead with a full stop: "*Test.* Look for ..."
    re.IGNORECASE,
)
# also a table cell's edge, " | ", and an arrow back to the claim: "⇐ test: log x.dtype"
_ARROW = re.compile(r"\s(?:->|→|=>|⇒|⇐|←|<-(?!>)|\|)\s*")
# "fp32 -> bf16", "cpu -> gpu": an arrow between two dtypes or devices is a conversion.
_KIND = r"(?:fp|bf|float|half|int|uint)\d*|bfloat16|half|cpu|gpu|cuda|host|device|h|d"
_CONVERSION_BEFORE = re.compile(rf"\b(?:{_KIND})\s*$", re.IGNORECASE)
_CONVERSION_AFTER = re.compile(rf"\s*(?:{_KIND})\b", re.IGNORECASE)
_SENTENCE_START = re.compile(
    r"(?:[.;!?)]|\s[\u2014\u2013-])\s+|:\s+(?=[A-Z])|\s\((?=\w)"
    r"|,\s+(?=(?:and\s+)?to (?:test|check|confirm|verify|rule)\b)"  # "..., to test that I log ..."
)


@cache
def _test_lead() -> Pattern:
    return Pattern.of(_raw()["test_lead"])


@cache
def _test_probe() -> Pattern:
    return Pattern.of(_raw()["test_probe"])


@cache
def _test_change() -> Pattern:
    return Pattern.of(_raw()["test_change"])


def split_test(text: str) -> tuple[str, str]:
    """A hypothesis unit cut into its claim and the test written with it (maybe "")."""
    m = _LINE_LEAD.search(text)
    cut = m.end() if m else len(text)
    for a in _ARROW.finditer(text, 0, cut):
        if _CONVERSION_BEFORE.search(text, 0, a.start()) and _CONVERSION_AFTER.match(text, a.end()):
            continue
        head = " ".join(text[a.end() :].split("\n")[0].split()[:3])  # "-> dtype hooks on ..."
        probe = _test_probe().search(head) or _test_lead().match(head)
        # a change verb after an arrow may be the cause's own ("54 calls -> a per-layer
        # cast"): it starts the test only when no labelled test follows ("; test: ...")
        labelled = m is not None or _LABELLED_TEST.search(text, a.end())
        if probe or (not labelled and _test_change().search(head)):
            cut = a.start()
            break
    for s in _SENTENCE_START.finditer(text, 0, cut):
        rest = text[s.end() :]
        after_dash = text[s.start() : s.end()].strip() in ("—", "–", "-", "(") or rest[:1] in "—–"
        # a line of its own under the claim (a nested item), maybe after a mark ("🔬 check
        # the dtype of those tensors"): an action that opens it is the claim's test
        own_line = "\n" in text[s.start() : s.end()]
        if own_line:
            rest = _MARK.sub("", rest)
        rest = rest.lstrip(" \u2014\u2013-")
        if _test_lead().match(rest) or ((after_dash or own_line) and _opens_with_probe(rest)):
            cut = s.start() + 1
            break
    return text[:cut].strip(), text[cut:].strip(" \n-→>=⇒")


_MARK = re.compile(r"^[^\w\s]{1,6}\s+")
_LABELLED_TEST = re.compile(r"[.;]\s+(?:test|check|experiment)\s*:", re.IGNORECASE)


def _opens_with_probe(text: str) -> bool:
    """ "check the cache dtype at allocation, ..." after a dash: the hypothesis's test."""
    first = " ".join(text.split()[:2])  # "check ...", "look for ..."
    return bool(_test_probe().match(first.lower()))


# "Not sure how to test this one yet": a test not given.
_NO_TEST = re.compile(
    r"\b(?:not sure|unsure|no idea|don.t know|do not know|can.t think|cannot think|tbd|todo)\b",
    re.IGNORECASE,
)


# A look at nothing in particular cannot confirm or reject a cause: "look at it more in
# the profiler", "check the KV cache code", "run it again and see if the numbers are the
# same" (the same run, nothing changed or looked for).
_VAGUE = re.compile(
    r"^\W*(?:\d[.)]\s*)?(?:just |simply )?(?:look|check|dig|investigate|inspect)\w*(?: at| into)?"
    r" (?:it|this|that|them|the (?:[\w-]+ ){0,2}code)(?: (?:more|again|further|closer|deeper|"
    r"in (?:the )?(?:profiler|trace|code)))*\W*$"
    r"|^\W*(?:\d[.)]\s*)?(?:re-?)?(?:run|profile)\w* (?:it|this|the (?:model|run|same \w+)) again"
    r"(?: and (?:see|check|compare) (?:if|whether) (?:the )?(?:numbers|times?|results?) "
    r"(?:are|is|stay) (?:the )?(?:same|similar|stable))?\W*$"
    # the table read again: "look at the memory column of the table: 2.8 GiB"
    r"|^\W*(?:look|check|read)\w* (?:at )?the (?:[\w-]+ ){0,2}(?:column|row)s?\b(?: of the table)?"
    r".{0,24}$",
    re.IGNORECASE,
)
# A test's own label before its words: "Check: check it.", "E2: look at it in the profiler."
_TEST_LABEL_LEAD = re.compile(
    r"^\W*(?:test|check|experiment|verify|e\d|exp\.?\s*\d)\w*\s*[:\u2014\u2013-]\s*", re.I
)


def is_test(text: str) -> bool:
    """An experiment: something done (logged, printed, hooked, traced, compared ...), said
    in more than a couple of words, that looks at something in particular."""
    if len(re.findall(r"[A-Za-z]{2,}", text)) < 3 or _NO_TEST.search(text[:60]):
        return False
    if _VAGUE.match(_TEST_LABEL_LEAD.sub("", text.strip())):
        return False
    # the verdict a test would give is not the test: "the numbers would confirm this" does
    # nothing, "a dtype log at layer entry would confirm or reject this" logs
    done = _VERDICT.sub(" ", text)
    return bool(_test_probe().search(done) or _test_change().search(done) or _DECIDES.search(text))


_VERDICT = re.compile(
    r"\b(?:would|will|should|could|can|might|may) (?:either )?(?:confirm|reject|settle|decide|"
    r"falsify|refute|rule (?:it|this|that) (?:in|out))\w*(?: or (?:reject|refute|confirm)\w*)?"
    r"(?: (?:it|this|that|them|either|h\s?\d))?\b",
    re.IGNORECASE,
)


# Something done, and the outcome that decides: "Do the sampling on the GPU -> if the DtoH
# copies disappear, hypothesis 2 is right" (criteria.md: an experiment that would confirm or
# reject it).
_DECIDES = re.compile(
    r"\bif\b[^.;]{3,80}?\b(?:confirm\w*|reject\w*|rules? (?:it |this |that )?out|"
    r"(?:is|was|were|are) (?:right|wrong|correct|true|false|out|the cause|it))\b"
    r"|\b(?:falsified|refuted|rejected|confirmed|ruled out) (?:if|when|unless)\b",
    re.IGNORECASE,
)


# A unit that is a test, labelled as one, among the hypotheses: "E1 - print dtypes ...".
_TEST_LABEL = re.compile(
    r"^\W*(?:e\d|exp(?:eriment)?\.?\s*\d|test|check|experiment|verify|falsif\w*)\b"
    # the hypothesis it is for, by its bracketed label: "For (a): log dtypes ..."
    r"|^\W*(?:for|to test|to check|testing|checking)\s+\([a-d1-9]\)\s*[:,\u2014\u2013-]",
    re.IGNORECASE,
)
# What a hypothesis predicts, under it ("- Prediction: HtoD memcpy events coincide with
# copy_"): part of that hypothesis, not one of its own.
_ARROW_REF = re.compile(r"^\W*(?:->|→|=>|⇒)\s*(?:h\s*)?[A-Da-d1-9]\s*[:.)]")
# A line that names the hypothesis it decides: "-> confirms/kills H1", "rules out H2".
_DECIDES_REF = re.compile(
    r"^\W*(?:->|→|=>|⇒)\s*([A-Da-d1-9])\s*[:.)]|"  # "→ A: log the dtypes ...", "-> 2. ..."
    r"\b(?:test(?:ing)?|for|check(?:ing)?)\s+\d\.([1-9])\b(?!\s?(?:ms|gib|gb|%))|"  # "To test 1.2:"
    r"\b(?:confirm|kill|reject|rul\w* out|falsif|refut|disprov|settl)\w*(?:/\w+)?"
    r"\s+(?:h|hyp(?:othesis)?\.?\s*)[1-9]\b",
    re.IGNORECASE,
)
# The lead of one line of tests for all the hypotheses above it: "Tests: ...; ...", "To test:
# check the dtype, and check the device."
SHARED_TESTS_LEAD = re.compile(
    r"^\W*(?:tests|checks|experiments|to (?:test|check)(?: (?:them|both|these|each))?)"
    r"\s*[:\u2014\u2013-]\s*",
    re.I,
)
_PREDICTION = re.compile(r"^\W*(?:predictions?|predicts|expected|expectation|implies)\b", re.I)


# A line that ends by naming the hypothesis its outcome points to: "child is a Memcpy HtoD row
# -> it's (2)".
_POINTS_TO = re.compile(
    r"(?:->|→|=>|⇒)\s*(?:it.s |that.s |means |=\s*)?(?:\([1-9]\)|h\s?[1-9]|hypothesis [1-9])\W*$",
    re.IGNORECASE,
)


def _is_test_unit(unit: Unit) -> bool:
    """Among the hypotheses, a test: labelled as one ("E1 - ..."), or one run that says
    which outcome confirms which hypothesis ("If ..., it's H1 and H2 is out")."""
    if _ARROW_REF.match(unit.text) and is_test(unit.text):
        return True  # "→ A: log dtype of kv cache at layer entry"
    if _POINTS_TO.search(unit.text):
        return True  # "- a device-side copy kernel, Float in, BFloat16 out -> it's (1)"
    if _TEST_LABEL.match(unit.text) or (_DECIDES_REF.search(unit.text) and is_test(unit.text)):
        return True  # "E1 - ...", "print dtypes at layer boundaries -> confirms/kills H1"
    if _HYPOTHESIS_START.match(unit.text) and "\n" not in unit.text:
        return False  # "H2: ... not the same cause as H1: the logits go back with .cpu()"
    # "First, a dtype mismatch: ... Second, ... Both are tested by the logging run: for the
    # first ...": hypotheses given in order, their test after them, is not a test alone
    first = _NEXT_SENTENCE.split(unit.text, maxsplit=1)[0]
    as_hypothesis = (_ORDINAL_LEAD.match(first) and not _FOR_ORDINAL.match(first)) or re.match(
        r"\W*either\b", first, re.IGNORECASE
    )  # "Either the inputs are fp32 ..., or ... For the first I'd ..."
    if (as_hypothesis or CONTINUES["hypotheses"].match(first)) and cause_of(first):
        return False  # "My second guess is a host/device hop: ... To separate them: ..."
    return len(references(unit.text)) >= 2 and is_test(unit.text)
