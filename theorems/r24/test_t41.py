"""R24.T41 (Richard 2024, Thm 4.1): expected verdicts, the DP against brute force and the Head model,
Dyck counts, the drop records replay; exhaustive N = 8 behind ``slow``."""

import itertools
from fractions import Fraction as F
from pathlib import Path

import mpmath as mp
import pytest

from proofkit import Verdict, checked, registry, replay
from proofkit.posembed import Head, decide, dp, dyck

TID = "R24.T41"
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", list(registry.get(TID).expect))
def test_default_verdicts(name):
    c = checked(TID).claim(name)
    assert c.verdict == c.expected, f"{name}: {c.verdict} ({c.how})"


def test_dyck_counts():
    assert [dyck.catalan(n) for n in range(1, 9)] == [1, 2, 5, 14, 42, 132, 429, 1430]
    assert dyck.catalan(16) == 35357670
    for n in range(1, 8):
        words = list(dyck.dyck_words(n))
        assert len(words) == len(set(words)) == dyck.catalan(n) == dyck.completions(n, 0, 0)
        assert all(dyck.is_dyck(w) for w in words)
        assert dyck.dyck_count(n, n) == dyck.catalan(n)
        assert dyck.dyck_count(n, 2) == sum(dyck.depth(w) <= 2 for w in words)
        prefixes = {w[:r] for w in words for r in range(1, 2 * n)}
        assert {(len(z), dyck.heights(z)[-1]) for z in prefixes} == set(dyck.prefix_states(n))
    assert [len({w[:r] for w in dyck.dyck_words(n) for r in range(0, 2 * n)}) for n in range(1, 8)] == \
        [2, 6, 17, 50, 154, 493, 1626]  # with the empty prefix
    assert dyck.show(dyck.parse("(()())")) == "(()())" and dyck.depth(dyck.parse("(()())")) == 2


@pytest.mark.parametrize("gamma,v", [(F(-1, 2), F(-3)), (F(1, 2), F(4)), (F(-3, 2), F(-1))])
def test_dp_equals_brute_force_over_continuations(gamma, v):
    N = 3
    mp.mp.dps = 50
    for s in dyck.dyck_words(N):
        head = Head.closed_form([[1], [-1]], s, gamma, v)
        D = dp.head_log_odds(s, gamma, v)
        fail, valid = dp.table(N, D), dp.table(N, D, "valid")
        for r, h in dyck.prefix_states(N):
            z = dp.witness_prefix(r, h)
            assert head.logits(z)[0] - head.logits(z)[1] == D(r, h)  # model.py and the DP agree exactly
            tot = mp.mpf(0)
            for cont in itertools.product((0, 1), repeat=2 * N - r):
                w = z + cont
                if not dyck.is_dyck(w):
                    tot += mp.exp(mp.fsum(head.log_probs(w[:k])[w[k]] for k in range(r, 2 * N)))
            lo, hi = mp.mpf(fail[r][h].a), mp.mpf(fail[r][h].b)
            assert lo - mp.mpf(10) ** -40 <= tot <= hi + mp.mpf(10) ** -40
            assert abs(lo + mp.mpf(valid[r][h].a) - 1) < mp.mpf(10) ** -40


def test_fixed_B_variant_matches_the_model():
    eta = F(1, 8)
    s = dyck.parse("(()())")
    base = Head.closed_form([[1], [-1]], s, F(-1, 2), -9)
    head = Head(((F(1),), (F(-1) + eta,)), base.B, base.v)  # tokens and unembedding perturbed, B kept
    D = dp.head_log_odds(s, F(-1, 2), F(-9), e_close=eta - 1, fixed_B=True)
    rebuilt = Head.closed_form([[1], [eta - 1]], s, F(-1, 2), -9)
    Dr = dp.head_log_odds(s, F(-1, 2), F(-9), e_close=eta - 1)
    for r, h in dyck.prefix_states(3):
        z = dp.witness_prefix(r, h)
        assert head.logits(z)[0] - head.logits(z)[1] == D(r, h)
        assert rebuilt.logits(z)[0] - rebuilt.logits(z)[1] == Dr(r, h)


def test_failure_is_not_one_minus_success():
    N = 10  # failure ~ e^-100 at the top of the deepest word: 1 - P(success) would be 0
    s = (0,) * N + (1,) * N
    with dp.ivdps(60):
        f = dp.table(N, dp.head_log_odds(s, F(-1, 2), F(-20 * N * N)))[N][N]
        assert 0 < f.a and f.b < mp.mpf("1e-40")


def test_min_abs_v_bracket_is_proven():
    lo, hi, sc = dp.min_abs_v(3, list(dyck.dyck_words(3)), F(1, 100))
    assert F(8) < lo < hi <= lo + F(1, 100) < F(9)
    assert sc.all.s == dyck.parse("((()))") and (sc.all.r, sc.all.h) == (3, 3)


def test_gamma_in_minus_two_to_zero_keeps_the_attractor():
    assert not decide("gamma", 3, F(-3, 2), 0).found
    assert decide("gamma", 3, F(-5, 2), 0).found


def test_records_replay():
    paths = sorted((ROOT / "counterexamples").glob("R24.T41_*.json"))
    assert len(paths) >= 8
    for path in paths:
        res = replay(path)
        assert res.reproduces and res.certified, (path.name, res.how)


@pytest.mark.slow
def test_exhaustive_N8_and_bisection():
    r = checked(TID, {"N": 8, "N_bisect": 7})
    assert r.as_expected(), [(c.name, c.verdict) for c in r.claims if c.verdict != c.expected]


def _nothing_from_an_empty_domain(r):
    """No claim is certified or confirmed over an empty domain, and none raised."""
    for c in r.claims:
        assert not c.error, (c.name, c.error)
        if c.verdict in (Verdict.CERTIFIED, Verdict.CONFIRMED):
            assert c.scope.count != 0, (c.name, c.scope)


def test_N_1_certifies_nothing_over_an_empty_range():
    """claim (c) runs over N = 2..N and depth extrapolation needs a prefix deeper than s: at N = 1 both
    domains are empty (no off-path state, no deeper prefix), so neither is certified."""
    r = checked(TID, {"N": 1})
    _nothing_from_an_empty_domain(r)
    for name in ("(c) gamma > 0: off-path prefixes fail w.h.p. (Part D 39)",
                 "(b) depth extrapolation: prefixes deeper than s"):
        c = r.claim(name)
        assert c.verdict == Verdict.INCONCLUSIVE and c.scope.count == 0 and "empty domain" in c.how, c.how
    exact = r.claim("(b) exact worst failure at v = -2N^2, exhaustive (Part D 38)")
    assert exact.verdict == Verdict.CERTIFIED and exact.scope.count > 0


def test_N_top_at_or_below_N_confirms_nothing_on_zero_samples():
    r = checked(TID, {"N_top": 1})
    _nothing_from_an_empty_domain(r)
    c = r.claim("(b) sampled words beyond the exhaustive range")
    assert c.verdict == Verdict.INCONCLUSIVE and c.scope.count == 0 and "N = 7..1 (empty)" in c.scope.domain


def test_minimum_parameters_decide_honestly():
    for over in ({"N_bisect": 1}, {"samples": 1}):
        _nothing_from_an_empty_domain(checked(TID, over))


def test_threshold_brackets_are_rounded_outward():
    """The printed |v| brackets contain the proven ones (N = 2: [115/64, 461/256]; N = 5 rounds up at the
    top), so the true thresholds 1.79693... and 31.2005... lie inside them."""
    how = checked(TID).claim("(b) -v > 2N^2 is the smallest |v| that works (Part D 38)").how
    assert "N=2: |v|* in [1.796, 1.801]" in how and "N=5: |v|* in [31.17, 31.21]" in how
    assert dp.bracket(F(115, 64), F(461, 256)) == "[1.796, 1.801]"
    assert dp.bracket(F(31925, 1024), F(15975, 512), 6) == "[31.1767, 31.2012]"
