"""Deep sets (AM24 Assumption 1): logit = A sum_j psi(x_j) (+ a), psi a one-hidden-layer tanh network."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..backend import FLOAT64, Ops
from .base import Family


class DeepSets(Family):
    """``psi(x) = W2 tanh(W1 x + b1) + b2`` (k outputs, ``width`` hidden units);
    logit ``A sum_j psi(x_j) (+ a)``."""

    name = "deep_sets"

    def __init__(self, n: int = 2, k: int = 2, m: int = 2, width: int = 3,
                 readout_bias: bool = False) -> None:
        self.n, self.k, self.m, self.width, self.readout_bias = n, k, m, width, readout_bias
        layout: dict[str, tuple[int, ...]] = {"A": (m, k)}
        if readout_bias:
            layout["a"] = (m,)
        layout.update({"W1": (width, n), "b1": (width,), "W2": (k, width), "b2": (k,)})
        self.layout = layout

    def _hidden(self, p: dict, X: np.ndarray, ops: Ops) -> np.ndarray:
        return ops.tanh(X @ p["W1"].T + p["b1"])

    def token_map(self, theta: np.ndarray, x: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """psi at a batch of tokens: (G, n) -> (G, k)."""
        p = self.unpack(theta)
        return self._hidden(p, x, ops) @ p["W2"].T + p["b2"]

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        p = self.unpack(theta)
        H = self._hidden(p, X, ops)  # (N, t, w)
        S = H.sum(axis=1) @ p["W2"].T + X.shape[1] * p["b2"]
        z = S @ p["A"].T
        return z + p["a"] if self.readout_bias else z

    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        p = self.unpack(theta)
        N, t, n = X.shape
        m, k, w = self.m, self.k, self.width
        H = self._hidden(p, X, ops)
        Hs = H.sum(axis=1)  # (N, w)
        S = Hs @ p["W2"].T + t * p["b2"]  # (N, k)
        D = 1 - H * H  # tanh' at each token, (N, t, w)
        AW2 = p["A"] @ p["W2"]  # (m, w)
        blocks = []
        dA = ops.zeros((N, m, m * k))
        for r in range(m):
            dA[:, r, r * k : (r + 1) * k] = S
        blocks.append(dA)
        if self.readout_bias:
            da = ops.zeros((N, m, m))
            for r in range(m):
                da[:, r, r] = ops.convert(1)
            blocks.append(da)
        # d/dW1[u, s] = AW2[:, u] * sum_j D[j, u] x_j[s]; d/db1[u] = AW2[:, u] * sum_j D[j, u]
        G = np.einsum("ntu,nts->nus", D, X) if ops.name == "float64" else _einsum_nus(D, X)
        Ds = D.sum(axis=1)  # (N, w)
        dW1 = AW2[None, :, :, None] * G[:, None, :, :]  # (N, m, w, n)
        blocks.append(dW1.reshape(N, m, w * n))
        blocks.append(AW2[None, :, :] * Ds[:, None, :])
        # d/dW2[r, u] = A[:, r] * Hs[u]; d/db2[r] = A[:, r] * t
        dW2 = p["A"][None, :, :, None] * Hs[:, None, None, :]  # (N, m, k, w)
        blocks.append(dW2.reshape(N, m, k * w))
        blocks.append(np.broadcast_to(t * p["A"], (N, m, k)).copy())
        return np.concatenate(blocks, axis=2)

    def relation_symbols(self, theta: np.ndarray, ops: Ops) -> dict[str, np.ndarray]:
        return {"A": self.unpack(theta)["A"]}

    def unit_parts(self, theta: np.ndarray) -> dict[str, Any]:
        """The hidden units and the pooled readout by role, so that support-wide certificates
        (:mod:`proofkit.certify_features`) need not know this family's parameter layout:
        ``psi(x) = out_weights activation(in_weights x + in_bias) + out_bias`` and
        ``logit = readout sum_j psi(x_j) + readout_bias`` (``readout_bias`` None without a bias).
        Arrays are views of ``theta`` in its own backend."""
        p = self.unpack(theta)
        return {"activation": "tanh", "in_weights": p["W1"], "in_bias": p["b1"], "out_weights": p["W2"],
                "out_bias": p["b2"], "readout": p["A"], "readout_bias": p.get("a")}

    def canonicalize(self, theta: np.ndarray, reference: np.ndarray, ops: Ops) -> np.ndarray:
        """Readout gauge (A, W2, b2) -> (A M^-1, M W2, M b2) with M^-1 = A^-1 A_ref (square case)."""
        if self.k != self.m:
            return theta
        from .linrec import _inv

        p, q = dict(self.unpack(theta)), self.unpack(reference)
        try:
            Mi = _inv(p["A"], ops) @ q["A"]
            M = _inv(Mi, ops)
        except (ZeroDivisionError, np.linalg.LinAlgError, ValueError):
            return theta
        p["A"], p["W2"], p["b2"] = p["A"] @ Mi, M @ p["W2"], M @ p["b2"]
        return self.pack(p, ops)

    def gauge_tangent(self, theta: np.ndarray) -> np.ndarray:
        p = self.unpack(np.asarray(theta, dtype=float))
        cols = []
        for a in range(self.k):
            for b in range(self.k):
                Xi = np.zeros((self.k, self.k))
                Xi[a, b] = 1.0
                d = {key: np.zeros(shape) for key, shape in self.layout.items()}
                d["A"], d["W2"], d["b2"] = -p["A"] @ Xi, Xi @ p["W2"], Xi @ p["b2"]
                cols.append(self.pack(d))
        return np.array(cols).T


def _einsum_nus(D: np.ndarray, X: np.ndarray) -> np.ndarray:
    """sum_t D[n,t,u] X[n,t,s] for object arrays (np.einsum does not take object dtype everywhere)."""
    return np.matmul(np.swapaxes(D, 1, 2), X)
