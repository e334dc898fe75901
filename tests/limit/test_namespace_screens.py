"""The float64 screens of the limit-transformer engine through the array namespace
(proofkit.numerics.arrays): the
forward-pass screen and the dense error sweep of the MLP norm fits give the same numbers, bit for bit, on
numpy and on array-api-strict; on CuPy (GPU only) the same flags and outputs to float64 rounding.
(The positional-embedding engine has no float64 screen: its evaluations are exact, mpmath or balls, and
posembed/gd.py is a training reference.)"""

from __future__ import annotations

import numpy as np
import pytest

from proofkit.errors import InputError
from proofkit.limit import mlpnorm, variants
from proofkit.limit.model import evaluate, screen_float64
from proofkit.limit.zoo import MODELS
from proofkit.numerics import arrays

BACKENDS = ["numpy", "array-api-strict", pytest.param("cupy", marks=pytest.mark.gpu)]


def _models() -> dict:
    """The zoo, plus the departures from the paper's setting (late positions, far keys, late biases,
    heaviside MLP) that take their own branches of the screen."""
    out = {name: make() for name, make in MODELS.items()}
    for variant in ("non-periodic", "non-local", "non-translation-invariant", "heaviside"):
        f, g, _ = variants.build_pair(variant, 6)
        out[f"{variant}/f"], out[f"{variant}/g"] = f, g
    return out


MODEL_SET = _models()


def _same(got, want, exact: bool) -> bool:
    """Exact equality, or (CuPy: another libm and matmul order) equality to float64 rounding."""
    got = arrays.to_numpy(got)
    return np.array_equal(got, want) if exact else np.allclose(got, want, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(MODEL_SET))
def test_forward_screen_is_identical_on_every_namespace(backend, name):
    xp, model = arrays.namespace(backend), MODEL_SET[name]
    rng = np.random.default_rng(7)
    for N in (1, 3, 9):  # N = 9 passes N0 = 6 of the late-position variants
        X = rng.integers(0, len(model.alphabet), size=(24, N))
        for p in (None, 2, 6):
            out, boundary = screen_float64(model, X, p, arrays.namespace("numpy"))
            d_out, d_boundary = screen_float64(model, arrays.asarray(X, xp), p, xp)
            assert d_boundary.dtype == xp.bool and d_out.dtype == xp.float64
            assert np.array_equal(arrays.to_numpy(d_boundary), boundary), (N, p)
            assert _same(d_out, out, backend != "cupy"), (N, p)


@pytest.mark.parametrize("name", ["two-sets", "far-key", "non-periodic/g", "heaviside/f"])
def test_forward_screen_matches_the_exact_pass_off_the_boundary(name):
    model = MODEL_SET[name]
    rng = np.random.default_rng(3)
    X = rng.integers(0, len(model.alphabet), size=(12, 8))
    with arrays.using("array-api-strict"):
        out, boundary = screen_float64(model, X, 4)
    assert isinstance(out, np.ndarray) and isinstance(boundary, np.ndarray)  # no namespace: host arrays
    for row, o, b in zip(X, out, boundary):
        if not b:
            exact = evaluate(model, [model.alphabet[i] for i in row], 4).out
            assert np.allclose(o, [float(v) for v in exact], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("backend", ["numpy", "array-api-strict"])
def test_forward_screen_refuses_bad_tokens(backend):
    xp, model = arrays.namespace(backend), MODEL_SET["two-sets"]
    for X, match in (([[0, 3]], r"token indices in \[0, 3\)"), ([[-1]], "token indices"),
                     ([[0.5]], "integer array"), (np.zeros((2, 0), dtype=np.int64), "N >= 1")):
        with pytest.raises(InputError, match=match):
            screen_float64(model, arrays.asarray(X, xp), 4, xp)


@pytest.mark.parametrize("backend", BACKENDS)
def test_dense_error_sweep_is_identical_on_every_namespace(backend):
    xp = arrays.namespace(backend)
    rng = np.random.default_rng(1)
    a, t, w = rng.uniform(1, 8, 30), rng.uniform(-1.2, 1.2, 30), rng.normal(size=30)
    for psi in ("tanh", "relu", "sigmoid"):
        want = mlpnorm.dense_error(a, t, w, 0.25, 3.0, psi, 45_001, arrays.namespace("numpy"))
        got = mlpnorm.dense_error(a, t, w, 0.25, 3.0, psi, 45_001, xp)  # three blocks, a ragged last one
        assert got == want if backend != "cupy" else np.allclose(got, want, rtol=1e-12)
    z = np.linspace(-1.0, 1.0, 45_001)
    direct = np.max(np.abs(np.tanh(a * (z[:, None] - t)) @ w + 0.25 - np.sin(3.0 * z)))
    assert np.isclose(mlpnorm.dense_error(a, t, w, 0.25, 3.0, "tanh", 45_001)[0], direct, rtol=1e-12)


def test_lp_fit_reports_the_same_on_a_strict_namespace():
    want = mlpnorm.lp_fit_norm(2.0, 0.02, "tanh")
    got = mlpnorm.lp_fit_norm(2.0, 0.02, "tanh", xp=arrays.namespace("array-api-strict"))
    assert got == want and got.eta <= 0.02 and got.L >= got.lower
