"""Regression suite for AM24.T3 (general readout omega(sum_{j<i} psi), Assumption 4): verdicts at the
defaults (as printed with the unbounded logit pair map: no witness; the corrected polynomial statement
certified), the exact counterexamples (bounded phi + C^1 omega; T = 2; ONLY), the remarks (diagonal,
residual, multi-head, deep-sets extension), the falsifier under each drop and its replay."""

import pytest
import sympy as sp

from proofkit import registry
from proofkit.families.readout import generalizes_at, polynomial_kernel
from proofkit.testing import checked, falsified
from proofkit.verdict import Verdict

TID = "AM24.T3"
SEARCH = "every zero-risk learner generalizes (exact witness search)"
CORRECTED = "corrected T3: polynomial a = omega^-1 o rho, causal keys, T >= 3 (exact)"


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


@pytest.mark.parametrize("drop,family", [("A7.pair-sums", "hinge"), ("T>=3", "analytic"),
                                         ("ALL", "offset")])
def test_drop_gives_certified_counterexample(drop, family):
    f = falsified(TID, [drop])
    assert f.found and f.certified and f.verdict == Verdict.REFUTED
    assert f.record["witness"]["family"] == family


def test_drop_diagonal_search_empty_and_diffeo_not_searchable():
    assert falsified(TID, ["A4.causal"]).verdict == Verdict.CONFIRMED
    assert falsified(TID, ["A4.diffeo"]).verdict == Verdict.INCONCLUSIVE


def test_replay_witness():
    thm = registry.get(TID)
    f = falsified(TID, ["ALL"])
    out = thm.falsifier.replay(f.record["witness"])
    assert out.found and out.witness == f.record["witness"]
