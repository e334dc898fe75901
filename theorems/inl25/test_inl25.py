"""Regression suite for INL25 (Izzo, Nichani & Lee 2025): the hardmax lemma's verdicts at the defaults and
at other precisions; the printed definitions' failures keep their witnesses."""

import pytest

from proofkit import Verdict, checked, registry

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


def _decided_by_the_engine(r):
    """Every claim's verdict came from evidence (no legacy tuple), and nothing certified or confirmed
    rests on an empty domain."""
    for c in r.claims:
        assert not c.error, (c.name, c.error)
        assert "theorem file's own verdict" not in c.scope.evidence, c.name
        if c.verdict in (Verdict.CERTIFIED, Verdict.CONFIRMED) and c.scope.count is not None:
            assert c.scope.count >= 1, (c.name, c.scope)


def test_minimum_precision_decides_every_claim_over_every_model():
    r = checked(TID, {"p": 1})
    _decided_by_the_engine(r)
    lemma = r.claim("P3.7, gamma from every logit a forward pass can see")
    assert lemma.verdict == Verdict.CERTIFIED and lemma.scope.count == 6


def test_errata_are_the_printed_definitions_only():
    """Sec. 3.2 prints D3.4-D3.6, says A_y holds every observable logit and that gamma is the smallest
    observable gap: those refutations are errata; the prose max-vs-rest reading, the strict flush rule and
    flushing the normalized weights are proofkit's readings, refuted but no errata."""
    r = checked(TID)
    _decided_by_the_engine(r)
    assert {c.name for c in r.claims if c.erratum} == {
        "P3.7 as printed (gamma from D3.4-D3.6)", "D3.4 as printed gives the gap a forward pass realizes",
        "A_y holds every logit a forward pass realizes (the sentence after D3.5)"}
    readings = {c.name: c.scope.reading for c in r.claims if c.verdict == Verdict.REFUTED and not c.erratum}
    assert readings == {"P3.7 with the prose reading of gamma (max vs rest)": "our reading",
                        "P3.7 under a strict flush rule (< 2^-p)": "our reading",
                        "flushing every intermediate keeps the hardmax average": "our reading",
                        "control: hardmax from N >= 2^(p/(2 gamma))": "proxy"}
