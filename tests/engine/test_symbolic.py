"""proofkit.engine.symbolic.decide: a proof step is refuted only with a certified non-zero value at a stated
point; a residual sympy cannot simplify is never refuted for that alone."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import sympy as sp

from proofkit.engine.symbolic import UNDECIDED, decide, is_zero, points
from proofkit.language.verdict import Verdict

u, y = sp.symbols("u y")
x = sp.Symbol("x", positive=True)
n = sp.Symbol("n", integer=True, nonnegative=True)

TANH = sp.tanh(u) - (sp.exp(2 * u) - 1) / (sp.exp(2 * u) + 1)
ATAN = sp.atan(x) + sp.atan(1 / x) - sp.pi / 2


# ----------------------------------------------------------------------------- true steps
@pytest.mark.parametrize("residual", [TANH, ATAN, sp.Eq(sp.atan(x) + sp.atan(1 / x), sp.pi / 2)])
def test_true_identities_sympy_cannot_simplify_are_never_refuted(residual):
    verdict, _, how = decide(residual)
    assert verdict in (Verdict.CERTIFIED, Verdict.INCONCLUSIVE), how
    if verdict == Verdict.INCONCLUSIVE:
        assert UNDECIDED in how


def test_tanh_is_certified_through_exp():
    assert decide(TANH) == (Verdict.CERTIFIED, "0",
                            "exact: sympy simplifies the residual, rewritten in exp, to zero")
    assert is_zero(TANH)


def test_atan_is_inconclusive_with_the_reason():
    verdict, residual, how = decide(ATAN)
    assert verdict == Verdict.INCONCLUSIVE and how == UNDECIDED
    assert "atan" in residual


def test_positive_assumption_matters():
    """Without x > 0 the atan identity is false (it is -pi/2 - pi/2 at negative x): refuted there."""
    verdict, _, how = decide(sp.atan(y) + sp.atan(1 / y) - sp.pi / 2)
    assert verdict == Verdict.REFUTED
    value = sp.Rational(re.search(r"at y = (-?\d+(?:/\d+)?)", how).group(1))
    assert value < 0 and "excludes 0" in how


# ----------------------------------------------------------------------------- false steps
@pytest.mark.parametrize("residual", [sp.sin(y) ** 2 + sp.cos(y) ** 2 - 2, sp.exp(y) - y, sp.exp(x) - x])
def test_false_steps_refuted_with_a_stated_point_and_ball(residual):
    verdict, text, how = decide(residual)
    assert verdict == Verdict.REFUTED, how
    assert text == sp.sstr(residual)
    m = re.search(r"at (\w+) = (-?\d+(?:/\d+)?): value in the ball \[(\S+) \+/- (\S+)\]", how)
    assert m, how
    point = {sp.Symbol(m.group(1), **residual.free_symbols.pop().assumptions0): sp.Rational(m.group(2))}
    mid, rad = sp.Float(m.group(3), 30), sp.Float(m.group(4), 30)
    assert abs(mid) > rad  # the stated ball excludes 0
    assert abs(sp.N(residual.xreplace(point), 30) - mid) <= rad  # and encloses the true value


def test_sin_cos_value_is_minus_one():
    _, _, how = decide(sp.sin(y) ** 2 + sp.cos(y) ** 2 - 2)
    assert "[-1.0000" in how


def test_rational_residuals_are_exact():
    a, b = sp.symbols("a b")
    verdict, _, how = decide(a / (a + b) - sp.Rational(1, 2))
    assert verdict == Verdict.REFUTED and "(rational arithmetic)" in how
    pt = dict(re.findall(r"(\w) = (-?\d+(?:/\d+)?)", how))
    value = re.search(r"exact value (-?\d+(?:/\d+)?)", how).group(1)
    exact = (a / (a + b) - sp.Rational(1, 2)).subs({a: sp.Rational(pt["a"]), b: sp.Rational(pt["b"])})
    assert exact == sp.Rational(value) != 0
    assert decide(sp.Rational(1, 3))[2] == "the residual is not zero, exact value 1/3 (rational arithmetic)"
    assert decide(Fraction(0))[0] == Verdict.CERTIFIED and decide(0)[0] == Verdict.CERTIFIED
    assert decide((y**2 - 1) / (y - 1) - (y + 1))[0] == Verdict.CERTIFIED


def test_points_respect_assumptions():
    m = sp.Symbol("m", integer=True, positive=True)
    p = sp.Symbol("p", prime=True)
    neg = sp.Symbol("neg", negative=True)
    for pt in points([x, n, m, p, neg, y]):
        assert pt[x] > 0 and pt[n].is_integer and pt[n] >= 0 and pt[m].is_integer and pt[m] > 0
        assert pt[p].is_prime and pt[neg] < 0
    assert points([sp.Symbol("z", integer=True, positive=True, even=True, prime=False)]) != []
    assert decide((-1) ** n - 1)[0] == Verdict.REFUTED  # at an odd n, exactly -2
    assert "at n = 3: exact value -2" in decide((-1) ** n - 1)[2]


def test_floats_never_refute():
    verdict, _, how = decide(sp.Float(0.1) * 3 - sp.Float(0.3))
    assert verdict == Verdict.INCONCLUSIVE
    assert decide(0.1 * 3 - 0.3)[0] == Verdict.INCONCLUSIVE


def test_unknown_functions_give_no_certificate():
    f = sp.Function("f")
    assert decide(f(y) - 1)[0] == Verdict.INCONCLUSIVE


# ----------------------------------------------------------------------------- collections, statements
def test_matrices_every_entry():
    assert decide(sp.zeros(2, 2)) == (Verdict.CERTIFIED, "0", "exact: sympy simplifies the residual to zero")
    verdict, _, how = decide(sp.Matrix([[0, y - y], [sp.sqrt(2) - 1, 0]]))
    assert verdict == Verdict.REFUTED and how.startswith("entry [1, 0]:") and "excludes 0" in how
    verdict, _, how = decide(sp.Matrix([[0, ATAN]]))
    assert verdict == Verdict.INCONCLUSIVE and how == f"entry [0, 1]: {UNDECIDED}"
    # one refuted entry refutes even when another is undecided
    assert decide([ATAN, sp.Matrix([sp.exp(x) - 1 - x])])[0] == Verdict.REFUTED
    M = sp.MatrixSymbol("M", 2, 2)
    assert decide(M - M)[0] == Verdict.CERTIFIED
    assert decide([])[0] == Verdict.INCONCLUSIVE


def test_statements():
    assert decide(True) == (Verdict.CERTIFIED, "True", "exact: sympy evaluates the statement to True")
    assert decide(sp.false)[0] == Verdict.REFUTED and decide(False)[0] == Verdict.REFUTED
    assert decide(None)[0] == Verdict.INCONCLUSIVE  # e.g. Interval.is_subset could not decide
    assert decide(sp.Eq(sp.sin(y) ** 2, 1 - sp.cos(y) ** 2))[0] == Verdict.CERTIFIED
    assert decide(sp.Eq(sp.exp(y), y))[0] == Verdict.REFUTED
    verdict, _, how = decide(sp.Gt(sp.exp(y), y + 2))
    assert verdict == Verdict.REFUTED and "lhs > rhs fails" in how
    assert decide(sp.Gt(sp.exp(y), y))[0] == Verdict.INCONCLUSIVE
    assert decide(sp.Eq(sp.Matrix([y, 1]), sp.Matrix([y, sp.exp(y)])))[0] == Verdict.REFUTED
    assert decide("1/0")[0] == Verdict.INCONCLUSIVE  # text is never parsed


def test_encoded_steps_keep_their_expected_verdicts():
    from proofkit.language import registry
    from proofkit.language.spec import SymbolicStep

    seen = 0
    for thm in registry.load_all().values():
        for claim in thm.claims:
            if isinstance(claim, SymbolicStep) and claim.name in thm.expect:
                assert decide(claim.check())[0] == thm.expect[claim.name], (thm.id, claim.name)
                seen += 1
    assert seen >= 10


def test_a_step_that_raises_is_an_error_and_the_rest_still_runs():
    """A SymbolicStep (or Computed claim) whose own code raises decides nothing: the claim is an internal
    error with the exception named (no verdict, never a quiet inconclusive), the other claims are still
    decided, and nothing crashes."""
    from proofkit.engine.check import check
    from proofkit.language.params import ParamSpace
    from proofkit.language.spec import Computed, PaperRef, SymbolicStep, Theorem

    def singular():
        return sp.Matrix([[1, 1], [1, 1]]).inv()

    def broken(params):
        raise KeyError("table")

    thm = Theorem(
        id="USER.RAISES", title="steps that raise", paper=PaperRef("user", "s1", "(1)", "user2026"),
        statement=sp.Eq(sp.Symbol("x"), sp.Symbol("x")), params=ParamSpace(()), assumptions=(),
        claims=(SymbolicStep("inverse of a singular matrix", "proof-step", "(1)", "A^-1 exists", singular),
                Computed("broken computation", "proof-step", "(2)", "a table lookup", broken),
                SymbolicStep("x - x = 0", "proof-step", "(3)", "x - x = 0",
                             lambda: sp.Symbol("x") - sp.Symbol("x"))),
    )
    r = check(thm)
    by = {c.name: c for c in r.claims}
    assert by["inverse of a singular matrix"].label == "error"
    assert by["inverse of a singular matrix"].error.startswith("NonInvertibleMatrixError")
    broken_result = by["broken computation"]
    assert broken_result.label == "error" and broken_result.error.startswith("KeyError")
    assert by["x - x = 0"].verdict == Verdict.CERTIFIED and not by["x - x = 0"].error
    assert [c.name for c in r.errors] == ["inverse of a singular matrix", "broken computation"]
    assert r.label == "error" and r.as_dict()["verdict"] == "error" and not r.as_expected()


def test_flint_walk_decides_rational_functions_and_hands_the_rest_to_sympy():
    from proofkit.engine.symbolic import FLINT_ZERO, _flint_zero

    x, y, z = sp.symbols("x y z")
    M = sp.Matrix([[x, y], [z, 1]])
    product = M.inv() * M
    assert product[0, 0] - 1 != 0 and _flint_zero(product[0, 0] - 1) is True  # not zero structurally
    assert _flint_zero((x + y) ** 3 - x**3 - 3 * x**2 * y - 3 * x * y**2 - y**3) is True
    assert _flint_zero(x / (x + y) + y / (x + y) - 1) is True
    assert _flint_zero((x**2 - 1) / (x - 1) - x - 1) is True
    assert _flint_zero(x - y + sp.Rational(1, 3)) is False
    assert _flint_zero(sp.sqrt(x) - 1) is None  # not a rational function: sympy decides
    assert _flint_zero(sp.Float(0.5) * x - y) is None
    assert decide([x / (x + y) + y / (x + y) - 1]) == (Verdict.CERTIFIED, "0", FLINT_ZERO)
    assert decide([x / (x + y) - 1])[0] == Verdict.REFUTED
