"""One inflection scheme for the lexicon: ``avoid~`` stands for every form of the lemma.

A lexicon expression may write a word as its lemma followed by ``~`` ("avoid~", "drop~",
"copy~"); before it is compiled, the word becomes an alternation of its forms: the lemma,
its -s, -ed and -ing forms for a verb (also the -s plural of a noun), and, for the few
irregular verbs learners use here, the irregular ones.  So "could be avoid~" reads "could be
avoided" and "avoiding" alike, and no pattern needs its own list of endings.

>>> forms("drop")
('dropping', 'dropped', 'drops', 'drop')
>>> forms("copy")
('copying', 'copied', 'copies', 'copy')
>>> expand(r"\\bcould be avoid~")
'\\\\bcould be (?:avoiding|avoided|avoids|avoid)'
"""

from __future__ import annotations

import re
from functools import cache

IRREGULAR = {
    "be": ("be", "is", "are", "was", "were", "been", "being"),
    "have": ("have", "has", "had", "having"),
    "do": ("do", "does", "did", "done", "doing"),
    "go": ("go", "goes", "went", "gone", "going"),
    "take": ("take", "takes", "took", "taken", "taking"),
    "make": ("make", "makes", "made", "making"),
    "get": ("get", "gets", "got", "gotten", "getting"),
    "run": ("run", "runs", "ran", "running"),
    "spend": ("spend", "spends", "spent", "spending"),
    "come": ("come", "comes", "came", "coming"),
    "find": ("find", "finds", "found", "finding"),
    "write": ("write", "writes", "wrote", "written", "writing"),
    "keep": ("keep", "keeps", "kept", "keeping"),
    "put": ("put", "puts", "putting"),
    "cut": ("cut", "cuts", "cutting"),
    "sit": ("sit", "sits", "sat", "sitting"),
    "hold": ("hold", "holds", "held", "holding"),
    "leave": ("leave", "leaves", "left", "leaving"),
    "show": ("show", "shows", "showed", "shown", "showing"),
    "see": ("see", "sees", "saw", "seen", "seeing"),
    "bring": ("bring", "brings", "brought", "bringing"),
    "mean": ("mean", "means", "meant", "meaning"),
    "shrink": ("shrink", "shrinks", "shrank", "shrunk", "shrinking"),
    "throw": ("throw", "throws", "threw", "thrown", "throwing"),
    "feed": ("feed", "feeds", "fed", "feeding"),
    "eat": ("eat", "eats", "ate", "eaten", "eating"),
    "lose": ("lose", "loses", "lost", "losing"),
    "send": ("send", "sends", "sent", "sending"),
    "build": ("build", "builds", "built", "building"),
    "rebuild": ("rebuild", "rebuilds", "rebuilt", "rebuilding"),
    "pay": ("pay", "pays", "paid", "paying"),
    "begin": ("begin", "begins", "began", "begun", "beginning"),
}
_VOWELS = "aeiou"


def _s_form(w: str) -> str:
    if w.endswith(("s", "x", "z", "ch", "sh")):
        return w + "es"
    if w.endswith("y") and len(w) > 1 and w[-2] not in _VOWELS:
        return w[:-1] + "ies"
    return w + "s"


def _doubles(w: str) -> bool:
    """A short word ending consonant-vowel-consonant doubles it: drop -> dropped."""
    return (
        len(w) <= 4
        and len(w) >= 3
        and w[-1] not in _VOWELS + "wxy"
        and w[-2] in _VOWELS
        and w[-3] not in _VOWELS
    )


def _ed_ing(w: str) -> tuple[str, str]:
    if w.endswith("ee"):
        return w + "d", w + "ing"
    if w.endswith("ie"):
        return w + "d", w[:-2] + "ying"
    if w.endswith("e"):
        return w + "d", w[:-1] + "ing"
    if w.endswith("y") and len(w) > 1 and w[-2] not in _VOWELS:
        return w[:-1] + "ied", w + "ing"
    if _doubles(w):
        return w + w[-1] + "ed", w + w[-1] + "ing"
    return w + "ed", w + "ing"


@cache
def forms(lemma: str) -> tuple[str, ...]:
    """Every form of ``lemma``, longest first (so an alternation prefers the whole word)."""
    if lemma in IRREGULAR:
        out = set(IRREGULAR[lemma])
    else:
        ed, ing = _ed_ing(lemma)
        out = {lemma, _s_form(lemma), ed, ing}
    return tuple(sorted(out, key=lambda f: (-len(f), f)))


_LEMMA = re.compile(r"(?:(?<=\\b)|(?<![A-Za-z\\]))([a-z]+)~")


def expand(source: str) -> str:
    """``source`` with each ``lemma~`` replaced by the alternation of its forms."""
    if "~" not in source:
        return source
    return _LEMMA.sub(lambda m: "(?:" + "|".join(forms(m.group(1))) + ")", source)
