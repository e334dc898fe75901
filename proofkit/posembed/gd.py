"""Gradient descent on the one-head model of Richard 2024 (Sec. 3.1, eqs. (1)-(2)): an experiment, numpy only.

The paper's negative finding (Sec. 4.2): gradient-trained Transformers do not find the closed-form Dyck head
of Theorem 4.1, even when trained on a single sequence. This module trains the *same* one-head model by Adam
on cross-entropy of next tokens and measures what it learned:

* model: token embeddings E (2 x d), positional embeddings B (2N x d), tied unembedding; attention uniform
  (Q = 0, as in Theorem 4.1) or learned (causal softmax of (X Q)(X K)^T / sqrt(d)); value v I (scalar v) or
  a learned matrix V;
* training sets: (i) one word s (Theorem 4.1's setting), (ii) many words of D_2N of depth <= q, drawn
  uniformly (exact counts, seeded);
* figures: training loss (mean nats per predicted token), the valid-completion rate of prefixes deeper than
  training (exact DP over (position, height) for uniform attention, whose logits depend on nothing else;
  seeded sampling for learned attention), and the distance of the learned positional drift to eq. (4).

The drift: with uniform attention the logit gap at context length r is (2 v_eff / r)(Delta_r(z) + beta_r),
where a = (E_( - E_))/2, m = (E_( + E_))/2, w = V (E_( - E_))^T, v_eff = (a . w)/2 and
beta_r = (r m + sum_{i<=r} B_i) . w / (a . w). The closed form has beta*_r = -Delta_r(s) + gamma E[s_{r+1}]
(gamma = -1/2) and v < 0; beta is invariant under the model's rescalings, so it is the comparable quantity.

Everything is an experiment (seeded, float64): it can confirm or fail to reproduce a reported finding,
never certify one. Run: ``python -m proofkit.posembed.gd --help``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass

import numpy as np

OPEN, CLOSE = 0, 1
Params = dict[str, np.ndarray]


# ----------------------------------------------------------------------------------------------- Dyck words
def completions(N: int, hi: int, lo: int = 0) -> list[list[list[int]]]:
    """cnt[r][h][f]: paths from (r, h) to (2N, 0) with heights in [0, hi]; f = 1 if max height >= lo is
    already reached (then any path counts), f = 0 otherwise (the path must still reach lo). Exact ints."""
    n = 2 * N
    cnt = [[[0, 0] for _ in range(hi + 2)] for _ in range(n + 1)]
    cnt[n][0] = [1 if lo <= 0 else 0, 1]
    for r in range(n - 1, -1, -1):
        for h in range(hi + 1):
            for f in (0, 1):
                tot = cnt[r + 1][h - 1][f] if h >= 1 else 0
                if h + 1 <= hi:
                    tot += cnt[r + 1][h + 1][1 if f or h + 1 >= lo else 0]
                cnt[r][h][f] = tot
    return cnt


def count_words(N: int, hi: int, lo: int = 0) -> int:
    """Exact number of D_2N words whose depth (maximum height) lies in [lo, hi]."""
    return completions(N, min(hi, N), lo)[0][0][1 if lo <= 0 else 0]


def sample_words(N: int, k: int, rng: np.random.Generator, hi: int | None = None, lo: int = 0) -> np.ndarray:
    """k words drawn uniformly (with replacement) from the D_2N words of depth in [lo, hi] (k x 2N tokens)."""
    hi = N if hi is None else min(hi, N)
    cnt = completions(N, hi, lo)
    out = np.zeros((k, 2 * N), dtype=np.int64)
    for j in range(k):
        h, f = 0, 1 if lo <= 0 else 0
        for r in range(2 * N):
            f_up = 1 if f or h + 1 >= lo else 0
            up = cnt[r + 1][h + 1][f_up] if h + 1 <= hi else 0
            down = cnt[r + 1][h - 1][f] if h >= 1 else 0
            if rng.integers(up + down) < up:
                h, f = h + 1, f_up
            else:
                h, out[j, r] = h - 1, CLOSE
    return out


def heights(words: np.ndarray) -> np.ndarray:
    """Prefix sums of +1 ('(') / -1 (')') along the last axis."""
    return np.cumsum(np.where(words == OPEN, 1, -1), axis=-1)


def deep_prefixes(N: int, k: int, rng: np.random.Generator, lo: int,
                  rounds: int = 8) -> list[tuple[int, ...]]:
    """Up to k distinct prefixes, each a uniform D_2N word of depth >= lo cut right after it first reaches its
    maximum height (so the prefix has the word's depth); sampled in up to ``rounds`` batches of k words."""
    seen: dict[tuple[int, ...], None] = {}
    for _ in range(rounds):
        words = sample_words(N, k, rng, lo=lo)
        for w, c in zip(words, np.argmax(heights(words), axis=1) + 1):
            seen.setdefault(tuple(int(t) for t in w[:c]), None)
        if len(seen) >= k:
            break
    return list(seen)[:k]


def parse(word: str) -> np.ndarray:
    """'(' -> 0, ')' -> 1."""
    return np.array([OPEN if c == "(" else CLOSE for c in word], dtype=np.int64)


# ------------------------------------------------------------------------------------------------ the model
@dataclass(frozen=True)
class Config:
    """One training run: D_2N, width d, attention ('uniform' | 'learned'), value ('scalar' | 'matrix'),
    Adam steps, learning rate, minibatch size (0: full batch), initial scale and seed."""

    N: int = 6
    d: int = 1
    attention: str = "uniform"
    value: str = "scalar"
    steps: int = 400
    lr: float = 0.05
    batch: int = 0
    init: float = 0.5
    seed: int = 0


def init_params(cfg: Config, rng: np.random.Generator) -> Params:
    """Gaussian initialization (seeded): E, B with scale ``cfg.init``; V (or v), Q, K with scale 1/sqrt(d)."""
    d, s = cfg.d, cfg.init
    p = {"E": s * rng.standard_normal((2, d)), "B": s * rng.standard_normal((2 * cfg.N, d))}
    p["V"] = rng.standard_normal((d, d)) / np.sqrt(d) if cfg.value == "matrix" else rng.standard_normal((1,))
    if cfg.attention == "learned":
        p["Q"] = rng.standard_normal((d, d)) / np.sqrt(d)
        p["K"] = rng.standard_normal((d, d)) / np.sqrt(d)
    return p


def _value(p: Params) -> np.ndarray:
    V = p["V"]
    return V if V.ndim == 2 else V[0] * np.eye(p["E"].shape[1])


def _attend(p: Params, X: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Pooled states H (m x L x d) and the attention weights (None for uniform attention)."""
    L = X.shape[1]
    if "Q" not in p:
        return np.cumsum(X, axis=1) / np.arange(1, L + 1)[None, :, None], None
    S = np.einsum("mid,mjd->mij", X @ p["Q"], X @ p["K"]) / np.sqrt(X.shape[2])
    S = np.where(np.tril(np.ones((L, L), dtype=bool)), S, -np.inf)
    A = np.exp(S - S.max(axis=2, keepdims=True))
    A /= A.sum(axis=2, keepdims=True)
    return A @ X, A


def logits(p: Params, Z: np.ndarray) -> np.ndarray:
    """Logits (m x L x 2) at every context length 1..L of the token batch Z (m x L), eq. (1)."""
    H, _ = _attend(p, p["E"][Z] + p["B"][: Z.shape[1]])
    return H @ _value(p) @ p["E"].T


def loss_and_grad(p: Params, Z: np.ndarray) -> tuple[float, Params]:
    """Mean cross-entropy of next tokens (contexts 1..L-1 of every word; eq. (2) divided by its term count)
    and its exact gradient (hand-written backward pass, checked against finite differences in the tests)."""
    m, L = Z.shape
    E, Vm = p["E"], _value(p)
    X = E[Z] + p["B"][:L]
    H, A = _attend(p, X)
    out = H @ Vm
    lg = out @ E.T
    lg = lg - lg.max(axis=2, keepdims=True)
    P = np.exp(lg)
    P /= P.sum(axis=2, keepdims=True)
    tgt = Z[:, 1:]
    P_t = np.take_along_axis(P[:, :-1], tgt[..., None], axis=2)[..., 0]
    count = m * (L - 1)
    loss = float(-np.log(P_t).sum() / count)
    dlg = P.copy()
    dlg[:, -1] = 0.0
    np.put_along_axis(dlg[:, :-1], tgt[..., None], np.take_along_axis(dlg[:, :-1], tgt[..., None], 2) - 1, 2)
    dlg /= count
    g: Params = {}
    dE = np.einsum("mlt,mld->td", dlg, out)
    dO = dlg @ E
    dV = np.einsum("mld,mle->de", H, dO)
    g["V"] = dV if p["V"].ndim == 2 else np.array([np.trace(dV)])
    dH = dO @ Vm.T
    if A is None:
        dHr = dH / np.arange(1, L + 1)[None, :, None]
        dX = np.cumsum(dHr[:, ::-1], axis=1)[:, ::-1]
    else:
        dX = np.transpose(A, (0, 2, 1)) @ dH
        dA = dH @ np.transpose(X, (0, 2, 1))
        dS = A * (dA - (dA * A).sum(axis=2, keepdims=True)) / np.sqrt(X.shape[2])
        XQ, XK = X @ p["Q"], X @ p["K"]
        dXQ, dXK = dS @ XK, np.transpose(dS, (0, 2, 1)) @ XQ
        g["Q"] = np.einsum("mld,mle->de", X, dXQ)
        g["K"] = np.einsum("mld,mle->de", X, dXK)
        dX = dX + dXQ @ p["Q"].T + dXK @ p["K"].T
    dB = np.zeros_like(p["B"])
    dB[:L] = dX.sum(axis=0)
    np.add.at(dE, Z.ravel(), dX.reshape(-1, X.shape[2]))
    g["E"], g["B"] = dE, dB
    return loss, g


def train(p: Params, words: np.ndarray, cfg: Config, rng: np.random.Generator) -> list[float]:
    """Adam (beta = 0.9, 0.999) for ``cfg.steps`` steps in place; returns the loss per step (on the batch)."""
    mom = {k: np.zeros_like(v) for k, v in p.items()}
    sq = {k: np.zeros_like(v) for k, v in p.items()}
    hist = []
    for t in range(1, cfg.steps + 1):
        full = not cfg.batch or cfg.batch >= len(words)
        Z = words if full else words[rng.integers(len(words), size=cfg.batch)]
        loss, g = loss_and_grad(p, Z)
        hist.append(loss)
        for k in p:
            mom[k] = 0.9 * mom[k] + 0.1 * g[k]
            sq[k] = 0.999 * sq[k] + 0.001 * g[k] ** 2
            p[k] -= cfg.lr * (mom[k] / (1 - 0.9**t)) / (np.sqrt(sq[k] / (1 - 0.999**t)) + 1e-12)
    return hist


# ------------------------------------------------------------------------------------------- measurements
def drift(p: Params) -> tuple[np.ndarray, float]:
    """(beta_1..beta_{2N-1}, v_eff) of a uniform-attention head (see the module docstring)."""
    E, B = p["E"], p["B"]
    a, mid = (E[OPEN] - E[CLOSE]) / 2, (E[OPEN] + E[CLOSE]) / 2
    w = _value(p) @ (E[OPEN] - E[CLOSE])
    aw = float(a @ w)
    r = np.arange(1, B.shape[0])
    beta = (r[:, None] * mid + np.cumsum(B, axis=0)[:-1]) @ w / aw
    return beta, aw / 2


def closed_form_drift(s: np.ndarray, gamma: float = -0.5) -> np.ndarray:
    """beta*_r = -Delta_r(s) + gamma E[s_{r+1}] for r = 1..2N-1 (eq. (4) with E = [1, -1])."""
    return -heights(s)[:-1] + gamma * np.where(s[1:] == OPEN, 1.0, -1.0)


def distance_to_closed_form(beta: np.ndarray, s: np.ndarray) -> tuple[float, float, float]:
    """(max_r |beta_r - beta*_r| at gamma = -1/2, best-fit gamma, max_r |beta_r - beta*_r| at that gamma)."""
    e = np.where(s[1:] == OPEN, 1.0, -1.0)
    base = -heights(s)[:-1]
    g = float(e @ (beta - base) / (e @ e))
    return float(np.abs(beta - closed_form_drift(s)).max()), g, float(np.abs(beta - base - g * e).max())


def _fail_table(gap_open: np.ndarray, N: int) -> np.ndarray:
    """F[r][h] = P(the completion is not in D_2N | context length r, height h), from the open-minus-close
    logit gap[r][h] (r = 1..2N-1); failure mass is accumulated directly."""
    n = 2 * N
    F = np.ones((n + 1, n + 2))
    F[n, 0] = 0.0
    for r in range(n - 1, 0, -1):
        for h in range(0, n - r + 1):
            po = np.exp(-np.logaddexp(0.0, -gap_open[r, h]))
            pc = np.exp(-np.logaddexp(0.0, gap_open[r, h]))
            F[r, h] = po * F[r + 1, h + 1] + (pc * F[r + 1, h - 1] if h >= 1 else pc)
    return F


def valid_probability(p: Params, prefixes: list[tuple[int, ...]], N: int) -> np.ndarray:
    """Exact (float64) P(valid completion) of each prefix for a uniform-attention head: its logits depend only
    on (r, h), so one DP table answers every prefix."""
    n = 2 * N
    gap = np.zeros((n, n + 2))
    for r in range(1, n):
        h = np.arange(0, n + 2)
        n_open, n_close = (r + h) / 2, (r - h) / 2
        pool = np.outer(n_open, p["E"][OPEN]) + np.outer(n_close, p["E"][CLOSE]) + p["B"][:r].sum(axis=0)
        lg = pool @ _value(p) @ p["E"].T / r
        gap[r] = lg[:, OPEN] - lg[:, CLOSE]
    F = _fail_table(gap, N)
    return np.array([1.0 - F[len(z), int(heights(np.array(z))[-1])] for z in prefixes])


def closed_form_valid_probability(s: np.ndarray, v: float, prefixes: list[tuple[int, ...]]) -> np.ndarray:
    """The same for Theorem 4.1's closed-form head (gamma = -1/2, E = [1, -1], V = v)."""
    N, beta = len(s) // 2, closed_form_drift(s)
    n = 2 * N
    gap = np.zeros((n, n + 2))
    for r in range(1, n):
        gap[r] = 2 * v / r * (np.arange(0, n + 2) + beta[r - 1])
    F = _fail_table(gap, N)
    return np.array([1.0 - F[len(z), int(heights(np.array(z))[-1])] for z in prefixes])


def sampled_valid_rate(p: Params, prefixes: list[tuple[int, ...]], N: int, k: int,
                       rng: np.random.Generator) -> float:
    """Fraction of k sampled completions per prefix (any attention) that land in D_2N (seeded)."""
    ok = 0
    for z in prefixes:
        Z = np.tile(np.array(z, dtype=np.int64), (k, 1))
        while Z.shape[1] < 2 * N:
            lg = logits(p, Z)[:, -1]
            po = np.exp(-np.logaddexp(0.0, lg[:, CLOSE] - lg[:, OPEN]))
            Z = np.concatenate([Z, np.where(rng.random(k) < po, OPEN, CLOSE)[:, None]], axis=1)
        hs = heights(Z)
        ok += int(((hs.min(axis=1) >= 0) & (hs[:, -1] == 0)).sum())
    return ok / (k * len(prefixes))


# ------------------------------------------------------------------------------------------ the experiment
def _depth(s: np.ndarray) -> int:
    return int(heights(s).max())


def _measure(p: Params, cfg: Config, train_words: np.ndarray, deep: list[tuple[int, ...]], k: int,
             rng: np.random.Generator) -> dict[str, object]:
    """Training loss, valid-completion rates (deep test prefixes, training prefixes) and drift distance."""
    N = cfg.N
    inside = sorted({tuple(int(t) for t in w[:r]) for w in train_words[:256] for r in range(1, 2 * N)})
    out: dict[str, object] = {"train_loss": loss_and_grad(p, train_words)[0]}
    if cfg.attention == "uniform":
        out["deep_valid"] = float(valid_probability(p, deep, N).mean())
        out["train_prefix_valid"] = float(valid_probability(p, inside, N).mean())
        out["valid_how"] = "exact DP over (position, height)"
        beta, v_eff = drift(p)
        dists = [distance_to_closed_form(beta, w) for w in np.unique(train_words, axis=0)]
        best = min(dists, key=lambda t: t[0])
        out.update(v_eff=v_eff, drift_distance=best[0], best_gamma=best[1], drift_distance_best_gamma=best[2])
    else:
        out["deep_valid"] = sampled_valid_rate(p, deep, N, k, rng)
        out["train_prefix_valid"] = sampled_valid_rate(p, inside[:128], N, k, rng)
        out["valid_how"] = f"{k} sampled completions per prefix"
    return out


def run(cfg: Config, word: str, q_train: int, n_words: int, n_test: int, seeds: int = 4,
        k: int = 8) -> dict[str, object]:
    """Train on (i) the single word ``word`` and (ii) ``n_words`` uniform D_2N words of depth <= q_train, from
    the initializations of seeds cfg.seed .. cfg.seed + seeds - 1, and evaluate on up to ``n_test`` distinct
    deepest prefixes of uniform words of depth >= q_train + 1. Data (training words, test prefixes) come from
    ``cfg.seed`` alone, so only the initialization varies. The closed form built on ``word`` (gamma = -1/2,
    v = -(2N^2 + 1)) is evaluated on the same prefixes."""
    s = parse(word)
    N = cfg.N
    if len(s) != 2 * N or _depth(s) > q_train or heights(s).min() < 0 or heights(s)[-1] != 0:
        raise ValueError(f"word must be a D_{2 * N} word of depth <= {q_train}: {word!r}")
    rng = np.random.default_rng(cfg.seed)
    deep = deep_prefixes(N, n_test, rng, q_train + 1)
    many = sample_words(N, n_words, rng, hi=q_train)
    v_cf = -(2 * N * N + 1)
    report: dict[str, object] = {
        "config": asdict(cfg), "seeds": list(range(cfg.seed, cfg.seed + seeds)), "word": word,
        "word_depth": _depth(s), "q_train": q_train, "n_words": n_words,
        "distinct_training_words": int(len(np.unique(many, axis=0))),
        "test_prefixes": len(deep), "test_depth_at_least": q_train + 1,
        "closed_form": {"v": v_cf, "deep_valid": float(closed_form_valid_probability(s, v_cf, deep).mean())},
        "single": [], "many": [],
    }
    for seed in report["seeds"]:
        init = init_params(cfg, np.random.default_rng([seed, 1]))
        for name, data in (("single", s[None, :]), ("many", many)):
            p = {key: val.copy() for key, val in init.items()}
            hist = train(p, data, cfg, np.random.default_rng([seed, 2]))
            res = _measure(p, cfg, data, deep, k, np.random.default_rng([seed, 3]))
            res.update(seed=seed, first_loss=hist[0], init_v_sign=int(np.sign(np.trace(_value(init)))))
            report[name].append(res)
    return report


#: the quick setting (fast tests, ``proofkit check`` defaults) and the fuller one (slow test, documented run)
QUICK = {"N": 6, "word": "(()(()))(())", "q_train": 3, "n_words": 256, "n_test": 256, "steps": 300,
         "seeds": 4}
FULL = {"N": 16, "word": "(()(()())((()()))((())))(()())()", "q_train": 8, "n_words": 4096, "n_test": 1024,
        "steps": 3000, "batch": 256, "seeds": 8}


def main(argv: list[str] | None = None) -> int:
    """Command line: print the experiment's report as JSON (seed printed in it)."""
    ap = argparse.ArgumentParser(prog="python -m proofkit.posembed.gd", description=__doc__.split("\n")[0])
    ap.add_argument("--full", action="store_true", help="the fuller setting (N = 16, D_32) instead of quick")
    ap.add_argument("--N", type=int)
    ap.add_argument("--word")
    ap.add_argument("--q-train", type=int)
    ap.add_argument("--n-words", type=int)
    ap.add_argument("--n-test", type=int)
    ap.add_argument("--d", type=int, default=1)
    ap.add_argument("--attention", choices=("uniform", "learned"), default="uniform")
    ap.add_argument("--value", choices=("scalar", "matrix"), default="scalar")
    ap.add_argument("--steps", type=int)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--batch", type=int)
    ap.add_argument("--seed", type=int, default=0, help="data seed and first initialization seed")
    ap.add_argument("--seeds", type=int, help="number of initialization seeds (quick 4, full 8)")
    a = ap.parse_args(argv)
    base = dict(FULL if a.full else QUICK)
    for key in ("N", "word", "q_train", "n_words", "n_test", "steps", "batch", "seeds"):
        if getattr(a, key) is not None:
            base[key] = getattr(a, key)
    cfg = Config(N=base["N"], d=a.d, attention=a.attention, value=a.value, steps=base["steps"], lr=a.lr,
                 batch=base.get("batch", 0), seed=a.seed)
    rep = run(cfg, base["word"], base["q_train"], base["n_words"], base["n_test"], base["seeds"])
    print(json.dumps(rep, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
