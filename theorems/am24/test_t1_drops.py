"""AM24.T1 with each assumption dropped: the recorded outcome per assumption (Ahuja & Mansouri 2024,
Theorem 1 and the remarks after it), the structured search family that the counterexamples need, and
its exact certificate."""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from proofkit import Support, Verdict, checked, falsified, registry, replay
from proofkit.families import HingeDeepSets

ROOT = Path(__file__).resolve().parents[2]


def assumption_ids():
    return [a.id for a in registry.get("AM24.T1").assumptions]


def test_every_assumption_has_a_search():
    thm = registry.get("AM24.T1")
    assert all(a.drop for a in thm.assumptions), [a.id for a in thm.assumptions if not a.drop]


@pytest.mark.parametrize("aid,gap", [("A1.injective", "1/14"), ("H1.token-support", None)])
def test_drop_finds_a_certified_counterexample(aid, gap):
    f = falsified("AM24.T1", [aid])
    assert f.found and f.verdict == Verdict.REFUTED and f.certified, f.how
    assert "certified exactly (rational arithmetic" in f.how
    if gap:
        assert f"gap at the witness = {gap}" in f.how


def test_a2_alone_is_not_needed_under_all_labels():
    """The search is empty and says so (inconclusive, naming its space); that A2 is not needed under ALL
    is the certified proof step S4, which the assumption names."""
    f = falsified("AM24.T1", ["A2"])  # searchable since the antidiagonal support and the hinge family
    assert not f.found and f.verdict == Verdict.INCONCLUSIVE and "seeded fits" in f.effort
    assert "not searchable" not in f.how
    assert "no counterexample found in" in f.how and "unnecessary" in f.how
    thm = registry.get("AM24.T1")
    step = next(c for c in checked("AM24.T1").claims if c.name.startswith("S4 "))
    assert thm.assumption("A2").unneeded == step.name and step.verdict == Verdict.CERTIFIED


def test_a2_with_only_last_length_is_refuted_on_the_antidiagonal():
    f = falsified("AM24.T1", ["A2", "ALL"])
    assert f.found and f.certified and "gap at the witness = 7/5" in f.how, f.how
    assert f.params["support"] == "antidiag" and f.params["supervision"] == "ONLY"


def test_bias_dropped_is_refuted_at_one_length():
    """Dropping A1.bias-free searches every setting the other assumptions allow, T = 1 among them (no
    assumption of Theorem 1 bounds T): one length-1 label leaves the bias difference free."""
    f = falsified("AM24.T1", ["A1.bias-free"])
    assert f.found and f.params["readout_bias"] and f.params["T"] == 1, f.how


@pytest.mark.parametrize("aid", ["ALL"])
def test_drop_without_counterexample_states_the_effort(aid):
    f = falsified("AM24.T1", [aid])
    assert not f.found and f.verdict == Verdict.INCONCLUSIVE and "no counterexample found in" in f.how
    assert "seeded fits" in f.effort and "test sequences up to length 1000" in f.effort


def test_realizability_dropped_has_no_zero_risk_learner():
    f = falsified("AM24.T1", ["H0.realizable"])
    assert not f.found and f.verdict == Verdict.INCONCLUSIVE and "no fit reached zero training risk" in f.how


def test_bias_threshold_is_two_lengths():
    f = falsified("AM24.T1", [], {"readout_bias": True, "T": 1})
    assert f.found and f.verdict == Verdict.REFUTED, f"seed {f.seed}: {f.how}"
    f = falsified("AM24.T1", [], {"readout_bias": True, "T": 2})
    assert not f.found and f.verdict == Verdict.CONFIRMED


def test_stored_t1_records_replay():
    files = sorted((ROOT / "counterexamples").glob("AM24.T1_*.json"))
    assert len(files) >= 4  # bias (tanh family, uncertified), ReLU, new tokens, antidiagonal
    for path in files:
        res = replay(path)
        assert res.reproduces, f"{path.name}: {res.how}"


# ---------------------------------------------------------------- the family and support themselves
def test_hinge_family_jacobian_matches_finite_differences():
    fam = HingeDeepSets(2, 2, 2, (Fraction(1, 2), Fraction(1)))
    rng = np.random.default_rng(0)
    th, X = fam.init(rng), rng.uniform(0, 1.5, (5, 3, 2))
    J = fam.jacobian(th, X)
    eps = 1e-6
    for i in range(fam.n_params):
        d = np.zeros_like(th)
        d[i] = eps
        fd = (fam.logits(th + d, X) - fam.logits(th - d, X)) / (2 * eps)
        assert np.allclose(J[:, :, i], fd, atol=1e-6)


def test_hinge_certificate_rejects_a_visible_bump():
    # a bump left of the box's upper end under an injective readout is seen by training: no certificate
    fam = HingeDeepSets(1, 1, 1, (Fraction(1, 2), Fraction(1)))
    true = ["1.0", "1.0", "-2.0", "0.0", "0.0"]
    learned = ["1.0", "1.0", "-2.0", "-1.0", "0.0"]
    sup = Support("iid", 1, 2)
    ok, _ = fam.exact_zero_risk(learned, fam, true, sup, [1, 2], "sigmoid", np.array([[1.0]]))
    assert not ok
    ok, how = fam.exact_zero_risk(["1.0", "1.0", "-2.0", "0.0", "-1.0"], fam, true, sup, [1, 2],
                                  "sigmoid", np.array([[1.5]]))
    assert ok and "1/4" in how


def test_antidiag_support_sums_exactly_and_spans():
    sup = Support("antidiag", 1, 3)
    X = sup.sample(np.random.default_rng(1), 50, 3)
    assert np.all(X.sum(axis=1) == 1.5) and X.min() >= 0 and X.max() <= 1
    pts = sup.spanning_points(3)
    assert len(pts) == 3 and all(P.sum() == 1.5 for P in pts)
    assert sup.spanning_points(2) is None and sup.vertices(3).shape[0] == 0


def test_bias_counterexample_is_certified_in_the_hinge_family():
    hinge = {"family": "hinge", "readout_bias": True, "n": 1, "m": 1, "learned_dim": 1}
    f = falsified("AM24.T1", [], {**hinge, "T": 1})
    assert f.found and f.certified and "gap at the witness = 3/100" in f.how, f.how
    assert not falsified("AM24.T1", [], {**hinge, "T": 2}).found


@pytest.mark.parametrize("overrides", [{"learned_dim": 3, "T": 1}, {"learned_dim": 1, "m": 1, "T": 1}])
def test_over_and_under_parametrized_learners_hold_from_t1(overrides):
    # the true psi has k = 2 outputs; k~ = 3 (over) and k~ = 1 with m = 1 (B phi has rank 1) both fit
    f = falsified("AM24.T1", [], overrides)
    assert not f.found and f.verdict == Verdict.CONFIRMED, f.how
