"""proofkit.posembed.bounds: each interval against an independent mpmath evaluation at high precision (or
an exact value), and sweep.at_most's three outcomes."""

from fractions import Fraction as F

import mpmath as mp
import pytest

from proofkit.posembed import bounds, dp, dyck
from proofkit.posembed.sweep import Fail, Undecided, at_most


@pytest.fixture(autouse=True)
def _digits():
    """The reference values at 80 digits, beyond the intervals' 60."""
    with mp.workdps(80):
        yield


def _inside(x, value) -> bool:
    return x.a <= value <= x.b


def test_onehot_failure_is_one_minus_the_product_and_the_bound_is_nt_to_the_one_minus_k():
    for n, t, k in ((2, 2, 1), (5, 3, 2), (8, 10, 4)):
        f, bound = bounds.onehot_failure(n, t, k)
        vg = k * n * mp.log(n * t)
        prod = mp.fprod(1 / (1 + (t - 1) * mp.exp(-vg / r)) for r in range(1, n))
        assert _inside(f, 1 - prod)
        assert _inside(bound, mp.mpf(n * t) ** (1 - k))  # n t e^{-k log(nt)}
        assert f.b - f.a < mp.mpf(10) ** -50


def test_nope_failures_cover_every_prefix_state_and_worst_is_their_maximum():
    N, v = 3, F(-2 * 9 * 7)
    states, bound = bounds.nope_failures(N, v)
    assert [rh for rh, _ in states] == dyck.prefix_states(N)
    assert all(0 <= x.a <= x.b <= 1 for _, x in states)
    worst, bound2 = bounds.nope_worst(N, v)
    assert worst.b == max(x.b for _, x in states) and bound2.a == bound.a
    assert _inside(bound, 2 * N * mp.exp(-N))


def test_nope_exp_step_sides_and_difference():
    N, r, v = 3, 1, F(-127)
    lhs, rhs, diff = bounds.nope_exp_step(N, r, v)
    assert _inside(lhs, 1 - mp.exp(mp.mpf(-127) / 7)) and _inside(rhs, 1 - mp.exp(-3))
    assert dp.gt(lhs, rhs) and diff.a > 0


def test_theorem_41_quantities_against_direct_sums():
    N = 4
    L, b = bounds.loss_vs_bound(N, F(0))
    assert _inside(L, 7 * mp.log(2)) and _inside(b, 8 * 16 * mp.exp(-4))
    f, b2 = bounds.memorization_vs_bound(N, F(3))
    prod = mp.fprod(1 / (1 + mp.exp(-mp.mpf(6) / r)) for r in range(1, 2 * N))
    assert _inside(f, 1 - prod) and _inside(b2, 8 * mp.exp(-4))
    u, _ = bounds.union_vs_bound(N, F(5))
    assert _inside(u, mp.fsum(1 / (1 + mp.exp(mp.mpf(5) / r)) for r in range(1, 2 * N)))
    assert _inside(bounds.exp_of(-9), mp.exp(-9))


def test_exhaustive_worst_is_the_maximum_over_words():
    N, v = 3, F(-18)
    w, b, count = bounds.exhaustive_worst(N, F(-1, 2), v)
    per_word = [bounds.word_worst(N, s, F(-1, 2), v)[0] for s in dyck.dyck_words(N)]
    assert w.value.b == max(x.value.b for x in per_word)
    assert count == len(per_word) * len(dyck.prefix_states(N))
    deep, _, deep_count = bounds.exhaustive_worst(N, F(-1, 2), v, deep=True)
    assert deep_count == dyck.deep_states(N, dyck.dyck_words(N)) and deep.value.b <= w.value.b
    assert _inside(b, 6 * mp.exp(-3))


def test_first_loss_bound_below_log2():
    # 8N^2 e^-N: 0.714 at N = 6 (above log 2 = 0.693), 0.357 at N = 7
    assert bounds.first_loss_bound_below_log2(6) is None
    N, b = bounds.first_loss_bound_below_log2(20)
    assert N == 7 and _inside(b, 392 * mp.exp(-7))


def test_catalan_ratio_is_below_one_and_increases():
    d = bounds.catalan_deviation(16, "0.01")
    ratio = mp.mpf(dyck.catalan(16)) * mp.sqrt(mp.pi) * mp.mpf(16) ** mp.mpf(1.5) / mp.mpf(4) ** 16
    assert _inside(d.ratio, ratio) and _inside(d.deviation, 1 - ratio)
    assert _inside(d.percent, 100 * (1 - ratio)) and dp.gt(d.deviation, d.tolerance)
    steps = bounds.catalan_ratio_steps((1, 5, 50))
    assert [N for N, _, _ in steps] == [1, 5, 50] and steps[-1][2].a == steps[-1][2].b == 1
    assert all(dp.le(r, nxt) for _, r, nxt in steps)


@pytest.mark.parametrize("value,bound,outcome", [((1, 2), (3, 4), None), ((3, 4), (1, 2), Fail),
                                                 ((1, 3), (2, 4), Undecided)])
def test_at_most_has_three_outcomes(value, bound, outcome):
    out = at_most(mp.iv.mpf(value), mp.iv.mpf(bound), "x > b", "r")
    assert out is None if outcome is None else isinstance(out, outcome)
    if outcome is Fail:
        assert out == Fail("x > b", "r")
