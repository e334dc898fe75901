"""A readout bias for any family: logit ``base_logit + a``, output ``sigma(A h_t + a)``.

:func:`with_readout_bias` wraps a family; the bias ``a`` (m entries) is the last parameter block, so the base
family's blocks keep their offsets. Wrapping a family linear in its inputs keeps its Markov parameters
(``markov``: the bias is a constant that no token multiplies) and its state readouts (the states do not see
the readout bias), so the all-length bounds apply with the constant bias difference added
(:mod:`proofkit.engine.generalization`). It deliberately has no ``markov_jacobian``: an interval existence
proof over the Markov equations alone would not pin the bias, so the wrapper's zero-risk learners are proven
by :mod:`proofkit.engine.falsify` (base family's proof, bias set exactly to the true one) or not at all.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..numerics.backend import FLOAT64, Ops
from .base import Batches, Family, _foreign, to_namespace


def _flat(theta: Any) -> Any:
    """theta as a flat array: a namespace array as is, anything else as numpy (object arrays kept)."""
    return theta if _foreign(theta) else np.asarray(theta, dtype=getattr(theta, "dtype", None))


class BiasedReadout(Family):
    """``base`` with a readout bias ``a`` (m,) added to its logits."""

    def __init__(self, base: Family) -> None:
        self.base = base
        self.n, self.m = base.n, base.m
        self.k = getattr(base, "k", base.n)
        self.name = f"{base.name}+bias"
        self.layout = dict(base.layout) | {"a": (base.m,)}

    def core(self, theta: Any) -> np.ndarray:
        """The base family's parameters (theta without the bias), in theta's namespace."""
        return _flat(theta)[: self.base.n_params]

    def offset(self, theta: Any) -> np.ndarray:
        """The readout bias a, in theta's namespace."""
        return _flat(theta)[self.base.n_params:]

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        theta = to_namespace(theta, ops)
        return self.base.logits(self.core(theta), X, ops) + self.offset(theta)[None, :]

    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        J = self.base.jacobian(self.core(theta), X, ops)
        eye = ops.asarray(np.eye(self.m))
        return np.concatenate([J, np.broadcast_to(eye, (J.shape[0], self.m, self.m)).copy()], axis=2)

    def batch_logits(self, theta: np.ndarray, batches: Batches) -> np.ndarray:
        """The base family's batch pass (fused where it has one) plus the bias."""
        if not self.fuses(BiasedReadout):
            return super().batch_logits(theta, batches)
        return self.base.batch_logits(self.core(theta), batches) + self.offset(theta)[None, :]

    def batch_jacobian(self, theta: np.ndarray, batches: Batches) -> np.ndarray:
        """The base family's batch Jacobian with the bias columns (the identity) appended."""
        if not self.fuses(BiasedReadout):
            return super().batch_jacobian(theta, batches)
        J = self.base.batch_jacobian(self.core(theta), batches)
        return np.concatenate([J, np.broadcast_to(np.eye(self.m), (J.shape[0], self.m, self.m))], axis=2)

    def init(self, rng: np.random.Generator, scale: float = 0.5) -> np.ndarray:
        return np.concatenate([self.base.init(rng, scale), rng.normal(0.0, scale, self.m)])

    def states(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """The base family's hidden states (the readout bias does not enter them)."""
        return self.base.states(self.core(to_namespace(theta, ops)), X, ops)

    def relation_symbols(self, theta: np.ndarray, ops: Ops) -> dict[str, Any]:
        return self.base.relation_symbols(self.core(theta), ops) | {"a": self.offset(theta)}

    def gauge_tangent(self, theta: np.ndarray) -> np.ndarray:
        G = self.base.gauge_tangent(self.core(theta))
        return np.vstack([G, np.zeros((self.m, G.shape[1]))])

    def canonicalize(self, theta: np.ndarray, reference: np.ndarray, ops: Ops) -> np.ndarray:
        core = self.base.canonicalize(self.core(theta), self.core(reference), ops)
        return np.concatenate([core, self.offset(theta)])

    def kink_sequences(self, theta: np.ndarray, t: int, support: Any) -> np.ndarray:
        """The base family's kink inputs (:mod:`proofkit.engine.adversarial`); none without the hook."""
        if not hasattr(self.base, "kink_sequences"):
            return np.zeros((0, t, self.n))
        return self.base.kink_sequences(self.core(theta), t, support)


class BiasedLinear(BiasedReadout):
    """A readout bias on a family linear in its inputs: logit ``sum_j M_j x_{t-j} + a``."""

    def markov(self, theta: np.ndarray, count: int, ops: Ops = FLOAT64) -> list[np.ndarray]:
        """The base family's Markov parameters (the bias is not one of them)."""
        return self.base.markov(self.core(theta), count, ops)

    def state_readout(self, theta: np.ndarray, P: np.ndarray,
                      ops: Ops = FLOAT64) -> tuple[Family, np.ndarray]:
        """The base family's state readout (the states do not see the readout bias)."""
        return self.base.state_readout(self.core(theta), P, ops)


def with_readout_bias(base: Family) -> BiasedReadout:
    """``base`` with a readout bias; Markov parameters and state readouts kept where ``base`` has them."""
    return BiasedLinear(base) if hasattr(base, "markov") else BiasedReadout(base)
