"""Search for a counterexample: a learned model that fits every training length and differs on a test
length or test support, under the theorem as set or with assumptions dropped.

With assumptions dropped the search covers every setting the remaining assumptions allow
(:mod:`proofkit.engine.dropspace`): stored records first (:mod:`proofkit.engine.known`), the exact
constructions of
:mod:`proofkit.constructions` at every setting, then the numeric search (:mod:`proofkit.engine.modelsearch`)
at
the first few. A found model is made exact where it can be (:mod:`proofkit.engine.exactify`), certified and
recorded; an empty drop search is ``inconclusive`` and names its space."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mpmath as mp
import numpy as np

from .. import constructions
from ..certificates import certify_symbolic
from ..certificates.certify_model import certificate, certify_exact, certify_model  # noqa: F401 (the API's names)
from ..errors import InputError
from ..language.spec import Theorem
from ..language.tolerances import SEARCH_GAP, effective_dps
from ..language.verdict import Verdict
from ..numerics.backend import MP, mp_abs_max, mp_str
from ..runtime import progress
from ..storage import record
from . import costguard, dropspace, known
from .exactify import exact_candidate, simplify_numbers, snapped_candidate
from .modelsearch import max_gap, search, shrink_dimensions, shrink_witness
from .problem import Problem, build_problem


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

#: what every empty drop search says
EMPTY_IS_NOT_PROOF = ("an empty search does not show that the dropped assumption is unnecessary "
                      "(that needs a proof)")
#: parameter settings a drop's numeric search covers by default (the constructions cover all of them)
SEARCH_SETTINGS = 4  # a gap this large ends the search; smaller ones keep it going



def falsify(theorem: Theorem, drops: Sequence[str] = (), overrides: Mapping[str, Any] | None = None,
            *, dps: int = 60, seed: int = 0, restarts: int = 4, shrink: bool = True,
            out_dir: Path | None = None, known_folder: Path | None = None,
            budget: int = SEARCH_SETTINGS) -> FalsifyResult:
    """Search for a counterexample under the variant (assumptions dropped and/or parameters set).

    Dropping assumptions searches every setting the remaining assumptions allow
    (:mod:`proofkit.engine.dropspace`): stored records first (``known_folder``,
    :mod:`proofkit.engine.known`), then the
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
    costguard.guard(theorem, theorem.params.resolve(explicit))
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
    settings = space.settings if space is not None else []
    if not drops:
        if theorem.falsifier is not None:
            progress.stage(f"{theorem.id} search: the theorem's own falsifier")
            return _custom(theorem, params, {k: v for k, v in params.items() if v != defaults[k]}, dropped,
                           seed, out_dir, t0)
        return _at(theorem, params, dropped, dps=dps, seed=seed, restarts=restarts, shrink=shrink,
                   out_dir=out_dir, t0=t0)
    if theorem.falsifier is None:
        hit = _constructed(theorem, settings, seed, dps, out_dir, t0)
        if hit is not None:
            return hit
    found: FalsifyResult | None = None
    efforts, hows, unfit = [], [], 0
    own = theorem.falsifier is not None
    which = "the theorem's own" if own else "numeric"
    for k, setting in enumerate(settings[:budget]):
        progress.stage(f"{theorem.id}: {which} search at setting {k + 1}/{min(budget, len(settings))} "
                       f"({setting.label()})")
        violated = sorted(set(drops) | set(setting.violated))
        res = (_custom(theorem, setting.params, setting.changes, violated, seed, None, t0) if own else
               _at(theorem, setting.params, violated, dps=dps, seed=seed, restarts=restarts, shrink=shrink,
                   out_dir=None, t0=t0))
        efforts.append(f"[{setting.label()}] {res.effort}")
        hows.append(res.how)
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
    undecided = sum("none with a gap that survives the fit error" in h for h in hows)
    first = (f"; the theorem's own search at the first setting: {hows[0].removeprefix('inconclusive: ')}"
             if theorem.falsifier is not None and hows else "")
    return FalsifyResult(
        found=False, verdict=Verdict.INCONCLUSIVE, elapsed_s=time.perf_counter() - t0,
        details={"settings": len(settings), "searched": searched,
                 "space": [s_.label() for s_ in settings]},
        effort=f"exact constructions at all {len(settings)} setting(s); numeric search at {searched}: "
               + " | ".join(efforts),
        how=("inconclusive: no fit reached zero training risk at any searched setting, so there was no "
             "zero-risk learner to test; " if unfit == searched else "inconclusive: ")
            + "no counterexample found in " + space.describe(searched)
            + (f"; at {undecided} setting(s) candidate gaps did not survive the fit error (undecided)"
               if undecided else "") + first + "; " + EMPTY_IS_NOT_PROOF, **base)


def _buildable(theorem: Theorem) -> Any:
    """Whether a setting makes a problem (families and support construct): the setting filter of
    :func:`proofkit.engine.dropspace.space`; theorems without a numeric setup accept every setting."""
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
        dropped = sorted(theorem.violated(params))
        rec = _witness_record(theorem, params, setting.changes, dropped, out, seed)
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
