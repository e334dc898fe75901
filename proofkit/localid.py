"""Local identifiability: ranks of the training Jacobian and of the joint train+test Jacobian, decided at
high precision from the Gram matrix's eigenvalues (at twice the working digits), with the gap printed."""

from __future__ import annotations

from dataclasses import dataclass

import flint
import mpmath as mp
import numpy as np

from . import certify


@dataclass
class Spectrum:
    singular_values: list[mp.mpf]  # descending
    rank: int
    gap: mp.mpf  # sigma_rank / sigma_{rank+1} (inf when full rank)
    null_basis: mp.matrix | None  # P x (P - rank)


@dataclass
class LocalId:
    train: Spectrum
    joint: Spectrum
    leak: mp.mpf  # max over unit null vectors v of J_train of |J_test v|
    leak_direction: np.ndarray | None  # the null vector attaining it (mpf array)

    @property
    def identified(self) -> bool:
        return self.train.rank == self.joint.rank

    def summary(self) -> str:
        def sv(s: Spectrum) -> str:
            last = mp.nstr(s.singular_values[s.rank - 1], 3) if s.rank else "-"
            nxt = mp.nstr(s.singular_values[s.rank], 3) if s.rank < len(s.singular_values) else "none"
            return f"rank {s.rank}/{len(s.singular_values)} (sigma_r {last}, next {nxt})"

        return (f"J_train {sv(self.train)}; J_train+test {sv(self.joint)}; "
                f"max |J_test v| over null(J_train) = {mp.nstr(self.leak, 3)}")


def threshold(dps: int) -> mp.mpf:
    """Relative singular-value cut: 10^(-dps/3) (1e-20 at 60 digits; true zeros sit near 1e-45)."""
    return mp.mpf(10) ** (-(dps // 3))


def gram(J: np.ndarray, dps: int) -> mp.matrix:
    """J^T J at 2*dps digits, multiplied by python-flint (the entries of J convert exactly)."""
    P = J.shape[1]
    if not J.shape[0]:
        return mp.zeros(P, P)
    with certify.arb_precision(2 * dps):
        Ja = flint.arb_mat([[flint.arb(v) for v in row] for row in J.tolist()])
        G = Ja.transpose() * Ja
        with mp.workdps(2 * dps):
            return mp.matrix([[mp.mpf(G[i, j].mid().str(2 * dps + 5, radius=False))
                               for j in range(P)] for i in range(P)])


def spectrum(J: np.ndarray, dps: int, G: mp.matrix | None = None) -> Spectrum:
    """Singular values of J (object array of mpf, R x P) via the eigenvalues of J^T J at 2*dps."""
    P = J.shape[1]
    G = gram(J, dps) if G is None else G
    with mp.workdps(2 * dps):
        evals, evecs = mp.eigsy(G)
        order = sorted(range(P), key=lambda i: -evals[i])
        sv = [mp.sqrt(max(evals[i], 0)) for i in order]
        smax = sv[0] if sv and sv[0] > 0 else mp.mpf(1)
        cut = threshold(dps) * smax
        rank = sum(1 for s in sv if s > cut)
        gap = sv[rank - 1] / sv[rank] if 0 < rank < P and sv[rank] > 0 else mp.inf
        null = None
        if rank < P:
            null = mp.matrix(P, P - rank)
            for c, i in enumerate(order[rank:]):
                for r in range(P):
                    null[r, c] = evecs[r, i]
    return Spectrum(sv, rank, gap, null)


def local_identifiability(J_train: np.ndarray, J_test: np.ndarray, dps: int) -> LocalId:
    G_train = gram(J_train, dps)
    tr = spectrum(J_train, dps, G_train)
    with mp.workdps(2 * dps):
        G_joint = G_train + gram(J_test, dps)
    jt = spectrum(np.concatenate([J_train, J_test]), dps, G_joint)
    leak, direction = mp.mpf(0), None
    if tr.null_basis is not None:
        with mp.workdps(2 * dps):
            N = tr.null_basis
            Jt = mp.matrix(J_test.tolist())
            M = Jt * N  # test response along each null direction
            # the unit null combination with the largest test response: top right-singular vector
            G = M.T * M
            evals, evecs = mp.eigsy(G)
            i = max(range(G.rows), key=lambda k: evals[k])
            leak = mp.sqrt(max(evals[i], 0))
            v = N * evecs[:, i]
            direction = np.array([v[r] for r in range(v.rows)], dtype=object)
    return LocalId(tr, jt, leak, direction)
