"""Exact rational inputs: numbers given as ints, Fractions or decimal strings, never floats (a float's
binary value is rarely the number meant, and an exact check of it would check another number)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..errors import InputError


def exact_row(row: Sequence[Any], field: str) -> tuple[Fraction, ...]:
    """The entries of ``row`` as Fractions; a float or a non-number is bad input naming ``field``."""
    out = []
    for v in row:
        if isinstance(v, float):
            raise InputError(field, "ints, Fractions or decimal strings (exact), not floats", v)
        try:
            out.append(Fraction(v))
        except (TypeError, ValueError, ZeroDivisionError):
            raise InputError(field, "rational entries", v) from None
    return tuple(out)
