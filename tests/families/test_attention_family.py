"""PairwiseSum family (AM24 Assumption 3 class): logits against a direct numpy loop over positions,
the exact Jacobian against central differences at float64, backends agree, the linear coordinates
(G = A W, R = A E), and the exact zero-risk analysis of proofkit.families.pairwise_columns."""

import mpmath as mp
import numpy as np
import pytest

from proofkit.families import pairwise_columns as cp
from proofkit.families.pairwise import PairwiseSum, monomials, swap_exponent
from proofkit.numerics.backend import ARB, FLOAT64, MP, SYM


def _loop(fam, A, W, X):
    """Direct loop: A (sum_{j<=t} W p(x_t, x_j) + E x_t) at the last position, p built monomial by
    monomial from the exponent tuples."""
    out = []
    for x in X:
        t = len(x)
        a = x[-1]
        u = np.zeros(fam.k)
        for j in range(t):
            z = np.concatenate([a, x[j]])
            p = np.array([np.prod([z[v] ** d for v, d in enumerate(e)]) for e in fam.exponents])
            u += W @ p
        if fam.residual:
            u[: min(fam.k, fam.n)] += a[: min(fam.k, fam.n)]
        out.append(A @ u)
    return np.array(out)


@pytest.mark.parametrize("residual", [True, False])
@pytest.mark.parametrize("n,k,m,degree", [(2, 2, 2, 2), (1, 1, 1, 3), (2, 3, 1, 1), (3, 2, 2, 2)])
def test_logits_match_a_direct_loop(residual, n, k, m, degree):
    rng = np.random.default_rng(0)
    fam = PairwiseSum(n, k, m, degree, residual)
    theta = rng.normal(0, 0.7, fam.n_params)
    p = fam.unpack(theta)
    for t in (1, 2, 4):
        X = rng.uniform(0, 1, (5, t, n))
        assert np.allclose(fam.logits(theta, X), _loop(fam, p["A"], p["W"], X), atol=1e-12)


@pytest.mark.parametrize("residual", [True, False])
def test_jacobian_matches_central_differences(residual):
    rng = np.random.default_rng(1)
    fam = PairwiseSum(2, 2, 2, 2, residual)
    theta = rng.normal(0, 0.7, fam.n_params)
    X = rng.uniform(0, 1, (4, 3, 2))
    J = fam.jacobian(theta, X)
    assert J.shape == (4, 2, fam.n_params)
    eps = 1e-6
    for i in range(fam.n_params):
        e = np.zeros_like(theta)
        e[i] = eps
        fd = (fam.logits(theta + e, X) - fam.logits(theta - e, X)) / (2 * eps)
        assert np.allclose(J[:, :, i], fd, atol=1e-8), i


def test_backends_agree():
    rng = np.random.default_rng(2)
    fam = PairwiseSum(2, 2, 2, 2, True)
    theta = np.round(rng.normal(0, 0.7, fam.n_params), 2)
    X = np.round(rng.uniform(0, 1, (3, 3, 2)), 2)
    z64, J64 = fam.logits(theta, X), fam.jacobian(theta, X)
    with mp.workdps(40):
        zmp = fam.logits(MP.asarray(theta), MP.asarray(X), MP)
    zs = fam.logits(SYM.asarray([str(v) for v in theta]), SYM.asarray([[[str(v) for v in r] for r in s]
                                                                        for s in X]), SYM)
    za = fam.logits(ARB.asarray(theta), ARB.asarray(X), ARB)
    Js = fam.jacobian(SYM.asarray([str(v) for v in theta]), SYM.asarray([[[str(v) for v in r] for r in s]
                                                                           for s in X]), SYM)
    assert np.allclose(np.vectorize(float)(zmp), z64, atol=1e-12)
    assert np.allclose(np.vectorize(float)(zs), z64, atol=1e-12)
    assert all(abs(float(a.mid()) - b) < 1e-12 and a.rad() < 1e-12 for a, b in zip(za.ravel(), z64.ravel()))
    assert np.allclose(np.vectorize(float)(Js), J64, atol=1e-12)


def test_linear_coordinates_reproduce_the_logits():
    rng = np.random.default_rng(3)
    fam = PairwiseSum(2, 2, 2, 2, True)
    theta = rng.normal(0, 0.7, fam.n_params)
    X = rng.uniform(0, 1, (4, 3, 2))
    parts = fam.linear_parts(theta)
    z = fam.pooled(X) @ parts["G"].T + X[:, -1, :] @ parts["R"].T
    assert np.allclose(z, fam.logits(theta, X), atol=1e-12)


def test_monomials_and_swap():
    e = monomials(2, 2)
    assert len(e) == 15 and e[0] == (0, 0, 0, 0)
    assert sorted(map(swap_exponent, e)) == sorted(e)
    fam = PairwiseSum(2, 2, 2, 1, True, basis_degree=2)
    sym = fam.relation_symbols(np.arange(fam.n_params, dtype=float), FLOAT64)
    assert sym["W"].shape == (2, 15) and np.all(sym["W"][:, 5:] == 0)


def test_exact_zero_risk_analysis_thresholds():
    e = monomials(1, 2)
    rows = [([0] * len(e), [1])]  # f: G = 0, R = 1 (any true point; only the kernel matters)
    all1 = cp.analyse(e, e, rows, 1, True, True, [1])
    all2 = cp.analyse(e, e, rows, 1, True, True, [1, 2])
    only3 = cp.analyse(e, e, rows, 1, True, True, [3])
    assert all1.failures and all2.dim == 0 and not all2.failures
    # a single supervised length leaves A free: psi = A^-1 [B phi + (B - A) a / T] (one direction)
    assert only3.dim == 1 and only3.failures
    v = only3.kernel[0]
    assert v[-1] != 0 and v[e.index((1, 0))] == -v[-1] / 3
