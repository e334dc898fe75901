"""The training protocol of Izzo, Nichani & Lee 2025, App. B, as a numpy reference (an experiment, never a
proof), and the power-law fits that the scaling claims are reported with.

Model (one self-attention head + one MLP, at the last position, as in their Sec. 3.1)::

    y_j = E[x_j] + P[j mod Delta]            (Delta = 1: no positional vectors, SimpleTask)
    a_j = log(N) (K y_j . Q y_N) / d         (the limit transformer's log-length scaling, muP's 1/d)
    Y   = y_N + sum_j softmax(a)_j V y_j
    out = u . (Y + B relu(A Y + b))

d = 16, width 256; muP-style initialization (embeddings N(0, 1), hidden matrices N(0, 1/fan_in), readout
N(0, 1/d^2)); Adam (beta 0.9, 0.999) with lr 1e-2 for E, P and 1e-2/d for every other matrix; a fresh batch
of 1024 sequences each step, lengths uniform on 1..N; MSE on the last position over the sequences whose
target is defined (:mod:`proofkit.limit.tasks`); stop when the batch loss is < 1e-5 or at a step cap.
Choices the paper does not state (made here and printed): the length distribution, the attention scale,
the readout, periodic positional vectors with Delta = p for ModPTask, the test lengths.

Command line (the full sweep; writes JSON and, with matplotlib installed, a figure)::

    python -m proofkit.limit.training --sweep simple --omegas 1 2 4 8 --lengths 4 8 16 32 64 \
        --steps 3000 --seeds 2 --eps 1e-2 --out sweep_simple.json
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from .tasks import ModPTask, SimpleTask


@dataclass(frozen=True)
class Fit:
    """log y = slope log x + intercept by least squares, with a two-sided ``level`` t-interval on the
    slope (n - 2 degrees of freedom)."""

    slope: float
    lo: float
    hi: float
    intercept: float
    n: int
    level: float

    def consistent_with(self, exponent: float) -> bool:
        """The exponent lies in the slope's confidence interval."""
        return self.lo <= exponent <= self.hi

    def text(self) -> str:
        return (f"slope {self.slope:.3f}, {int(100 * self.level)}% CI [{self.lo:.3f}, {self.hi:.3f}] "
                f"(n = {self.n})")


def fit_exponent(xs: Sequence[float], ys: Sequence[float], level: float = 0.95) -> Fit:
    """The fitted exponent of y ~ x^slope over at least 3 points."""
    lx, ly = np.log(np.asarray(xs, float)), np.log(np.asarray(ys, float))
    n = len(lx)
    if n < 3:
        raise ValueError("a power-law fit with a confidence interval needs at least 3 points")
    from scipy import stats  # lazy: scipy.stats costs 0.1 s to import, only this fit needs it

    res = stats.linregress(lx, ly)
    half = float(stats.t.ppf(0.5 + level / 2, n - 2) * res.stderr)
    return Fit(float(res.slope), float(res.slope) - half, float(res.slope) + half, float(res.intercept), n,
               level)


@dataclass
class Net:
    """Parameters of the one-layer model (float64 arrays)."""

    E: np.ndarray
    P: np.ndarray
    K: np.ndarray
    Q: np.ndarray
    V: np.ndarray
    A: np.ndarray
    b: np.ndarray
    B: np.ndarray
    u: np.ndarray

    EMBEDDINGS = ("E", "P")

    @staticmethod
    def init(rng: np.random.Generator, vocab: int, Delta: int, d: int = 16, width: int = 256) -> Net:
        """muP-style initialization (see the module docstring)."""
        return Net(E=rng.normal(0, 1, (vocab, d)), P=rng.normal(0, 1, (Delta, d)) if Delta > 1 else
                   np.zeros((1, d)), K=rng.normal(0, d**-0.5, (d, d)), Q=rng.normal(0, d**-0.5, (d, d)),
                   V=rng.normal(0, d**-0.5, (d, d)), A=rng.normal(0, d**-0.5, (width, d)),
                   b=np.zeros(width), B=rng.normal(0, width**-0.5, (d, width)), u=rng.normal(0, 1 / d, d))

    def names(self) -> tuple[str, ...]:
        return ("E", "P", "K", "Q", "V", "A", "b", "B", "u")


def forward(net: Net, X: np.ndarray, train_P: bool = True) -> tuple[np.ndarray, dict]:
    """Predictions at each sequence's last position (X padded with -1) and the cache for backward."""
    S, n = X.shape
    d = net.E.shape[1]
    valid = X >= 0
    lengths = valid.sum(axis=1)
    last = lengths - 1
    pos = np.arange(1, n + 1) % net.P.shape[0]
    y = net.E[np.where(valid, X, 0)] + net.P[pos][None, :, :]
    y = y * valid[:, :, None]
    yq = y[np.arange(S), last]
    q, k, v = yq @ net.Q.T, y @ net.K.T, y @ net.V.T
    scale = np.log(lengths)[:, None] / d
    a = np.einsum("snk,sk->sn", k, q) * scale
    a = np.where(valid, a, -np.inf)
    w = np.exp(a - a.max(axis=1, keepdims=True))
    w = w / w.sum(axis=1, keepdims=True)
    Y = yq + np.einsum("sn,snd->sd", w, v)
    z = Y @ net.A.T + net.b
    h = np.maximum(z, 0.0)
    out = Y + h @ net.B.T
    cache = dict(X=X, valid=valid, last=last, y=y, yq=yq, q=q, k=k, v=v, scale=scale, w=w, Y=Y, z=z, h=h,
                 out=out, train_P=train_P)
    return out @ net.u, cache


def backward(net: Net, c: dict, dpred: np.ndarray) -> dict[str, np.ndarray]:
    """Gradients of sum(dpred * pred) with respect to every parameter."""
    S = dpred.shape[0]
    g = {"u": c["out"].T @ dpred}
    dout = dpred[:, None] * net.u[None, :]
    dh = dout @ net.B
    g["B"] = dout.T @ c["h"]
    dz = dh * (c["z"] > 0)
    g["A"], g["b"] = dz.T @ c["Y"], dz.sum(axis=0)
    dY = dout + dz @ net.A
    dyq = dY.copy()
    dw = np.einsum("sd,snd->sn", dY, c["v"])
    dv = c["w"][:, :, None] * dY[:, None, :]
    g["V"] = np.einsum("snd,sne->de", dv, c["y"])
    dy = dv @ net.V
    da = c["w"] * (dw - (c["w"] * dw).sum(axis=1, keepdims=True)) * c["scale"]
    dk = da[:, :, None] * c["q"][:, None, :]
    dq = np.einsum("sn,snk->sk", da, c["k"])
    g["K"] = np.einsum("snk,snd->kd", dk, c["y"])
    dy += dk @ net.K
    g["Q"] = dq.T @ c["yq"]
    dyq += dq @ net.Q
    dy[np.arange(S), c["last"]] += dyq
    dy *= c["valid"][:, :, None]
    X, valid = c["X"], c["valid"]
    g["E"] = np.zeros_like(net.E)
    np.add.at(g["E"], X[valid], dy[valid])
    g["P"] = np.zeros_like(net.P)
    if c["train_P"]:
        pos = np.broadcast_to(np.arange(1, X.shape[1] + 1) % net.P.shape[0], X.shape)
        np.add.at(g["P"], pos[valid], dy[valid])
    return g


@dataclass(frozen=True)
class RunResult:
    """One training run: steps taken, final batch loss, whether it crossed the loss target, the test MSE
    per test length (fresh seeded batches), the seed."""

    task: str
    param: float
    N: int
    seed: int
    steps: int
    train_loss: float
    converged: bool
    test: dict[int, float]


def make_task(name: str, param: float) -> SimpleTask | ModPTask:
    """``simple`` (param = omega, a decimal) or ``modp`` (param = p, k = 1)."""
    if name == "simple":
        return SimpleTask(str(param))
    return ModPTask(int(param), 1)


def train(task_name: str, param: float, N: int, seed: int, steps: int = 300, batch: int = 1024,
          d: int = 16, width: int = 256, loss_target: float = 1e-5, test_lengths: Sequence[int] = (),
          test_batch: int = 2048) -> RunResult:
    """Train on lengths uniform on 1..N (fresh seeded batches) until the batch MSE < loss_target or
    ``steps``; then the test MSE at each test length."""
    task = make_task(task_name, param)
    rng = np.random.default_rng(seed)
    Delta = task.p if isinstance(task, ModPTask) else 1
    net = Net.init(rng, len(task.alphabet), Delta, d, width)
    lr = {nm: (1e-2 if nm in Net.EMBEDDINGS else 1e-2 / d) for nm in net.names()}
    m = {nm: np.zeros_like(getattr(net, nm)) for nm in net.names()}
    s = {nm: np.zeros_like(getattr(net, nm)) for nm in net.names()}
    loss, t = float("inf"), 0
    for t in range(1, steps + 1):
        X, y, ok = task.sample(rng, batch, rng.integers(1, N + 1, size=batch))
        pred, cache = forward(net, X, Delta > 1)
        err = np.where(ok, pred - y, 0.0)
        loss = float((err**2).sum() / max(ok.sum(), 1))
        if loss < loss_target:
            break
        grads = backward(net, cache, 2 * err / max(ok.sum(), 1))
        for nm in net.names():
            m[nm] = 0.9 * m[nm] + 0.1 * grads[nm]
            s[nm] = 0.999 * s[nm] + 0.001 * grads[nm] ** 2
            mh, sh = m[nm] / (1 - 0.9**t), s[nm] / (1 - 0.999**t)
            setattr(net, nm, getattr(net, nm) - lr[nm] * mh / (np.sqrt(sh) + 1e-8))
    test_rng = np.random.default_rng(seed + 10**6)
    test = {}
    for L in test_lengths:
        X, y, ok = task.sample(test_rng, test_batch, L)
        pred, _ = forward(net, X, Delta > 1)
        test[int(L)] = float(np.where(ok, pred - y, 0.0).__pow__(2).sum() / max(ok.sum(), 1))
    return RunResult(task_name, float(param), N, seed, t, loss, loss < loss_target, test)


def min_length(runs: Sequence[RunResult], eps: float) -> int | None:
    """The smallest training length N whose seed-averaged limiting test loss (the largest test length's
    MSE) is <= eps; None if none is."""
    by_N: dict[int, list[float]] = {}
    for r in runs:
        by_N.setdefault(r.N, []).append(r.test[max(r.test)])
    ok = [N for N, v in sorted(by_N.items()) if float(np.mean(v)) <= eps]
    return ok[0] if ok else None


def sweep(task_name: str, params: Sequence[float], lengths: Sequence[int], seeds: int, steps: int,
          eps: float, test_factor: int = 4) -> dict:
    """For each parameter and training length, ``seeds`` runs (seeds 0..seeds-1) tested at N,
    2N, test_factor N; the minimal N per parameter at ``eps`` and the power-law fit of N vs the parameter
    where at least 3 parameters reached eps."""
    runs = [train(task_name, prm, N, seed, steps, test_lengths=(N, 2 * N, test_factor * N))
            for prm in params for N in lengths for seed in range(seeds)]
    mins = {prm: min_length([r for r in runs if r.param == float(prm)], eps) for prm in params}
    reached = [(prm, n) for prm, n in mins.items() if n is not None]
    fit = fit_exponent([p for p, _ in reached], [n for _, n in reached]) if len(reached) >= 3 else None
    return {"task": task_name, "eps": eps, "seeds": list(range(seeds)), "steps": steps,
            "lengths": list(lengths), "runs": [asdict(r) for r in runs], "min_length": mins,
            "fit": asdict(fit) if fit else None}


def plot(result: dict, path: str) -> str | None:
    """Minimal N vs the parameter (log-log) with the fitted line and the paper's reported shape (N linear
    in the parameter, through the first point); None when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    pts = [(float(p), n) for p, n in result["min_length"].items() if n is not None]
    fig, ax = plt.subplots(figsize=(4.5, 3.5))
    if pts:
        xs, ys = zip(*pts)
        ax.loglog(xs, ys, "o", label="minimal N (this sweep)")
        grid = np.geomspace(min(xs), max(xs), 50)
        ax.loglog(grid, ys[0] * grid / xs[0], "k--", label="paper's shape: N linear")
        if result["fit"]:
            f = result["fit"]
            ax.loglog(grid, math.exp(f["intercept"]) * grid ** f["slope"], "-",
                      label=f"fit: slope {f['slope']:.2f} [{f['lo']:.2f}, {f['hi']:.2f}]")
        from matplotlib.ticker import NullFormatter, ScalarFormatter

        for axis in (ax.xaxis, ax.yaxis):  # plain numbers on log axes
            axis.set_major_formatter(ScalarFormatter())
            axis.set_minor_formatter(NullFormatter())
        ax.set_xticks(xs)
        ax.set_yticks(sorted(set(ys)))
    ax.set_xlabel("omega" if result["task"] == "simple" else "Delta = p")
    ax.set_ylabel(f"minimal training length at eps = {result['eps']}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m proofkit.limit.training --sweep simple|modp ...``: run the sweep, print and save it."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweep", choices=("simple", "modp"), required=True)
    ap.add_argument("--params", "--omegas", dest="params", type=float, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--lengths", type=int, nargs="+", default=[4, 8, 16, 32, 64])
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--eps", type=float, default=1e-2)
    ap.add_argument("--out", default="sweep.json")
    ap.add_argument("--figure", default=None)
    a = ap.parse_args(argv)
    print(f"seeds 0..{a.seeds - 1} (train), seed + 10^6 (test); lengths uniform on 1..N", flush=True)
    res = sweep(a.sweep, a.params, a.lengths, a.seeds, a.steps, a.eps)
    with open(a.out, "w") as fh:
        json.dump(res, fh, indent=1)
    print(json.dumps({"min_length": res["min_length"], "fit": res["fit"]}))
    if a.figure:
        print("figure:", plot(res, a.figure) or "skipped (matplotlib not installed)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
