"""Exact zero-risk learners of pairwise sums (:class:`proofkit.families.pairwise.PairwiseSum`): a
certificate for counterexamples and a way to reach one from a fit.

A fit stops at a training residual r > 0. For a pairwise sum the training equations are linear in the
model's linear coordinates (G = A W, R = A E, a) per output row: monomial (and hinge) coefficients of
h - f at every supervised length (:mod:`proofkit.families.pairwise_columns`). So

* :func:`certify` proves in rational arithmetic that given exact parameters have zero training risk
  on every sequence of the support (not only the samples) and that the gap at a witness is an exact
  non-zero rational: either (a) every coefficient of h - f vanishes at every supervised length (any
  readout), or (b) with a ReLU readout, the polynomial coefficients vanish, h and f differ only in key
  hinges max(b_i - kappa, 0)^2, and both logits are <= 0 on every training-length box sequence with a
  token past such a knot (exact term-wise bounds, monomials being monotone on a box in [0, inf)), so
  both outputs are 0 wherever h - f is not;
* :func:`project` re-solves a rounded learner onto the exact zero-risk set: A (so R = A E) is kept,
  the pivot coordinates of (G, a) are solved from the training equations with the others kept, and
  W = A^-1 G, all in rationals. The result is a candidate only; :func:`certify` decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from ..numerics.backend import SYM
from . import pairwise_columns as cp


def _fractions(theta: Sequence[Any]) -> np.ndarray:
    return np.asarray([Fraction(str(v)) for v in theta], dtype=object)


def _rows(family: Any, theta: Sequence[Any]) -> list[list[Fraction]]:
    """Per output row, the unknowns in the order of
    :class:`proofkit.families.pairwise_columns.Columns`."""
    parts = family.linear_parts(_fractions(theta))
    out = []
    for r in range(family.m):
        row = list(parts["G"][r]) + (list(parts["R"][r]) if family.residual else [])
        out.append(row + ([parts["a"][r]] if family.readout_bias else []))
    return out


def _box(support: Any) -> tuple[list[Fraction], list[Fraction], list[int]]:
    """The training token box as exact fractions, and the coordinates it pins."""
    lo, hi = support.token_box()
    free = support.free_coordinates()
    return ([Fraction(float(v)) for v in lo], [Fraction(float(v)) for v in hi],
            [i for i in range(len(lo)) if i not in free])


def _compatible(learned: Any, true: Any, lo: Sequence[Fraction]) -> bool:
    """Both pairwise sums of one class (``learned`` is the family whose method calls this module: a
    :class:`proofkit.families.pairwise.PairwiseSum`), key hinges above the box's lower end."""
    return (type(true) is type(learned) and learned.n == true.n
            and learned.m == true.m and min(lo) >= 0
            and all(kn > lo[i] for fam in (learned, true) for kn, i in fam.hinges))


def certify(learned: Any, theta: Sequence[str], true: Any, true_theta: Sequence[str], support: Any,
            lengths: Sequence[int], activation: str, X: np.ndarray) -> tuple[bool, str]:
    """(True, what was proven) when the exact parameters ``theta`` have zero risk on every training
    sequence of ``support`` at ``lengths`` and differ from f at the sequence X (t x n); else (False,
    "")."""
    lo, hi, pinned = _box(support)
    if not _compatible(learned, true, lo):
        return False, ""
    ch, cf = cp.Columns.of(learned), cp.Columns.of(true)
    rows_h, rows_f = _rows(learned, theta), _rows(true, true_theta)
    dead = []
    for r in range(learned.m):
        for t in lengths:
            kh = cp.coefficients(ch, rows_h[r], t, pinned, hi)
            kf = cp.coefficients(cf, rows_f[r], t, pinned, hi)
            differ = [k for k in set(kh) | set(kf) if kh.get(k, 0) != kf.get(k, 0)]
            if not differ:
                continue
            if activation != "relu" or not all(_is_hinge(k) for k in differ):
                return False, ""
            for num, den, i in sorted({k[0][1] for k in differ}):
                for coeffs in (kh, kf):
                    for hot_key in ([False, True] if t >= 2 else [False]):
                        if _upper(coeffs, t, lo, hi, Fraction(num, den), i, hot_key) > 0:
                            return False, ""
                dead.append(f"x[{i}] > {Fraction(num, den)} at length {t}")
    zh = learned.logits(SYM.asarray(np.asarray(list(theta), dtype=object)), SYM.asarray(X[None]), SYM)[0]
    zf = true.logits(SYM.asarray(np.asarray(list(true_theta), dtype=object)), SYM.asarray(X[None]), SYM)[0]
    if activation == "relu":
        zh, zf = [max(v, 0) for v in zh], [max(v, 0) for v in zf]
    gap = max(abs(a - b) for a, b in zip(zh, zf))
    if gap == 0:
        return False, ""
    shown = str(gap) if len(str(gap)) <= 40 else f"{float(gap):.6g} (an exact non-zero rational)"
    which = ", ".join(map(str, lengths))
    if dead:
        why = (f"h and f differ only in key hinges, where both logits are <= 0 on every training sequence "
               f"(exact term-wise bounds on the token box, {len(dead)} hinge regions: {dead[0]}, ...), so "
               "both ReLU outputs are 0 there and h = f elsewhere")
    else:
        why = ("every coefficient of h - f vanishes (monomials"
               + (", and key hinges with a knot below the token box's upper end; the others vanish on "
                  "the box" if learned.hinges or true.hinges else "") + "), so h = f on every training "
               "sequence")
    return True, (f"certified exactly (rational arithmetic on the coefficients of h - f in the linear "
                  f"coordinates G = A W, R = A E, a, at the supervised lengths {which}): {why}; "
                  f"{'output' if activation == 'relu' else 'logit'} gap at the witness = {shown}")


def _is_hinge(key: cp.Key) -> bool:
    return len(key) == 1 and key[0][0] in ("ht", "hj")


def _upper(coeffs: dict, t: int, lo: Sequence[Fraction], hi: Sequence[Fraction], knot: Fraction,
           coord: int, hot_key: bool) -> Fraction:
    """Exact upper bound of the length-t logit with coefficients ``coeffs`` (keys as in
    :func:`proofkit.families.pairwise_columns.length_rows`) over the token box, one token's coordinate
    ``coord``
    restricted to [knot, hi]: the query x_t, or (``hot_key``) one key token x_j, j < t. Term by term:
    every monomial and hinge is non-negative and non-decreasing in each token on a box in [0, inf),
    so each term's range has its ends at the box's low and high corners."""
    lo_hot = list(lo)
    lo_hot[coord] = knot
    low_t = lo if hot_key else lo_hot

    def value(part: tuple[str, tuple[int, ...]] | None, low: Sequence[Fraction]) -> tuple[Fraction, Fraction]:
        """(value at the low corner, at the high corner) of one factor."""
        if part is None:
            return Fraction(1), Fraction(1)
        tag, e = part
        if tag in ("ht", "hj"):
            kn = Fraction(e[0], e[1])
            return max(low[e[2]] - kn, Fraction(0)) ** 2, max(hi[e[2]] - kn, Fraction(0)) ** 2
        return _prod(low, e), _prod(hi, e)

    total = Fraction(0)
    for key, c in coeffs.items():
        c = Fraction(int(c.p), int(c.q))
        query = next((p for p in key if p[0] in ("t", "ht")), None)
        other = next((p for p in key if p[0] in ("j", "hj")), None)
        qlo, qhi = value(query, low_t)
        if other is None:  # a function of x_t alone (or the constant)
            total += max(c * qlo, c * qhi)
            continue
        hot = 1 if hot_key else 0  # one term per key token j < t; with hot_key one of them is hot
        for count, low_j in ((t - 1 - hot, lo), (hot, lo_hot)):
            jlo, jhi = value(other, low_j)
            total += count * max(c * qlo * jlo, c * qhi * jhi)
    return total


def _prod(x: Sequence[Fraction], e: tuple[int, ...]) -> Fraction:
    out = Fraction(1)
    for v, d in zip(x, e):
        out *= v ** d
    return out


def project(learned: Any, theta: Sequence[str], true: Any, true_theta: Sequence[str], support: Any,
            lengths: Sequence[int]) -> list[str] | None:
    """Exact rational parameters near ``theta`` (short decimals) on the exact zero-risk set of the
    polynomial training equations: A kept (so R = A E), the pivot coordinates of each output row's
    (G, a) solved with the others kept, W = A^-1 G. None when A is not square and invertible, the
    equations are inconsistent, or nothing changes."""
    lo, hi, pinned = _box(support)
    if not _compatible(learned, true, lo) or learned.k != learned.m:
        return None
    p = learned.unpack(_fractions(theta))
    A = sp.Matrix(p["A"].tolist())
    if A.det() == 0:
        return None
    ch, cf = cp.Columns.of(learned), cp.Columns.of(true)
    labels, E = cp.system(ch, ch.n, lengths, pinned=pinned, hi=hi)
    F = learned.F
    free = list(range(F)) + ([ch.size - 1] if ch.bias else [])  # G and a; R = A E is fixed by A
    rows_h, rows_f = _rows(learned, theta), _rows(true, true_theta)
    _, pivots = E[:, free].T.rref()  # independent equations
    _, piv_cols = E[:, free].rref()
    G, bias = [], []
    for r in range(learned.m):
        target = cp.true_rhs(cf, lengths, pinned, hi, rows_f[r], labels)
        if target is None:
            return None
        u = sp.Matrix([sp.Rational(v.numerator, v.denominator) for v in rows_h[r]])
        solve = [free[c] for c in piv_cols]
        keep = [c for c in range(ch.size) if c not in solve]
        rhs = target - E[:, keep] * u.extract(keep, [0])
        M = E.extract(list(pivots), solve)
        try:
            x = M.LUsolve(rhs.extract(list(pivots), [0]))
        except ValueError:
            return None
        for c, v in zip(solve, x):
            u[c] = v
        if E * u != target:
            return None
        G.append(list(u[:F]))
        bias.append(u[ch.size - 1])
    W = A.inv() * sp.Matrix(G)
    out = [str(v) for v in theta[: learned.m * learned.k]]  # A as given
    out += [str(v) for v in bias] if learned.readout_bias else []
    out += [str(v) for v in W]
    return None if [Fraction(v) for v in out] == [Fraction(str(v)) for v in theta] else out
