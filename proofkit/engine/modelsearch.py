"""The numeric counterexample search at one parameter setting: seeded fits (different minima), null-space
continuation from each exact fit (step along the null direction of J_train that moves the test output
most, project back onto the training manifold), penalty fits, and the exact constructions of
:mod:`proofkit.constructions` before any fit. Every candidate is vetted (stray modes decoupled, the gap
against the fit error); found models are shrunk (smallest dimensions, shortest distinguishing length,
simplest sequence). :mod:`proofkit.engine.falsify` turns the outcome into a certified record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath as mp
import numpy as np

from .. import constructions
from ..certificates.fiterror import inflate, param_radius
from ..errors import InputError
from ..language.spec import Theorem
from ..language.tolerances import FIT_TOL, SEARCH_GAP, fmt
from ..numerics import activation as act
from ..numerics.backend import FLOAT64, MP, mp_abs_max
from ..runtime import progress
from .adversarial import adversarial_sequences
from .check import Fitted, local_id, reduce_learner
from .fit import fit, lm64, polish
from .generalization import ball_gap, robust, sampled_gap, test_sequences
from .problem import Problem, build_problem
from .support import corner_sequences, test_lengths

STRONG_GAP = mp.mpf("1e-3")  # a gap this large ends the search; smaller ones keep it going


def max_gap(problem: Problem, theta: np.ndarray, seqs: Sequence[np.ndarray]) -> mp.mpf:
    """Largest relative gap |h - f| / max(1, |f|) over the given sequence batches: logits for an
    injective readout, outputs otherwise."""
    return sampled_gap(problem, theta, list(seqs))[0]


def continuation(fitted: Fitted, rng: np.random.Generator, seqs: Sequence[np.ndarray],
                 steps: Sequence[float] = (0.3, 0.1, 0.03)) -> tuple[np.ndarray | None, int]:
    """Step along the null direction of J_train that moves J_test most; project back by polishing."""
    lid = local_id(fitted, rng)
    tries = 0
    if lid.leak_direction is None or lid.leak < mp.mpf(10) ** (-(fitted.dps // 3)):
        return None, tries
    v = lid.leak_direction
    p, tol = fitted.problem, fitted.fit.tol
    norm = max(mp.mpf(1), mp_abs_max(fitted.theta))
    for tau in steps:
        for sign in (1, -1):
            tries += 1
            start = fitted.theta + v * (sign * tau * norm)
            th, res, _ = polish(p, np.array([float(x) for x in start]), fitted.dps, tol)
            if res <= tol and max_gap(p, th, seqs) >= SEARCH_GAP:
                return th, tries
    return None, tries


def adversarial(problem: Problem, starts: Sequence[np.ndarray], seqs: Sequence[np.ndarray], dps: int,
                tol: mp.mpf, weight: float = 0.1) -> tuple[np.ndarray | None, int]:
    """Penalty fits: keep the training residual at zero while pulling one test output (a corner sequence
    one step past T) away from the truth; then polish on the training residual alone at dps digits."""
    tries = 0
    L = problem.T + 1
    for X in corner_sequences(problem.support, L)[1:]:
        Xb = X[None]
        yf = problem.true_logits(Xb, FLOAT64)[0]
        yf = yf if problem.injective else act.apply(problem.activation, yf, FLOAT64)
        for r in range(problem.learned.m):
            for sign in (1.0, -1.0):
                target = yf[r] + sign

                def res(th: np.ndarray, r: int = r, target: float = target,
                        Xb: np.ndarray = Xb) -> np.ndarray:
                    z = problem.learned.logits(th, Xb, FLOAT64)[0, r]
                    out = z if problem.injective else act.apply(problem.activation, z, FLOAT64)
                    return np.append(problem.residual(th, FLOAT64), weight * (out - target))

                def jac(th: np.ndarray, r: int = r, Xb: np.ndarray = Xb) -> np.ndarray:
                    J = problem.learned.jacobian(th, Xb, FLOAT64)[0, r]
                    if not problem.injective:
                        z = problem.learned.logits(th, Xb, FLOAT64)[0, r]
                        J = J * act.derivative(problem.activation, np.asarray(z), FLOAT64)
                    return np.vstack([problem.residual_jacobian(th, FLOAT64), weight * J])

                for start in starts:
                    tries += 1
                    x, _ = lm64(res, jac, np.asarray(start, dtype=float))
                    if np.max(np.abs(problem.residual(x, FLOAT64))) > 1e-6:
                        continue
                    th, rmax, _ = polish(problem, x, dps, tol)
                    if rmax <= tol and max_gap(problem, th, seqs) >= SEARCH_GAP:
                        return th, tries
    return None, tries


def shrink_witness(problem: Problem, theta: np.ndarray,
                   seqs: Sequence[np.ndarray]) -> tuple[np.ndarray, mp.mpf, str]:
    """Shortest distinguishing length, then the simplest sequence there (corners, then the adversarial
    sparse / one-hot / vertex / repeated sequences, then random); failing that, the test sequence with the
    largest gap."""
    rng = np.random.default_rng(12345)
    lengths = sorted(set(range(problem.T + 1, 2 * problem.T + 3)) | set(test_lengths(problem.T)))
    kinds = [("compositional", t) for t in range(1, problem.T + 1)] + [("length", t) for t in lengths]
    truth = [(problem.true, problem.theta_true)]
    for kind, L in kinds:
        cands = list(corner_sequences(problem.support, L))
        cands += list(adversarial_sequences(problem.support, L, truth, seed=problem.seed))
        if kind == "length":
            cands += list(problem.support.tokens(rng, (8, L)))
        for X in cands:
            gap = max_gap(problem, theta, [X[None]])
            if gap >= SEARCH_GAP * 1000:
                return X, gap, kind
    best = (mp.mpf(0), None)
    for batch in seqs:
        for X in batch:
            gap = max_gap(problem, theta, [X[None]])
            if gap > best[0]:
                best = (gap, X)
    kind = "length" if best[1].shape[0] > problem.T else "compositional"
    return best[1], best[0], kind


@dataclass
class SearchOutcome:
    problem: Problem
    seqs: list[np.ndarray]
    theta: np.ndarray | None  # the counterexample's learned parameters (largest test gap found)
    strategy: str
    converged: bool
    tol: mp.mpf
    effort: str
    reason: str = ""
    discarded: int = 0
    #: exact learned parameters when a closed-form construction (:mod:`proofkit.constructions`) found it
    exact: list[str] | None = None


@dataclass
class Vetted:
    """A candidate counterexample after vetting: reduced (stray modes decoupled), its shortest
    distinguishing witness, and whether its gap survives the fit error propagated through the model."""

    theta: np.ndarray
    X: np.ndarray
    gap: mp.mpf
    kind: str
    survives: bool
    how: str


def vet(problem: Problem, theta: np.ndarray, seqs: Sequence[np.ndarray], dps: int) -> Vetted | None:
    """None when the candidate's gap disappears once its stray modes are decoupled (it was the fit
    error amplified); else the vetted candidate."""
    th, _, _ = reduce_learner(problem, theta, dps)
    if max_gap(problem, th, seqs) < SEARCH_GAP:
        return None
    X, gap, kind = shrink_witness(problem, th, seqs)
    radius = param_radius(problem, th)
    lo, hi = ball_gap(problem, inflate(th, radius), X)
    ok = robust(lo, hi, gap, False)
    how = (f"gap {fmt(gap)} at a length-{X.shape[0]} witness; with the parameters widened to the "
           f"estimated fit error {fmt(radius)} it spans [{fmt(lo)}, {fmt(hi)}]")
    return Vetted(th, X, gap, kind, ok, how)


def search(theorem: Theorem, params: dict[str, Any], *, dps: int, seed: int,
           restarts: int) -> SearchOutcome:
    """Seeded fits, null-space continuation from each exact fit, then penalty fits. Every candidate is
    vetted: a gap that vanishes once stray modes are decoupled, or that does not survive the fit error,
    is discarded (and counted). The surviving candidate with the largest gap wins; a gap >= STRONG_GAP
    ends the search early."""
    rng = np.random.default_rng(seed + 7)
    problem = build_problem(theorem, params, seed=seed, dps=dps)
    seqs = test_sequences(problem, "length", rng) + test_sequences(problem, "compositional", rng)
    made = constructions.exact_learners(problem)
    for c in made:  # exact constructions first: what they find is certified, no fit needed
        th = MP.asarray(np.asarray(c.learned, dtype=object))
        if mp_abs_max(problem.residual(th, MP)) <= FIT_TOL and max_gap(problem, th, seqs) >= SEARCH_GAP:
            return SearchOutcome(problem, seqs, th, c.how, True, FIT_TOL,
                                 f"{len(made)} exact construction(s) tried before any fit; "
                                 f"{sum(len(s) for s in seqs)} test sequences", exact=c.learned)
    candidates: list[tuple[mp.mpf, Vetted, str]] = []  # (test gap, vetted candidate, strategy)
    discarded: list[str] = []  # candidates whose gap does not survive the fit error: undecided
    vanished = 0  # candidates with an exactly equivalent learner without the gap: no candidates

    def consider(theta: np.ndarray, strategy: str) -> None:
        nonlocal vanished
        v = vet(problem, theta, seqs, dps)
        if v is None:
            vanished += 1
        elif not v.survives:
            discarded.append(v.how)
        else:
            candidates.append((v.gap, v, strategy))

    def strong() -> bool:
        return any(c[0] >= STRONG_GAP for c in candidates)

    tried_fits, tried_steps, converged, exact_fits = 0, 0, 0, []
    for k in range(restarts):
        tried_fits += 1
        progress.stage(f"{theorem.id} search: seeded fit {k + 1}/{restarts} ({len(candidates)} candidate(s), "
                       f"{len(discarded)} discarded so far)")
        fr = fit(problem, dps=dps, seed=seed + 1000 * k, tol=FIT_TOL)
        if not fr.converged:
            continue
        converged += 1
        exact_fits.append(fr.theta)
        if max_gap(problem, fr.theta, seqs) >= SEARCH_GAP:
            consider(fr.theta, "a fit from a seeded restart that differs on test")
        else:
            progress.stage(f"{theorem.id} search: null-space continuation from fit {k + 1}")
            th, n = continuation(Fitted(problem, fr, dps, seed), rng, seqs)
            tried_steps += n
            if th is not None:
                consider(th, "null-space continuation from an exact fit")
        if strong():
            break
    tried_adv = 0
    if not strong():
        starts = [np.array([float(v) for v in t]) for t in exact_fits[:1]]
        starts += [problem.learned.init(np.random.default_rng(seed + 77 + i)) for i in range(2)]
        progress.stage(f"{theorem.id} search: penalty fits from {len(starts)} start(s)")
        th, tried_adv = adversarial(problem, starts, seqs, dps, FIT_TOL)
        if th is not None:
            consider(th, "penalty fit pulling a test output away under the training constraint")
    effort = (f"{tried_fits} seeded fits ({converged} reached the {fmt(FIT_TOL, 2)} training "
              f"threshold), {tried_steps} continuation steps, {tried_adv} penalty fits, "
              f"{sum(len(s) for s in seqs)} test sequences up to length "
              f"{max(s.shape[1] for s in seqs)}, {dps} digits")
    if vanished:
        effort += (f"; {vanished} candidate gap(s) vanished once stray modes were decoupled (an exactly "
                   "equivalent learner has none)")
    if discarded:
        effort += (f"; {len(discarded)} candidate(s) discarded, their gaps did not survive the fit "
                   f"error (first: {discarded[0]})")
    best = max(candidates, key=lambda c: c[0]) if candidates else None
    return SearchOutcome(problem, seqs, best[1].theta if best else None, best[2] if best else "",
                         converged > 0, FIT_TOL, effort, "" if converged else "no fit converged",
                         discarded=len(discarded))


def shrink_dimensions(theorem: Theorem, params: dict[str, Any], dropped: list[str],
                      outcome: SearchOutcome, *, dps: int,
                      seed: int) -> tuple[dict[str, Any], SearchOutcome, str]:
    """Smallest dimensions: each group of dimension parameters the theorem names moves down together
    (by the same amount, so n = k~ stays n = k~ and k~ = n + 1 stays so); the smallest shift at which
    exactly the same assumptions are dropped and a counterexample still exists wins."""
    tried = []
    for group in theorem.dims:
        lowest = min(params[d] - int(theorem.params.get(d).min or 1) for d in group)
        for delta in range(lowest, 0, -1):
            trial = dict(params, **{d: params[d] - delta for d in group})
            if sorted(set(theorem.violated(trial)) | set(dropped)) != dropped:
                continue
            try:
                trial = theorem.params.resolve(trial)
                progress.stage(f"{theorem.id} shrink: trying {', '.join(f'{d}={trial[d]}' for d in group)}")
                found = search(theorem, trial, dps=dps, seed=seed, restarts=2)
            except InputError:
                continue
            label = ", ".join(f"{d}={trial[d]}" for d in group)
            tried.append(f"{label}: {'found' if found.theta is not None else 'none'}")
            if found.theta is not None:
                params, outcome = trial, found
                break
    return params, outcome, "; ".join(tried)
