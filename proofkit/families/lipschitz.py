"""Uniform Lipschitz constants and covering numbers for scalar linear recurrences (paper-agnostic), and
a sampled Lipschitz constant in the parameters for any family (:func:`sampled_parameter_lipschitz`).

Model: logit_t(x) = a sum_{j<t} lam^j b x_{t-j}, tokens x_i in [-1, 1], parameters theta = (a, lam, b)
in the box [-1, 1] x [-g, g] x [-1, 1] with g < 1. Because the logit is linear in x, the worst case over
tokens is exact: sup_x |logit_t(theta) - logit_t(theta')| = sum_{j<t} |c_j - c'_j| with
c_j = a b lam^j (the Markov parameters); the supremum over every length is that sum over all j, bounded
here by its first ``J`` terms plus the geometric tail 2 g^J / (1 - g).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np


def uniform_lipschitz(g: float) -> float:
    """L with |logit_t(theta) - logit_t(theta')| <= L ||theta - theta'||_inf for every t and every
    x in [-1, 1]^t, over the box: |d/da|, |d/db| <= sum g^j = 1/(1-g), |d/dlam| <= sum j g^(j-1) =
    1/(1-g)^2 (mean value theorem on the convex box)."""
    return 2.0 / (1.0 - g) + 1.0 / (1.0 - g) ** 2


def grid(g: float, eta: float) -> tuple[np.ndarray, int]:
    """Centres of an eta-net (sup norm) of the box, spacing 2 eta; returns (points (N, 3), N)."""
    axes = []
    for half in (1.0, g, 1.0):
        cells = max(1, math.ceil(2 * half / (2 * eta)))
        width = 2 * half / cells
        axes.append(-half + width * (np.arange(cells) + 0.5))
    pts = np.array(np.meshgrid(*axes, indexing="ij")).reshape(3, -1).T
    return pts, len(pts)


def markov(theta: np.ndarray, J: int) -> np.ndarray:
    """c_j = a b lam^j for j < J; theta (N, 3) -> (N, J)."""
    theta = np.atleast_2d(theta)
    a, lam, b = theta[:, 0:1], theta[:, 1:2], theta[:, 2:3]
    return a * b * lam ** np.arange(J)[None, :]


def sup_gap(theta: np.ndarray, theta_ref: np.ndarray, length: int | None, g: float, J: int = 400
            ) -> np.ndarray:
    """sup over x in [-1,1]^t of |logit_t(theta) - logit_t(theta_ref)|: at t = ``length`` (exact sum,
    length <= J), or over every t (``length`` None: J terms plus the tail bound 2 g^J / (1 - g))."""
    d = np.abs(markov(theta, J) - markov(theta_ref, J))
    if length is not None:
        return d[:, :length].sum(axis=1)
    return d.sum(axis=1) + 2 * g**J / (1 - g)


def nearest(points: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Nearest net point in the sup norm, for each row of theta."""
    dist = np.abs(points[None, :, :] - theta[:, None, :]).max(axis=2)
    return points[dist.argmin(axis=1)]


def sampled_parameter_lipschitz(family: Any, theta: np.ndarray, lengths: Sequence[int],
                                rng: np.random.Generator, samples: int = 32) -> dict[int, float]:
    """Per length t, the largest max row sum of |d logit / d theta| (the sup-norm-in-theta Lipschitz
    constant of the logits at ``theta``) over ``samples`` sequences with tokens U[0, 1]^n drawn from
    ``rng``, in float64: a sampled lower estimate of Lip_t, any family with a Jacobian."""
    out = {}
    for t in lengths:
        J = family.jacobian(theta, rng.random((samples, t, family.n)))
        out[t] = float(np.abs(J).sum(axis=2).max())
    return out
