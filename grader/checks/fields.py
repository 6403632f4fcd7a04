"""The five fields: present with content, and (Part C) named exactly from memory."""

from __future__ import annotations

import re

from grader.checks.registry import Context, Evidence, Verdict, check
from grader.report.fields import label_starts
from grader.report.keyword_lists import is_keyword_list
from grader.report.labels import DECOR, field_specs
from grader.report.layouts import fields_in_lowercase_prose
from grader.report.model import LABEL_STARTS

# Next experiment given as a bare list of tools ("compile, CUDA graphs, batching, fusion") has
# content, but is it "substantive"?  Labellers split about four to one that it is, so the
# field passes and a person is asked to look.
LISTED_NEXT = "Next experiment is a list of terms, not an experiment: is that real content?"


@check("five-fields")
def five_fields(ctx: Context) -> Verdict:
    """All five fields are present and each says something.

    Workload, Hardware, Top CUDA time, Top CPU / orchestration cost and Next experiment must
    each be there with real content, not empty, "TODO", "N/A", "?" or "...".  Labels may be
    bold, headings, bullets or a two-column table, and small typos are forgiven.  A Next
    experiment that is only a list of terms passes, flagged for a person to look at.

    PASS (partA):
        * Workload: decoder-only LLM, 4096 in / 128 out, bf16, batch 1
        * Hardwre: L4
        * Top CUDA time: matmul 38.4 ms, copy_ + to 35 ms
        * Top CPU/orchestration: tokenizer.encode 22 ms on the CPU
        * Next experiments: profile with with_stack=True to find who calls to()

    FAIL (partA):
        Workload: decoder-only LLM, 4096 in / 128 out
        Hardware: L4
        Top CUDA time: matmul 38.4 ms
        Top CPU / orchestration cost: ?
        Next experiment: profile with with_stack=True
    """
    specs, _ = field_specs()
    missing, empty = [], []
    for spec in specs:
        f = ctx.report.fields.get(spec.key)
        if f is None:
            missing.append(spec.name)
        elif not f.substantive:
            empty.append((spec.name, f))
    if missing:
        # "The workload is ..., and the hardware is a single L4. For top CUDA time, ...":
        # the fields answered in lower-case sentences, which labellers split on
        prose = len(missing) >= 3 and fields_in_lowercase_prose(ctx.report.lines) >= 3
        return Verdict.no(
            None,
            f"missing field(s): {', '.join(missing)}"
            + ("; the fields are named only in sentences, not as labels" if prose else ""),
            review=prose,
        )
    if empty:
        _, f = empty[0]
        return Verdict.no(
            ctx.report.quote_label(f),
            f"no real content in: {', '.join(n for n, _ in empty)}",
        )
    final = max(
        (ctx.report.fields[s.key] for s in specs), key=lambda f: (f.label_line, f.label_block)
    )
    last = (final.label_line, final.label_block)
    near = [ctx.report.fields[s.key].label for s in specs if ctx.report.fields[s.key].fuzzy]
    listed = ctx.report.fields["next_experiment"]
    if is_keyword_list(listed.value):
        return Verdict.yes(ctx.report.quote_value(listed), LISTED_NEXT, review=True)
    if near:  # a label read as a near spelling of a field's name: is it that field?
        return Verdict.yes(
            ctx.report.quote(*last),
            "all five fields have content; read as near spellings: " + ", ".join(near),
            review=True,
        )
    return Verdict.yes(ctx.report.quote(*last), "all five fields have content")


@check("field-names-exact")
def field_names_exact(ctx: Context) -> Verdict:
    """The five field names, written from memory, exactly and in order.

    Case, bold or headings, and the spaces around "/" do not matter; "Top CPU /
    orchestration" without "cost" is accepted.  A misspelled or substituted name fails
    ("Hardwear", "Top GPU time", "Next step").  The values are not judged here.

    PASS (partC):
        Workload: ...
        Hardware: ...
        Top CUDA time: ...
        Top CPU/orchestration: ...
        Next experiment: ...

    FAIL (partC):
        Workload: 7B decode
        Hardware: A100
        Top GPU time: copy_ 61%
        Top CPU / orchestration cost: launches
        Next experiment: log dtypes of copy_ inputs
    """
    specs, _ = field_specs()
    template = _template(ctx, [s.key for s in specs])
    if template is not None:
        return template
    fields = ctx.report.fields
    for spec in specs:
        f = fields.get(spec.key)
        if f is None:
            listed = _names_listed(ctx, [s.name for s in specs])
            if listed is not None:  # "Five field names: Workload, Hardware, ..., Next experiment."
                return Verdict.yes(
                    listed, "the five names are listed in order, not used as labels", review=True
                )
            return Verdict.no(None, f"field name {spec.name!r} not found")
        if not f.exact:
            return Verdict.no(
                ctx.report.quote_label(f),
                f"{f.label!r} is not the field name {spec.name!r}",
            )
    order = [(fields[s.key].label_line, fields[s.key].label_block) for s in specs]
    names = ", ".join(fields[s.key].label for s in specs)
    if order != sorted(order):
        first_out = next(b for a, b in zip(order, order[1:], strict=False) if b < a)
        return Verdict.no(
            ctx.report.quote(*first_out),
            f"the names ({names}) are not in the order Workload, Hardware, Top CUDA time, "
            "Top CPU / orchestration cost, Next experiment",
        )
    return Verdict.yes(ctx.report.quote(*order[0]), f"all five names exact: {names}")


def _template(ctx: Context, keys: list[str]) -> Verdict | None:
    """The five labels written as one run, in order, each with a value: the template from
    memory, judged as a whole even when a field is also named elsewhere (a memo's "Next
    experiment: ..." above an appendix that fills the template in).  None when the report
    holds no such run."""
    report = ctx.report
    starts = report.remember(LABEL_STARTS, lambda: label_starts(report.lines))
    for at in range(len(starts) - len(keys) + 1):
        run = starts[at : at + len(keys)]
        if [s.spec.key for s in run] != keys or not all(s.value.strip() for s in run):
            continue
        wrong = next((s for s in run if not s.exact), None)
        if wrong is not None:
            ln = report.lines[wrong.at]
            name = DECOR.sub("", wrong.label).strip()
            return Verdict.no(
                Evidence(ln.number, ln.text), f"{name!r} is not the field name {wrong.spec.name!r}"
            )
        first = report.lines[run[0].at]
        names = ", ".join(DECOR.sub("", s.label).strip() for s in run)
        return Verdict.yes(Evidence(first.number, first.text), f"all five names exact: {names}")
    return None


def _plain(text: str) -> str:
    return re.sub(r"\s*/\s*", "/", " ".join(text.lower().replace("*", "").split()))


def _names_listed(ctx: Context, names: list[str]) -> Evidence | None:
    """A line that lists the five names, exactly and in order, without filling them in."""
    wanted = [_plain(n) for n in names]
    for ln in ctx.report.lines:
        text = _plain(ln.text)
        at = 0
        for name in wanted:
            # "Top CPU / orchestration" without "cost" is the name too
            found = [
                i
                for i in (text.find(name, at), text.find(name.removesuffix(" cost"), at))
                if i >= 0
            ]
            if not found:
                break
            at = min(found) + 1
        else:
            return Evidence(ln.number, ln.text)
    return None
