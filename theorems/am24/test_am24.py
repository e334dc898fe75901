"""Regression suite for Ahuja & Mansouri 2024: every claim's verdict, the errata, and falsifiers that bite."""

import pytest

from proofkit import registry
from proofkit.replay import replay
from proofkit.testing import checked, falsified
from proofkit.verdict import Verdict

NUMERIC = ["AM24.T4", "AM24.T1"]


def expected_claims(tid):
    return [(tid, name) for name in registry.get(tid).expect]


@pytest.mark.parametrize("tid,claim", [c for t in NUMERIC + ["AM24.L1"] for c in expected_claims(t)])
def test_claim_verdict_matches_expectation(tid, claim):
    r = checked(tid)
    c = next(c for c in r.claims if c.name == claim)
    assert c.verdict == c.expected, f"{tid} / {claim}: {c.verdict} ({c.how}); seed {r.seed} dps {r.dps}"


@pytest.mark.parametrize("tid", NUMERIC)
def test_conclusions_hold_and_controls_refuted(tid):
    r = checked(tid)
    assert r.verdict in (Verdict.CERTIFIED, Verdict.CONFIRMED), f"seed {r.seed}"
    assert all(c.verdict == Verdict.REFUTED for c in r.claims if c.role == "control")


def test_t4_erratum_input_relation_is_C_B_not_B_C():
    r = checked("AM24.T4")
    assert [(e.printed, e.found) for e in r.errata] == [("Bt = B*C", "Bt = C*B")]
    assert float(r.errata[0].residual) < 1e-40


def test_t4_local_identifiability_rank_is_gauge_deficient():
    # catalog INST-SSM-1: rank 8 of 12 (4-dim similarity gauge), test leaks nothing
    diag = checked("AM24.T4").diagnostics["local_identifiability"]
    assert diag.startswith("J_train rank 8/12") and "J_train+test rank 8/12" in diag


def test_t1_local_identifiability_rank_17_of_21():
    diag = checked("AM24.T1").diagnostics["local_identifiability"]
    assert diag.startswith("J_train rank 17/21") and "J_train+test rank 17/21" in diag


def test_t1_printed_inverse_undefined_for_nonsquare_readout_pinv_holds():
    # m = 3 > k~ = 2: A is 3x2, A^-1 does not exist; the left pseudo-inverse relation holds
    r = checked("AM24.T1", {"m": 3})
    c = next(c for c in r.claims if c.name == "psi = A^-1 B phi (as printed)")
    assert c.verdict == Verdict.INCONCLUSIVE and "undefined" in c.how
    assert any("pseudo-inverse" in e.note for e in r.errata)


@pytest.mark.parametrize("drop", ["T>=2", "A5.square", "A5.A-invertible", "A5.B-invertible", "A8",
                                  "A5.injective"])
def test_t4_dropping_assumption_gives_certified_counterexample(drop, tmp_path):
    f = falsified("AM24.T4", [drop])
    assert f.found and f.verdict == Verdict.REFUTED, f"{drop}: {f.how}; seed {f.seed}"
    assert f.certified, f.how


def test_t4_all_assumptions_hold_search_empty():
    f = falsified("AM24.T4", [])
    assert not f.found and f.verdict == Verdict.CONFIRMED and "seeded fits" in f.effort


def test_t1_bias_with_one_length_is_refuted():
    f = falsified("AM24.T1", [], {"readout_bias": True, "T": 1})
    assert f.found and f.verdict == Verdict.REFUTED, f"seed {f.seed}: {f.how}"


@pytest.mark.slow
def test_t1_all_assumptions_hold_search_empty():
    f = falsified("AM24.T1", [])
    assert not f.found and f.verdict == Verdict.CONFIRMED


def test_stored_counterexamples_replay():
    from pathlib import Path

    files = sorted((Path(__file__).resolve().parents[2] / "counterexamples").glob("AM24.*.json"))
    assert files, "no stored AM24 counterexamples"
    for path in files:
        res = replay(path)
        assert res.reproduces, f"{path.name}: {res.how}"


def test_t1_undroppable_assumption_is_inconclusive_not_searched():
    f = falsified("AM24.T1", ["A2"])
    assert f.verdict == Verdict.INCONCLUSIVE and not f.found and "not searchable" in f.how
