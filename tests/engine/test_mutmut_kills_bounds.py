"""Behaviour that a mutmut run showed no fast test pinned (see docs/mutation.md), part 2: the exact
observer-gauge learner staying in the gauge and near the fit it was built from, and the certified bounds on
closed-form cases (contain the exact value, tight to rounding)."""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath as mp
import numpy as np
import pytest
import sympy as sp
from sympy import MatPow, MatrixSymbol

from proofkit.certificates import certify
from proofkit.families import LinearRecurrence
from proofkit.families.observer import exact_learner
from proofkit.numerics import balls
from proofkit.numerics.backend import MP, SYM
from tests.engine.mutmut_helpers import _mp, j

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
