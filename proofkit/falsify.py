"""Search for a counterexample: a learned model that fits every training length and differs on a test
length or test support. Strategies: several seeded fits (different minima), then null-space
continuation from each exact fit (step along the null direction of J_train that moves the test output
most, project back onto the training manifold). Found models are shrunk (gauge-canonical form,
shortest distinguishing length, simplest sequence), certified and recorded."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath as mp
import numpy as np

from . import activation as act
from . import certify_symbolic, constructions, dropspace, known, progress, record
from .backend import FLOAT64, MP, mp_abs_max, mp_str
from .certify_model import certificate, certify_exact, certify_model  # noqa: F401 (certify_model: API)
from .check import Fitted, local_id, reduce_learner
from .errors import InputError
from .fit import fit, lm64, polish
from .fiterror import inflate, param_radius
from .generalization import ball_gap, robust, sampled_gap, test_sequences
from .problem import Problem, build_problem
from .spec import Theorem
from .support import corner_sequences, test_lengths
from .tolerances import FIT_TOL, SEARCH_GAP, effective_dps, fmt
from .verdict import Verdict


@dataclass
class FalsifyResult:
    theorem: str
    params: dict[str, Any]
    dropped: list[str]
    found: bool
    verdict: Verdict  # REFUTED when found, CONFIRMED when searched and empty, INCONCLUSIVE otherwise
    effort: str
    record_path: str | None = None
    record: dict[str, Any] | None = None
    certified: bool = False
    how: str = ""
    elapsed_s: float = 0.0
    seed: int = 0
    dps: int = 60
    details: dict[str, Any] = field(default_factory=dict)
    #: the learned family's parameter blocks (name -> shape, in the order of the record's learned_params)
    layout: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def learned(self) -> dict[str, dict[str, Any]]:
        """The counterexample's learned parameters by block: name -> {"shape", "values"} with the values
        as the record's exact decimal strings, nested like the block (empty when no model was found)."""
        flat = (self.record or {}).get("learned_params")
        if not self.layout or not isinstance(flat, list):
            return {}
        out, i = {}, 0
        for name, shape in self.layout.items():
            size = int(np.prod(shape))
            out[name] = {"shape": list(shape),
                         "values": np.array(flat[i:i + size], dtype=object).reshape(shape).tolist()}
            i += size
        return out

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.theorem, "verdict": str(self.verdict), "found": self.found,
                "dropped": self.dropped, "params": self.params, "effort": self.effort,
                "record": self.record_path, "certified": self.certified, "how": self.how,
                "seed": self.seed, "dps": self.dps, "elapsed_s": round(self.elapsed_s, 3),
                "details": self.details, "learned": self.learned()}


STRONG_GAP = mp.mpf("1e-3")
#: what every empty drop search says
EMPTY_IS_NOT_PROOF = ("an empty search does not show that the dropped assumption is unnecessary "
                      "(that needs a proof)")
#: parameter settings a drop's numeric search covers by default (the constructions cover all of them)
SEARCH_SETTINGS = 4  # a gap this large ends the search; smaller ones keep it going


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
    """Shortest distinguishing length, then the simplest sequence there (corners before random);
    failing that, the test sequence with the largest gap."""
    rng = np.random.default_rng(12345)
    lengths = sorted(set(range(problem.T + 1, 2 * problem.T + 3)) | set(test_lengths(problem.T)))
    kinds = [("compositional", t) for t in range(1, problem.T + 1)] + [("length", t) for t in lengths]
    for kind, L in kinds:
        cands = list(corner_sequences(problem.support, L))
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


def falsify(theorem: Theorem, drops: Sequence[str] = (), overrides: Mapping[str, Any] | None = None,
            *, dps: int = 60, seed: int = 0, restarts: int = 4, shrink: bool = True,
            out_dir: Path | None = None, known_folder: Path | None = None,
            budget: int = SEARCH_SETTINGS) -> FalsifyResult:
    """Search for a counterexample under the variant (assumptions dropped and/or parameters set).

    Dropping assumptions searches every setting the remaining assumptions allow
    (:mod:`proofkit.dropspace`): stored records first (``known_folder``, :mod:`proofkit.known`), then the
    engine's exact constructions at every setting (:mod:`proofkit.constructions`), then the numeric
    search (fits, continuation, penalty fits) at the first ``budget`` settings. The first certified
    counterexample is the answer (else the first uncertified one). An empty search is ``inconclusive``
    and names the space it covered: it never says the dropped assumption is unnecessary. Without
    drops, the one setting the overrides give is searched (empty: ``confirmed``, stated effort).
    ``shrink`` also searches smaller dimensions and keeps the smallest that still fails."""
    t0 = time.perf_counter()
    dps = effective_dps(dps)
    explicit = dict(overrides or {})
    for aid in drops:
        theorem.assumption(aid)  # an unknown id is bad input, before any work
    space = dropspace.space(theorem, drops, explicit, _buildable(theorem)) if drops else None
    if space is not None and space.settings:
        params = space.settings[0].params
    else:
        params = theorem.params.resolve({**{k: v for aid in drops
                                            for k, v in theorem.assumption(aid).drop.items()}, **explicit})
    defaults = theorem.params.defaults()
    dropped = sorted(set(drops) | set(theorem.violated(params)))
    base = dict(theorem=theorem.id, params=params, dropped=dropped, seed=seed, dps=dps)
    if known_folder is not None:
        progress.stage(f"{theorem.id}: replaying stored counterexamples first")
        hit = known.first_reproducing(theorem, set(dropped), explicit, known_folder)
        if hit is not None:
            return _known_result(theorem, hit, base, out_dir, seed, dps, t0)
    if space is not None and not space.settings:
        notes = "; ".join(theorem.assumption(a).note for a in drops if theorem.assumption(a).note)
        return FalsifyResult(
            found=False, verdict=Verdict.INCONCLUSIVE,
            effort=f"no search: {space.considered} candidate setting(s) considered, none violates "
                   f"{', '.join(drops)} while the other assumptions hold",
            how=f"inconclusive: no setting of {theorem.id}'s parameters violates {', '.join(drops)} while "
                "the other assumptions hold; a search needs a parameter (true model, support or learner) "
                "that expresses its failure" + (f" ({notes})" if notes else ""),
            elapsed_s=time.perf_counter() - t0, **base)
    if theorem.falsifier is not None:
        progress.stage(f"{theorem.id} search: the theorem's own falsifier"
                       + (f" (dropped {', '.join(dropped)})" if dropped else ""))
        overrides_ = {k: v for k, v in params.items() if v != defaults[k]}
        return _custom(theorem, params, overrides_, dropped, seed, out_dir, t0)
    settings = space.settings if space is not None else [
        dropspace.Setting(params, {k: v for k, v in params.items() if v != defaults[k]}, "as set",
                          tuple(theorem.violated(params)))]
    if not drops:
        return _at(theorem, params, dropped, dps=dps, seed=seed, restarts=restarts, shrink=shrink,
                   out_dir=out_dir, t0=t0)
    hit = _constructed(theorem, settings, seed, dps, out_dir, t0)
    if hit is not None:
        return hit
    found: FalsifyResult | None = None
    efforts, unfit = [], 0
    for k, setting in enumerate(settings[:budget]):
        progress.stage(f"{theorem.id}: numeric search at setting {k + 1}/{min(budget, len(settings))} "
                       f"({setting.label()})")
        res = _at(theorem, setting.params, sorted(set(drops) | set(setting.violated)), dps=dps, seed=seed,
                  restarts=restarts, shrink=shrink, out_dir=None, t0=t0)
        efforts.append(f"[{setting.label()}] {res.effort}")
        unfit += "no fit reached zero training risk" in res.how
        if res.found and (found is None or (res.certified and not found.certified)):
            found, where = res, setting
        if found is not None and found.certified:
            break
    if found is not None:
        if out_dir is not None:
            found.record_path = str(record.write(found.record, out_dir))
        if len(settings) > 1:
            found.effort += (f"; found at setting {settings.index(where) + 1} of {len(settings)} "
                             f"({where.label()}; {where.origin}), {len(efforts)} searched")
        found.elapsed_s = time.perf_counter() - t0
        return found
    searched = min(budget, len(settings))
    return FalsifyResult(
        found=False, verdict=Verdict.INCONCLUSIVE, elapsed_s=time.perf_counter() - t0,
        details={"settings": len(settings), "searched": searched,
                 "space": [s_.label() for s_ in settings]},
        effort=f"exact constructions at all {len(settings)} setting(s); numeric search at {searched}: "
               + " | ".join(efforts),
        how=("inconclusive: no fit reached zero training risk at any searched setting, so there was no "
             "zero-risk learner to test; " if unfit == searched else "inconclusive: ")
            + "no counterexample found in " + space.describe(searched) + "; " + EMPTY_IS_NOT_PROOF, **base)


def _buildable(theorem: Theorem) -> Any:
    """Whether a setting makes a problem (families and support construct): the setting filter of
    :func:`proofkit.dropspace.space`; theorems without a numeric setup accept every setting."""
    setup = theorem.setup
    if setup is None:
        return None

    def ok(params: dict[str, Any]) -> bool:
        try:
            setup.support(params), setup.learned(params), setup.true(params)
        except (InputError, ValueError):
            return False
        return True
    return ok


def _known_result(theorem: Theorem, hit: known.Known, base: dict[str, Any], out_dir: Path | None,
                  seed: int, dps: int, t0: float) -> FalsifyResult:
    """The answer when a stored record reproduces: that record (written to ``out_dir`` as well when that
    is another folder), shown at its own setting."""
    passed = f"; passed over {', '.join(hit.passed_over)}" if hit.passed_over else ""
    layout: dict[str, tuple[int, ...]] = {}
    if hit.data["kind"] == "model" and hit.data["theorem"] == theorem.id:  # its parameter blocks
        rparams = theorem.params.resolve(hit.data["overrides"])
        layout = dict(build_problem(theorem, rparams, seed=seed, dps=dps).learned.layout)
        base = dict(base, params=rparams)
    path = hit.path
    if out_dir is not None and out_dir.resolve() != hit.path.parent.resolve():
        path = record.write(hit.data, out_dir)
    return FalsifyResult(
        found=True, verdict=Verdict.REFUTED, record_path=str(path), record=hit.data,
        certified=hit.certified, how=hit.how, elapsed_s=time.perf_counter() - t0,
        effort=f"known counterexample replayed first ({hit.why}): {hit.path.name} reproduces; "
               f"no search run{passed}",
        details={"known_theorem": hit.data["theorem"], "known_params": hit.data["params"]},
        layout=layout, **base)


def _constructed(theorem: Theorem, settings: Sequence[dropspace.Setting], seed: int, dps: int,
                 out_dir: Path | None, t0: float) -> FalsifyResult | None:
    """The first setting where a closed-form witness construction applies, as a certified witness
    record; None when none applies anywhere."""
    defaults = theorem.params.defaults()
    for k, setting in enumerate(settings):
        progress.stage(f"{theorem.id}: exact constructions at setting {k + 1}/{len(settings)}")
        try:
            problem = build_problem(theorem, setting.params, seed=seed, dps=dps)
        except InputError:
            continue
        out, _ = constructions.witness(problem)
        if out is None:
            continue
        params = setting.params
        overrides = {k2: v for k2, v in params.items() if v != defaults[k2]}
        dropped = sorted(theorem.violated(params))
        rec = _witness_record(theorem, params, overrides, dropped, out, seed)
        path = record.write(rec, out_dir) if out_dir is not None else None
        return FalsifyResult(
            theorem=theorem.id, params=params, dropped=dropped, seed=seed, dps=dps, found=True,
            verdict=Verdict.REFUTED, record_path=str(path) if path else None, record=rec, certified=True,
            how=out.how, elapsed_s=time.perf_counter() - t0,
            effort=f"{out.effort} at setting {k + 1} of {len(settings)} ({setting.label()}; "
                   f"{setting.origin})")
    return None


def _at(theorem: Theorem, params: dict[str, Any], dropped: list[str], *, dps: int, seed: int, restarts: int,
        shrink: bool, out_dir: Path | None, t0: float) -> FalsifyResult:
    """The numeric search at one setting: fits, continuation, penalty fits; a found model is shrunk,
    made exact where it can be and certified."""
    defaults = theorem.params.defaults()
    overrides = {k: v for k, v in params.items() if v != defaults[k]}
    base = dict(theorem=theorem.id, params=params, dropped=dropped, seed=seed, dps=dps)
    with mp.workdps(dps):
        outcome = search(theorem, params, dps=dps, seed=seed, restarts=restarts)
        if outcome.theta is None:
            verdict = (Verdict.CONFIRMED if outcome.converged and not outcome.discarded
                       else Verdict.INCONCLUSIVE)
            how = ("no counterexample found (searched and empty)" if verdict == Verdict.CONFIRMED else
                   f"inconclusive: {outcome.discarded} candidate(s) found, none with a gap that "
                   "survives the fit error" if outcome.converged else
                   f"inconclusive: no fit reached zero training risk ({outcome.reason})")
            return FalsifyResult(found=False, verdict=verdict, effort=outcome.effort, how=how,
                                 elapsed_s=time.perf_counter() - t0, **base)
        tried_dims = ""
        if shrink:
            params, outcome, tried_dims = shrink_dimensions(theorem, params, dropped, outcome,
                                                            dps=dps, seed=seed)
        overrides = {k: v for k, v in params.items() if v != defaults[k]}
        base.update(params=params)
        problem = outcome.problem
        if outcome.exact is not None:  # a closed-form construction: kept exact, never rounded
            theta, learned = outcome.theta, list(outcome.exact)
            X, gap, kind = shrink_witness(problem, theta, outcome.seqs)
        else:
            theta = problem.learned.canonicalize(outcome.theta, problem.true_theta(MP), MP)
            progress.stage(f"{theorem.id}: shrinking the witness sequence and simplifying the learner")
            X, gap, kind = shrink_witness(problem, theta, outcome.seqs)
            simple = simplify_numbers(problem, theta, X, outcome.tol)
            learned = simple if simple is not None else [mp_str(v, dps) for v in theta]
            if simple is not None:
                theta = MP.asarray(np.asarray(simple, dtype=object))
                gap = max_gap(problem, theta, [X[None]])
        rec, certified, how = _model_record(theorem, problem, params, overrides, dropped, theta,
                                            learned, X, gap, kind, outcome.strategy, dps, seed)
        if not certified and outcome.exact is None:
            exact = exact_candidate(problem, theta, outcome.seqs)
            if exact is not None:
                learned, X, kind = exact
                rec, certified, how = _model_record(
                    theorem, problem, params, overrides, dropped, theta, learned, X, gap, kind,
                    outcome.strategy + "; made exact in rational arithmetic (observer gauge)", dps, seed)
            else:
                snapped = snapped_candidate(problem, learned, X, outcome.tol)
                if snapped is not None:
                    rec2, ok2, how2 = _model_record(
                        theorem, problem, params, overrides, dropped, theta, snapped, X, gap, kind,
                        outcome.strategy + "; coefficients below 1e-30 set to exactly 0", dps, seed)
                    if ok2:
                        rec, certified, how = rec2, ok2, how2
        if not certified and outcome.exact is None:
            symbolic = certify_symbolic.symbolic_candidate(problem, theta, X, outcome.tol, dps, SEARCH_GAP)
            if symbolic is not None and symbolic != list(learned):
                rec2, ok2, how2 = _model_record(
                    theorem, problem, params, overrides, dropped, theta, symbolic, X, gap, kind,
                    outcome.strategy + "; rounded to short rationals (snapped to the true parameters where "
                    "they agree to the fit's precision)", dps, seed)
                if ok2:
                    rec, certified, how = rec2, ok2, how2
    path = record.write(rec, out_dir) if out_dir is not None else None
    effort = outcome.effort + (f"; dimensions shrunk: {tried_dims}" if tried_dims else "")
    return FalsifyResult(found=True, verdict=Verdict.REFUTED, effort=effort,
                         record_path=str(path) if path else None, record=rec, certified=certified,
                         how=how, elapsed_s=time.perf_counter() - t0, layout=dict(problem.learned.layout),
                         **base)


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


def simplify_numbers(problem: Problem, theta: np.ndarray, X: np.ndarray,
                     tol: mp.mpf) -> list[str] | None:
    """Shrink to simple numbers: the fewest significant digits (1..12) at which the rounded model still
    fits training to tol and still differs at X. None when only full precision works."""
    for digits in (1, 2, 3, 4, 6, 8, 12):
        strs = ["0.0" if abs(v) <= tol else mp.nstr(v, digits) for v in theta]
        cand = MP.asarray(np.asarray(strs, dtype=object))
        if mp_abs_max(problem.residual(cand, MP)) <= tol and max_gap(problem, cand, [X[None]]) >= SEARCH_GAP:
            return strs
    return None


def exact_candidate(problem: Problem, theta: np.ndarray,
                    seqs: Sequence[np.ndarray]) -> tuple[list[str], np.ndarray, str] | None:
    """An exact rational zero-risk learner near ``theta`` that still differs from f, for families that
    can build one (``exact_learner``: equal Markov parameters j < T by construction): (learned
    parameters as exact strings, shortest witness, kind), certified by :func:`certify_exact`; the
    fewest digits that work win. Why: where the fit sits on a singular stratum of the training
    equations no interval existence proof applies, but the stratum has rational points."""
    make = getattr(problem.learned, "exact_learner", None)
    if make is None or not problem.injective or not hasattr(problem.true, "markov"):
        return None
    from .backend import SYM
    from .families.observer import DIGITS

    true_markov = problem.true.markov(SYM.asarray(problem.theta_true), problem.T, SYM)
    targets = [[[Fraction(int(v.p), int(v.q)) for v in row] for row in M] for M in true_markov]
    with mp.workdps(max(mp.mp.dps, 60)):
        for digits in DIGITS:
            q = make(theta, targets, digits)
            if q is None:
                continue
            learned = [str(v) for v in q]
            th = MP.asarray(np.asarray(learned, dtype=object))
            if max_gap(problem, th, seqs) < SEARCH_GAP:
                continue
            X, _, kind = shrink_witness(problem, th, seqs)
            if certify_exact(problem, learned, X)[0]:
                return learned, X, kind
    return None


def snapped_candidate(problem: Problem, learned: Sequence[str], X: np.ndarray,
                      tol: mp.mpf) -> list[str] | None:
    """The learner with its tiny coefficients (|v| <= 1e-30, left by the fit where the exact learner
    has 0) set to exactly 0, when it still fits to tol and still differs at X; None when nothing is
    tiny. Only worth it for families with an exact zero-risk certificate (``exact_zero_risk``)."""
    if getattr(problem.learned, "exact_zero_risk", None) is None:
        return None
    snapped = ["0.0" if "/" not in v and abs(mp.mpf(v)) <= mp.mpf("1e-30") else v for v in learned]
    if list(snapped) == list(learned):
        return None
    th = MP.asarray(np.asarray(snapped, dtype=object))
    if mp_abs_max(problem.residual(th, MP)) > tol or max_gap(problem, th, [X[None]]) < SEARCH_GAP:
        return None
    return snapped


def _model_record(theorem: Theorem, problem: Problem, params: dict[str, Any],
                  overrides: dict[str, Any], dropped: list[str], theta: np.ndarray,
                  learned: list[str], X: np.ndarray, gap: mp.mpf, kind: str, strategy: str,
                  dps: int, seed: int) -> tuple[dict[str, Any], bool, str]:
    # everything stored is computed from the stored decimals, so replay recomputes it to the digit
    theta = MP.asarray(np.asarray(learned, dtype=object))
    gap = max_gap(problem, theta, [X[None]])
    cert = certificate(problem, theta, X, dps, learned)
    train_res = mp_abs_max(problem.residual(theta, MP))
    rec = record.finalize({
        "kind": "model", "theorem": theorem.id, "claim": f"{kind} generalization",
        "params": params, "overrides": overrides, "dropped": dropped,
        "learned_params": learned,
        "true_params": [str(v) for v in problem.theta_true],
        "witness": [[repr(float(v)) for v in row] for row in X],
        "witness_length": int(X.shape[0]),
        "train_residual": mp_str(train_res, 5), "test_discrepancy": mp_str(gap, 20),
        "dps": dps, "seed": seed, "search": strategy,
        "certificate": cert.as_record(),
    })
    return rec, cert.certified, cert.how


def _custom(theorem: Theorem, params: dict[str, Any], overrides: dict[str, Any],
            dropped: list[str], seed: int, out_dir: Path | None, t0: float) -> FalsifyResult:
    """Theorems with their own search (e.g. Lemma 1's structured function family)."""
    outcome = theorem.falsifier.search(params)
    base = dict(theorem=theorem.id, params=params, dropped=dropped, effort=outcome.effort,
                how=outcome.how, elapsed_s=time.perf_counter() - t0, seed=seed)
    if not outcome.found:
        if not dropped:
            return FalsifyResult(found=False, verdict=Verdict.CONFIRMED, **base)
        base.update(how=f"inconclusive: no counterexample found in the theorem's own search "
                        f"({outcome.effort}): {outcome.how}; {EMPTY_IS_NOT_PROOF}")
        return FalsifyResult(found=False, verdict=Verdict.INCONCLUSIVE, **base)
    rec = _witness_record(theorem, params, overrides, dropped, outcome, seed)
    path = record.write(rec, out_dir) if out_dir is not None else None
    return FalsifyResult(found=True, verdict=Verdict.REFUTED, record_path=str(path) if path else None,
                         record=rec, certified=outcome.certified, **base)


def _witness_record(theorem: Theorem, params: dict[str, Any], overrides: dict[str, Any], dropped: list[str],
                    outcome: Any, seed: int) -> dict[str, Any]:
    """A ``witness`` record of a falsifier's or construction's outcome."""
    return record.finalize({
        "kind": "witness", "theorem": theorem.id, "claim": outcome.claim, "params": params,
        "overrides": overrides, "dropped": dropped, "witness": outcome.witness, "seed": seed,
        "search": outcome.effort,
        "certificate": {"certified": outcome.certified, "how": outcome.how}
        | ({"data": dict(outcome.certificate_data)} if outcome.certificate_data is not None else {}),
    })
