"""certify_features: support-wide ball bounds for deep-sets relations (A psi = B phi over the whole token
box) and for the pooled logit gap over every sequence up to a length, checked against exact fits,
exact symmetric copies of the true model, perturbations sampled densely, and false relations."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import mpmath as mp
import numpy as np
import pytest
import sympy as sp

from proofkit.certificates.certify_features import exact_balls, sum_bound, token_relation_bound
from proofkit.engine.check import Fitted, fit_theorem
from proofkit.families import DeepSets, LinearRecurrence
from proofkit.language import registry
from proofkit.language.spec import Relation, Theorem
from proofkit.numerics.backend import FLOAT64, MP

DPS = 60
ZERO = mp.mpf("1e-40")


@pytest.fixture(scope="module")
def theorem() -> Theorem:
    return registry.get("AM24.T1")


@pytest.fixture(scope="module")
def fitted(theorem: Theorem) -> Fitted:
    with mp.workdps(DPS):
        out = fit_theorem(theorem, theorem.params.resolve(None), dps=DPS, seed=0)
    assert out.fit.converged
    return out


@pytest.fixture(scope="module")
def env(fitted: Fitted) -> dict[str, Any]:
    """The group element of "psi = M phi": M = A^-1 B at the fit (readouts are rebuilt in balls by
    the certificate itself, so only M comes from here)."""
    p = fitted.problem
    with mp.workdps(DPS):
        A = mp.matrix(p.learned.unpack(fitted.theta)["A"].tolist())
        B = mp.matrix(p.true.unpack(p.true_theta(MP))["A"].tolist())
        return {"M": np.array((mp.inverse(A) * B).tolist(), dtype=object)}


def relation(theorem: Theorem, prefix: str) -> Relation:
    return next(c for c in theorem.claims if isinstance(c, Relation) and c.name.startswith(prefix))


def bound_for(theorem: Theorem, claim: Relation, learned: Any, theta_h: Any, fitted: Fitted,
              env: dict[str, Any]) -> Any:
    p = fitted.problem
    lo, hi = p.support.token_box()
    with mp.workdps(DPS):
        return token_relation_bound(claim.lhs, claim.rhs, theorem.setup, learned, theta_h, p.true,
                                    p.theta_true, env, lo, hi, DPS, theorem.groups)


def gap_at(fitted: Fitted, theta_h: np.ndarray, X: np.ndarray, ops: Any) -> np.ndarray:
    """A_h psi(x) - A_f phi(x) at tokens X (G, n), in the given backend."""
    p = fitted.problem
    th, tf = ops.asarray(theta_h), p.true_theta(ops)
    Ah, Af = p.learned.unpack(th)["A"], p.true.unpack(tf)["A"]
    Xo = ops.asarray(X)
    return p.learned.token_map(th, Xo, ops) @ Ah.T - p.true.token_map(tf, Xo, ops) @ Af.T


def sampled_sup(fitted: Fitted, theta_h: np.ndarray, size: int = 201, top: int = 8) -> tuple[mp.mpf, Any]:
    """max |A psi - B phi| over a dense grid of [0,1]^2: located in float64, re-evaluated at 60 digits at
    the best points. Returns the value and the token where it is attained."""
    axes = np.linspace(0.0, 1.0, size)
    grid = np.array(np.meshgrid(axes, axes)).reshape(2, -1).T
    g = np.abs(gap_at(fitted, np.array([float(v) for v in theta_h]), grid, FLOAT64)).max(axis=1)
    best = grid[np.argsort(g)[-top:]]
    with mp.workdps(DPS):
        exact = np.vectorize(abs, otypes=[object])(gap_at(fitted, theta_h, best, MP))
    row, col = np.unravel_index(np.argmax(np.vectorize(float)(exact)), exact.shape)
    return exact[row, col], best[row]


def perturbed(fitted: Fitted, name: str, delta: str = "1e-3") -> np.ndarray:
    theta = fitted.theta.copy()
    theta[fitted.problem.learned.param_names().index(name)] += mp.mpf(delta)
    return theta


# ----------------------------------------------------------------------------- exact fits
@pytest.mark.parametrize("prefix", ["A psi = B phi", "psi = A^-1 B phi", "psi = M phi"])
def test_exact_fit_relation_bound_is_tiny(theorem, fitted, env, prefix):
    b = bound_for(theorem, relation(theorem, prefix), fitted.problem.learned, fitted.theta, fitted, env)
    assert b is not None and b.value <= ZERO
    assert b.domain == "every token x in [0, 1]^2"
    assert "3 hidden-unit pairs" in b.how and "0 unpaired" in b.how


def test_exact_fit_sum_bound_is_tiny(fitted):
    p = fitted.problem
    lo, hi = p.support.token_box()
    b = sum_bound(p.learned, fitted.theta, p.true, p.theta_true, lo, hi, 1000, DPS)
    assert b is not None and b.value <= ZERO
    assert b.domain == "every sequence of length <= 1000 with tokens in [0, 1]^2"


def test_three_dimensional_tokens_are_covered_as_a_continuum(theorem):
    """n = 3, where the sampled check sees 3 points per axis: the bound covers all of [0, 1]^3."""
    with mp.workdps(DPS):
        fit3 = fit_theorem(theorem, theorem.params.resolve({"n": 3}), dps=DPS, seed=0)
    assert fit3.fit.converged
    p = fit3.problem
    claim = relation(theorem, "A psi = B phi")
    b = token_relation_bound(claim.lhs, claim.rhs, theorem.setup, p.learned, fit3.theta, p.true,
                             p.theta_true, {}, *p.support.token_box(), DPS)
    assert b is not None and b.value <= ZERO and b.domain == "every token x in [0, 1]^3"


def test_false_relation_gets_a_large_bound(theorem, fitted, env):
    b = bound_for(theorem, relation(theorem, "control: psi = phi"), fitted.problem.learned,
                  fitted.theta, fitted, env)
    axes = np.linspace(0.0, 1.0, 101)
    grid = np.array(np.meshgrid(axes, axes)).reshape(2, -1).T
    p = fitted.problem
    with mp.workdps(DPS):
        diff = (p.learned.token_map(fitted.theta, MP.asarray(grid), MP)
                - p.true.token_map(p.true_theta(MP), MP.asarray(grid), MP))
    sampled = max(abs(v) for v in diff.ravel())
    assert sampled > mp.mpf("0.1")
    assert b is not None and b.value >= sampled


# ----------------------------------------------------------------------------- rigour
@pytest.mark.parametrize("name", ["W1[0,0]", "W1[2,1]", "b1[1]", "W2[1,2]", "b2[0]", "A[0,1]"])
def test_bound_dominates_dense_sampling_after_a_perturbation(theorem, fitted, env, name):
    theta = perturbed(fitted, name)
    b = bound_for(theorem, relation(theorem, "A psi = B phi"), fitted.problem.learned, theta, fitted, env)
    sampled, x_star = sampled_sup(fitted, theta)
    assert sampled > mp.mpf("1e-5")  # the perturbation is visible
    assert b is not None and b.value >= sampled
    assert b.value <= 20 * sampled  # and the bound is not vacuous

    p = fitted.problem
    lo, hi = p.support.token_box()
    L = 50
    s = sum_bound(p.learned, theta, p.true, p.theta_true, lo, hi, L, DPS)
    X = np.tile(x_star, (1, L, 1))  # L copies of the worst token: the gap is L times the token gap
    with mp.workdps(DPS):
        zh = p.learned.logits(theta, MP.asarray(X), MP)
        zf = p.true.logits(p.true_theta(MP), MP.asarray(X), MP)
    gap = max(abs(v) for v in (zh - zf).ravel())
    assert s is not None and s.value >= gap >= (L - 1) * sampled


def test_permuted_sign_flipped_copy_of_the_true_model(theorem, fitted, env):
    """psi_h is phi with its hidden units reordered and two of them negated, built from the decimal
    strings (exact): a pairing that ignored the symmetry could not bound this."""
    p = fitted.problem
    true = p.true.unpack(np.array([Fraction(s) for s in p.theta_true], dtype=object))
    order, sign = [2, 0, 1], [1, -1, -1]
    blocks = {"A": true["A"], "b2": true["b2"],
              "W1": np.array([sign[u] * true["W1"][order[u]] for u in range(3)]),
              "b1": np.array([sign[u] * true["b1"][order[u]] for u in range(3)]),
              "W2": np.array([sign[u] * true["W2"][:, order[u]] for u in range(3)]).T}
    theta = np.concatenate([np.asarray(blocks[k], dtype=object).ravel() for k in p.learned.layout])
    assert any(theta[i] != Fraction(s) for i, s in enumerate(p.theta_true))
    b = bound_for(theorem, relation(theorem, "A psi = B phi"), p.learned, theta, fitted, env)
    assert b is not None and b.value <= ZERO
    s = sum_bound(p.learned, theta, p.true, p.theta_true, *p.support.token_box(), 1000, DPS)
    assert s is not None and s.value <= ZERO


def test_readout_gauge_and_bias_offset():
    """Learned (A M^-1, M W2, M b2) with an exact M: A_h psi_h = B phi exactly; a readout bias that is
    off by 1e-3 shows up in the sum bound as exactly that offset at every length."""
    fam = DeepSets(2, 2, 2, 3, readout_bias=True)
    true_theta = np.array([Fraction(v) for v in
                           ["1.0", "0.4", "-0.2", "0.9", "0.1", "-0.2", "1.0", "-0.5", "0.3", "0.8",
                            "-0.7", "0.2", "0.1", "-0.2", "0.05", "0.6", "-0.4", "0.9", "-0.3", "0.7",
                            "0.5", "-0.2", "0.1"]], dtype=object)
    q = fam.unpack(true_theta)
    M = np.array([[Fraction(2), Fraction(0)], [Fraction(1), Fraction(1)]], dtype=object)
    Mi = np.array([[Fraction(1, 2), Fraction(0)], [Fraction(-1, 2), Fraction(1)]], dtype=object)
    blocks = {"A": q["A"] @ Mi, "a": q["a"] + Fraction(1, 1000), "W1": q["W1"], "b1": q["b1"],
              "W2": M @ q["W2"], "b2": M @ q["b2"]}
    theta = np.concatenate([np.asarray(blocks[k], dtype=object).ravel() for k in fam.layout])
    lo, hi = np.zeros(2), np.ones(2)
    for L in (1, 1000):
        b = sum_bound(fam, theta, fam, true_theta, lo, hi, L, DPS)
        # balls.upper rounds a ball's upper end outward by a relative 1e-10
        assert b is not None and mp.mpf("1e-3") <= b.value <= mp.mpf("1e-3") * (1 + mp.mpf("1e-9"))


def test_exact_balls_keep_every_bit_of_an_mpf():
    with mp.workdps(DPS):
        v = -mp.mpf(1) / 3
        ball = exact_balls(np.array([v], dtype=object))[0]
        man, exp = ball.mid().man_exp()
        assert ball.is_exact() and mp.mpf(int(man)) * mp.mpf(2) ** int(exp) == v
    assert exact_balls([0.1])[0].is_exact()  # a float is a dyadic rational, read exactly


# ----------------------------------------------------------------------------- where it does not apply
def test_family_without_the_accessor_returns_none(theorem, fitted, env):
    fam = LinearRecurrence(2, 2, 2)
    theta = np.array([mp.mpf(v) for v in np.linspace(-0.5, 0.5, fam.n_params)], dtype=object)
    lo, hi = np.zeros(2), np.ones(2)
    claim = relation(theorem, "A psi = B phi")
    assert token_relation_bound(claim.lhs, claim.rhs, theorem.setup, fam, theta, fam, theta, env,
                                lo, hi, DPS) is None
    assert sum_bound(fam, theta, fam, theta, lo, hi, 10, DPS) is None


class _SigmoidUnits(DeepSets):
    """Deep sets whose units use an activation that is not odd (the sign symmetry does not hold)."""

    def unit_parts(self, theta: np.ndarray) -> dict[str, Any]:
        return dict(super().unit_parts(theta), activation="sigmoid")


def test_activation_that_is_not_odd_returns_none(theorem, fitted, env):
    fam = _SigmoidUnits(2, 2, 2, 3)
    claim = relation(theorem, "A psi = B phi")
    assert bound_for(theorem, claim, fam, fitted.theta, fitted, env) is None
    p = fitted.problem
    assert sum_bound(fam, fitted.theta, p.true, p.theta_true, *p.support.token_box(), 10, DPS) is None


def test_relation_not_affine_in_the_token_maps_returns_none(theorem, fitted, env):
    psi, phi = theorem.setup.token_symbols
    claim = Relation("psi^T psi = phi^T phi", "identification", "", sp.Transpose(psi) * psi,
                     sp.Transpose(phi) * phi, over="tokens")
    assert bound_for(theorem, claim, fitted.problem.learned, fitted.theta, fitted, env) is None


def test_undefined_inverse_returns_none(theorem, fitted, env):
    """k~ = 3: A is 2 x 3, so psi = A^-1 B phi cannot be evaluated as printed."""
    fam = DeepSets(2, 3, 2, 3)
    theta = np.array([mp.mpf(v) for v in np.linspace(-0.5, 0.5, fam.n_params)], dtype=object)
    assert bound_for(theorem, relation(theorem, "psi = A^-1 B phi"), fam, theta, fitted, env) is None


# ----------------------------------------------------------------------------- cost
def test_well_under_a_second_at_60_digits(theorem, fitted, env):
    p = fitted.problem
    claims = [c for c in theorem.claims if isinstance(c, Relation)]
    t0 = time.perf_counter()
    for claim in claims:
        assert bound_for(theorem, claim, p.learned, fitted.theta, fitted, env) is not None
    assert sum_bound(p.learned, fitted.theta, p.true, p.theta_true, *p.support.token_box(), 1000,
                     DPS) is not None
    assert time.perf_counter() - t0 < 0.25 * (len(claims) + 1)
