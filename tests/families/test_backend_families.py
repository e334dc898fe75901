"""Backends (float64 / mpmath / arb / sympy) and the model families' analytic Jacobians, Markov
parameters, gauge tangents and canonical forms."""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath as mp
import numpy as np
import pytest
import sympy as sp

from proofkit.families import DeepSets, LinearRecurrence
from proofkit.numerics import balls
from proofkit.numerics.backend import ARB, FLOAT64, MP, SYM, mp_abs_max, mp_str, ops_for, to_float

FAMILIES = {
    "linrec-square": lambda: LinearRecurrence(n=2, k=2, m=2),
    "linrec-k3-m2-n3": lambda: LinearRecurrence(n=3, k=3, m=2),
    "linrec-k1-m2": lambda: LinearRecurrence(n=2, k=1, m=2),
    "deepsets-square": lambda: DeepSets(n=2, k=2, m=2, width=3),
    "deepsets-bias-k2-m3": lambda: DeepSets(n=2, k=2, m=3, width=3, readout_bias=True),
    "deepsets-nobias-k3-m2": lambda: DeepSets(n=3, k=3, m=2, width=2, readout_bias=False),
}


def _setup(key: str, N: int = 3, t: int = 3, seed: int = 0):
    fam = FAMILIES[key]()
    rng = np.random.default_rng(seed)
    theta = rng.normal(0.0, 0.6, fam.n_params)
    if isinstance(fam, LinearRecurrence):  # keep the recurrence tame
        p = fam.unpack(theta.copy())
        p["Lam"] = 0.5 * p["Lam"] / max(1.0, np.abs(np.linalg.eigvals(p["Lam"])).max())
        theta = fam.pack(p)
    X = rng.uniform(-1.0, 1.0, (N, t, fam.n))
    return fam, theta, X


# ----------------------------------------------------------------------------- layout
def test_layout_and_pack_roundtrip():
    fam = DeepSets(n=3, k=2, m=4, width=5, readout_bias=True)
    assert list(fam.layout) == ["A", "a", "W1", "b1", "W2", "b2"]
    assert fam.n_params == 8 + 4 + 15 + 5 + 10 + 2
    assert len(fam.param_names()) == fam.n_params and fam.param_names()[0] == "A[0,0]"
    assert "a[3]" in fam.param_names()
    theta = np.arange(fam.n_params, dtype=float)
    np.testing.assert_array_equal(fam.pack(fam.unpack(theta)), theta)
    assert "a" not in DeepSets(n=3, k=2, m=4, width=5).layout
    lr = LinearRecurrence(n=3, k=4, m=2)
    assert lr.layout == {"A": (2, 4), "Lam": (4, 4), "B": (4, 3)}
    with pytest.raises(ValueError):
        lr.pack({"A": np.zeros((4, 2)), "Lam": np.zeros((4, 4)), "B": np.zeros((4, 3))})


def test_linrec_logits_small_by_hand():
    fam = LinearRecurrence(n=1, k=1, m=1)
    theta = np.array([2.0, 0.5, 3.0])  # A, Lam, B
    X = np.array([[[1.0], [10.0], [100.0]]])
    # s1 = 3, s2 = 1.5 + 30 = 31.5, s3 = 15.75 + 300 = 315.75; logit = 2 * s3
    assert fam.logits(theta, X)[0, 0] == pytest.approx(631.5, rel=1e-15)
    states = fam.states(theta, X)
    np.testing.assert_allclose(states[0, :, 0], [3.0, 31.5, 315.75])


def test_deepsets_logits_by_hand():
    fam = DeepSets(n=1, k=1, m=1, width=1, readout_bias=True)
    A, a, W1, b1, W2, b2 = 2.0, 0.25, 0.7, -0.1, 1.5, 0.3
    theta = np.array([A, a, W1, b1, W2, b2])
    xs = [0.2, -0.4]
    X = np.array([[[x] for x in xs]])
    want = A * sum(W2 * np.tanh(W1 * x + b1) + b2 for x in xs) + a
    assert fam.logits(theta, X)[0, 0] == pytest.approx(want, rel=1e-14)
    np.testing.assert_allclose(fam.token_map(theta, np.array([[0.2]])), [[W2 * np.tanh(0.04) + b2]])


# ----------------------------------------------------------------------------- Jacobians
def _fd_float(fam, theta, X, h=1e-6):
    J = np.zeros(fam.jacobian(theta, X).shape)
    for i in range(fam.n_params):
        e = np.zeros_like(theta)
        e[i] = h
        J[:, :, i] = (fam.logits(theta + e, X) - fam.logits(theta - e, X)) / (2 * h)
    return J


@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_jacobian_matches_central_differences_float64(key):
    fam, theta, X = _setup(key, N=4, t=3)
    J = fam.jacobian(theta, X)
    assert J.shape == (4, fam.m, fam.n_params) and J.dtype == float
    Jfd = _fd_float(fam, theta, X)
    scale = max(1.0, np.abs(Jfd).max())
    assert np.abs(J - Jfd).max() <= 1e-7 * scale
    assert np.abs(J).max() > 1e-3  # not a vacuous comparison


@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_jacobian_matches_mp_differences_at_50_digits(key):
    fam, theta0, X0 = _setup(key, N=2, t=3, seed=1)
    with mp.workdps(50):
        theta = MP.asarray(theta0)
        X = MP.asarray(X0)
        J = fam.jacobian(theta, X, MP)
        assert J.shape == (2, fam.m, fam.n_params)
        assert isinstance(J.flat[0], mp.mpf)
        h = mp.mpf("1e-20")
        worst = mp.mpf(0)
        for i in range(fam.n_params):
            tp, tm = theta.copy(), theta.copy()
            tp[i] += h
            tm[i] -= h
            col = (fam.logits(tp, X, MP) - fam.logits(tm, X, MP)) / (2 * h)
            worst = max(worst, mp_abs_max(J[:, :, i] - col))
        assert worst <= mp.mpf("1e-20")
        # and agrees with the float64 Jacobian
        np.testing.assert_allclose(to_float(J), fam.jacobian(theta0, X0), rtol=1e-12, atol=1e-13)


# ----------------------------------------------------------------------------- backends agree
@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_float64_and_mpmath_logits_agree(key):
    fam, theta, X = _setup(key, N=5, t=4, seed=2)
    z64 = fam.logits(theta, X)
    with mp.workdps(40):
        zmp = fam.logits(MP.asarray(theta), MP.asarray(X), MP)
        assert isinstance(zmp.flat[0], mp.mpf)
    assert z64.shape == zmp.shape == (5, fam.m)
    scale = max(1.0, np.abs(z64).max())
    assert np.abs(z64 - to_float(zmp)).max() <= 1e-13 * scale


@pytest.mark.parametrize("key", ["linrec-k3-m2-n3", "deepsets-bias-k2-m3", "deepsets-square"])
def test_arb_logits_contain_mpmath_value(key):
    fam, theta0, X0 = _setup(key, N=3, t=3, seed=3)
    theta_txt = [repr(float(v)) for v in theta0]  # exact decimals shared by both backends
    X_txt = np.vectorize(lambda v: repr(float(v)), otypes=[object])(X0)
    with mp.workdps(60):
        zmp = fam.logits(MP.asarray(theta_txt), MP.asarray(X_txt), MP)
        digits = [mp_str(v, 60) for v in zmp.ravel()]
    with balls.arb_precision(30):
        zarb = fam.logits(ARB.asarray(theta_txt), ARB.asarray(X_txt), ARB)
    assert isinstance(zarb.flat[0], flint.arb)
    with balls.arb_precision(90):  # points converted much tighter than the balls
        for ball, txt in zip(zarb.ravel(), digits, strict=True):
            assert ball.rad() < flint.arb("1e-25")
            assert ball.contains(flint.arb(txt)), (ball, txt)
            # a value 1e-15 away is not in the ball: the check is not vacuous
            assert not ball.contains(flint.arb(txt) + flint.arb("1e-15"))


def test_sympy_exact_linear_recurrence():
    fam = LinearRecurrence(n=2, k=2, m=2)
    theta_q = [Fraction(v) for v in ("3/2", "-7/10", "2/5", "6/5", "3/5", "-1/3", "1/5", "1/2",
                                     "1", "1/2", "-3/10", "4/5")]
    F = Fraction
    Xq = [[[F(1, 2), F(-1)], [F(2, 3), F(0)], [F(1), F(1, 7)]]]
    z = fam.logits(SYM.asarray(theta_q), SYM.asarray(Xq), SYM)
    assert SYM.exact
    for v in z.ravel():
        assert isinstance(v, sp.Rational)
    # independent exact computation with Fractions
    A = [theta_q[0:2], theta_q[2:4]]
    L = [theta_q[4:6], theta_q[6:8]]
    B = [theta_q[8:10], theta_q[10:12]]

    def mv(M, v):
        return [sum(M[r][c] * v[c] for c in range(2)) for r in range(2)]

    s = [Fraction(0), Fraction(0)]
    for x in Xq[0]:
        s = [a + b for a, b in zip(mv(L, s), mv(B, x), strict=True)]
    want = mv(A, s)
    assert [Fraction(int(v.p), int(v.q)) for v in z[0]] == want
    # float64 agrees to rounding
    zf = fam.logits(np.array([float(v) for v in theta_q]), np.array(Xq, dtype=float))
    np.testing.assert_allclose(zf[0], [float(w) for w in want], rtol=1e-14)


def test_sympy_exact_jacobian_is_rational():
    fam = LinearRecurrence(n=1, k=1, m=1)
    theta = SYM.asarray(["1/3", "1/2", "2"])  # A, Lam, B
    X = SYM.asarray([[[1], [3]]])
    J = fam.jacobian(theta, X, SYM)
    # logit = A (Lam B x1 + B x2): dA = Lam B x1 + B x2, dLam = A B x1, dB = A (Lam x1 + x2)
    assert list(J[0, 0]) == [sp.Rational(7), sp.Rational(2, 3), sp.Rational(7, 6)]


def test_ops_for_and_conversions():
    assert ops_for("float64") is FLOAT64 and ops_for("mpmath") is MP
    assert ops_for("arb") is ARB and ops_for("sympy") is SYM
    with mp.workdps(30):
        assert MP.convert(Fraction(1, 3)) == mp.mpf(1) / 3
        assert MP.convert(sp.Rational(2, 7)) == mp.mpf(2) / 7
    assert SYM.convert(0.1) == sp.Rational(Fraction(0.1))  # exact binary value, not 1/10
    assert SYM.convert("0.1") == sp.Rational(1, 10)
    with pytest.raises(TypeError):
        SYM.convert(object())
    assert FLOAT64.zeros((2, 3)).shape == (2, 3)
    z = MP.zeros((2,))
    assert isinstance(z[0], mp.mpf) and z[0] == 0


# ----------------------------------------------------------------------------- Markov parameters
@pytest.mark.parametrize("n,k,m", [(2, 2, 2), (3, 2, 2), (2, 3, 1)])
def test_markov_reproduces_logits(n, k, m):
    fam = LinearRecurrence(n=n, k=k, m=m)
    rng = np.random.default_rng(4)
    theta = rng.normal(0, 0.5, fam.n_params)
    t = 5
    X = rng.normal(0, 1, (3, t, n))
    M = fam.markov(theta, t)
    assert len(M) == t and M[0].shape == (m, n)
    want = sum(X[:, t - 1 - j, :] @ M[j].T for j in range(t))
    np.testing.assert_allclose(fam.logits(theta, X), want, rtol=1e-12, atol=1e-12)
    with mp.workdps(50):
        Mmp = fam.markov(MP.asarray(theta), t, MP)
        zmp = fam.logits(MP.asarray(theta), MP.asarray(X), MP)
        wmp = sum(MP.asarray(X[:, t - 1 - j, :]) @ Mmp[j].T for j in range(t))
        assert mp_abs_max(zmp - wmp) < mp.mpf("1e-45")


# ----------------------------------------------------------------------------- gauge symmetry
@pytest.mark.parametrize("key", sorted(FAMILIES))
def test_gauge_tangent_in_jacobian_null_space(key):
    fam, theta, X = _setup(key, N=6, t=4, seed=5)
    G = fam.gauge_tangent(theta)
    k = fam.k
    assert G.shape == (fam.n_params, k * k)
    assert np.linalg.matrix_rank(G) == k * k
    J = fam.jacobian(theta, X).reshape(-1, fam.n_params)
    scale = np.abs(J).max() * np.abs(G).max()
    assert np.abs(J @ G).max() <= 1e-12 * scale
    # a generic direction is not in the null space
    v = np.random.default_rng(0).normal(size=fam.n_params)
    assert np.abs(J @ v).max() > 1e-3


def _similar_linrec(fam, theta, S):
    p = fam.unpack(theta)
    Si = np.linalg.inv(S)
    return fam.pack({"A": p["A"] @ S, "Lam": Si @ p["Lam"] @ S, "B": Si @ p["B"]})


def test_linrec_canonicalize_float64_and_mp():
    fam = LinearRecurrence(n=2, k=2, m=2)
    rng = np.random.default_rng(6)
    ref = rng.normal(0, 1, fam.n_params)
    S = np.array([[2.0, 0.5], [-0.3, 1.1]])
    moved = _similar_linrec(fam, ref, S)
    X = rng.normal(0, 1, (3, 4, 2))
    np.testing.assert_allclose(fam.logits(moved, X), fam.logits(ref, X), rtol=1e-12, atol=1e-12)
    assert np.abs(moved - ref).max() > 0.1
    back = fam.canonicalize(moved, ref, FLOAT64)
    np.testing.assert_allclose(back, ref, rtol=1e-12, atol=1e-12)
    with mp.workdps(50):
        ref_mp = MP.asarray(ref)
        Smp = MP.asarray(S)
        Si = np.array(mp.inverse(mp.matrix(Smp.tolist())).tolist(), dtype=object)
        p = fam.unpack(ref_mp)
        moved_mp = fam.pack({"A": p["A"] @ Smp, "Lam": Si @ p["Lam"] @ Smp, "B": Si @ p["B"]}, MP)
        back_mp = fam.canonicalize(moved_mp, ref_mp, MP)
        assert mp_abs_max(back_mp - ref_mp) < mp.mpf("1e-45")


def test_deepsets_canonicalize_square():
    fam = DeepSets(n=2, k=2, m=2, width=3, readout_bias=True)
    rng = np.random.default_rng(7)
    ref = rng.normal(0, 1, fam.n_params)
    S = np.array([[1.5, -0.4], [0.2, 0.9]])
    Si = np.linalg.inv(S)
    p = dict(fam.unpack(ref))
    p["A"], p["W2"], p["b2"] = p["A"] @ S, Si @ p["W2"], Si @ p["b2"]
    moved = fam.pack(p)
    X = rng.normal(0, 1, (3, 4, 2))
    np.testing.assert_allclose(fam.logits(moved, X), fam.logits(ref, X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(fam.canonicalize(moved, ref, FLOAT64), ref, rtol=1e-11, atol=1e-12)
    with mp.workdps(50):
        back = fam.canonicalize(MP.asarray(moved), MP.asarray(ref), MP)
        # moved was rounded to float64, so agreement is to float64 rounding only
        assert mp_abs_max(back - MP.asarray(ref)) < mp.mpf("1e-12")


def test_canonicalize_non_square_is_identity():
    fam = LinearRecurrence(n=2, k=3, m=2)
    rng = np.random.default_rng(8)
    a, b = rng.normal(size=fam.n_params), rng.normal(size=fam.n_params)
    np.testing.assert_array_equal(fam.canonicalize(a, b, FLOAT64), a)
    ds = DeepSets(n=2, k=2, m=3)
    a = rng.normal(size=ds.n_params)
    np.testing.assert_array_equal(ds.canonicalize(a, rng.normal(size=ds.n_params), FLOAT64), a)


def test_canonicalize_singular_readout_returns_theta():
    fam = LinearRecurrence(n=2, k=2, m=2)
    theta = np.array([1.0, 2.0, 2.0, 4.0, 0.5, 0, 0, 0.5, 1, 0, 0, 1])  # singular A
    ref = np.arange(12, dtype=float) + 1
    np.testing.assert_array_equal(fam.canonicalize(theta, ref, FLOAT64), theta)
