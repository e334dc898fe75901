"""Additive maps: the steps that turn Cauchy's equation a(alpha) + a(beta) = a(alpha + beta) into linearity,
each a sympy residual a proof-step claim checks (zero: the step holds). Used where a proof identifies a
readout through pair sums (a = omega^-1 o rho additive on the span of the pair maps)."""

from __future__ import annotations

import sympy as sp
from sympy import Symbol

_al, _be = sp.symbols("alpha beta", real=True)


def cauchy_zero() -> sp.Basic:
    """a(0) + a(0) = a(0) gives a(0) = 0."""
    return sp.Eq(sp.Tuple(*sp.solve(sp.Eq(2 * Symbol("a0"), Symbol("a0")), Symbol("a0"))), sp.Tuple(0))


def cauchy_odd() -> sp.Expr:
    """a(alpha) + a(-alpha) = a(0) = 0 gives a(-alpha) = -a(alpha) (a0 := a(0) = 0)."""
    x, m = sp.symbols("x m")
    return sp.solve(sp.Eq(x + m, 0), m)[0] + x


def cauchy_integers() -> list[sp.Expr]:
    """a((p+1) alpha) = a(p alpha) + a(alpha) gives a(p alpha) = p a(alpha), p = 1..8."""
    vals = [Symbol("a1")]
    for _ in range(7):
        vals.append(vals[-1] + vals[0])
    return [v - (i + 1) * vals[0] for i, v in enumerate(vals)]


def cauchy_rationals() -> sp.Expr:
    """q a(alpha / q) = a(alpha) (integer homogeneity at alpha/q), so a((p/q) alpha) = (p/q) a(alpha)."""
    p, q = sp.symbols("p q", positive=True, integer=True)
    aq = sp.solve(sp.Eq(q * Symbol("b"), Symbol("a1")), Symbol("b"))[0]
    return p * aq - sp.Rational(1) * p / q * Symbol("a1")


def square_is_additive() -> sp.Expr:
    """A deliberately false step (a control): a(s) = s^2 solves Cauchy's equation."""
    return (_al**2 + _be**2) - (_al + _be) ** 2


def cauchy_derivative() -> list[sp.Expr]:
    """d/dalpha and d/dbeta of a(alpha) + a(beta) - a(alpha + beta) on an open set give a'(alpha) =
    a'(alpha + beta) = a'(beta): a' is constant there, so a C^1 additive a is linear. (a'(alpha + beta)
    written as d/dbeta a(alpha + beta) and d/dalpha a(alpha + beta), which are the same.)"""
    a = sp.Function("a")
    e = a(_al) + a(_be) - a(_al + _be)
    d_sum = sp.diff(a(_al + _be), _be)
    return [sp.diff(e, _al) - (sp.diff(a(_al), _al) - d_sum),
            sp.diff(e, _be) - (sp.diff(a(_be), _be) - sp.diff(a(_al + _be), _al))]


_A = Symbol("A", nonzero=True)


def two_heads_sum_only() -> sp.Expr:
    """Two heads: with psi1 = A phi1 + g and psi2 = A phi2 - g (any g), omega(sum (psi1 + psi2)) for
    omega(z) = rho(z / A) equals rho(sum (phi1 + phi2)) at length 4: only the heads' sum is identified."""
    rho = sp.Function("rho")
    xs = sp.symbols("x1:5", real=True)
    g, p1, p2 = sp.Function("g"), sp.Function("phi1"), sp.Function("phi2")
    q = xs[-1]
    tot = sum(_A * p1(q, x) + g(q, x) + _A * p2(q, x) - g(q, x) for x in xs[:-1])
    return rho(sp.expand(tot / _A)) - rho(sum(p1(q, x) + p2(q, x) for x in xs[:-1]))


def head_not_identified() -> sp.Basic:
    """With g(a, b) = a b the head psi1 = A phi1 + g (phi1(a, b) = b) is not A phi1: at (1, 1),
    psi1 - A phi1 = 1 != 0, while the two-head model is exact (:func:`two_heads_sum_only`)."""
    a, b = sp.symbols("a b", real=True)
    psi1 = _A * b + a * b
    return sp.Ne((psi1 - _A * b).subs({a: 1, b: 1}), 0)
