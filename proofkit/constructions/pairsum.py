"""The off-support bump for pair-sum models (AM24 Assumption 3 models, value omega(sum_{j<=i} psi(x_i, x_j)
+ x_i)): a learner that equals the truth on every pair the training support shows and differs off it.

Where the training support bounds the pairs of its sequences, sum(a) + sum(b) <= c' < 2n for a = x_i,
b = x_j, i != j (:meth:`proofkit.engine.support.Support.pair_bound`), the learner psi = phi + g with

    g(a, b) = max(a + b - c', 0)^2 (a - b)^2

(C^1, zero where a + b <= c' and on the diagonal a = b) and the true readout has zero risk on every
training sequence of every length (every pair it reads is on the bounded side or diagonal), and differs
from f at a pair with a + b > c', a != b: a compositional witness (b, a) with tokens in the marginals.
Polynomial pair maps cannot express g (it vanishes on a set with interior without vanishing), which is
why the fitted search of the theorem's polynomial family finds nothing there.

Scalar models only (n = k = m = 1: the class the kernel's closed-form checker re-derives); the search
shrinks dimensions to reach them. The gap is exact (rational readouts) or enclosed in balls.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from ..families import closed_form
from ..language.spec import WitnessOutcome
from ..numerics.balls import Unsupported, arb_precision, ball

NAME = "pair-bump"
#: candidate token values for the witness, simplest first
VALUES = [Fraction(1), Fraction(0)] + [Fraction(p, q) for q in range(2, 11) for p in range(1, q)
                                        if Fraction(p, q).denominator == q]


def _omega(activation: str, z: sp.Expr) -> sp.Expr | None:
    """The readout as a sympy expression the kernel evaluates (None: not expressible there)."""
    forms = {"identity": lambda: z, "sigmoid": lambda: 1 / (1 + sp.exp(-z)), "relu": lambda: sp.Max(z, 0),
             "tanh": lambda: (sp.exp(2 * z) - 1) / (sp.exp(2 * z) + 1),
             "softplus": lambda: sp.log(1 + sp.exp(z))}
    return forms[activation]() if activation in forms else None


def _nonzero(gap: sp.Expr) -> str | None:
    """How the gap is proven non-zero (an exact non-zero rational, or a 60-digit ball excluding 0), or
    None when it is not (a structurally non-zero expression proves nothing)."""
    if gap.is_Rational:
        return "an exact non-zero rational" if gap != 0 else None
    try:
        with arb_precision(60):
            b = ball(gap)
    except Unsupported:
        return None
    return None if b.contains(0) else (f"in the 60-digit ball {b.mid().str(10, radius=False)} +/- "
                                       f"{float(b.rad()):.1e}, which excludes 0")


def _value(omega, psi, residual: bool, tokens: list[sp.Expr]) -> sp.Expr:
    q = tokens[-1]
    return omega(sum((psi(q, x) for x in tokens), sp.Integer(0)) + (q if residual else 0))


def off_support_bump(problem: Any) -> tuple[WitnessOutcome | None, str]:
    """(the certified witness, "") or (None, why the construction does not apply)."""
    from ..families.pairwise import PairwiseSum

    fam_h, fam_f = problem.learned, problem.true
    if not (isinstance(fam_h, PairwiseSum) and isinstance(fam_f, PairwiseSum)):
        return None, "not a pair-sum model"
    form = fam_f.scalar_form(problem.theta_true)
    if form is None or (fam_h.n, fam_h.k, fam_h.m) != (1, 1, 1) or fam_h.residual != fam_f.residual:
        return None, "scalar pair-sum models only (n = k~ = m = 1)"
    bound = problem.support.pair_bound()
    if bound is None:
        return None, (f"the {problem.support.kind} support has no pair bound below 2n (its pairs may fill "
                      "the cube)")
    c, why = bound
    B, bias, phi_expr = form
    s, qa, kb = closed_form.S, closed_form.A, closed_form.B
    omega_expr = _omega(problem.activation, B * s + bias)
    if omega_expr is None:
        return None, f"the {problem.activation} readout has no closed form here"
    cr = sp.Rational(c.numerator, c.denominator)
    bump = sp.Max(qa + kb - cr, 0) ** 2 * (qa - kb) ** 2
    psi_expr = phi_expr + bump

    def omega(v):
        return omega_expr.subs(s, v)

    def phi(x, y):
        return phi_expr.subs({qa: x, kb: y}, simultaneous=True)

    def psi(x, y):
        return psi_expr.subs({qa: x, kb: y}, simultaneous=True)

    residual = fam_f.residual
    pairs = sorted(((a, b) for a in VALUES for b in VALUES if a + b > c and a != b),
                   key=lambda ab: (ab[0].denominator + ab[1].denominator, -ab[0], -ab[1]))
    for a, b in pairs:
        toks = [sp.Rational(b.numerator, b.denominator), sp.Rational(a.numerator, a.denominator)]
        gap = sp.simplify(_value(omega, psi, residual, toks) - _value(omega, phi, residual, toks))
        nonzero = _nonzero(gap)
        if nonzero is not None:
            break
    else:
        return None, "no witness pair with a non-zero gap (the readout is flat there)"
    T = problem.T
    kind = "compositional" if T >= 2 else "length"
    lengths = list(range(1, T + 1))
    sums = [(list(range(1, t + 1)), str(c)) for t in range(2, T + 1)]
    data = closed_form.data("diagonal", residual, (omega_expr, psi_expr), (omega_expr, phi_expr),
                                 closed_form.support(("0", "1"), sums=sums), lengths,
                                 [str(b), str(a)], gap)
    witness = {"construction": NAME, "phi": sp.sstr(phi_expr), "g": f"max(a + b - {c}, 0)^2 (a - b)^2",
               "psi": "phi(a, b) + g(a, b)", "A": sp.sstr(B), "bias": sp.sstr(bias),
               "readout": problem.activation, "tokens": f"[{b}, {a}]", "gap": sp.sstr(gap)}
    how = (f"exact: psi = phi + g, g(a, b) = max(a + b - {c}, 0)^2 (a - b)^2 (C^1), A = B: {why}, so g = 0 "
           f"on every off-diagonal pair a training sequence shows and g(a, a) = 0 on the diagonal; h = f on "
           f"every training sequence of lengths 1..{T}. At the length-2 sequence ({b}, {a}) (tokens in the "
           f"marginals, {a} + {b} > {c}): h - f = {sp.sstr(gap)} (~{sp.N(gap, 6)}), {nonzero}, so {kind} "
           "generalization fails")
    return WitnessOutcome(True, "exact construction: the off-support bump psi = phi + g", witness, how, True,
                          f"{kind} generalization", data), ""
