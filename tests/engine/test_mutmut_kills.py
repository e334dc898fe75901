"""Behaviour that a mutmut run over identify.py, tautology.py, families/observer.py and certify.py showed no
fast test pinned (see docs/mutation.md): how relations print and canonicalise, how tautologies are recognised
and explained (identities of symbolic size, negative powers, shapes that fit at only some sizes), the
messages a user reads when a relation is undefined, the exact observer-gauge learner staying in the gauge and
near the fit it was built from, and the certified bounds on closed-form cases (contain the exact value, tight
to rounding)."""

from __future__ import annotations

import re
from fractions import Fraction

import flint
import mpmath as mp
import numpy as np
import pytest
import sympy as sp
from sympy import Identity, Inverse, MatAdd, MatMul, MatPow, MatrixSymbol, Transpose, ZeroMatrix

from proofkit.certificates import certify
from proofkit.engine.identify import (
    Undefined,
    canonical,
    evaluate,
    find_erratum,
    nearby,
    project,
    show,
    show_as_written,
)
from proofkit.engine.tautology import by_definition, holds_generically
from proofkit.families import LinearRecurrence
from proofkit.families.observer import exact_learner
from proofkit.language.spec import GroupElement
from proofkit.numerics import balls
from proofkit.numerics.backend import MP, SYM

n, m = sp.symbols("n m")
i, j = sp.symbols("i j", integer=True, nonnegative=True)
X, Y, Z = (MatrixSymbol(s, n, n) for s in "XYZ")
EYE = Identity(n)
v = MatrixSymbol("v", n, 1)
V, W54 = MatrixSymbol("V", m, n), MatrixSymbol("W", 5, 4)
c, d = sp.symbols("c d")


def _mp(rows) -> np.ndarray:
    return np.array([[mp.mpf(v) for v in r] for r in rows], dtype=object)


# ----------------------------------------------------------------------------- printing and canonical form
@pytest.mark.parametrize("expr, text", [
    (Identity(n), "I"),
    (ZeroMatrix(n, n), "0"),
    (2 * X, "2*X"),
    (-X, "-X"),
    (X * (Y + Z), "X*(Y + Z)"),
    (MatAdd(X, -Y, evaluate=False), "X - Y"),
    (MatPow(X, -2), "X^(-2)"),  # a negative power is parenthesised
    (MatPow(X, j + 1), "X^(j + 1)"),  # so is a compound exponent: not X^j + 1
    (MatPow(X, j), "X^j"),
    (MatPow(X, 2), "X^2"),
    (MatPow(X, 1), "X^1"),
])
def test_show_prints_as_written(expr, text):
    assert show_as_written(expr) == text


def test_show_falls_back_to_sympy_for_other_nodes():
    assert show_as_written(sp.Symbol("c")) == "c"


@pytest.mark.parametrize("expr, text", [
    (Transpose(X + Y), "X.T + Y.T"),  # transposes pushed onto the terms of a sum
    (Transpose(MatPow(X, j)), "X.T^j"),  # and onto the base of a power
    (MatPow(X, 1), "X"),
    (MatPow(X, -1), "X^-1"),
    (MatPow(MatPow(X, -1), -1), "X"),  # a double inverse written as powers is removed
    (MatMul(X, Inverse(X)), "I"),  # a product that cancels completely is the identity
    (Transpose(MatMul(X, Inverse(X))), "I"),
    (MatMul(X, Identity(n), Y), "X*Y"),  # identity factors dropped, the factors after them kept
    (MatMul(X, Inverse(Identity(n)), Y), "X*Y"),
    (Transpose(2 * X), "2*X.T"),  # a coefficient survives the transpose
    (MatMul(Z, Transpose(2 * X)), "2*Z*X.T"),  # and a coefficient nested in a factor is pulled out
    (MatMul(Inverse(Transpose(Y)), Transpose(MatMul(X, Y))), "X.T"),  # cancels across a nested product
])
def test_canonical_form(expr, text):
    assert show(expr) == text


def test_transpose_of_a_zero_matrix_swaps_its_shape():
    zt = canonical(Transpose(ZeroMatrix(m, n)))
    assert isinstance(zt, ZeroMatrix) and zt.shape == (n, m)


# ----------------------------------------------------------------------------- evaluation
def test_undefined_inverse_names_the_shape():
    # symbolic m x n (as in AM24.T1's readouts), non-square at the sizes evaluated
    with pytest.raises(Undefined, match="2x3"):
        evaluate(Inverse(MatrixSymbol("R", m, n)), {"R": _mp([[1, 2, 3], [4, 5, 6]])})


def test_singular_inverse_is_undefined_and_says_so():
    with pytest.raises(Undefined, match="^inverse of a singular matrix$"):
        evaluate(Inverse(MatrixSymbol("S", 2, 2)), {"S": _mp([[1, 2], [2, 4]])})


def test_powers_of_a_one_by_one_and_an_empty_matrix():
    x = MatrixSymbol("x", 1, 1)
    assert evaluate(MatPow(x, 3), {"x": _mp([[2]])})[0, 0] == 8
    e = MatrixSymbol("e", 0, 0)  # a state of dimension 0
    assert evaluate(MatPow(e, 2), {"e": np.zeros((0, 0), dtype=object)}).shape == (0, 0)


def _num(a) -> list:
    return [[float(v) for v in r] for r in np.asarray(a)]


XV, YV = [[1, 2], [3, 5]], [[-2, 1], [4, 0]]


def test_sums_with_scalars_and_an_identity_of_symbolic_size():
    with mp.workdps(30):
        env = {"X": _mp(XV), "Y": _mp(YV)}
        got = evaluate(X + 2 * Y + Identity(n), env)  # I(n) takes the size of the terms it is added to
        assert _num(got) == _num(np.array(XV) + 2 * np.array(YV) + np.eye(2))
        got = evaluate(X + Y - Identity(n) * 3, env)
        assert _num(got) == _num(np.array(XV) + np.array(YV) - 3 * np.eye(2))


def test_negative_and_zero_powers():
    with mp.workdps(30):
        got = evaluate(MatPow(X, -2), {"X": _mp(XV)})
        want = np.linalg.matrix_power(np.linalg.inv(np.array(XV, dtype=float)), 2)
        assert np.allclose(_num(got), want, rtol=1e-12, atol=0)
        # X^0 is the identity even where X is singular (no inverse is taken)
        assert _num(evaluate(MatPow(X, 0), {"X": _mp([[1, 2], [2, 4]])})) == [[1, 0], [0, 1]]


def test_transpose_acts_on_each_matrix_of_a_batch():
    batch = np.array([_mp([[1, 2], [3, 4]]), _mp([[5, 6], [7, 8]]), _mp([[0, -1], [9, 2]])], dtype=object)
    got = evaluate(Transpose(X), {"X": batch})
    assert got.shape == (3, 2, 2)
    assert all(_num(got[b]) == _num(batch[b].T) for b in range(3))


def test_zero_matrix_of_concrete_size():
    got = evaluate(ZeroMatrix(2, 3), {})
    assert got.shape == (2, 3) and all(v == 0 for v in np.ravel(got))


@pytest.mark.parametrize("expr, env, message", [
    (Identity(n), {}, "symbolic size"),
    (2 * Identity(n), {}, "symbolic size"),
    (MatAdd(Identity(n), 2 * Identity(n), evaluate=False), {}, "symbolic size"),
    (MatPow(X, sp.Symbol("c")), {"X": _mp(XV), "c": mp.mpf("0.5")}, "not an integer"),
    (2 * j, {"j": mp.mpf(1)}, "unsupported expression node Mul"),
])
def test_what_cannot_be_evaluated_says_why(expr, env, message):
    # these messages reach the user as "undefined as printed: ..."
    with pytest.raises(Undefined, match=message):
        evaluate(expr, env)


def test_rational_coefficient_in_balls():
    # the ball path of evaluate (relation_upper certifies relations with it)
    R = MatrixSymbol("R", 2, 2)
    env = {"R": np.array([[flint.arb(3), flint.arb(-6)], [flint.arb(9), flint.arb(1)]], dtype=object)}
    out = evaluate(sp.Rational(2, 3) * R, env)
    for got, want in zip(np.ravel(out), (Fraction(2), Fraction(-4), Fraction(6), Fraction(2, 3))):
        assert got.contains(flint.arb(want.numerator) / want.denominator) and got.rad() < 1e-12


def test_signed_permutation_keeps_the_sign_of_small_entries():
    with mp.workdps(30):
        P = project(_mp([["0.9", "0.1"], ["0.05", "-0.8"]]), "signed permutation")
    assert [[int(v) for v in r] for r in P] == [[1, 0], [0, -1]]


def test_unknown_group_is_rejected_naming_the_choices():
    with pytest.raises(ValueError, match=re.escape(
            "unknown group 'orthogonal': expected one of GL, diagonal, permutation, signed-permutation, "
            "signed permutation")):
        project(_mp([[1]]), "orthogonal")


# ----------------------------------------------------------------------------- errata
def test_erratum_on_the_left_hand_side_is_found():
    B, C, Bt = (MatrixSymbol(s, 2, 2) for s in ("B", "C", "Bt"))
    rng = np.random.default_rng(0)
    with mp.workdps(30):
        Bm, Cm = (_mp(rng.integers(-5, 6, size=(2, 2)).tolist()) for _ in range(2))
        envs = [{"B": Bm, "C": Cm, "Bt": Cm @ Bm}]
        found = find_erratum(B * C, Bt, envs, {"C"}, mp.mpf("1e-20"))  # printed B C = Bt, true C B = Bt
    assert found is not None and found[0] == "C*B = Bt" and found[2] == "factors reordered"


def test_nearby_candidates_for_inverses():
    C = MatrixSymbol("C", n, n)
    plain = dict((show(c), what) for c, what in nearby(Inverse(X) * Y, {"C"}))
    assert "X^-1 replaced by X" not in plain.values()  # X is not a group element
    assert "inverse of X replaced by its left pseudo-inverse" in plain.values()
    group = [what for _, what in nearby(Inverse(C) * Y, {"C"})]
    assert "C^-1 replaced by C" in group


# ----------------------------------------------------------------------------- tautologies
@pytest.mark.parametrize("lhs, rhs, why", [
    (X + Y, Y + X, "holds identically: X + Y = X + Y for all X, Y"),
    (Identity(n), Identity(n), "holds identically: I = I always"),
    (MatMul(X, Y, Inverse(Y)), X, "holds identically: X*Y*Y^-1 = X for all X and invertible Y"),
    # identities of symbolic size inside a product, a sum, an inverse, a transpose and a power
    (Inverse(EYE + X) * X, EYE - Inverse(EYE + X),
     "holds identically: (I + X)^-1*X = -(I + X)^-1 + I for all X where the inverses exist"),
    (Transpose(X + EYE), Transpose(X) + EYE, "holds identically: (I + X).T = I + X.T for all X"),
    (MatPow(EYE + X, 2), EYE + 2 * X + X * X,
     "holds identically: (I + X)^2 = 2*X + I + X^2 for all X"),
    # negative powers
    (MatPow(X, -2), Inverse(X * X), "holds identically: X^(-2) = (X^2)^-1 for all invertible X"),
    (MatPow(EYE + X, -2) * (EYE + 2 * X + X * X), EYE,
     "holds identically: (I + X)^(-2)*(2*X + I + X^2) = I for all X where the inverses exist"),
    # two power symbols (sorted by name in the explanation)
    (X**j * Y**i, X**j * Y**i,
     "holds identically: X^j*Y^i = X^j*Y^i for all X, Y (tested at i = 0..3, j = 0..3)"),
])
def test_identities_are_recognised_and_explained(lhs, rhs, why):
    assert by_definition(lhs, rhs, ()) == why


@pytest.mark.parametrize("lhs, rhs, why", [
    # (v v^T)^j v = v (v^T v)^j: v v^T is singular, and j = 0 must not invert it
    (MatPow(v * v.T, j) * v, v * MatPow(v.T * v, j),
     "holds identically: (v*v.T)^j*v = v*(v.T*v)^j for all v (tested at j = 0..3)"),
    # scalar symbols in coefficients get their own draws
    (c * X + d * Y, d * Y + c * X, "holds identically: c*X + d*Y = c*X + d*Y for all X, Y"),
    (Inverse(c * X), MatMul(1 / c, Inverse(X)),
     "holds identically: (c*X)^-1 = 1/c*X^-1 for all invertible X where the inverses exist"),
    # zero matrices keep their (non-square) shape
    (MatAdd(W54, ZeroMatrix(5, 4), evaluate=False), W54, "holds identically: W + 0 = W for all W"),
    (MatAdd(V * X, ZeroMatrix(m, n), evaluate=False), V * X,
     "holds identically: V*X + 0 = V*X for all V, X"),
])
def test_more_identities(lhs, rhs, why):
    assert by_definition(lhs, rhs, ()) == why


def test_scalar_coefficients_are_compared_as_numbers_not_as_formulas():
    # (c + 1)^2 and c^2 + 2c + 1 differ as sympy trees; every scalar symbol must get a drawn value
    lhs = (c + 1)**2 * X + (d + 1)**2 * Y
    rhs = (d**2 + 2 * d + 1) * Y + (c**2 + 2 * c + 1) * X
    assert by_definition(lhs, rhs, ()) is not None
    assert by_definition((c + 1)**2 * X, (c**2 + 1) * X, ()) is None


def test_a_non_identity_with_scalars_is_not_one():
    assert by_definition(c * X * Y, c * Y * X, ()) is None


def test_an_identity_needs_the_scalar_coefficient_right():
    assert by_definition(MatMul(2, X), MatAdd(X, X, evaluate=False), ()) is not None
    assert by_definition(MatMul(2, X), X, ()) is None


def test_explanation_names_every_definition_used():
    At, A, Bt, B = (MatrixSymbol(s, n, n) for s in ("At", "A", "Bt", "B"))
    C, D = MatrixSymbol("C", n, n), MatrixSymbol("D", n, n)
    groups = (GroupElement(C, "GL", definition=At.inv() * A), GroupElement(D, "GL", definition=Bt * B.inv()))
    why = by_definition(At * C * D, A * D, groups)
    assert why.startswith("holds by the definitions C := At^-1*A, D := Bt*B^-1: ")


def test_identity_decided_at_the_one_size_pattern_where_the_shapes_fit():
    # V is m x n and W is 5 x 4: the relation is defined only at m = 5, n = 4 (the second size of the
    # finest pattern), and must be decided there rather than given up as never defined
    V, W = MatrixSymbol("V", m, n), MatrixSymbol("W", 5, 4)
    assert by_definition(V + W, W + V, ()) == "holds identically: V + W = V + W for all V, W"


def test_a_dimension_of_size_zero_does_not_fit():
    U = MatrixSymbol("U", n - 1, n)
    assert holds_generically(U, 2 * U, (), {n: 1}) is None  # 0 x 1: not decided, never "implied"
    assert holds_generically(U, 2 * U, (), {n: 3}) is False


# ----------------------------------------------------------------------------- exact observer-gauge learners
A_F = [[1.5, -0.7], [0.4, 1.2]]
LAM_F = [[0.6, -0.3], [0.2, 0.5]]
B_F = [[1.0, 0.5], [-0.3, 0.8]]


def _strings(*mats) -> list[str]:
    return [repr(float(v)) for M in mats for v in np.ravel(M)]


def _targets(fam, strings, count):
    return [[[Fraction(int(v.p), int(v.q)) for v in row] for row in M]
            for M in fam.markov(SYM.asarray(np.asarray(strings, dtype=object)), count, SYM)]


def _exact_markov(fam, params, count):
    return fam.markov(SYM.asarray(np.asarray([str(v) for v in params], dtype=object)), count, SYM)


def _stratum_learner() -> np.ndarray:
    """k~ = 4 learner on the singular stratum of f = (A_F, LAM_F, B_F) (tests/families/test_observer.py's
    construction): M_j equal to f's for j < 3, not beyond; exact, then rounded to 60 digits."""
    Ae, Le, Be = (sp.Matrix(M).applyfunc(lambda v: sp.Rational(repr(v))) for M in (A_F, LAM_F, B_F))
    v1, w1 = sp.Matrix([[sp.Rational(3, 7)], [sp.Rational(-2, 7)]]), sp.Matrix([[sp.Rational(5, 7), 1]])
    w2 = w1 * Be.inv() * Le * Be
    Lt = sp.zeros(4, 4)
    Lt[:2, :2], Lt[:2, 2], Lt[2, 3] = Le - v1 * w1 * Be.inv(), v1, 1
    At, Bt = Ae.row_join(sp.zeros(2, 2)), Be.col_join(w1).col_join(w2)
    with mp.workdps(60):
        return np.array([mp.mpf(sp.Float(v, 70)) for M in (At, Lt, Bt) for v in M], dtype=object)


def test_exact_learner_stays_near_the_fit():
    # built from the fit's free coordinates rounded to 12 digits, so beyond the matched lengths (where it
    # is exact) its Markov parameters agree with the fit's to about 12 digits, not merely "some" learner
    fam, true = LinearRecurrence(2, 4, 2), LinearRecurrence(2, 2, 2)
    fit = _stratum_learner()
    with mp.workdps(60):
        q = exact_learner(fam, fit, _targets(true, _strings(A_F, LAM_F, B_F), 3), 12)
        assert q is not None
        Mq = _exact_markov(fam, q, 6)
        Mfit = fam.markov(fit, 6, MP)
        Mf = _targets(true, _strings(A_F, LAM_F, B_F), 6)
        assert all(Mq[t][r, c] == Mf[t][r][c] for t in range(3) for r in range(2) for c in range(2))
        for t in range(3, 6):
            gap = max(abs(mp.mpf(sp.Rational(Mq[t][r, c]).p) / sp.Rational(Mq[t][r, c]).q - Mfit[t][r, c])
                      for r in range(2) for c in range(2))
            assert gap < mp.mpf("1e-9"), (t, gap)


def test_exact_learner_is_in_the_observer_gauge():
    # the usual case (targets span all outputs): the readout is exactly [I_m, 0]
    fam, true = LinearRecurrence(2, 4, 2), LinearRecurrence(2, 2, 2)
    with mp.workdps(60):
        q = exact_learner(fam, _stratum_learner(), _targets(true, _strings(A_F, LAM_F, B_F), 3), 6)
    A = [[q[r * 4 + c] for c in range(4)] for r in range(2)]
    assert A == [[1, 0, 0, 0], [0, 1, 0, 0]]


@pytest.mark.parametrize("T", [1, 2])
def test_exact_learner_matches_short_horizons(T):
    fam = LinearRecurrence(2, 2, 2)
    strings = _strings(A_F, LAM_F, B_F)
    with mp.workdps(60):
        q = exact_learner(fam, MP.asarray(np.asarray(strings, dtype=object)), _targets(fam, strings, T), 6)
    assert q is not None  # the fit is f itself, with a square invertible readout (r = k)
    Mq, Mf = _exact_markov(fam, q, T), _targets(fam, strings, T)
    assert all(Mq[t][r, c] == Mf[t][r][c] for t in range(T) for r in range(2) for c in range(2))


def test_exact_learner_with_a_scalar_input():
    # n = 1: [P_0] has rank one
    fam = LinearRecurrence(1, 2, 1)
    strings = _strings([[1.5, -0.7]], LAM_F, [[1.0], [-0.3]])
    with mp.workdps(60):
        q = exact_learner(fam, MP.asarray(np.asarray(strings, dtype=object)), _targets(fam, strings, 2), 6)
    assert q is not None
    Mq, Mf = _exact_markov(fam, q, 2), _targets(fam, strings, 2)
    assert all(Mq[t][0, 0] == Mf[t][0][0] for t in range(2))


def test_readout_outside_the_targets_output_space_gives_none():
    # targets from a rank-one readout span one output direction; a fit whose readout has full rank does
    # not factor through it, and the routine must say so rather than build some other learner
    fam = LinearRecurrence(2, 2, 2)
    rank_one = _strings([[1.5, 0.0], [0.4, 0.0]], LAM_F, B_F)
    with mp.workdps(60):
        fit = MP.asarray(np.asarray(_strings(A_F, LAM_F, B_F), dtype=object))
        assert exact_learner(fam, fit, _targets(fam, rank_one, 2), 6) is None


def test_rank_one_readout_with_an_ignored_token():
    # the second token coordinate does nothing (B's second column is 0): the output basis must come from a
    # column of the targets that is not zero
    fam = LinearRecurrence(2, 2, 2)
    strings = _strings([[1.5, 0.0], [0.4, 0.0]], LAM_F, [[1.0, 0.0], [-0.3, 0.0]])
    with mp.workdps(60):
        q = exact_learner(fam, MP.asarray(np.asarray(strings, dtype=object)), _targets(fam, strings, 2), 6)
    assert q is not None
    Mq, Mf = _exact_markov(fam, q, 2), _targets(fam, strings, 2)
    assert all(Mq[t][r, c] == Mf[t][r][c] for t in range(2) for r in range(2) for c in range(2))


def test_exact_learner_keeps_the_fits_structural_null_vector():
    # T = 4 Markov parameters of a scalar recurrence with k = 2: [P_0 P_1 P_2] is 2 x 3, so it has a null
    # vector whatever the fit (Cayley-Hamilton); it is exact here (short decimals) and must be kept, or the
    # rounded bottoms make L [P_0 P_1 P_2] = [P_1 P_2 P_3] inconsistent
    fam = LinearRecurrence(1, 2, 1)
    strings = _strings([[1.5, -0.5]], [[0.5, 0.25], [-0.25, 0.5]], [[1.0], [0.5]])
    with mp.workdps(60):
        q = exact_learner(fam, MP.asarray(np.asarray(strings, dtype=object)), _targets(fam, strings, 4), 6)
    assert q is not None
    Mq, Mf = _exact_markov(fam, q, 4), _targets(fam, strings, 4)
    assert all(Mq[t][0, 0] == Mf[t][0][0] for t in range(4))


# ----------------------------------------------------------------------------- certified bounds (certify.py)
# Scalar recurrences s_t = a s_(t-1) + x_t, logit s_t: Markov parameters a^j, so every bound below has a
# closed form. A certified bound must contain the exact value and be tight to its rounding (1e-8 here).
SCALAR = LinearRecurrence(1, 1, 1)


def _scalar(a: str) -> np.ndarray:
    return MP.asarray(np.asarray(["1", a, "1"], dtype=object))


def _tight_upper(bound, exact) -> bool:
    return exact <= bound <= exact * (1 + mp.mpf("1e-8"))


def test_markov_sup_bound_is_the_exact_weighted_sum():
    with mp.workdps(30):
        bound = certify.markov_sup_bound(SCALAR, _scalar("0.5"), SCALAR, _scalar("0.25"), 5, 2, 30)
        exact = 2 * sum(abs(mp.mpf("0.5")**j - mp.mpf("0.25")**j) for j in range(5))
        assert _tight_upper(bound, exact)
    assert certify.markov_sup_bound(object(), None, SCALAR, None, 5, 2, 30) is None  # not linear in inputs


def _params(*values: str) -> np.ndarray:
    return MP.asarray(np.asarray(values, dtype=object))


def test_all_lengths_bound_contains_the_series_and_is_within_its_tail_budget():
    with mp.workdps(30):
        bound, J = certify.markov_all_lengths_bound(SCALAR, _scalar("0.5"), SCALAR, _scalar("0.25"), 2, 30)
        exact = 2 * (1 / (1 - mp.mpf("0.5")) - 1 / (1 - mp.mpf("0.25")))  # 2 sum_j (0.5^j - 0.25^j)
        assert exact <= bound <= exact * mp.mpf("1.01") and J == 64
        # a mode at the edge of stability gets no geometric tail bound
        edge = certify.markov_all_lengths_bound(SCALAR, _scalar("0.9995"), SCALAR, _scalar("0.25"), 2, 30)
        assert edge is None
    assert certify.markov_all_lengths_bound(object(), None, SCALAR, None, 2, 30) is None


def test_all_lengths_bound_with_slow_modes_needs_its_tails():
    # h: 2 * 0.99^j, f: 2 * (-0.98)^j; sum_j |M_j^h - M_j^f| = 2 (1/(1 - 0.99) - 1/(1 + 0.98)). The tails
    # after J terms are a large part of the series here, so they must be bounded from above, and J doubles
    # from 64 until they are below 1% of the total: 0.99^J <= ~1/100 first at J = 512
    h, f = _params("1", "0.99", "2"), _params("1", "-0.98", "2")
    with mp.workdps(30):
        exact = 2 * (1 / (1 - mp.mpf("0.99")) - 1 / (1 + mp.mpf("0.98")))
        bound, J = certify.markov_all_lengths_bound(SCALAR, h, SCALAR, f, 1, 30)
        assert exact <= bound <= exact * mp.mpf("1.02") and J == 512
        # capped: the last J allowed, and still an upper bound
        bound, J = certify.markov_all_lengths_bound(SCALAR, h, SCALAR, f, 1, 30, max_terms=128)
        assert exact <= bound and J == 128


def test_all_lengths_bound_for_a_non_normal_transition():
    # Lam = [[0.5, 1], [0, 0.5]]: spectral radius 0.5 but ||Lam||_inf = 1.5, ||Lam^2|| = 1.25: the geometric
    # tail needs the power Lam^3 (norm 0.875). With A = I, B = e2 the Markov rows are (j 0.5^(j-1), 0.5^j);
    # f (Lam = 0) agrees at j = 0 only, so the bound is max(sum_j j 0.5^(j-1), sum_(j>=1) 0.5^j) = max(4, 1)
    fam = LinearRecurrence(1, 2, 2)
    h = _params("1", "0", "0", "1", "0.5", "1", "0", "0.5", "0", "1")
    f = _params("1", "0", "0", "1", "0", "0", "0", "0", "0", "1")
    with mp.workdps(30):
        bound, _ = certify.markov_all_lengths_bound(fam, h, fam, f, 1, 30)
        assert 4 <= bound <= 4 * mp.mpf("1.01")


def test_all_lengths_bound_is_sound_with_a_slow_non_normal_transition():
    # Lam = [[0.9, 1], [0, 0.9]], A = e1^T, B = e2: M_j = j 0.9^(j-1), so against f = 0 the gap is
    # 2 sum_j j 0.9^(j-1) = 2 / 0.1^2 = 200 for tokens |x| <= 2. ||Lam^p||_inf < 1 first at p = 35, and the
    # true tail after J = 64 terms is about 1% of the total: capped there, the tail bound must cover it
    fam = LinearRecurrence(1, 2, 1)
    h = _params("1", "0", "0.9", "1", "0", "0.9", "0", "1")
    f = _params("1", "0", "0", "0", "0", "0", "0", "1")
    with mp.workdps(30):
        bound, J = certify.markov_all_lengths_bound(fam, h, fam, f, 2, 30, max_terms=127)
        assert bound >= 200 and J == 64
        bound, J = certify.markov_all_lengths_bound(fam, h, fam, f, 2, 30)
        assert 200 <= bound <= 200 * mp.mpf("1.01") and J == 256


def test_all_lengths_bound_when_both_models_have_slow_tails():
    # h: 2 * 0.99^j, f: 2 * (-0.99)^j: the gaps are 4 * 0.99^j at odd j, in all 4 * 0.99 / (1 - 0.99^2). Both
    # tails are large and about equal; it is their sum that must fall below 1% of the total (at J = 1024)
    with mp.workdps(30):
        exact = 4 * mp.mpf("0.99") / (1 - mp.mpf("0.99") ** 2)
        bound, J = certify.markov_all_lengths_bound(SCALAR, _params("1", "0.99", "2"),
                                                    SCALAR, _params("1", "-0.99", "2"), 1, 30)
        assert exact <= bound <= exact * mp.mpf("1.02") and J == 1024


def test_no_all_lengths_bound_without_a_contracting_power():
    # Lam = [[0.99, 0.03], [0, 0.99]]: spectral radius 0.99, but ||Lam^p||_inf = 0.99^p (1 + 0.03 p / 0.99)
    # stays in [1, 2) for every p <= 64, so no geometric tail bound with p <= 64 exists: the answer is None
    fam = LinearRecurrence(1, 2, 1)
    h = _params("1", "0", "0.99", "0.03", "0", "0.99", "0", "1")
    f = _params("1", "0", "0", "0", "0", "0", "0", "1")
    with mp.workdps(30):
        assert certify.markov_all_lengths_bound(fam, h, fam, f, 1, 30) is None


def test_markov_sup_bound_in_a_badly_conditioned_basis():
    # Lam = [[0.5, -1], [1, -0.5]] is stable (|eigenvalues| = 0.87) but |Lam| has spectral radius 1.5, so
    # rounding errors in balls grow like 1.5^j: 100 terms need the guard digits to stay tight
    fam = LinearRecurrence(1, 2, 1)
    h = _params("1", "0", "0.5", "-1", "1", "-0.5", "1", "0")
    f = _params("1", "0", "0", "0", "0", "0", "0", "1")
    with mp.workdps(60):
        exact = sum(abs(M[0, 0]) for M in fam.markov(h, 100, MP))
    with mp.workdps(30):
        assert _tight_upper(certify.markov_sup_bound(fam, h, fam, f, 100, 1, 30), exact)


@pytest.mark.parametrize("a, lo, exact", [
    ("0.5", -2, 3 * (1 + 0.5 + 0.25 + 0.125)),  # every coefficient positive: all tokens at the top end 3
    ("-0.5", -2, 3 + 2 * 0.5 + 3 * 0.25 + 2 * 0.125),  # negative coefficients take the bottom end -2
    ("-0.5", 1, 3 - 0.5 + 3 * 0.25),  # box [1, 3]: the best length is t = 3, not the longest t = 4
])
def test_linear_range_upper_takes_each_coordinate_at_its_best_end(a, lo, exact):
    with mp.workdps(30):
        bound = certify.linear_range_upper(SCALAR, _scalar(a), 4, np.array([float(lo)]), np.array([3.0]), 30)
        assert _tight_upper(bound, mp.mpf(exact))


def test_relation_upper_bounds_the_largest_entry():
    A2, B2 = MatrixSymbol("A", 1, 2), MatrixSymbol("B", 1, 2)
    with mp.workdps(30):
        envs = [{"A": _mp([["1.001", "2"]]), "B": _mp([["1", "2"]])},
                {"A": _mp([["1", "-3"]]), "B": _mp([["1", "-3.0005"]])}]
        assert _tight_upper(certify.relation_upper(A2, B2, envs, 30), mp.mpf("0.001"))


def test_relation_upper_with_a_power_symbol():
    # a scalar in the environment (the j of X^j) is passed through, not converted to a ball array
    A2 = MatrixSymbol("A", 2, 2)
    with mp.workdps(30):
        env = {"A": _mp([[1, 2], [3, 4]]), "j": mp.mpf(2)}
        assert certify.relation_upper(MatPow(A2, j), A2 * A2, [env], 30) == 0


def test_logit_gap_lower_bound():
    X = np.array([[[1.0], [2.0]]])  # one sequence x = (1, 2): logits 2 + a
    with mp.workdps(30):
        low = certify.logit_gap_lower(SCALAR, _scalar("0.5"), SCALAR, _scalar("0.25"), X, 30)
        assert mp.mpf("0.25") * (1 - mp.mpf("1e-8")) <= low <= mp.mpf("0.25")
        # through an activation: sigmoid outputs differ by sigmoid(2.5) - sigmoid(2.25)
        low = certify.logit_gap_lower(SCALAR, _scalar("0.5"), SCALAR, _scalar("0.25"), X, 30, "sigmoid")
        gap = 1 / (1 + mp.exp(-2.5)) - 1 / (1 + mp.exp(-2.25))
        assert gap * (1 - mp.mpf("1e-8")) <= low <= gap
        # ReLU is not injective: logits -2.5 and -2.25 give equal outputs, so no gap
        neg = -X
        assert certify.logit_gap_lower(SCALAR, _scalar("0.5"), SCALAR, _scalar("0.25"), neg, 30, "relu") == 0
        assert certify.logit_gap_lower(SCALAR, _scalar("0.5"), SCALAR, _scalar("0.25"), neg, 30) > 0.2


def test_ball_ends():
    x = flint.arb(-2, 0.5)  # [-2.5, -1.5]
    assert 2.5 <= balls.upper(x) <= 2.5 * (1 + 1e-8)
    assert 1.5 * (1 - 1e-8) <= balls.lower(x) <= 1.5
    assert -1.5 <= certify.upper_signed(x) <= -1.5 * (1 - 1e-8)


def test_spectral_radius_and_guard_digits():
    fam = LinearRecurrence(1, 2, 1)
    with mp.workdps(30):
        # Lam = [[0.5, g], [0, -0.8]]: spectral radius 0.8; |Lam| has radius max(0.5, 0.8) = 0.8 whatever g
        contracting = MP.asarray(np.asarray(["1", "0", "0.5", "1", "0", "-0.8", "1", "1"], dtype=object))
        growing = MP.asarray(np.asarray(["1", "0", "2", "1", "0", "-0.8", "1", "1"], dtype=object))
        assert certify.spectral_radius(fam, contracting) == pytest.approx(0.8)
        assert certify.spectral_radius(fam, growing) == pytest.approx(2.0)
        # guard digits: 10, plus terms * log10 of |Lam|'s spectral radius when that exceeds 1
        assert certify.power_guard_digits(((fam, contracting),), 100) == 10
        assert certify.power_guard_digits(((fam, contracting), (fam, growing)), 100) == 10 + 30
        # an empty state (k = 0) has spectral radius 0 and needs no extra digits
        empty, none = LinearRecurrence(1, 0, 1), _params()
        assert certify.spectral_radius(empty, none) == 0
        assert certify.power_guard_digits(((empty, none),), 100) == 10


def test_exact_markov_equal_per_power():
    assert certify.exact_markov_equal(SCALAR, ["1", "0.5", "1"], SCALAR, ["1", "0.5", "1"], 3) == [True] * 3
    assert certify.exact_markov_equal(SCALAR, ["1", "0.5", "1"], SCALAR, ["1", "0.25", "1"], 3) == [
        True, False, False]  # a^0 = b^0 only
    assert certify.exact_markov_equal(object(), [], SCALAR, ["1", "0.5", "1"], 3) is None
