"""Certificates for a found counterexample: proofs that an EXACT zero-risk learner with a real gap exists
(the rules are in docs/verdicts.md, "Counterexamples"). Exactly (rational parameters with equal Markov
parameters and equal readout biases), by an interval existence proof (Krawczyk on the Markov equations;
with a readout bias, on the base family's with the bias set to the true one), by a ball proof that a
ReLU-type readout is dead on the whole training box, or, for any family with short rational parameters,
symbolically (:mod:`proofkit.certify_symbolic`). :mod:`proofkit.falsify` and :mod:`proofkit.replay` use
:func:`certify_model`."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from . import certify, certify_symbolic, existence
from .backend import MP
from .problem import Problem
from .tolerances import fmt


def certify_exact(problem: Problem, learned: Sequence[str], X: np.ndarray) -> tuple[bool, str]:
    """Exact rational certificate for families linear in the inputs: equal Markov parameters for every
    j < T (and equal readout biases, where the families have one) make h = f on every sequence of
    length <= T (so on the whole support), and the gap at X is an exact non-zero rational."""
    import sympy as sp

    from .backend import SYM

    eq = certify.exact_markov_equal(problem.learned, list(learned), problem.true,
                                    [str(v) for v in problem.theta_true], problem.T)
    if not eq or not all(eq) or not problem.injective or not _same_bias(problem, learned):
        return False, ""
    zh = problem.learned.logits(SYM.asarray(np.asarray(learned, dtype=object)), SYM.asarray(X[None]), SYM)
    zf = problem.true.logits(SYM.asarray(problem.theta_true), SYM.asarray(X[None]), SYM)
    gap = max(abs(v) for v in np.ravel(zh - zf))
    if gap == 0:
        return False, ""
    shown = gap if len(str(gap)) <= 40 else f"{sp.N(gap, 20)}... (an exact non-zero rational)"
    bias = ", readout biases equal" if hasattr(problem.learned, "offset") else ""
    return True, (f"certified exactly (rational arithmetic): Markov parameters equal for j < {problem.T}"
                  f"{bias}, so h = f on every sequence of length <= {problem.T}; logit gap at the witness = "
                  f"{shown}")


def _same_bias(problem: Problem, learned: Sequence[str]) -> bool:
    """The readout biases (``offset``) of learner and truth are exactly equal (no bias: trivially)."""
    fams = (problem.learned, problem.true)
    if not any(hasattr(f, "offset") for f in fams):
        return True
    if not all(hasattr(f, "offset") for f in fams):
        return False
    mine = problem.learned.offset(np.asarray(learned, dtype=object))
    truth = problem.true.offset(np.asarray([str(v) for v in problem.theta_true], dtype=object))
    return all(Fraction(str(a)) == Fraction(str(b)) for a, b in zip(mine, truth))


def _exact_input(learned: Sequence[str]) -> bool:
    """Short decimals or exact fractions: worth an exact rational check (long fitted decimals never
    solve the training equations exactly)."""
    return all(len(s) <= 16 or "/" in s for s in learned)


def certify_model(problem: Problem, theta: np.ndarray, X: np.ndarray, dps: int,
                  learned: Sequence[str] | None = None) -> tuple[bool, str]:
    """Prove that an exact zero-risk learner with a real gap at X exists (:func:`_certify_model`); as a
    fallback for short rational parameters, a symbolic zero-risk identity in the tokens plus a ball gap at
    the witness (:mod:`proofkit.certify_symbolic`, any family). Otherwise (False, why)."""
    ok, how = _certify_model(problem, theta, X, dps, learned)
    if ok or learned is None or not _exact_input(learned):
        return ok, how
    ok2, how2 = certify_symbolic.certify(problem, learned, X, dps)
    return (True, how2) if ok2 else (ok, how)


def _certify_model(problem: Problem, theta: np.ndarray, X: np.ndarray, dps: int,
                   learned: Sequence[str] | None = None) -> tuple[bool, str]:
    """Prove that an exact zero-risk learner with a real gap at X exists: exactly (rational parameters,
    equal Markov parameters for j < T, exact non-zero gap), or by an interval existence proof
    (Krawczyk: an exact solution of the Markov equations j < T lies in a box around the learner) plus a
    ball lower bound of the gap valid on the whole box. Otherwise (False, why)."""
    if learned is not None and _exact_input(learned):
        ok, how = certify_exact(problem, learned, X)
        if ok:
            return ok, how
        exact_risk = getattr(problem.learned, "exact_zero_risk", None)  # structured families
        if exact_risk is not None:
            ok, how = exact_risk(list(learned), problem.true, [str(v) for v in problem.theta_true],
                                 problem.support, problem.lengths, problem.activation, X)
            if ok:
                return ok, how
    if hasattr(problem.learned, "offset") and hasattr(problem.learned.base, "markov_jacobian"):
        return _certify_biased(problem, theta, X, dps)
    if not (hasattr(problem.learned, "markov") and hasattr(problem.learned, "markov_jacobian")):
        n = problem.n_per_length * len(problem.lengths)
        return False, (f"uncertified: training match at {n} samples only (no interval existence proof for "
                       "this family); the gap survives the estimated fit error")
    lo, hi = problem.support.token_box()
    if not problem.injective:
        return _certify_dead_readout(problem, theta, X, dps, lo, hi)
    proof = existence.zero_risk_ball_markov(problem.learned, theta, problem.true,
                                            [str(v) for v in problem.theta_true], problem.T, dps,
                                            columns=problem.support.free_coordinates())
    if not proof:
        return False, f"uncertified: existence not proven ({proof.reason}); the gap survives the " \
                      "estimated fit error"
    gap = existence.gap_lower_on_box(problem.learned, proof.box, problem.true,
                                     [str(v) for v in problem.theta_true], X[None], dps)
    if gap > 0:
        return True, (f"certified: {proof.how}; so h = f on every sequence of length <= {problem.T}; "
                      f"the gap at the witness is >= {fmt(gap)} on the whole box")
    return False, (f"uncertified: {proof.how}, but the gap's ball lower bound on that box is 0; the gap "
                   "survives the estimated fit error only")


def _certify_biased(problem: Problem, theta: np.ndarray, X: np.ndarray, dps: int) -> tuple[bool, str]:
    """A readout bias on a family linear in its inputs: Krawczyk on the base family's Markov equations
    j < T (:func:`existence.zero_risk_ball_markov`) with the bias set to the true one exactly (equal
    Markov parameters and equal biases make h = f on every sequence of length <= T), then a ball lower
    bound of the gap on that whole box."""
    fam, true = problem.learned, problem.true
    if not (problem.injective and hasattr(true, "offset")):
        return False, "uncertified: a readout bias without an injective readout or a biased truth"
    true_params = [str(v) for v in problem.theta_true]
    proof = existence.zero_risk_ball_markov(fam.base, fam.core(theta), true.base,
                                            list(true.core(true_params)), problem.T, dps,
                                            columns=problem.support.free_coordinates())
    if not proof:
        return False, f"uncertified: existence not proven ({proof.reason}); the gap survives the " \
                      "estimated fit error"
    with certify.arb_precision(dps):
        box = np.concatenate([proof.box, certify.to_arb(true.offset(np.asarray(true_params, dtype=object)))])
    gap = existence.gap_lower_on_box(fam, box, true, true_params, X[None], dps)
    if gap > 0:
        return True, (f"certified: {proof.how}; with the readout bias set to the true one exactly, h = f on "
                      f"every sequence of length <= {problem.T}; the gap at the witness is >= {fmt(gap)} on "
                      "the whole box")
    return False, (f"uncertified: {proof.how}, but the gap's ball lower bound on that box (bias = the true "
                   "one) is 0; the gap survives the estimated fit error only")


def _certify_dead_readout(problem: Problem, theta: np.ndarray, X: np.ndarray, dps: int, lo: np.ndarray,
                          hi: np.ndarray) -> tuple[bool, str]:
    """ReLU-type readouts: if every logit of both models is provably <= 0 on the whole training box (a
    linear function's range on a box, in balls at the learner itself), both output exactly 0 there, so
    the learner is an exact zero-risk learner with no fit error at all; the gap is then a ball bound."""
    uh = certify.linear_range_upper(problem.learned, theta, problem.T, lo, hi, dps)
    uf = certify.linear_range_upper(problem.true, problem.true_theta(MP), problem.T, lo, hi, dps)
    if hasattr(problem.learned, "offset") or hasattr(problem.true, "offset"):  # not written for biases
        uh = uf = None
    if uh is None or uf is None or uh > 0 or uf > 0:
        return False, ("uncertified: a non-injective readout and no proof that both models' logits are "
                       "<= 0 on the whole training box; the gap survives the estimated fit error")
    gap = certify.logit_gap_lower(problem.learned, theta, problem.true, problem.true_theta(MP), X[None], dps,
                                  problem.activation)
    if gap <= 0:
        return False, "uncertified: the gap's ball lower bound is 0"
    return True, (f"certified: ball bounds max logit_h <= {fmt(uh)} and max logit_f <= {fmt(uf)} over the "
                  f"whole training box (lengths <= {problem.T}), so both output exactly 0 there (an exact "
                  f"zero-risk learner); the gap at the witness is >= {fmt(gap)}")
