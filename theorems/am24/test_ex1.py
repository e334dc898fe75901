"""Regression suite for AM24.EX1 (the ball example of Sec. 2): verdicts at the defaults and at other T,
the exact figures (pair-marginal excess 1/4, the Theorem 2 gap sigmoid(33/16) - sigmoid(2) at (0, 1)),
the bump's zero set, and the ball support sampler."""

from inspect import getmodule
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from proofkit import (
    ALL_SUPPORTS,
    SUPPORTS,
    InputError,
    Support,
    Verdict,
    checked,
    falsified,
    registry,
    replay,
)

TID = "AM24.EX1"
_MOD = getmodule(registry.get(TID).claims[0].run)  # the theorem file, as the registry loaded it
PAIR, T2_FAILS, bump = _MOD.PAIR, _MOD.T2_FAILS, _MOD.bump


@pytest.mark.parametrize("name", list(registry.get(TID).expect))
def test_default_verdicts_match_expectation(name):
    c = checked(TID).claim(name)
    assert c.verdict == c.expected, f"{name}: {c.verdict} ({c.how})"


@pytest.mark.parametrize("T", [2, 3, 5])
def test_theorem_refuted_as_expected_at_every_T(T):
    r = checked(TID, {"T": T})
    assert r.verdict == Verdict.REFUTED and r.as_expected()
    assert all(c.verdict == Verdict.REFUTED for c in r.claims if c.role == "control")
    assert r.elapsed_s < 30


def test_exact_figures():
    r = checked(TID)
    assert r.claim(PAIR).residual == "1/4"
    sig = lambda z: 1 / (1 + sp.exp(-z))  # noqa: E731
    gap = sp.sympify(r.claim(T2_FAILS).residual)
    assert sp.simplify(gap - (sig(sp.Rational(33, 16)) - sig(2))) == 0 and gap.is_positive


def test_bump_vanishes_on_disc_and_diagonal_not_at_corner():
    h = sp.Rational(1, 2)
    for a, b in [(h, 0), (0, h), (h, h), (h + sp.Rational(3, 10), h + sp.Rational(2, 5)), (1, 1), (0, 0)]:
        assert bump(sp.S(a), sp.S(b)) == 0, (a, b)
    assert bump(sp.S(1), sp.S(0)) == sp.Rational(1, 16) and bump(sp.S(0), sp.S(1)) == sp.Rational(1, 16)


def test_no_droppable_assumption_and_stored_witness_replays():
    assert falsified(TID, ["T>=2"]).verdict == Verdict.INCONCLUSIVE
    f = falsified(TID)
    assert f.found and f.certified and f.record["witness"]["tokens"] == "['0', '1']"
    out = replay(Path(__file__).resolve().parents[2] / "counterexamples" / "AM24.EX1_drop-none_seed0.json")
    assert out.reproduces and out.certified


def test_ball_support_sampler():
    assert "ball" in ALL_SUPPORTS and "ball" not in SUPPORTS
    s = Support("ball", 1, 3)
    X = s.sample(np.random.default_rng(0), 4000, 3)[:, :, 0]
    assert X.shape == (4000, 3) and ((X - 0.5) ** 2).sum(axis=1).max() <= 0.25 + 1e-12
    assert X.min() < 0.05 and X.max() > 0.95  # token marginals reach the ends of [0,1]
    pairs = s.sample(np.random.default_rng(1), 4000, 2)[:, :, 0]  # prefixes: the disc
    assert ((pairs - 0.5) ** 2).sum(axis=1).max() <= 0.25 + 1e-12
    assert s.sample(np.random.default_rng(0), 5, 4).shape == (5, 4, 1)  # past T: iid tokens
    assert s.vertices(2).shape[0] == 0  # the cube's corners are not in the ball
    with pytest.raises(InputError):
        Support("ball", 2, 3)


def test_theorem1_on_the_ball_support():
    """Theorem 1 (n = 1, hinge family: the true map is in the class) trained on the ball: deep sets see
    only token marginals, so compositional tests off the ball pass."""
    r = checked("AM24.T1", {"support": "ball", "n": 1, "m": 1, "learned_dim": 1, "family": "hinge"})
    assert r.claim("compositional generalization").verdict == Verdict.CONFIRMED
    assert r.claim("length generalization").verdict == Verdict.CONFIRMED


def test_minimum_T_decides_on_nonempty_domains_and_readings():
    """At the smallest T (2) every certified claim covers a non-empty domain by a rigorous method; the pair
    support hypothesis is refuted as printed (an erratum of the example's sentence), Theorem 2's
    conclusion on D is proofkit's reading of that sentence (refuted, no erratum)."""
    r = checked(TID, {"T": 2})
    assert r.verdict == Verdict.REFUTED and not r.errors
    for c in r.claims:
        if c.verdict == Verdict.CERTIFIED:
            assert c.scope.domain and c.scope.count != 0, c.name
            assert c.scope.evidence in ("exact arithmetic", "exact identity (CAS)"), c.name
    assert r.claim(PAIR).erratum and r.claim(PAIR).scope.reading == "as printed"
    t2 = r.claim(T2_FAILS)
    assert t2.verdict == Verdict.REFUTED and not t2.erratum and t2.scope.reading == "our reading"
    assert "certified counterexample" in t2.how and "(0, 1)" in t2.scope.domain
