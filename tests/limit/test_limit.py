"""The exact finite-precision limit transformer (proofkit.limit): the flush decided by integers, the
forward pass against a float64 screen, and the slot reduction of 'every string of every length' against
brute force over every string."""

from fractions import Fraction as F
from itertools import product

import numpy as np
import pytest

from proofkit.errors import InputError
from proofkit.limit import flush
from proofkit.limit import margin as mg
from proofkit.limit.model import LimitTransformer, evaluate, rational_matrix, screen_float64
from proofkit.limit.zoo import MODELS

# smallest integer N with N^-gamma <= 2^-p, from the formula N >= 2^(p/gamma)
TABLE = [(4, F(1), 16), (8, F(1), 256), (4, F(1, 2), 256), (6, F(3, 2), 16), (10, F(2), 32), (4, F(3), 3),
         (5, F(2, 3), 182)]


@pytest.mark.parametrize("p,gamma,N", TABLE)
def test_hardmax_length_is_the_exact_boundary(p, gamma, N):
    assert flush.hardmax_length(p, gamma) == N
    assert flush.term_flushed(N, gamma, p) and not flush.term_flushed(N - 1, gamma, p)


def test_strict_rule_moves_an_exact_boundary_only():
    # 256^-1/2 = 2^-4 exactly: flushed by '<=', kept by '<'
    assert flush.term_value(256, F(1, 2)) == F(1, 16)
    assert flush.term_flushed(256, F(1, 2), 4) and not flush.term_flushed(256, F(1, 2), 4, "strict")
    assert flush.hardmax_length(4, F(1, 2), "strict") == 257
    assert flush.hardmax_length(5, F(2, 3), "strict") == 182  # 2^(15/2) is irrational: no boundary


def test_float64_misplaces_exact_boundaries_the_integer_rule_does_not():
    # the reason for the integer comparison: at N = 8, gamma = 1, p = 3 the term is exactly 1/8 = 2^-3,
    # but float64 exp(-log 8) rounds above 1/8, so a float64 flush would keep it
    assert np.exp(-1.0 * np.log(8.0)) > 2.0**-3
    assert flush.term_flushed(8, F(1), 3) and flush.term_value(8, F(1)) == F(1, 8)
    assert flush.hardmax_length(3, F(1)) == 8 and flush.hardmax_length(4, None) == 1


def test_bad_inputs_are_one_line_errors():
    with pytest.raises(InputError, match="gap"):
        flush.term_flushed(4, F(-1), 2)
    with pytest.raises(InputError, match="N"):
        flush.term_flushed(0, F(1), 2)
    with pytest.raises(InputError, match="not floats"):
        rational_matrix([[0.1]], "K")
    with pytest.raises(InputError, match="tokens"):
        evaluate(MODELS["two-sets"](), "abz", 4)


@pytest.mark.parametrize("name", list(MODELS))
def test_slot_reduction_matches_brute_force(name):
    m = MODELS[name]()
    for N in range(1, 7 if len(m.alphabet) == 2 else 6):
        gap = mg.realized_gap(m, N)
        gaps = set()
        for x in product(m.alphabet, repeat=N):
            a = m.logits(x)
            top = max(a)
            gaps |= {top - v for v in a if v < top}
        assert gap.gap == (min(gaps) if gaps else None), (name, N)
        if gap.choice is not None:
            a = m.logits(mg.witness_string(m, gap))
            assert max(a) - gap.gap in a
        for p in (1, 2, 3):
            flushed = gap.gap is None or flush.term_flushed(N, gap.gap, p)
            assert flushed == mg.brute_force_hardmax(m, N, p), (name, N, p)


@pytest.mark.parametrize("name", list(MODELS))
def test_onset_agrees_with_lengths_checked_one_by_one(name):
    m, p = MODELS[name](), 2
    onset = mg.hardmax_onset(m, p, threshold=1, limit=10**6)
    for N in range(1, 60):
        g = mg.realized_gap(m, N).gap
        holds = g is None or flush.term_flushed(N, g, p)
        assert holds == (N not in onset.failing), (name, N)
    assert all(N < onset.from_N for N in onset.failing)


def test_forward_pass_exact_and_float64_screen_agree():
    m = MODELS["two-sets"]()
    ev = evaluate(m, "abca", 4)
    assert ev.out == (F(21, 13),) and ev.arithmetic == "exact" and not ev.hardmax
    assert evaluate(m, "abca" * 4, 4).hardmax  # N = 16 = 2^(4/1)
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(50, 9))
    out, boundary = screen_float64(m, X, 3)
    exact = [float(evaluate(m, [m.alphabet[i] for i in row], 3).out[0]) for row in X]
    assert not boundary.any() and np.allclose(out[:, 0], exact, rtol=1e-13)


def test_irrational_terms_use_mpmath_and_say_so():
    m = MODELS["gap-half"]()
    ev = evaluate(m, "ab", 8, dps=40)  # 2^-1/2 survives at p = 8: irrational
    assert ev.arithmetic == "mpmath" and ev.dps == 40
    assert abs(ev.weights[1] - 2**-0.5 / (1 + 2**-0.5)) < 1e-15  # key b, gap 1/2


def test_model_validation():
    E = {"a": (F(1),)}
    with pytest.raises(InputError, match="psi"):
        LimitTransformer(E, rational_matrix([[0]], "P"), rational_matrix([[1]], "K"),
                         rational_matrix([[1]], "Q"), rational_matrix([[1]], "V"),
                         U=rational_matrix([[1]], "U"), psi="tanh")
