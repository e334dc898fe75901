"""Exact statements for families linear in their parameters once the features are fixed (pairwise sums
with a residual, :class:`proofkit.families.pairwise.PairwiseSum`).

At length t the logit is ``G sum_{j<=t} p(x_t, x_j) + R x_t``: a polynomial in the t tokens whose
monomial coefficients are integer combinations of the entries of (G, R). Two models agree on a set
with non-empty interior (every support here at lengths it samples, after pinning the coordinates a
support fixes) iff those coefficients agree: a polynomial vanishing on an open set is zero. So

* zero training risk is the exact linear system ``E_train (G, R) = E_train (G_f, R_f)`` over the
  supervised lengths (one system per output row, integer matrix E);
* every zero-risk learner agrees with f at length t iff ``E_t`` annihilates the kernel of ``E_train``.

The equations at length t >= 2 are affine in t: rows of monomials that involve a key token x_j (j < t)
do not depend on t, and rows of monomials in x_t alone are ``diag + (t - 1) key-free + residual``. So
kernel containment at two distinct lengths >= 2 and at the supervised ones covers every length t >= 1;
:func:`analyse` checks lengths 1..max(T, 2) + 2 and says so.

:func:`sum_bound` is the ball bound of sup |logit_h - logit_f| over every sequence of length <= L with
tokens in a box, at a fitted learner (the coefficient differences in balls).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint
import mpmath as mp
import numpy as np
import sympy as sp

from .backend import ARB
from .certify import arb_precision, upper
from .certify_features import Bound, box_text

Key = tuple[tuple[str, tuple[int, ...]], ...]


def length_rows(exponents: Sequence[tuple[int, ...]], n: int, t: int, residual: bool,
                pinned: Sequence[int] = ()) -> dict[Key, list[int]]:
    """Monomial key -> integer row over the unknowns (one per exponent, then n residual entries) of the
    length-t logit ``G sum_j p(x_t, x_j) + R x_t``; ``"t"`` is the last token, ``"j"`` stands for any
    one key token x_j, j < t (every j gives the same rows). Monomials with a positive power of a
    ``pinned`` coordinate (fixed to 0 by the support) vanish and are left out."""
    F = len(exponents)
    rows: dict[Key, list[int]] = {}

    def add(key: Key, col: int, count: int) -> None:
        if any(e[c] for _, e in key for c in pinned):
            return
        rows.setdefault(key, [0] * (F + n))[col] += count

    for s, e in enumerate(exponents):
        alpha, beta = e[:n], e[n:]
        add(_key((("t", tuple(a + b for a, b in zip(alpha, beta))),)), s, 1)  # j = t
        if t >= 2:
            if any(beta):
                add(_key((("t", alpha), ("j", beta))), s, 1)
            else:
                add(_key((("t", alpha),)), s, t - 1)
    if residual:
        for i in range(n):
            add((("t", tuple(int(c == i) for c in range(n))),), F + i, 1)
    return rows


def _key(parts: tuple[tuple[str, tuple[int, ...]], ...]) -> Key:
    return tuple(sorted(p for p in parts if any(p[1])))


def system(exponents: Sequence[tuple[int, ...]], n: int, lengths: Sequence[int], residual: bool,
           pinned: Sequence[int] = ()) -> tuple[list[tuple[int, Key]], sp.Matrix]:
    """Stacked rows over several lengths: (row labels (length, monomial), integer matrix)."""
    labels, data = [], []
    cols = len(exponents) + (n if residual else 0)  # no residual: no R unknowns
    for t in lengths:
        for key, row in length_rows(exponents, n, t, residual, pinned).items():
            labels.append((t, key))
            data.append(row[:cols])
    return labels, sp.Matrix(data) if data else sp.zeros(0, cols)


@dataclass
class Analysis:
    """Zero-risk set of the linear coordinates (G, R) (per output row) and what it does at test."""

    unknowns: int  # per output row
    kernel: list[sp.Matrix]  # basis of the zero-risk set's directions (per output row)
    feasible: bool
    failures: list[tuple[int, sp.Matrix]]  # (length, a kernel direction that moves that length)
    lengths: list[int]  # lengths checked
    equations: int

    @property
    def dim(self) -> int:
        return len(self.kernel)


def analyse(learned_exponents: Sequence[tuple[int, ...]], true_exponents: Sequence[tuple[int, ...]],
            true_rows: Sequence[tuple[Sequence[Any], Sequence[Any]]], n: int, residual_h: bool,
            residual_f: bool, train_lengths: Sequence[int], pinned: Sequence[int] = ()) -> Analysis:
    """Exact zero-risk analysis. ``true_rows``: per output row, (G_f row, R_f row) as exact decimals or
    fractions. Feasibility: E_h u = E_f g_f solvable for every row; kernel: null space of E_h; failures:
    test lengths 1..max(T, 2) + 2 (every length by the affine structure) where a kernel direction moves
    the logit."""
    T = max(train_lengths)
    check_lengths = list(range(1, max(T, 2) + 3))
    labels_h, Eh = system(learned_exponents, n, train_lengths, residual_h, pinned)
    feasible = True
    for g_row, r_row in true_rows:
        target = _true_rhs(true_exponents, n, train_lengths, residual_f, pinned, g_row, r_row, labels_h)
        if target is None or Eh.rank() != Eh.row_join(target).rank():
            feasible = False
            break
    kernel = Eh.nullspace()
    failures = []
    for t in check_lengths:
        if t in train_lengths:
            continue
        _, Et = system(learned_exponents, n, [t], residual_h, pinned)
        for v in kernel:
            if any(x != 0 for x in Et * v):
                failures.append((t, v))
                break
    return Analysis(Eh.cols, kernel, feasible, failures, check_lengths, Eh.rows)


def _true_rhs(exponents: Sequence[tuple[int, ...]], n: int, lengths: Sequence[int], residual: bool,
              pinned: Sequence[int], g_row: Sequence[Any], r_row: Sequence[Any],
              labels_h: list[tuple[int, Key]]) -> sp.Matrix | None:
    """The true model's monomial coefficients at the learned system's rows (None when the true model
    has a monomial the learned system has no row for: not realizable)."""
    coeffs = [_rational(v) for v in g_row] + [_rational(v) for v in r_row]
    coeffs += [sp.Integer(0)] * (len(exponents) + n - len(coeffs))
    index = {lab: i for i, lab in enumerate(labels_h)}
    out = [sp.Integer(0)] * len(labels_h)
    for t in lengths:
        for key, row in length_rows(exponents, n, t, residual, pinned).items():
            value = sum((c * w for c, w in zip(row, coeffs) if c), sp.Integer(0))
            if value == 0:
                continue
            if (t, key) not in index:
                return None
            out[index[(t, key)]] += value
    return sp.Matrix(out)


def _rational(v: Any) -> sp.Rational:
    if isinstance(v, sp.Basic):
        return sp.nsimplify(v) if not v.is_Rational else v
    return sp.Rational(Fraction(str(v)))


def describe_direction(v: sp.Matrix, exponents: Sequence[tuple[int, ...]], n: int) -> str:
    """A kernel direction in words: dG on monomials (a = query, b = key) and dR."""
    names = [monomial_name(e, n) for e in exponents] + [f"x_t[{i}] (residual)" for i in range(n)]
    terms = [f"{sp.sstr(c)}*{name}" for c, name in zip(v, names) if c != 0]
    return " + ".join(terms) if terms else "0"


def monomial_name(e: tuple[int, ...], n: int) -> str:
    parts = []
    for v, d in enumerate(e):
        if d:
            var = f"a{v}" if v < n else f"b{v - n}"
            parts.append(var if d == 1 else f"{var}^{d}")
    return "*".join(parts) or "1"


def sum_bound(learned: Any, theta_h: np.ndarray, true: Any, theta_f: np.ndarray, lo: np.ndarray,
              hi: np.ndarray, length: int, dps: int) -> Bound | None:
    """Ball bound of sup |logit_h - logit_f| over every sequence of length <= ``length`` with tokens in
    the box [lo, hi]: ``t sum_e |G_h - G_f|_e sup|p_e| + sum_i |R_h - R_f|_i sup|x_i|`` per output, at
    t = length. None unless both families expose ``linear_parts``."""
    if not (hasattr(learned, "linear_parts") and hasattr(true, "linear_parts")):
        return None
    domain = f"every sequence of length <= {length} with tokens in {box_text(lo, hi)}"
    with arb_precision(dps):
        ph, pf = learned.linear_parts(ARB.asarray(theta_h)), true.linear_parts(ARB.asarray(theta_f))
        if ph["G"].shape[0] != pf["G"].shape[0]:
            return None
        big = [max(abs(flint.arb(str(a))), abs(flint.arb(str(b)))) for a, b in zip(lo, hi)]
        big = big + big  # query and key coordinates range over the same box
        coef: dict[tuple[int, ...], Any] = {}
        for parts, sign in ((ph, 1), (pf, -1)):
            for s, e in enumerate(parts["exponents"]):
                col = parts["G"][:, s] * sign
                coef[e] = col if e not in coef else coef[e] + col
        worst = mp.mpf(0)
        for r in range(ph["G"].shape[0]):
            pair = flint.arb(0)
            for e, col in coef.items():
                sup = flint.arb(1)
                for v, d in enumerate(e):
                    if d:
                        sup = sup * big[v] ** d
                pair += abs(col[r]) * sup
            res = sum((abs(ph["R"][r, i] - pf["R"][r, i]) * big[i] for i in range(len(lo))),
                      flint.arb(0))
            worst = max(worst, upper(int(length) * pair + res))
    if not mp.isfinite(worst):
        return None
    return Bound(worst, domain,
                 f"ball bound at {dps} digits: t sum_e |G_h - G_f|_e sup|p_e| + |R_h - R_f| sup|x| at "
                 f"t = {length}, with G = A W and R = A E the model's linear coordinates "
                 f"({len(coef)} monomials)")
