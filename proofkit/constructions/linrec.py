"""The over-parametrized linear recurrence: an exact learner of state dimension k~ = k + r (r >= 1) whose
Markov parameters equal the true ones for j <= r and differ at j = r + 1.

With the true (A, Lam, B) (state dimension k), a column v = e_i with A v != 0 and a row u = e_l with
u Lam^r B != 0, the learner is

    A~ = [A, 0],   Lam~ = [[Lam - v u, v e_1^T], [0, N]],   B~ = [B; u B; u Lam B; ...; u Lam^(r-1) B],

N the r x r shift (ones on the superdiagonal). By induction S_j = (top block of Lam~^j B~) = Lam^j B for
j <= r (S_j = (Lam - v u) S_(j-1) + v u Lam^(j-1) B), and S_(r+1) = Lam^(r+1) B - v u Lam^r B: the Markov
parameters A~ Lam~^j B~ agree for j <= r and differ by -A v u Lam^r B at j = r + 1. So the learner has zero
risk at every training length T <= r + 1 (Markov parameters j < T) and differs from f at length r + 2:
the refutation of the over-parametrized variant at every T below the tight threshold k~ - k + 2, in
rational arithmetic (the true parameters are exact decimals). Derived here, not in the paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np


def _mat(values: Sequence[Fraction], shape: tuple[int, int]) -> np.ndarray:
    return np.asarray(list(values), dtype=object).reshape(shape)


def chain_learner(true_blocks: dict[str, np.ndarray], k_learned: int, T: int,
                  bias: Sequence[Fraction] = ()) -> tuple[list[Fraction], str] | None:
    """Exact learned parameters (A~, Lam~, B~[, a]) flattened in that order, and a one-line description;
    None when k_learned <= k, when T > r + 1 (no chain learner hides the difference then) or when no
    unit v, u give a non-zero difference (A = 0 or Lam^r B = 0)."""
    A, Lam, B = (np.asarray(true_blocks[key], dtype=object) for key in ("A", "Lam", "B"))
    m, k = A.shape
    r = k_learned - k
    if r < 1 or T > r + 1:
        return None
    LrB = np.linalg.matrix_power(Lam, r).dot(B) if r else B
    cols = [i for i in range(k) if any(A[:, i])]
    rows = [ell for ell in range(k) if any(LrB[ell])]
    if not cols or not rows:
        return None
    i, ell = cols[0], rows[0]
    v = np.zeros((k, 1), dtype=object) + Fraction(0)
    v[i, 0] = Fraction(1)
    u = np.zeros((1, k), dtype=object) + Fraction(0)
    u[0, ell] = Fraction(1)
    At = np.concatenate([A, np.zeros((m, r), dtype=object) + Fraction(0)], axis=1)
    top = np.concatenate([Lam - v.dot(u), np.zeros((k, r), dtype=object) + Fraction(0)], axis=1)
    top[:, k] = v[:, 0]
    shift = np.zeros((r, k + r), dtype=object) + Fraction(0)
    for row in range(r - 1):
        shift[row, k + row + 1] = Fraction(1)
    Lt = np.concatenate([top, shift], axis=0)
    rows_B, P = [B], B
    for _ in range(r):
        rows_B.append(u.dot(P))
        P = Lam.dot(P)
    Bt = np.concatenate(rows_B, axis=0)
    flat = [Fraction(x) for blk in (At, Lt, Bt) for x in np.ravel(blk)] + [Fraction(b) for b in bias]
    how = (f"exact construction: the true model plus a nilpotent chain of {r} state(s) (v = e_{i + 1}, "
           f"u = e_{ell + 1}: Lam~ = [[Lam - v u, v e_1^T], [0, N_{r}]], B~ = [B; u Lam^j B, j < {r}]), "
           f"Markov parameters equal for j <= {r}, different at j = {r + 1}")
    return flat, how
