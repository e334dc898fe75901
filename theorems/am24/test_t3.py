"""Regression suite for AM24.T3 (general readout omega(sum_{j<i} psi), Assumption 4): verdicts at the
defaults (as printed with the unbounded logit pair map: no witness; the corrected polynomial statement
certified), the exact counterexamples (bounded phi + C^1 omega; T = 2; ONLY), the remarks (diagonal,
residual, multi-head, deep-sets extension), the compositional counterexample at a fixed length (cut
support), the k = 2 corrected statement, the falsifier under every drop and the replay of every stored
T3 record."""

from pathlib import Path

import pytest
import sympy as sp

from proofkit import Verdict, checked, falsified, registry, replay
from proofkit.families import (
    EFFORT,
    generalizes_at,
    max_preactivation,
    polynomial_kernel,
    polytope_max,
    vector_generalizes_at,
    vector_polynomial_kernel,
)

TID = "AM24.T3"
SEARCH = "every zero-risk learner generalizes (exact witness search)"
CORRECTED = "corrected T3: polynomial a = omega^-1 o rho of degree <= D, causal keys, T >= 3 (exact)"
VECTOR = "corrected T3, vector pair maps k = 2: polynomial a: R^2 -> R^2 of degree <= D (exact)"


@pytest.mark.parametrize("name", list(registry.get(TID).expect))
def test_default_verdicts_match_expectation(name):
    r = checked(TID)
    c = r.claim(name)
    assert c.verdict == c.expected, f"{name}: {c.verdict} ({c.how})"


def test_default_theorem_and_control():
    r = checked(TID)
    assert r.verdict == Verdict.CONFIRMED and r.as_expected()
    assert all(c.verdict == Verdict.REFUTED for c in r.claims if c.role == "control")
    assert r.elapsed_s < 30


def test_compact_support_counterexample_exact_gap_one():
    r = checked(TID, {"pair_map": "bounded"})
    c = r.claim(SEARCH)
    assert c.verdict == Verdict.REFUTED and c.residual == "1" and "max(s - 2, 0)^3" in c.how
    assert r.verdict == Verdict.REFUTED
    # the correction: an analytic readout class leaves no witness, and the polynomial claim certifies
    r2 = checked(TID, {"pair_map": "bounded", "readout": "analytic"})
    assert r2.claim(SEARCH).verdict == Verdict.CONFIRMED
    assert r2.claim(CORRECTED).verdict == Verdict.CERTIFIED


@pytest.mark.parametrize("T", [3, 5])
def test_hinge_fails_at_every_T(T):
    r = checked(TID, {"pair_map": "bounded", "T": T})
    c = r.claim(SEARCH)
    assert c.verdict == Verdict.REFUTED and f"length {T + 1}" in c.how and c.residual == "1"


def test_T2_sinh_counterexample():
    r = checked(TID, {"T": 2, "pair_map": "bounded"})
    c = r.claim(SEARCH)
    assert c.verdict == Verdict.REFUTED and "sinh" in c.how
    assert sp.simplify(sp.sympify(c.residual).rewrite(sp.exp) - (2 * sp.sqrt(2) - 2)) == 0, c.residual


def test_polynomial_kernels():
    assert polynomial_kernel(6, "causal", False, [1, 2, 3]).general == sp.Symbol("c1") * sp.Symbol(
        "s", real=True)
    k = polynomial_kernel(4, "causal", False, [1, 2])  # T = 2: nothing forces linearity
    assert k.dimension == 4 and generalizes_at(k, "causal", False, 3) != 0
    assert polynomial_kernel(4, "causal", True, [1, 2, 3]).dimension == 0  # residual: a = id


@pytest.mark.parametrize("drop,family,gap", [("A7.pair-sums", "hinge", "1"), ("T>=3", "analytic", None),
                                             ("ALL", "offset", "1"), ("H0.realizable", "T-key", "-27/64"),
                                             ("H1.pair-support", "off-support", "1/4")])
def test_drop_gives_certified_counterexample(drop, family, gap):
    f = falsified(TID, [drop])
    assert f.found and f.certified and f.verdict == Verdict.REFUTED
    assert f.record["witness"]["family"] == family
    assert gap is None or f.record["witness"]["gap"] == gap


@pytest.mark.parametrize("drop,why", [("A4.causal", "unbounded"), ("A4.diffeo", "homeomorphism of R"),
                                      ("A7.regular-closed", "values only")])
def test_drop_search_empty_with_reason(drop, why):
    f = falsified(TID, [drop])
    assert f.verdict == Verdict.INCONCLUSIVE and not f.found and why in f.how, f.how
    assert "no counterexample found in" in f.how and "unnecessary" in f.how


def test_realizability_drop_shows_truth_outside_class():
    f = falsified(TID, ["H0.realizable"])
    assert "f is outside the class" in f.how and "f = 1/8" in f.how
    b = falsified(TID, ["H0.realizable"], {"pair_map": "bounded"})
    assert "while f = 28/27" in b.how and b.record["witness"]["gap"] == "-1"


def test_noninjective_readout_with_bounded_phi_plateau():
    f = falsified(TID, ["A4.diffeo"], {"pair_map": "bounded"})
    assert f.found and f.certified and f.record["witness"]["family"] == "plateau"
    assert f.record["witness"]["omega"] == "min(s, 2)" and f.record["witness"]["gap"] == "-1"
    assert sorted(f.dropped) == ["A4.diffeo", "A7.pair-sums"]


def test_compositional_counterexample_cut_support_fixed_length():
    assert max_preactivation({"T": 4, "supervision": "ALL", "keys": "causal", "residual": False,
                              "support": "cut"}) == sp.Rational(5, 2)
    assert polytope_max([1, 1, 0], sp.Rational(5, 2)) == 2  # length 3: x1 + x2 <= 2, the box
    assert polytope_max([1, 1, 1], sp.Rational(5, 2)) == sp.Rational(5, 2)
    f = falsified(TID, ["A7.pair-sums"], {"support": "cut", "T": 4})
    w = f.record["witness"]
    assert f.certified and w["family"] == "compositional-hinge" and w["length"] == "4" and w["gap"] == "1/8"
    assert f.dropped == ["A7.pair-sums"]  # every pair marginal stays [0,1]^2 (H1 holds at T = 4)
    r = checked(TID)
    assert r.claim("T3 compositional at fixed length: cut support (T = 4), phi = b, C^1 omega: "
                   "generalizes").residual == "1/8"


def test_cut_and_segment_support_restores_the_sums():
    p = {"T": 4, "supervision": "ALL", "keys": "causal", "residual": False, "support": "cutseg"}
    assert max_preactivation(p) == 3
    f = falsified(TID, ["A7.regular-closed"], {"pair_map": "bounded"})
    assert f.record["witness"]["family"] == "hinge" and f.record["witness"]["length"] == "5"


def test_vector_tokens_k2_linear():
    k = vector_polynomial_kernel(3, 2)
    s1, s2 = k.s
    assert len(k.free) == 4 and all(sp.Poly(e, s1, s2).total_degree() == 1 for e in k.general)
    assert all(vector_generalizes_at(k, t) == sp.zeros(2, 1) for t in range(1, 7))
    c = checked(TID).claim(VECTOR)
    assert c.verdict == Verdict.CERTIFIED


def test_every_stored_t3_record_replays():
    files = sorted((Path(__file__).resolve().parents[2] / "counterexamples").glob("AM24.T3_*.json"))
    assert len(files) == 7
    for path in files:
        out = replay(path)
        assert out.reproduces and out.certified, path.name


def test_replay_witness():
    thm = registry.get(TID)
    f = falsified(TID, ["ALL"])
    out = thm.falsifier.replay(f.record["witness"])
    assert out.found and out.witness == f.record["witness"]


@pytest.mark.parametrize("degree", [1, 5])
def test_polynomial_claims_name_their_degree_bound(degree):
    """The corrected and remark claims cover polynomial a of degree <= D only: the scope's domain and the
    how-text name the value of D (issue 22: at degree = 1 it once said 'proves the statement for
    polynomial a' after examining affine a)."""
    r = checked(TID, {"degree": degree})
    thm = registry.get(TID)
    poly = [c.name for c in thm.claims if "of degree <= D" in c.name]
    assert len(poly) == 6
    for name in poly:
        c = r.claim(name)
        assert c.verdict == Verdict.CERTIFIED, (name, c.how)
        assert f"degree <= {degree}" in c.scope.domain and f"degree <= {degree}" in c.how, (name, c.scope)
        assert c.scope.evidence == "exact arithmetic" and c.scope.count == 8
        assert "proves the statement" not in c.how


@pytest.mark.parametrize("T", [1, 2])
def test_polynomial_claims_below_their_lengths_decide_nothing(T):
    """At the minimum T the corrected statement's lengths 1..3 are not supervised: nothing is computed,
    so nothing is certified (inconclusive, not an empty certificate)."""
    r = checked(TID, {"T": T})
    assert r.claim(CORRECTED).verdict == Verdict.INCONCLUSIVE
    assert r.claim(VECTOR).verdict == Verdict.INCONCLUSIVE
    assert not r.errors


def test_only_supervision_decides_no_polynomial_claim():
    r = checked(TID, {"supervision": "ONLY"})
    assert r.claim(CORRECTED).verdict == Verdict.INCONCLUSIVE and "not applicable" in r.claim(CORRECTED).how


def test_empty_search_is_a_search_not_a_proof():
    """No witness at the defaults: confirmed by a search over the seven families, never certified."""
    c = checked(TID).claim(SEARCH)
    assert c.verdict == Verdict.CONFIRMED and c.scope.evidence == "search" and c.scope.count == 7
    assert EFFORT.startswith(f"{c.scope.count} closed-form witness families")  # the families tried
