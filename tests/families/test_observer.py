"""Exact zero-risk learners in the observer gauge (proofkit.families.observer): exact by construction,
kept on the fit's singular stratum, and never inventing a gap the fibre does not have."""

from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
import sympy as sp

from proofkit.errors import InputError
from proofkit.families import LinearRecurrence
from proofkit.families.observer import exact_learner
from proofkit.numerics.backend import MP, SYM
from proofkit.storage.record import check_number

A = np.array([[1.5, -0.7], [0.4, 1.2]])
LAM = np.array([[0.6, -0.3], [0.2, 0.5]])
B = np.array([[1.0, 0.5], [-0.3, 0.8]])
TRUE = LinearRecurrence(2, 2, 2)
THETA_F = [repr(float(v)) for M in (A, LAM, B) for v in M.ravel()]


def _markov_exact(fam, strings, count):
    return fam.markov(SYM.asarray(np.asarray(strings, dtype=object)), count, SYM)


def _fractions(markov):
    return [[[Fraction(int(v.p), int(v.q)) for v in row] for row in M] for M in markov]


def _targets(T):
    return _fractions(_markov_exact(TRUE, THETA_F, T))


def _learner(L12_rank_one: bool, seed: int = 1) -> np.ndarray:
    """A k~ = 4 learner (mpf at 60 digits) whose first three Markov parameters equal f's exactly up to the
    final rounding, in the gauge A~ = [I, 0]: L11 from M1, L21 from M2 given an invertible L12 (the
    identifying branch), or the nilpotent-chain construction A~ = [A, 0], Lam~ = [[Lam + E, v, 0], [0, N]],
    E = -v w1 B^-1, w2 = w1 B^-1 Lam B (L12 of rank one: the singular stratum where h = f for lengths <= 3
    and not beyond). Built in exact rationals, then rounded to 60 digits."""
    rng = np.random.default_rng(seed)

    def q(shape):
        return sp.Matrix(*shape, [sp.Rational(int(v), 7) for v in rng.integers(-9, 10, size=shape).ravel()])

    Ae, Le, Be = (sp.Matrix(M.tolist()).applyfunc(lambda v: sp.Rational(repr(v))) for M in (A, LAM, B))
    if L12_rank_one:
        v1, w1 = q((2, 1)), q((1, 2))
        w2 = w1 * Be.inv() * Le * Be
        Lt = sp.zeros(4, 4)
        Lt[:2, :2], Lt[:2, 2], Lt[2, 3] = Le - v1 * w1 * Be.inv(), v1, 1
        At, Bt = Ae.row_join(sp.zeros(2, 2)), Be.col_join(w1).col_join(w2)
    else:
        M0, M1, M2 = (Ae * Le**j * Be for j in range(3))
        L12, Y, L22 = q((2, 2)), q((2, 2)), q((2, 2))
        L11 = (M1 - L12 * Y) * M0.inv()
        L21 = L12.inv() * (M2 - L11 * M1 - L12 * L22 * Y) * M0.inv()
        Lt, Bt = L11.row_join(L12).col_join(L21.row_join(L22)), M0.col_join(Y)
        At = sp.eye(2).row_join(sp.zeros(2, 2))
    with mp.workdps(60):
        return np.array([mp.mpf(sp.Float(v, 70)) for M in (At, Lt, Bt) for v in M], dtype=object)


@pytest.mark.parametrize("digits", [2, 6])
def test_singular_stratum_gives_exact_learner_with_a_gap(digits):
    fam = LinearRecurrence(2, 4, 2)
    with mp.workdps(60):
        q = exact_learner(fam, _learner(True), _targets(3), digits)
    assert q is not None
    strings = [str(v) for v in q]
    Mh, Mf = _markov_exact(fam, strings, 4), _markov_exact(TRUE, THETA_F, 4)
    assert all((Mh[j] - Mf[j] == 0).all() for j in range(3))  # exact, not approximately
    assert not (Mh[3] - Mf[3] == 0).all()  # and a real gap at j = 3


def test_identifying_branch_gives_no_gap():
    # L12 invertible: the fibre point identifies f (Hankel rank 2), and the exact point must too
    fam = LinearRecurrence(2, 4, 2)
    with mp.workdps(60):
        q = exact_learner(fam, _learner(False), _targets(3), 3)
    Mh, Mf = _markov_exact(fam, [str(v) for v in q], 6), _markov_exact(TRUE, THETA_F, 6)
    assert all((Mh[j] - Mf[j] == 0).all() for j in range(6))


@pytest.mark.parametrize("stratum", [True, False])
def test_at_the_threshold_no_gap_is_invented(stratum):
    # T = 4 = k~ - n + 2: every exact learner matching j < 4 matches every j; the construction is exact,
    # so it returns None or a learner without a gap, from either branch
    fam = LinearRecurrence(2, 4, 2)
    with mp.workdps(60):
        q = exact_learner(fam, _learner(stratum), _targets(4), 3)
    if q is not None:
        Mh, Mf = _markov_exact(fam, [str(v) for v in q], 8), _markov_exact(TRUE, THETA_F, 8)
        assert all((Mh[j] - Mf[j] == 0).all() for j in range(8))


def test_rank_deficient_readout_factors_through_the_output_basis():
    # f with a rank-one readout: the targets span one output direction, A~ = F [1, 0]
    fam = LinearRecurrence(2, 2, 2)
    th = np.array([1.5, 0.0, 0.4, 0.0, 0.6, -0.3, 0.2, 0.5, 1.0, 0.5, -0.3, 0.8])
    strings = [repr(float(v)) for v in th]
    targets = _fractions(_markov_exact(TRUE, strings, 2))
    with mp.workdps(60):
        q = exact_learner(fam, MP.asarray(np.asarray(strings, dtype=object)), targets, 3)
    Mh = _markov_exact(fam, [str(v) for v in q], 2)
    assert all((Mh[j] - _markov_exact(TRUE, strings, 2)[j] == 0).all() for j in range(2))


@pytest.mark.parametrize("bad", ["1/0", "1/-3", "\u0661/2", "1/2/3", "1.5/2", "/3"])
def test_record_fractions_are_plain_ascii_integers(bad):
    with pytest.raises(InputError):
        check_number(bad, "learned_params[0]")


def test_record_fraction_accepted():
    assert check_number("-123/456", "learned_params[0]") == "-123/456"


def test_two_lengths_keep_the_fits_null_vectors():
    """T = 2 with a singular B: f's Markov parameters share B's null vector z, and a fit on the stratum
    (B~ z = 0, through an extra state row w with w z = 0 in thirds and sixths that rounding breaks) must
    give an exact learner whose B~ still annihilates z exactly: the null vectors are kept for every
    T >= 2, not only T >= 3 (the mutmut survivor `T > 1` -> `T > 2` in exact_learner)."""
    Bs = sp.Matrix([[1, 2], [sp.Rational(1, 2), 1]])               # rank one, null vector z = (2, -1)
    Ae, Le = sp.Matrix([[3, 1], [1, 2]]), sp.Matrix([[sp.Rational(1, 2), 0], [1, sp.Rational(1, 3)]])
    z = sp.Matrix([2, -1])
    true_theta = [str(v) for M in (Ae, Le, Bs) for v in M]
    targets = _fractions(_markov_exact(TRUE, true_theta, 2))
    w = sp.Matrix([[sp.Rational(1, 3), sp.Rational(2, 3)]])          # w z = 0 exactly
    At = Ae.row_join(sp.zeros(2, 1))
    Lt = Le.row_join(sp.zeros(2, 1)).col_join(sp.Matrix([[0, 0, sp.Rational(1, 7)]]))
    Bt = Bs.col_join(w)
    assert (Bt * z).is_zero_matrix
    with mp.workdps(60):
        theta = np.array([mp.mpf(sp.Float(v, 70)) for M in (At, Lt, Bt) for v in M], dtype=object)
        q = exact_learner(LinearRecurrence(2, 3, 2), theta, targets, 6)
    assert q is not None
    Bq = sp.Matrix(3, 2, [sp.Rational(v.numerator, v.denominator) for v in q[-6:]])
    assert (Bq * z).is_zero_matrix, "the exact learner left the fit's singular stratum"
    Mh = _markov_exact(LinearRecurrence(2, 3, 2), [str(v) for v in q], 2)
    assert all((Mh[j] - _markov_exact(TRUE, true_theta, 2)[j] == 0).all() for j in range(2))
