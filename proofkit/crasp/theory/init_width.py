"""The regularizer term (8) at initialization (Huang et al. 2024, App. G.1, Prop. 54): how wide a network must
be for the expected positional attention products to stay bounded as the context N grows.

Our reading (the extracted text lost the formulas and Prop. 54's assumption on the width d): one head, the
positional encodings p_1..p_N in R^d and K, Q in R^{d_k x d} with i.i.d. N(0, s) entries, s = 1/d and d_k = d.
With A = K^T Q,

* E[(p_i^T A p_j)^2] = s^4 d_k d^2 for i != j and s^4 d_k (d^2 + 2d) for i = j (Gaussian moments), i.e. 1/d
  and (d + 2)/d^2 at s = 1/d;
* the one-position term (8), sum_{j <= N} (p_1^T A p_j)^2, has expectation (N - 1)/d + (d + 2)/d^2;
* the all-pairs variant (67), sum_{i <= j <= N} (p_i^T A p_j)^2, has N(N - 1)/(2d) + N(d + 2)/d^2.

:func:`moment_integers` computes the moments exactly from the Gaussian moments E[x^2k] = s^k (2k - 1)!! of
every monomial (no formula assumed) at small d; :func:`monte_carlo` samples both sums at larger d.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from math import prod

import numpy as np
import sympy as sp

from ...language.evidence import Evidence, Method, fails, holds

N, d, c = sp.symbols("N d c", positive=True)
#: expectations at entry variance 1/d, d_k = d (see the module docstring)
E_OFF = 1 / d
E_DIAG = (d + 2) / d**2
E8 = (N - 1) * E_OFF + E_DIAG
E67 = N * (N - 1) / 2 * E_OFF + N * E_DIAG


def _double_factorial_odd(k: int) -> int:
    """(k - 1)!! for even k (the Gaussian moment E[x^k] / s^(k/2)); 0 for odd k."""
    return 0 if k % 2 else prod(range(1, k, 2))


def _terms(dim: int, diagonal: bool) -> list[tuple[str, ...]]:
    """The monomials of p^T K^T Q q (q = p when ``diagonal``), each as its tuple of variable names."""
    q = "p" if diagonal else "q"
    return [(f"p{a}", f"K{k}_{a}", f"Q{k}_{b}", f"{q}{b}")
            for k, a, b in product(range(dim), repeat=3)]


def moment_integers(dim: int) -> tuple[int, int]:
    """E[(p^T K^T Q q)^2] / s^4 and E[(p^T K^T Q p)^2] / s^4 at d = d_k = ``dim``, exactly: the sum over all
    pairs of monomials of the product of each variable's Gaussian moment (every product has degree 8)."""
    out = []
    for diagonal in (False, True):
        terms = _terms(dim, diagonal)
        total = 0
        for t1 in terms:
            for t2 in terms:
                total += prod(_double_factorial_odd(k) for k in Counter(t1 + t2).values())
        out.append(total)
    return out[0], out[1]


def moment_formula(dim: int) -> tuple[int, int]:
    """The closed forms d_k d^2 and d_k (d^2 + 2d) at d = d_k = ``dim``."""
    return dim**3, dim * (dim**2 + 2 * dim)


@dataclass(frozen=True)
class MonteCarlo:
    """Sample means and standard errors of the sums (8) and (67) at one (N, d), with the exact values."""

    N: int
    d: int
    samples: int
    mean8: float
    se8: float
    exact8: float
    mean67: float
    se67: float
    exact67: float

    def within(self, z: float) -> bool:
        """Both exact values lie within z standard errors of the sample means."""
        return (abs(self.mean8 - self.exact8) <= z * self.se8
                and abs(self.mean67 - self.exact67) <= z * self.se67)


def monte_carlo(pairs: Sequence[tuple[int, int]], samples: int, seed: int = 0) -> list[MonteCarlo]:
    """Seeded samples of (8) and (67) with i.i.d. N(0, 1/d) entries of p_i, K, Q (d_k = d)."""
    rng = np.random.default_rng(seed)
    out = []
    for n, dim in pairs:
        s8, s67 = np.empty(samples), np.empty(samples)
        iu = np.triu_indices(n)
        for t in range(samples):
            shapes = ((n, dim), (dim, dim), (dim, dim))
            P, K, Q = (rng.standard_normal(shape) / np.sqrt(dim) for shape in shapes)
            G = (P @ K.T) @ (Q @ P.T)  # G[i, j] = p_i^T K^T Q p_j
            s8[t] = float(np.sum(G[0] ** 2))
            s67[t] = float(np.sum(G[iu] ** 2))
        e8, e67 = (float(e.subs({N: n, d: dim})) for e in (E8, E67))
        se = np.sqrt(samples)
        out.append(MonteCarlo(n, dim, samples, float(s8.mean()), float(s8.std(ddof=1) / se), e8,
                              float(s67.mean()), float(s67.std(ddof=1) / se), e67))
    return out


def limit_at_width(expr: sp.Expr, width: sp.Expr) -> sp.Expr:
    """lim_{N -> oo} of ``expr`` with d = ``width`` (a function of N and the constant c > 0)."""
    return sp.limit(expr.subs(d, width), N, sp.oo)


def moments_evidence(dims: Sequence[int]) -> Evidence:
    """Evidence: the exact Gaussian moments equal d^3 and d^3 + 2d^2 (times s^4) at every d of ``dims``."""
    domain = f"d = d_k = {', '.join(map(str, dims))}, both E[(p^T K^T Q q)^2] (i != j) and E[(p^T K^T Q p)^2]"
    got = {m: (moment_integers(m), moment_formula(m)) for m in dims}
    bad = next((m for m, (a, b) in got.items() if a != b), None)
    if bad is not None:
        return fails(Method.EXACT, f"d = {bad}: exact {got[bad][0]}, formula {got[bad][1]}", domain=domain,
                     count=len(dims), residual=str(got[bad]))
    return holds(Method.ENUMERATION, domain, count=2 * len(dims), residual="0",
                 detail="exact sums over every pair of monomials of the Gaussian moments: E/s^4 = "
                        + ", ".join(f"d={m}: {a}" for m, (a, _) in got.items())
                        + " = (d^3, d^3 + 2d^2); at s = 1/d: 1/d and (d + 2)/d^2. Both sides are polynomials "
                        "of degree <= 3 in d (three free indices a, b, k), so four values fix them")


def monte_carlo_evidence(pairs: Sequence[tuple[int, int]], samples: int, seed: int, z: float) -> Evidence:
    """Sampled evidence: the exact (8) and (67) expectations lie within ``z`` standard errors of the means."""
    runs = monte_carlo(pairs, samples, seed)
    domain = (f"(N, d) = {', '.join(f'({n}, {m})' for n, m in pairs)}, {samples} seeded samples each (seed "
              f"{seed}), float64")
    lines = [f"(N, d) = ({r.N}, {r.d}): (8) {r.mean8:.4f} +- {r.se8:.4f} vs {r.exact8:.4f}, "
             f"(67) {r.mean67:.3f} "
             f"+- {r.se67:.3f} vs {r.exact67:.3f}" for r in runs]
    bad = next((r for r in runs if not r.within(z)), None)
    if bad is not None:
        return fails(Method.SAMPLED, f"(N, d) = ({bad.N}, {bad.d}) outside {z} standard errors",
                     domain=domain,
                     count=len(runs), residual="; ".join(lines))
    return holds(Method.SAMPLED, domain, count=len(runs), residual=f"within {z} standard errors",
                 detail="; ".join(lines))


def unbounded_evidence(expr: sp.Expr, width: sp.Expr, name: str) -> Evidence:
    """Exact evidence whether ``expr`` stays bounded as N -> oo at d = ``width``: its limit (sympy)."""
    lim = limit_at_width(expr, width)
    domain = f"{name} at d = {width}, c > 0, N -> oo"
    if lim.is_finite:
        return holds(Method.IDENTITY, domain, residual=f"limit {lim}",
                     detail=f"lim_(N -> oo) {name} = {lim} (finite): bounded")
    return fails(Method.IDENTITY, f"lim_(N -> oo) {name} = {lim}", domain=domain, residual=str(lim),
                 detail=f"{name} = {sp.simplify(expr.subs(d, width))} at d = {width}: unbounded in N")
