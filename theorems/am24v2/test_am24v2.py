"""Regression suite for AM24v2 (the later version of Ahuja & Mansouri, from its summary)."""

import pytest

from proofkit import registry
from proofkit.testing import checked
from proofkit.verdict import Verdict

IDS = ["AM24v2.C3", "AM24v2.C5"]


@pytest.mark.parametrize("tid,claim", [(t, c) for t in IDS for c in registry.get(t).expect])
def test_claim_verdict_matches_expectation(tid, claim):
    r = checked(tid)
    c = next(c for c in r.claims if c.name == claim)
    assert c.verdict == c.expected, f"{tid} / {claim}: {c.verdict} ({c.how})"


@pytest.mark.parametrize("tid", IDS)
def test_controls_refuted(tid):
    r = checked(tid)
    controls = [c for c in r.claims if c.role == "control"]
    assert controls and all(c.verdict == Verdict.REFUTED for c in controls)


def test_mean_pooling_one_length_suffices():
    """Derived: with a bias-free sigma(A .) readout, mean pooling needs only T = 1 (as sum pooling)."""
    r = checked("AM24v2.C3", {"T": 1})
    gen = next(c for c in r.claims if c.name == "length generalization")
    assert gen.verdict == Verdict.CERTIFIED, gen.how


def test_cover_bound_bites_when_T_too_short():
    r = checked("AM24v2.C5")
    erm = next(c for c in r.claims if c.name.startswith("ERM"))
    assert "T=1: train 0.0025, every-length 0.637" in erm.how  # T = 1 does not generalize; T0 matters
