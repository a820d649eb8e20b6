"""Argument checks shared by the public calls: a value of the wrong type is a TypeError naming
the argument, where a truthy string ("no") or a bool for a number would be taken silently and
a string for a number would fail later with an obscure message."""

from __future__ import annotations

import numbers


def _is_flag(value) -> bool:
    """Python's or NumPy's bool (NumPy's found by its dtype: this module imports nothing)."""
    return isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", None) == "b"


def is_integer(value) -> bool:
    """An integer, Python's or NumPy's, and not a bool."""
    return not _is_flag(value) and isinstance(value, numbers.Integral)


def is_real(value) -> bool:
    """A real number, Python's or NumPy's, and not a bool."""
    return not _is_flag(value) and isinstance(value, numbers.Real)


def flag(value, name: str) -> bool:
    if not _is_flag(value):
        raise TypeError(f"{name} must be True or False, not {value!r}")
    return bool(value)


def integer(value, name: str) -> int:
    if not is_integer(value):
        raise TypeError(f"{name} must be an integer, not {value!r}")
    return int(value)


def real(value, name: str) -> float:
    if not is_real(value):
        raise TypeError(f"{name} must be a number, not {value!r}")
    return float(value)
