"""Vanilla (Elman) RNN: ``h_t = sigma(Lam h_{t-1} + B x_t)``, h_0 = 0, logit ``A h_t``.

The logits are the pre-activation readout ``A h_t``; the readout activation (if any) is applied by the
learning problem, as for :class:`~proofkit.families.linrec.LinearRecurrence`. The hidden activation
``sigma`` is a parameter of the family (sigmoid, tanh, softplus, relu, identity:
:mod:`proofkit.numerics.activation`).

The Jacobian is the exact chain rule (forward-mode through time), written through ``ops`` like the model,
so it is exact in the sympy backend and an enclosure in the ball backend; finite differences would lose
half the working digits and cannot be enclosed. ReLU's derivative at 0 is taken as 0 (a one-sided value).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..numerics import activation as act
from ..numerics.backend import FLOAT64, Ops
from .base import Family
from .kinks import positions, solve_in_box

#: activation -> its kinks (points where it is not differentiable)
KINKS = {"relu": (0.0,)}


class VanillaRNN(Family):
    """Parameters A (m x k), Lam (k x k), B (k x n); hidden activation ``sigma`` (a name)."""

    name = "vanilla_rnn"

    def __init__(self, n: int = 2, k: int = 2, m: int = 2, sigma: str = "sigmoid") -> None:
        act.is_injective(sigma)  # validates the name (InputError otherwise)
        self.n, self.k, self.m, self.sigma = n, k, m, sigma
        self.layout = {"A": (m, k), "Lam": (k, k), "B": (k, n)}

    def _pre(self, p: dict[str, np.ndarray], h: np.ndarray, x: np.ndarray) -> np.ndarray:
        return h @ p["Lam"].T + x @ p["B"].T

    def states(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """Hidden states at every position: (N, t, n) -> (N, t, k)."""
        p = self.unpack_in(theta, ops)
        h = ops.zeros((X.shape[0], self.k))
        out = []
        for j in range(X.shape[1]):
            h = act.apply(self.sigma, self._pre(p, h, X[:, j, :]), ops)
            out.append(h)
        if not out:
            return ops.zeros((X.shape[0], 0, self.k))
        return ops.xp.stack(out, axis=1)

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        p = self.unpack_in(theta, ops)
        h = ops.zeros((X.shape[0], self.k))
        for j in range(X.shape[1]):
            h = act.apply(self.sigma, self._pre(p, h, X[:, j, :]), ops)
        return h @ p["A"].T

    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """d (A h_t) / d theta by forward-mode differentiation through time:
        dh_j = diag(sigma'(z_j)) (Lam dh_{j-1} + dLam h_{j-1} + dB x_j), z_j = Lam h_{j-1} + B x_j."""
        p = self.unpack(theta)
        A, Lam = p["A"], p["Lam"]
        N, t, n = X.shape
        k, m = self.k, self.m
        h = ops.zeros((N, k))
        dL = ops.zeros((N, k, k * k))  # d h / d Lam (flattened row-major)
        dB = ops.zeros((N, k, k * n))  # d h / d B
        for j in range(t):
            z = self._pre(p, h, X[:, j, :])
            dL = Lam @ dL
            dB = Lam @ dB
            for r in range(k):
                dL[:, r, r * k : (r + 1) * k] = dL[:, r, r * k : (r + 1) * k] + h
                dB[:, r, r * n : (r + 1) * n] = dB[:, r, r * n : (r + 1) * n] + X[:, j, :]
            d = act.derivative(self.sigma, z, ops)[:, :, None]
            dL, dB = d * dL, d * dB
            h = act.apply(self.sigma, z, ops)
        dA = ops.zeros((N, m, m * k))
        for r in range(m):
            dA[:, r, r * k : (r + 1) * k] = h
        return np.concatenate([dA, A @ dL, A @ dB], axis=2)

    def kink_sequences(self, theta: np.ndarray, t: int, support: Any) -> np.ndarray:
        """Length-t sequences that put one hidden unit's pre-activation at a kink of sigma (ReLU: 0),
        for the adversarial test suites (:mod:`proofkit.engine.adversarial`; helpers in
        :mod:`proofkit.families.kinks`): for each unit r and each position j (last, middle, first),
        tokens at the box's upper corner before j, a token x_j of the box with
        (Lam h_{j-1} + B x_j)_r = kink (solved in float64, so the pre-activation is the kink up to
        rounding, ~1e-16 relative), tokens at the lower corner after j. Units and positions where no
        token of the box reaches the kink are skipped; a smooth sigma has no kinks (empty result)."""
        kinks = KINKS.get(self.sigma, ())
        p = {key: np.array([[float(v) for v in row] for row in block])
             for key, block in self.unpack(np.asarray(theta, dtype=object)).items()}
        lo, hi = support.token_box()
        out = []
        for j in positions(t):
            h = np.zeros(self.k)
            for _ in range(j):
                h = act.apply(self.sigma, p["Lam"] @ h + p["B"] @ hi, FLOAT64)
            for r in range(self.k):
                for kink in kinks:
                    x = solve_in_box((p["Lam"] @ h)[r] - kink, p["B"][r], lo, hi)
                    if x is not None:
                        out.append(np.vstack([np.tile(hi, (j, 1)), x[None], np.tile(lo, (t - j - 1, 1))]))
        return np.array(out).reshape(-1, t, self.n)

    def canonicalize(self, theta: np.ndarray, reference: np.ndarray, ops: Ops) -> np.ndarray:
        """The only symmetries used here are discrete (permutations of hidden units; signs too for an
        odd sigma): no continuous gauge to move along."""
        return theta

    def relation_symbols(self, theta: np.ndarray, ops: Ops) -> dict[str, Any]:
        return dict(self.unpack(theta))
