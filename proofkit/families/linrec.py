"""Linear recurrence with a linear readout (AM24 eq. 2, Assumption 5): logit_t = A sum_j Lam^j B x_{t-j}."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..numerics.backend import FLOAT64, Ops
from . import observer
from .base import Batches, Family


def _inv(M: np.ndarray, ops: Ops) -> np.ndarray:
    if ops.name == "float64":
        return np.linalg.inv(M)
    import mpmath as mp
    import sympy as sp

    if ops.name == "sympy":
        return np.array(sp.Matrix(M).inv().tolist(), dtype=object)
    inv = mp.inverse(mp.matrix(M.tolist()))
    return np.array(inv.tolist(), dtype=object)


class LinearRecurrence(Family):
    """``s_t = Lam s_{t-1} + B x_t`` (s_0 = 0), logit ``A s_t``.
    Parameters A (m x k), Lam (k x k), B (k x n)."""

    name = "linear_recurrence"

    def __init__(self, n: int = 2, k: int = 2, m: int = 2) -> None:
        self.n, self.k, self.m = n, k, m
        self.layout = {"A": (m, k), "Lam": (k, k), "B": (k, n)}

    def states(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        """Hidden states at every position: (N, t, n) -> (N, t, k)."""
        p = self.unpack_in(theta, ops)
        N, t, _ = X.shape
        s = ops.zeros((N, self.k))
        out = []
        for j in range(t):
            s = s @ p["Lam"].T + X[:, j, :] @ p["B"].T
            out.append(s)
        return ops.xp.stack(out, axis=1)

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        p = self.unpack_in(theta, ops)
        s = ops.zeros((X.shape[0], self.k))
        for j in range(X.shape[1]):
            s = s @ p["Lam"].T + X[:, j, :] @ p["B"].T
        return s @ p["A"].T

    def batch_logits(self, theta: np.ndarray, batches: Batches) -> np.ndarray:
        """Every length at once: the sequences right-aligned at the longest length behind zero tokens,
        which keep the state exactly 0 (s_0 = 0)."""
        if not self.fuses(LinearRecurrence):
            return super().batch_logits(theta, batches)
        return self._states64(theta, batches.padded)[:, -1] @ self.unpack(theta)["A"].T

    def batch_jacobian(self, theta: np.ndarray, batches: Batches) -> np.ndarray:
        """Every length at once (:meth:`batch_logits`), in closed form (:meth:`_jacobian64`)."""
        if not self.fuses(LinearRecurrence):
            return super().batch_jacobian(theta, batches)
        return self._jacobian64(theta, batches.padded)

    def _states64(self, theta: np.ndarray, X: np.ndarray) -> np.ndarray:
        """Float64 states at every position, (N, t, n) -> (N, t, k): the inputs enter through one
        matrix product, then the recurrence runs over positions."""
        p = self.unpack(theta)
        N, t, n = X.shape
        U = (X.reshape(N * t, n) @ p["B"].T).reshape(N, t, self.k)
        S = np.empty_like(U)
        s = S[:, 0] = U[:, 0]
        for j in range(1, t):
            s = S[:, j] = s @ p["Lam"].T + U[:, j]
        return S

    def _jacobian64(self, theta: np.ndarray, X: np.ndarray) -> np.ndarray:
        """d logit_t / d theta in float64 from the closed form of the linear recurrence, with
        Q_i = A Lam^i: d/dA[r, .] = s_t in row r; d/dLam[a, b] = sum_(i < t-1) Q_i[:, a] s_(t-1-i)[b];
        d/dB[a, b] = sum_(i < t) Q_i[:, a] x_(t-i)[b] (s_t = sum_i Lam^i B x_(t-i))."""
        p = self.unpack(theta)
        A, Lam = p["A"], p["Lam"]
        N, t, n = X.shape
        k, m = self.k, self.m
        S = self._states64(theta, X)
        Q = np.empty((t, m, k))
        Q[0] = A
        for i in range(1, t):
            Q[i] = Q[i - 1] @ Lam
        Qf = Q.reshape(t, m * k).T  # (m k, t): column i is A Lam^i, flattened
        J = np.zeros((N, m, m * k + k * k + k * n))
        for r in range(m):
            J[:, r, r * k : (r + 1) * k] = S[:, -1]
        J[:, :, m * k : m * k + k * k] = (Qf[:, : t - 1] @ S[:, t - 2 :: -1] if t > 1 else
                                          np.zeros((N, m * k, k))).reshape(N, m, k * k)
        J[:, :, m * k + k * k :] = (Qf @ X[:, ::-1]).reshape(N, m, k * n)
        return J

    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        if ops.name == "float64":
            return self._jacobian64(np.asarray(theta, dtype=float), np.asarray(X, dtype=float))
        p = self.unpack(theta)
        A, Lam, B = p["A"], p["Lam"], p["B"]
        N, t, n = X.shape
        k, m = self.k, self.m
        s = ops.zeros((N, k))
        dL = ops.zeros((N, k, k * k))  # d s / d Lam (flattened row-major)
        dB = ops.zeros((N, k, k * n))  # d s / d B
        for j in range(t):
            dL = Lam @ dL
            dB = Lam @ dB
            for r in range(k):
                dL[:, r, r * k : (r + 1) * k] = dL[:, r, r * k : (r + 1) * k] + s
                dB[:, r, r * n : (r + 1) * n] = dB[:, r, r * n : (r + 1) * n] + X[:, j, :]
            s = s @ Lam.T + X[:, j, :] @ B.T
        dA = ops.zeros((N, m, m * k))
        for r in range(m):
            dA[:, r, r * k : (r + 1) * k] = s
        return np.concatenate([dA, A @ dL, A @ dB], axis=2)

    def vjp(self, theta: np.ndarray, X: np.ndarray, R: np.ndarray) -> np.ndarray:
        """Backpropagation through time in float64: the states forward, then g_t = R A and
        g_(j-1) = g_j Lam backwards, accumulating dLam += g_j^T s_(j-1), dB += g_j^T x_j."""
        p = self.unpack(np.asarray(theta, dtype=float))
        A, Lam, B = p["A"], p["Lam"], p["B"]
        N, t, _ = X.shape
        states = [np.zeros((N, self.k))]
        for j in range(t):
            states.append(states[-1] @ Lam.T + X[:, j, :] @ B.T)
        g = R @ A
        dA = R.T @ states[-1]
        dLam, dB = np.zeros_like(Lam), np.zeros_like(B)
        for j in range(t - 1, -1, -1):
            dLam += g.T @ states[j]
            dB += g.T @ X[:, j, :]
            g = g @ Lam
        return np.concatenate([dA.ravel(), dLam.ravel(), dB.ravel()])

    def markov(self, theta: np.ndarray, count: int, ops: Ops = FLOAT64) -> list[np.ndarray]:
        """Markov parameters A Lam^j B for j = 0..count-1 (they determine the model at every length)."""
        p = self.unpack(theta)
        out, P = [], p["B"]
        for _ in range(count):
            out.append(p["A"] @ P)
            P = p["Lam"] @ P
        return out

    def state_readout(self, theta: np.ndarray, P: np.ndarray, ops: Ops = FLOAT64
                      ) -> tuple[LinearRecurrence, np.ndarray]:
        """The same recurrence with its readout A replaced by ``P`` (r x k): a family and parameters
        whose logits are ``P s_t``. The states are linear in the inputs (s_t = sum_j Lam^j B x_{t-j}),
        so a relation ``P s~_t = Q s_t`` between two recurrences is a comparison of the logits of two
        such readouts, and every bound on logit gaps (Markov parameters P Lam^j B) applies to it.
        ``P`` may hold balls or exact numbers; it is used as given."""
        P = ops.asarray(P)
        if P.ndim != 2 or P.shape[1] != self.k:
            raise ValueError(f"state readout: expected a matrix with {self.k} columns, got shape {P.shape}")
        p = self.unpack(theta)
        fam = LinearRecurrence(self.n, self.k, P.shape[0])
        return fam, fam.pack({"A": P, "Lam": p["Lam"], "B": p["B"]}, ops)

    def markov_jacobian(self, theta: np.ndarray, count: int, ops: Ops = FLOAT64) -> np.ndarray:
        """d (A Lam^j B) / d theta for j = 0..count-1: shape (count*m*n, n_params), rows j-major and each
        M_j flattened row-major (row j*m*n + r*n + c is M_j[r, c]), columns in theta order.

        The Markov parameters are polynomial in theta, so this is exact in the sympy backend and an
        enclosure over a whole parameter box in the ball backend (what an interval existence proof of an
        exact zero-risk learner needs). From d(A Lam^j B) = dA Lam^j B + A sum_i Lam^i dLam Lam^(j-1-i) B
        + A Lam^j dB, with Q_i = A Lam^i and P_i = Lam^i B:
        dM_j[r, c] / dA[a, b] = [r = a] P_j[b, c], / dLam[a, b] = sum_{i<j} Q_i[r, a] P_(j-1-i)[b, c],
        / dB[a, b] = Q_j[r, a] [b = c]."""
        p = self.unpack(theta)
        A, Lam, B = p["A"], p["Lam"], p["B"]
        k, m, n = self.k, self.m, self.n
        P, Q = [B], [A]
        for _ in range(1, count):
            P.append(Lam @ P[-1])
            Q.append(Q[-1] @ Lam)
        eye_m, eye_n = ops.asarray(np.eye(m)), ops.asarray(np.eye(n))
        blocks = []
        for j in range(count):
            # axes (r, c, a, b): output entry M_j[r, c], parameter entry [a, b] of A, Lam or B
            dA = eye_m[:, None, :, None] * P[j].T[None, :, None, :]
            dLam = ops.zeros((m, n, k, k))
            for i in range(j):
                dLam = dLam + Q[i][:, None, :, None] * P[j - 1 - i].T[None, :, None, :]
            dB = Q[j][:, None, :, None] * eye_n[None, :, None, :]
            blocks.append(np.concatenate([dA.reshape(m * n, m * k), dLam.reshape(m * n, k * k),
                                          dB.reshape(m * n, k * n)], axis=1))
        if not blocks:
            return ops.zeros((0, self.n_params))
        return np.concatenate(blocks, axis=0)

    def exact_learner(self, theta: np.ndarray, targets: Any, digits: int) -> list[Any] | None:
        """Rational parameters of a learner whose Markov parameters j < len(targets) equal ``targets``
        exactly, near ``theta`` (see :mod:`proofkit.families.observer`); None when there is none there."""
        return observer.exact_learner(self, theta, targets, digits)

    def canonicalize(self, theta: np.ndarray, reference: np.ndarray, ops: Ops) -> np.ndarray:
        """Similarity gauge: with C = A_h^-1 A_ref (square case),
        map (A, Lam, B) -> (AC, C^-1 Lam C, C^-1 B)."""
        if self.k != self.m:
            return theta
        p, q = self.unpack(theta), self.unpack(reference)
        try:
            C = _inv(p["A"], ops) @ q["A"]
            Ci = _inv(C, ops)
        except (ZeroDivisionError, np.linalg.LinAlgError, ValueError):
            return theta
        blocks: dict[str, Any] = {"A": p["A"] @ C, "Lam": Ci @ p["Lam"] @ C, "B": Ci @ p["B"]}
        return self.pack(blocks, ops)

    def gauge_tangent(self, theta: np.ndarray) -> np.ndarray:
        p = self.unpack(np.asarray(theta, dtype=float))
        cols = []
        k = self.k
        for a in range(k):
            for b in range(k):
                X = np.zeros((k, k))
                X[a, b] = 1.0
                cols.append(np.concatenate([
                    (-p["A"] @ X).ravel(), (X @ p["Lam"] - p["Lam"] @ X).ravel(), (X @ p["B"]).ravel()
                ]))
        return np.array(cols).T
