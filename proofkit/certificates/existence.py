"""Interval existence proofs: an exact zero of a square system near a numerical one (Krawczyk), and for
families linear in their inputs an exact zero-risk learner near a fitted one plus a test gap valid for
every parameter in the proven box.

Why: a fitted learner only reaches zero training risk up to the fit error, and a test "gap" can be that
error amplified (an unstable mode coupled at 1e-46). A certified counterexample must show that an
EXACT zero-risk learner with a real gap exists. Here that is: (1) Krawczyk's test proves an exact
solution of "Markov parameters of h equal those of f for j < T" in a small box (some coordinates fixed
to exact decimals, the rest solved for), and (2) a ball lower bound of the test gap over the WHOLE box
is positive, so it holds at the exact solution, whichever point of the box that is.

The generic parts (:func:`krawczyk`, :func:`square_subsystem`) know nothing about theorems or families.
Every routine takes its precision explicitly and restores flint's context afterwards.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import flint
import mpmath as mp
import numpy as np
import scipy.linalg

from ..families import Family
from ..numerics.backend import ARB, FLOAT64, MP
from ..numerics.balls import arb_precision, upper
from .certify import logit_gap_lower

#: epsilon inflation: Krawczyk is tried on boxes of radius 10^k x |Newton step| for these k, smallest first
INFLATIONS = (1, 2, 3, 4)
#: a pivot of the column-pivoted QR below this fraction of the largest counts as zero (numerical rank)
RANK_RTOL = 1e-10


@dataclass(frozen=True)
class Proof:
    """A proven enclosure of an exact zero: the zero lies in the product of the balls ``box`` (one
    ``flint.arb`` per coordinate) and is the only zero within ``unique_radius`` (max-norm) of the
    centre in the ``free`` coordinates, the others being held at the exact decimals ``fixed``."""

    box: np.ndarray
    unique_radius: mp.mpf
    how: str
    elapsed_s: float
    free: tuple[int, ...]
    fixed: dict[int, str] = field(default_factory=dict)

    @property
    def center(self) -> np.ndarray:
        """Ball midpoints as mpf (rounded to mpmath's working precision: for reading, not for proofs)."""
        return np.array([_mid_mpf(b) for b in self.box], dtype=object)

    @property
    def radius(self) -> np.ndarray:
        """Ball radii per coordinate as mpf upper bounds."""
        return np.array([upper(flint.arb(b.rad())) for b in self.box], dtype=object)


@dataclass(frozen=True)
class Unproven:
    """Existence was not proven (which is not a proof that no exact zero exists); ``reason`` says why.
    Falsy, so ``if proof:`` reads as "proven"."""

    reason: str
    elapsed_s: float

    def __bool__(self) -> bool:
        return False


@dataclass(frozen=True)
class Subsystem:
    """A square, well-conditioned part of an E x P system: solve equations ``rows`` for coordinates
    ``free`` with coordinates ``fixed`` held constant. ``left_out`` are the equations the square system
    does not contain: when there are any (rank < E), a zero of the square system need not solve them,
    and they must be proven some other way."""

    rows: tuple[int, ...]
    free: tuple[int, ...]
    fixed: tuple[int, ...]
    left_out: tuple[int, ...]
    rank: int
    cond: float


# ----------------------------------------------------------------------------- exact conversions
def _point(v: Any) -> flint.arb:
    """A zero-radius ball: exact for mpf, floats and arb midpoints, nearest binary for decimal strings."""
    return ARB.convert(v).mid()


def _mid_mpf(x: flint.arb) -> mp.mpf:
    """The ball's midpoint as an mpf, rounded to mpmath's working precision."""
    man, exp = x.mid().man_exp()
    return mp.mpf((int(man), int(exp)))


def _arb_mat(M: Any) -> flint.arb_mat:
    return M if isinstance(M, flint.arb_mat) else flint.arb_mat(np.asarray(M, dtype=object).tolist())


def _column(v: np.ndarray) -> flint.arb_mat:
    return flint.arb_mat([[x] for x in v])


# ----------------------------------------------------------------------------- Krawczyk
def krawczyk(F: Callable[[np.ndarray], np.ndarray], J: Callable[[np.ndarray], Any], y0: Sequence[Any],
             radius: mp.mpf | float | None = None, dps: int = 60) -> Proof | None:
    """Prove that the square system F(y) = 0 (p equations, p unknowns) has exactly one zero in a box
    Y = y0 ± r, and enclose it, by Krawczyk's test (Krawczyk 1969; Moore 1977).

    ``F`` maps an arb vector (numpy object array of ``flint.arb``) to an arb vector, and must enclose the
    exact value for every point of its input balls; ``J`` maps an arb box to an enclosure of the Jacobian
    over the whole box (object array or ``flint.arb_mat``). With R = inverse of mid J(y0) (mpmath at
    ``dps`` digits; any matrix works, a good one makes the test pass),
    K(Y) = y0 - R F(y0) + (I - R J(Y)) (Y - y0). If K(Y) lies in the interior of Y, then F has exactly
    one zero in Y, and it lies in K(Y), which is returned as the proof's box.

    ``radius`` None tries the epsilon-inflated radii 10^k |R F(y0)| (k in INFLATIONS), smallest first;
    a value tries that radius only. None when R cannot be formed (singular midpoint Jacobian) or the
    test fails at every radius tried: existence is then not proven.
    """
    t0 = time.perf_counter()
    with arb_precision(dps), mp.workdps(dps + 10):
        c = np.array([_point(v) for v in y0], dtype=object)
        p = len(c)
        Fc = np.asarray(F(c), dtype=object)
        Jc = _arb_mat(J(c))
        if Fc.shape != (p,) or (Jc.nrows(), Jc.ncols()) != (p, p):
            raise ValueError(f"krawczyk needs a square system: {p} unknowns, F gives {Fc.shape}, "
                             f"J gives {Jc.nrows()} x {Jc.ncols()}")
        try:
            Rmp = mp.inverse(mp.matrix([[_mid_mpf(Jc[i, j]) for j in range(p)] for i in range(p)]))
        except ZeroDivisionError:
            return None
        R = flint.arb_mat([[ARB.convert(Rmp[i, j]) for j in range(p)] for i in range(p)])
        newton = R * _column(Fc)
        step = max((upper(newton[i, 0]) for i in range(p)), default=mp.mpf(0))
        if not mp.isfinite(step):
            return None
        scale = max([mp.mpf(1)] + [abs(_mid_mpf(v)) for v in c])
        floor = scale * mp.mpf(10) ** (-dps)  # F(y0) may be exactly 0: still prove a non-empty box
        radii = ([mp.mpf(radius)] if radius is not None
                 else sorted({max(mp.mpf(10) ** k * step, floor) for k in INFLATIONS}))
        eye = flint.arb_mat(p, p, [1 if i == j else 0 for i in range(p) for j in range(p)])
        for r in radii:
            rad = ARB.convert(r)
            Y = np.array([flint.arb(v, rad) for v in c], dtype=object)
            dY = _column(Y - c)
            K = _column(c) - newton + (eye - R * _arb_mat(J(Y))) * dY
            box = np.array([K[i, 0] for i in range(p)], dtype=object)
            if all(b.is_finite() and y.contains_interior(b) for b, y in zip(box, Y)):
                widest = max(upper(flint.arb(b.rad())) for b in box)
                how = (f"Krawczyk: K(Y) lies in the interior of Y = y0 +- {mp.nstr(r, 3)} in all {p} "
                       f"coordinates, so F has exactly one zero in Y, and it lies in K(Y) (radius <= "
                       f"{mp.nstr(widest, 3)}; Newton step {mp.nstr(step, 3)}; {dps + 10}-digit balls)")
                return Proof(box=box, unique_radius=r, how=how, elapsed_s=time.perf_counter() - t0,
                             free=tuple(range(p)))
    return None


# ----------------------------------------------------------------------------- square subsystem
def square_subsystem(Jf: np.ndarray, rtol: float = RANK_RTOL) -> Subsystem | None:
    """Choose rank-many coordinates to solve for and as many equations, so that the square Jacobian block
    is well conditioned: column-pivoted QR of Jf picks the free coordinates, column-pivoted QR of the
    free columns' transpose picks the equations. ``Jf`` is the float64 Jacobian (E equations x P
    coordinates) at the numerical solution; the numerical rank counts pivots above ``rtol`` times the
    largest. The other coordinates are to be held fixed (at exact values the caller picks); equations not
    chosen are reported in ``left_out``. None when Jf is empty, not finite or zero."""
    Jf = np.asarray(Jf, dtype=float)
    if Jf.ndim != 2 or Jf.size == 0 or not np.all(np.isfinite(Jf)):
        return None
    E, P = Jf.shape
    _, Rc, cols = scipy.linalg.qr(Jf, mode="economic", pivoting=True)
    pivots = np.abs(np.diag(Rc))
    if pivots[0] == 0.0:
        return None
    rank = int(np.sum(pivots > rtol * pivots[0]))
    free = sorted(int(i) for i in cols[:rank])
    _, _, rows_perm = scipy.linalg.qr(Jf[:, free].T, mode="economic", pivoting=True)
    rows = sorted(int(i) for i in rows_perm[:rank])
    return Subsystem(rows=tuple(rows), free=tuple(free),
                     fixed=tuple(i for i in range(P) if i not in set(free)),
                     left_out=tuple(i for i in range(E) if i not in set(rows)), rank=rank,
                     cond=float(np.linalg.cond(Jf[np.ix_(rows, free)])))


# ----------------------------------------------------------------------------- zero-risk learners
def _markov_all(fam: Family, theta: np.ndarray, count: int, ops: Any) -> np.ndarray:
    """Markov parameters j < count, stacked j-major and flattened row-major (markov_jacobian's rows)."""
    return np.concatenate([M.reshape(-1) for M in fam.markov(theta, count, ops)])


def _newton(F: Callable[[np.ndarray], np.ndarray], J: Callable[[np.ndarray], np.ndarray], y: np.ndarray,
            dps: int, iters: int = 40) -> np.ndarray:
    """Newton's method in mpmath (at the caller's working precision) until the step is below
    10^-dps relative; returns the last iterate (Krawczyk decides whether it is good enough)."""
    tol = mp.mpf(10) ** (-dps)
    for _ in range(iters):
        try:
            step = mp.lu_solve(mp.matrix(J(y).tolist()), mp.matrix(F(y).tolist()))
        except ZeroDivisionError:
            break
        y = y - np.array([step[i] for i in range(len(y))], dtype=object)
        if max(abs(s) for s in step) <= tol * max([mp.mpf(1)] + [abs(v) for v in y]):
            break
    return y


def zero_risk_ball_markov(fam_h: Family, theta_hat: Sequence[Any], fam_f: Family, theta_f: Sequence[str],
                          T: int, dps: int, *, fixed_digits: int = 30,
                          columns: Sequence[int] | None = None) -> Proof | Unproven:
    """Prove that an EXACT zero-risk learner exists near the fitted parameters ``theta_hat``.

    For families linear in their inputs (logit_t = sum_j M_j x_{t-j}), equal Markov parameters
    M_j^h = M_j^f for j < T mean h = f on every sequence of length <= T, hence zero risk on any training
    support of lengths <= T. The E = T m n equations are made square by :func:`square_subsystem`: the
    fixed coordinates are set to ``theta_hat`` rounded to ``fixed_digits`` significant digits (exact
    decimals, recorded in the proof), the free ones are polished by Newton's method and Krawczyk's test
    proves an exact zero in a box around them. ``theta_f`` are the true parameters as exact decimal
    strings. The proof's box covers every coordinate (fixed ones: balls around the exact decimals).

    ``columns``: the token coordinates the training support spans (a support inside a coordinate
    subspace constrains only those columns of every M_j); all of them by default.

    Unproven when the family has no Markov Jacobian, when the equations' numerical rank is below E (a
    square subsystem's zero need not solve the equations left out, so existence is not claimed), or when
    Krawczyk's test fails.
    """
    t0 = time.perf_counter()

    def unproven(reason: str) -> Unproven:
        return Unproven(reason, time.perf_counter() - t0)

    if not (hasattr(fam_h, "markov_jacobian") and hasattr(fam_f, "markov")):
        return unproven("the learned family has no Markov Jacobian (not linear in its inputs)")
    cols = list(range(fam_h.n)) if columns is None else sorted(set(columns))
    keep = [j * fam_h.m * fam_h.n + r * fam_h.n + c for j in range(T) for r in range(fam_h.m) for c in cols]
    E, P = len(keep), fam_h.n_params

    def _markov_flat(fam: Family, theta: np.ndarray, count: int, ops: Any) -> np.ndarray:
        return _markov_all(fam, theta, count, ops)[keep]

    def jac(theta: np.ndarray, count: int, ops: Any) -> np.ndarray:
        return fam_h.markov_jacobian(theta, count, ops)[keep]

    with mp.workdps(dps + 10):
        th = MP.asarray(np.asarray(theta_hat, dtype=object))
        sub = square_subsystem(jac(np.array([float(v) for v in th]), T, FLOAT64))
        if sub is None:
            return unproven(f"the Jacobian of the {E} Markov equations j < {T} is zero at the fit")
        if sub.left_out:
            return unproven(
                f"the {E} Markov equations j < {T} have numerical rank {sub.rank} < {E} at the fit: a zero "
                f"of a square subsystem need not solve the {len(sub.left_out)} equations left out, so "
                f"existence of an exact zero-risk learner is not proven")
        fixed = {i: mp.nstr(th[i], fixed_digits) for i in sub.fixed}
        free = list(sub.free)

        def theta_of(y: np.ndarray, ops: Any) -> np.ndarray:
            full = np.empty(P, dtype=object)
            for i, s in fixed.items():
                full[i] = ops.convert(s)
            full[free] = y
            return full

        target_mp = _markov_flat(fam_f, MP.asarray(np.asarray(theta_f, dtype=object)), T, MP)
        y = _newton(lambda y: _markov_flat(fam_h, theta_of(y, MP), T, MP) - target_mp,
                    lambda y: jac(theta_of(y, MP), T, MP)[:, free], th[free], dps)
    with arb_precision(dps):
        target = _markov_flat(fam_f, ARB.asarray(np.asarray(theta_f, dtype=object)), T, ARB)
        proof = krawczyk(lambda y: _markov_flat(fam_h, theta_of(y, ARB), T, ARB) - target,
                         lambda Y: jac(theta_of(Y, ARB), T, ARB)[:, free], y, dps=dps)
        if proof is None:
            return unproven(f"Krawczyk's test failed for the {E} Markov equations j < {T} (condition "
                            f"number of the square Jacobian {sub.cond:.3g}): existence not proven")
        box = theta_of(proof.box, ARB)
        dist = max(upper(b - ARB.convert(v)) for b, v in zip(box, th))
    widest = max(upper(flint.arb(b.rad())) for b in proof.box)
    how = (f"Krawczyk: an exact zero of the {E} Markov equations j < {T} exists within {mp.nstr(dist, 3)} "
           f"of the fit ({len(fixed)} coordinates fixed to exact {fixed_digits}-digit decimals, "
           f"{len(free)} solved for in a box of radius {mp.nstr(widest, 3)}, the only zero within "
           f"{mp.nstr(proof.unique_radius, 3)}; square Jacobian condition number {sub.cond:.3g})")
    return Proof(box=box, unique_radius=proof.unique_radius, how=how, elapsed_s=time.perf_counter() - t0,
                 free=sub.free, fixed=fixed)


def gap_lower_on_box(fam_h: Family, box: np.ndarray, fam_f: Family, theta_f: Sequence[str], X: np.ndarray,
                     dps: int, activation: str | None = None) -> mp.mpf:
    """Ball lower bound of max |h - f| at the sequences ``X`` (N x t x n) valid for EVERY learned
    parameter in ``box`` (one ``flint.arb`` per coordinate, e.g. a :class:`Proof`'s box): the logits are
    evaluated in ball arithmetic on the whole box. A positive value proves that every parameter in the
    box, the exact zero-risk learner included, differs from f at X. ``activation`` compares outputs of a
    non-injective readout instead of logits."""
    box = np.asarray(box, dtype=object)
    if not all(isinstance(b, flint.arb) for b in box):
        raise TypeError("gap_lower_on_box needs a box of flint.arb balls, one per coordinate")
    return logit_gap_lower(fam_h, box, fam_f, np.asarray(theta_f, dtype=object), X, dps, activation)
