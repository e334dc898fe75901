"""Exact zero-risk learners for linear recurrences, in rational arithmetic, near a fitted one.

Why: an over-parametrized learner that fits the first T Markov parameters and differs later can sit on a
singular stratum of the Markov map (e.g. k~ = n + 2, T = 3: the 12 equations have rank 11 at every such
point), where no square subsystem is regular and an interval existence proof (Krawczyk) cannot apply.
The fibre itself has rational points, and there is a direct way to land on one.

In the observer gauge A~ = [I_m, 0] (a change of state basis, possible when A~ has full row rank m) the
columns of P_j = Lam~^j B~ are [M_j; Y_j]: their top m rows ARE the Markov parameters. So a learner
matches M_0..M_(T-1) exactly iff B~ = P_0 and Lam~ P_j = P_(j+1) for j < T - 1 with tops M_j. Choose the
bottoms Y_j as rationals (the fit's, rounded), set the tops to the exact targets, and the conditions on
Lam~ are linear: Lam~ [P_0 .. P_(T-2)] = [P_1 .. P_(T-1)], solved exactly (closest to the fit's Lam~).
When that linear system is inconsistent (more columns than the state has room for), there is no such
point at these bottoms and the routine says so; it never rounds its way to an approximate answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol

import flint
import mpmath as mp
import numpy as np


class LinearRecurrence(Protocol):
    """What this module reads of a linear recurrence (proofkit.families.linrec, which builds on this
    module, so it is described here rather than imported): its sizes and its parameter blocks."""

    n: int
    k: int
    m: int

    def unpack(self, theta: Any) -> dict[str, np.ndarray]: ...


#: significant digits the fit's free coordinates are rounded to, fewest first (short rationals first)
DIGITS = (2, 3, 4, 6, 8, 12)


def _frac(v: mp.mpf, digits: int) -> Fraction:
    return Fraction(mp.nstr(v, digits)) if v else Fraction(0)


def _qmat(rows: Sequence[Sequence[Fraction]]) -> flint.fmpq_mat:
    rows = [list(r) for r in rows]
    ncols = len(rows[0]) if rows else 0
    return flint.fmpq_mat(len(rows), ncols, [flint.fmpq(x.numerator, x.denominator) for r in rows for x in r])


def _rows(M: flint.fmpq_mat) -> list[list[Fraction]]:
    return [[Fraction(int(M[i, j].p), int(M[i, j].q)) for j in range(M.ncols())] for i in range(M.nrows())]


def _hcat(blocks: Sequence[flint.fmpq_mat]) -> flint.fmpq_mat:
    rows = [sum((_rows(b)[i] for b in blocks), []) for i in range(blocks[0].nrows())]
    return _qmat(rows)


def observer_gauge(fam: LinearRecurrence, theta: np.ndarray,
                   F: flint.fmpq_mat) -> tuple[mp.matrix, mp.matrix] | None:
    """(Lam, B) of the learner in the basis where A = F [I_r, 0] (mpmath, working precision), for an
    exact m x r output basis F of full column rank; None when A's columns do not lie in F's range, or
    A = F R with R of rank below r. The completing rows of the basis change span R's null space."""
    p = fam.unpack(theta)
    k, r = fam.k, F.ncols()
    if r > k:
        return None
    A = mp.matrix(p["A"].tolist())
    Fm = mp.matrix([[mp.mpf(int(F[i, j].p)) / int(F[i, j].q) for j in range(r)] for i in range(F.nrows())])
    R = mp.inverse(Fm.T * Fm) * Fm.T * A
    small = mp.mpf(10) ** (-(mp.mp.dps // 3)) * max([mp.mpf(1)] + [abs(v) for v in A])
    if mp.mnorm(A - Fm * R, 1) > small:
        return None
    _, S, Vt = mp.svd_r(R, full_matrices=True)
    if min(S[i] for i in range(r)) <= small:
        return None
    Q = mp.matrix(k, k)
    for i in range(k):
        for j in range(k):
            Q[i, j] = R[i, j] if i < r else Vt[i, j]
    G = mp.inverse(Q)
    return Q * mp.matrix(p["Lam"].tolist()) * G, Q * mp.matrix(p["B"].tolist())


def output_basis(stacked: flint.fmpq_mat) -> flint.fmpq_mat:
    """An exact basis of the column space of [M_0 .. M_(T-1)]: the identity when it is all of Q^m (the
    usual case), else its pivot columns (the targets then live in an r-dimensional output subspace)."""
    R, rank = stacked.rref()
    m = stacked.nrows()
    if rank == m:
        return flint.fmpq_mat(m, m, [1 if i == j else 0 for i in range(m) for j in range(m)])
    rows = _rows(R)[:rank]
    pivots = [next(c for c in range(stacked.ncols()) if row[c] != 0) for row in rows]
    cols = _rows(stacked.transpose())
    return _qmat([cols[c] for c in pivots]).transpose()


def _null_basis(M: flint.fmpq_mat) -> list[list[Fraction]]:
    """An exact basis of the right null space of M (one vector per non-pivot column of its rref)."""
    R, rank = M.rref()
    rows, ncols = _rows(R)[:rank], M.ncols()
    pivots = [next(c for c in range(ncols) if row[c] != 0) for row in rows]
    basis = []
    for free in (c for c in range(ncols) if c not in pivots):
        v = [Fraction(0)] * ncols
        v[free] = Fraction(1)
        for row, pc in zip(rows, pivots):
            v[pc] = -row[free]
        basis.append(v)
    return basis


def _project_out(y: list[Fraction], constraints: list[list[Fraction]]) -> list[Fraction]:
    """y minus its orthogonal projection onto span(constraints): the nearest vector that every
    constraint row annihilates, exactly."""
    if not constraints:
        return y
    R, rank = _qmat(constraints).rref()
    C = _qmat(_rows(R)[:rank])
    if rank == 0:
        return y
    yv = _qmat([[v] for v in y])
    out = yv - C.transpose() * (C * C.transpose()).inv() * (C * yv)
    return [r[0] for r in _rows(out)]


def _kept_null_vectors(Pfit: mp.matrix, Mtop: flint.fmpq_mat, Mnext: flint.fmpq_mat,
                       digits: int) -> list[list[Fraction]] | None:
    """Rational null vectors z of [P_0 .. P_(T-2)] that the fit has numerically (the singular stratum
    it lies on), each rounded inside the exact null space of the targets' top block; None when one of
    them is not also an exact null vector of [M_1 .. M_(T-1)] (then no such point keeps the stratum)."""
    _, S, Vt = mp.svd_r(Pfit, full_matrices=True)
    s = [S[i] for i in range(min(Pfit.rows, Pfit.cols))] + [mp.mpf(0)] * max(0, Pfit.cols - Pfit.rows)
    cut = mp.mpf(10) ** (-(mp.mp.dps // 3)) * max([mp.mpf(1)] + s)
    fitted = [[Vt[i, c] for c in range(Pfit.cols)] for i in range(Pfit.cols) if s[i] <= cut]
    if not fitted:
        return []
    N = _null_basis(Mtop)
    if len(N) < len(fitted):
        return None
    Nm = mp.matrix([[mp.mpf(v.numerator) / v.denominator for v in col] for col in N]).T  # cols x q
    kept = []
    for z in fitted:
        c = mp.lu_solve(Nm.T * Nm, Nm.T * mp.matrix(z))
        zq = [sum((_frac(c[i], digits) * N[i][r] for i in range(len(N))), Fraction(0))
              for r in range(Pfit.cols)]
        image = _rows(Mnext * _qmat([[v] for v in zq]))
        if all(v == 0 for v in zq) or any(v != 0 for row in image for v in row):
            return None
        kept.append(zq)
    return kept


def exact_learner(fam: LinearRecurrence, theta: np.ndarray, targets: Sequence[Sequence[Sequence[Fraction]]],
                  digits: int) -> list[Fraction] | None:
    """Rational parameters (A, Lam, B flattened in the family's order) of a learner whose Markov
    parameters j < len(targets) are EXACTLY ``targets`` (each an m x n list of Fractions), built in the
    observer gauge A = F [I_r, 0] (F an exact basis of the targets' output space, see
    :func:`output_basis`) from the fitted ``theta`` with its free coordinates rounded to ``digits``
    significant digits. The fit's numerical null vectors of [P_0 .. P_(T-2)] are kept as exact ones
    (rounding would otherwise move the point off the singular stratum it lies on, onto the identifying
    branch). None when the fit's A does not factor through F or the linear conditions on Lam are
    inconsistent."""
    k, n = fam.k, fam.n
    T = len(targets)
    if T == 0:
        return None
    F = output_basis(_hcat([_qmat(M) for M in targets]))
    m = F.ncols()  # the observer gauge's output rows: P_j = [N_j; Y_j] with M_j = F N_j
    Finv = (F.transpose() * F).inv() * F.transpose()
    reduced = [_rows(Finv * _qmat(M)) for M in targets]
    gauge = observer_gauge(fam, theta, F)
    if gauge is None:
        return None
    Lam, B = gauge
    P, fitted = B, []
    for _ in range(T):
        fitted.append(P)
        P = Lam * P
    # bottoms Y_j, one vector per state row r >= m: (Y_0[r, :], ..., Y_(T-1)[r, :])
    ys = [[_frac(fitted[j][r, c], digits) for j in range(T) for c in range(n)] for r in range(m, k)]
    if T > 1:
        Pfit = mp.matrix([[fitted[j][r, c] for j in range(T - 1) for c in range(n)] for r in range(k)])
        Mtop = _qmat([[reduced[j][r][c] for j in range(T - 1) for c in range(n)] for r in range(m)])
        Mnext = _qmat([[reduced[j][r][c] for j in range(1, T) for c in range(n)] for r in range(m)])
        kept = _kept_null_vectors(Pfit, Mtop, Mnext, digits)
        if kept is None:
            return None
        pad = [Fraction(0)] * n
        cons = [z + pad for z in kept] + [pad + z for z in kept]  # [Y_0..Y_(T-2)] z = 0 = [Y_1..Y_(T-1)] z
        ys = [_project_out(y, cons) for y in ys]
    blocks = [_qmat([list(reduced[j][r]) for r in range(m)] + [y[j * n:(j + 1) * n] for y in ys])
              for j in range(T)]
    L0 = _qmat([[_frac(Lam[r, c], digits) for c in range(k)] for r in range(k)])
    L = L0
    if T > 1:
        Pm, Pn = _hcat(blocks[:-1]), _hcat(blocks[1:])
        # Rank factorisation Pm = basis Z (basis: k x r from the row-reduced Pm^T, exact). Every solution
        # of L Pm = Pn has L basis = W with W Z = Pn; the one closest to L0 (Frobenius) is
        # L = W coeff + L0 (I - proj), proj the orthogonal projector onto Pm's column space.
        rref, rank = Pm.transpose().rref()
        if rank == 0:
            return None
        basis = _qmat(_rows(rref)[:rank]).transpose()
        coeff = (basis.transpose() * basis).inv() * basis.transpose()  # left inverse of basis
        proj = basis * coeff
        Z = coeff * Pm
        W = Pn * Z.transpose() * (Z * Z.transpose()).inv()  # solves W Z = Pn iff it is solvable
        if W * Z != Pn:
            return None
        eye = flint.fmpq_mat(k, k, [1 if i == j else 0 for i in range(k) for j in range(k)])
        L = W * coeff + L0 * (eye - proj)
        if L * Pm != Pn:  # the construction's defining property, checked exactly
            return None
    A = F * _qmat([[Fraction(1 if r == c else 0) for c in range(k)] for r in range(m)])
    return [x for row in _rows(A) for x in row] + [x for row in _rows(L) for x in row] \
        + [x for row in _rows(blocks[0]) for x in row]
