"""Decide a CAS-checked proof step: the step's residual must simplify to zero (or be ``True``)."""

from __future__ import annotations

from typing import Any

import sympy as sp


def is_zero(result: Any) -> bool:
    """True when ``result`` is sympy-provably zero / True (matrices: every entry)."""
    if result is True or result is sp.true:
        return True
    if result is False or result is sp.false:
        return False
    if isinstance(result, (list, tuple)):
        return all(is_zero(r) for r in result)
    if isinstance(result, sp.MatrixBase):
        return all(is_zero(v) for v in result)
    if isinstance(result, sp.matrices.expressions.MatrixExpr):
        return is_zero(result.as_explicit())
    if isinstance(result, sp.Basic):
        if result.is_Boolean:
            return bool(sp.simplify(result) is sp.true)
        # rational functions: zero iff the expanded numerator of the combined fraction is zero
        num = sp.expand(sp.numer(sp.together(result)))
        if num == 0:
            return True
        return sp.simplify(num) == 0
    return result == 0


def describe(result: Any, limit: int = 160) -> str:
    text = sp.sstr(result)
    return text if len(text) <= limit else text[: limit - 3] + "..."
