"""Concrete true models: exact decimal matrices (fixed instances chosen here; seeded ones for other sizes)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .pairwise import PairwiseSum


def decimals(rows: Sequence[Sequence[float | str]] | Sequence[float | str]) -> list[str]:
    """Flatten a matrix of decimal literals to exact decimal strings (row-major)."""
    return [str(v) for v in np.ravel(np.asarray(rows, dtype=object))]


def seeded_matrix(seed: int, shape: tuple[int, ...], scale: float = 1.0) -> np.ndarray:
    """A deterministic matrix of one-decimal numbers in [-scale, scale] (exact as decimals)."""
    rng = np.random.default_rng(seed)
    return np.round(rng.uniform(-scale, scale, shape), 1)


def with_rank_drop(M: np.ndarray, axis: int) -> np.ndarray:
    """Zero the last column (axis=1) or last row (axis=0): the matrix becomes singular."""
    M = np.array(M, dtype=float)
    if axis == 1:
        M[:, -1] = 0.0
    else:
        M[-1, :] = 0.0
    return M


def spectral_shrink(M: np.ndarray, radius: float = 0.8) -> np.ndarray:
    """Scale to spectral radius <= radius (rounded to one decimal), so long-length logits stay bounded."""
    rho = max(abs(np.linalg.eigvals(M))) if M.size else 0.0
    if rho > radius:
        M = np.round(M * radius / rho, 1)
    return M


#: structured transition matrices (:func:`transition`): which are invertible, which are not
INVERTIBLE_KINDS = ("rotation", "orthogonal", "nonnormal", "sign-pattern")
SINGULAR_KINDS = ("nilpotent",)


def transition(kind: str, n: int, seed: int = 0) -> np.ndarray:
    """A structured n x n transition matrix with two-decimal entries (exact as decimals), spectral radius
    below 1 so long-length logits stay bounded: ``rotation`` (2 x 2 blocks 0.6 [[c, -s], [s, c]] with
    c = 0.8, s = 0.6, a trailing 0.5 for odd n), ``orthogonal`` (0.9 times a signed permutation: a cycle
    with alternating signs), ``nonnormal`` (0.5 on the diagonal, 1 on the superdiagonal: one Jordan-like
    block, far from normal), ``nilpotent`` (the shift: ones on the superdiagonal, N^n = 0), ``sign-pattern``
    (0.6 I plus 0.2 times a seeded +-1 pattern off the diagonal: diagonally dominant, so invertible)."""
    if kind == "rotation":
        M = np.zeros((n, n))
        for i in range(0, n - 1, 2):
            M[i:i + 2, i:i + 2] = [[0.48, -0.36], [0.36, 0.48]]
        if n % 2:
            M[-1, -1] = 0.5
        return M
    if kind == "orthogonal":
        M = np.zeros((n, n))
        for i in range(n):
            M[(i + 1) % n, i] = 0.9 * (-1) ** i
        return M
    if kind == "nonnormal":
        return 0.5 * np.eye(n) + np.eye(n, k=1)
    if kind == "nilpotent":
        return np.eye(n, k=1)
    if kind == "sign-pattern":
        signs = np.where(np.random.default_rng(seed).uniform(size=(n, n)) < 0.5, -1.0, 1.0)
        return np.round(0.6 * np.eye(n) + 0.2 * signs * (1 - np.eye(n)), 2)
    raise ValueError(f"unknown transition kind {kind!r}")


#: the default deep-sets true model (values chosen here; no paper fixes them): token map
#: phi(x) = W2 tanh(W1 x + b1) + b2 (n = 2, width 3, k = 2), readout B (m = 2), readout bias
DEEP_SETS = {"W1": [[1.0, -0.5], [0.3, 0.8], [-0.7, 0.2]], "b1": [0.1, -0.2, 0.05],
             "W2": [[0.6, -0.4, 0.9], [-0.3, 0.7, 0.5]], "b2": [-0.2, 0.1],
             "B": [[1.0, 0.4], [-0.2, 0.9]], "bias": [0.1, -0.2]}


def hinge_knots(T: int) -> tuple[Fraction, Fraction]:
    """Knots of the hinge deep-sets search family: 2T/(2T+1), past which a ReLU readout of the hinge
    true model is dead on every training sequence with a token past it (sum_j (1 - (T + 1/2) x_j) <= t - T
    <= 0), and 1, the training token box's upper end."""
    return (Fraction(2 * T, 2 * T + 1), Fraction(1))


def deep_sets_true_params(n: int, m: int, T: int, hinge_features: int | None,
                          readout_bias: bool) -> list[str]:
    """Parameters of the true deep-sets model as decimal strings, in the families' layout (A, a, ...).
    ``hinge_features`` F given: the hinge model, B = (1, ..., 1)^T and phi(x) = 1 - (T + 1/2) x_1 (an
    affine token map, zero on every hinge); None: the tanh model of :data:`DEEP_SETS` (seeded matrices
    for other n, m)."""
    bias = list((DEEP_SETS["bias"] * m)[:m]) if readout_bias else []
    if hinge_features is not None:
        w = [1.0, -(T + 0.5)] + [0.0] * (hinge_features - 2)
        return [repr(v) for v in [1.0] * m + bias + w]
    W1 = np.array(DEEP_SETS["W1"]) if n == 2 else seeded_matrix(40 + n, (3, n))
    B = np.array(DEEP_SETS["B"]) if m == 2 else seeded_matrix(50 + m, (m, 2))
    blocks = [B] + ([np.array(DEEP_SETS["bias"][:m] + [0.0] * (m - 2))] if readout_bias else [])
    blocks += [W1, np.array(DEEP_SETS["b1"]), np.array(DEEP_SETS["W2"]), np.array(DEEP_SETS["b2"])]
    return [repr(float(v)) for b in blocks for v in np.ravel(b)]


#: the default pair-sum true model (values chosen here; no paper fixes them): readout B (m = n = 2) and the
#: readout bias (its first m entries); the pair map of degree D at n = 2 is V[r, s] = ((r + 1)(s + 2) mod 7
#: - 3)/5 on the monomials (15 of them at D = 2), seeded matrices for other sizes
PAIR_SUM = {"B": [[1.0, 0.3], [-0.4, 0.8]], "bias": [0.1, -0.2, 0.3]}


def pair_sum_true_params(fam: PairwiseSum, T: int, hinge_model: bool) -> list[str]:
    """Parameters of the true pair-sum model ``fam`` (its n, m, degree, monomials, key hinges and readout
    bias) as decimal strings, in the family's layout (A, a, W). ``hinge_model``: B[r, r mod n] = 1 and
    phi_i(a, b) = 1 - (T + 3/2) b_i with zero hinge weights (every training logit of coordinate r mod n is
    <= 0 once that key coordinate passes 2T/(2T+1)); else :data:`PAIR_SUM` (seeded matrices for other
    sizes) with zero hinge weights."""
    n, m = fam.n, fam.m
    if hinge_model:
        B = np.zeros((m, n))
        V = np.zeros((n, fam.F))
        for r in range(m):
            B[r, r % n] = 1.0
        for i in range(n):
            V[i, 0] = 1.0
            key_i = tuple(int(v == n + i) for v in range(2 * n))  # the monomial b_i
            V[i, fam.exponents.index(key_i)] = -(T + 1.5)
    else:
        B = np.array(PAIR_SUM["B"]) if (m, n) == (2, 2) else seeded_matrix(60 + 10 * m + n, (m, n))
        F = len(fam.exponents)
        V = (np.array([[((r + 1) * (s + 2) % 7 - 3) / 5 for s in range(F)] for r in range(n)]) if n == 2
             else seeded_matrix(70 + 10 * n + fam.degree, (n, F)))
        V = np.concatenate([V, np.zeros((n, len(fam.hinges)))], 1)
    bias = [np.array(PAIR_SUM["bias"][:m])] if fam.readout_bias else []
    return [repr(float(v)) for b in [B] + bias + [V] for v in np.ravel(b)]
