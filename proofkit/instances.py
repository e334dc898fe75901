"""Concrete true models: exact decimal matrices (fixed instances chosen here; seeded ones for other sizes)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


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
