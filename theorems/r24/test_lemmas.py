"""R24.L5 (Richard 2024, Lemmas 5.1, 5.2, Claim 5.3, mu_r, Catalan, mask, loss range): expected verdicts
at the defaults and at other sizes; the NoPE argmax policy."""

from fractions import Fraction as F

import pytest

from proofkit import registry
from proofkit.posembed import dp, dyck
from proofkit.testing import checked

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
