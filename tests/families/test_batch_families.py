"""Fused float64 passes over every training length (Family.batch_logits / batch_jacobian, what the fit's
Problem.residual and residual_jacobian use): the same numbers as the length-by-length mpmath path, the
hand-written floor of bench row 1, and no fused pass for a subclass that changes the model."""

import mpmath as mp
import numpy as np
import pytest

from proofkit.bench import lmfloor
from proofkit.engine.problem import build_problem
from proofkit.families import DeepSets, LinearRecurrence
from proofkit.families.base import Batches
from proofkit.families.meanpool import MeanPoolDeepSets
from proofkit.language import registry
from proofkit.numerics.backend import FLOAT64, MP, to_float

#: float64 against 60-digit values of the same residual or Jacobian entry: a float64 evaluation of these
#: small models errs by a few ulps of the entries it sums (|entries| <= 10^2 here), far below this
AGREE = 1e-11

CASES = [("AM24.T4", {}), ("AM24.T4", {"readout_bias": True}), ("AM24.T4", {"n": 3, "T": 3}),
         ("AM24.T1", {}), ("AM24.T1", {"readout_bias": True}), ("AM24.T1", {"activation": "relu"}),
         ("AM24v2.C3", {}), ("AM24.T5", {}), ("AM24.T2", {})]


def problem(tid, **overrides):
    thm = registry.get(tid)
    return build_problem(thm, thm.params.resolve(overrides), seed=0, dps=60)


def theta_for(p, seed=1):
    return p.learned.init(np.random.default_rng(seed), 0.5)


@pytest.mark.parametrize("tid,overrides", CASES)
def test_float64_residual_and_jacobian_match_the_mpmath_path(tid, overrides):
    p = problem(tid, **overrides)
    theta = theta_for(p)
    with mp.workdps(60):
        th = MP.asarray(theta)
        r_mp, J_mp = to_float(p.residual(th, MP)), to_float(p.residual_jacobian(th, MP))
    r, J = p.residual(theta, FLOAT64), p.residual_jacobian(theta, FLOAT64)
    assert r.shape == r_mp.shape and J.shape == J_mp.shape == (r.size, p.learned.n_params)
    assert np.max(np.abs(r - r_mp)) <= AGREE * max(1.0, np.max(np.abs(r_mp)))
    assert np.max(np.abs(J - J_mp)) <= AGREE * max(1.0, np.max(np.abs(J_mp)))


FLOORS = [("AM24.T4", {}), ("AM24.T1", {}), ("AM24.T1", {"readout_bias": True})]
FUSED = FLOORS + [("AM24.T4", {"readout_bias": True})]


@pytest.mark.parametrize("tid,overrides", FUSED)
def test_fused_passes_match_length_by_length_float64(tid, overrides):
    p = problem(tid, **overrides)
    theta, fam = theta_for(p), p.learned
    batches = Batches(p.train_X)
    z = np.concatenate([fam.logits(theta, X) for X in p.train_X])
    J = np.concatenate([fam.jacobian(theta, X) for X in p.train_X])
    scale = max(1.0, np.max(np.abs(J)))
    assert np.max(np.abs(fam.batch_logits(theta, batches) - z)) <= AGREE * scale
    assert np.max(np.abs(fam.batch_jacobian(theta, batches) - J)) <= AGREE * scale


def test_a_subclass_that_changes_the_model_keeps_the_length_by_length_pass():
    mean = MeanPoolDeepSets(2, 2, 2, 3)
    assert not mean.fuses(DeepSets) and DeepSets(2, 2, 2, 3).fuses(DeepSets)
    assert LinearRecurrence(2, 2, 2).fuses(LinearRecurrence)
    rng = np.random.default_rng(0)
    Xs = [rng.uniform(size=(4, t, 2)) for t in (1, 2, 3)]
    theta = mean.init(rng)
    want = np.concatenate([mean.logits(theta, X) for X in Xs])  # divided by each sequence's length
    np.testing.assert_array_equal(mean.batch_logits(theta, Batches(Xs)), want)


def test_batches_views():
    rng = np.random.default_rng(0)
    Xs = [rng.uniform(size=(3, t, 2)) for t in (1, 3)]
    b = Batches(Xs)
    np.testing.assert_array_equal(b.lengths, [1, 1, 1, 3, 3, 3])
    np.testing.assert_array_equal(b.starts, [0, 1, 2, 3, 6, 9])
    np.testing.assert_array_equal(b.tokens[b.starts[3] : b.starts[4]], Xs[1][0])
    assert b.padded.shape == (6, 3, 2)
    np.testing.assert_array_equal(b.padded[:3, :2], 0.0)  # shorter sequences sit behind zero tokens
    np.testing.assert_array_equal(b.padded[:3, 2], Xs[0][:, 0])


@pytest.mark.parametrize("tid,overrides", FLOORS)
def test_the_hand_written_floor_computes_the_same_numbers(tid, overrides):
    p = problem(tid, **overrides)
    hand, theta = lmfloor.hand_model(p), theta_for(p)
    scale = max(1.0, np.max(np.abs(hand.jacobian(theta))))
    assert np.max(np.abs(hand.residual(theta) - p.residual(theta, FLOAT64))) <= AGREE * scale
    assert np.max(np.abs(hand.jacobian(theta) - p.residual_jacobian(theta, FLOAT64))) <= AGREE * scale


def test_no_floor_for_other_families():
    for tid, overrides in (("AM24.T5", {}), ("AM24.T4", {"readout_bias": True}), ("AM24v2.C3", {})):
        with pytest.raises(ValueError, match="no hand-written floor"):
            lmfloor.hand_model(problem(tid, **overrides))
