"""The symbolic zero-risk certificate (proofkit/certificates/certify_symbolic.py): exact identity in symbolic
tokens for
every supervised length plus an arb gap ball at the witness; never certifies a learner without zero risk."""

from __future__ import annotations

import json
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest

from proofkit.certificates import certify_symbolic
from proofkit.engine.falsify import certify_model
from proofkit.engine.problem import build_problem
from proofkit.engine.replay import replay
from proofkit.language.registry import get
from proofkit.numerics.backend import MP

FOLDER = Path(__file__).resolve().parents[2] / "counterexamples"
T1 = FOLDER / "AM24.T5_drop-Tge2_T=1_learned_dim=1_n=1_dps60_seed0.json"
SINGULAR = FOLDER / "AM24.T5_drop-A6.A-invertible_true_A=singular_dps60_seed0.json"


def _load(path: Path):
    rec = json.loads(path.read_text())
    problem = build_problem(get(rec["theorem"]), rec["params"], seed=rec["seed"], dps=rec["dps"])
    X = np.asarray([[float(v) for v in row] for row in rec["witness"]])
    return rec, problem, X


@pytest.mark.parametrize("path", [T1, SINGULAR], ids=["T=1", "singular-A"])
def test_stored_rnn_records_replay_certified(path):
    out = replay(str(path))
    assert out.reproduces and out.certified
    assert "zero risk proven symbolically for every input of every length <=" in out.how
    assert "gap ball [" in out.how
    rec = json.loads(path.read_text())
    assert rec["certificate"]["certified"] is True


@pytest.mark.parametrize("path", [T1, SINGULAR], ids=["T=1", "singular-A"])
def test_certificate_is_deterministic_and_matches_the_record(path):
    rec, problem, X = _load(path)
    with mp.workdps(rec["dps"]):
        a = certify_symbolic.certify(problem, rec["learned_params"], X, rec["dps"])
        b = certify_symbolic.certify(problem, rec["learned_params"], X, rec["dps"])
    assert a == b and a[0]
    assert a[1] == rec["certificate"]["how"]


def test_gap_ball_excludes_zero_and_brackets_the_stored_gap():
    rec, problem, X = _load(T1)
    q = certify_symbolic.exact_rationals(rec["learned_params"])
    lo, hi = certify_symbolic.gap_ball(problem, q, X, 60)
    g = abs(mp.mpf(rec["test_discrepancy"]))
    assert 0 < mp.mpf(lo) <= g <= mp.mpf(hi) or mp.mpf(lo) <= -g <= mp.mpf(hi) < 0


@pytest.mark.parametrize("path,index,value", [
    (T1, 2, "1.7"),          # B is read at length 1: a learner with non-zero training risk
    (T1, 0, "-1.0"),         # so is A
    (SINGULAR, 4, "0.7"),    # Lam row 0 is read at length 2 (A reads hidden unit 0 only)
    (SINGULAR, 0, "1.4"),
], ids=["T1-B", "T1-A", "singular-Lam0", "singular-A"])
def test_learner_without_zero_risk_is_never_certified(path, index, value):
    rec, problem, X = _load(path)
    learned = list(rec["learned_params"])
    learned[index] = value
    with mp.workdps(rec["dps"]):
        theta = MP.asarray(np.asarray(learned, dtype=object))
        ok, how = certify_symbolic.certify(problem, learned, X, rec["dps"])
        assert not ok and "zero risk not proven symbolically" in how
        ok2, how2 = certify_model(problem, theta, X, rec["dps"], learned)
    assert not ok2 and how2.startswith("uncertified")


def test_tiny_training_error_is_not_certified():
    """A learner off by 1e-40 in a parameter read at length 1 fits to 1e-40 but has no exact zero risk."""
    rec, problem, X = _load(T1)
    learned = list(rec["learned_params"])
    learned[2] = "1.6" + "0" * 38 + "1"
    ok, how = certify_symbolic.certify(problem, learned, X, 60)
    assert not ok


def test_no_gap_is_not_certified():
    rec, problem, X = _load(T1)
    ok, how = certify_symbolic.certify(problem, rec["true_params"], X, 60)
    assert not ok and "contains 0" in how


def test_non_rational_parameters_are_refused():
    rec, problem, X = _load(T1)
    ok, how = certify_symbolic.certify(problem, ["nan", "0.1", "1.6"], X, 60)
    assert not ok and "not exact rationals" in how


def test_fitted_learner_is_snapped_to_the_true_parameters_and_rounded():
    """A fit that agrees with f to the fit's precision in A and B and differs in Lam (T = 1) becomes the
    short rational learner (-1.1, rounded Lam, 1.6), certified."""
    rec, problem, X = _load(T1)
    with mp.workdps(60):
        theta = MP.asarray(np.asarray(["-1.1", "-0.0661234567", "1.6"], dtype=object))
        theta[0] += mp.mpf("1e-50")
        theta[2] -= mp.mpf("3e-50")
        cand = certify_symbolic.symbolic_candidate(problem, theta, X, mp.mpf("1e-45"), 60, mp.mpf("1e-8"))
    assert cand is not None
    assert cand[0] == "-1.1" and cand[2] == "1.6"
    assert len(cand[1]) <= 6
    assert certify_symbolic.certify(problem, cand, X, 60)[0]


def test_no_candidate_for_a_learner_that_does_not_fit():
    rec, problem, X = _load(T1)
    with mp.workdps(60):
        theta = MP.asarray(np.asarray(["-1.1", "-0.066", "1.7"], dtype=object))
        assert certify_symbolic.symbolic_candidate(problem, theta, X, mp.mpf("1e-45"), 60,
                                                   mp.mpf("1e-8")) is None
