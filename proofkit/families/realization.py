"""Minimal realizations of linear recurrences (Kalman decomposition at high precision).

An over-parametrized learner (state dimension k~ above what the data need) fits its training data with
extra modes that are uncontrollable or unobservable, or nearly so: a fit that stops at a residual r
leaves them coupled at about r. Such a mode changes nothing up to the fit error at short lengths, but
if it is unstable it amplifies that error without bound at long ones. ``decouple`` finds those modes
(an orthogonal change of state basis from the SVD of the controllability and observability matrices)
and sets their couplings to exact zeros, so the result is a member of the same class whose Markov
parameters are *exactly* those of its minimal part. The caller re-polishes the minimal part and must
re-check the training residual: decoupling is a proposal, not a proof.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath as mp
import numpy as np

from .linrec import LinearRecurrence


@dataclass
class Decoupled:
    theta: np.ndarray  # full parameters (same family), structural zeros exact
    minimal: np.ndarray  # parameters of the minimal part, a LinearRecurrence(n, order, m)
    order: int  # state dimension of the minimal part
    removed: list[str]  # one line per removed mode block (kind, |eigenvalues|, coupling size)

    def embed(self, fam: LinearRecurrence, minimal: np.ndarray) -> np.ndarray:
        """Full parameters with the minimal part replaced by ``minimal`` (e.g. after a re-polish)."""
        p = fam.unpack(self.theta)
        q = LinearRecurrence(fam.n, self.order, fam.m).unpack(minimal)
        A, Lam, B = p["A"].copy(), p["Lam"].copy(), p["B"].copy()
        r = self.order
        A[:, :r], Lam[:r, :r], B[:r, :] = q["A"], q["Lam"], q["B"]
        return fam.pack({"A": A, "Lam": Lam, "B": B}, _MPOPS)


class _MPOps:
    name = "mpmath"

    @staticmethod
    def asarray(values: object) -> np.ndarray:
        return np.asarray(values, dtype=object)


_MPOPS = _MPOps()


def _mat(M: np.ndarray) -> mp.matrix:
    return mp.matrix(M.tolist())


def _arr(M: mp.matrix) -> np.ndarray:
    return np.array(M.tolist(), dtype=object)


def _rank_split(K: mp.matrix, rel: mp.mpf) -> tuple[int, mp.matrix, list[mp.mpf]]:
    """(numerical rank, orthogonal U with the range first, singular values) of K at rel tolerance."""
    U, S, _ = mp.svd_r(K, full_matrices=True)
    s = [S[i] for i in range(min(K.rows, K.cols))]
    top = max(s) if s else mp.mpf(0)
    rank = sum(1 for v in s if v > rel * top)
    return rank, U, s


REL = mp.mpf("1e-12")  # a singular value below this fraction of the largest marks a stray mode


def decouple(fam: LinearRecurrence, theta: np.ndarray, rel: mp.mpf = REL) -> Decoupled | None:
    """Kalman decomposition of (A, Lam, B) at the working precision; None when the learner is
    already minimal (every mode controllable and observable to ``rel``)."""
    p = fam.unpack(theta)
    A, Lam, B = _mat(p["A"]), _mat(p["Lam"]), _mat(p["B"])
    k = fam.k
    # controllability: span of B, Lam B, ..., Lam^(k-1) B
    blocks, P = [], B
    for _ in range(k):
        blocks.append(P)
        P = Lam * P
    K = mp.matrix(k, k * fam.n)
    for i, blk in enumerate(blocks):
        for r in range(k):
            for c in range(fam.n):
                K[r, i * fam.n + c] = blk[r, c]
    rc, U, _ = _rank_split(K, rel)
    removed = []
    Ac, Lc, Bc = A * U, U.T * Lam * U, U.T * B
    if rc < k:
        size = max(abs(Lc[i, j]) for i in range(rc, k) for j in range(rc)) if rc else mp.mpf(0)
        size = max([size] + [abs(Bc[i, j]) for i in range(rc, k) for j in range(fam.n)])
        eig = _moduli(Lc, range(rc, k))
        removed.append(f"{k - rc} uncontrollable mode(s), |eigenvalue| {eig}, coupling "
                       f"{mp.nstr(size, 2)} set to 0")
        for i in range(rc, k):
            for j in range(rc):
                Lc[i, j] = mp.mpf(0)
            for j in range(fam.n):
                Bc[i, j] = mp.mpf(0)
    # observability of the controllable part: rows A1, A1 L11, ..., A1 L11^(rc-1)
    L11 = Lc[:rc, :rc]
    A1 = Ac[:, :rc]
    Obs = mp.matrix(rc * fam.m, rc)
    Q = A1
    for i in range(rc):
        for r in range(fam.m):
            for c in range(rc):
                Obs[i * fam.m + r, c] = Q[r, c]
        Q = Q * L11
    ro, _, _ = _rank_split(Obs, rel)
    V = mp.eye(k)
    if ro < rc:
        _, _, Vt = mp.svd_r(Obs, full_matrices=True)
        Vo = Vt.T  # columns: observable directions first
        for i in range(rc):
            for j in range(rc):
                V[i, j] = Vo[i, j]
    if rc == k and ro == rc:
        return None
    Ao, Lo, Bo = Ac * V, V.T * Lc * V, V.T * Bc
    if ro < rc:
        size = max([abs(Ao[i, j]) for i in range(fam.m) for j in range(ro, rc)]
                   + [abs(Lo[i, j]) for i in range(ro) for j in range(ro, rc)])
        eig = _moduli(Lo, range(ro, rc))
        removed.append(f"{rc - ro} unobservable mode(s), |eigenvalue| {eig}, coupling "
                       f"{mp.nstr(size, 2)} set to 0")
        for j in range(ro, rc):
            for i in range(fam.m):
                Ao[i, j] = mp.mpf(0)
            for i in range(ro):
                Lo[i, j] = mp.mpf(0)
    for i in range(rc, k):  # keep the uncontrollable block's zeros exact after the second rotation
        for j in range(rc):
            Lo[i, j] = mp.mpf(0)
        for j in range(fam.n):
            Bo[i, j] = mp.mpf(0)
    full = fam.pack({"A": _arr(Ao), "Lam": _arr(Lo), "B": _arr(Bo)}, _MPOPS)
    small = LinearRecurrence(fam.n, ro, fam.m).pack(
        {"A": _arr(Ao[:, :ro]), "Lam": _arr(Lo[:ro, :ro]), "B": _arr(Bo[:ro, :])}, _MPOPS)
    return Decoupled(full, small, ro, removed)


def _moduli(L: mp.matrix, idx: range) -> str:
    sub = mp.matrix([[L[i, j] for j in idx] for i in idx])
    vals = mp.eig(sub, left=False, right=False)
    vals = vals[0] if isinstance(vals, tuple) else vals
    return ", ".join(mp.nstr(abs(v), 3) for v in vals)
