"""Deep sets with mean pooling: logit = A (1/t) sum_j psi(x_j) (+ a), psi as in :class:`DeepSets`.

The pooled value is the sum-pooled one divided by the length t, so every quantity of the sum-pooled
family (Jacobian, hidden units) carries over with a factor 1/t on the pooled part. The support-wide
length bound of :func:`proofkit.certify_features.sum_bound` (t sup_x |A_h psi - A_f phi|) stays a valid,
if loose, upper bound here: the mean gap is at most sup_x |A_h psi - A_f phi|.
"""

from __future__ import annotations

import numpy as np

from ..backend import FLOAT64, Ops
from .deepsets import DeepSets


class MeanPoolDeepSets(DeepSets):
    """``psi(x) = W2 tanh(W1 x + b1) + b2``; logit ``A (1/t) sum_j psi(x_j) (+ a)``."""

    name = "deep_sets_mean"

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        t = X.shape[1]
        z = super().logits(theta, X, ops)
        if self.readout_bias:
            a = self.unpack(theta)["a"]
            return (z - a) / t + a
        return z / t

    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        t = X.shape[1]
        J = super().jacobian(theta, X, ops) / t
        if self.readout_bias:  # d/da is not divided by t
            start = self.m * self.k
            J[:, :, start:start + self.m] = J[:, :, start:start + self.m] * t
        return J
