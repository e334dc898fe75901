"""Row 2: what each precision stage of a check costs, per theorem with a fitted model.

For the theorem's default problem (seed 0, 60 digits): the float64 Levenberg-Marquardt warm start and the
mpmath polish as :func:`proofkit.engine.fit.fit` times them (``FitResult.timings``, the 60-digit training
labels computed beforehand, once), and the python-flint certification of the fit: an upper bound of
max |logit_h - logit_f| over every training sequence, evaluated in balls at the precision ``check``
certifies at (:func:`proofkit.certificates.balls.arb_precision`, 60 digits plus guard bits). For
comparison the same residual is evaluated in plain mpmath at 60 digits (labels recomputed).
"""

from __future__ import annotations

from typing import Any

import mpmath as mp
import numpy as np

from ..engine.fit import fit
from ..engine.problem import Problem
from ..numerics.backend import ARB, MP, mp_abs_max
from ..numerics.balls import arb_precision, to_arb, upper
from .common import DPS, SEED, Figure, Ratio, Section, progress, timed
from .fit import make_problem


def ball_residual_bound(prob: Problem, theta_mp: np.ndarray) -> mp.mpf:
    """Certified upper bound of max |logit_h - logit_f| over the training sequences (flint balls)."""
    worst = mp.mpf(0)
    with arb_precision(DPS), mp.workdps(DPS):
        th, tf = to_arb(theta_mp), to_arb(prob.theta_true)
        for X in prob.train_X:
            Xa = ARB.asarray(X)
            d = prob.learned.logits(th, Xa, ARB) - prob.true.logits(tf, Xa, ARB)
            worst = max(worst, max(upper(v) for v in d.ravel()))
    return worst


def mp_residual_max(prob: Problem, theta_mp: np.ndarray) -> mp.mpf:
    """The same residual in mpmath at DPS digits, true logits recomputed (no cached labels)."""
    worst = mp.mpf(0)
    with mp.workdps(DPS):
        tf = prob.true_theta(MP)
        for X in prob.train_X:
            Xm = MP.asarray(X)
            worst = max(worst, mp_abs_max(prob.learned.logits(theta_mp, Xm, MP)
                                          - prob.true.logits(tf, Xm, MP)))
    return worst


def stages(theorem_id: str, repeats: int) -> dict[str, Any]:
    """Warm start, polish and certification times (medians over ``repeats`` fits) with what each reached."""
    prob = make_problem(theorem_id)
    with mp.workdps(DPS):
        prob.train_targets(MP)  # one-off labels, cached by the problem: not part of any stage below
        fits = [fit(prob, dps=DPS, seed=SEED) for _ in range(max(1, repeats))]
    res = fits[-1]
    if not res.converged or res.theta is None:
        raise RuntimeError(f"{theorem_id}: the fit did not converge ({res.reason})")
    t_cert, bound = timed(lambda: ball_residual_bound(prob, res.theta), repeats)
    t_mp, rmax = timed(lambda: mp_residual_max(prob, res.theta), repeats)
    return {"family": prob.learned.name, "n_params": prob.learned.n_params,
            "residuals": int(sum(X.shape[0] for X in prob.train_X) * prob.learned.m),
            "warm_start_s": float(np.median([f.timings["warm_start_s"] for f in fits])),
            "polish_s": float(np.median([f.timings["polish_s"] for f in fits])),
            "certify_s": t_cert, "mp_evaluation_s": t_mp, "restarts": res.restarts,
            "polish_iterations": res.mp_iterations, "residual_f64": res.f64_residual,
            "residual_polished": mp.nstr(res.residual, 6), "certified_bound": mp.nstr(bound, 6),
            "residual_mp_recomputed": mp.nstr(rmax, 6)}


def bench(settings: Any) -> Section:
    """Row 2 for each theorem of ``settings.precision_theorems``."""
    sec = Section("precision")
    for tid in settings.precision_theorems:
        progress(f"precision {tid}")
        d = stages(tid, settings.repeats)
        sec.details[tid] = d
        warm = Figure(f"float64 warm start ({d['restarts']} restart(s))", d["warm_start_s"], "s")
        pol = Figure(f"mpmath polish ({d['polish_iterations']} it.)", d["polish_s"], "s")
        cert = Figure("flint ball certification", d["certify_s"], "s")
        sec.ratios.append(Ratio(2, "mpmath polish vs float64 warm start", tid, warm, pol,
                                "polish / warm start"))
        sec.ratios.append(Ratio(2, "flint certification vs mpmath polish", tid, pol, cert,
                                "certification / polish"))
    return sec
