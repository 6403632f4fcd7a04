"""Numbers said in words, read as digits: "sixty one percent" is 61%, "thirty eight
milliseconds" is 38 ms, "two hundred forty calls" is 240 calls.

Learners who dictate their answers, or write out every number, give the table's figures in
words.  The checks that read figures (the copy's share, the host against the device, the
launches' count) read them in a copy of the text with each spelled number replaced by its
digits; what they quote is the text as it stands.
"""

from __future__ import annotations

import re
from functools import lru_cache

_UNITS = {
    w: i
    for i, w in enumerate(
        (
            *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
            *("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen"),
            *("seventeen", "eighteen", "nineteen"),
        )
    )
}
_TENS = {
    w: 10 * i
    for i, w in enumerate(
        ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
    )
    if w
}
_NUMBER = "|".join([*_TENS, *_UNITS, "hundred", "thousand"])
# a run of number words, joined by spaces or hyphens: "sixty-one", "two hundred and forty",
# "six point one"
_RUN = re.compile(
    rf"\b(?:{_NUMBER})(?:[\s-]+(?:(?:and|point)[\s-]+)?(?:{_NUMBER}))*\b", re.IGNORECASE
)
# units spoken in full
_SPOKEN_UNITS = (
    (re.compile(r"\s*\bper ?cent\b|\s*\bpercent\b", re.I), "%"),
    (re.compile(r"\s*\bmilliseconds?\b", re.I), " ms"),
    (re.compile(r"\s*\bmicroseconds?\b", re.I), " us"),
)


def _value(words: list[str]) -> str | None:
    """The digits a run of number words stands for, or None when its decimals are no digits
    ("six point twenty")."""
    total = current = 0
    decimals = ""
    after_point = False
    for w in words:
        if w == "and":
            continue
        if w == "point":
            after_point = True
            continue
        if after_point:
            if w not in _UNITS or _UNITS[w] > 9:
                return None
            decimals += str(_UNITS[w])
            continue
        if w in _UNITS:
            current += _UNITS[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w == "thousand":
            total += max(current, 1) * 1000
            current = 0
    number = str(total + current)
    return f"{number}.{decimals}" if decimals else number


@lru_cache(maxsize=4096)
def with_digits(text: str) -> str:
    """``text`` with each number said in words replaced by its digits, and "percent",
    "milliseconds", "microseconds" by their signs ("sixty one percent" -> "61%")."""
    text = _DECIMAL_SHARE.sub(lambda m: f"{int(m.group(1))}%", text)
    if not _RUN.search(text):
        return text

    def replace(m: re.Match[str]) -> str:
        words = [w.lower() for w in re.split(r"[\s-]+", m.group(0)) if w]
        if words == ["one"]:  # a word, not a figure: "one experiment", "the one I'd try"
            return m.group(0)
        value = _value(words)
        return value if value is not None else m.group(0)

    out = _RUN.sub(replace, text)
    if re.search(r"\d", out):
        for pattern, sign in _SPOKEN_UNITS:
            out = pattern.sub(sign, out)
        out = _FRACTION.sub(_percent, out)
    return out


# A share said as a decimal of the time it is a share of: "0.61 of all CUDA time" is 61%.
_DECIMAL_SHARE = re.compile(
    r"(?<![\d.])0?\.(\d{2})(?=\s+of\s+(?:the\s+|all\s+)?(?:total\s+)?(?:cuda|gpu|device)\b)",
    re.I,
)


# A share said as a fraction: "three-fifths of GPU time" is 60%, "two thirds" 67%.
_DENOMINATORS = {"half": 2, "halves": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5}
_DENOMINATORS |= {"sixth": 6, "eighth": 8, "tenth": 10}
_FRACTION = re.compile(
    r"\b(\d{1,2})[- ](halves|(?:third|quarter|fourth|fifth|sixth|eighth|tenth)s?)\b", re.I
)


def _percent(m: re.Match[str]) -> str:
    n, word = int(m.group(1)), m.group(2).lower()
    d = _DENOMINATORS.get(word) or _DENOMINATORS[word.removesuffix("s")]
    return f"{100 * n / d:.0f}%" if n < d else m.group(0)
