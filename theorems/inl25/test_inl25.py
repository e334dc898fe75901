"""Regression suite for INL25 (Izzo, Nichani & Lee 2025): the hardmax lemma's verdicts at the defaults and
at other precisions; the printed definitions' failures keep their witnesses."""

import pytest

from proofkit import registry
from proofkit.testing import checked
from proofkit.verdict import Verdict

TID = "INL25.P37"


@pytest.mark.parametrize("name", list(registry.get(TID).expect))
def test_default_verdicts_match_expectation(name):
    r = checked(TID)
    c = r.claim(name)
    assert c.verdict == c.expected, f"{name}: {c.verdict} ({c.how})"


@pytest.mark.parametrize("bits", [1, 2, 3, 6])
def test_verdicts_hold_at_other_precisions(bits):
    r = checked(TID, {"p": bits})
    assert r.as_expected(), [(c.name, c.verdict) for c in r.claims if c.verdict != c.expected]


def test_printed_margin_fails_on_far_keys_with_a_witness():
    c = checked(TID).claim("P3.7 as printed (gamma from D3.4-D3.6)")
    assert "fails on 'far-key' at N = 16" in c.how and "gap 1/3 survives" in c.how
    corrected = checked(TID).claim("P3.7, gamma from every logit a forward pass can see")
    assert corrected.verdict == Verdict.CERTIFIED and "far-key: gamma 1/3" in corrected.how
