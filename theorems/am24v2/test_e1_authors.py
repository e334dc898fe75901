"""AM24v2.E1 with ``config=authors``: the SSM run of the authors' public code, next to E1's own setting.

The numpy re-implementation itself is checked against the authors' torch code in
tests/families/test_authors_code.py (shared weights, loss, gradients, three AdamW steps).
"""

import numpy as np
import pytest

from proofkit import Verdict, checked
from proofkit.families import authors_ssm as au

EXPERIMENTS = ("experiment: float64 AdamW test MSE <= 1e-4 at lengths 1..100",
               "experiment: float32 AdamW test MSE <= 1e-4 at lengths 1..100",
               "experiment: R^2 learned vs true states >= 0.96")


def test_default_config_names_itself_and_what_differs():
    r = checked("AM24v2.E1")
    for c in r.claims:
        if c.name.startswith("experiment"):
            assert "config proofkit (E1's own)" in c.how and "Differs from the authors' code" in c.how
            assert "Side by side: paper (later version's summary)" in c.how


def test_authors_config_short_budget_is_decided_and_labelled():
    """200 steps (their run: 100000): every experiment claim is decided (refuted at this budget: their test
    loss is ~1e-2, far from the paper's <= 1e-4), each names the configuration, the budget and the paper's
    figures next to the measured ones; proofkit's own fit is unaffected."""
    r = checked("AM24v2.E1", {"config": "authors", "authors_steps": 200})
    by = {c.name: c for c in r.claims}
    for name in EXPERIMENTS:
        c = by[name]
        assert c.verdict == Verdict.REFUTED and not c.error, c.how
        assert "config authors" in c.how and "200 steps (theirs: 1000 epochs x 100 batches = 100000)" in c.how
        assert "Side by side: paper (later version's summary)" in c.how
    assert "test loss (mean MSE over positions 1..t)" in by[EXPERIMENTS[0]].how
    assert "theirs (per position, learned->true)" in by[EXPERIMENTS[2]].how
    assert by["proofkit exact fit: test MSE <= 1e-80 at lengths 1..100"].verdict == Verdict.CONFIRMED


def test_authors_training_is_seeded_and_a_prefix_of_longer_runs():
    """Same seed, same run; a shorter run is the start of a longer one (so a budget is a checkpoint);
    float32 stays float32; the loss falls."""
    a = au.train(steps=30, dtype=np.float32, seed=1, n=4, lengths=(2, 4), batch=16)
    b = au.train(steps=60, dtype=np.float32, seed=1, n=4, lengths=(2, 4), batch=16)
    c = au.train(steps=60, dtype=np.float32, seed=1, n=4, lengths=(2, 4), batch=16)
    assert a.losses == b.losses[:30] and all(np.array_equal(b.student[k], c.student[k]) for k in b.student)
    assert b.student["W1"].dtype == np.float32 and b.teacher["Lam"].dtype == np.float32
    lam = au.init(np.random.default_rng(0), 5, 5, 5)["Lam"]
    assert np.allclose(lam @ lam.T, np.eye(5), atol=1e-14)  # orthogonal: every |eigenvalue| = 1
    assert np.mean(b.losses[-10:]) < np.mean(b.losses[:10])


def test_authors_metrics_definitions():
    """test_loss: mean over positions 1..L (the last-output MSE is reported beside it); R^2 per position."""
    rng = np.random.default_rng(0)
    t = au.init(rng, 3, 3, 3)
    assert au.test_loss(t, t, 7, 8, rng) == (0.0, 0.0)
    hs = rng.random((50, 4, 3))
    M = np.array([[2.0, 0, 1], [0, 1, 0], [1, 0, 3]])
    assert au.r2_per_position(hs, hs @ M + 1) == pytest.approx(1.0)
