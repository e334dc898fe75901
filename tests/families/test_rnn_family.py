"""VanillaRNN family (logits and states against a direct numpy loop, the chain-rule Jacobian against
finite differences, backends agree) and the projection of a group element onto (signed) permutations."""

import mpmath as mp
import numpy as np
import pytest

from proofkit.engine.identify import Undefined, describe_element, project
from proofkit.families import VanillaRNN
from proofkit.numerics.backend import FLOAT64, MP, SYM

SIGMA = {"sigmoid": lambda z: 1 / (1 + np.exp(-z)), "tanh": np.tanh,
         "softplus": lambda z: np.logaddexp(0.0, z), "relu": lambda z: np.maximum(z, 0.0),
         "identity": lambda z: z}


def _params(rng, n=2, k=3, m=2):
    return rng.normal(0, 0.8, m * k), rng.normal(0, 0.6, k * k), rng.normal(0, 1.0, k * n)


def _loop(A, Lam, B, X, f):
    out, states = [], []
    for x in X:
        h = np.zeros(Lam.shape[0])
        hs = []
        for xt in x:
            h = f(Lam @ h + B @ xt)
            hs.append(h)
        out.append(A @ h)
        states.append(hs)
    return np.array(out), np.array(states)


@pytest.mark.parametrize("sigma", list(SIGMA))
def test_logits_and_states_match_a_direct_loop(sigma):
    rng = np.random.default_rng(0)
    fam = VanillaRNN(2, 3, 2, sigma=sigma)
    a, lam, b = _params(rng)
    theta = np.concatenate([a, lam, b])
    X = rng.uniform(-1, 1, (5, 4, 2))
    want, want_states = _loop(a.reshape(2, 3), lam.reshape(3, 3), b.reshape(3, 2), X, SIGMA[sigma])
    assert np.allclose(fam.logits(theta, X), want, atol=1e-13)
    assert np.allclose(fam.states(theta, X), want_states, atol=1e-13)


@pytest.mark.parametrize("sigma", list(SIGMA))
def test_jacobian_matches_central_differences(sigma):
    rng = np.random.default_rng(1)
    fam = VanillaRNN(2, 3, 2, sigma=sigma)
    theta = np.concatenate(_params(rng))
    X = rng.uniform(0, 1, (4, 3, 2))
    J = fam.jacobian(theta, X)
    assert J.shape == (4, 2, fam.n_params)
    eps = 1e-6
    for i in range(fam.n_params):
        e = np.zeros_like(theta)
        e[i] = eps
        fd = (fam.logits(theta + e, X) - fam.logits(theta - e, X)) / (2 * eps)
        assert np.allclose(J[:, :, i], fd, atol=1e-7), (sigma, i)  # ReLU: no kink within eps here


def test_mpmath_and_sympy_backends_agree_with_float64():
    rng = np.random.default_rng(2)
    fam = VanillaRNN(2, 2, 2, sigma="sigmoid")
    theta = np.concatenate(_params(rng, 2, 2, 2))
    X = rng.uniform(0, 1, (2, 3, 2))
    with mp.workdps(40):
        zm = fam.logits(MP.asarray(theta), MP.asarray(X), MP)
        Jm = fam.jacobian(MP.asarray(theta), MP.asarray(X), MP)
    assert np.allclose(np.array(zm, dtype=float), fam.logits(theta, X), atol=1e-14)
    assert np.allclose(np.array(Jm, dtype=float), fam.jacobian(theta, X), atol=1e-13)
    relu = VanillaRNN(2, 2, 2, sigma="relu")
    th_q, X_q = SYM.asarray(np.round(theta, 2)), SYM.asarray(np.round(X, 2))
    exact = relu.logits(th_q, X_q, SYM)  # rational arithmetic end to end
    assert all(v.is_Rational for v in exact.ravel())
    assert np.allclose(np.array(exact, dtype=float), relu.logits(np.round(theta, 2), np.round(X, 2)))


def test_bad_activation_is_an_input_error():
    from proofkit.errors import InputError

    with pytest.raises(InputError):
        VanillaRNN(2, 2, 2, sigma="gelu")


def _mp(M):
    return np.array([[mp.mpf(v) for v in row] for row in M], dtype=object)


def test_projection_onto_permutations_is_exact_and_named():
    est = _mp([[1e-30, 1 + 1e-30], [1 - 2e-30, -3e-31]])
    P = project(est, "permutation")
    assert P.tolist() == [[0, 1], [1, 0]] and all(isinstance(v, mp.mpf) for v in P.ravel())
    assert describe_element(P) == "swap"
    assert describe_element(project(_mp([[0.9, 0.2], [0.1, 1.1]]), "permutation")) == "identity"


def test_signed_permutation_keeps_signs_permutation_drops_them():
    est = _mp([[0.02, 0.97], [-1.01, 0.03]])
    S = project(est, "signed-permutation")
    assert S.tolist() == [[0, 1], [-1, 0]]
    assert project(est, "signed permutation").tolist() == S.tolist()  # both spellings
    assert describe_element(S) == "e0->-e1, e1->e0"
    assert project(est, "permutation").tolist() == [[0, 1], [1, 0]]


def test_assignment_not_entrywise_threshold():
    # no entry is near 1, yet the assignment picks the pattern of largest total magnitude (3x3)
    est = _mp([[0.4, 0.45, 0.0], [0.0, 0.5, 0.3], [0.5, 0.0, 0.2]])  # row maxima: columns 1, 1, 0
    assert project(est, "permutation").tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]


def test_projection_needs_a_square_estimate_and_a_known_group():
    with pytest.raises(Undefined):
        project(_mp([[1.0, 0.0, 0.0]]), "permutation")
    with pytest.raises(ValueError):
        project(_mp([[1.0]]), "orthogonal")


def test_float64_backend_is_the_default():
    fam = VanillaRNN(1, 1, 1)
    assert fam.logits(np.array([2.0, 0.5, 1.0]), np.ones((1, 1, 1)), FLOAT64)[0, 0] == pytest.approx(
        2 / (1 + np.exp(-1.0)))
