"""Behaviour that a mutmut run over identify.py, tautology.py, families/observer.py and certify.py showed no
fast test pinned (see docs/mutation.md), part 1: how relations print and canonicalise, how they evaluate, the
messages a user reads when a relation is undefined, and how tautologies are recognised and explained
(identities of symbolic size, negative powers, shapes that fit at only some sizes)."""

from __future__ import annotations

import re
from fractions import Fraction

import flint
import mpmath as mp
import numpy as np
import pytest
import sympy as sp
from sympy import Identity, Inverse, MatAdd, MatMul, MatPow, MatrixSymbol, Transpose, ZeroMatrix

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
from proofkit.language.spec import GroupElement
from tests.engine.mutmut_helpers import EYE, W54, V, X, Y, Z, _mp, c, d, i, j, m, n, v


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
