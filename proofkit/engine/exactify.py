"""Making a found learner exact: the fewest significant digits that still fit and differ, an exact rational
zero-risk learner for families that build one (``exact_learner``), and tiny coefficients snapped to 0 for
families with an exact zero-risk certificate. Each returns a candidate only; the certificate decides."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import mpmath as mp
import numpy as np

from ..certificates.certify_model import certify_exact
from ..language.tolerances import SEARCH_GAP
from ..numerics.backend import MP, mp_abs_max
from .modelsearch import max_gap, shrink_witness
from .problem import Problem


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
    from ..families.observer import DIGITS
    from ..numerics.backend import SYM

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
