"""Local identifiability: ranks of the training Jacobian and of the joint train+test Jacobian, decided at
high precision from the Gram matrix's eigenvalues (at twice the working digits), with the gap printed."""

from __future__ import annotations

from dataclasses import dataclass

import flint
import mpmath as mp
import numpy as np

from ..numerics import balls


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
    with balls.arb_precision(2 * dps):
        Ja = flint.arb_mat([[flint.arb(v) for v in row] for row in J.tolist()])
        G = Ja.transpose() * Ja
        with mp.workdps(2 * dps):
            return mp.matrix([[mp.mpf(G[i, j].mid().str(2 * dps + 5, radius=False))
                               for j in range(P)] for i in range(P)])


def small_block_eig(G: mp.matrix, split: float = 1e-8) -> tuple[list[mp.mpf], list[mp.mpf], mp.matrix]:
    """Eigenvalues of a symmetric PSD G: float64 eigh separates the large ones (reported to float64
    accuracy) from the small ones, which are the eigenvalues of the Schur complement
    S = G22 - G21 G11^-1 G12 in float64's eigenbasis, computed at full precision. Exact null vectors of
    G are exact null vectors of S, so a true zero stays ~10^-(2 dps). Returns (large, small, vectors of
    the small ones in the original coordinates)."""
    P = G.rows
    Gf = np.array([[float(G[i, j]) for j in range(P)] for i in range(P)])
    w, V0 = np.linalg.eigh(Gf)
    top = max(float(w[-1]), 0.0) or 1.0
    small = [i for i in range(P) if w[i] < split * top]
    large = [i for i in range(P) if i not in small]
    if not small:
        return [mp.mpf(float(w[i])) for i in large], [], mp.matrix(P, 0)
    V = mp.matrix(V0.tolist())
    Gp = V.T * G * V
    s, g = len(small), len(large)
    G11 = mp.matrix(g, g)
    G12 = mp.matrix(g, s)
    G22 = mp.matrix(s, s)
    for a, i in enumerate(large):
        for b, j in enumerate(large):
            G11[a, b] = Gp[i, j]
        for b, j in enumerate(small):
            G12[a, b] = Gp[i, j]
    for a, i in enumerate(small):
        for b, j in enumerate(small):
            G22[a, b] = Gp[i, j]
    X = mp.matrix(g, s)
    for c in range(s if g else 0):  # mpmath caches the LU factors of G11 between columns
        col = mp.lu_solve(G11, G12[:, c])
        for a in range(g):
            X[a, c] = col[a]
    S = G22 - G12.T * X if g else G22
    evals, W = mp.eigsy(S)
    full = mp.matrix(P, s)  # v = V [-G11^-1 G12 w; w]
    for c in range(s):
        coords = mp.matrix(P, 1)
        top_part = -(X * W[:, c]) if g else mp.matrix(0, 1)
        for a, i in enumerate(large):
            coords[i] = top_part[a]
        for a, i in enumerate(small):
            coords[i] = W[a, c]
        v = V * coords
        v = v / mp.norm(v)
        for r in range(P):
            full[r, c] = v[r]
    return [mp.mpf(float(w[i])) for i in large], [evals[c] for c in range(s)], full


def spectrum(J: np.ndarray, dps: int, G: mp.matrix | None = None) -> Spectrum:
    """Singular values of J (object array of mpf, R x P) via the eigenvalues of J^T J at 2*dps."""
    P = J.shape[1]
    G = gram(J, dps) if G is None else G
    with mp.workdps(2 * dps):
        large, small, vecs = small_block_eig(G)
        pairs = [(v, None) for v in large] + [(small[c], c) for c in range(len(small))]
        pairs.sort(key=lambda p: -p[0])
        sv = [mp.sqrt(max(v, 0)) for v, _ in pairs]
        smax = sv[0] if sv and sv[0] > 0 else mp.mpf(1)
        cut = threshold(dps) * smax
        rank = sum(1 for s in sv if s > cut)
        gap = sv[rank - 1] / sv[rank] if 0 < rank < P and sv[rank] > 0 else mp.inf
        null = None
        if rank < P:
            null = mp.matrix(P, P - rank)
            for c, (_, idx) in enumerate(pairs[rank:]):
                if idx is None:  # a large eigenvalue below the cut cannot happen (split << cut)
                    raise AssertionError("rank cut above the float64 split")
                for r in range(P):
                    null[r, c] = vecs[r, idx]
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
