"""proofkit benchmarks: where the time goes, measured side by side in one run.

    python benchmarks/run.py            # full run (median of 3 repeats, 20 s AdamW budget)
    python benchmarks/run.py --quick    # smoke run (1 repeat, 3 s AdamW budget), < 60 s

Five benchmarks, one function each:

1. fit: float64 Levenberg-Marquardt warm start vs mpmath polish (AM24.T4 and AM24.T1);
2. certification of the training residual: python-flint balls vs mpmath;
3. rank decisions at 200 bits: flint Gram + eig vs mpmath svd_r / eigsy, and a 60x60 solve;
4. full ``proofkit.check`` runs with their per-stage timings, and the import time;
5. a paper-style AdamW training loop on the AM24.T4 instance vs proofkit's fit.

Inputs are seeded and deterministic; wall times are ``time.perf_counter`` medians. The table goes
to stdout and every figure (with its unit) to ``benchmarks/results.json``.
"""

# BLAS threads are pinned before numpy loads, as proofkit itself does (hence E402 below).
# ruff: noqa: E402
from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import flint
import mpmath as mp
import numpy as np

from proofkit import registry
from proofkit.atomic import write_file
from proofkit.backend import ARB, FLOAT64, MP, mp_abs_max
from proofkit.certify import arb_bits, to_arb, upper
from proofkit.check import check
from proofkit.fit import default_tol, polish, warm_start
from proofkit.localid import threshold
from proofkit.problem import Problem, build_problem

DPS = 60  # working digits of every mpmath stage (proofkit's default)
ARB_BITS = 236  # flint precision for certification: what certify.arb_precision(60) sets (70 digits)
RANK_BITS = 200  # precision of the rank-decision benchmark
SEED = 0
T = TypeVar("T")


# ----------------------------------------------------------------------------- helpers
def timed(fn: Callable[[], T], repeats: int) -> tuple[float, T]:
    """Median wall time (s) of ``repeats`` calls and the last call's result."""
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out  # type: ignore[return-value]


def num(v: Any) -> float | str:
    """A JSON-safe number: float where it round-trips meaningfully, else a decimal string."""
    if isinstance(v, flint.arb):
        v = arb_to_mpf(v)
    f = float(v)
    if f == 0.0 and v != 0:
        return mp.nstr(v, 6)
    return f


def arb_to_mpf(x: flint.arb) -> mp.mpf:
    """Midpoint of a real ball as an mpf (at the current mpmath precision)."""
    return mp.mpf(x.mid().str(mp.mp.dps + 5, radius=False))


def fmt(v: Any, unit: str) -> str:
    """A figure with its unit; seconds below 1 s print as ms."""
    if isinstance(v, str):
        return f"{v} {unit}".strip()
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if unit == "s" and abs(float(v)) < 1.0:
        return f"{float(v) * 1e3:.3g} ms"
    if isinstance(v, (int, np.integer)):
        return f"{int(v)} {unit}".strip()
    return f"{float(v):.3g} {unit}".strip()


@dataclass
class Report:
    """Rows for the printed table and the nested dict written to results.json."""

    rows: list[tuple[str, str, str]] = field(default_factory=list)
    data: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(self, section: str, key: str, value: Any, unit: str, label: str | None = None) -> None:
        shown = value if isinstance(value, (str, bool, int, np.integer)) else num(value)
        self.rows.append((section, label or key, fmt(shown, unit)))
        if isinstance(shown, (bool, np.bool_)):
            shown = bool(shown)
        elif isinstance(shown, np.integer):
            shown = int(shown)
        self.data.setdefault(section, {})[key] = {"value": shown, "unit": unit}

    def table(self) -> str:
        w0 = max(len(r[0]) for r in self.rows)
        w1 = max(len(r[1]) for r in self.rows)
        lines = [f"{'benchmark':<{w0}}  {'quantity':<{w1}}  value", "-" * (w0 + w1 + 20)]
        last = None
        for sec, label, val in self.rows:
            lines.append(f"{sec if sec != last else '':<{w0}}  {label:<{w1}}  {val}")
            last = sec
        return "\n".join(lines)


def make_problem(theorem_id: str) -> Problem:
    thm = registry.get(theorem_id)
    return build_problem(thm, thm.params.resolve({}), seed=SEED, dps=DPS)


def mp_matrix(a: np.ndarray) -> mp.matrix:
    return mp.matrix(a.tolist())


def mp_max_abs(M: mp.matrix) -> mp.mpf:
    return max(abs(M[i, j]) for i in range(M.rows) for j in range(M.cols))


# ----------------------------------------------------------------------------- identification
def ident_error_t4(prob: Problem, theta: np.ndarray, ops: Any) -> Any:
    """max |Lam~ - C Lam C^-1| with C = A~^-1 A, in float64 or mpmath (at DPS)."""
    h = prob.learned.unpack(theta)
    if ops is FLOAT64:
        f = prob.true.unpack(prob.true_theta(FLOAT64))
        C = np.linalg.inv(h["A"]) @ f["A"]
        return float(np.max(np.abs(h["Lam"] - C @ f["Lam"] @ np.linalg.inv(C))))
    with mp.workdps(DPS):
        f = prob.true.unpack(prob.true_theta(MP))
        C = mp.inverse(mp_matrix(h["A"])) * mp_matrix(f["A"])
        return mp_max_abs(mp_matrix(h["Lam"]) - C * mp_matrix(f["Lam"]) * mp.inverse(C))


def ident_error_t1(prob: Problem, theta: np.ndarray, ops: Any) -> Any:
    """max |A psi(x) - B phi(x)| (AM24 eq. 21) over a 21 x 21 grid of tokens in [0, 1]^2."""
    axes = np.linspace(0.0, 1.0, 21)
    grid = np.array(np.meshgrid(axes, axes)).reshape(2, -1).T
    with mp.workdps(DPS):
        tf = prob.true_theta(ops)
        G = ops.asarray(grid)
        lhs = prob.learned.token_map(theta, G, ops) @ prob.learned.unpack(theta)["A"].T
        rhs = prob.true.token_map(tf, G, ops) @ prob.true.unpack(tf)["A"].T
        d = lhs - rhs
        return float(np.max(np.abs(d))) if ops is FLOAT64 else mp_abs_max(d)


def markov_error(prob: Problem, theta: np.ndarray, ops: Any, count: int = 4) -> Any:
    """max_j |A~ Lam~^j B~ - A Lam^j B|, j = 0..count-1 (the model at every length)."""
    with mp.workdps(DPS):
        Mh = prob.learned.markov(theta, count, ops)
        Mf = prob.true.markov(prob.true_theta(ops), count, ops)
        if ops is FLOAT64:
            return max(float(np.max(np.abs(a - b))) for a, b in zip(Mh, Mf, strict=True))
        return max(mp_abs_max(a - b) for a, b in zip(Mh, Mf, strict=True))


IDENT: dict[str, tuple[Callable[[Problem, np.ndarray, Any], Any], str]] = {
    "AM24.T4": (ident_error_t4, "max|Lam~ - C Lam C^-1|"),
    "AM24.T1": (ident_error_t1, "max|A psi - B phi| on grid"),
}


# ----------------------------------------------------------------------------- 1. fit
def first_good_start(prob: Problem, seed: int = SEED,
                     restarts: int = 8) -> tuple[np.ndarray, float, int]:
    """float64 warm starts from the seeded restarts ``fit`` uses, until one reaches 1e-6."""
    rng = np.random.default_rng(seed)
    for i in range(restarts):
        theta0 = prob.learned.init(rng)
        try:
            th, r64 = warm_start(prob, theta0)
        except (ValueError, FloatingPointError, np.linalg.LinAlgError):
            continue
        if np.all(np.isfinite(th)) and r64 <= 1e-6:
            return th, r64, i + 1
    raise RuntimeError(f"no float64 restart reached 1e-6 in {restarts} restarts")


def bench_fit(rep: Report, theorem_id: str, repeats: int) -> dict[str, Any]:
    sec = f"1. fit {theorem_id}"
    prob = make_problem(theorem_id)
    ident, ident_label = IDENT[theorem_id]
    t_warm, (th64, r64, tried) = timed(lambda: first_good_start(prob), repeats)
    with mp.workdps(DPS):
        t_labels, _ = timed(lambda: prob.train_targets(MP), 1)  # one-off, cached per problem
    tol = default_tol(DPS)
    t_pol, (th_mp, r_mp, iters) = timed(lambda: polish(prob, th64, DPS, tol), repeats)
    id64, idmp = ident(prob, th64, FLOAT64), ident(prob, th_mp, MP)
    rep.add(sec, "n_params", prob.learned.n_params, "params", "parameters")
    rep.add(sec, "n_residuals", int(prob.residual(th64).size), "residuals",
            f"residuals (T={prob.T}, {prob.n_per_length} seq/length)")
    rep.add(sec, "warm_start_s", t_warm, "s", f"float64 warm start ({tried} restart(s))")
    rep.add(sec, "mp_labels_s", t_labels, "s", f"mpmath training labels, one-off ({DPS} dps)")
    rep.add(sec, "polish_s", t_pol, "s", f"mpmath polish ({iters} iterations)")
    rep.add(sec, "polish_over_warm", t_pol / t_warm, "x", "polish / warm start time")
    rep.add(sec, "residual_f64", r64, "abs", "max|residual| after float64")
    rep.add(sec, "residual_mp", r_mp, "abs", "max|residual| after polish")
    rep.add(sec, "ident_err_f64", id64, "abs", f"{ident_label}, float64")
    rep.add(sec, "ident_err_mp", idmp, "abs", f"{ident_label}, polished")
    mk64 = mkmp = None
    if hasattr(prob.learned, "markov"):  # linear recurrences only
        mk64, mkmp = markov_error(prob, th64, FLOAT64), markov_error(prob, th_mp, MP)
        rep.add(sec, "markov_err_f64", mk64, "abs", "max|Markov diff| j<4, float64")
        rep.add(sec, "markov_err_mp", mkmp, "abs", "max|Markov diff| j<4, polished")
    return {"problem": prob, "theta_mp": th_mp, "fit_s": t_warm + t_pol,
            "markov_err_mp": mkmp, "markov_err_f64": mk64, "warm_s": t_warm}


# ----------------------------------------------------------------------------- 2. certification
def arb_residual_bound(prob: Problem, theta_mp: np.ndarray) -> mp.mpf:
    """Ball upper bound of max |logit_h - logit_f| over the training sequences (ARB_BITS bits)."""
    worst = mp.mpf(0)
    with arb_bits(ARB_BITS), mp.workdps(DPS):
        th, tf = to_arb(theta_mp), to_arb(prob.theta_true)
        for X in prob.train_X:
            Xa = ARB.asarray(X)
            d = prob.learned.logits(th, Xa, ARB) - prob.true.logits(tf, Xa, ARB)
            worst = max(worst, max(upper(v) for v in d.ravel()))
    return worst


def mp_residual_max(prob: Problem, theta_mp: np.ndarray) -> mp.mpf:
    """The same residuals in mpmath at DPS digits, labels recomputed (no cache)."""
    worst = mp.mpf(0)
    with mp.workdps(DPS):
        tf = prob.true_theta(MP)
        for X in prob.train_X:
            Xm = MP.asarray(X)
            worst = max(worst, mp_abs_max(prob.learned.logits(theta_mp, Xm, MP)
                                          - prob.true.logits(tf, Xm, MP)))
    return worst


def bench_certify(rep: Report, theorem_id: str, prob: Problem, theta_mp: np.ndarray,
                  repeats: int) -> None:
    sec = f"2. certify {theorem_id}"
    t_arb, bound = timed(lambda: arb_residual_bound(prob, theta_mp), repeats)
    t_mp, rmax = timed(lambda: mp_residual_max(prob, theta_mp), repeats)

    def cached() -> mp.mpf:
        with mp.workdps(DPS):
            return mp_abs_max(prob.residual(theta_mp, MP))

    t_cached, _ = timed(cached, repeats)
    rep.add(sec, "arb_s", t_arb, "s", f"flint balls, h and f logits ({ARB_BITS} bits)")
    rep.add(sec, "mp_s", t_mp, "s", f"mpmath, h and f logits ({DPS} dps)")
    rep.add(sec, "mp_cached_s", t_cached, "s", "mpmath prob.residual (cached labels)")
    rep.add(sec, "arb_over_mp", t_arb / t_mp, "x", "flint / mpmath time")
    rep.add(sec, "arb_upper_bound", bound, "abs", "certified upper bound of max|residual|")
    rep.add(sec, "mp_residual", rmax, "abs", "mpmath max|residual|")


# ----------------------------------------------------------------------------- 3. rank decisions
def flint_eigs(G: flint.arb_mat) -> tuple[list[Any], str]:
    """Eigenvalues of a symmetric arb_mat: rigorous isolation first, then the multiple-eigenvalue
    enclosure, then the non-rigorous approximation (flint has no SVD)."""
    for kw, name in (({}, "isolated"), ({"multiple": True}, "multiple"),
                     ({"algorithm": "approx"}, "approx (no rigor)")):
        try:
            return list(G.eig(**kw)), name
        except ValueError:
            continue
    raise RuntimeError("flint could not compute the eigenvalues")


def flint_spectrum(Ja: flint.arb_mat) -> tuple[list[Any], str]:
    G = Ja.transpose() * Ja
    eigs, how = flint_eigs(G)
    return [e.real for e in eigs], how


def rank_from_sv(sv: list[mp.mpf]) -> int:
    cut = threshold(DPS) * max(sv)
    return sum(1 for s in sv if s > cut)


def flint_rank(lams: list[flint.arb], rigorous: bool) -> tuple[int, bool]:
    """Rank at the same relative cut as localid (10^-20 on singular values); certified when every
    eigenvalue ball lies wholly on one side of cut^2."""
    lam_max = max(lams, key=lambda x: float(x.mid()))
    cut2 = lam_max * flint.arb(10) ** (-2 * (DPS // 3))
    above = sum(1 for x in lams if x > cut2)
    below = sum(1 for x in lams if x < cut2)
    return above, rigorous and above + below == len(lams)


def bench_spectrum(rep: Report, name: str, J: np.ndarray, repeats: int) -> None:
    """Singular values of J at RANK_BITS: flint Gram + eig vs mpmath svd_r and Gram + eigsy."""
    sec = f"3. rank {name}"
    with arb_bits(RANK_BITS):
        Ja = flint.arb_mat([[flint.arb(v) for v in row] for row in J.tolist()])
        t_fl, (lams, how) = timed(lambda: flint_spectrum(Ja), repeats)
        rank_fl, cert = flint_rank(lams, not how.startswith("approx"))
        with mp.workprec(RANK_BITS):
            sv_fl = sorted((mp.sqrt(max(arb_to_mpf(x), 0)) for x in lams), reverse=True)
    with mp.workprec(RANK_BITS):
        Jm = mp_matrix(J)
        t_svd, sv = timed(lambda: mp.svd_r(Jm, compute_uv=False), repeats)
        sv_mp = sorted((sv[i] for i in range(sv.rows)), reverse=True)
        t_eigsy, ev = timed(lambda: mp.eigsy(Jm.T * Jm, eigvals_only=True), repeats)
        sv_eig = sorted((mp.sqrt(max(ev[i], 0)) for i in range(ev.rows)), reverse=True)
        r = rank_from_sv(sv_mp)  # agreement on the kept values (the null cluster is noise)
        agree = max(abs(a - b) for a, b in zip(sv_fl[:r], sv_mp[:r], strict=True)) / sv_mp[0]
        rep.add(sec, "shape", f"{J.shape[0]}x{J.shape[1]}", "", "matrix")
        rep.add(sec, "flint_gram_eig_s", t_fl, "s", f"flint Gram + eig ({how})")
        rep.add(sec, "mp_svd_s", t_svd, "s", "mpmath svd_r")
        rep.add(sec, "mp_gram_eigsy_s", t_eigsy, "s", "mpmath Gram + eigsy")
        rep.add(sec, "svd_over_flint", t_svd / t_fl, "x", "mpmath svd_r / flint time")
        rep.add(sec, "eigsy_over_flint", t_eigsy / t_fl, "x", "mpmath eigsy / flint time")
        rep.add(sec, "rank_flint", f"{rank_fl}/{len(lams)}", "",
                "rank, flint" + (" (certified)" if cert else " (not certified)"))
        rep.add(sec, "rank_mp_svd", f"{rank_from_sv(sv_mp)}/{len(sv_mp)}", "", "rank, mpmath svd_r")
        rep.add(sec, "rank_mp_eigsy", f"{rank_from_sv(sv_eig)}/{len(sv_eig)}", "",
                "rank, mpmath eigsy")
        rep.add(sec, "sigma_r", sv_mp[r - 1], "abs", "smallest kept singular value")
        if r < len(sv_mp):
            rep.add(sec, "sigma_r_plus_1", sv_mp[r], "abs", "largest dropped singular value")
        rep.add(sec, "sv_agreement", agree, "rel", "max|sigma_flint - sigma_svd| / sigma_max, kept")


def bench_solve(rep: Report, n: int, repeats: int) -> None:
    sec = f"3. solve {n}x{n}"
    rng = np.random.default_rng(SEED)
    M, b = rng.normal(size=(n, n)), rng.normal(size=n)
    with arb_bits(RANK_BITS), mp.workprec(RANK_BITS):
        Ma, ba = flint.arb_mat(M.tolist()), flint.arb_mat([[v] for v in b.tolist()])
        Mm, bm = mp_matrix(M), mp.matrix(b.tolist())
        t_fl, xa = timed(lambda: Ma.solve(ba), repeats)
        t_mp, xm = timed(lambda: mp.lu_solve(Mm, bm), repeats)
        diff = max(abs(arb_to_mpf(xa[i, 0]) - xm[i]) for i in range(n))
        rad = max(float(xa[i, 0].rad()) for i in range(n))
    rep.add(sec, "flint_solve_s", t_fl, "s", f"flint arb_mat.solve ({RANK_BITS} bits)")
    rep.add(sec, "mp_lu_solve_s", t_mp, "s", "mpmath lu_solve")
    rep.add(sec, "mp_over_flint", t_mp / t_fl, "x", "mpmath / flint time")
    rep.add(sec, "max_radius", rad, "abs", "largest flint ball radius")
    rep.add(sec, "max_diff", diff, "abs", "max|x_flint - x_mpmath|")


def bench_rank(rep: Report, fits: dict[str, dict[str, Any]], repeats: int) -> None:
    M = np.random.default_rng(SEED).normal(size=(60, 60))
    bench_spectrum(rep, "60x60 Gaussian", M, repeats)
    for tid in ("AM24.T4", "AM24.T1"):
        prob, th = fits[tid]["problem"], fits[tid]["theta_mp"]
        with mp.workdps(DPS):
            J = prob.residual_jacobian(th, MP)
        bench_spectrum(rep, f"{tid} J_train", J, repeats)
    bench_solve(rep, 60, repeats)


# ----------------------------------------------------------------------------- 4. checks, import
def bench_check(rep: Report, theorem_id: str, repeats: int) -> None:
    sec = f"4. check {theorem_id}"
    thm = registry.get(theorem_id)
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = check(thm, None, dps=DPS, seed=SEED)
        runs.append((time.perf_counter() - t0, res))
    wall, res = sorted(runs, key=lambda r: r[0])[(len(runs) - 1) // 2]  # the median run
    rep.add(sec, "first_s", runs[0][0], "s", "wall time, first run in process")
    rep.add(sec, "median_s", wall, "s", f"wall time, median of {repeats}")
    rep.add(sec, "verdict", str(res.verdict.value), "", "verdict")
    stages: dict[str, float] = res.diagnostics["timings_s"]
    for stage, t in stages.items():
        rep.add(sec, f"stage_{stage}_s", t, "s", f"  stage {stage}")
    rep.add(sec, "stage_other_s", res.elapsed_s - sum(stages.values()), "s", "  other")


def _run_python(code: str, *flags: str) -> tuple[float, str, str]:
    """Run ``python [flags] -c code`` in a fresh interpreter: (wall s, stdout, stderr)."""
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True,
                         check=True)
    return time.perf_counter() - t0, out.stdout, out.stderr


def _import_seconds(module: str) -> float:
    """Import time of ``module`` in a fresh interpreter, timed inside it (startup excluded)."""
    code = (f"import time; t = time.perf_counter(); import {module}; "
            f"print(time.perf_counter() - t)")
    return float(_run_python(code)[1].strip())


def bench_import(rep: Report, repeats: int) -> None:
    sec = "4. import"
    for mod in ("proofkit", "proofkit.check"):
        t = statistics.median(_import_seconds(mod) for _ in range(repeats))
        rep.add(sec, f"import_{mod}_s", t, "s", f"import {mod} (fresh interpreter)")
    wall = statistics.median(_run_python("import proofkit.check")[0] for _ in range(repeats))
    rep.add(sec, "process_wall_s", wall, "s", "python -c 'import proofkit.check', wall")
    err = _run_python("import proofkit.check", "-X", "importtime")[2]
    cumulative: dict[str, int] = {}
    for line in err.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            cumulative.setdefault(parts[2].strip(), int(parts[1]))
    for mod in ("sympy", "scipy.optimize", "numpy", "mpmath", "flint"):
        if mod in cumulative:
            rep.add(sec, f"importtime_{mod}_s", cumulative[mod] * 1e-6, "s",
                    f"  -X importtime cumulative: {mod}")


# ----------------------------------------------------------------------------- 5. AdamW
def adamw(prob: Problem, budget_s: float, lr: float = 1e-3, weight_decay: float = 0.01,
          batch: int = 256, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
          eval_every: int = 10) -> dict[str, float]:
    """Mini-batch AdamW on the mean squared logit error; every step draws a fresh batch from the
    training support (batch split evenly over the training lengths). Same start as proofkit."""
    fam, true = prob.learned, prob.true
    tf = prob.true_theta(FLOAT64)
    theta = fam.init(np.random.default_rng(SEED))
    rng = np.random.default_rng(SEED + 1)
    m1, m2 = np.zeros_like(theta), np.zeros_like(theta)
    b1, b2 = betas
    per_len = batch // len(prob.lengths)
    best, t_best, step_best, loss = float("inf"), 0.0, 0, float("nan")
    step, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < budget_s:
        step += 1
        grad, sq, count = np.zeros_like(theta), 0.0, 0
        for L in prob.lengths:
            X = prob.support.sample(rng, per_len, L)
            r = fam.logits(theta, X) - true.logits(tf, X)
            grad += 2.0 * np.einsum("nr,nrp->p", r, fam.jacobian(theta, X))
            sq, count = sq + float(np.sum(r * r)), count + r.size
        grad /= count
        loss = sq / count
        theta = theta * (1.0 - lr * weight_decay)
        m1 = b1 * m1 + (1.0 - b1) * grad
        m2 = b2 * m2 + (1.0 - b2) * grad * grad
        mhat, vhat = m1 / (1.0 - b1**step), m2 / (1.0 - b2**step)
        theta = theta - lr * mhat / (np.sqrt(vhat) + eps)
        if step % eval_every == 0:
            err = markov_error(prob, theta, FLOAT64)
            if err < best:
                best, t_best, step_best = err, time.perf_counter() - t0, step
    return {"steps": step, "elapsed_s": time.perf_counter() - t0, "best_markov_err": best,
            "time_to_best_s": t_best, "step_best": step_best, "final_batch_mse": loss,
            "final_markov_err": markov_error(prob, theta, FLOAT64)}


def bench_adamw(rep: Report, fit_t4: dict[str, Any], budget_s: float) -> None:
    sec = "5. AdamW AM24.T4"
    out = adamw(fit_t4["problem"], budget_s)
    rep.add(sec, "budget_s", budget_s, "s", "time budget")
    rep.add(sec, "steps", int(out["steps"]), "steps", "AdamW steps (batch 256, lr 1e-3, wd 0.01)")
    rep.add(sec, "steps_per_s", out["steps"] / out["elapsed_s"], "steps/s", "throughput")
    rep.add(sec, "best_markov_err", out["best_markov_err"], "abs",
            "best max|Markov diff| j<4, AdamW")
    rep.add(sec, "time_to_best_s", out["time_to_best_s"], "s",
            f"time to best (step {int(out['step_best'])})")
    rep.add(sec, "final_markov_err", out["final_markov_err"], "abs", "final max|Markov diff|")
    rep.add(sec, "final_batch_mse", out["final_batch_mse"], "logit^2", "final batch MSE")
    rep.add(sec, "proofkit_markov_err_f64", fit_t4["markov_err_f64"], "abs",
            "proofkit float64 warm start, same metric")
    rep.add(sec, "proofkit_markov_err", fit_t4["markov_err_mp"], "abs",
            "proofkit polished fit, same metric")
    rep.add(sec, "proofkit_warm_s", fit_t4["warm_s"], "s", "proofkit warm start time")
    rep.add(sec, "proofkit_fit_s", fit_t4["fit_s"], "s", "proofkit warm start + polish time")
    rep.add(sec, "err_ratio_f64", out["best_markov_err"] / fit_t4["markov_err_f64"], "x",
            "AdamW best / proofkit float64 error")


# ----------------------------------------------------------------------------- main
def machine_info() -> dict[str, Any]:
    return {"python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count(), "numpy": np.__version__, "mpmath": mp.__version__,
            "python-flint": flint.__version__}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1 repeat, 3 s AdamW budget (< 60 s)")
    ap.add_argument("--repeats", type=int, default=None, help="override the repeat count")
    ap.add_argument("--adam-seconds", type=float, default=None, help="override the AdamW budget")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results.json")
    args = ap.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 3)
    budget = args.adam_seconds or (3.0 if args.quick else 20.0)

    t_start = time.perf_counter()
    rep = Report()
    fits = {tid: bench_fit(rep, tid, repeats) for tid in ("AM24.T4", "AM24.T1")}
    for tid, f in fits.items():
        bench_certify(rep, tid, f["problem"], f["theta_mp"], repeats)
    bench_rank(rep, fits, repeats)
    for tid in ("AM24.T4", "AM24.T1"):
        bench_check(rep, tid, repeats)
    bench_import(rep, repeats)
    bench_adamw(rep, fits["AM24.T4"], budget)
    total = time.perf_counter() - t_start

    info = machine_info()
    print(f"proofkit benchmarks ({'quick' if args.quick else 'full'}: {repeats} repeat(s), "
          f"median wall time; python {info['python']}, {info['cpus']} CPUs, no GPU)")
    print(rep.table())
    print(f"\ntotal benchmark wall time: {total:.1f} s")
    payload = {"mode": "quick" if args.quick else "full", "repeats": repeats,
               "adamw_budget_s": budget, "total_s": total, "machine": info,
               "results": rep.data}
    write_file(args.out, json.dumps(payload, indent=2) + "\n", "--out")  # atomic: never a half file
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
