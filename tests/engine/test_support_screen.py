"""The float64 support screen (proofkit/engine/screen.py) and its hand-over to the high-precision suites.

The biting test plants a learner that equals f except on tokens in a window of width 1e-5 of the token
box (a quadratic B-spline bump of hinge features): the generalization suite's few dozen random sequences
miss it, so without the screen the check confirms; the screen's 2,000 sequences per length hit it, its
worst sequence joins the 60-digit suite, and the gap is decided (refuted) there."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from proofkit.engine import generalization
from proofkit.engine.problem import Problem
from proofkit.engine.screen import SAMPLES, screen
from proofkit.engine.support import Support
from proofkit.engine.support import test_lengths as suite_lengths
from proofkit.errors import InputError
from proofkit.families import DeepSets
from proofkit.families.deepsets import HingeDeepSets
from proofkit.language.spec import Generalization
from proofkit.language.tolerances import ZERO_TOL
from proofkit.language.verdict import Verdict
from proofkit.numerics import arrays
from proofkit.numerics.backend import ARB, MP

#: the bump's window (KAPPA, KAPPA + 3 DELTA): knots KAPPA + i DELTA, coefficients (1, -3, 3, -1) C
KAPPA, DELTA = Fraction(3, 10), Fraction(1, 300000)
HINGE = HingeDeepSets(n=1, k=1, m=1, knots=tuple(KAPPA + i * DELTA for i in range(4)))
TRUE_HINGE = ["1", "0.1", "0.5", "0", "0", "0", "0"]  # A, W: per-token logit 0.1 + 0.5 x
PLANTED = ["1", "0.1", "0.5", "1e8", "-3e8", "3e8", "-1e8"]  # + 1e8 B(x), B's peak 1.5 DELTA^2


def _problem(learned, true, theta_true, activation="sigmoid", n=1, T=2, seed=0) -> Problem:
    return Problem(learned=learned, true=true, theta_true=np.asarray(theta_true, dtype=object),
                   support=Support("iid", n, T), activation=activation, T=T, lengths=list(range(1, T + 1)),
                   n_per_length=20, seed=seed, dps=60)


def _deepsets(activation="sigmoid", seed=0):
    """A deep-sets truth and a learner 1e-3 away from it in every parameter (gaps everywhere)."""
    fam = DeepSets(n=2, k=2, m=2, width=3)
    truth = np.random.default_rng(5).normal(0.0, 0.7, fam.n_params)
    p = _problem(fam, fam, [repr(float(v)) for v in truth], activation, n=2, T=3, seed=seed)
    return p, MP.asarray(truth + 1e-3 * np.random.default_rng(6).normal(size=fam.n_params))


def _in_window(X: np.ndarray) -> bool:
    return bool(np.any((X > float(KAPPA)) & (X < float(KAPPA + 3 * DELTA))))


def _same(a, b) -> None:
    assert [s.length for s in a.per_length] == [s.length for s in b.per_length]
    for x, y in zip(a.per_length, b.per_length):
        assert x.samples == y.samples and x.max_gap == y.max_gap
        assert np.array_equal(x.gaps, y.gaps) and np.array_equal(x.worst, y.worst)


@pytest.mark.parametrize("activation", ["sigmoid", "relu"])
@pytest.mark.parametrize("kind", ["length", "compositional"])
def test_screen_equal_on_numpy_and_array_api_strict(kind, activation):
    """array-api-strict computes with numpy's kernels in the same order: identical gaps and worst
    sequences (the sequences are drawn on the host either way)."""
    p, theta = _deepsets(activation)
    a = screen(p, theta, kind, 300, xp=arrays.namespace("numpy"), keep=3)
    b = screen(p, theta, kind, 300, xp=arrays.namespace("array-api-strict"), keep=3)
    _same(a, b)
    lengths = suite_lengths(p.T) if kind == "length" else list(range(1, p.T + 1))
    assert [s.length for s in a.per_length] == lengths
    assert all(s.worst.shape == (3, s.length, 2) and s.max_gap == s.gaps[0] > 1e-6 for s in a.per_length)
    assert np.all(np.diff(a.per_length[0].gaps) <= 0)
    assert a.compared == ("logits" if activation == "sigmoid" else "outputs")
    assert "array-api-strict (CPU)" in b.words() and "300 sequences per length" in b.words()


def test_screen_deterministic_from_the_problem_seed_and_independent_of_batching():
    """Same seed, same screen; many small batches draw the same sequences from one stream (the gaps
    then agree to rounding only: BLAS kernels round a product differently at different sizes)."""
    p, theta = _deepsets()
    a = screen(p, theta, "length", 200)
    for x, y in zip(a.per_length, screen(p, theta, "length", 200, budget=1000).per_length):
        assert np.array_equal(x.worst, y.worst) and x.max_gap == pytest.approx(y.max_gap, rel=1e-13)
    q, _ = _deepsets(seed=1)
    other = screen(q, theta, "length", 200)
    assert not np.array_equal(other.per_length[0].worst, a.per_length[0].worst)
    np.random.seed(3)  # the legacy global state: the screen must neither read nor advance it
    before = np.random.random()
    np.random.seed(3)
    _same(a, screen(p, theta, "length", 200))
    assert np.random.random() == before


def test_screen_hands_nothing_on_where_h_and_f_agree_to_the_last_bit():
    p, _ = _deepsets()
    r = screen(p, MP.asarray(p.theta_true), "length", 100)
    assert r.max_gap == 0.0 and all(w.shape == (0, s.length, 2) for w, s in zip(r.worst_sequences(),
                                                                             r.per_length))


def test_screen_rejects_bad_input():
    p, theta = _deepsets()
    with pytest.raises(InputError):
        screen(p, theta, "sideways", 10)
    with pytest.raises(InputError):
        screen(p, theta, "length", -1)


class _NumpyOnly(DeepSets):
    """A user's family written for numpy alone (an array method the standard lacks)."""

    def logits(self, theta, X, ops=None):
        return X.sum(axis=1)[:, : self.m]


def test_a_numpy_only_family_on_another_namespace_is_bad_input_not_a_traceback():
    p, theta = _deepsets()
    p = dataclasses.replace(p, learned=_NumpyOnly(n=2, k=2, m=2, width=3))
    assert screen(p, theta, "length", 10, xp=arrays.namespace("numpy")).samples > 0
    with pytest.raises(InputError, match="--backend: expected families whose float64 forward pass uses "
                                         "the array API .*use --backend numpy"):
        screen(p, theta, "length", 10, xp=arrays.namespace("array-api-strict"))


def _decide(p: Problem, kind: str, **kw) -> tuple[Verdict, str]:
    with mp.workdps(p.dps):
        v, _, how, _ = generalization.decide(Generalization("g", kind=kind), p, MP.asarray(PLANTED),
                                             ARB.asarray(PLANTED), False, "exact", np.random.default_rng(1),
                                             **kw)
    return v, how


def test_planted_bump_missed_by_the_suite_caught_by_the_screen_and_decided_at_60_digits():
    p = _problem(HINGE, HINGE, TRUE_HINGE)
    with mp.workdps(p.dps):  # the 60-digit suite alone misses the window
        theta = MP.asarray(PLANTED)
        seqs = generalization.test_sequences(p, "length", np.random.default_rng(1), theta)
        assert not any(_in_window(s) for s in seqs)
        assert generalization.sampled_gap(p, theta, seqs)[0] <= ZERO_TOL
    assert _decide(p, "length", screen_samples=0)[0] == Verdict.CONFIRMED
    longest = screen(p, theta, "length").per_length[-1]
    assert longest.samples == SAMPLES and _in_window(longest.worst[0]) and longest.max_gap > 1e-6
    verdict, how = _decide(p, "length")
    assert verdict == Verdict.REFUTED, how
    assert f"float64 screen of {SAMPLES} sequences per length on numpy (CPU)" in how
    assert "screened only" in how and "5 of them the float64 screen's worst" in how


@pytest.mark.gpu
def test_screen_on_cupy_matches_numpy_and_feeds_the_suite():
    """CuPy's float64 kernels round differently (an ulp or two per operation): the gaps agree to 1e-12
    of max(1, |f|) and the worst sequences (drawn on the host) coincide where the gaps are well apart."""
    p, theta = _deepsets()
    a = screen(p, theta, "length", 500, xp=arrays.namespace("numpy"))
    b = screen(p, theta, "length", 500, xp=arrays.namespace("cupy"))
    for x, y in zip(a.per_length, b.per_length):
        assert abs(x.max_gap - y.max_gap) <= 1e-12 and np.array_equal(x.worst, y.worst)
    with arrays.using("cupy"):
        verdict, how = _decide(_problem(HINGE, HINGE, TRUE_HINGE), "length")
    assert verdict == Verdict.REFUTED and " on cupy " in how, how
