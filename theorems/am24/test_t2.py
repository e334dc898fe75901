"""Regression suite for AM24.T2 (attention-like model with residual, Assumption 3): verdicts at the
defaults, the control refuted, the threshold in T under ALL (T = 2 identifies; T = 1 does not) and
under ONLY (no T identifies), the no-residual remark (linear identification only), and the falsifier."""

import pytest

from proofkit import registry
from proofkit.testing import checked, falsified
from proofkit.verdict import Verdict

TID = "AM24.T2"
EXACT = "every zero-risk learner generalizes (exact)"


@pytest.mark.parametrize("name", list(registry.get(TID).expect))
def test_default_verdicts_match_expectation(name):
    r = checked(TID)
    c = r.claim(name)
    assert c.verdict == c.expected, f"{name}: {c.verdict} ({c.how}); seed {r.seed} dps {r.dps}"


def test_default_theorem_certified_controls_refuted():
    r = checked(TID)
    assert r.verdict == Verdict.CERTIFIED and r.as_expected()
    assert all(c.verdict == Verdict.REFUTED for c in r.claims if c.role == "control")
    assert "J_train rank 34/34" in r.diagnostics["local_identifiability"]


def test_T2_already_identifies_under_ALL():
    # the paper asks T >= 3; lengths 1 and 2 already force C = 0 and A = B
    r = checked(TID, {"T": 2})
    assert r.claim(EXACT).verdict == Verdict.CERTIFIED and "dimension 2 x 0" in r.claim(EXACT).how
    for name in ("length generalization", "compositional generalization", "A = B",
                 "W = V (psi = phi on [0,1]^{2n}, exact identification)"):
        assert r.claim(name).verdict == Verdict.CERTIFIED, name


def test_T1_counterexample():
    r = checked(TID, {"T": 1})
    assert r.claim(EXACT).verdict == Verdict.REFUTED
    assert r.claim("length generalization").verdict == Verdict.REFUTED
    assert r.verdict == Verdict.REFUTED


@pytest.mark.parametrize("T", [2, 3])
def test_ONLY_never_identifies(T):
    # one supervised length leaves A free: psi = A^-1 [B phi + (B - A) a / T] (m x n directions)
    r = checked(TID, {"supervision": "ONLY", "T": T})
    assert r.claim(EXACT).verdict == Verdict.REFUTED and "dimension 2 x 2" in r.claim(EXACT).how
    assert r.claim("length generalization").verdict == Verdict.REFUTED


def test_no_residual_linear_identification_only():
    r = checked(TID, {"residual": False})
    assert r.claim(EXACT).verdict == Verdict.CERTIFIED
    assert r.claim("A = B").verdict == Verdict.REFUTED
    assert r.claim("W = A^-1 B V (psi = A^-1 B phi, linear identification)").verdict == Verdict.CERTIFIED
    assert r.claim("A W = B V (A psi = B phi on [0,1]^{2n})").verdict == Verdict.CERTIFIED
    assert r.claim("length generalization").verdict == Verdict.CERTIFIED


@pytest.mark.slow
@pytest.mark.parametrize("drop", ["ALL"])
def test_dropping_assumption_gives_counterexample(drop):
    f = falsified(TID, [drop])
    assert f.found and f.verdict == Verdict.REFUTED, f"{drop}: {f.how}; seed {f.seed}"


@pytest.mark.slow
@pytest.mark.parametrize("drop", ["T>=3", "H1.pair-support", "A3.residual"])
def test_dropping_assumption_search_empty(drop):
    f = falsified(TID, [drop])
    assert not f.found and f.verdict == Verdict.CONFIRMED, f.how
