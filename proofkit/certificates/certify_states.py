"""All-length certificates for relations between the hidden states of two families linear in their inputs.

A relation over the states (AM24.T4's ``h~_t = C h_t``) compares the learned and the true states at every
position of every sequence; sampled sequences say nothing between them. For a linear recurrence the
states are linear in the inputs, ``s_t = sum_j Lam^j B x_{t-j}``. A relation linear in the states reads

    lhs - rhs = P h~_t - Q h_t

with P, Q matrices of parameters and group elements (read off the relation by evaluating it at unit states,
:func:`proofkit.certificates.certify_features.linear_action`). It holds at every length t >= 1 and every token
sequence iff the state Markov parameters ``P Lam~^j B~ - Q Lam^j B`` vanish for every j. With the readouts
replaced by P and Q (a family's optional ``state_readout``), ``P h~_t - Q h_t`` is the logit gap of two linear
recurrences, and :func:`proofkit.certificates.certify.markov_all_lengths_bound` bounds its supremum over every
length and every token in a box (the first J terms plus geometric tails), in ball arithmetic.

P and Q are evaluated in the ball environment the caller passes (parameters and group elements as balls
over a parameter ball), so the bound holds for every parameter of that ball. Where no bound applies
(a side not linear in the states, a family without ``state_readout``, a mode of modulus >= 0.999, a
relation that cannot be evaluated in balls) the outcome says why, and the caller keeps its samples.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from ..families import Family
from ..numerics.backend import ARB
from ..numerics.balls import Bound, arb_precision
from ..numerics.matexpr import Env, Undefined
from .certify import (
    MAX_MARKOV_TERMS,
    STABLE_RADIUS,
    markov_all_lengths_bound,
    power_guard_digits,
    spectral_radius,
)
from .certify_features import affine_degree, linear_action


@dataclass(frozen=True)
class StatesOutcome:
    """A bound of sup |lhs - rhs| over every length and every token of a box, or why there is none."""

    bound: Bound | None
    reason: str = ""


def box_words(lo: np.ndarray, hi: np.ndarray) -> str:
    """The token box as the generalization claims print it: ``[0..1, 0..1]``."""
    return "[" + ", ".join(f"{float(a):g}..{float(b):g}" for a, b in zip(lo, hi)) + "]"


def guard_digits(learned: Family, theta_h: np.ndarray, true: Family, theta_f: np.ndarray) -> int:
    """Extra digits for the inputs of :func:`states_relation_bound`: enough for the most powers the
    all-length bound may sum (``MAX_MARKOV_TERMS``) of either transition; 0 for families without a
    state readout (no bound is attempted)."""
    if not (hasattr(learned, "state_readout") and hasattr(true, "state_readout")):
        return 0
    return power_guard_digits(((learned, theta_h), (true, theta_f)), MAX_MARKOV_TERMS)


def _state_size(fam: Family, theta: np.ndarray) -> int:
    """Dimension of the family's states (one length-1 sequence of zero tokens, in balls)."""
    return int(fam.states(theta, ARB.zeros((1, 1, fam.n)), ARB).shape[-1])


def states_relation_bound(lhs: sp.Basic, rhs: sp.Basic, names: tuple[str, str], learned: Family,
                          theta_h: np.ndarray, true: Family, theta_f: np.ndarray, benv: Env,
                          lo: np.ndarray, hi: np.ndarray, dps: int, guard: int = 10) -> StatesOutcome:
    """Ball upper bound of sup |lhs - rhs| over every length t >= 1 and every token sequence with tokens
    in the box [lo, hi], where ``names`` = (learned state, true state) are the relation's state symbols,
    the learned states those of ``learned`` at ``theta_h`` and the true ones of ``true`` at ``theta_f``
    (parameters given as balls, e.g. the fit's parameter ball and the exact true decimals).

    ``benv`` holds every other symbol of the relation as balls consistent with those parameters (learned
    and true matrices, group elements evaluated over the same ball). The bound covers the symmetric box
    |x_c| <= max(|lo_c|, |hi_c|), which contains [lo, hi].

    ``guard``: extra digits (beyond ``dps``) at which the caller built ``benv`` and ``theta_f``, and at
    which P and Q are read off. Radii of rounded inputs grow like |Lam|^j over the summed powers, so a
    point (the fitted learner, exact decimals) needs :func:`guard_digits` of them to stay a point."""
    states = f"{names[0]}, {names[1]}"
    if affine_degree(lhs, set(names)) is None or affine_degree(rhs, set(names)) is None:
        return StatesOutcome(None, f"the relation is not linear in the states {states}")
    lacking = [f"{fam.name} ({role})" for fam, role in ((learned, "learned"), (true, "true"))
               if not (hasattr(fam, "state_readout") and hasattr(fam, "states"))]
    if lacking:
        return StatesOutcome(None, f"no state readout for {', '.join(lacking)}: its states are not known "
                                   "to be linear in the inputs")
    with arb_precision(dps + guard):
        try:
            sizes = (_state_size(learned, theta_h), _state_size(true, theta_f))
            (Pl, Ql, cl), (Pr, Qr, cr) = (linear_action(s, names, sizes, benv) for s in (lhs, rhs))
        except (Undefined, ZeroDivisionError, TypeError, ValueError, KeyError) as exc:
            return StatesOutcome(None, f"the relation cannot be evaluated in balls ({exc})")
        if Pl.shape != Pr.shape or Ql.shape != Qr.shape:
            return StatesOutcome(None, "the two sides differ in shape")
        if not all(v.is_zero() for v in np.ravel(cl - cr)):
            return StatesOutcome(None, f"the relation is affine, not linear, in the states {states} "
                                       "(a term without a state)")
        P, Q = Pl - Pr, Qr - Ql  # lhs - rhs = P h~ - Q h
        fam_h, th_h = learned.state_readout(theta_h, P, ARB)
        fam_f, th_f = true.state_readout(theta_f, Q, ARB)
    rho = max(spectral_radius(fam_h, th_h), spectral_radius(fam_f, th_f))
    if rho >= STABLE_RADIUS:
        return StatesOutcome(None, f"a state transition has a mode of modulus {rho:.4g} >= {STABLE_RADIUS}: "
                                   "no geometric tail bounds every length")
    token_bound = np.maximum(np.abs(np.asarray(lo, dtype=float)), np.abs(np.asarray(hi, dtype=float)))
    found = markov_all_lengths_bound(fam_h, th_h, fam_f, th_f, token_bound, dps)
    if found is None:
        return StatesOutcome(None, "no power p <= 64 of a state transition contracts in the inf-norm: "
                                   "no geometric tail bounds every length")
    value, J = found
    domain = f"every length t >= 1, tokens in {box_words(lo, hi)}"
    return StatesOutcome(Bound(value, domain, (
        f"lhs - rhs = P {names[0]} - Q {names[1]} with P ({P.shape[0]}x{P.shape[1]}) and Q "
        f"({Q.shape[0]}x{Q.shape[1]}) read off the relation in balls; state Markov parameters "
        f"P Lam~^j B~ - Q Lam^j B for j < {J} plus geometric tails, {dps} digits")))
