"""Deep sets with mean pooling: logit = A (1/t) sum_j psi(x_j) (+ a), psi as in :class:`DeepSets`.

The pooled value is the sum-pooled one divided by the length t, so every quantity of the sum-pooled family
(Jacobian, hidden units) carries over with a factor 1/t on the pooled part. The support-wide length bound of
:func:`proofkit.certificates.certify_features.sum_bound` (t sup_x |A_h psi - A_f phi|) stays a valid, if
loose, upper bound here: the mean gap is at most sup_x |A_h psi - A_f phi|.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..numerics.backend import FLOAT64, Ops
from .deepsets import DeepSets, HingeDeepSets


class MeanPooling:
    """Mixin over a sum-pooled family whose parameters start with A (m x k), then the bias a: the pooled
    part of the logit (and of its Jacobian) divided by the length t, the bias not."""

    m: int
    k: int
    readout_bias: bool

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        t = X.shape[1]
        z = super().logits(theta, X, ops)
        if self.readout_bias:
            a = self.unpack_in(theta, ops)["a"]
            return (z - a) / t + a
        return z / t

    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        t = X.shape[1]
        J = super().jacobian(theta, X, ops) / t
        if self.readout_bias:  # d/da is not divided by t
            start = self.m * self.k
            J[:, :, start:start + self.m] = J[:, :, start:start + self.m] * t
        return J


class MeanPoolDeepSets(MeanPooling, DeepSets):
    """``psi(x) = W2 tanh(W1 x + b1) + b2``; logit ``A (1/t) sum_j psi(x_j) (+ a)``."""

    name = "deep_sets_mean"


class MeanPoolHingeDeepSets(MeanPooling, HingeDeepSets):
    """:class:`HingeDeepSets` with mean pooling: logit ``A (1/t) sum_j W p(x_j) (+ a)``.

    Multiplying a length-t logit by t gives the sum-pooled one with the bias ``t a``, so the exact
    certificate is the sum-pooled one with :meth:`pooled_bias` = t a. Its three cases become:
    (a) g = c_h p - c_f p constant on the token box and ``g + a_h - a_f = 0``: the mean of a constant is
    that constant at every length, so one length fixes it and h = f on every box sequence of every
    length (a gauge, not a counterexample, unless test tokens leave the box); (b) ReLU: g without affine
    part, the same constant condition, and ``sum_j c p(x_j) + t a <= 0`` (the sum-pooled sign conditions
    with the bias t a) on every training sequence with a token past a knot where h and f differ;
    (c) g affine and ``sum_j g(x_j) + t (a_h - a_f) = 0`` on spanning points of every training length."""

    name = "hinge_deep_sets_mean"
    WHY = {"a": "the per-token logit difference g = c_h p - c_f p is constant on the whole training token "
                "box (its hinges sit at or beyond the box's upper end) and g + a_h - a_f = 0 (the mean of a "
                "constant is that constant at every length), so h = f on every training sequence "
                "(lengths {lengths}) and on every box sequence of any length",
           "b": "g is supported on hinge regions, g + a_h - a_f = 0 elsewhere, and both logits are <= 0 "
                "(sum_j c p(x_j) + t a <= 0) on every training sequence (lengths {lengths}, box tokens) "
                "with a token there (exact vertex bounds), so both ReLU outputs are 0 there and h = f "
                "elsewhere",
           "c": "g is affine and sum_j g(x_j) + t (a_h - a_f) = 0 at points spanning the affine hull of the "
                "training support at every training length {lengths}"}

    def pooled_bias(self, t: int, a: Fraction) -> Fraction:
        """t a: the length-t logit times t is ``sum_j c p(x_j) + t a``."""
        return t * a


    def exact_logits(self, c: list[list[Fraction]], X: np.ndarray,
                     bias: list[Fraction] | None = None) -> list[Fraction]:
        """Mean-pooled logits of one sequence X (t x n, floats read exactly), exactly."""
        bias = bias or [Fraction(0)] * len(c)
        return [s / len(X) + b for s, b in zip(super().exact_logits(c, X), bias)]
