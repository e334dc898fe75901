"""Check a theorem at one parameter set: fit h to f, then decide every claim on its own.

Stages: resolve parameters -> sympy proof steps -> computed claims -> fit (float64 then mpmath) ->
reduce an over-parametrized learner to an exactly equivalent one without stray modes -> the fit's
distance to an exact zero-risk learner -> group elements -> identification relations (with erratum
search, tautology and control flags) -> generalization -> local identifiability -> TheoremResult.
What each verdict proves is written in docs/verdicts.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import mpmath as mp
import numpy as np
import sympy as sp

from ..certificates import existence
from ..certificates.fiterror import inflate, param_radius
from ..errors import InputError
from ..families import LinearRecurrence
from ..families.realization import decouple
from ..language import registry
from ..language.evidence import AT_FIT, Evidence, Method, Scope
from ..language.evidence import decide as decide_evidence
from ..language.spec import Claim, Computed, Generalization, Relation, SymbolicStep, Theorem
from ..language.tolerances import FIT_TOL, effective_dps, fmt
from ..language.verdict import ClaimResult, Erratum, TheoremResult, Verdict, combine
from ..numerics.backend import MP, mp_abs_max
from ..runtime import progress
from . import costguard, generalization, relations
from .fit import FitResult, fit, polish
from .localid import LocalId, local_identifiability
from .problem import Problem, build_problem
from .symbolic import decide as decide_symbolic
from .tautology import by_definition


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


def fit_theorem(theorem: Theorem, params: Mapping[str, Any], *, dps: int, seed: int) -> Fitted:
    problem = build_problem(theorem, params, seed=seed, dps=dps)
    return Fitted(problem, fit(problem, dps=dps, seed=seed, tol=FIT_TOL), dps, seed)


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


def reduce_learner(p: Problem, theta: np.ndarray, dps: int) -> tuple[np.ndarray, tuple | None, str]:
    """An over-parametrized linear recurrence fits with stray modes coupled at the fit residual; if
    they are unstable they amplify it without bound. Set their couplings to exact zeros, re-polish
    the minimal part, and keep the result when its training residual is at most FIT_TOL. Returns
    (parameters to decide on, (family, parameters) of an exactly equivalent minimal part, how)."""
    if not isinstance(p.learned, LinearRecurrence):
        return theta, None, ""
    with mp.workdps(dps):
        dec = decouple(p.learned, theta)
        if dec is None:
            return theta, (p.learned, theta), ""
        small = LinearRecurrence(p.learned.n, dec.order, p.learned.m)
        sub = replace(p, learned=small)
        th_min, res, _ = polish(sub, np.array([float(v) for v in dec.minimal]), dps, FIT_TOL)
        # polish from the float64 start loses digits; restart from the exact minimal part if better
        res0 = mp_abs_max(sub.residual(dec.minimal, MP))
        if res0 <= res:
            th_min, res = dec.minimal, res0
        if res > FIT_TOL:
            return theta, None, (f"decoupling the stray modes ({'; '.join(dec.removed)}) raised the "
                                 f"training residual to {fmt(res)}: kept the fitted learner")
        full = dec.embed(p.learned, th_min)
    return full, (small, th_min), (
        f"fitted learner (state dim {p.learned.k}) reduced to an exactly equivalent one: "
        f"{'; '.join(dec.removed)}; its minimal part (state dim {dec.order}) re-polished to training "
        f"residual {fmt(res)}")


def fit_ball(p: Problem, theta: np.ndarray, dps: int) -> tuple[np.ndarray, bool, str]:
    """Parameter balls around the fitted learner that contain an exact zero-risk learner: proven by an
    interval existence proof where the family allows one (Markov equations, injective readout), else
    the fit error estimated (:mod:`proofkit.certificates.fiterror`). Returns (balls, proven, how)."""
    if hasattr(p.learned, "markov_jacobian") and p.injective:
        proof = existence.zero_risk_ball_markov(p.learned, theta, p.true, [str(v) for v in p.theta_true],
                                                p.T, dps, fixed_digits=dps,
                                                columns=p.support.free_coordinates())
        if proof:
            return proof.box, True, proof.how
    radius = param_radius(p, theta)
    return inflate(theta, radius), False, (f"fit-error radius {fmt(radius)} estimated as "
                                           "1e3 x max(|J^+ r|, sqrt(max|r|)), not proven")


def check(theorem: Theorem, overrides: Mapping[str, Any] | None = None, *, dps: int = 60,
          seed: int = 0) -> TheoremResult:
    """Decide every claim of ``theorem`` at these parameters."""
    dps = effective_dps(dps)
    t_start = time.perf_counter()
    params = theorem.params.resolve(overrides)
    defaults = theorem.params.defaults()
    costguard.guard(theorem, params)
    violated = theorem.violated(params)
    results: list[ClaimResult] = []
    errata: list[Erratum] = []
    flags: list[str] = []
    diag: dict[str, Any] = {"timings_s": {}}
    timings = diag["timings_s"]
    rng = np.random.default_rng(seed + 1)
    is_default = not overrides

    def add(claim: Claim, verdict: Verdict, residual: str | None, how: str, scope: Scope,
            note: str = "", error: str = "", certificate: Any = None) -> None:
        expected = theorem.expect.get(claim.name) if is_default else None
        results.append(ClaimResult(claim.name, claim.statement(), claim.role, verdict, residual, how,
                                   expected, note=note, scope=scope, error=error, certificate=certificate))

    t0 = time.perf_counter()
    progress.stage(f"{theorem.id}: sympy steps")
    for claim in theorem.claims:
        if isinstance(claim, SymbolicStep):
            add(claim, *decide_own(claim, params))
    timings["sympy"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    progress.stage(f"{theorem.id}: computed claims")
    for claim in theorem.claims:
        if isinstance(claim, Computed):
            add(claim, *decide_own(claim, params))
    timings["computed"] = time.perf_counter() - t0

    numeric = [c for c in theorem.claims if not isinstance(c, (SymbolicStep, Computed))]
    if numeric and theorem.setup is not None:
        _check_numeric(theorem, params, numeric, dps, seed, rng, add, errata, diag)
    order = {c.name: i for i, c in enumerate(theorem.claims)}
    results.sort(key=lambda r: order[r.name])
    for r in results:
        r.outside = bool(violated)
    for r in results:
        if r.role == "control" and r.verdict != Verdict.REFUTED:
            flags.append(f"control not biting here: '{r.name}' is {r.verdict} at these parameters, so "
                         "it does not show that its check can fail")
            r.note = (r.note + "; " if r.note else "") + "control not biting here"
    verdict, reason = theorem_verdict(results, violated)
    if reason:
        flags.append(reason)
    return TheoremResult(
        id=theorem.id, verdict=verdict, claims=results, errata=errata, dps=dps, seed=seed, params=params,
        elapsed_s=time.perf_counter() - t_start, diagnostics=diag, violated_assumptions=violated,
        flags=flags, overrides={k: v for k, v in params.items() if v != defaults[k]},
    )


Own = tuple[Verdict, Any, str, Scope, str, str, Any]


def decide_own(claim: SymbolicStep | Computed, params: Mapping[str, Any]) -> Own:
    """Decide a claim that carries its own code (a sympy step or a computation) at ``params``:
    (verdict, residual, how, scope, note, error, certificate). A Computed claim's evidence is decided by
    :func:`proofkit.language.evidence.decide`; a sympy step by :func:`proofkit.engine.symbolic.decide`; code
    that raises
    gives ``error`` (no verdict)."""
    if isinstance(claim, SymbolicStep):
        out = _guarded(lambda: decide_symbolic(claim.check()))
        if isinstance(out, _Raised):
            return out.parts(claim)
        v, res, how = out
        return v, res, how, _symbolic_scope(claim, v, how), "", "", None
    out = _guarded(lambda: claim.run(params))
    if isinstance(out, _Raised):
        return out.parts(claim)
    if isinstance(out, Evidence):
        d = decide_evidence(out, claim.reading)
        return d.verdict, d.residual, d.how, d.scope, "", "", d.certificate
    return _legacy(claim, out)


@dataclass(frozen=True)
class _Raised:
    """A claim's own code raised: an internal error, never a verdict."""

    error: str

    def parts(self, claim: Claim) -> Own:
        return (Verdict.INCONCLUSIVE, None, f"error: the claim's code raised {self.error}",
                Scope(reading=claim.reading, evidence="none: the claim's code raised"), "", self.error, None)


def _guarded(run: Callable[[], Any]) -> Any:
    """Run a claim's own code (a theorem file's sympy step or computation, possibly a user's). An
    exception it raises is an internal error of that claim, not a verdict: the other claims still run
    and the check reports the error (``TheoremResult.errors``; the CLI exits 4). Bad parameters
    (InputError) stay errors of the input."""
    try:
        return run()
    except InputError:
        raise
    except Exception as exc:  # the boundary to theorem code: report it, never crash, never a verdict
        return _Raised(f"{type(exc).__name__}: {str(exc)[:200]}")


_LEGACY = "the theorem file's own verdict (a (verdict, residual, how) tuple; not re-derived by the engine)"


def _legacy(claim: Computed, out: Any) -> Own:
    """A Computed claim that returned a (verdict, residual, how) tuple: its verdict is kept, and its
    scope says it is the file's own. Anything else it returned is an internal error of the claim."""
    try:
        v, res, how = out
        verdict = Verdict(v)
    except (TypeError, ValueError):
        return _Raised(f"TypeError: returned {type(out).__name__}, expected proofkit.Evidence"
                       ).parts(claim)
    return verdict, res, how, Scope(reading=claim.reading, evidence=_LEGACY), "", "", None


def _symbolic_scope(claim: SymbolicStep, verdict: Verdict, how: str) -> Scope:
    """A sympy step decides an identity for every value of its symbols (certified), or refutes it at an
    exact or ball-certified point (named in the how-text)."""
    if verdict == Verdict.CERTIFIED:
        return Scope(reading=claim.reading, domain="every value of its symbols their assumptions allow",
                     evidence=str(Method.IDENTITY))
    if verdict == Verdict.REFUTED:
        return Scope(reading=claim.reading, domain="a point of its symbols (in the how-text)",
                     count=1, evidence=str(Method.EXACT))
    return Scope(reading=claim.reading, evidence=str(Method.IDENTITY))


def _numeric_scope(claim: Claim, verdict: Verdict, how: str, domain: str) -> Scope:
    """Relations and generalization are decided on one fitted learner of one true model: certified by
    ball bounds over ``domain``, confirmed at samples, refuted by a ball (certified or not, in the
    how-text)."""
    low = how.lower()
    if verdict == Verdict.CONFIRMED or "uncertified" in low or "sampled" in low and verdict != \
            Verdict.CERTIFIED:
        kind = Method.SAMPLED
    else:
        kind = Method.INTERVAL
    if not domain and isinstance(claim, Relation) and claim.over == "params":
        domain = "the fitted parameters (one matrix identity)"
    return Scope(reading=claim.reading, domain=domain, evidence=str(kind), at=AT_FIT)


#: readings that are not the theorem's statement: they bound what the theorem verdict may say
_NOT_THE_STATEMENT = ("proxy", "experiment", "our reading")


def theorem_verdict(results: list[ClaimResult], violated: list[str]) -> tuple[Verdict, str]:
    """Combine the conclusions and proof steps. Claims that hold by definition are no evidence. A
    conclusion or step read as a proxy, an experiment or proofkit's reading is not the theorem's
    statement: certified there counts as confirmed for the theorem, refuted there as inconclusive (a
    reading refuted says nothing against the statement; the claim itself keeps its verdict). Under
    violated assumptions the proof's steps do not apply, so only the numeric conclusions count (a
    refuted one refutes; holding ones say nothing of every learner) and the verdict is at most
    inconclusive unless something is refuted. Returns (verdict, the reason the verdict was capped, or
    '')."""
    evidence = [r for r in results
                if r.role in ("conclusion", "proof-step") and "by definition" not in r.note]
    capped: list[str] = []

    def counted(r: ClaimResult) -> Verdict:
        reading = getattr(r.scope, "reading", "as printed")
        if reading not in _NOT_THE_STATEMENT or r.verdict in (Verdict.CONFIRMED, Verdict.INCONCLUSIVE):
            return r.verdict
        capped.append(f"'{r.name}' ({reading}, {r.verdict})")
        return Verdict.CONFIRMED if r.verdict == Verdict.CERTIFIED else Verdict.INCONCLUSIVE

    verdicts = [(r.role, counted(r)) for r in evidence]
    why = ("theorem verdict bounded by claims that read the statement as a proxy, an experiment or "
           "proofkit's reading (certified there counts as confirmed, refuted as inconclusive): "
           + ", ".join(capped)) if capped else ""
    if not violated:
        if not evidence:  # say why, rather than a bare "inconclusive" over claims that all hold
            return Verdict.INCONCLUSIVE, ("no claim is evidence for the theorem itself: it has no conclusion "
                                          "or proof-step claim that is decided otherwise than by definition "
                                          "(its identifications and controls keep their own verdicts)")
        return combine([v for _, v in verdicts]), why
    if Verdict.REFUTED in [v for role, v in verdicts if role == "conclusion"]:
        return Verdict.REFUTED, why
    return Verdict.INCONCLUSIVE, "; ".join(filter(None, [why, (
        f"assumptions violated ({', '.join(violated)}): the theorem does not apply, its proof steps are "
        "no evidence here, and a fitted learner that generalizes says nothing of every learner; "
        "`proofkit falsify` (or `scan`) searches for a counterexample")]))


def _check_numeric(theorem: Theorem, params: dict[str, Any], numeric: list[Claim], dps: int, seed: int,
                   rng: np.random.Generator, add: Any, errata: list[Erratum], diag: dict[str, Any]) -> None:
    timings = diag["timings_s"]
    t0 = time.perf_counter()
    progress.stage(f"{theorem.id}: fit (float64 warm start, {dps}-digit polish)")
    with mp.workdps(dps):
        fitted = fit_theorem(theorem, params, dps=dps, seed=seed)
    timings["fit"] = time.perf_counter() - t0
    f = fitted.fit
    diag["fit"] = {"converged": f.converged, "train_residual": f.residual and fmt(f.residual),
                   "float64_residual": f.f64_residual, "restarts_tried": f.restarts,
                   "restart_used": f.restart_used, "mp_iterations": f.mp_iterations, "reason": f.reason}
    if not f.converged:
        for claim in numeric:
            add(claim, Verdict.INCONCLUSIVE, None, f"fit did not converge: {f.reason}",
                Scope(reading=claim.reading, evidence="none: the fit did not converge", at=AT_FIT))
        return
    p = fitted.problem
    with mp.workdps(dps):
        t0 = time.perf_counter()
        progress.stage(f"{theorem.id}: fit error ball")
        theta, minimal, reduced = reduce_learner(p, f.theta, dps)
        if reduced:
            diag["reduction"] = reduced
        fitted = Fitted(p, replace(f, theta=theta), dps, seed)
        train = mp_abs_max(p.residual(theta, MP))
        ball, proven, radius_how = fit_ball(p, theta, dps)
        timings["fit_error"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        progress.stage(f"{theorem.id}: identification relations")
        env = relations.params_env(theorem, p, theta, MP)
        dims = _dims(p)
        group_how = relations.solve_groups(theorem, p, theta, env, dims, rng)
        diag["groups"] = group_how
        undefined = {k: v for k, v in group_how.items() if " undefined: " in v}
        for claim in numeric:
            if isinstance(claim, Relation):
                d = relations.decide(theorem, claim, p, theta, env, ball, radius_how, proven, train, rng,
                                     undefined)
                note = _tautology(theorem, claim)
                how = d.how if not note else f"{note}; not evidence. {d.how}"
                add(claim, d.verdict, d.residual, how, _numeric_scope(claim, d.verdict, d.how, d.scope),
                    note="by definition" if note else "")
                if d.erratum is not None:
                    errata.append(d.erratum)
        timings["identify"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        progress.stage(f"{theorem.id}: generalization suites")
        for claim in numeric:
            if isinstance(claim, Generalization):
                v, res, how, scope = generalization.decide(claim, p, theta, ball, proven, radius_how, rng,
                                                           minimal)
                add(claim, v, res, how, _numeric_scope(claim, v, how, scope))
        timings["tests"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        progress.stage(f"{theorem.id}: local identifiability")
        lid = local_id(fitted, rng)
        gauge = int(np.linalg.matrix_rank(gauge_basis(fitted), tol=1e-8))
        null = len(lid.train.singular_values) - lid.train.rank
        diag["local_identifiability"] = (
            lid.summary() + f"; null(J_train) dim {null} vs the family's symmetry orbit dim {gauge}"
            + (" (only the symmetry)" if null == gauge else " (more than the symmetry)")
            + ("; test outputs locally identified" if lid.identified else
               "; test outputs NOT locally identified (null directions of J_train move them)"))
        timings["local_id"] = time.perf_counter() - t0


def _tautology(theorem: Theorem, claim: Relation) -> str:
    """The reason a relation holds by the definition of its group elements, or ''."""
    try:
        return by_definition(claim.lhs, claim.rhs, theorem.groups) or ""
    except (ValueError, TypeError, KeyError):
        return ""


def _dims(p: Problem) -> dict[sp.Symbol, int]:
    return {sp.Symbol("n"): p.learned.n, sp.Symbol("m"): p.learned.m,
            sp.Symbol("k"): getattr(p.true, "k", p.true.n),
            sp.Symbol("kt"): getattr(p.learned, "k", p.learned.n)}


def check_id(tid: str, dps: int, seed: int) -> TheoremResult:
    """check() of a registered theorem by id at its defaults (a worker's unit for ``check --all -j N``:
    workers get ids, not theorem objects, and load the theorem by path as the registry does)."""
    return check(registry.get(tid), {}, dps=dps, seed=seed)
