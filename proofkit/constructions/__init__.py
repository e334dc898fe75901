"""Exact constructions: counterexample learners built in closed form where one exists in general, so what
the search finds is certified rather than fitted (issue: the over-parametrized linear recurrence at any
k~ > n). Each construction sees only the problem (true model, learned family, support, lengths) and
returns exact learned parameters; :mod:`proofkit.engine.falsify` tries them before any fit and certifies them
like any other candidate (:func:`proofkit.certificates.certify_model.certificate`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .linrec import chain_learner


@dataclass(frozen=True)
class Construction:
    """Exact learned parameters (fraction strings, in the learned family's order) and how they were
    built."""

    learned: list[str]
    how: str


def _linear_recurrence(family: Any) -> tuple[Any, bool]:
    """(the LinearRecurrence under ``family`` or None, whether a readout bias wraps it)."""
    from ..families.linrec import LinearRecurrence

    base = getattr(family, "base", None)
    if isinstance(family, LinearRecurrence):
        return family, False
    if isinstance(base, LinearRecurrence) and hasattr(family, "offset"):
        return base, True
    return None, False


def exact_learners(problem: Any) -> list[Construction]:
    """Every construction that applies to ``problem`` (possibly none)."""
    out: list[Construction] = []
    learned, biased = _linear_recurrence(problem.learned)
    true, true_biased = _linear_recurrence(problem.true)
    if learned is not None and true is not None and biased == true_biased:
        theta = [Fraction(str(v)) for v in problem.theta_true]
        blocks = true.unpack(np.asarray(theta[: true.n_params], dtype=object))
        made = chain_learner(blocks, learned.k, problem.T, theta[true.n_params:])
        if made is not None:
            out.append(Construction([str(v) for v in made[0]], made[1]))
    return out


#: closed-form witness constructions by name (records name theirs, so replay re-runs the same one)
WITNESSES = ("pair-bump",)


def witness(problem: Any) -> tuple[Any, list[str]]:
    """The first closed-form witness construction that applies (a certified
    :class:`proofkit.language.spec.WitnessOutcome`), or None, with why each construction did not apply."""
    from .pairsum import off_support_bump

    why: list[str] = []
    out, reason = off_support_bump(problem)
    if out is not None:
        return out, why
    why.append(f"pair-bump: {reason}")
    return None, why
