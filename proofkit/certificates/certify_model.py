"""Certificates for a found counterexample: proofs that an EXACT zero-risk learner with a real gap exists
(the rules are in docs/verdicts.md, "Counterexamples"). Exactly (rational parameters with equal Markov
parameters and equal readout biases), by an interval existence proof (Krawczyk on the Markov equations;
with a readout bias, on the base family's with the bias set to the true one), by a ball proof that a
ReLU-type readout is dead on the whole training box, or, for any family with short rational parameters,
symbolically (:mod:`proofkit.certificates.certify_symbolic`). :mod:`proofkit.engine.falsify` and
:mod:`proofkit.engine.replay` use
:func:`certificate`, which also returns the structured data the independent kernel re-checks
(:mod:`proofkit.certificates.certificate_data`, docs/trust.md); :func:`certify_model` is its (certified, how)
pair."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import mpmath as mp
import numpy as np

from ..language.tolerances import fmt
from ..numerics import balls
from ..numerics.backend import MP
from . import certificate_data, certify, certify_symbolic, existence

if TYPE_CHECKING:  # annotations only: the engine's Problem is built above this layer
    from ..engine.problem import Problem


@dataclass(frozen=True)
class Certificate:
    """A certification's outcome: certified, the how-text, and the kernel's data (None where the
    certification has no kind the kernel re-checks, or nothing was certified)."""

    certified: bool
    how: str
    data: dict[str, Any] | None = None

    def as_record(self) -> dict[str, Any]:
        """The record's ``certificate`` field: data only when there is some."""
        out: dict[str, Any] = {"certified": self.certified, "how": self.how}
        return out | ({"data": self.data} if self.data is not None else {})


def _no(why: str) -> Certificate:
    """Not certified, and why."""
    return Certificate(False, why)


def certify_exact(problem: Problem, learned: Sequence[str], X: np.ndarray) -> tuple[bool, str]:
    """Exact rational certificate for families linear in the inputs: equal Markov parameters for every
    j < T (and equal readout biases, where the families have one) make h = f on every sequence of
    length <= T (so on the whole support), and the gap at X is an exact non-zero rational."""
    c = _exact(problem, learned, X)
    return c.certified, c.how


def _exact(problem: Problem, learned: Sequence[str], X: np.ndarray) -> Certificate:
    """:func:`certify_exact` with the kernel's ``rational-learner`` data."""
    import sympy as sp

    from ..numerics.backend import SYM

    eq = certify.exact_markov_equal(problem.learned, list(learned), problem.true,
                                    [str(v) for v in problem.theta_true], problem.T)
    if not eq or not all(eq) or not problem.injective or not _same_bias(problem, learned):
        return _no("")
    zh = problem.learned.logits(SYM.asarray(np.asarray(learned, dtype=object)), SYM.asarray(X[None]), SYM)
    zf = problem.true.logits(SYM.asarray(problem.theta_true), SYM.asarray(X[None]), SYM)
    gap = max(abs(v) for v in np.ravel(zh - zf))
    if gap == 0:
        return _no("")
    shown = gap if len(str(gap)) <= 40 else f"{sp.N(gap, 20)}... (an exact non-zero rational)"
    bias = ", readout biases equal" if hasattr(problem.learned, "offset") else ""
    how = (f"certified exactly (rational arithmetic): Markov parameters equal for j < {problem.T}{bias}, so "
           f"h = f on every sequence of length <= {problem.T}; logit gap at the witness = {shown}")
    return Certificate(True, how, certificate_data.rational_learner(problem, learned, X, gap))


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
    """(certified, how) of :func:`certificate`."""
    c = certificate(problem, theta, X, dps, learned)
    return c.certified, c.how


def certificate(problem: Problem, theta: np.ndarray, X: np.ndarray, dps: int,
                learned: Sequence[str] | None = None) -> Certificate:
    """Prove that an exact zero-risk learner with a real gap at X exists (:func:`_certify_model`); as a
    fallback for short rational parameters, a symbolic zero-risk identity in the tokens plus a ball gap at
    the witness (:mod:`proofkit.certificates.certify_symbolic`, any family). Otherwise not certified, and
    why."""
    c = _certify_model(problem, theta, X, dps, learned)
    if c.certified or learned is None or not _exact_input(learned):
        return c
    ok2, how2, gap = certify_symbolic.certify_with_gap(problem, learned, X, dps)
    if not ok2:
        return c
    return Certificate(True, how2, certificate_data.identity(problem, learned, X, dps, gap))


def _certify_model(problem: Problem, theta: np.ndarray, X: np.ndarray, dps: int,
                   learned: Sequence[str] | None = None) -> Certificate:
    """Prove that an exact zero-risk learner with a real gap at X exists: exactly (rational parameters,
    equal Markov parameters for j < T, exact non-zero gap), or by an interval existence proof
    (Krawczyk: an exact solution of the Markov equations j < T lies in a box around the learner) plus a
    ball lower bound of the gap valid on the whole box. Otherwise not certified, and why."""
    if learned is not None and _exact_input(learned):
        c = _exact(problem, learned, X)
        if c.certified:
            return c
        exact_risk = getattr(problem.learned, "exact_zero_risk", None)  # structured families
        if exact_risk is not None:
            ok, how = exact_risk(list(learned), problem.true, [str(v) for v in problem.theta_true],
                                 problem.support, problem.lengths, problem.activation, X)
            if ok:
                return Certificate(ok, how, certificate_data.pooled(problem, learned, X))
    if hasattr(problem.learned, "offset") and hasattr(problem.learned.base, "markov_jacobian"):
        return _certify_biased(problem, theta, X, dps)
    if not (hasattr(problem.learned, "markov") and hasattr(problem.learned, "markov_jacobian")):
        n = problem.n_per_length * len(problem.lengths)
        return _no(f"uncertified: training match at {n} samples only (no interval existence proof for this "
                   "family); the gap survives the estimated fit error")
    lo, hi = problem.support.token_box()
    if not problem.injective:
        return _certify_dead_readout(problem, theta, X, dps, lo, hi, learned)
    columns = problem.support.free_coordinates()
    proof = existence.zero_risk_ball_markov(problem.learned, theta, problem.true,
                                            [str(v) for v in problem.theta_true], problem.T, dps,
                                            columns=columns)
    if not proof:
        return _no(f"uncertified: existence not proven ({proof.reason}); the gap survives the estimated fit "
                   "error")
    gap = existence.gap_lower_on_box(problem.learned, proof.box, problem.true,
                                     [str(v) for v in problem.theta_true], X[None], dps)
    if gap > 0:
        data = certificate_data.krawczyk(problem, problem.learned, proof, _box_center(proof, dps), theta,
                                         X, columns, dps, gap)
        how = (f"certified: {proof.how}; so h = f on every sequence of length <= {problem.T}; the gap at the "
               f"witness is >= {fmt(gap)} on the whole box")
        return Certificate(True, how, data)
    return _no(f"uncertified: {proof.how}, but the gap's ball lower bound on that box is 0; the gap survives "
               "the estimated fit error only")


def _box_center(proof: existence.Proof, dps: int, extra: Sequence[str] = ()) -> list[str]:
    """The proven box's centre as exact decimals: fixed coordinates their stored decimals, free ones the
    midpoint of the enclosure to dps + 25 digits (far below the box radius, 10^-dps relative or more),
    then ``extra`` (a readout bias set to the true one)."""
    with mp.workdps(dps + 30):
        mids = proof.center
        out = [proof.fixed[i] if i in proof.fixed else mp.nstr(mids[i], dps + 25, strip_zeros=False)
               for i in range(len(mids))]
    return out + list(extra)


def _certify_biased(problem: Problem, theta: np.ndarray, X: np.ndarray, dps: int) -> Certificate:
    """A readout bias on a family linear in its inputs: Krawczyk on the base family's Markov equations
    j < T (:func:`existence.zero_risk_ball_markov`) with the bias set to the true one exactly (equal
    Markov parameters and equal biases make h = f on every sequence of length <= T), then a ball lower
    bound of the gap on that whole box."""
    fam, true = problem.learned, problem.true
    if not (problem.injective and hasattr(true, "offset")):
        return _no("uncertified: a readout bias without an injective readout or a biased truth")
    true_params = [str(v) for v in problem.theta_true]
    columns = problem.support.free_coordinates()
    proof = existence.zero_risk_ball_markov(fam.base, fam.core(theta), true.base,
                                            list(true.core(true_params)), problem.T, dps, columns=columns)
    if not proof:
        return _no(f"uncertified: existence not proven ({proof.reason}); the gap survives the estimated fit "
                   "error")
    bias = [str(v) for v in true.offset(np.asarray(true_params, dtype=object))]
    with balls.arb_precision(dps):
        box = np.concatenate([proof.box, balls.to_arb(np.asarray(bias, dtype=object))])
    gap = existence.gap_lower_on_box(fam, box, true, true_params, X[None], dps)
    if gap > 0:
        data = certificate_data.krawczyk(problem, fam, proof, _box_center(proof, dps, bias), theta, X,
                                         columns, dps, gap)
        how = (f"certified: {proof.how}; with the readout bias set to the true one exactly, h = f on every "
               f"sequence of length <= {problem.T}; the gap at the witness is >= {fmt(gap)} on the whole box")
        return Certificate(True, how, data)
    return _no(f"uncertified: {proof.how}, but the gap's ball lower bound on that box (bias = the true one) "
               "is 0; the gap survives the estimated fit error only")


def _certify_dead_readout(problem: Problem, theta: np.ndarray, X: np.ndarray, dps: int, lo: np.ndarray,
                          hi: np.ndarray, learned: Sequence[str] | None) -> Certificate:
    """ReLU-type readouts: if every logit of both models is provably <= 0 on the whole training box (a
    linear function's range on a box, in balls at the learner itself), both output exactly 0 there, so
    the learner is an exact zero-risk learner with no fit error at all; the gap is then a ball bound.
    The kernel's data (``learned``: the parameters as stored, exact) re-derives both exactly."""
    uh = certify.linear_range_upper(problem.learned, theta, problem.T, lo, hi, dps)
    uf = certify.linear_range_upper(problem.true, problem.true_theta(MP), problem.T, lo, hi, dps)
    if hasattr(problem.learned, "offset") or hasattr(problem.true, "offset"):  # not written for biases
        uh = uf = None
    if uh is None or uf is None or uh > 0 or uf > 0:
        return _no("uncertified: a non-injective readout and no proof that both models' logits are <= 0 on "
                   "the whole training box; the gap survives the estimated fit error")
    gap = certify.logit_gap_lower(problem.learned, theta, problem.true, problem.true_theta(MP), X[None], dps,
                                  problem.activation)
    if gap <= 0:
        return _no("uncertified: the gap's ball lower bound is 0")
    data = None if learned is None else certificate_data.ball_bound(problem, learned, X, uh, uf, gap)
    return Certificate(True, f"certified: ball bounds max logit_h <= {fmt(uh)} and max logit_f <= {fmt(uf)} "
                             f"over the whole training box (lengths <= {problem.T}), so both output exactly "
                             f"0 there (an exact zero-risk learner); the gap at the witness is >= {fmt(gap)}",
                       data)
