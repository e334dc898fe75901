"""Regression suite for AM24.T5 (vanilla RNN): verdicts at the defaults, the permutation found exactly,
the activation sweep (sigmoid / softplus: permutations; tanh: signed permutations; relu: neither), the
printed errata, and the falsifier under dropped assumptions."""

import pytest

from proofkit import Verdict, checked, falsified, registry

TID = "AM24.T5"
P_RELATIONS = ["A~ = A P (P a permutation)", "B~ = P^T B", "Lam~ = P^T Lam P", "h~_t = P^T h_t"]
S_RELATIONS = ["A~ = A S (S a signed permutation)", "B~ = S^T B", "Lam~ = S^T Lam S", "h~_t = S^T h_t"]


@pytest.mark.parametrize("name", list(registry.get(TID).expect))
def test_default_verdicts_match_expectation(name):
    r = checked(TID)
    c = r.claim(name)
    assert c.verdict == c.expected, f"{name}: {c.verdict} ({c.how}); seed {r.seed} dps {r.dps}"


def test_default_theorem_verdict_confirmed_control_refuted():
    r = checked(TID)
    assert r.verdict == Verdict.CONFIRMED and r.as_expected()
    assert all(c.verdict == Verdict.REFUTED for c in r.claims if c.role == "control")
    assert "J_train rank 12/12" in r.diagnostics["local_identifiability"]  # only a discrete symmetry


def test_group_element_found_exactly_swap_at_seed_1():
    # INST-RNN-1 has two permutation-equivalent learners reachable from restarts: identity (seed 0)
    # and the swap (seed 1); the swap must be found and named, and every relation certified with it
    r = checked(TID, seed=1)
    assert "P = swap" in r.diagnostics["groups"]["P"] and "S = swap" in r.diagnostics["groups"]["S"]
    for name in P_RELATIONS[:3] + S_RELATIONS[:3]:
        assert r.claim(name).verdict == Verdict.CERTIFIED, r.claim(name).how
    assert r.claim("Lam~ = P^T Lam P").residual is not None


def test_tanh_needs_signed_permutations():
    r = checked(TID, {"activation": "tanh"})
    assert "-e" in r.diagnostics["groups"]["S"]  # a unit flipped sign
    assert r.claim("A~ = A P (P a permutation)").verdict == Verdict.REFUTED
    for name in S_RELATIONS[:3]:
        assert r.claim(name).verdict == Verdict.CERTIFIED, r.claim(name).how
    assert r.claim("length generalization").verdict == Verdict.CONFIRMED


def test_softplus_identified_up_to_permutation():
    r = checked(TID, {"activation": "softplus"})
    for name in P_RELATIONS[:3]:
        assert r.claim(name).verdict == Verdict.CERTIFIED, r.claim(name).how
    assert r.claim("length generalization").verdict == Verdict.CONFIRMED


def test_relu_not_identified_by_any_signed_permutation_yet_generalizes_at_samples():
    # ReLU is positively homogeneous: h~ = D Pi^T h with D > 0 diagonal fits as well
    r = checked(TID, {"activation": "relu"})
    for name in P_RELATIONS[:3] + S_RELATIONS[:3]:
        assert r.claim(name).verdict == Verdict.REFUTED, r.claim(name).how
    assert r.claim("length generalization").verdict == Verdict.CONFIRMED
    assert r.verdict == Verdict.INCONCLUSIVE and "A6.sigmoid" in r.violated_assumptions


def test_printed_errata_refuted_and_corrections_certified():
    r = checked(TID)
    for name in ("(51) as printed: prod u_i", "degree p as printed", "(53) as printed: Pi Lam Pi^T",
                 "(56) as printed: A h_j = A~ h_j", "(58) as printed: x_k"):
        assert r.claim(name).verdict == Verdict.REFUTED, name
    for name in ("S2 induction step (58), x_{k+1}", "S4 mixed partial v1 v2 sigma''(s)",
                 "S5 (52): Pi through sigma, then (53) gives Lam~", "S6 (56) as corrected: A~ h~_j = A h_j",
                 "S7 degree <= p - 1"):
        assert r.claim(name).verdict == Verdict.CERTIFIED, name


@pytest.mark.parametrize("drop", ["T>=2", "A6.A-invertible"])
def test_dropping_assumption_gives_counterexample(drop):
    f = falsified(TID, [drop])
    assert f.found and f.verdict == Verdict.REFUTED, f"{drop}: {f.how}; seed {f.seed}"


@pytest.mark.parametrize("drop", ["A6.sigmoid", "A2"])
def test_dropping_assumption_search_empty(drop):
    # ReLU (A6.sigmoid) and a subspace support (A2): seeded fits and penalty fits all generalize
    f = falsified(TID, [drop])
    assert not f.found and f.verdict == Verdict.INCONCLUSIVE and "no counterexample found in" in f.how, f.how


def test_over_parametrized_learner_at_two_lengths_is_a_certified_counterexample():
    """k~ = n + 1 at T = 2 (the A6.square drop, shrunk to n = 1, k~ = 2): the extra hidden unit enters the
    readout only from length 3 on; zero risk is proven symbolically and the gap is a ball away from 0.
    The T-threshold for k~ = n + 1 is 3 and for k~ = n + 2 it is 4 (paper_refs.md), as for Theorem 4."""
    f = falsified("AM24.T5", ["A6.square"])
    assert f.found and f.certified and "zero risk proven symbolically" in f.how


def test_relations_between_different_dimensions_are_undefined_not_a_crash():
    r = checked("AM24.T5", {"learned_dim": 3})
    rel = [c for c in r.claims if c.name.startswith("A~ = A P")][0]
    assert rel.verdict == Verdict.INCONCLUSIVE and "at these dimensions" in rel.how


def test_signed_permutation_commutes_with_the_tanh_step_not_the_sigmoid_step():
    # why the group is the signed permutations for tanh: S tanh(S^T z) = tanh(z) for S = diag(1, -1),
    # while the sigmoid's flipped unit leaves sigmoid(z) + sigmoid(-z) = 1 behind (refuted at a rational
    # point)
    r = checked(TID)
    assert r.claim("tanh: the RNN step commutes with a signed permutation").verdict == Verdict.CERTIFIED
    sig = r.claim("sigmoid: the RNN step with a signed permutation")
    assert sig.verdict == Verdict.REFUTED and "excludes 0" in sig.how, sig.how


def test_readout_bias_identified_up_to_permutation():
    r = checked(TID, {"readout_bias": True})
    for name in P_RELATIONS[:3]:
        assert r.claim(name).verdict == Verdict.CERTIFIED, r.claim(name).how
    assert r.claim("length generalization").verdict == Verdict.CONFIRMED


def test_readout_bias_one_length_is_a_certified_counterexample():
    f = falsified(TID, [], {"readout_bias": True, "T": 1})
    assert f.found and f.certified and "zero risk proven symbolically" in f.how, f.how


@pytest.mark.slow
def test_readout_bias_two_lengths_search_empty():
    f = falsified(TID, [], {"readout_bias": True})
    assert not f.found and f.verdict == Verdict.CONFIRMED, f.how
