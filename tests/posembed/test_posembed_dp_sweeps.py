"""proofkit.posembed.dp's sweeps: the cached scan, argmax paths, Monte Carlo against the DP, the threshold
brackets, and the bound helpers."""

from fractions import Fraction as F

import mpmath as mp

from proofkit.posembed import dp, dyck


def test_scan_all_is_the_cached_scan_of_every_word():
    a = dp.scan_all(3, F(-1, 2), F(-18))
    assert a is dp.scan_all(3, F(-1, 2), F(-18))
    b = dp.scan(3, dyck.dyck_words(3), F(-1, 2), F(-18))
    assert (a.words, a.states, a.all.value.b, a.all.s) == (b.words, b.states, b.all.value.b, b.all.s)


def test_argmax_paths_follow_the_greedy_decoder():
    cases = list(dp.argmax_paths(3, F(-1, 2), F(-18)))
    assert len(cases) == dyck.catalan(3) * len(dyck.prefix_states(3)) and all(ok for *_, ok in cases)
    for s, r, h, path, _ in cases[:10]:
        assert path == dp.greedy(3, dp.head_log_odds(s, F(-1, 2), F(-18)), r, h)[0]
    # gamma = +1/2 (the repulsive head): the argmax leaves s's stack path somewhere
    assert not all(ok for *_, ok in dp.argmax_paths(3, F(1, 2), F(18)))


def test_sampled_vs_exact_reports_the_dp_and_the_sampler():
    s = next(iter(dyck.dyck_words(3)))
    states = dyck.prefix_states(3)[:3]
    rows = list(dp.sampled_vs_exact(3, s, F(-1, 2), F(-2), states, 500, 0))
    tab = dp.table(3, dp.head_log_odds(s, F(-1, 2), F(-2)))
    D = dp.head_log_odds(s, F(-1, 2), F(-2))
    for (r, h), (r2, h2, mc, exact, sd) in zip(states, rows):
        assert (r, h) == (r2, h2) and exact == float(tab[r][h].a)
        assert mc == dp.sample_failure(3, D, r, h, 500, 0) and sd >= 1e-3
        assert abs(mc - exact) <= 5 * sd


def test_thresholds_are_min_abs_v_over_all_words():
    rows = list(dp.thresholds(2))
    assert [N for N, *_ in rows] == [1, 2]
    lo, hi, _ = dp.min_abs_v(2, list(dyck.dyck_words(2)), F(4, 1000))
    assert rows[1][1:3] == (lo, hi)


def test_bound_helpers():
    with dp.ivdps(60), mp.workdps(80):
        b = dp.loss_bound(5)
        assert b.a <= 200 * mp.exp(-5) <= b.b
        assert dp.ratio_text(mp.iv.mpf(1), mp.iv.mpf(4)) == "0.25"
