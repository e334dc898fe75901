"""The float64 warm start abandons a start that stalls (proofkit.engine.fit: cost down by less than
STALL_DROP over
STALL_STEPS accepted steps while above WARM_TOL) and leaves every other run exactly as it was."""

import numpy as np
import pytest

from proofkit.engine import fit as fitmod
from proofkit.engine.problem import build_problem
from proofkit.language import registry
from proofkit.numerics.backend import FLOAT64


def problem(tid, **overrides):
    thm = registry.get(tid)
    return build_problem(thm, thm.params.resolve(overrides), seed=0, dps=60)


def random_start(p, index, seed=0):
    """The index-th seeded random restart fit() tries (structured starts left out)."""
    return list(fitmod.start_order(p, seed, index + 1, structured=0)[1])[index]


def without_rule(p, theta0):
    counts = {}
    x, r = fitmod.lm64(lambda th: p.residual(th, FLOAT64), lambda th: p.residual_jacobian(th, FLOAT64),
                       theta0, counts=counts)
    return x, float(np.max(np.abs(r))), counts


def with_and_without_rule(p, theta0):
    """(end point, largest residual, counts) of the warm start with the stall rule, then without it."""
    counts = {}
    x, r64 = fitmod.warm_start(p, theta0, counts=counts)
    return (x, r64, counts), without_rule(p, theta0)


def test_a_stalled_start_is_abandoned_where_it_would_have_ended_anyway():
    # AM24.T4, seed 0: the first random restart sits at max |r| 0.83 from about its 40th accepted step
    p = problem("AM24.T4")
    (_, r64, counts), (_, r_full, full) = with_and_without_rule(p, random_start(p, 0))
    assert counts["abandoned"] == 1 and full["abandoned"] == 0
    assert counts["iterations"] < full["iterations"] == 200
    assert counts["accepted"] > fitmod.STALL_STEPS
    assert r64 > fitmod.WARM_TOL and r_full > fitmod.WARM_TOL  # the full run did not converge either
    assert r64 == pytest.approx(r_full, rel=1e-2)


def test_a_slow_start_that_converges_runs_exactly_as_without_the_rule():
    # AM24.T1, seed 0: the sixth random restart crawls along max |r| 0.035 for some 50 accepted steps,
    # then converges; the rule must not stop it, and its end point is bit for bit the same
    p = problem("AM24.T1")
    (x, r64, counts), (x_full, _, full) = with_and_without_rule(p, random_start(p, 5))
    assert r64 <= fitmod.WARM_TOL and counts["abandoned"] == 0
    assert counts == full and np.array_equal(x, x_full)


def test_the_rule_only_fires_above_its_threshold():
    p = problem("AM24.T4")
    counts = {}
    x, _ = fitmod.lm64(lambda th: p.residual(th, FLOAT64), lambda th: p.residual_jacobian(th, FLOAT64),
                       random_start(p, 0), stall_above=np.inf, counts=counts)
    assert counts["abandoned"] == 0 and counts["iterations"] == 200


def test_fit_counts_its_iterations_and_says_what_it_abandoned():
    p = problem("AM24.T4")
    res = fitmod.fit(p, dps=60, seed=0, structured=0)
    assert res.converged and res.restart_used == 1 and res.abandoned == 1
    each = []
    for i in range(2):  # the abandoned start, then the one that converged
        counts = {}
        fitmod.warm_start(p, random_start(p, i), counts=counts)
        each.append(counts["iterations"])
    assert res.lm_iterations == sum(each) < 200
    failed = fitmod.fit(problem("AM24.T4", learned_dim=1), dps=60, seed=0, restarts=3)
    assert not failed.converged and failed.lm_iterations > 0
    assert ("abandoned as stalled" in failed.reason) == (failed.abandoned > 0)
