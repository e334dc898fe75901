"""proofkit.numerics.balls: a ball encloses the value of a constant sympy expression or refuses (never a
guess); precision contexts restore flint's; the bounds read off a ball are on the safe side."""

from __future__ import annotations

import flint
import mpmath as mp
import pytest
import sympy as sp

from proofkit.numerics.balls import Unsupported, arb_precision, ball, box_text, lower, upper


def test_ball_encloses():
    b = ball(sp.sqrt(2) + sp.pi * sp.exp(sp.Rational(1, 3)) - sp.Abs(sp.atan(-3)))
    exact = sp.N(sp.sqrt(2) + sp.pi * sp.exp(sp.Rational(1, 3)) - sp.atan(3), 40)
    assert isinstance(b, flint.arb) and b.contains(flint.arb(str(exact)[:30]))


@pytest.mark.parametrize("expr", [sp.Function("f")(sp.Integer(1)), sp.log(sp.Integer(-2)) + 1, sp.I + 1,
                                  sp.Symbol("x"), sp.Float(0.1), sp.Integer(1) / sp.Integer(0)])
def test_no_ball_without_a_rigorous_enclosure(expr):
    with pytest.raises(Unsupported):
        ball(expr)


def test_precision_is_restored_and_bounds_are_outward():
    before = flint.ctx.prec
    with arb_precision(50):
        assert flint.ctx.dps >= 60
        x = flint.arb(1) / 3
        assert upper(x) > mp.mpf(1) / 3 > lower(x)
    assert flint.ctx.prec == before
    with pytest.raises(ZeroDivisionError), arb_precision(80):
        raise ZeroDivisionError
    assert flint.ctx.prec == before


def test_box_text():
    assert box_text([0, 0], [1, 1]) == "[0, 1]^2"
    assert box_text([0, 0], [1, 0]) == "[0, 1] x [0, 0]"


def test_constants_of_a_relation_take_the_environments_number_type():
    """sympy folds ``Inverse(L) * L`` to I and ``L - L`` to 0 when the relation is written; evaluated on
    balls they must be balls (an mpf identity beside balls crashed the ball residual of a user's file)."""
    import numpy as np

    from proofkit.numerics.matexpr import evaluate

    L = sp.MatrixSymbol("L", 1, 1)
    env = {"L": np.array([[flint.arb(3) / 4]], dtype=object)}
    for expr in (sp.Inverse(L) * L, sp.ZeroMatrix(1, 1), sp.Integer(2)):
        value = np.asarray(evaluate(expr, env), dtype=object)
        assert all(isinstance(v, flint.arb) for v in value.flat), expr
    assert all(isinstance(v, mp.mpf) for v in np.ravel(evaluate(sp.Identity(2), {"L": np.array(
        [[mp.mpf(1)]], dtype=object)})))


def test_what_does_not_fit_is_undefined_not_a_crash_or_a_broadcast():
    """Sizes left open by symbolic shapes are known only at evaluation: a product or power that does not
    fit, a sum of a 1 x n and an n x 1 (numpy would broadcast it to n x n) and the inverse of a matrix
    with a zero column (mpmath's LU raises TypeError there) are Undefined, each with its reason."""
    import numpy as np

    from proofkit.numerics.matexpr import Undefined, evaluate

    n = sp.Symbol("n", integer=True, positive=True)
    At, Lt, Bt = sp.MatrixSymbol("At", 1, n), sp.MatrixSymbol("Lt", n, n), sp.MatrixSymbol("Bt", n, 1)
    m = lambda rows: np.array([[mp.mpf(x) for x in r] for r in rows], dtype=object)  # noqa: E731
    env = {"At": m([[1, 2]]), "Lt": m([[1, 0], [0, 3]]), "Bt": m([[1], [1]])}
    for expr in (Bt * Lt * At, At.T * Bt, At + Bt, Bt * Bt):
        with pytest.raises(Undefined):
            evaluate(expr, env)
    with pytest.raises(Undefined, match="singular"):
        evaluate(sp.Inverse(sp.MatrixSymbol("S", 2, 2)), {"S": m([[0, "0.25"], [0, 1]])})
    assert evaluate(At * Lt * Bt, env)[0, 0] == 7  # what fits still evaluates


def test_a_symbol_with_no_value_is_undefined():
    """'For all j' (At Lt**j Bt with a free j) or a symbol no model defines: Undefined, not a KeyError."""
    import numpy as np

    from proofkit.numerics.matexpr import Undefined, evaluate

    L, Q = sp.MatrixSymbol("L", 1, 1), sp.MatrixSymbol("Q", 1, 1)
    env = {"L": np.array([[mp.mpf(2)]], dtype=object)}
    for expr in (L ** sp.Symbol("j", integer=True, nonnegative=True), L * Q, sp.Symbol("c") * L):
        with pytest.raises(Undefined, match="has no value here"):
            evaluate(expr, env)

