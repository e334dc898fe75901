"""The contract every model family follows (scikit-learn style: declarative constructor, then query).

A family maps a flat parameter vector ``theta`` and a batch of sequences ``X`` (shape N x t x n) to the
pre-activation logits at the last position (N x m), in any backend of :mod:`proofkit.numerics.backend`, with
an analytic Jacobian. Families know nothing about theorems or verdicts.

Forward passes (``logits``, ``states``, ``token_map``) are written against the array API standard
through ``ops.xp`` (namespace functions, never array methods the standard lacks), so the float64 ones
run in any namespace of :func:`proofkit.numerics.arrays.float64_ops` (numpy, CuPy, array-api-strict): that is
how batched support screens evaluate models on a GPU. The object backends (mpmath, arb, sympy) keep
``ops.xp`` = numpy. ``X`` arrives in the namespace of ``ops``; ``theta`` may be a host array (it is moved,
:meth:`Family.unpack_in`). Jacobians serve the fit only and stay numpy (float64 or object arrays).

Optional accessors unlock certificates over a continuum: ``markov`` (families linear in their inputs:
all-length logit bounds), ``states`` with ``state_readout`` (the same model read out by a given matrix:
all-length bounds of relations over the states, :mod:`proofkit.certificates.certify_states`), ``unit_parts``
(hidden-unit families: support-wide token bounds, :mod:`proofkit.certificates.certify_features`).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from ..numerics import arrays
from ..numerics.backend import FLOAT64, Ops


def _foreign(a: Any) -> bool:
    """Whether ``a`` is an array of a namespace other than numpy (array-api-strict, CuPy)."""
    import array_api_compat

    return not isinstance(a, np.ndarray) and array_api_compat.is_array_api_obj(a)


def to_namespace(theta: Any, ops: Ops) -> Any:
    """``theta`` in the namespace of ``ops``: a host array is moved (as float64) when ``ops`` computes in
    float64 outside numpy; anything else (numpy float64, object arrays, arrays already there) as is."""
    if ops.name != "float64" or ops.xp is np or _foreign(theta) or arrays.is_numpy(ops.xp):
        return theta
    return arrays.asarray(np.asarray(theta, dtype=np.float64), ops.xp)


class Batches:
    """Float64 batches of sequences of different lengths (a problem's training data: N_i x t_i x n each,
    in order), with the stacked views that fused float64 passes over all of them use (computed once,
    on first use). Row i of a stacked result is sequence i of the batches taken in order."""

    def __init__(self, Xs: Sequence[np.ndarray]) -> None:
        self.Xs = tuple(np.asarray(X, dtype=np.float64) for X in Xs)

    @cached_property
    def lengths(self) -> np.ndarray:
        """The length of each sequence (N,), as floats."""
        return np.concatenate([np.full(X.shape[0], float(X.shape[1])) for X in self.Xs])

    @cached_property
    def tokens(self) -> np.ndarray:
        """Every token, sequence after sequence: (sum_i N_i t_i, n)."""
        return np.concatenate([X.reshape(-1, X.shape[-1]) for X in self.Xs])

    @cached_property
    def starts(self) -> np.ndarray:
        """Index in :attr:`tokens` of each sequence's first token (N,)."""
        return np.concatenate([[0], np.cumsum(self.lengths[:-1])]).astype(np.intp)

    @cached_property
    def padded(self) -> np.ndarray:
        """The sequences right-aligned at the longest length T, zero tokens before them: (N, T, n)."""
        T = max(X.shape[1] for X in self.Xs)
        out = [np.concatenate([np.zeros((X.shape[0], T - X.shape[1], X.shape[2])), X], axis=1)
               for X in self.Xs]
        return np.concatenate(out)


class Family(ABC):
    """A parametric hypothesis class with float64 / mpmath / ball / exact evaluation."""

    name: str = "family"
    #: ordered parameter blocks: name -> shape
    layout: dict[str, tuple[int, ...]]
    n: int
    m: int

    @property
    def n_params(self) -> int:
        return sum(math.prod(s) for s in self.layout.values())

    def param_names(self) -> list[str]:
        """Flat coordinate names, e.g. ``A[0,1]``, in theta order."""
        out = []
        for key, shape in self.layout.items():
            for idx in np.ndindex(*shape):
                out.append(f"{key}[{','.join(map(str, idx))}]")
        return out

    def unpack(self, theta: Any) -> dict[str, np.ndarray]:
        """The parameter blocks by name, views of ``theta`` (in its own namespace)."""
        if _foreign(theta):
            import array_api_compat

            xp, i, blocks = array_api_compat.array_namespace(theta), 0, {}
            for key, shape in self.layout.items():
                size = math.prod(shape)
                blocks[key] = xp.reshape(theta[i : i + size], shape)
                i += size
            return blocks
        if type(theta) is not np.ndarray:
            theta = np.asarray(theta, dtype=getattr(theta, "dtype", None))
        out, i = {}, 0
        for key, shape in self.layout.items():
            size = math.prod(shape)
            out[key] = theta[i : i + size].reshape(shape)
            i += size
        return out

    def unpack_in(self, theta: Any, ops: Ops) -> dict[str, Any]:
        """:meth:`unpack` of ``theta`` moved into the namespace of ``ops`` (:func:`to_namespace`)."""
        return self.unpack(to_namespace(theta, ops))

    def pack(self, blocks: dict[str, Any], ops: Ops = FLOAT64) -> np.ndarray:
        parts = []
        for key, shape in self.layout.items():
            block = ops.asarray(blocks[key])
            if block.shape != shape:
                raise ValueError(f"block {key}: expected shape {shape}, got {block.shape}")
            parts.append(block.reshape(-1))
        return np.concatenate(parts) if parts else ops.zeros((0,))

    @abstractmethod
    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """Logits at the last position of each sequence: (N, t, n) -> (N, m)."""

    @abstractmethod
    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """d logits / d theta: (N, t, n) -> (N, m, P). For the fit: numpy float64 and the object
        backends only (never evaluated over large supports, so it is not routed through a namespace)."""

    def fuses(self, cls: type) -> bool:
        """Whether this family computes its logits and Jacobian as ``cls`` does, so that ``cls``'s fused
        batch passes apply to it (a subclass that overrides either, e.g. mean pooling, must not
        inherit them: it gets the batch-after-batch defaults)."""
        kind = type(self)
        return kind.logits is cls.logits and kind.jacobian is cls.jacobian

    def batch_logits(self, theta: np.ndarray, batches: Batches) -> np.ndarray:
        """Float64 logits of every sequence of ``batches``, stacked: (N, m). This default evaluates
        batch after batch; families with a fused pass over all lengths at once override it (the
        training residual of the fit calls it every LM step)."""
        return np.concatenate([self.logits(theta, X) for X in batches.Xs])

    def batch_jacobian(self, theta: np.ndarray, batches: Batches) -> np.ndarray:
        """Float64 d logits / d theta of every sequence of ``batches``, stacked: (N, m, P). Default
        batch after batch, as :meth:`batch_logits`."""
        return np.concatenate([self.jacobian(theta, X) for X in batches.Xs])

    def vjp(self, theta: np.ndarray, X: np.ndarray, R: np.ndarray) -> np.ndarray:
        """sum_n R[n] . d logits[n] / d theta in float64 (R: N x m): the gradient of a loss through its
        logit residuals, e.g. 2 sum_n r_n . J_n for the squared error. This default contracts the
        per-sample Jacobian; families override it with a backward pass that never forms it (what a
        gradient-descent baseline deserves, bench row 1)."""
        return np.einsum("nr,nrp->p", R, self.jacobian(theta, X))

    def init(self, rng: np.random.Generator, scale: float = 0.5) -> np.ndarray:
        """A random starting point for a fit."""
        return rng.normal(0.0, scale, self.n_params)

    def relation_symbols(self, theta: np.ndarray, ops: Ops) -> dict[str, np.ndarray]:
        """Parameter-level objects that identification relations may name."""
        return dict(self.unpack(theta))

    def gauge_tangent(self, theta: np.ndarray) -> np.ndarray:
        """Columns spanning the continuous symmetry orbit's tangent at theta (P x g)."""
        return np.zeros((self.n_params, 0))

    def canonicalize(self, theta: np.ndarray, reference: np.ndarray, ops: Ops) -> np.ndarray:
        """Move theta along its symmetry orbit as close to reference as the family knows how."""
        return theta
