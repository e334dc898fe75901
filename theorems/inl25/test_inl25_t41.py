"""Regression suite for INL25.T41 (Izzo, Nichani & Lee 2025, Theorem 4.1): counts-based evaluation, the
auxiliary string z and its floor sub-claims, the Part D findings with their instances, and the drop pairs
whose records replay."""

from fractions import Fraction as F
from itertools import product
from pathlib import Path

import pytest

from proofkit import Verdict, checked, registry, replay
from proofkit.limit import (
    VARIANTS,
    build_pair,
    count_string,
    decide,
    evaluate,
    evaluate_counts,
    from_dict,
    from_string,
    random_model,
    run_survey,
    to_dict,
)
from proofkit.limit import auxiliary as cz

TID = "INL25.T41"
RECORDS = sorted((Path(__file__).parents[2] / "counterexamples").glob("INL25.T41_*.json"))


@pytest.mark.parametrize("name", list(registry.get(TID).expect))
def test_default_verdicts_match_expectation(name):
    c = checked(TID).claim(name)
    assert c.verdict == c.expected, f"{name}: {c.verdict} ({c.how})"


def test_counts_match_the_forward_pass_and_reach_a_million():
    import numpy as np

    m = random_model(np.random.default_rng(3), 3, 2, "m")
    for x in product(m.alphabet, repeat=5):
        assert evaluate(m, x, 2).out == evaluate_counts(m, from_string(m, x), 2).out
    big = count_string({"a": 400_000, "b": 350_000, "c": 250_000}, "abc")
    assert big.length == 10**6 + 3 and evaluate_counts(m, big, 8).hardmax


def _theorem_module():
    """The theorem file itself, under the dotted name the registry gives the built-in set (so its relative
    import of the proof-walk helper _t41_walk resolves)."""
    import importlib

    return importlib.import_module("proofkit_theorems.inl25.t41_bound")


def test_build_z_cases_and_floor_claims_on_the_s5_instance():
    f, g, x, tau, eps = _theorem_module()._s5_instance()
    c = cz.build_z(f, g, x, tau, eps)
    assert c.case == "C2" and c.f_part == {"a": 8} and c.g_part == {"b": 24}
    claims = cz.floor_claims(c, x, tau, eps, 2)
    assert claims["S4"] and claims["S11"] and claims["S5"] is False


def test_survey_floor_claims_hold_and_z_leaves_the_hardmax_regime():
    s = run_survey(1, 40)
    assert not s.failures, s.failures
    assert s.z_output_changed > 0 and s.maxima["|z| eps^2/tau"] <= 2


def test_model_roundtrip_keeps_variant_fields():
    f, g, _ = build_pair("non-translation-invariant", 5)
    assert from_dict(to_dict(g)) == g and not g.translation_invariant and f.standard


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_dropped_assumption_separates_and_none_does_not(variant):
    out = decide(variant, 8, 0)
    assert out.found == (variant != "none"), out.how


def test_infinite_precision_pair_is_exact_at_a_perfect_power():
    f, g, p = build_pair("infinite-precision", 8)
    x = count_string({"a": 2**119, "b": 2**119 - 2}, "bb")
    a, b = evaluate_counts(f, x, p), evaluate_counts(g, x, p)
    assert a.arithmetic == b.arithmetic == "exact" and b.out[0] - a.out[0] > F(1, 2)


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_records_replay(path):
    r = replay(path)
    assert r.reproduces and r.certified, r.how


@pytest.mark.slow
def test_default_verdicts():
    r = checked(TID)
    assert r.as_expected(), [(c.name, c.verdict) for c in r.claims if c.verdict != c.expected]
    assert checked(TID, {"seed": 5, "instances": 400}).as_expected()


def test_no_decided_instance_decides_nothing():
    """At p = 20 no seeded x is in the hardmax regime, so the survey decides no floor claim: each is
    inconclusive (empty domain), never confirmed on zero instances."""
    r = checked(TID, {"instances": 10, "p": 20})
    for name in ("S1, S2 = eq. (1): f-part floor inequalities", "S4, S8: case 2/3 totals",
                 "z is in the hardmax regime (Part D item 11)", "control: |z| <= tau + 1 + tau/eps"):
        c = r.claim(name)
        assert c.verdict == Verdict.INCONCLUSIVE and c.scope.count == 0, (name, c.verdict, c.how)
    for c in r.claims:
        assert not c.error and "theorem file's own verdict" not in c.scope.evidence, c.name
        if c.verdict in (Verdict.CERTIFIED, Verdict.CONFIRMED) and c.scope.count is not None:
            assert c.scope.count >= 1, (c.name, c.scope)


def test_errata_are_the_printed_statements_only():
    r = checked(TID)
    assert {c.name for c in r.claims if c.erratum} == {
        "Lipschitz step with the MLP's constant only (Part D item 8)",
        "case 3 premise as printed: |A_f| >= tau/eps and |A_f| <= |Sigma| (Part D item 10)",
        "Sec. 5 (ii): N increases as eps increases (Part D item 16)"}
    s5 = r.claim(_theorem_module().S5_NAME)
    assert s5.verdict == Verdict.REFUTED and s5.scope.reading == "our reading" and not s5.erratum


def test_proof_walk_of_theorem_4_1():
    """The walk lists App. A.1's steps in order; the unchecked ones carry reasons, and the ReLU Lipschitz
    sample is exact (no pair exceeds the Frobenius bound)."""
    from proofkit.limit import mlp_lipschitz

    (proof,) = _theorem_module().THEOREM.proofs
    cov = proof.coverage()
    assert (cov.total, cov.checked, cov.definitions) == (39, 31, 4), cov
    assert [label for label, _ in cov.gaps] == ["f-prefix, |A_f| <= tau/eps", "f display, line 2",
                                                "m* >= tau/(|Sigma| eps) - 1", "triangle display"]
    out = mlp_lipschitz(0, models=5, pairs=5)
    assert out.failure is None and 0 < out.worst <= 1 and out.pairs > 0
