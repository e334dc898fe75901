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

from ..numerics.backend import ARB
from ..numerics.balls import Bound, arb_precision, box_text, upper

Key = tuple[tuple[str, tuple[int, ...]], ...]


@dataclass(frozen=True)
class Columns:
    """The unknowns of one output row of a pairwise sum in its linear coordinates, in this order: G on
    the monomials ``exponents``, G on the key hinges ``hinges`` ((knot, key coordinate) pairs), R on the
    n residual entries (only with ``residual``), the bias a (only with ``bias``)."""

    exponents: tuple[tuple[int, ...], ...]
    n: int
    residual: bool
    hinges: tuple[tuple[Fraction, int], ...] = ()
    bias: bool = False

    @classmethod
    def of(cls, family: Any) -> Columns:
        """The columns of a :class:`proofkit.families.pairwise.PairwiseSum`."""
        return cls(tuple(family.exponents), family.n, family.residual, tuple(family.hinges),
                   family.readout_bias)

    @property
    def size(self) -> int:
        return len(self.exponents) + len(self.hinges) + (self.n if self.residual else 0) + int(self.bias)


def length_rows(exponents: Sequence[tuple[int, ...]] | Columns, n: int, t: int, residual: bool = True,
                pinned: Sequence[int] = (), hi: Sequence[Any] | None = None) -> dict[Key, list[int]]:
    """Monomial key -> integer row over the unknowns (:class:`Columns`; a list of exponents means
    monomials then, with ``residual``, n residual entries) of the length-t logit
    ``G sum_j p(x_t, x_j) + R x_t + a``; ``"t"`` is the last token, ``"j"`` stands for any one key
    token x_j, j < t (every j gives the same rows); the bias has the empty key. Monomials with a
    positive power of a ``pinned`` coordinate (fixed to 0 by the support) vanish and are left out.
    A key hinge max(b_i - kappa, 0)^2 is its own function (keys ``"ht"`` at x_t, ``"hj"`` at a key
    token: linearly independent of the polynomials on a box with lo < kappa < hi_i); it vanishes on
    the box, and has no row, when kappa >= ``hi[i]`` or i is pinned."""
    cols = exponents if isinstance(exponents, Columns) else Columns(tuple(exponents), n, residual)
    n, F, H = cols.n, len(cols.exponents), len(cols.hinges)
    rows: dict[Key, list[int]] = {}

    def add(key: Key, col: int, count: int) -> None:
        if any(e[c] for tag, e in key if tag in ("t", "j") for c in pinned):
            return
        rows.setdefault(key, [0] * cols.size)[col] += count

    for s, e in enumerate(cols.exponents):
        alpha, beta = e[:n], e[n:]
        add(_key((("t", tuple(a + b for a, b in zip(alpha, beta))),)), s, 1)  # j = t
        if t >= 2:
            if any(beta):
                add(_key((("t", alpha), ("j", beta))), s, 1)
            else:
                add(_key((("t", alpha),)), s, t - 1)
    for h, (kn, i) in enumerate(cols.hinges):
        if i in pinned or (hi is not None and kn >= hi[i]):
            continue
        tag = (kn.numerator, kn.denominator, i)
        add((("ht", tag),), F + h, 1)
        if t >= 2:
            add((("hj", tag),), F + h, 1)
    if cols.residual:
        for i in range(n):
            add((("t", tuple(int(c == i) for c in range(n))),), F + H + i, 1)
    if cols.bias:
        add((), cols.size - 1, 1)
    return rows


def _key(parts: tuple[tuple[str, tuple[int, ...]], ...]) -> Key:
    return tuple(sorted(p for p in parts if any(p[1])))


def system(exponents: Sequence[tuple[int, ...]] | Columns, n: int, lengths: Sequence[int],
           residual: bool = True, pinned: Sequence[int] = (),
           hi: Sequence[Any] | None = None) -> tuple[list[tuple[int, Key]], sp.Matrix]:
    """Stacked rows over several lengths: (row labels (length, monomial), integer matrix)."""
    cols = exponents if isinstance(exponents, Columns) else Columns(tuple(exponents), n, residual)
    labels, data = [], []
    for t in lengths:
        for key, row in length_rows(cols, n, t, residual, pinned, hi).items():
            labels.append((t, key))
            data.append(row)
    return labels, sp.Matrix(data) if data else sp.zeros(0, cols.size)


@dataclass
class Analysis:
    """Zero-risk set of the linear coordinates (G, R, a) (per output row) and what it does at test."""

    unknowns: int  # per output row
    kernel: list[sp.Matrix]  # basis of the zero-risk set's directions (per output row)
    feasible: bool
    failures: list[tuple[int, sp.Matrix]]  # (length, a kernel direction that moves that length)
    lengths: list[int]  # lengths checked
    equations: int

    @property
    def dim(self) -> int:
        return len(self.kernel)


def analyse(learned: Sequence[tuple[int, ...]] | Columns, true: Sequence[tuple[int, ...]] | Columns,
            true_rows: Sequence[Sequence[Sequence[Any]]], n: int, residual_h: bool = True,
            residual_f: bool = True, train_lengths: Sequence[int] = (1,), pinned: Sequence[int] = (),
            hi: Sequence[Any] | None = None, test_hi: Sequence[Any] | None = None) -> Analysis:
    """Exact zero-risk analysis. ``learned``, ``true``: :class:`Columns` (or monomial exponents, with
    ``residual_h`` / ``residual_f``); ``true_rows``: per output row, the true unknowns in the true
    columns' order, in blocks (G row, R row[, a]) as exact decimals or fractions. ``hi``: the training
    token box's upper ends (hinges at or past them vanish in training), ``test_hi`` those of the test
    tokens past T. Feasibility: E_h u = E_f g_f solvable for every row; kernel: null space of E_h;
    failures: test lengths 1..max(T, 2) + 2 (every length by the affine structure) where a kernel
    direction moves the logit."""
    ch = learned if isinstance(learned, Columns) else Columns(tuple(learned), n, residual_h)
    cf = true if isinstance(true, Columns) else Columns(tuple(true), n, residual_f)
    T = max(train_lengths)
    check_lengths = list(range(1, max(T, 2) + 3))
    labels_h, Eh = system(ch, n, train_lengths, pinned=pinned, hi=hi)
    feasible = True
    for blocks in true_rows:
        target = true_rhs(cf, train_lengths, pinned, hi, [v for b in blocks for v in b], labels_h)
        if target is None or Eh.rank() != Eh.row_join(target).rank():
            feasible = False
            break
    kernel = Eh.nullspace()
    failures = []
    for t in check_lengths:
        if t in train_lengths:
            continue
        _, Et = system(ch, n, [t], pinned=pinned, hi=test_hi if t > T and test_hi is not None else hi)
        for v in kernel:
            if any(x != 0 for x in Et * v):
                failures.append((t, v))
                break
    return Analysis(Eh.cols, kernel, feasible, failures, check_lengths, Eh.rows)


def coefficients(cols: Columns, values: Sequence[Any], t: int, pinned: Sequence[int] = (),
                 hi: Sequence[Any] | None = None) -> dict[Key, sp.Rational]:
    """The length-t logit's coefficient on each monomial / hinge key (zeros left out), exactly, for the
    unknowns ``values`` in the order of ``cols``."""
    coeffs = [_rational(v) for v in values]
    out = {}
    for key, row in length_rows(cols, cols.n, t, cols.residual, pinned, hi).items():
        value = sum((c * w for c, w in zip(row, coeffs) if c), sp.Integer(0))
        if value != 0:
            out[key] = value
    return out


def true_rhs(cols: Columns, lengths: Sequence[int], pinned: Sequence[int], hi: Sequence[Any] | None,
              values: Sequence[Any], labels_h: list[tuple[int, Key]]) -> sp.Matrix | None:
    """The true model's coefficients at the learned system's rows (None when the true model has a
    monomial the learned system has no row for: not realizable)."""
    index = {lab: i for i, lab in enumerate(labels_h)}
    out = [sp.Integer(0)] * len(labels_h)
    for t in lengths:
        for key, value in coefficients(cols, values, t, pinned, hi).items():
            if (t, key) not in index:
                return None
            out[index[(t, key)]] += value
    return sp.Matrix(out)


def _rational(v: Any) -> sp.Rational:
    if isinstance(v, sp.Basic):
        return sp.nsimplify(v) if not v.is_Rational else v
    return sp.Rational(Fraction(str(v)))


def describe_direction(v: sp.Matrix, exponents: Sequence[tuple[int, ...]] | Columns, n: int) -> str:
    """A kernel direction in words: dG on monomials (a = query, b = key) and hinges, dR, da."""
    cols = exponents if isinstance(exponents, Columns) else Columns(tuple(exponents), n, True)
    names = ([monomial_name(e, n) for e in cols.exponents]
             + [f"max(b{i} - {kn}, 0)^2" for kn, i in cols.hinges]
             + ([f"x_t[{i}] (residual)" for i in range(n)] if cols.residual else [])
             + (["1 (bias)"] if cols.bias else []))
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
    the box [lo, hi]: ``t sum_e |G_h - G_f|_e sup|p_e| + sum_i |R_h - R_f|_i sup|x_i| + |a_h - a_f|`` per
    output, at t = length (a key hinge max(b_i - kappa, 0)^2 has sup max(hi_i - kappa, 0)^2). None
    unless both families expose ``linear_parts``."""
    if not (hasattr(learned, "linear_parts") and hasattr(true, "linear_parts")):
        return None
    domain = f"every sequence of length <= {length} with tokens in {box_text(lo, hi)}"
    with arb_precision(dps):
        ph, pf = learned.linear_parts(ARB.asarray(theta_h)), true.linear_parts(ARB.asarray(theta_f))
        if ph["G"].shape[0] != pf["G"].shape[0]:
            return None
        big = [max(abs(flint.arb(str(a))), abs(flint.arb(str(b)))) for a, b in zip(lo, hi)]
        coef: dict[Any, Any] = {}
        for parts, sign in ((ph, 1), (pf, -1)):
            names = list(parts["exponents"]) + [("hinge", kn, i) for kn, i in parts["hinges"]]
            for s, e in enumerate(names):
                col = parts["G"][:, s] * sign
                coef[e] = col if e not in coef else coef[e] + col
        worst = mp.mpf(0)
        for r in range(ph["G"].shape[0]):
            pair = flint.arb(0)
            for e, col in coef.items():
                pair += abs(col[r]) * _feature_sup(e, lo, hi, big)
            res = sum((abs(ph["R"][r, i] - pf["R"][r, i]) * big[i] for i in range(len(lo))),
                      flint.arb(0))
            worst = max(worst, upper(int(length) * pair + res + abs(ph["a"][r] - pf["a"][r])))
    if not mp.isfinite(worst):
        return None
    return Bound(worst, domain,
                 f"ball bound at {dps} digits: t sum_e |G_h - G_f|_e sup|p_e| + |R_h - R_f| sup|x| + "
                 f"|a_h - a_f| at t = {length}, with G = A W, R = A E and a the model's linear coordinates "
                 f"({len(coef)} features)")


def _feature_sup(e: Any, lo: np.ndarray, hi: np.ndarray, big: list[Any]) -> Any:
    """sup over the box of |p_e|: a monomial (query and key over the same box) or a key hinge."""
    if e and e[0] == "hinge":
        _, kn, i = e
        knot = flint.arb(kn.numerator) / kn.denominator
        d = flint.arb(str(hi[i])) - knot
        return d * d if d > 0 else flint.arb(0)
    sup = flint.arb(1)
    for v, d in enumerate(e):
        if d:
            sup = sup * big[v % len(lo)] ** d
    return sup
