"""Interval existence proofs (proofkit.certificates.existence) and the Markov Jacobian they rest on:
Krawczyk's test
on toy systems, square subsystems, and exact zero-risk learners of AM24.T4 with gaps valid on the
whole proven box."""

from __future__ import annotations

import flint
import mpmath as mp
import numpy as np
import pytest
import sympy as sp

from proofkit.certificates import existence
from proofkit.engine.check import fit_theorem
from proofkit.engine.problem import build_problem
from proofkit.families import LinearRecurrence
from proofkit.language import registry
from proofkit.numerics.backend import ARB, FLOAT64, MP, SYM, Ops
from proofkit.numerics.balls import arb_precision

T4 = registry.get("AM24.T4")


def _flat(fam: LinearRecurrence, theta: np.ndarray, count: int, ops: Ops = FLOAT64) -> np.ndarray:
    return np.concatenate([M.reshape(-1) for M in fam.markov(theta, count, ops)])


# ----------------------------------------------------------------------------- markov_jacobian
@pytest.mark.parametrize("n,k,m,count", [(2, 2, 2, 3), (3, 4, 2, 4), (1, 3, 2, 2), (2, 1, 1, 5)])
def test_markov_jacobian_matches_finite_differences(n, k, m, count):
    fam = LinearRecurrence(n=n, k=k, m=m)
    theta = np.random.default_rng(n + 10 * k + 100 * m).normal(0.0, 0.5, fam.n_params)
    J = fam.markov_jacobian(theta, count)
    assert J.shape == (count * m * n, fam.n_params)
    h = 1e-6
    fd = np.array([(_flat(fam, theta + h * e, count) - _flat(fam, theta - h * e, count)) / (2 * h)
                   for e in np.eye(fam.n_params)]).T
    np.testing.assert_allclose(J, fd, atol=1e-8)


def test_markov_jacobian_exact_in_sympy_and_enclosed_by_balls():
    fam = LinearRecurrence(n=2, k=2, m=1)
    syms = sp.symbols(f"t0:{fam.n_params}")
    markov = sp.Matrix(list(_flat(fam, np.array(syms, dtype=object), 3, SYM)))
    values = [sp.Rational(i - 3, 7) for i in range(fam.n_params)]
    expected = markov.jacobian(syms).subs(dict(zip(syms, values)))
    exact = fam.markov_jacobian(SYM.asarray(np.array(values, dtype=object)), 3, SYM)
    assert sp.Matrix(exact) - expected == sp.zeros(*exact.shape)
    with arb_precision(40):
        balls = fam.markov_jacobian(ARB.asarray(np.array([str(v) for v in values], dtype=object)), 3, ARB)
        for b, e in zip(balls.ravel(), exact.ravel()):
            assert b.contains(flint.arb(int(e.p)) / int(e.q))
    assert fam.markov_jacobian(np.zeros(fam.n_params), 0).shape == (0, fam.n_params)


# ----------------------------------------------------------------------------- krawczyk
def _sqrt2():
    return (lambda y: np.array([y[0] ** 2 - 2], dtype=object), lambda Y: [[2 * Y[0]]])


def test_krawczyk_proves_sqrt2_in_a_tiny_box():
    F, J = _sqrt2()
    proof = existence.krawczyk(F, J, [1.41421356], dps=60)
    assert proof is not None and proof.free == (0,)
    with arb_precision(60):
        assert proof.box[0].contains(flint.arb(2).sqrt())
    assert proof.radius[0] < mp.mpf("1e-12") and proof.unique_radius < mp.mpf("1e-6")
    assert abs(proof.center[0] - mp.sqrt(2)) < mp.mpf("1e-12")
    assert "exactly one zero" in proof.how
    wide = existence.krawczyk(F, J, [mp.mpf("1.4")], radius=0.1, dps=30)
    assert wide is not None and wide.unique_radius == mp.mpf("0.1")


def test_krawczyk_two_unknowns():
    """x^2 + y^2 = 1, x = y: the zero (1/sqrt 2, 1/sqrt 2)."""
    proof = existence.krawczyk(lambda v: np.array([v[0] ** 2 + v[1] ** 2 - 1, v[0] - v[1]], dtype=object),
                               lambda V: [[2 * V[0], 2 * V[1]], [1, -1]], ["0.7071", "0.7071"], dps=50)
    assert proof is not None
    with arb_precision(50):
        root = 1 / flint.arb(2).sqrt()
        assert all(b.contains(root) for b in proof.box)


def test_krawczyk_declines_singular_and_missing_zeros():
    assert existence.krawczyk(lambda y: np.array([y[0] ** 2], dtype=object), lambda Y: [[2 * Y[0]]],
                              [0.0]) is None  # singular midpoint Jacobian
    assert existence.krawczyk(lambda y: np.array([y[0] ** 2 + 1], dtype=object), lambda Y: [[2 * Y[0]]],
                              [0.1]) is None  # no real zero: the test cannot pass
    assert existence.krawczyk(lambda v: np.array([v[0] + v[1] - 1, 2 * v[0] + 2 * v[1] - 2], dtype=object),
                              lambda V: [[1, 1], [2, 2]], [0.5, 0.5]) is None  # a line of zeros
    with pytest.raises(ValueError):
        existence.krawczyk(lambda v: np.array([v[0]], dtype=object), lambda V: [[1, 0]], [0.0, 0.0])


# ----------------------------------------------------------------------------- square_subsystem
def test_square_subsystem_full_rank_and_rank_deficient():
    J = np.array([[1.0, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 3.0]])
    sub = existence.square_subsystem(J)
    assert sub is not None and sub.rank == 2 and sub.rows == (0, 1) and not sub.left_out
    assert len(sub.free) == 2 and sorted(sub.free + sub.fixed) == [0, 1, 2, 3] and sub.cond < 10
    dependent = np.array([[1.0, 2.0, 0.0], [2.0, 4.0, 0.0], [0.0, 0.0, 1.0]])
    sub = existence.square_subsystem(dependent)
    assert sub is not None and sub.rank == 2 and len(sub.left_out) == 1 and len(sub.rows) == 2
    assert existence.square_subsystem(np.zeros((2, 3))) is None
    assert existence.square_subsystem(np.array([[np.nan, 1.0]])) is None


# ----------------------------------------------------------------------------- AM24.T4
def _t1_learner(shift: str, noise: str | None = None) -> tuple:
    """T = 1: true A and B with Lam + shift in one entry (an exact zero-risk learner; Lam is free), plus
    optional noise of size ``noise`` on every coordinate (a fit that is only near a zero)."""
    problem = build_problem(T4, T4.params.resolve({"T": 1}), seed=0, dps=60)
    true = [str(v) for v in problem.theta_true]
    p = problem.learned.unpack(np.array(true, dtype=object))
    Lam = p["Lam"].copy()
    Lam[0, 1] = str(mp.mpf(Lam[0, 1]) + mp.mpf(shift))
    exact = problem.learned.pack({"A": p["A"], "Lam": Lam, "B": p["B"]}, SYM)
    with mp.workdps(70):
        theta = MP.asarray(np.array([str(v) for v in exact], dtype=object))
        if noise is not None:
            rng = np.random.default_rng(3)
            theta = theta + MP.asarray(rng.uniform(-1, 1, len(theta))) * mp.mpf(noise)
    return problem, true, exact, theta


def test_t4_T1_exact_learner_is_enclosed_and_differs_at_length_2():
    problem, true, exact, theta = _t1_learner("0.25")
    with mp.workdps(70):
        proof = existence.zero_risk_ball_markov(problem.learned, theta, problem.true, true, 1, 60)
    assert proof, getattr(proof, "reason", "")
    assert len(proof.free) == 4 and len(proof.fixed) == 8 and "4 Markov equations j < 1" in proof.how
    with arb_precision(200):  # the known exact zero (unique near the fit) lies in the proven box
        assert all(b.contains(ARB.convert(v)) for b, v in zip(proof.box, exact))
    X = np.array([[[1.0, 0.0], [0.0, 0.0]]])
    gap = existence.gap_lower_on_box(problem.learned, proof.box, problem.true, true, X, 60)
    assert gap > mp.mpf("0.1124")  # exactly max |A E B e_1| = 0.25 * |B[1, 0]| * max |A[:, 0]| = 0.1125


def test_t4_T1_near_zero_fit_proves_existence_and_gap():
    problem, true, _, theta = _t1_learner("0.25", noise="1e-40")
    with mp.workdps(70):
        proof = existence.zero_risk_ball_markov(problem.learned, theta, problem.true, true, 1, 60)
    assert proof, getattr(proof, "reason", "")
    assert max(proof.radius) < mp.mpf("1e-50")
    X = np.array([[[1.0, 0.0], [0.0, 0.0]]])
    assert existence.gap_lower_on_box(problem.learned, proof.box, problem.true, true, X, 60) > 0


def test_t4_default_fit_has_an_exact_zero_and_no_gap_at_length_3():
    fitted = fit_theorem(T4, T4.params.resolve({}), dps=60, seed=0)
    problem = fitted.problem
    true = [str(v) for v in problem.theta_true]
    proof = existence.zero_risk_ball_markov(problem.learned, fitted.theta, problem.true, true, 2, 60)
    assert proof, getattr(proof, "reason", "")
    assert len(proof.free) == 8 and len(proof.fixed) == 4 and "8 Markov equations j < 2" in proof.how
    with arb_precision(60):  # consistency: the Markov residual over the box contains 0
        res = (_flat(problem.learned, proof.box, 2, ARB)
               - _flat(problem.true, ARB.asarray(np.array(true, dtype=object)), 2, ARB))
        assert all(r.contains(0) for r in res)
    X = np.array([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]])
    assert existence.gap_lower_on_box(problem.learned, proof.box, problem.true, true, X, 60) == 0


def test_t4_rank_deficient_overdetermined_is_not_proven():
    """Issue #9 finding 1: learned_dim = 3, T = 3 fits land where the 12 Markov equations have rank 10."""
    fitted = fit_theorem(T4, T4.params.resolve({"learned_dim": 3, "T": 3}), dps=60, seed=0)
    problem = fitted.problem
    true = [str(v) for v in problem.theta_true]
    out = existence.zero_risk_ball_markov(problem.learned, fitted.theta, problem.true, true, 3, 60)
    assert not out and isinstance(out, existence.Unproven)
    assert "rank 10 < 12" in out.reason and "not proven" in out.reason


def test_gap_lower_on_box_needs_balls():
    fam = LinearRecurrence(n=1, k=1, m=1)
    with pytest.raises(TypeError):
        existence.gap_lower_on_box(fam, np.array([1.0, 0.5, 1.0]), fam, ["1", "0.5", "1"],
                                   np.ones((1, 2, 1)), 60)
