"""Scalar sum-then-readout models in exact arithmetic: ``h(x_{<=t}) = omega(P_t)`` with the
pre-activation ``P_t = sum_{j in J(t)} psi(x_t, x_j) (+ x_t)``, ``J(t) = {j < t}`` (causal, no
diagonal), ``{j <= t}`` (diagonal included) or a set sum ``sum_{j <= t} psi(x_j)``, and ``omega`` any
diffeomorphism of R (a callable on sympy expressions, e.g. a Piecewise hinge).

Everything is sympy: token values are rationals, pair maps and readouts are sympy expressions, so a
gap ``h - f`` at a stated sequence is exact (an integer, a rational, or an algebraic/transcendental
number whose sign sympy certifies).

Two exact tools decide "every zero-risk learner generalizes" for such models:

* :func:`hinge` / :func:`term_counts`: with ``rho = id`` (gauge), a learner ``omega = rho + d`` with
  ``d = 0`` on ``(-inf, s0]`` equals the truth wherever every pre-activation is ``<= s0``; when the pair
  map is bounded above the training pre-activations are, so ``s0`` can be placed at their supremum,
  and ``d(s) = c max(s - s0, 0)^3`` keeps ``omega`` a C^2 diffeomorphism with ``omega' >= 1``.
* :func:`polynomial_kernel`: ``a = omega^-1 o rho`` a polynomial of degree <= D; zero risk at lengths
  1..3 is a polynomial identity in (w, alpha, beta) on a set with interior (Cauchy's equation, shifted by
  the diagonal/residual term w), i.e. exact linear equations on the coefficients of ``a``; their
  solution space is computed in rationals and each solution is checked at further lengths.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sympy as sp

s_sym = sp.Symbol("s", real=True)
ONE = sp.Integer(1)


def hinge(s0: sp.Rational, c: sp.Rational = ONE, p: int = 3) -> Callable[[sp.Expr], sp.Expr]:
    """omega(s) = s + c max(s - s0, 0)^p (the identity up to s0)."""
    def omega(s: sp.Expr) -> sp.Expr:
        return s + c * sp.Piecewise(((s - s0) ** p, s > s0), (0, True))
    return omega


def hinge_derivative_residual(s0: sp.Rational, c: sp.Rational = ONE, p: int = 3) -> sp.Expr:
    """omega'(s) - (1 + c p max(s - s0, 0)^(p-1)), zero for every real s (so omega' >= 1 for c >= 0:
    omega is strictly increasing, onto R, and has a C^1 inverse)."""
    om = hinge(s0, c, p)(s_sym)
    target = 1 + c * p * sp.Piecewise(((s_sym - s0) ** (p - 1), s_sym > s0), (0, True))
    return sp.piecewise_fold(sp.diff(om, s_sym) - target)


def term_counts(lengths: Sequence[int], keys: str) -> list[int]:
    """Number of pair (or set) terms in the pre-activation at each length: ``causal`` j < t gives t - 1,
    ``diagonal`` j <= t and ``set`` give t."""
    return [t - 1 if keys == "causal" else t for t in lengths]


@dataclass(frozen=True)
class SumReadout:
    """h(x_{<=t}) = omega(sum_j psi(x_t, x_j) (+ x_t)); ``keys``: causal | diagonal | set."""

    omega: Callable[[sp.Expr], sp.Expr]
    psi: Callable[[sp.Expr, sp.Expr], sp.Expr]
    keys: str = "causal"
    residual: bool = False

    def preactivation(self, xs: Sequence[sp.Expr]) -> sp.Expr:
        q, t = xs[-1], len(xs)
        if self.keys == "set":
            total = sum((self.psi(x, x) for x in xs), sp.Integer(0))
        else:
            upto = t - 1 if self.keys == "causal" else t
            total = sum((self.psi(q, xs[j]) for j in range(upto)), sp.Integer(0))
        return total + q if self.residual else total

    def value(self, xs: Sequence[sp.Expr]) -> sp.Expr:
        return self.omega(self.preactivation(xs))


def exact_gap(h: SumReadout, f: SumReadout, xs: Sequence[sp.Expr]) -> tuple[sp.Expr, bool]:
    """(h - f at xs, certified non-zero): sympy's exact value and its certified sign."""
    gap = sp.nsimplify(0) + sp.simplify(h.value(xs) - f.value(xs))
    nonzero = bool(gap.is_nonzero) or (gap.is_zero is False)
    return gap, nonzero


# ----------------------------------------------------------------------------- polynomial a
def _poly(coeffs: Sequence[sp.Symbol], z: sp.Expr) -> sp.Expr:
    return sum((c * z**i for i, c in enumerate(coeffs)), sp.Integer(0))


@dataclass(frozen=True)
class Kernel:
    """Solutions a(s) = sum_i c_i s^i of the zero-risk identities: ``general`` (free symbols left),
    ``equations`` (number of coefficient equations), ``dimension``."""

    general: sp.Expr
    free: tuple[sp.Symbol, ...]
    equations: int
    coefficients: tuple[sp.Symbol, ...]

    @property
    def dimension(self) -> int:
        return len(self.free)


def polynomial_kernel(degree: int, keys: str, residual: bool, lengths: Sequence[int]) -> Kernel:
    """Every polynomial a of degree <= ``degree`` with ``sum psi = a(sum phi)`` at every length in
    ``lengths`` (a subset of 1..3 matters), for some learned psi; the identities are taken on an open set
    of (w, alpha, beta), w = phi(x, x) (+ x) the query's own term, alpha, beta the key terms.

    What each length says (learned pre-activation P_h, true P_f, zero risk: P_h = a(P_f)):
    length 1: ``w_h = a(w)`` -- a constraint only when w_h is not learned (no diagonal/set term):
    ``a(0) = 0`` (nothing at all) or ``a(x) = x`` (residual alone); length 2 defines the learned key term
    ``psi = a(w + alpha) - a(w)``; length 3 gives Cauchy's equation shifted by w.
    For ``set`` keys (deep sets) length 1 defines psi = a(alpha) and length 2 gives Cauchy's equation."""
    cs = sp.symbols(f"c0:{degree + 1}")
    w, al, be = sp.symbols("w alpha beta")
    a = lambda z: _poly(cs, z)  # noqa: E731
    eqs: list[sp.Expr] = []
    L = set(lengths)
    if keys == "set":
        if 2 in L and 1 in L:
            eqs.append(sp.expand(a(al) + a(be) - a(al + be)))
    else:
        learned_w = keys == "diagonal"
        base = w if residual else sp.Integer(0)
        if 1 in L and not learned_w:
            eqs.append(sp.expand(a(base) - base))
        if {2, 3} <= L:
            ww = w if (learned_w or residual) else sp.Integer(0)
            eqs.append(sp.expand(a(ww) + (a(ww + al) - a(ww)) + (a(ww + be) - a(ww)) - a(ww + al + be)))
    rows: list[sp.Expr] = []
    for e in eqs:
        if e == 0:
            continue
        rows += [c for c in sp.Poly(e, w, al, be).coeffs() if c != 0]
    sol = sp.solve(rows, cs, dict=True) if rows else [{}]
    sub = sol[0] if sol else None
    if sub is None:
        raise ValueError("no polynomial a solves the identities")
    general = sp.expand(a(s_sym).subs(sub))
    free = tuple(c for c in cs if c in general.free_symbols)
    return Kernel(general, free, len(rows), tuple(cs))


def generalizes_at(kernel: Kernel, keys: str, residual: bool, length: int) -> sp.Expr:
    """Residual of zero risk at ``length`` for every learner of the kernel: the learned pre-activation
    (built from the length-1/2 definitions) minus a(true pre-activation), as a polynomial in (w, alphas);
    zero iff every such learner is exact at that length."""
    a = sp.Lambda(s_sym, kernel.general)
    w = sp.Symbol("w")
    alphas = sp.symbols(f"alpha1:{length + 1}")
    if keys == "set":
        learned = sum((a(x) for x in alphas[:length]), sp.Integer(0))
        return sp.expand(learned - a(sum(alphas[:length])))
    k = length - 1
    learned_w = keys == "diagonal"
    ww = w if (learned_w or residual) else sp.Integer(0)
    w_h = a(ww) if learned_w else ww
    learned = w_h + sum((a(ww + x) - a(ww) for x in alphas[:k]), sp.Integer(0))
    return sp.expand(learned - a(ww + sum(alphas[:k], sp.Integer(0))))
