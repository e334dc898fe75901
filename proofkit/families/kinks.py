"""Where a family's hidden unit meets a kink of its activation: the positions of a sequence that the
adversarial suites probe (:mod:`proofkit.engine.adversarial`) and the token of a box that puts an affine
pre-activation exactly at the kink. Families use these to build their kink sequences."""

from __future__ import annotations

import numpy as np


def positions(t: int) -> list[int]:
    """The last, a middle and the first position of a length-t sequence (distinct, in that order)."""
    return list(dict.fromkeys((t - 1, t // 2, 0)))


def solve_in_box(c: float, b: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray | None:
    """A point x of the box [lo, hi] with c + b . x = 0 (float64), or None when the affine function
    has no zero in the box. Starts at the box's centre and moves one coordinate at a time (largest
    |b_i| first) towards the zero, each clipped to its interval; the last move that is not clipped
    solves the equation up to rounding."""
    x = (lo + hi) / 2.0
    ends = np.where(b > 0, lo, hi), np.where(b > 0, hi, lo)
    if not (c + b @ ends[0] <= 0 <= c + b @ ends[1]):
        return None
    for i in np.argsort(-np.abs(b), kind="stable"):
        if b[i] == 0 or hi[i] <= lo[i]:
            continue
        v = c + b @ x
        if v == 0:
            break
        x[i] = min(max(x[i] - v / b[i], lo[i]), hi[i])
    return x
