"""R24.L5 (Richard 2024, Lemmas 5.1, 5.2, Claim 5.3, mu_r, Catalan, mask, loss range): expected verdicts
at the defaults and at other sizes; the NoPE argmax policy."""

from fractions import Fraction as F

import pytest

from proofkit import Verdict, checked, registry
from proofkit.posembed import dp, dyck

TID = "R24.L5"


@pytest.mark.parametrize("name", list(registry.get(TID).expect))
def test_default_verdicts(name):
    c = checked(TID).claim(name)
    assert c.verdict == c.expected, f"{name}: {c.verdict} ({c.how})"


@pytest.mark.parametrize("over", [{"n_max": 4, "N_top": 8}, {"n_max": 12, "N_top": 20}])
def test_verdicts_at_other_sizes(over):
    r = checked(TID, over)
    assert r.as_expected(), [(c.name, c.verdict) for c in r.claims if c.verdict != c.expected]


def test_nope_argmax_opens_only_at_height_zero():
    for N in range(1, 9):
        D = dp.nope_log_odds(F(2 * N, 2 * N + 1), F(-2 * N * N * (2 * N + 1)))
        for r, h in dyck.prefix_states(N):
            if r >= 2 or h > 0:
                assert (D(r, h) > 0) == (h == 0), (N, r, h)
            path, tie = dp.greedy(N, D, r, h)
            assert not tie and path[-1] == 0 and min(path) >= 0


def test_minimum_sizes_certify_nothing_over_an_empty_domain():
    """n_max = 2 and N_top = 1 (the smallest allowed): every claim still covers a non-empty domain, and the
    r = 0 loss claim, which decides only where log 2 alone exceeds the bound (N >= 7), is inconclusive."""
    r = checked(TID, {"n_max": 2, "N_top": 1})
    for c in r.claims:
        assert not c.error, (c.name, c.error)
        if c.verdict in (Verdict.CERTIFIED, Verdict.CONFIRMED):
            assert c.scope.count != 0, (c.name, c.scope)
    assert r.claim("loss with an r = 0 term stays < 8N^2 e^-N (Part D 24)").verdict == Verdict.INCONCLUSIVE


def test_gamma_half_inequality_holds_as_printed_and_its_token_reading_is_refuted():
    """Sec. 3.2 prints mu_r >= 1 + 1/n and 'c_r diverges' under its hypothesis: certified exactly; the
    reading that token sequences show the divergence is refuted (no z != s obeys the hypothesis)."""
    r = checked(TID)
    printed = r.claim("gamma = 1/2: mu_r >= 1 + 1/n and c_r diverges (Part D 33)")
    tokens = r.claim("gamma = 1/2: c_r diverges for a token pair z != s (Part D 33)")
    assert printed.verdict == Verdict.CERTIFIED and printed.scope.reading == "as printed"
    assert tokens.verdict == Verdict.REFUTED and not tokens.erratum and tokens.scope.reading == "our reading"
    catalan = r.claim("C_16 ~ 4^N pi^-1/2 N^-3/2 within 1% (Part D 47)")
    assert catalan.verdict == Verdict.REFUTED and not catalan.erratum
