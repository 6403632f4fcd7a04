"""The lexicon's compiled patterns match exactly what the lexicon's expressions say."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.report.inflect import expand
from grader.report.language import _raw
from grader.report.patterns import Pattern, alternatives, hoist_boundary
from tests.conftest import ROOT, SHARED


@pytest.mark.parametrize(
    ("source", "parts"),
    [
        (r"a|b", ["a", "b"]),
        (r"\ba(?:x|y)\b|\bc", [r"\ba(?:x|y)\b", r"\bc"]),
        (r"[|]|\||(a|b)", ["[|]", r"\|", "(a|b)"]),
        (r"[]|]x|y", ["[]|]x", "y"]),
        (r"[^]|]x|y", ["[^]|]x", "y"]),
        (r"[\]|]x|y", [r"[\]|]x", "y"]),
        ("plain", ["plain"]),
    ],
)
def test_alternatives_split_only_at_top_level(source, parts):
    assert alternatives(source) == parts


def test_only_neighbouring_boundary_alternatives_are_grouped():
    assert hoist_boundary([r"\ba|\bb", r"^c", r"\bd"]) == r"\b(?:a|b)|(?:^c)|\b(?:d)"


def _entries() -> dict[str, list[str]]:
    raw = _raw()
    out = {k: v for k, v in raw.items() if isinstance(v, list)}
    out.update({f"claim:{k}": v for k, v in raw["claims"].items()})
    out.update({f"change:{k}": v for k, v in raw["changes"].items()})
    for cls, kinds in raw["diagnosis"].items():
        out.update({f"diagnosis:{cls}:{k}": v for k, v in kinds.items() if k != "subject"})
    return out


def _corpus() -> list[str]:
    lines: list[str] = []
    for folder in (ROOT / "submissions", SHARED / "examples" / "submissions"):
        for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
            lines += [ln for ln in path.read_text().lower().splitlines() if ln.strip()]
    return lines


CORPUS = _corpus()
ENTRIES = _entries()


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_hoisted_concept_matches_as_written(name):
    plain = re.compile("|".join(f"(?:{expand(p)})" for p in ENTRIES[name]), re.ASCII)
    compiled = Pattern.of(ENTRIES[name])
    assert CORPUS, "no labelled report to read"
    for line in CORPUS:
        assert _spans(plain, line) == [m.span() for m in compiled.finditer(line)], line


WORDS = sorted({w for line in CORPUS for w in re.findall(r"[\w'_.()-]+", line)})


@given(
    st.lists(st.sampled_from(WORDS), max_size=14),
    st.lists(st.sampled_from([" ", " ", " ", ", ", "; ", " - ", ". "]), min_size=14, max_size=14),
)
def test_hoisted_concepts_agree_on_any_mix_of_report_words(words, seps):
    text = "".join(w + s for w, s in zip(words, seps, strict=False))
    for parts in ENTRIES.values():
        plain = re.compile("|".join(f"(?:{expand(p)})" for p in parts), re.ASCII)
        assert _spans(plain, text) == [m.span() for m in Pattern.of(parts).finditer(text)]


def test_any_change_finds_a_change_exactly_when_some_kind_does():
    from grader.report.language import any_change, change_kinds

    for line in CORPUS:
        some = any(p.search(line) for p in change_kinds().values())
        assert bool(any_change().search(line)) == some, line


def test_one_expression_for_part_leads_picks_the_part_trying_each_in_turn_would():
    from grader.report.leads import _DECOR, section_of

    parts = {name: Pattern.of(p) for name, p in _raw()["sections"].items()}
    raw_lines = list(CORPUS) + [
        f"{lead} {rest}"
        for lead in (
            "Hypotheses:",
            "Experiments",
            "Not yet:",
            "Stretch -",
            "Contrast with Part A:",
            "**Hypotheses (two):**",
            "Not yet",
            "contrast",
            "Ideas I considered and threw out:",
        )
        for rest in ("", "slice the cache", "— two of them")
    ]
    seen = set()
    for line in raw_lines:
        plain = _DECOR.sub("", line).strip()
        first = next(((n, p.match(plain)) for n, p in parts.items() if p.match(plain)), None)
        got = section_of(line)
        if first is None:
            assert got is None, line
        else:
            assert got is not None and got[0] == first[0], line
            seen.add(first[0])
    assert seen == set(parts)  # every part's lead was exercised
