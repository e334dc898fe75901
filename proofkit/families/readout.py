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

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

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


class Model(Protocol):
    """Anything with an exact value at a token sequence (a learner or a true model)."""

    def value(self, xs: Sequence[sp.Expr]) -> sp.Expr: ...


@dataclass(frozen=True)
class KeyInteraction:
    """A true model outside the pair class: ``base(x_{<=t}) + e_r(x_1, ..., x_{t-1})``, the elementary
    symmetric polynomial of degree ``order`` in the keys (an ``order``-key interaction). It is an empty
    sum, exactly 0, at every length t <= order."""

    base: SumReadout
    order: int

    def value(self, xs: Sequence[sp.Expr]) -> sp.Expr:
        keys = list(xs[:-1])
        extra = sum((sp.Mul(*c) for c in itertools.combinations(keys, self.order)), sp.Integer(0))
        return self.base.value(xs) + extra


def exact_gap(h: Model, f: Model, xs: Sequence[sp.Expr]) -> tuple[sp.Expr, bool]:
    """(h - f at xs, certified non-zero): sympy's exact value and its certified sign."""
    gap = sp.simplify(h.value(xs) - f.value(xs))
    nonzero = bool(gap.is_nonzero) or (gap.is_zero is False)
    return gap, nonzero


@dataclass(frozen=True)
class SetHinge:
    """The hinge witness for deep sets: the knot ``s0``, the test ``tokens``, the exact ``gap`` h - f there
    and whether its sign is certified non-zero."""

    s0: sp.Integer
    tokens: list[sp.Expr]
    gap: sp.Expr
    nonzero: bool


def set_hinge_witness(lengths: Sequence[int]) -> SetHinge:
    """Deep sets omega(sum_{j<=t} psi(x_j)) with phi(x) = x on [0,1] and rho = id, against the learner
    omega(s) = s + max(s - s0, 0)^3, psi = phi, with s0 the longest supervised length: every training sum
    is <= s0, where the hinge is 0 (zero risk), while one more token equal to 1 passes s0. The gap is taken
    at length max(lengths) + 1 with every token 1."""
    s0 = sp.Integer(max(lengths))
    h = SumReadout(hinge(s0), lambda a, b: b, "set")
    f = SumReadout(lambda s: s, lambda a, b: b, "set")
    xs = [ONE] * (max(lengths) + 1)
    gap, nonzero = exact_gap(h, f, xs)
    return SetHinge(s0, xs, gap, nonzero)


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


# ----------------------------------------------------------------------------- polytopes
def polytope_max(weights: Sequence[sp.Rational], cap: sp.Rational) -> sp.Rational:
    """Exact max of sum_i w_i x_i over {x in [0,1]^d : sum_i x_i <= cap}: every vertex (d active
    constraints among 0 <= x_i <= 1 and the cut, solved in rationals, kept when feasible) is
    enumerated, so the value is the maximum, not a bound."""
    d = len(weights)
    rows = [([1 if j == i else 0 for j in range(d)], 0) for i in range(d)] + \
           [([1 if j == i else 0 for j in range(d)], 1) for i in range(d)] + [([1] * d, cap)]
    best: sp.Rational | None = None
    for active in itertools.combinations(rows, d):
        M = sp.Matrix([r for r, _ in active])
        if M.det() == 0:
            continue
        x = M.LUsolve(sp.Matrix([b for _, b in active]))
        if all(0 <= v <= 1 for v in x) and sum(x) <= cap:
            val = sum((w * v for w, v in zip(weights, x)), sp.Integer(0))
            best = val if best is None or val > best else best
    if best is None:
        raise ValueError("empty polytope")
    return best


# ----------------------------------------------------------------------------- vector tokens
@dataclass(frozen=True)
class VectorKernel:
    """Solutions a: R^k -> R^k (each component a polynomial of total degree <= D) of the zero-risk
    identities a(0) = 0 and a(alpha) + a(beta) = a(alpha + beta) (alpha, beta in R^k): ``general`` is a
    k x 1 matrix in the symbols ``s``, ``free`` the coefficients left free."""

    general: sp.Matrix
    s: tuple[sp.Symbol, ...]
    free: tuple[sp.Symbol, ...]
    equations: int


def vector_polynomial_kernel(degree: int, k: int = 2) -> VectorKernel:
    """Every polynomial a: R^k -> R^k of degree <= ``degree`` with zero risk at lengths 1..3 of the causal
    model (a(0) = 0 from length 1, Cauchy's equation in R^k from length 3 on an open set of (alpha,
    beta)): the coefficient equations solved exactly in rationals."""
    s = sp.symbols(f"s1:{k + 1}")
    al, be = sp.symbols(f"alpha1:{k + 1}"), sp.symbols(f"beta1:{k + 1}")
    monos = [m for d in range(degree + 1) for m in itertools.combinations_with_replacement(range(k), d)]
    cs = [[sp.Symbol(f"c{r}_{i}") for i in range(len(monos))] for r in range(k)]

    def a(z: Sequence[sp.Expr]) -> list[sp.Expr]:
        return [sum((c * sp.Mul(*[z[v] for v in m]) for c, m in zip(cs[r], monos)), sp.Integer(0))
                for r in range(k)]

    zero = [sp.Integer(0)] * k
    rows: list[sp.Expr] = list(a(zero))
    for lhs, rhs in zip([x + y for x, y in zip(a(al), a(be))], a([x + y for x, y in zip(al, be)])):
        rows += [c for c in sp.Poly(sp.expand(lhs - rhs), *al, *be).coeffs() if c != 0]
    flat = [c for row in cs for c in row]
    sol = sp.solve(rows, flat, dict=True)
    if not sol:
        raise ValueError("no polynomial a solves the identities")
    general = sp.Matrix([sp.expand(e.subs(sol[0])) for e in a(s)])
    free = tuple(c for c in flat if c in general.free_symbols)
    return VectorKernel(general, s, free, len(rows))


def vector_generalizes_at(kernel: VectorKernel, length: int) -> sp.Matrix:
    """sum_{j < t} a(alpha_j) - a(sum_j alpha_j) at length t (t - 1 key terms in R^k), expanded: the zero
    matrix iff every learner of the kernel is exact at that length."""
    k = len(kernel.s)
    alphas = [sp.symbols(f"alpha{j}_1:{k + 1}") for j in range(1, length)]

    def a(z: Sequence[sp.Expr]) -> sp.Matrix:
        return kernel.general.subs(dict(zip(kernel.s, z)), simultaneous=True)

    total = [sum((al[r] for al in alphas), sp.Integer(0)) for r in range(k)]
    learned = sum((a(al) for al in alphas), sp.zeros(k, 1))
    return (learned - a(total)).applyfunc(sp.expand)
