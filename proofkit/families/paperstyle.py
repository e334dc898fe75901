"""Paper-style metrics and a paper-style training reference (paper-agnostic, numpy).

* :func:`r2` — coefficient of determination of a least-squares linear fit WITH intercept from one set of
  representations to another, averaged uniformly over the target's columns.
* :func:`mse_per_length` — test mean squared error of the outputs per sequence length.
* :func:`train_linrec` — teacher-student training of a linear recurrence ``s_t = Lam s_{t-1} + B x_t``,
  output ``sigmoid(A s_t)``, with AdamW (decoupled weight decay), MSE on the outputs at every prefix length
  1..T, in float32 or float64. Hand-written backpropagation through time, seeded, deterministic.

Training results are experiments: a float64 or float32 optimum is not a zero-risk learner.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def r2(source: np.ndarray, target: np.ndarray) -> float:
    """R^2 of target ~ W source + c (least squares), mean over target columns; rows are samples."""
    S = np.hstack([source, np.ones((len(source), 1))]).astype(np.float64)
    Y = target.astype(np.float64)
    W, *_ = np.linalg.lstsq(S, Y, rcond=None)
    res = ((Y - S @ W) ** 2).sum(axis=0)
    tot = ((Y - Y.mean(axis=0)) ** 2).sum(axis=0)
    return float(np.mean(1.0 - res / tot))


def sigmoid(z: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-z)); where exp(-z) overflows to inf (float32: z below about -88) the result is 0,
    against a true value below 1e-38, so the overflow is not worth a warning (values unchanged)."""
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-z))


def linrec_states(p: dict, X: np.ndarray) -> np.ndarray:
    """States at every position: (N, t, n) -> (N, t, k)."""
    s = np.zeros((X.shape[0], p["Lam"].shape[0]), dtype=X.dtype)
    out = []
    for j in range(X.shape[1]):
        s = s @ p["Lam"].T + X[:, j, :] @ p["B"].T
        out.append(s)
    return np.stack(out, axis=1)


def linrec_outputs(p: dict, X: np.ndarray) -> np.ndarray:
    """sigmoid(A s_t) at every position: (N, t, m)."""
    return sigmoid(linrec_states(p, X) @ p["A"].T)


def mse_per_length(student: dict, teacher: dict, lengths: list[int], n_seq: int, n: int,
                   rng: np.random.Generator, dtype: type = np.float64) -> dict[int, float]:
    """Test MSE of the last output at each length, tokens U[0,1]^n (computed in ``dtype``)."""
    out = {}
    for t in lengths:
        X = rng.random((n_seq, t, n)).astype(dtype)
        ys = linrec_outputs(student, X)[:, -1]
        yt = linrec_outputs({k: v.astype(dtype) for k, v in teacher.items()}, X)[:, -1]
        out[t] = float(np.mean((ys.astype(np.float64) - yt.astype(np.float64)) ** 2))
    return out


@dataclass
class TrainResult:
    params: dict
    losses: list[float] = field(default_factory=list)
    steps: int = 0
    dtype: str = "float64"


def _grads(p: dict, X: np.ndarray, Y: np.ndarray) -> tuple[float, dict]:
    """MSE over every prefix output and its gradient (backpropagation through time)."""
    N, T, _ = X.shape
    S = linrec_states(p, X)
    Z = S @ p["A"].T
    Yh = sigmoid(Z)
    diff = Yh - Y
    loss = float(np.mean(diff.astype(np.float64) ** 2))
    dZ = 2 * diff * Yh * (1 - Yh) / diff.size
    g = {k: np.zeros_like(v) for k, v in p.items()}
    g["A"] = np.einsum("ntm,ntk->mk", dZ, S)
    ds_next = np.zeros((N, p["Lam"].shape[0]), dtype=X.dtype)
    for t in range(T - 1, -1, -1):
        ds = dZ[:, t] @ p["A"] + ds_next
        s_prev = S[:, t - 1] if t > 0 else np.zeros_like(S[:, 0])
        g["Lam"] += ds.T @ s_prev
        g["B"] += ds.T @ X[:, t]
        ds_next = ds @ p["Lam"]
    return loss, g


def train_linrec(teacher: dict, *, T: int, steps: int, batch: int = 256, lr: float = 1e-3,
                 weight_decay: float = 0.01, dtype: type = np.float64, seed: int = 0,
                 init_scale: float = 0.5, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8) -> TrainResult:
    """AdamW (decoupled weight decay, as torch.optim.AdamW) on fresh U[0,1]^n batches of length T, loss
    the MSE of every prefix output against the teacher's. Student has the teacher's shapes."""
    rng = np.random.default_rng(seed)
    teach = {k: np.asarray(v, dtype=dtype) for k, v in teacher.items()}
    p = {k: (init_scale * rng.standard_normal(v.shape)).astype(dtype) for k, v in teach.items()}
    mom = {k: np.zeros_like(v) for k, v in p.items()}
    vel = {k: np.zeros_like(v) for k, v in p.items()}
    n = teach["B"].shape[1]
    b1, b2 = betas
    losses = []
    for step in range(1, steps + 1):
        X = rng.random((batch, T, n)).astype(dtype)
        loss, g = _grads(p, X, linrec_outputs(teach, X))
        losses.append(loss)
        for k in p:
            p[k] = p[k] * dtype(1 - lr * weight_decay)
            mom[k] = b1 * mom[k] + (1 - b1) * g[k]
            vel[k] = b2 * vel[k] + (1 - b2) * g[k] * g[k]
            mhat = mom[k] / (1 - b1**step)
            vhat = vel[k] / (1 - b2**step)
            p[k] = (p[k] - lr * mhat / (np.sqrt(vhat) + eps)).astype(dtype)
    return TrainResult(p, losses, steps, np.dtype(dtype).name)
