"""Time and memory quantities as printed by the course and by PyTorch's profiler."""

from __future__ import annotations

import re

from grader.errors import GraderError

_TIME_UNITS = {
    "ns": 1e-3,
    "us": 1.0,
    "µs": 1.0,
    "μs": 1.0,
    "ms": 1e3,
    "s": 1e6,
}
# Course format: IEC units are binary, SI units decimal.  PyTorch prints "Gb"/"GB" for
# 1024-based sizes, so the key_averages parser asks for binary SI.
_MEM_UNITS_IEC = {"b": 1, "kib": 1024, "mib": 1024**2, "gib": 1024**3, "tib": 1024**4}
_MEM_UNITS_SI = {"kb": 1000, "mb": 1000**2, "gb": 1000**3, "tb": 1000**4}
_MEM_UNITS_SI_BINARY = {"kb": 1024, "mb": 1024**2, "gb": 1024**3, "tb": 1024**4}

_DIGITS = re.compile(r"[0-9]+")
# Bounds far beyond any profile, so sums stay finite and every figure prints.
MAX_TIME_US = 1e15  # about 30 years
MAX_BYTES = 2**60  # 1 EiB
MAX_CALLS = 10**15

_QUANTITY = re.compile(r"^\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*([A-Za-zµμ]*)\s*$")


def parse_time_us(text: str, *, default_unit: str | None = None) -> float:
    """Microseconds in ``text`` ("38.4 ms", "512.000us", "0 ms", "1.2 s")."""
    m = _QUANTITY.match(text)
    if not m:
        raise GraderError(f"expected a time such as '38.4 ms' or '512us', got {text!r}")
    value, unit = float(m.group(1)), m.group(2)
    unit = unit or (default_unit or "")
    if unit not in _TIME_UNITS:
        known = ", ".join(u for u in _TIME_UNITS if u not in ("μs",))
        raise GraderError(f"unknown time unit {unit!r} in {text!r}; expected one of {known}")
    if value < 0:
        raise GraderError(f"a time cannot be negative: {text!r}")
    us = value * _TIME_UNITS[unit]
    if not us < MAX_TIME_US:  # also false for inf and nan
        raise GraderError(f"a time must be finite and below {MAX_TIME_US:.0e} us, got {text!r}")
    return us


UNKNOWN_MEMORY = ("unknown", "?", "-", "--", "n/a", "na")


def parse_memory_bytes(text: str, *, binary_si: bool = False, allow_negative: bool = False) -> int:
    """Bytes in ``text`` ("2.8 GiB", "12 MiB", "0 B", "2.80 Gb")."""
    m = _QUANTITY.match(text)
    if not m:
        raise GraderError(f"expected a memory size such as '2.8 GiB' or '0 B', got {text!r}")
    value, unit = float(m.group(1)), m.group(2).lower()
    si = _MEM_UNITS_SI_BINARY if binary_si else _MEM_UNITS_SI
    factor = _MEM_UNITS_IEC.get(unit) or si.get(unit)
    if factor is None:
        raise GraderError(
            f"unknown memory unit {m.group(2)!r} in {text!r}; "
            "expected B, KiB, MiB, GiB, KB, MB or GB"
        )
    if value < 0 and not allow_negative:
        raise GraderError(f"a memory size cannot be negative: {text!r}")
    size = abs(value) * factor
    if not size < MAX_BYTES:  # also false for inf and nan
        raise GraderError(f"a memory size must be below 1 EiB, got {text!r}")
    return int(round(size))


def parse_memory_cell(text: str, **kwargs: bool) -> int | None:
    """Like :func:`parse_memory_bytes`, but "unknown", "?", "-" or "n/a" give None."""
    if text.strip().lower() in UNKNOWN_MEMORY:
        return None
    return parse_memory_bytes(text, **kwargs)


def parse_count(text: str) -> int:
    """A call count: a non-negative whole number (thousands separators allowed)."""
    cleaned = text.strip().replace(",", "").replace("_", "")
    if not _DIGITS.fullmatch(cleaned):  # ASCII digits only: "²".isdigit() is true
        raise GraderError(f"expected a whole number of calls, got {text!r}")
    if len(cleaned) > 15 or int(cleaned) >= MAX_CALLS:
        raise GraderError(f"a call count must be below {MAX_CALLS:.0e}, got {text!r}")
    return int(cleaned)


def format_time(us: float) -> str:
    """A time as a learner reads it: "38.4 ms", "21 us", "1.20 s"."""
    if us >= 1e6:
        return f"{us / 1e6:.2f} s"
    if us >= 100:
        return f"{us / 1e3:.1f} ms"
    return f"{us:.0f} us"


def format_bytes(n: int | None) -> str:
    """Bytes in binary units, the way the course prints them: "2.8 GiB", "12 MiB", "0 B";
    "unknown" when the table did not say."""
    if n is None:
        return "unknown"
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            if unit == "B":
                return f"{int(value)} B"
            return f"{value:.1f} {unit}".replace(".0 ", " ")
        value /= 1024
    return f"{value:.1f} TiB"  # pragma: no cover
