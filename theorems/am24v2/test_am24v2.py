"""Regression suite for AM24v2 (the later version of Ahuja & Mansouri, from its summary)."""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from proofkit import Support, Verdict, checked, falsified, registry, replay
from proofkit.families import HingeDeepSets, MeanPoolHingeDeepSets

ROOT = Path(__file__).resolve().parents[2]

IDS = ["AM24v2.C3", "AM24v2.C4", "AM24v2.C5", "AM24v2.E1"]


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


# ---------------------------------------------------------------- C3 with each assumption dropped
def test_c3_every_assumption_has_a_search():
    assert all(a.drop for a in registry.get("AM24v2.C3").assumptions)


@pytest.mark.parametrize("aid,text", [
    ("injective", "output gap at the witness = 37/1960"),  # (1/2 + 3.7/49)/4 - 1/8 at (1, 0, 0, 0)
    ("token-support", "on every box sequence of any length"),
])
def test_c3_drop_finds_a_certified_counterexample(aid, text):
    f = falsified("AM24v2.C3", [aid])
    assert f.found and f.verdict == Verdict.REFUTED and f.certified, f.how
    assert "certified exactly (rational arithmetic" in f.how and text in f.how, f.how
    assert f.params["family"] == "hinge"


def test_c3_realizability_dropped_has_no_zero_risk_learner():
    f = falsified("AM24v2.C3", ["realizable"])
    assert not f.found and f.verdict == Verdict.INCONCLUSIVE and "no fit" in f.how


def test_c3_only_last_length_search_is_empty():
    f = falsified("AM24v2.C3", ["ALL"], {"family": "hinge", "n": 1, "m": 1, "learned_dim": 1})
    assert not f.found and f.verdict == Verdict.INCONCLUSIVE and "no counterexample found in" in f.how
    assert "seeded fits" in f.effort and "test sequences up to length 1000" in f.effort


def test_c3_one_length_suffices_with_a_bias():
    """Derived (S3): under mean pooling a constant shift cancelled by the bias at length 1 is cancelled
    at every length, so T = 1 suffices with a bias (sum pooling needs T = 2: AM24.T1's 3/100 record)."""
    hinge = {"family": "hinge", "readout_bias": True, "n": 1, "m": 1, "learned_dim": 1, "T": 1}
    f = falsified("AM24v2.C3", [], hinge)
    assert not f.found and f.verdict == Verdict.CONFIRMED, f.how
    step = next(c for c in checked("AM24v2.C3").claims if c.name.startswith("S3 "))
    assert step.verdict == Verdict.CERTIFIED


def test_mean_certificate_gives_no_gap_for_a_bias_shift():
    # c_0 + 0.2 and a - 0.2: sum pooling differs at length 2 (certified), mean pooling nowhere on the box
    true, shifted = ["1.0", "0.1", "1.0", "-1.5", "0.0", "0.0"], ["1.0", "-0.1", "1.2", "-1.5", "0.0", "0.0"]
    knots, sup, X = (Fraction(2, 3), Fraction(1)), Support("iid", 1, 1), np.array([[0.0], [1.0]])
    s = HingeDeepSets(1, 1, 1, knots, readout_bias=True)
    ok, how = s.exact_zero_risk(shifted, s, true, sup, [1], "sigmoid", X)
    assert ok and "gap at the witness = 1/5" in how
    mean = MeanPoolHingeDeepSets(1, 1, 1, knots, readout_bias=True)
    assert mean.exact_logits(mean.coefficients(shifted), X, mean.bias(shifted)) == [Fraction(7, 20)]
    assert mean.exact_logits(mean.coefficients(true), X, mean.bias(true)) == [Fraction(7, 20)]
    assert not mean.exact_zero_risk(shifted, mean, true, sup, [1], "sigmoid", X)[0]
    assert not mean.exact_zero_risk(shifted, s, true, sup, [1], "sigmoid", X)[0]  # other pooling


@pytest.mark.parametrize("learned,activation,ok", [
    (["1.0", "1.0", "-3.5", "3.7", "-0.42"], "relu", True),  # the stored ReLU counterexample
    (["1.0", "1.0", "-3.4", "3.7", "-0.42"], "relu", False),  # affine part moved: training sees it
    (["1.0", "1.0", "-3.5", "200", "-0.42"], "relu", False),  # bump so large a training logit is > 0
    (["1.0", "1.0", "-3.5", "3.7", "-0.42"], "sigmoid", False),  # injective readout sees the bump
    (["1.0", "0.5", "-3.5", "0.0", "0.0"], "relu", False),  # a constant shift is seen without a bias
])
def test_mean_certificate_rejects_learners_off_the_zero_risk_set(learned, activation, ok):
    fam = MeanPoolHingeDeepSets(1, 1, 1, (Fraction(6, 7), Fraction(1)))
    true = ["1.0", "1.0", "-3.5", "0.0", "0.0"]
    X = np.array([[1.0], [0.0], [0.0], [0.0]])
    got, how = fam.exact_zero_risk(learned, fam, true, Support("iid", 1, 3), [1, 2, 3], activation, X)
    assert got == ok, how


def test_mean_hinge_jacobian_matches_finite_differences():
    fam = MeanPoolHingeDeepSets(2, 2, 2, (Fraction(1, 2), Fraction(1)), readout_bias=True)
    rng = np.random.default_rng(0)
    th, X = fam.init(rng), rng.uniform(0, 1.5, (5, 3, 2))
    J, eps = fam.jacobian(th, X), 1e-6
    for i in range(fam.n_params):
        d = np.zeros_like(th)
        d[i] = eps
        fd = (fam.logits(th + d, X) - fam.logits(th - d, X)) / (2 * eps)
        assert np.allclose(J[:, :, i], fd, atol=1e-6)


def test_stored_c3_records_replay():
    files = sorted((ROOT / "counterexamples").glob("AM24v2.C3_*.json"))
    assert len(files) >= 2  # ReLU readout, new tokens
    for path in files:
        res = replay(path)
        assert res.reproduces and res.certified, f"{path.name}: {res.how}"


def test_cover_bound_bites_when_T_too_short():
    r = checked("AM24v2.C5")
    erm = next(c for c in r.claims if c.name.startswith("ERM"))
    assert "T=1: train 0.0025, every-length 0.637" in erm.how  # T = 1 does not generalize; T0 matters


def test_cot_paper_claim_inconclusive_with_reason():
    r = checked("AM24v2.C4")
    c = next(c for c in r.claims if c.role == "conclusion")
    assert r.verdict == Verdict.INCONCLUSIVE and "no model class" in c.how


def test_cot_running_sum_breaks_at_every_T():
    r = checked("AM24v2.C4", {"T": 7})
    c = next(c for c in r.claims if c.name.startswith("proxy: running sum"))
    assert c.verdict == Verdict.REFUTED and "length 8" in c.how


def test_paperstyle_quick_seeded():
    """A few AdamW steps: deterministic for a seed, loss decreasing, float32 stays float32."""
    import numpy as np

    from proofkit.families import paperstyle as ps

    teacher = {"A": np.array([[1.5, -0.7], [0.4, 1.2]]), "Lam": np.array([[0.6, -0.3], [0.2, 0.5]]),
               "B": np.array([[1.0, 0.5], [-0.3, 0.8]])}
    a = ps.train_linrec(teacher, T=3, steps=200, dtype=np.float32, seed=3)
    b = ps.train_linrec(teacher, T=3, steps=200, dtype=np.float32, seed=3)
    assert all(np.array_equal(a.params[k], b.params[k]) for k in a.params)
    assert a.params["A"].dtype == np.float32
    assert np.mean(a.losses[-20:]) < np.mean(a.losses[:20])
    x = np.random.default_rng(0).random((50, 2))
    assert ps.r2(x, x @ np.array([[2.0, 1.0], [0.5, -1.0]]) + 3) > 1 - 1e-12


@pytest.mark.slow
def test_paperstyle_full_run_floors():
    """Full run (50 000 steps per dtype; measured max MSE 5.95e-13 f64, 3.22e-12 f32): claims confirmed."""
    r = checked("AM24v2.E1", {"steps": 50000})
    for c in r.claims:
        if c.name.startswith("experiment"):
            assert c.verdict == Verdict.CONFIRMED, c.how
    print("\n".join(c.how for c in r.claims))


# ----------------------------------------------------------------------------- evidence, readings, minima
def test_readings_no_erratum_from_a_summary_reading_or_proxy():
    """Nothing in AM24v2 is the paper's printed statement except C4's (undecidable) claim: C3's claims are
    proofkit's reading of 'sum/mean pooling', C4's and C5's computations are proxies, E1 is an experiment;
    so no refuted claim here is an erratum."""
    for tid in IDS:
        r = checked(tid)
        assert not r.errors and not any(c.erratum for c in r.claims), tid
    assert {c.scope.reading for c in checked("AM24v2.E1").claims if c.role != "control"} == {"experiment"}
    run = next(c for c in checked("AM24v2.C4").claims if c.name.startswith("proxy: running sum"))
    assert run.scope.reading == "proxy" and run.scope.evidence == "exact arithmetic"


def test_c4_minimum_parameters_cover_cases():
    """At L = 1, T = 2 the contractive proxy certifies over its 9 sequences (no empty domain) and the
    running-sum proxy is still refuted exactly."""
    r = checked("AM24v2.C4", {"L": 1, "T": 2})
    con = next(c for c in r.claims if c.name.startswith("proxy: contractive"))
    assert con.verdict == Verdict.CERTIFIED and con.scope.count == 9 and "lengths 1..1" in con.scope.domain
    run = next(c for c in r.claims if c.name.startswith("proxy: running sum"))
    assert run.verdict == Verdict.REFUTED and "length 3" in run.how


def test_c5_minimum_parameters_float_evidence_counts():
    """At the smallest sample count and training length the float64 checks still count what they looked
    at (10 parameter samples, one training length) and stay 'confirmed (floating point, not proven)'."""
    r = checked("AM24v2.C5", {"T_max": 1, "samples": 10})
    cover = next(c for c in r.claims if c.name.startswith("eta-net of parameters is an (L eta)"))
    erm = next(c for c in r.claims if c.name.startswith("ERM"))
    for c, n in ((cover, 10), (erm, 1)):
        assert c.verdict == Verdict.CONFIRMED and c.scope.count == n, (c.name, c.scope)
        assert c.scope.evidence == "floating point" and "not proven" in c.how


def test_e1_one_step_is_refuted_not_confirmed():
    """One AdamW step trains nothing: the experiment claims are refuted (uncertified, floating point), while
    proofkit's own 60-digit fit stays confirmed at its 112 sampled sequences."""
    r = checked("AM24v2.E1", {"steps": 1})
    for c in r.claims:
        if c.name.startswith("experiment"):
            assert c.verdict == Verdict.REFUTED and "uncertified counterexample (floating point)" in c.how
    pk = next(c for c in r.claims if c.name.startswith("proofkit exact fit"))
    assert pk.verdict == Verdict.CONFIRMED and pk.scope.count == 112
    assert pk.scope.evidence == "sampled at high precision"
