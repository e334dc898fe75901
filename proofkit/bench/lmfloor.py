"""Row 1's floor: the training residual and Jacobian of the same model written by hand in numpy, for the
same Levenberg-Marquardt (:func:`proofkit.engine.fit.lm64`, stall rule included) from the same starts.

The hand-written versions know their model and nothing else: the parameter blocks are slices of theta
at fixed offsets, the training data are stacked once with their float64 targets, and each call is a few
array operations over every training length at once. The linear recurrence (AM24.T4) runs its state
over the sequences right-aligned behind zero tokens and takes its Jacobian from the closed form
``d/dLam[a, b] = sum_i (A Lam^i)[:, a] s_(t-1-i)[b]``, ``d/dB[a, b] = sum_i (A Lam^i)[:, a] x_(t-i)[b]``;
deep sets (AM24.T1) apply the hidden layer to all tokens in one product and pool per sequence with one
``np.add.reduceat``. Row 1 reports proofkit's fit time over the floor's on the same starts (goal: within
1.5x) and, per call, the family's float64 residual and Jacobian (``Problem.residual``,
``Problem.residual_jacobian``) over the hand-written ones (goal: within 2x).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..engine.fit import WARM_TOL, lm64, warm_start
from ..engine.problem import Problem
from ..families import DeepSets, LinearRecurrence
from ..numerics.backend import FLOAT64

#: calls per timing of a residual or Jacobian, and timings whose median is reported (they take
#: microseconds: a median of several batches is steadier than one long batch on a shared machine)
CALLS, BATCHES = 200, 5


class HandLinearRecurrence:
    """``s_t = Lam s_(t-1) + B x_t``, logit ``A s_t`` (no readout bias), written for this problem."""

    def __init__(self, prob: Problem) -> None:
        fam = prob.learned
        self.m, self.k, self.n = fam.m, fam.k, fam.n
        T = max(X.shape[1] for X in prob.train_X)
        self.X = np.concatenate([np.concatenate([np.zeros((X.shape[0], T - X.shape[1], self.n)), X], axis=1)
                                 for X in prob.train_X])
        self.Xrev = np.ascontiguousarray(self.X[:, ::-1])  # x_t, x_(t-1), ..., x_1 (zeros after)
        self.y = np.concatenate(prob.train_targets(FLOAT64))

    def blocks(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        m, k, n = self.m, self.k, self.n
        return (theta[: m * k].reshape(m, k), theta[m * k : m * k + k * k].reshape(k, k),
                theta[m * k + k * k :].reshape(k, n))

    def states(self, Lam: np.ndarray, B: np.ndarray) -> np.ndarray:
        N, T, n = self.X.shape
        U = (self.X.reshape(N * T, n) @ B.T).reshape(N, T, self.k)
        S = np.empty_like(U)
        S[:, 0] = U[:, 0]
        for j in range(1, T):
            S[:, j] = S[:, j - 1] @ Lam.T + U[:, j]
        return S

    def residual(self, theta: np.ndarray) -> np.ndarray:
        A, Lam, B = self.blocks(theta)
        return (self.states(Lam, B)[:, -1] @ A.T - self.y).ravel()

    def jacobian(self, theta: np.ndarray) -> np.ndarray:
        A, Lam, B = self.blocks(theta)
        m, k, n = self.m, self.k, self.n
        N, T, _ = self.X.shape
        S = self.states(Lam, B)
        Q = [A]
        for _ in range(1, T):
            Q.append(Q[-1] @ Lam)
        Qf = np.stack(Q).reshape(T, m * k).T  # column i: A Lam^i, flattened
        J = np.zeros((N, m, m * k + k * k + k * n))
        for r in range(m):
            J[:, r, r * k : (r + 1) * k] = S[:, -1]
        J[:, :, m * k : m * k + k * k] = (Qf[:, : T - 1] @ S[:, T - 2 :: -1]).reshape(N, m, k * k)
        J[:, :, m * k + k * k :] = (Qf @ self.Xrev).reshape(N, m, k * n)
        return J.reshape(N * m, -1)


class HandDeepSets:
    """``psi(x) = W2 tanh(W1 x + b1) + b2``, logit ``A sum_j psi(x_j) (+ a)``, written for this problem."""

    def __init__(self, prob: Problem) -> None:
        fam = prob.learned
        self.m, self.k, self.n, self.w, self.bias = fam.m, fam.k, fam.n, fam.width, fam.readout_bias
        self.tokens = np.concatenate([X.reshape(-1, self.n) for X in prob.train_X])
        self.t = np.concatenate([np.full(X.shape[0], float(X.shape[1])) for X in prob.train_X])
        self.starts = np.concatenate([[0], np.cumsum(self.t[:-1])]).astype(np.intp)
        self.y = np.concatenate(prob.train_targets(FLOAT64))
        m, k, n, w = self.m, self.k, self.n, self.w
        sizes = [m * k] + ([m] if self.bias else []) + [w * n, w, k * w, k]
        self.cuts = np.cumsum(sizes)[:-1]

    def blocks(self, theta: np.ndarray) -> list[np.ndarray]:
        """A, (a), W1, b1, W2, b2."""
        parts = np.split(theta, self.cuts)
        m, k, n, w = self.m, self.k, self.n, self.w
        shapes = [(m, k)] + ([(m,)] if self.bias else []) + [(w, n), (w,), (k, w), (k,)]
        return [v.reshape(s) for v, s in zip(parts, shapes)]

    def residual(self, theta: np.ndarray) -> np.ndarray:
        A, *a, W1, b1, W2, b2 = self.blocks(theta)
        Hs = np.add.reduceat(np.tanh(self.tokens @ W1.T + b1), self.starts, axis=0)
        z = (Hs @ W2.T + self.t[:, None] * b2) @ A.T
        return (z + a[0] - self.y if a else z - self.y).ravel()

    def jacobian(self, theta: np.ndarray) -> np.ndarray:
        A, *a, W1, b1, W2, b2 = self.blocks(theta)
        m, k, n, w = self.m, self.k, self.n, self.w
        H = np.tanh(self.tokens @ W1.T + b1)
        D = 1.0 - H * H
        Hs = np.add.reduceat(H, self.starts, axis=0)
        Ds = np.add.reduceat(D, self.starts, axis=0)
        G = np.add.reduceat((D[:, :, None] * self.tokens[:, None, :]).reshape(-1, w * n), self.starts, axis=0)
        N = Hs.shape[0]
        AW2, S = A @ W2, Hs @ W2.T + self.t[:, None] * b2
        cols = [m * k, m if a else 0, w * n, w, k * w, k]
        J = np.zeros((N, m, sum(cols)))
        for r in range(m):
            J[:, r, r * k : (r + 1) * k] = S
            if a:
                J[:, r, m * k + r] = 1.0
        at = m * k + cols[1]
        J[:, :, at : at + w * n] = np.repeat(AW2, n, axis=1)[None] * G[:, None, :]
        J[:, :, at + w * n : at + w * n + w] = AW2[None] * Ds[:, None]
        at += w * n + w
        J[:, :, at : at + k * w] = (A[None, :, :, None] * Hs[:, None, None, :]).reshape(N, m, k * w)
        J[:, :, at + k * w :] = A[None] * self.t[:, None, None]
        return J.reshape(N * m, -1)


def hand_model(prob: Problem) -> HandLinearRecurrence | HandDeepSets:
    """The hand-written residual and Jacobian of row 1's problem (a linear recurrence without readout bias,
    or deep sets); ValueError for any other family (row 1 has no floor for it)."""
    fam = prob.learned
    if type(fam) is LinearRecurrence and prob.injective:
        return HandLinearRecurrence(prob)
    if type(fam) is DeepSets and prob.injective:
        return HandDeepSets(prob)
    raise ValueError(f"no hand-written floor for {fam.name} (activation {prob.activation})")


def race(prob: Problem, ident: Callable[[Problem, np.ndarray, Any], Any], starts: Iterable[np.ndarray],
         solve: Callable[[np.ndarray, dict[str, int]], np.ndarray], target: float) -> dict[str, Any]:
    """Float64 LM from ``starts`` in order until the identification error is <= ``target``. The clock
    covers the LM runs only (not the error evaluations); ``solve(start, counts)`` returns the end point
    and fills ``counts`` as :func:`proofkit.engine.fit.lm64` does."""
    clock, best, th_best, used, runs = 0.0, float("inf"), None, 0, []
    for i, theta0 in enumerate(starts):
        counts: dict[str, int] = {}
        t0 = time.perf_counter()
        try:
            th = solve(theta0, counts)
        except (ValueError, FloatingPointError, np.linalg.LinAlgError):
            clock += time.perf_counter() - t0
            continue
        elapsed = time.perf_counter() - t0
        clock += elapsed
        err = ident(prob, th, FLOAT64) if np.all(np.isfinite(th)) else float("inf")
        runs.append({"s": elapsed, **counts, "error": float(err) if np.isfinite(err) else None})
        if err < best:
            best, th_best, used = err, th, i + 1
        if err <= target:
            break
    return {"lm_s": clock, "reached": best <= target, "restarts": used, "error_f64": best, "theta": th_best,
            "lm_iterations": sum(r.get("iterations", 0) for r in runs), "runs": runs}


def proofkit_solver(prob: Problem) -> Callable[[np.ndarray, dict[str, int]], np.ndarray]:
    """proofkit's warm start (:func:`proofkit.engine.fit.warm_start`) as a ``race`` solver."""
    return lambda theta0, counts: warm_start(prob, theta0, counts=counts)[0]


def floor_solver(hand: HandLinearRecurrence | HandDeepSets
                 ) -> Callable[[np.ndarray, dict[str, int]], np.ndarray]:
    """The same LM with the hand-written residual and Jacobian as a ``race`` solver."""
    return lambda theta0, counts: lm64(hand.residual, hand.jacobian, theta0, stall_above=WARM_TOL,
                                       counts=counts)[0]


def per_call(fn: Callable[[], Any]) -> float:
    """Median seconds per call over BATCHES batches of CALLS calls."""
    fn()
    times = []
    for _ in range(BATCHES):
        t0 = time.perf_counter()
        for _ in range(CALLS):
            fn()
        times.append((time.perf_counter() - t0) / CALLS)
    return statistics.median(times)


def call_costs(prob: Problem, hand: HandLinearRecurrence | HandDeepSets, theta: np.ndarray) -> dict[str, Any]:
    """Seconds per float64 residual and Jacobian call, family (through the problem) and hand-written, at
    ``theta``, with the largest difference of their values (they compute the same numbers)."""
    res_gap = float(np.max(np.abs(prob.residual(theta, FLOAT64) - hand.residual(theta))))
    jac_gap = float(np.max(np.abs(prob.residual_jacobian(theta, FLOAT64) - hand.jacobian(theta))))
    return {"residual_family_s": per_call(lambda: prob.residual(theta, FLOAT64)),
            "residual_hand_s": per_call(lambda: hand.residual(theta)),
            "jacobian_family_s": per_call(lambda: prob.residual_jacobian(theta, FLOAT64)),
            "jacobian_hand_s": per_call(lambda: hand.jacobian(theta)),
            "max_difference": max(res_gap, jac_gap)}


def floor_figures(prob: Problem, ident: Callable[[Problem, np.ndarray, Any], Any], starts: list[np.ndarray],
                  target: float, repeats: int) -> dict[str, Any]:
    """proofkit's warm starts and the hand-written floor raced from the same ``starts`` to ``target``,
    alternately ``repeats`` times (medians of the LM clocks), with the per-call costs at the first start."""
    hand = hand_model(prob)
    ours, floor = [], []
    for _ in range(max(1, repeats)):
        ours.append(race(prob, ident, starts, proofkit_solver(prob), target))
        floor.append(race(prob, ident, starts, floor_solver(hand), target))
    last_ours, last_floor = ours[-1], floor[-1]
    return {"proofkit_lm_s": statistics.median(r["lm_s"] for r in ours),
            "floor_lm_s": statistics.median(r["lm_s"] for r in floor),
            "reached": last_ours["reached"] and last_floor["reached"],
            "restarts": [last_ours["restarts"], last_floor["restarts"]],
            "lm_iterations": [last_ours["lm_iterations"], last_floor["lm_iterations"]],
            "repeats": max(1, repeats), "calls": call_costs(prob, hand, starts[0])}


def stall_figures(prob: Problem, ident: Callable[[Problem, np.ndarray, Any], Any], starts: list[np.ndarray],
                  target: float) -> dict[str, Any]:
    """LM iterations and seconds from ``starts`` to ``target`` with proofkit's stall rule and without it
    (the same LM run to its 200 iterations), and how many starts the rule abandoned."""
    def plain(theta0: np.ndarray, counts: dict[str, int]) -> np.ndarray:
        return lm64(lambda th: prob.residual(th, FLOAT64), lambda th: prob.residual_jacobian(th, FLOAT64),
                    theta0, counts=counts)[0]

    out = {}
    for name, solve in (("with_rule", proofkit_solver(prob)), ("without_rule", plain)):
        run = race(prob, ident, starts, solve, target)
        out[name] = {"lm_s": run["lm_s"], "lm_iterations": run["lm_iterations"], "restarts": run["restarts"],
                     "abandoned": sum(r.get("abandoned", 0) for r in run["runs"]), "reached": run["reached"]}
    return out
