""" "Did you mean ...?" for a mistyped name: the one known name closest to it, if any."""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz import fuzz, process, utils

CUTOFF = 75.0  # 'analyse' -> 'analyze' scores 86, 'parta' -> 'partA' 100, 'nope' nothing


def closest(word: str, names: Iterable[str]) -> str | None:
    """The name most like ``word`` (case and punctuation aside), when one stands out: a tie
    ('partZ' is as close to partA as to partB) suggests nothing."""
    best = process.extract(
        word, list(names), scorer=fuzz.ratio, processor=utils.default_process, limit=2
    )
    if not best or best[0][1] < CUTOFF or (len(best) > 1 and best[1][1] == best[0][1]):
        return None
    return str(best[0][0])


def did_you_mean(word: str, names: Iterable[str], prefix: str = "") -> str:
    """' did you mean 'partA'?' (with a leading space), or '' when nothing is close."""
    near = closest(word, names)
    return f" did you mean '{prefix}{near}'?" if near else ""
