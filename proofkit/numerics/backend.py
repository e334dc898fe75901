"""Array backends: one model code path at float64, mpmath, python-flint balls or exact sympy.

Families are written against :class:`Ops`. float64 uses the numpy namespace (a CuPy namespace can be
passed the same way); the others hold mpmath ``mpf``, flint ``arb`` or sympy numbers in numpy object
arrays, whose ``@``, ``+`` and ``*`` dispatch to the element type. Precision is an explicit input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import flint
import mpmath as mp
import numpy as np
import sympy as sp


@dataclass(frozen=True)
class Ops:
    """Elementwise functions and constructors for one number type."""

    name: str
    exact: bool
    exp: Callable[[Any], Any]
    tanh: Callable[[Any], Any]
    log1p_exp: Callable[[Any], Any]
    convert: Callable[[Any], Any]
    xp: Any = np

    def asarray(self, values: Any) -> np.ndarray:
        if self.name == "float64":
            return self.xp.asarray(values, dtype=self.xp.float64)
        arr = np.asarray(values, dtype=object)
        return _vec(self.convert)(arr) if arr.size else arr

    def zeros(self, shape: tuple[int, ...]) -> np.ndarray:
        if self.name == "float64":
            return self.xp.zeros(shape, dtype=self.xp.float64)
        return np.full(shape, self.convert(0), dtype=object)


def _vec(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    vf = np.frompyfunc(fn, 1, 1)

    def apply(a: Any) -> Any:
        out = vf(a)
        return out if isinstance(out, np.ndarray) else np.asarray(out, dtype=object)

    return apply


FLOAT64 = Ops(
    "float64", False, np.exp, np.tanh, lambda z: np.logaddexp(0.0, z), lambda v: float(v)
)


def _mpf(v: Any) -> mp.mpf:
    if isinstance(v, str) and "/" in v:  # an exact fraction p/q (records of exact learners)
        v = Fraction(v)
    if isinstance(v, Fraction):
        return mp.mpf(v.numerator) / v.denominator
    if isinstance(v, sp.Rational):
        return mp.mpf(int(v.p)) / int(v.q)
    if isinstance(v, Decimal):
        return mp.mpf(str(v))
    return mp.mpf(v)


MP = Ops(
    "mpmath", False, _vec(mp.exp), _vec(mp.tanh), _vec(lambda z: mp.log1p(mp.exp(z))), _mpf
)


def _arb(v: Any) -> flint.arb:
    if isinstance(v, flint.arb):
        return v
    if isinstance(v, str) and "/" in v:
        v = Fraction(v)
    if isinstance(v, (Fraction, sp.Rational)):
        num, den = (v.numerator, v.denominator) if isinstance(v, Fraction) else (v.p, v.q)
        return flint.arb(int(num)) / int(den)
    if isinstance(v, mp.mpf):  # exact: binary mantissa and exponent (a decimal string would round)
        sign, man, exp, _ = v._mpf_
        if man == 0 and exp != 0:
            raise ValueError(f"not a finite number: {v}")
        return flint.arb(flint.arf((-int(man) if sign else int(man), int(exp))))
    if isinstance(v, (str, Decimal)):
        return flint.arb(str(v))
    return flint.arb(v)


ARB = Ops(
    "arb", False, _vec(lambda z: z.exp()), _vec(lambda z: z.tanh()),
    _vec(lambda z: (z.exp() + 1).log()), _arb,
)


def _rat(v: Any) -> sp.Expr:
    if isinstance(v, sp.Basic):
        return v
    if isinstance(v, Fraction):
        return sp.Rational(v.numerator, v.denominator)
    if isinstance(v, float):
        return sp.Rational(Fraction(v))
    if isinstance(v, (int, np.integer)):
        return sp.Integer(int(v))
    if isinstance(v, (str, Decimal)):
        return sp.Rational(Fraction(str(v)))
    raise TypeError(f"cannot convert {type(v).__name__} exactly")


SYM = Ops(
    "sympy", True, _vec(sp.exp), _vec(sp.tanh), _vec(lambda z: sp.log(1 + sp.exp(z))), _rat
)


def ops_for(name: str) -> Ops:
    return {"float64": FLOAT64, "mpmath": MP, "arb": ARB, "sympy": SYM}[name]


def to_float(a: Any) -> np.ndarray:
    """Any backend array -> float64 numpy array (for reporting and warm starts)."""
    arr = np.asarray(a, dtype=object) if not isinstance(a, np.ndarray) else a
    if arr.dtype != object:
        return np.asarray(arr, dtype=float)
    return np.vectorize(lambda v: float(v.mid()) if isinstance(v, flint.arb) else float(v),
                        otypes=[float])(arr)


def mp_abs_max(a: np.ndarray) -> mp.mpf:
    """Largest absolute entry of an object array of mpf (0 for empty)."""
    flat = np.asarray(a, dtype=object).ravel()
    return max((abs(v) for v in flat), default=mp.mpf(0))


def mp_str(v: Any, dps: int) -> str:
    """Decimal string of an mpf at full working precision (the record format)."""
    return mp.nstr(mp.mpf(v), dps, strip_zeros=False)


@contextmanager
def arb_bits(bits: int) -> Iterator[None]:
    """flint working precision of ``bits`` bits for the block (the previous precision restored after)."""
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = old
