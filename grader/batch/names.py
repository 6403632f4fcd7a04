"""Names as a batch shows them and as it writes them to disk.

A file name that is not UTF-8 (normal after unzipping a Windows archive) reaches Python
with its bad bytes as lone surrogates, which no UTF-8 writer accepts; a student's name is
whatever their front matter says.  Text outputs show both faithfully, with bad bytes and
control characters escaped (``caf\\xe9.md``); a file name made from a student's name keeps
letters of any script, replaces the rest, and is bounded in bytes.
"""

from __future__ import annotations

import hashlib
import os
import re

MAX_NAME_BYTES = 120  # well under the 255 bytes most file systems allow
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_UNSAFE = re.compile(r"[^\w.@+-]+")


def _escape_control(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str) -> str:
    """``text`` fit to print or write as UTF-8: undecodable bytes as ``\\xNN``, control
    characters escaped; ordinary text (of any script) unchanged."""
    if text.isprintable():
        return text
    if any("\udc80" <= ch <= "\udcff" for ch in text):
        raw = os.fsencode(text) if os.name != "nt" else text.encode("utf-8", "surrogateescape")
        text = raw.decode("utf-8", "backslashreplace")
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")  # any other lone surrogate
    return _CONTROL.sub(_escape_control, text)


def file_stem(name: str) -> str:
    """A file name's stem made from ``name``: letters, digits and ``.@+-_`` of any script,
    at most ``MAX_NAME_BYTES`` bytes; a shortened name ends with a hash of the whole, so
    two long names that share a beginning stay apart."""
    stem = _UNSAFE.sub("_", shown(name)).strip("._") or "student"
    if len(stem.encode("utf-8")) <= MAX_NAME_BYTES:
        return stem
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    cut = stem.encode("utf-8")[: MAX_NAME_BYTES - 11].decode("utf-8", "ignore")
    return f"{cut}-{digest}"


def unique_file_names(names: list[str], suffix: str) -> dict[str, str]:
    """A distinct file name per name, distinct also where case is not (Windows, macOS)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        stem = file_stem(name)
        candidate, n = stem + suffix, 1
        while candidate.casefold() in used:
            n += 1
            candidate = f"{stem}-{n}{suffix}"
        used.add(candidate.casefold())
        out[name] = candidate
    return out
