"""Reports laid out other than one field or part per line, rewritten into such lines.

Two layouts are read here, each keeping every line's number so that evidence still quotes
the learner's own words where they stand:

- Questions and answers: "Q: Workload?" / "A: decoder-only LLM ...", "Q: How would you
  check H1?" / "A: ...".  The question becomes a line of its own (a label or a lead, as if
  it were a heading) and the answer its content, without the "Q:" and "A:".
- A paragraph that holds the whole report: "Workload: ... Hardware: L4. Top CUDA time: ...".
  Some learners write the five fields, their reasons and their hypotheses as one paragraph.
Read line by line, such a report has one field (the first label) and no parts.  A paragraph
in which three or more of the five labels open a sentence is therefore cut into lines of its
own: one per labelled piece ("Hardware: L4.", "Reasoning: ..."), and the pieces that are no
field, one per sentence, so that "Won't touch aten::slice yet." is read as the lead it is.
"""

from __future__ import annotations

import re

from grader.report.clauses import sentences
from grader.report.document import Line
from grader.report.labels import ANSWER_MARK, QUESTION_MARK, match_label

MIN_LABELS = 2
# A label opening the text or a sentence, or after a bar or dot that sets fields apart
# ("Workload: bs 1 · Hardware: L4 · ...", "... | Hardware: L4 | ...").
_LABEL_AT = re.compile(r"(?:^|(?<=[.;!?)|\u00b7\u2022]\s))([A-Z][\w /&'’-]{0,40}?)\s*:\s")


def _field_label(label: str) -> bool:
    hit = match_label(label)
    return hit is not None and not hit[2]  # an exact spelling or a known substitute


def _exact_label(label: str) -> bool:
    hit = match_label(label)
    return hit is not None and hit[1]


_QUESTION = re.compile(rf"{QUESTION_MARK}\s+")
# "A: ...", and the word spelled out: "Answer: ...", "Ans. ..."
_ANSWER = re.compile(rf"(?:{ANSWER_MARK}|^\s*(?:Answer|Ans\.?)\s*\d*\s*[:.)\u2014\u2013-])\s+")
# The course's prompt quoted as the question: '"Two hypotheses for copy_ and to"' (after a
# number or a "Q." or alone on its line), answered below.
_QUOTED = re.compile(r'^\s*["\u201c](?P<asked>[^"\u201c\u201d]{2,120})["\u201d]\s*$')


def relayout(lines: list[Line]) -> list[Line]:
    """``lines`` with question-and-answer pairs and dense paragraphs rewritten."""
    return split_leads(split_dense(unwrap_questions(columns_to_rows(lines))))


# A part's label after a sentence of another part's: "Hypotheses: (1) ...; (2) .... Experiments:
# (1) ...; (2) ..." in one paragraph (but "H1 - a cast. Experiment: dtype asserts." is the
# hypothesis's own test).
_PART_LABEL_AFTER = re.compile(
    r"(?<=[.!?)]\s)(?=(?:Experiments|Tests|Checks)\s*:\s*(?:\(?[1-9a-d]\)|[1-9]\.\s|H[1-9]\b)"
    r"|(?:Not yet|Stretch)\s*:)"
)


def split_leads(lines: list[Line]) -> list[Line]:
    """A paragraph whose sentence opens another part with its label, cut there: the part
    after it is a line of its own."""
    out: list[Line] = []
    block = max((ln.block for ln in lines), default=0)
    for line in lines:
        pieces = _PART_LABEL_AFTER.split(line.text) if line.kind == "paragraph" else [line.text]
        if len(pieces) < 2:
            out.append(line)
            continue
        out.append(line._replace(text=pieces[0].strip()))
        for piece in pieces[1:]:
            block += 1
            out.append(line._replace(text=piece.strip(), block=block, first=True, bold_lead=""))
    return out


def columns_to_rows(lines: list[Line]) -> list[Line]:
    """A table whose header names three or more of the five fields ("| Workload | Hardware
    | ... |") with the answers in the rows below: each answer becomes a row of its own,
    label and value, as in a two-column table; its text is the cell as written."""
    out: list[Line] = []
    block = max((ln.block for ln in lines), default=0)
    header: Line | None = None
    for line in lines:
        if line.kind != "table":
            header = None
            out.append(line)
            continue
        if header is not None and len(line.cells) == len(header.cells):
            for label, value in zip(header.cells, line.cells, strict=True):
                if value.strip():
                    block += 1
                    out.append(line._replace(text=value, block=block, cells=(label, value)))
            continue
        named = {hit[0].key for c in line.cells if (hit := match_label(c)) and not hit[2]}
        header = line if len(named) >= 3 else None
        if header is None:
            out.append(line)
    return out


def unwrap_questions(lines: list[Line]) -> list[Line]:
    """A report of two or more questions ("Q: ...", or the prompt quoted) each answered by
    "A: ..." or "Answer: ...": each question a line that opens a block and holds no answer
    (``asked``), each answer the line below it, without their marks and quotes."""
    asked = sum(_asked(ln) is not None for ln in lines)
    answered = sum(bool(_ANSWER.match(ln.text)) for ln in lines)
    if asked < 2 or answered < 2:
        return lines
    block = max((ln.block for ln in lines), default=0)
    out: list[Line] = []
    for line in lines:
        question = _asked(line)
        if question is not None:
            text = question
        elif (answer := _ANSWER.match(line.text)) is not None:
            text = line.text[answer.end() :]
        else:
            out.append(line)
            continue
        block += 1
        out.append(line._replace(text=text, block=block, first=True, asked=question is not None))
    return out


def _asked(line: Line) -> str | None:
    """The question a line asks, without its mark and quotes, or None."""
    q = _QUESTION.match(line.text)
    text = line.text[q.end() :] if q else line.text
    quoted = _QUOTED.match(text) if line.first and line.kind != "table" else None
    if quoted is not None:
        return quoted.group("asked").strip()
    return text if q else None


# A field named in a sentence of prose: "The Workload is batch 1 ...", "For Top CUDA time, the
# biggest line is ...", "Top CPU / orchestration cost is the Python loop ..."
_PROSE_FIELD = re.compile(
    r"(?:(?<=[.;]\s)|^|\b(?:[Tt]he|and the|[Ff]or|[Ff]or the|[Aa]s (?:the|my)|[Mm]y)\s)"
    r"(Workload|Hardware|Top CUDA time|Top CPU ?/ ?orchestration(?: cost)?|Next experiment)\b"
    r"(?=,?\s+(?:(?:this time|again|here|itself|too|also|then|now)\s+)?(?:is|are|was|would be|"
    r"I would|I'd|I will|the|belongs?|comes?|goes|tells|shows|points|sits|lies|reads|says|looks)\b"
    r"|\s*[:,\u2014\u2013-]\s)"
)


# The same in lower case, "the workload is ...": prose that may or may not answer the fields.
_PROSE_FIELD_ANY_CASE = re.compile(_PROSE_FIELD.pattern, re.IGNORECASE)


def fields_in_lowercase_prose(lines: list[Line]) -> int:
    """How many of the five fields the report's paragraphs name in sentences, in any case."""
    return len(
        {
            m.group(1).lower()[:8]
            for ln in lines
            if ln.kind == "paragraph"
            for m in _PROSE_FIELD_ANY_CASE.finditer(ln.text)
        }
    )


def _prose_fields(line: Line, least: int = 3) -> list[tuple[str, str]]:
    """A paragraph that names three or more of the five fields in its sentences (or, in an
    essay that names them across its paragraphs, ``least`` of them): cut where each is
    named, each piece as written with its field's name (the text before the first stays a
    piece of its own)."""
    found = list(_PROSE_FIELD.finditer(line.text))
    fields = {m.group(1) for m in found}
    if not found or len(fields) < least:
        return []
    cuts = [m.start() for m in found]
    pieces = [(line.text[: cuts[0]].strip(), "")] if cuts[0] > 0 else []
    for m, end in zip(found, [*cuts[1:], len(line.text)], strict=True):
        pieces.append((line.text[m.start() : end].strip(" ,"), m.group(1)))
    # the last field ends with its sentence; what follows is the paragraph's own sentences
    # (in an essay, a paragraph that names one or two fields is all their answer)
    if len(fields) >= 3:
        last, name = pieces.pop()
        first, *rest = sentences(last)
        pieces += [(first, name), *((sentence, "") for sentence in rest)]
    return [(text, name) for text, name in pieces if text]


def _essay(lines: list[Line]) -> bool:
    """An essay that introduces the fields in its sentences, paragraph by paragraph ("The
    Hardware is one L4.", "Turning to the Top CUDA time, ...", "My Next experiment is ..."):
    three or more fields named so, and fewer than three lines that open with a field's
    label."""
    named = {
        _field_key(m.group(1))
        for ln in lines
        if ln.kind == "paragraph"
        for m in _PROSE_FIELD.finditer(ln.text)
    }
    if len(named - {None}) < 3:
        return False
    return not any((m := _ANY_LABEL.match(ln.text)) and match_label(m.group(1)) for ln in lines)


# A field's label opening a line, however it is decorated ("**Workload:**", "- Hardware —").
_ANY_LABEL = re.compile(
    r"^\W*(?:\d{1,2}[.)]\W*)?([A-Za-z][\w /&'’-]{0,40}?)\W*\s*(?:[:\u2014\u2013]|\s-\s)"
)


def _field_key(label: str) -> str | None:
    found = match_label(label)
    return found[0].key if found else None


def split_dense(lines: list[Line]) -> list[Line]:
    """``lines`` with each dense paragraph cut into one line per labelled piece or sentence."""
    out: list[Line] = []
    block = max((ln.block for ln in lines), default=0)
    least = 1 if _essay(lines) else 3
    for line in lines:
        dense = line.kind == "paragraph" and line.text.count(":") >= MIN_LABELS
        labels = list(_LABEL_AT.finditer(line.text)) if dense else []
        known = sum(_field_label(m.group(1)) for m in labels)
        exact = sum(_exact_label(m.group(1)) for m in labels)
        # two labels on a line split it only when both are spelled exactly ("Workload: ...
        # bs1. Hardware: L4."); "Next: copy_ 19.6 ms" after a field is prose, not a field
        if known < 3 and exact < MIN_LABELS:
            prose = _prose_fields(line, least) if line.kind == "paragraph" else []
            if prose:
                for piece, name in prose:
                    block += 1
                    out.append(line._replace(text=piece, block=block, first=True, bold_lead=name))
            else:
                out.append(line)
            continue
        # a field named in a sentence among the labelled ones: "Workload is a decoder-only
        # model, ... Hardware: an L4. Top CUDA time: ..."
        named = {_field_key(m.group(1)) for m in labels}
        in_prose = {
            m.start(): m.group(1)
            for m in _PROSE_FIELD.finditer(line.text)
            if not line.text[m.end() :].lstrip().startswith(":")
            and _field_key(m.group(1)) not in named
        }
        cuts = sorted({m.start() for m in labels} | set(in_prose))
        if cuts[0] != 0:
            cuts.insert(0, 0)
        for start, end in zip(cuts, [*cuts[1:], len(line.text)], strict=True):
            piece = line.text[start:end].strip(" |\u00b7\u2022")
            if start in in_prose:
                block += 1
                out.append(
                    line._replace(text=piece, block=block, first=True, bold_lead=in_prose[start])
                )
                continue
            label = _LABEL_AT.match(piece)
            parts = [piece] if label and _field_label(label.group(1)) else list(sentences(piece))
            for part in parts:
                block += 1
                out.append(line._replace(text=part, block=block, first=True))
    return out
