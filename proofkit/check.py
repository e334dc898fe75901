"""Check a theorem at one parameter set: fit h to f, then decide every claim on its own.

Stages: resolve parameters -> sympy proof steps -> fit (float64 then mpmath) -> group elements ->
identification relations (with erratum search) -> length / compositional tests -> local
identifiability -> certification -> TheoremResult.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import mpmath as mp
import numpy as np
import sympy as sp

from . import certify
from .backend import MP, mp_abs_max
from .fit import FitResult, fit
from .identify import (
    Env,
    Undefined,
    evaluate,
    find_erratum,
    project,
    relation_residual,
    solve_linear,
)
from .localid import LocalId, local_identifiability
from .problem import Problem, build_problem
from .spec import Claim, Computed, Generalization, Relation, SymbolicStep, Theorem
from .support import corner_sequences, test_lengths
from .symbolic import describe, is_zero
from .verdict import ClaimResult, Erratum, TheoremResult, Verdict, combine

REFUTE_GAP = mp.mpf("1e-8")  # a discrepancy this large is real at any dps >= 30


def zero_tol(dps: int) -> mp.mpf:
    """A residual at most this (relative) counts as zero: 1e-40 at 60 digits."""
    return mp.mpf(10) ** (-(dps - 20))


@dataclass
class Fitted:
    """A problem with a learned model fitted to it (what every numeric claim is decided on)."""

    problem: Problem
    fit: FitResult
    dps: int
    seed: int

    @property
    def theta(self) -> np.ndarray:
        assert self.fit.theta is not None
        return self.fit.theta


# ----------------------------------------------------------------------------- environments
def params_env(theorem: Theorem, fitted: Fitted) -> dict[str, Any]:
    s, p = theorem.setup, fitted.problem
    env: dict[str, Any] = {}
    for key, val in p.learned.relation_symbols(fitted.theta, MP).items():
        if key in s.learned_symbols:
            env[s.learned_symbols[key].name] = val
    for key, val in p.true.relation_symbols(p.true_theta(MP), MP).items():
        if key in s.true_symbols:
            env[s.true_symbols[key].name] = val
    return env


def domain_envs(theorem: Theorem, fitted: Fitted, base: Env, over: str,
                rng: np.random.Generator) -> list[Env]:
    """The environments a relation is checked in: once, per token, per state, per power j."""
    s, p = theorem.setup, fitted.problem
    if over == "params":
        return [base]
    if over == "powers":
        return [dict(base, j=j) for j in range(0, 4 * p.T + 20)]
    if over == "tokens":
        lo, hi = p.support.token_box()
        axes = [np.linspace(lo[i], hi[i], 21 if p.support.n <= 2 else 3) for i in range(p.support.n)]
        grid = np.array(np.meshgrid(*axes)).reshape(p.support.n, -1).T
        pts = np.concatenate([grid, p.support.tokens(rng, (64,))])
        learned_sym, true_sym = s.token_symbols
        psi = p.learned.token_map(fitted.theta, MP.asarray(pts), MP)
        phi = p.true.token_map(p.true_theta(MP), MP.asarray(pts), MP)
        return [dict(base, **{learned_sym.name: psi[:, :, None], true_sym.name: phi[:, :, None]})]
    if over == "states":
        learned_sym, true_sym = s.state_symbols
        X = MP.asarray(np.concatenate([p.support.tokens(rng, (6, 3 * p.T + 4)),
                                       corner_sequences(p.support, 3 * p.T + 4)]))
        hs = p.learned.states(fitted.theta, X, MP)
        fs = p.true.states(p.true_theta(MP), X, MP)
        return [dict(base, **{learned_sym.name: hs.reshape(-1, hs.shape[-1], 1),
                              true_sym.name: fs.reshape(-1, fs.shape[-1], 1)})]
    raise ValueError(f"unknown domain {over!r}")


def solve_groups(theorem: Theorem, fitted: Fitted, env: dict[str, Any],
                 rng: np.random.Generator) -> dict[str, str]:
    """Evaluate or solve every group element into env; returns how each was obtained."""
    how = {}
    for g in theorem.groups:
        if g.definition is not None:
            env[g.symbol.name] = evaluate(g.definition, env)
            how[g.symbol.name] = f"{g.symbol.name} := {sp.sstr(g.definition)} (as the paper defines it)"
            continue
        eqs = [(lhs, rhs, domain_envs(theorem, fitted, env, over, rng)) for lhs, rhs, over in g.equations]
        shape = (int(g.symbol.shape[0].subs(_dims(fitted))), int(g.symbol.shape[1].subs(_dims(fitted))))
        solved = solve_linear(g.symbol, eqs, shape)
        env[g.symbol.name] = project(solved.value, g.group)
        how[g.symbol.name] = f"{g.symbol.name} solved by least squares in {g.group}"
    return how


def _dims(fitted: Fitted) -> dict[sp.Symbol, int]:
    p = fitted.problem
    return {sp.Symbol("n"): p.learned.n, sp.Symbol("m"): p.learned.m,
            sp.Symbol("k"): getattr(p.true, "k", p.true.n),
            sp.Symbol("kt"): getattr(p.learned, "k", p.learned.n)}


# ----------------------------------------------------------------------------- claims
def decide_symbolic(claim: SymbolicStep) -> tuple[Verdict, str, str]:
    result = claim.check()
    if is_zero(result):
        return Verdict.CERTIFIED, "0", "exact: sympy simplifies the residual to zero"
    return Verdict.REFUTED, describe(result), "exact: sympy residual is not zero"


def decide_relation(theorem: Theorem, claim: Relation, fitted: Fitted, env: Env,
                    rng: np.random.Generator) -> tuple[Verdict, str, str, Erratum | None]:
    dps, tol = fitted.dps, zero_tol(fitted.dps)
    envs = domain_envs(theorem, fitted, env, claim.over, rng)
    groups = {g.symbol.name for g in theorem.groups}
    try:
        res = relation_residual(claim.lhs, claim.rhs, envs)
    except Undefined as exc:
        found = find_erratum(claim.lhs, claim.rhs, envs, groups, tol)
        err = None
        if found:
            err = Erratum(claim.statement(), found[0], mp.nstr(found[1], 3),
                          f"printed relation undefined ({exc}); {found[2]}")
        return Verdict.INCONCLUSIVE, "undefined", f"undefined as printed: {exc}", err
    if res <= tol:
        ub = certify.relation_upper(claim.lhs, claim.rhs, envs, dps)
        scale = max(mp.mpf(1), max(mp_abs_max(evaluate(claim.rhs, e)) for e in envs))
        if ub <= tol * scale:
            return (Verdict.CERTIFIED, mp.nstr(res, 3),
                    f"ball bound {mp.nstr(ub, 3)} <= {mp.nstr(tol * scale, 3)} on the fitted "
                    f"parameters at {dps} digits, over {claim.over}", None)
        return (Verdict.CONFIRMED, mp.nstr(res, 3), f"residual <= {mp.nstr(tol, 3)} at {dps} digits",
                None)
    if res >= REFUTE_GAP:
        found = find_erratum(claim.lhs, claim.rhs, envs, groups, tol)
        err = None
        if found:
            err = Erratum(claim.statement(), found[0], mp.nstr(found[1], 3), found[2])
        return (Verdict.REFUTED, mp.nstr(res, 3),
                f"relative residual {mp.nstr(res, 3)} on a fit with training residual "
                f"{mp.nstr(fitted.fit.residual, 3)} ({claim.over}, {dps} digits)", err)
    return (Verdict.INCONCLUSIVE, mp.nstr(res, 3),
            f"residual {mp.nstr(res, 3)} is neither <= {mp.nstr(tol, 3)} nor >= {REFUTE_GAP}", None)


def test_sequences(p: Problem, kind: str, rng: np.random.Generator) -> list[np.ndarray]:
    """TS-L (lengths beyond T, per-token marginal tokens) or TS-C (t <= T, product tokens, corners)."""
    lengths = test_lengths(p.T) if kind == "length" else list(range(1, p.T + 1))
    out = []
    for L in lengths:
        N = 6 if L <= 100 else 2
        if kind == "compositional":
            N = 2 * p.n_per_length // max(1, p.T)
        out.append(np.concatenate([p.support.tokens(rng, (N, L), beyond=kind == "length"),
                                   corner_sequences(p.support, L)]))
    return out


def decide_generalization(claim: Generalization, fitted: Fitted,
                          rng: np.random.Generator) -> tuple[Verdict, str, str]:
    p, dps, tol = fitted.problem, fitted.dps, zero_tol(fitted.dps)
    seqs = test_sequences(p, claim.kind, rng)
    worst, count = mp.mpf(0), 0
    with mp.workdps(dps):
        for X in seqs:
            zh, zf = p.compare(fitted.theta, X)
            scale = max(mp.mpf(1), mp_abs_max(zf))
            worst = max(worst, mp_abs_max(zh - zf) / scale)
            count += X.shape[0]
    longest = max(X.shape[1] for X in seqs)
    where = (f"{count} sequences, lengths {seqs[0].shape[1]}..{longest}, {dps} digits, "
             f"{'logits' if p.injective else 'outputs'} compared")
    if worst >= REFUTE_GAP:
        return Verdict.REFUTED, mp.nstr(worst, 3), f"max relative logit gap {mp.nstr(worst, 3)} ({where})"
    if worst > tol:
        return Verdict.INCONCLUSIVE, mp.nstr(worst, 3), f"gap {mp.nstr(worst, 3)} between thresholds"
    lo, hi = p.support.token_box()
    bound = certify.markov_sup_bound(p.learned, fitted.theta, p.true, p.true_theta(MP), longest,
                                     np.maximum(np.abs(lo), np.abs(hi)), dps)
    # every readout here is 1-Lipschitz, so the logit bound also bounds the outputs
    if bound is not None and bound <= tol:
        return (Verdict.CERTIFIED, mp.nstr(worst, 3),
                f"ball bound {mp.nstr(bound, 3)} on sup|logit_h - logit_f| over every sequence of "
                f"length <= {longest} with tokens in the support box (Markov parameters)")
    return Verdict.CONFIRMED, mp.nstr(worst, 3), f"confirmed at {count} samples ({where})"


def local_id(fitted: Fitted, rng: np.random.Generator) -> LocalId:
    p = fitted.problem
    with mp.workdps(fitted.dps):
        J_train = p.residual_jacobian(fitted.theta, MP)
        tests = [p.support.tokens(rng, (3, L)) for L in (p.T + 1, 2 * p.T + 1)]
        J_test = np.concatenate([
            p.learned.jacobian(fitted.theta, MP.asarray(X), MP).reshape(-1, p.learned.n_params)
            for X in tests])
    return local_identifiability(J_train, J_test, fitted.dps)


def gauge_basis(fitted: Fitted) -> np.ndarray:
    """Tangent of the learned family's continuous symmetry orbit at the fit (float64)."""
    return fitted.problem.learned.gauge_tangent(np.array([float(v) for v in fitted.theta]))


# ----------------------------------------------------------------------------- driver
def fit_theorem(theorem: Theorem, params: Mapping[str, Any], *, dps: int, seed: int) -> Fitted:
    problem = build_problem(theorem, params, seed=seed, dps=dps)
    return Fitted(problem, fit(problem, dps=dps, seed=seed), dps, seed)


def check(theorem: Theorem, overrides: Mapping[str, Any] | None = None, *, dps: int = 60,
          seed: int = 0) -> TheoremResult:
    """Decide every claim of ``theorem`` at these parameters."""
    t_start = time.perf_counter()
    params = theorem.params.resolve(overrides)
    results: list[ClaimResult] = []
    errata: list[Erratum] = []
    diag: dict[str, Any] = {"timings_s": {}}
    timings = diag["timings_s"]
    rng = np.random.default_rng(seed + 1)
    is_default = not overrides

    def add(claim: Claim, verdict: Verdict, residual: str | None, how: str) -> None:
        expected = theorem.expect.get(claim.name) if is_default else None
        results.append(ClaimResult(claim.name, claim.statement(), claim.role, verdict, residual,
                                   how, expected))

    t0 = time.perf_counter()
    for claim in theorem.claims:
        if isinstance(claim, SymbolicStep):
            v, res, how = decide_symbolic(claim)
            add(claim, v, res, how)
    timings["sympy"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    for claim in theorem.claims:
        if isinstance(claim, Computed):
            v, res, how = claim.run(params)
            add(claim, Verdict(v), res, how)
    timings["computed"] = time.perf_counter() - t0

    numeric = [c for c in theorem.claims if not isinstance(c, (SymbolicStep, Computed))]
    if numeric and theorem.setup is not None:
        t0 = time.perf_counter()
        with mp.workdps(dps):
            fitted = fit_theorem(theorem, params, dps=dps, seed=seed)
        timings["fit"] = time.perf_counter() - t0
        f = fitted.fit
        diag["fit"] = {"converged": f.converged, "train_residual": f.residual and mp.nstr(f.residual, 3),
                       "float64_residual": f.f64_residual, "restarts_tried": f.restarts,
                       "restart_used": f.restart_used, "mp_iterations": f.mp_iterations,
                       "reason": f.reason}
        if not f.converged:
            for claim in numeric:
                add(claim, Verdict.INCONCLUSIVE, None, f"fit did not converge: {f.reason}")
        else:
            with mp.workdps(dps):
                t0 = time.perf_counter()
                env = params_env(theorem, fitted)
                diag["groups"] = solve_groups(theorem, fitted, env, rng)
                for claim in numeric:
                    if isinstance(claim, Relation):
                        v, res, how, err = decide_relation(theorem, claim, fitted, env, rng)
                        add(claim, v, res, how)
                        if err is not None:
                            errata.append(err)
                timings["identify"] = time.perf_counter() - t0
                t0 = time.perf_counter()
                for claim in numeric:
                    if isinstance(claim, Generalization):
                        add(claim, *decide_generalization(claim, fitted, rng))
                timings["tests"] = time.perf_counter() - t0
                t0 = time.perf_counter()
                lid = local_id(fitted, rng)
                gauge = int(np.linalg.matrix_rank(gauge_basis(fitted), tol=1e-8))
                null = len(lid.train.singular_values) - lid.train.rank
                diag["local_identifiability"] = (
                    lid.summary() + f"; null(J_train) dim {null} vs the family's symmetry orbit dim {gauge}"
                    + (" (only the symmetry)" if null == gauge else " (more than the symmetry)"))
                timings["local_id"] = time.perf_counter() - t0
    order = {c.name: i for i, c in enumerate(theorem.claims)}
    results.sort(key=lambda r: order[r.name])
    conclusions = [r.verdict for r in results if r.role in ("conclusion", "proof-step")]
    return TheoremResult(
        id=theorem.id, verdict=combine(conclusions), claims=results, errata=errata, dps=dps,
        seed=seed, params=params, elapsed_s=time.perf_counter() - t_start, diagnostics=diag,
        violated_assumptions=theorem.violated(params),
    )
