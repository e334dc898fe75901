"""Exact numbers in and out. In: numbers given as ints, Fractions or decimal strings, never floats (a
float's binary value is rarely the number meant, and an exact check of it would check another number).
Out: the exact rational value of any number as a string, and bounds rounded outward to short decimals
(what certificate data and records store)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from fractions import Fraction
from typing import Any

import mpmath as mp

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


#: significant digits of a rounded bound (rounding costs at most 1e-8 relative, far below any gap)
BOUND_DIGITS = 8
#: relative widening of a bound before it is rounded (far below the rounding itself, 1e-8)
SLACK = Fraction(1, 10**12)


def exact(v: Any) -> str:
    """The exact rational value of a float, int, Fraction, decimal string or sympy Rational, as "p/q"
    (or "p")."""
    if isinstance(v, float):
        return str(Fraction(v))
    if hasattr(v, "p") and hasattr(v, "q"):  # sympy Rational
        return str(Fraction(int(v.p), int(v.q)))
    return str(Fraction(str(v)))


def as_fraction(x: Any) -> Fraction:
    """An mpf (or any exact number) as its exact rational value."""
    if isinstance(x, mp.mpf):
        man, exp = mp.mpf(x).man_exp
        return Fraction(int(man) * 2**int(exp)) if exp >= 0 else Fraction(int(man), 2**-int(exp))
    return Fraction(str(x))


def rounded(x: Any, up: bool, digits: int = BOUND_DIGITS) -> str:
    """x widened by a relative SLACK and rounded outward to a decimal of ``digits`` significant digits: up
    (an upper bound stays an upper bound) or down (a lower bound stays a lower bound). The slack lets a
    recomputation in other arithmetic (the kernel's balls) clear a bound that is attained exactly (a
    failure probability of exactly 1, say)."""
    q = as_fraction(x)
    q += abs(q) * SLACK if up else -abs(q) * SLACK
    ctx = Context(prec=digits, rounding=ROUND_CEILING if up else ROUND_FLOOR)
    return str(ctx.divide(Decimal(q.numerator), Decimal(q.denominator)))
