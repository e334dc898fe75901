"""Decide identification relations (``lhs = rhs`` between learned and true objects) on a fitted learner.

A relation is evaluated at the fitted parameters (a point: exact decimals) and on a ball around them
whose radius is the fit's distance to an exact zero-risk learner (proven by an interval existence proof
where the family allows one, estimated otherwise, see :mod:`proofkit.certificates.fiterror`). It is

* refuted when the residual is resolvably non-zero: the ball's lower bound is positive (certified when
  the radius is proven, else only when the residual exceeds its propagated fit error REFUTE_MARGIN-fold);
* certified when a ball bound at the fitted learner is at most ZERO_TOL over the whole named domain;
* confirmed when that holds at the sampled points of a domain the bound does not cover;
* inconclusive otherwise, and whenever the relation is undefined as printed.

A printed relation that fails while a nearby one holds is reported as an erratum, except for a control:
a control is false on purpose, so its failure is the check biting, never a misprint (no erratum search).

A relation over the states (``over="states"``), linear in them, between families linear in their
inputs is bounded over every length t >= 1 and every token sequence in the support's box
(:mod:`proofkit.certificates.certify_states`): over the fit's parameter ball where that bound is tight
enough, else at
the fitted learner; otherwise it stays confirmed at its sampled sequences, with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import mpmath as mp
import numpy as np
import sympy as sp

from ..certificates import certify
from ..certificates.certify_features import token_relation_bound
from ..certificates.certify_states import StatesOutcome, guard_digits, states_relation_bound
from ..language.spec import Relation, Theorem
from ..language.tolerances import REFUTE_MARGIN, ZERO_TOL, fmt
from ..language.verdict import Erratum, Verdict
from ..numerics import balls
from ..numerics.backend import ARB, MP, mp_abs_max
from .identify import Env, Undefined, describe_element, evaluate, find_erratum, project, solve_linear
from .problem import Problem
from .support import corner_sequences


@dataclass
class Domain:
    """The points a relation is checked at and the words that name them."""

    over: str
    points: Any  # None (params), a token array (G, n), a sequence array (N, t, n) or a range of j
    words: str
    continuum: bool = False  # True when a bound over the whole named domain exists (params, powers)


def domain(problem: Problem, over: str, rng: np.random.Generator) -> Domain:
    """Sample the points of a relation's domain once (the same points serve the point and ball runs)."""
    if over == "params":
        return Domain(over, None, "the parameters (one matrix identity)", continuum=True)
    if over == "powers":
        J = 4 * problem.T + 20
        return Domain(over, range(J), f"every power j = 0..{J - 1} (not all j)", continuum=True)
    if over == "tokens":
        lo, hi = problem.support.token_box()
        n = problem.support.n
        axes = [np.linspace(lo[i], hi[i], 21 if n <= 2 else 3) for i in range(n)]
        grid = np.array(np.meshgrid(*axes)).reshape(n, -1).T
        pts = np.concatenate([grid, problem.support.tokens(rng, (64,))])
        return Domain(over, pts, f"{len(pts)} tokens of the box (a grid and 64 random)")
    if over == "states":
        L = 3 * problem.T + 4
        X = np.concatenate([problem.support.tokens(rng, (6, L)), corner_sequences(problem.support, L)])
        return Domain(over, X, f"every position of {len(X)} sequences of length {L}")
    raise ValueError(f"unknown domain {over!r}")


def params_env(theorem: Theorem, problem: Problem, theta: np.ndarray, ops: Any) -> dict[str, Any]:
    """Learned and true parameter-level objects under the theorem's symbol names."""
    s = theorem.setup
    env: dict[str, Any] = {}
    for key, val in problem.learned.relation_symbols(theta, ops).items():
        if key in s.learned_symbols:
            env[s.learned_symbols[key].name] = val
    for key, val in problem.true.relation_symbols(problem.true_theta(ops), ops).items():
        if key in s.true_symbols:
            env[s.true_symbols[key].name] = val
    return env


def domain_envs(theorem: Theorem, problem: Problem, theta: np.ndarray, ops: Any, base: Env,
                dom: Domain) -> list[Env]:
    """The environments of a relation on its domain, evaluated in ``ops`` (mpmath or arb)."""
    s = theorem.setup
    if dom.over == "params":
        return [base]
    if dom.over == "powers":
        return [dict(base, j=j) for j in dom.points]
    if dom.over == "tokens":
        lsym, tsym = s.token_symbols
        psi = problem.learned.token_map(theta, ops.asarray(dom.points), ops)
        phi = problem.true.token_map(problem.true_theta(ops), ops.asarray(dom.points), ops)
        return [dict(base, **{lsym.name: psi[:, :, None], tsym.name: phi[:, :, None]})]
    lsym, tsym = s.state_symbols
    X = ops.asarray(dom.points)
    hs = problem.learned.states(theta, X, ops)
    fs = problem.true.states(problem.true_theta(ops), X, ops)
    return [dict(base, **{lsym.name: hs.reshape(-1, hs.shape[-1], 1),
                          tsym.name: fs.reshape(-1, fs.shape[-1], 1)})]


def solve_groups(theorem: Theorem, problem: Problem, theta: np.ndarray, env: dict[str, Any],
                 dims: Mapping[sp.Symbol, int], rng: np.random.Generator) -> dict[str, str]:
    """Evaluate (by definition) or solve (least squares, projected to the group) every group element
    into ``env`` at the fitted point. An element that is undefined (inverse of a non-square or singular
    matrix) is left out of ``env`` and its reason returned; relations naming it are inconclusive."""
    how = {}
    for g in theorem.groups:
        name = g.symbol.name
        try:
            if g.definition is not None:
                env[name] = evaluate(g.definition, env)
                how[name] = f"{name} := {sp.sstr(g.definition)} (as the paper defines it)"
                continue
            eqs = [(lhs, rhs, domain_envs(theorem, problem, theta, MP, env, domain(problem, over, rng)))
                   for lhs, rhs, over in g.equations]
            shape = (int(g.symbol.shape[0].subs(dims)), int(g.symbol.shape[1].subs(dims)))
            estimate = solve_linear(g.symbol, eqs, shape).value
            env[name] = project(estimate, g.group)
            how[name] = f"{name} solved by least squares in {g.group}"
            if g.group not in ("GL", "diagonal"):
                how[name] += (f": {name} = {describe_element(env[name])} (assignment on |entries|, exact "
                              f"0/+-1 entries; the estimate is {fmt(mp_abs_max(estimate - env[name]))} "
                              "from it)")
        except (Undefined, ZeroDivisionError) as exc:
            how[name] = f"{name} undefined: {exc}"
    return how


def _residual(lhs: sp.Basic, rhs: sp.Basic, envs: list[Env]) -> tuple[Any, Any]:
    """(max |lhs - rhs| entry, max(1, max |rhs|)) over the environments, in the envs' number type."""
    worst, scale = None, None
    for env in envs:
        a, b = evaluate(lhs, env), evaluate(rhs, env)
        if np.shape(a) != np.shape(b):
            raise Undefined(f"shapes differ: {np.shape(a)} vs {np.shape(b)}")
        for v in np.ravel(a - b):
            worst = abs(v) if worst is None else _max(worst, abs(v))
        for v in np.ravel(b):
            scale = abs(v) if scale is None else _max(scale, abs(v))
    return worst, scale


def _max(a: Any, b: Any) -> Any:
    return a.max(b) if hasattr(a, "max") and not isinstance(a, mp.mpf) else max(a, b)


@dataclass
class Decision:
    verdict: Verdict
    residual: str
    how: str
    erratum: Erratum | None = None
    #: the continuum domain a certificate covered, where it is wider than the sampled domain (e.g. every
    #: length t >= 1 for a states relation), in words fit to print after the claim's statement
    scope: str = ""


def _erratum(claim: Relation, envs: list[Env], groups: set[str]) -> tuple[str, mp.mpf, str] | None:
    """The nearby relation that holds where the printed one fails (:func:`find_erratum`); never for a
    control, whose failure is the point of it."""
    if claim.role == "control":
        return None
    return find_erratum(claim.lhs, claim.rhs, envs, groups, ZERO_TOL)


def decide(theorem: Theorem, claim: Relation, problem: Problem, theta: np.ndarray, env: Env,
           ball_theta: np.ndarray, radius_how: str, proven: bool, fit_residual: mp.mpf,
           rng: np.random.Generator, undefined: Mapping[str, str]) -> Decision:
    """Decide one relation (see the module docstring). ``ball_theta``: arb balls containing an exact
    zero-risk learner (``proven``) or the fit-error estimate around the fitted point."""
    dom = domain(problem, claim.over, rng)
    groups = {g.symbol.name for g in theorem.groups}
    envs = domain_envs(theorem, problem, theta, MP, env, dom)
    missing = [name for name in undefined if name in {s.name for s in claim.lhs.free_symbols
                                                         | claim.rhs.free_symbols}]
    try:
        if missing:
            raise Undefined("; ".join(undefined[m] for m in missing))
        worst, scale = _residual(claim.lhs, claim.rhs, envs)
    except (Undefined, ZeroDivisionError) as exc:
        found = _erratum(claim, envs, groups)
        err = None
        if found:
            err = Erratum(claim.statement(), found[0], fmt(found[1]),
                          f"printed relation undefined ({exc}); {found[2]}")
        return Decision(Verdict.INCONCLUSIVE, "undefined", f"undefined as printed: {exc}", err)
    res = worst / max(mp.mpf(1), scale)
    where = f"over {dom.words}"
    lo, hi = _ball_residual(theorem, claim, problem, ball_theta, env, dom, undefined)
    if lo is not None and lo > 0 and res > 0 and (proven or res >= REFUTE_MARGIN * (hi - lo) / 2):
        found = _erratum(claim, envs, groups)
        err = Erratum(claim.statement(), found[0], fmt(found[1]), found[2]) if found else None
        cert = ("certified: the relation fails on the whole ball, which contains an exact zero-risk "
                "learner" if proven else
                f"uncertified: the residual exceeds its propagated fit error ({fmt((hi - lo) / 2)}) "
                f"{fmt(REFUTE_MARGIN)}-fold")
        return Decision(Verdict.REFUTED, fmt(res),
                        f"relative residual {fmt(res)} {where} on a fit with training residual "
                        f"{fmt(fit_residual)}; {radius_how}; {cert}", err)
    if res <= ZERO_TOL:
        if dom.over == "tokens":
            lo_box, hi_box = problem.support.token_box()
            tb = token_relation_bound(claim.lhs, claim.rhs, theorem.setup, problem.learned, theta,
                                      problem.true, problem.true_theta(MP), env, lo_box, hi_box,
                                      problem.dps, theorem.groups)
            if tb is not None and tb.value <= ZERO_TOL:
                return Decision(Verdict.CERTIFIED, fmt(res),
                                f"ball bound {fmt(tb.value)} <= {fmt(ZERO_TOL)} on sup |lhs - rhs| over "
                                f"{tb.domain} at the fitted learner ({tb.how}); sampled max {fmt(res)}")
        gap = "no bound covers the continuum between them"
        if dom.over == "states":
            sb, words = _states_certificate(theorem, claim, problem, theta, env, ball_theta, proven,
                                            undefined)
            if sb.bound is not None:
                covered = f"{sb.bound.domain}, {words}"
                return Decision(Verdict.CERTIFIED, fmt(res),
                                f"ball bound {fmt(sb.bound.value)} <= {fmt(ZERO_TOL)} on sup |lhs - rhs| "
                                f"over {covered} ({sb.bound.how}); sampled max {fmt(res)} {where}"
                                + (f"; not over the fit's parameter ball: {sb.reason}" if sb.reason else ""),
                                scope=covered)
            gap = f"no all-length bound: {sb.reason}"
        ub = certify.relation_upper(claim.lhs, claim.rhs, envs, problem.dps)
        if ub <= ZERO_TOL * max(mp.mpf(1), scale):
            verdict = Verdict.CERTIFIED if dom.continuum else Verdict.CONFIRMED
            scope = "" if dom.continuum else f"; confirmed at these samples only: {gap}"
            return Decision(verdict, fmt(res),
                            f"ball bound {fmt(ub)} <= {fmt(ZERO_TOL)} (x max(1, |rhs|)) at the fitted "
                            f"learner {where}{scope}")
        return Decision(Verdict.CONFIRMED, fmt(res), f"residual <= {fmt(ZERO_TOL)} {where}, "
                        f"ball bound {fmt(ub)} too loose to certify"
                        + ("" if dom.continuum else f"; {gap}"))
    return Decision(Verdict.INCONCLUSIVE, fmt(res),
                    f"residual {fmt(res)} {where} is above {fmt(ZERO_TOL)} but not resolvably "
                    f"non-zero against the fit error ({radius_how})")


def _ball_residual(theorem: Theorem, claim: Relation, problem: Problem, ball_theta: np.ndarray,
                   env: Env, dom: Domain, undefined: Mapping[str, str]) -> tuple[Any, Any]:
    """(lower, upper) bounds of the relative residual over the parameter ball; (None, None) when the
    relation cannot be evaluated on balls (e.g. a group element not provably invertible there)."""
    with balls.arb_precision(problem.dps):
        try:
            benv = _ball_env(theorem, problem, ball_theta, env, undefined)
            envs = domain_envs(theorem, problem, ball_theta, ARB, benv, dom)
            worst, scale = _residual(claim.lhs, claim.rhs, envs)
        except (Undefined, ZeroDivisionError, ValueError):
            return None, None
        s_hi = max(mp.mpf(1), balls.upper(scale))
        s_lo = max(mp.mpf(1), balls.lower(scale))
        return balls.lower(worst) / s_hi, balls.upper(worst) / s_lo


def _ball_env(theorem: Theorem, problem: Problem, ball_theta: np.ndarray, env: Env,
              undefined: Mapping[str, str]) -> dict[str, Any]:
    """The parameter-level symbols in balls over the learned parameters ``ball_theta``: learned and true
    matrices from the families (true ones from their exact decimals), group elements with a definition
    re-evaluated there, solved ones at their fitted value (the relation is decided for exactly that
    value), undefined ones left out. Call inside ``balls.arb_precision``; raises Undefined,
    ZeroDivisionError or ValueError where a definition cannot be evaluated on the whole ball (e.g. an
    inverse that is not provably invertible there)."""
    benv = params_env(theorem, problem, ball_theta, ARB)
    for g in theorem.groups:
        if g.symbol.name in undefined:
            continue
        benv[g.symbol.name] = (evaluate(g.definition, benv) if g.definition is not None
                               else ARB.asarray(env[g.symbol.name]))
    return benv


def _states_certificate(theorem: Theorem, claim: Relation, problem: Problem, theta: np.ndarray, env: Env,
                        ball_theta: np.ndarray, proven: bool, undefined: Mapping[str, str]
                        ) -> tuple[StatesOutcome, str]:
    """An all-length bound <= ZERO_TOL of a states relation (:mod:`proofkit.certificates.certify_states`) and
    the
    words naming the parameters it holds for: first over the fit's parameter ball (which contains an
    exact zero-risk learner when ``proven``), then, if that ball is too wide, at the fitted learner (the
    point the other relations are certified at). The outcome's reason names the attempts that failed."""
    lsym, tsym = theorem.setup.state_symbols
    lo, hi = problem.support.token_box()
    ball_words = ("over the fit's parameter ball (which contains an exact zero-risk learner)" if proven
                  else "over the fit's parameter ball (estimated fit error, not proven)")
    guard = guard_digits(problem.learned, theta, problem.true, problem.true_theta(MP))
    reasons: list[str] = []
    for th, words in ((ball_theta, ball_words), (ARB.asarray(theta), "at the fitted learner")):
        # the true decimals and the group elements become balls at the guarded precision
        with balls.arb_precision(problem.dps + guard):
            theta_f = problem.true_theta(ARB)
            try:
                benv = _ball_env(theorem, problem, th, env, undefined)
            except (Undefined, ZeroDivisionError, ValueError) as exc:
                reasons.append(f"the relation cannot be evaluated in balls {words} ({exc})")
                continue
        out = states_relation_bound(claim.lhs, claim.rhs, (lsym.name, tsym.name), problem.learned, th,
                                    problem.true, theta_f, benv, lo, hi, problem.dps, guard)
        if out.bound is not None and out.bound.value <= ZERO_TOL:
            return StatesOutcome(out.bound, "; ".join(reasons)), words
        if out.bound is not None:
            reasons.append(f"{words} the all-length ball bound is {fmt(out.bound.value)}, above "
                           f"{fmt(ZERO_TOL)}")
            continue
        reasons.append(out.reason)
        if not out.reason.startswith("the relation cannot be evaluated"):
            break  # not linear, no state readout, no geometric tail: the same at every parameter
    return StatesOutcome(None, "; ".join(reasons)), ""
