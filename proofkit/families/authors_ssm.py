"""The AM24 authors' SSM experiment re-implemented in numpy (their code is torch; proofkit never imports it).

Source: facebookresearch/Length-and-Compositional-Generalization at commit 5a77eb1 (``A:`` = that repository):

* model (truth and learner alike): states ``h_t = sum_{j<t} Lam^j B x_{t-j}`` (``A:src/models/modules/
  ssm_fwd.py`` l. 40-48; the same recurrence as :func:`proofkit.families.paperstyle.linrec_states`; the
  module's matrix ``A`` is never used and is left out here), readout an MLP with a sigmoid after EVERY linear
  layer, biases included (``A:src/models/modules/mlp.py`` l. 22-29, 45): ``sigma(W2 sigma(W1 h + b1) + b2)``
  with one hidden layer (the README's ``n_hidden_layers=1``); outputs at padded positions set to 0
  (``A:src/models/modules/set_decoder.py`` l. 258-259);
* initialisation: Lam, B orthogonal (Haar, as ``torch.nn.init.orthogonal_``), linear weights N(0, 0.6^2),
  biases 0 (``A:configs/datamodule/ssm.yaml`` l. 143-144, ``A:configs/model/set_decoder/ssm.yaml`` l. 17-18,
  ``A:src/models/modules/set_decoder.py`` l. 109-117);
* data: lengths uniform in {lo..hi} per sequence, tokens U[0,1]^n, zero-padded to hi (``A:src/datamodules/
  set.py`` l. 128, 143-149); loss: MSE at each position, then the mean over the hi positions (``A:src/models/
  modules/set_decoder.py`` l. 46-56), so padded positions count as exact zeros;
* optimizer: AdamW lr 1e-3, weight decay 0.01 on every parameter, betas (0.9, 0.95), eps 1e-8, constant lr
  (``A:configs/model/optimizer/default.yaml`` l. 8-12); the update is written in torch.optim.AdamW's order
  of operations, so one step agrees with torch to float64 rounding (tests/families/test_authors_code.py);
* metrics: ``test/loss`` at a length L = the mean over positions 1..L of the per-position MSE
  (``A:src/models/decoder_lightning.py`` l. 297-302), and R^2 per position j of the true states regressed on
  the learned ones with an intercept, averaged over positions (l. 304-313).

Training results are experiments (floating point, one seed), not proofs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .paperstyle import linrec_states, r2, sigmoid

#: the authors' optimizer settings (configs/model/optimizer/default.yaml l. 8-12)
ADAMW = {"lr": 1e-3, "weight_decay": 0.01, "betas": (0.9, 0.95), "eps": 1e-8}
#: their SSM run: 1000 epochs (configs/experiment/ssm.yaml l. 26-27) x 100 batches (datamodule/ssm.yaml l. 32)
PAPER_STEPS = 100_000


def orthogonal(rng: np.random.Generator, k: int) -> np.ndarray:
    """A Haar-random orthogonal k x k matrix, as torch.nn.init.orthogonal_: Q of a Gaussian matrix's QR,
    columns signed by diag(R)."""
    q, r = np.linalg.qr(rng.standard_normal((k, k)))
    return q * np.sign(np.diag(r))


def init(rng: np.random.Generator, n: int, hid: int, m: int, init_std: float = 0.6,
         dtype: type = np.float64) -> dict:
    """The authors' initialisation: Lam, B orthogonal; W1 (hid x n), W2 (m x hid) N(0, init_std^2); b = 0.
    Their code has k = n (square Lam and B)."""
    p = {"Lam": orthogonal(rng, n), "B": orthogonal(rng, n),
         "W1": init_std * rng.standard_normal((hid, n)), "b1": np.zeros(hid),
         "W2": init_std * rng.standard_normal((m, hid)), "b2": np.zeros(m)}
    return {k: v.astype(dtype) for k, v in p.items()}


def mlp(p: dict, H: np.ndarray) -> tuple[np.ndarray, ...]:
    """The readout with a sigmoid after every layer: returns (hidden activations, output) for layers
    W1, b1, W2, b2; with only W1, b1 (``n_hidden_layers = 0``) the output is sigma(W1 h + b1)."""
    H2 = H.reshape(-1, H.shape[-1])  # 2-D products: numpy's stacked matmul is slower
    a1 = sigmoid(H2 @ p["W1"].T + p["b1"])
    out = a1 if "W2" not in p else sigmoid(a1 @ p["W2"].T + p["b2"])
    return a1.reshape(H.shape[:-1] + (-1,)), out.reshape(H.shape[:-1] + (-1,))


def outputs(p: dict, X: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    """Outputs at every position, zero where ``valid`` (N, T) is False: (N, T, n) -> (N, T, m)."""
    y = mlp(p, linrec_states(p, X))[1]
    return y if valid is None else y * valid[..., None].astype(y.dtype)


def sample(rng: np.random.Generator, batch: int, lo: int, hi: int, n: int,
           dtype: type = np.float64) -> tuple[np.ndarray, np.ndarray]:
    """Lengths uniform in {lo..hi}, tokens U[0,1]^n, zero-padded to hi: X (batch, hi, n), valid
    (batch, hi)."""
    lengths = rng.integers(lo, hi + 1, size=batch)
    valid = np.arange(hi)[None, :] < lengths[:, None]
    X = rng.random((batch, hi, n)).astype(dtype) * valid[..., None]
    return X.astype(dtype), valid


def loss_and_grads(p: dict, X: np.ndarray, valid: np.ndarray, Y: np.ndarray) -> tuple[float, dict]:
    """The authors' loss (mean over positions of the per-position MSE = the mean over all N T m entries,
    every position having N m of them) and its gradient, backpropagation through the MLP and through time."""
    N, T, _ = X.shape
    S = linrec_states(p, X)
    a1, y = mlp(p, S)
    v = valid[..., None].astype(X.dtype)
    diff = y * v - Y
    loss = float(np.mean(diff.astype(np.float64) ** 2))
    dy = 2 * diff * v / diff.size
    g = {}
    if "W2" in p:
        dz2 = dy * y * (1 - y)
        g["W2"] = dz2.reshape(-1, dz2.shape[-1]).T @ a1.reshape(-1, a1.shape[-1])
        g["b2"] = dz2.sum(axis=(0, 1))
        da1 = (dz2.reshape(-1, dz2.shape[-1]) @ p["W2"]).reshape(a1.shape)
    else:
        da1 = dy
    dz1 = da1 * a1 * (1 - a1)
    g["W1"] = dz1.reshape(-1, dz1.shape[-1]).T @ S.reshape(-1, S.shape[-1])
    g["b1"] = dz1.sum(axis=(0, 1))
    dS = (dz1.reshape(-1, dz1.shape[-1]) @ p["W1"]).reshape(S.shape)
    g["Lam"], g["B"] = np.zeros_like(p["Lam"]), np.zeros_like(p["B"])
    ds_next = np.zeros((N, p["Lam"].shape[0]), dtype=X.dtype)
    for t in range(T - 1, -1, -1):
        ds = dS[:, t] + ds_next
        if t > 0:
            g["Lam"] += ds.T @ S[:, t - 1]
        g["B"] += ds.T @ X[:, t]
        ds_next = ds @ p["Lam"]
    return loss, {k: g[k].astype(X.dtype) for k in p}


class AdamW:
    """torch.optim.AdamW's update (single-tensor path, no amsgrad), in its order of operations:
    p *= 1 - lr wd; m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
    p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)."""

    def __init__(self, params: dict, lr: float, weight_decay: float, betas: tuple[float, float],
                 eps: float) -> None:
        self.lr, self.wd, self.betas, self.eps = lr, weight_decay, betas, eps
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, p: dict, g: dict) -> None:
        self.t += 1
        b1, b2 = self.betas
        bc1, bc2 = 1 - b1**self.t, 1 - b2**self.t
        for k in p:
            dt = p[k].dtype.type
            p[k] = p[k] * dt(1 - self.lr * self.wd)
            self.m[k] = self.m[k] + (g[k] - self.m[k]) * dt(1 - b1)  # torch: exp_avg.lerp_(grad, 1 - b1)
            self.v[k] = self.v[k] * dt(b2) + g[k] * g[k] * dt(1 - b2)
            denom = np.sqrt(self.v[k]) / dt(np.sqrt(bc2)) + dt(self.eps)
            p[k] = (p[k] - dt(self.lr / bc1) * self.m[k] / denom).astype(p[k].dtype)


@dataclass
class AuthorsRun:
    teacher: dict
    student: dict
    losses: list[float] = field(default_factory=list)
    steps: int = 0
    dtype: str = "float64"


def train(*, n: int = 20, lengths: tuple[int, int] = (2, 10), steps: int = 2000, batch: int = 256,
          dtype: type = np.float64, seed: int = 0, init_std: float = 0.6) -> AuthorsRun:
    """Teacher and learner drawn with :func:`init` (teacher first, one generator seeded ``seed``; not the
    authors' torch stream), then ``steps`` AdamW steps on fresh batches (each step a new batch, as their
    epochs of fresh pre-generated batches), the authors' loss on every padded position."""
    rng = np.random.default_rng(seed)
    teacher = init(rng, n, n, n, init_std, dtype)
    student = init(rng, n, n, n, init_std, dtype)
    opt = AdamW(student, **ADAMW)
    losses = []
    for _ in range(steps):
        X, valid = sample(rng, batch, lengths[0], lengths[1], n, dtype)
        loss, g = loss_and_grads(student, X, valid, outputs(teacher, X, valid))
        losses.append(loss)
        opt.step(student, g)
    return AuthorsRun(teacher, student, losses, steps, np.dtype(dtype).name)


def test_loss(student: dict, teacher: dict, L: int, n_seq: int, rng: np.random.Generator,
              dtype: type = np.float64) -> tuple[float, float]:
    """At length L (every test sequence has length L, as their test set with min = max length): the
    authors' ``test/loss`` (mean over positions 1..L of the per-position MSE) and the MSE of the last
    output only (E1's metric), both in float64 from outputs computed in ``dtype``."""
    X = rng.random((n_seq, L, teacher["B"].shape[1])).astype(dtype)
    d = outputs(student, X).astype(np.float64) - outputs(teacher, X).astype(np.float64)
    return float(np.mean(d**2)), float(np.mean(d[:, -1] ** 2))


def r2_per_position(learned: np.ndarray, true: np.ndarray) -> float:
    """The authors' R^2: at each position j the true states regressed on the learned ones with an
    intercept, R^2 averaged over the true coordinates, then the mean over positions (one direction)."""
    return float(np.mean([r2(learned[:, j], true[:, j]) for j in range(true.shape[1])]))
