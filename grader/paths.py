"""Where the shipped exercises and rubrics live: the checkout's folders, or the wheel's copy."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """``exercises`` or ``rubrics``: the project folder in a checkout, else the bundled copy."""
    checkout = _PACKAGE.parent / name
    if checkout.is_dir():
        return checkout
    return _PACKAGE / "_bundled" / name
