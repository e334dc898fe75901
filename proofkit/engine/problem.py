"""A concrete learning problem: learned and true families, true parameters, training data at lengths <= T.

Labels are the true model's logits computed at the working precision from exact decimal parameters, so
the target is known to every digit (compare logits, not saturated outputs).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import mpmath as mp
import numpy as np

from ..families import Family
from ..families.base import Batches
from ..language.spec import Theorem
from ..numerics import activation as act
from ..numerics.backend import FLOAT64, MP, Ops, mp_abs_max
from .support import Support

#: the most mpf numbers one problem keeps of test batches and the true model's values there (about 170
#: bytes each: under 100 MB; a search's suites up to length 1000 hold about 10^5)
TRUTH_CACHE_ENTRIES = 500_000


@dataclass
class Problem:
    learned: Family
    true: Family
    theta_true: np.ndarray  # exact decimal strings
    support: Support
    activation: str
    T: int
    lengths: list[int]
    n_per_length: int
    seed: int
    dps: int

    def __post_init__(self) -> None:
        rng = np.random.default_rng(self.seed)
        self.train_X = [np.concatenate([self.support.vertices(t),
                                        self.support.sample(rng, self.n_per_length, t)])
                        for t in self.lengths]
        self._batches = Batches(self.train_X)  # the float64 fit's view of them (Family.batch_logits)
        self._targets64: np.ndarray | None = None  # float64 targets, stacked (computed once)
        self._mp_cache: dict[int, list[np.ndarray]] = {}
        self._truth_cache: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._truth_cached = 0  # mpf entries held by _truth_cache

    @property
    def injective(self) -> bool:
        return act.is_injective(self.activation)

    def true_theta(self, ops: Ops) -> np.ndarray:
        return ops.asarray(self.theta_true)

    def true_logits(self, X: np.ndarray, ops: Ops) -> np.ndarray:
        return self.true.logits(self.true_theta(ops), ops.asarray(X), ops)

    def train_targets(self, ops: Ops) -> list[np.ndarray]:
        """True logits (or outputs, for a non-injective activation) on the training sequences."""
        if ops is MP:
            key = mp.mp.dps
            if key not in self._mp_cache:
                self._mp_cache[key] = [self._target(X, ops) for X in self.train_X]
            return self._mp_cache[key]
        return [self._target(X, ops) for X in self.train_X]

    def _target(self, X: np.ndarray, ops: Ops) -> np.ndarray:
        z = self.true_logits(X, ops)
        return z if self.injective else act.apply(self.activation, z, ops)

    def compare(self, theta: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(h, f) at high precision on sequences X: logits when the readout is injective (compare logits),
        outputs otherwise (equal outputs with different non-positive ReLU logits are not a gap)."""
        Xm, zf = self._truth_at(X)
        zh = self.learned.logits(theta, Xm, MP)
        if not self.injective:
            zh = act.apply(self.activation, zh, MP)
        return zh, zf

    def relative_gaps(self, theta: np.ndarray, X: np.ndarray) -> list[mp.mpf]:
        """Per sequence of X, the relative gap max |h - f| / max(1, |f|) at high precision (:meth:`compare`;
        the scale is the batch's largest |f|)."""
        zh, zf = self.compare(theta, X)
        scale = max(mp.mpf(1), mp_abs_max(zf))
        return [mp_abs_max(zh[i] - zf[i]) / scale for i in range(X.shape[0])]

    def output_mse(self, theta: np.ndarray, X: np.ndarray) -> mp.mpf:
        """The test mean squared error of the outputs at the working precision: the mean over the
        sequences of X and the output coordinates of (sigma(h) - sigma(f))^2, sigma the readout. What an
        experiment that trains with an output loss reports per length."""
        Xm = MP.asarray(X)
        oh = act.apply(self.activation, self.learned.logits(theta, Xm, MP), MP)
        of = act.apply(self.activation, self.true.logits(self.true_theta(MP), Xm, MP), MP)
        d = (oh - of).ravel()
        return mp.fsum(x * x for x in d) / len(d)

    def _truth_at(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(X at the working precision, f there: logits or outputs as :meth:`compare` compares them).
        A search compares many learners on the same test batches, and f there depends only on the batch
        and the precision, so a float batch's pair is computed once per precision and kept (read-only,
        at most TRUTH_CACHE_ENTRIES numbers per problem); other inputs are computed each time."""
        key = None
        if isinstance(X, np.ndarray) and X.dtype.kind == "f":
            key = (mp.mp.prec, X.dtype.str, X.shape, X.tobytes())
            if key in self._truth_cache:
                return self._truth_cache[key]
        Xm = MP.asarray(X)
        zf = self.true.logits(self.true_theta(MP), Xm, MP)
        if not self.injective:
            zf = act.apply(self.activation, zf, MP)
        size = Xm.size + zf.size
        if key is not None and self._truth_cached + size <= TRUTH_CACHE_ENTRIES:
            Xm.flags.writeable = zf.flags.writeable = False
            self._truth_cache[key] = (Xm, zf)
            self._truth_cached += size
        return Xm, zf

    def residual(self, theta: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """Training residual, in logit space when the activation is injective, else in output space.
        In numpy float64 (the fit's LM steps) one fused pass over every length with the targets kept;
        other backends length after length."""
        if ops is FLOAT64:
            if self._targets64 is None:
                self._targets64 = np.concatenate(self.train_targets(FLOAT64))
            z = self.learned.batch_logits(theta, self._batches)
            if not self.injective:
                z = act.apply(self.activation, z, ops)
            return (z - self._targets64).reshape(-1)
        parts = []
        for X, y in zip(self.train_X, self.train_targets(ops)):
            z = self.learned.logits(theta, ops.asarray(X), ops)
            if not self.injective:
                z = act.apply(self.activation, z, ops)
            parts.append((z - y).reshape(-1))
        return np.concatenate(parts)

    def residual_jacobian(self, theta: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """d residual / d theta: (residuals, P), rows as :meth:`residual` orders them."""
        if ops is FLOAT64:
            J = self.learned.batch_jacobian(theta, self._batches)
            if not self.injective:
                z = self.learned.batch_logits(theta, self._batches)
                J = J * act.derivative(self.activation, z, ops)[:, :, None]
            return J.reshape(-1, J.shape[-1])
        parts = []
        for X in self.train_X:
            Xo = ops.asarray(X)
            J = self.learned.jacobian(theta, Xo, ops)
            if not self.injective:
                z = self.learned.logits(theta, Xo, ops)
                J = J * act.derivative(self.activation, z, ops)[:, :, None]
            parts.append(J.reshape(-1, J.shape[-1]))
        return np.concatenate(parts)


def build_problem(theorem: Theorem, params: Mapping[str, Any], *, seed: int, dps: int) -> Problem:
    """Instantiate the theorem's setup at these parameters."""
    s = theorem.setup
    assert s is not None, f"{theorem.id} has no numeric setup"
    T = int(params["T"])
    lengths = list(range(1, T + 1)) if params.get("supervision", "ALL") == "ALL" else [T]
    return Problem(
        learned=s.learned(params), true=s.true(params),
        theta_true=np.asarray(s.true_params(params), dtype=object),
        support=s.support(params), activation=params.get("activation", "sigmoid"), T=T,
        lengths=lengths, n_per_length=s.n_per_length, seed=seed, dps=dps,
    )
