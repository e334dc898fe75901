"""Rigorous balls: python-flint working precision, bounds read off a ball, and a ball enclosing a constant
sympy expression. The layer every certificate (and exact construction) shares; it knows no model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import flint
import mpmath as mp
import numpy as np
import sympy as sp

from .backend import ARB


@contextmanager
def arb_precision(dps: int) -> Iterator[None]:
    """flint working precision of ``dps`` decimal digits (plus guard digits) for the block."""
    old = flint.ctx.prec
    flint.ctx.dps = dps + 10
    try:
        yield
    finally:
        flint.ctx.prec = old


def to_arb(values: np.ndarray) -> np.ndarray:
    """mpf/decimal object array -> arb balls (exact decimal strings, so only input rounding)."""
    return ARB.asarray(values)


def upper(x: flint.arb) -> mp.mpf:
    """An mpf that is >= |x| (the ball's upper bound, rounded up by a relative 1e-10)."""
    return mp.mpf(x.abs_upper().mid().str(30, radius=False)) * (1 + mp.mpf("1e-10"))


def lower(x: flint.arb) -> mp.mpf:
    """An mpf that is <= |x|."""
    return mp.mpf(x.abs_lower().mid().str(30, radius=False)) * (1 - mp.mpf("1e-10"))


@dataclass(frozen=True)
class Bound:
    """A rigorous upper bound of a supremum, the set it is taken over, and how it was obtained."""

    value: mp.mpf
    domain: str
    how: str


def box_text(lo: np.ndarray, hi: np.ndarray) -> str:
    """The token box for humans: ``[0, 1]^2``, or ``[0, 1] x [0, 0]`` when the sides differ."""
    sides = [f"[{float(a):g}, {float(b):g}]" for a, b in zip(lo, hi)]
    if len(set(sides)) == 1:
        return f"{sides[0]}^{len(sides)}"
    return " x ".join(sides)


class Unsupported(ValueError):
    """The ball walker met a node it cannot enclose rigorously (no certificate, never a verdict)."""


def _positive(x: flint.arb) -> flint.arb:
    if not x > 0:
        raise Unsupported("a real power or logarithm of a ball not certainly positive")
    return x


_UNARY: dict[type, Callable[[flint.arb], flint.arb]] = {
    sp.exp: lambda x: x.exp(),
    sp.log: lambda x: _positive(x).log(),
    sp.sin: lambda x: x.sin(),
    sp.cos: lambda x: x.cos(),
    sp.tan: lambda x: x.tan(),
    sp.atan: lambda x: x.atan(),
    sp.asin: lambda x: x.asin(),
    sp.acos: lambda x: x.acos(),
    sp.sinh: lambda x: x.sinh(),
    sp.cosh: lambda x: x.cosh(),
    sp.tanh: lambda x: x.tanh(),
    sp.atanh: lambda x: x.atanh(),
    sp.asinh: lambda x: x.asinh(),
    sp.Abs: lambda x: abs(x),
}


def ball(expr: sp.Basic) -> flint.arb:
    """A python-flint ball enclosing the value of a real constant sympy expression, at the current
    flint precision. Raises :class:`Unsupported` for any node it cannot enclose rigorously (symbols,
    floats, complex numbers, unknown functions) or whose enclosure is not finite (every node is
    checked, so nan or inf never reach an enclosing node)."""
    value = _node(expr)
    if not value.is_finite():
        raise Unsupported(f"no finite enclosure of {_short(expr)}")
    return value


def _node(e: sp.Basic) -> flint.arb:
    if e.is_Rational:
        return flint.arb(flint.fmpq(int(e.p), int(e.q)))
    if e is sp.pi:
        return flint.arb.pi()
    if e is sp.E:
        return flint.arb.const_e()
    if isinstance(e, sp.Add):
        out = flint.arb(0)
        for a in e.args:
            out += ball(a)
        return out
    if isinstance(e, sp.Mul):
        out = flint.arb(1)
        for a in e.args:
            out *= ball(a)
        return out
    if isinstance(e, sp.Pow):
        base, exp = ball(e.base), e.exp
        if exp.is_Integer:
            if exp < 0:
                return 1 / base ** int(-exp)
            return base ** int(exp)
        return _positive(base) ** ball(exp)
    if type(e) in _UNARY and len(e.args) == 1:
        return _UNARY[type(e)](ball(e.args[0]))
    if isinstance(e, (sp.Min, sp.Max)):
        vals = [ball(a) for a in e.args]
        out = vals[0]
        for v in vals[1:]:
            out = out.min(v) if isinstance(e, sp.Min) else out.max(v)
        return out
    raise Unsupported(f"no ball rule for {type(e).__name__}")


def _short(expr: sp.Basic, limit: int = 60) -> str:
    text = sp.sstr(expr)
    return text if len(text) <= limit else text[: limit - 3] + "..."
