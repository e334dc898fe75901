"""Every family's float64 forward passes (logits, states, token maps) run in any array-API namespace.

array-api-strict has nothing beyond the standard, so a numpy-only habit in a forward pass (an array
method the standard lacks, np.concatenate on its arrays, a host parameter mixed into device arrays)
fails here instead of on a GPU. It computes with numpy's own kernels in the same order, so its results
equal numpy's exactly. The object backends keep computing on numpy object arrays."""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from proofkit.families import DeepSets, LinearRecurrence, VanillaRNN
from proofkit.families.biased import with_readout_bias
from proofkit.families.deepsets import HingeDeepSets
from proofkit.families.meanpool import MeanPoolDeepSets, MeanPoolHingeDeepSets
from proofkit.families.pairwise import PairwiseSum
from proofkit.numerics import arrays
from proofkit.numerics.backend import FLOAT64, MP

FAMILIES = {
    "deepsets": lambda: DeepSets(n=2, k=2, m=2, width=3),
    "deepsets-bias": lambda: DeepSets(n=3, k=2, m=3, width=4, readout_bias=True),
    "hinge": lambda: HingeDeepSets(n=2, k=2, m=2, knots=(Fraction(1, 2), Fraction(4, 5))),
    "hinge-bias": lambda: HingeDeepSets(n=1, k=1, m=1, knots=(Fraction(2, 3),), readout_bias=True),
    "mean": lambda: MeanPoolDeepSets(n=2, k=2, m=2, width=3, readout_bias=True),
    "mean-hinge": lambda: MeanPoolHingeDeepSets(n=1, k=1, m=1, knots=(Fraction(2, 3),), readout_bias=True),
    "linrec": lambda: LinearRecurrence(n=2, k=3, m=2),
    **{f"rnn-{s}": (lambda s=s: VanillaRNN(n=2, k=3, m=2, sigma=s))
       for s in ("sigmoid", "tanh", "softplus", "relu", "identity")},
    "pairwise": lambda: PairwiseSum(n=2, k=2, m=2, degree=2),
    "pairwise-hinge-bias": lambda: PairwiseSum(n=1, k=2, m=1, degree=3, residual=False, readout_bias=True,
                                               knots=(Fraction(1, 2),)),
    "pairwise-k3": lambda: PairwiseSum(n=2, k=3, m=2, degree=1),
    "biased-deepsets": lambda: with_readout_bias(DeepSets(n=2, k=2, m=2, width=3)),
    "biased-linrec": lambda: with_readout_bias(LinearRecurrence(n=2, k=2, m=2)),
    "biased-rnn": lambda: with_readout_bias(VanillaRNN(n=2, k=2, m=2, sigma="tanh")),
}


def _case(key: str, N: int = 5, t: int = 6):
    fam = FAMILIES[key]()
    rng = np.random.default_rng(sum(map(ord, key)))
    return fam, rng.normal(0.0, 0.5, fam.n_params), rng.uniform(-0.2, 1.3, (N, t, fam.n))


def _passes(fam, theta, X, ops, move):
    """Every forward pass the family has, in ``ops``, with inputs moved by ``move``."""
    base = getattr(fam, "base", fam)
    out = {"logits": fam.logits(theta, move(X), ops)}
    if hasattr(base, "states"):
        out["states"] = fam.states(theta, move(X), ops)
    if hasattr(fam, "token_map"):
        out["token_map"] = fam.token_map(theta, move(X[:, 0, :]), ops)
    return out


def _compare(key: str, name: str, close) -> None:
    fam, theta, X = _case(key)
    xp = arrays.namespace(name)
    ops = arrays.float64_ops(xp)
    want = _passes(fam, theta, X, FLOAT64, lambda a: a)
    on_host = _passes(fam, theta, X, ops, lambda a: arrays.asarray(a, xp))  # theta moved by the family
    moved = _passes(fam, arrays.asarray(theta, xp), X, ops, lambda a: arrays.asarray(a, xp))
    assert set(want) == set(on_host) == set(moved)
    for what in want:
        for got in (on_host[what], moved[what]):
            assert not isinstance(got, np.ndarray) or arrays.is_numpy(xp), (key, what, type(got))
            close(arrays.to_numpy(got), want[what], f"{key} {what}")


def _exact(got, want, where):
    assert got.dtype == np.float64 and np.array_equal(got, want), where


@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_forward_passes_equal_numpy_exactly_on_array_api_strict(key):
    _compare(key, "array-api-strict", _exact)


@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_numpy_namespace_is_the_float64_backend(key):
    _compare(key, "numpy", _exact)


@pytest.mark.gpu
@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_forward_passes_on_cupy(key):
    """CUDA's exp/tanh differ from numpy's by an ulp or two and its reductions run in another order,
    so the logits agree to rounding: 1e-13 of max(1, |logit|) over six tokens."""
    def close(got, want, where):
        assert np.max(np.abs(got - want)) <= 1e-13 * max(1.0, float(np.max(np.abs(want)))), where

    _compare(key, "cupy", close)


@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_object_backends_stay_numpy_object_arrays(key):
    """mpmath forward passes stay object arrays of mpf and agree with float64 to its rounding."""
    fam, theta, X = _case(key, N=2, t=3)
    with mp.workdps(30):
        got = fam.logits(MP.asarray(theta), MP.asarray(X), MP)
        assert isinstance(got, np.ndarray) and got.dtype == object
        assert all(isinstance(v, mp.mpf) for v in got.ravel())
        want = fam.logits(theta, X)
        np.testing.assert_allclose(np.asarray(got, dtype=float), want, rtol=1e-12, atol=1e-12)
