"""Regression suite for R24.EXP: expected verdicts at the defaults, the hand-written gradient against finite
differences, exact Dyck counts and the uniform sampler, the closed form's drift against Head, the two DPs
against each other, the Boolean parser's conventions; the fuller D_32 run behind @pytest.mark.slow."""

import json
import sys
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from proofkit import Verdict, checked, registry
from proofkit.posembed import Head, boolean, dyck, dyck_worst_failure, gd

TID = "R24.EXP"


def _module():
    """The theorem file as the registry loaded it."""
    return sys.modules[registry.get(TID).claims[0].run.__module__]


@pytest.mark.parametrize("name", list(registry.get(TID).expect))
def test_default_verdicts_match_expectation(name):
    c = checked(TID).claim(name)
    assert c.verdict == c.expected, f"{name}: {c.verdict} ({c.how})"


def test_control_bites_and_experiment_is_never_certified():
    r = checked(TID)
    assert r.claim("control: D_32 has >= 10^7 words of depth <= 3").verdict == Verdict.REFUTED
    for c in r.claims:
        if c.name.startswith("EXP"):
            assert c.verdict in (Verdict.CONFIRMED, Verdict.INCONCLUSIVE)
            assert "experiment (seeds" in c.scope.domain
            assert c.scope.reading == "experiment" and c.scope.evidence == "floating point"


@pytest.mark.parametrize("attention,value,d", [("uniform", "scalar", 1), ("uniform", "matrix", 3),
                                               ("learned", "matrix", 3), ("learned", "scalar", 2)])
def test_gradient_matches_finite_differences(attention, value, d):
    cfg = gd.Config(N=3, d=d, attention=attention, value=value)
    rng = np.random.default_rng(7)
    p = gd.init_params(cfg, rng)
    Z = gd.sample_words(3, 5, rng)
    _, g = gd.loss_and_grad(p, Z)
    eps = 1e-6
    for k, arr in p.items():
        for idx in np.ndindex(arr.shape):
            old = arr[idx]
            arr[idx] = old + eps
            up = gd.loss_and_grad(p, Z)[0]
            arr[idx] = old - eps
            down = gd.loss_and_grad(p, Z)[0]
            arr[idx] = old
            assert abs((up - down) / (2 * eps) - g[k][idx]) < 1e-6, (k, idx)


def test_counts_are_catalan_and_depth_counts():
    for N in range(1, 11):
        assert gd.count_words(N, N) == comb(2 * N, N) // (N + 1)
    assert gd.count_words(16, 8) == 33602822 and gd.count_words(16, 4) == 7174454
    assert gd.count_words(16, 16, lo=13) == 4000 == comb(32, 16) // 17 - gd.count_words(16, 12)
    assert gd.count_words(16, 2) == 2**15  # depth <= 2: (()..) blocks, a composition count


def test_sampler_stays_in_its_depth_band_and_is_uniform():
    rng = np.random.default_rng(0)
    w = gd.sample_words(6, 2000, rng, hi=4, lo=3)
    hs = gd.heights(w)
    assert (hs.min(axis=1) >= 0).all() and (hs[:, -1] == 0).all()
    assert set(hs.max(axis=1)) <= {3, 4}
    distinct = {tuple(x) for x in w}
    assert len(distinct) == gd.count_words(6, 4, lo=3)  # 2000 draws from 122 words hit every one


def test_closed_form_drift_matches_the_model():
    s = gd.parse("(()(()))(())")
    head = Head.closed_form([[1], [-1]], [int(t) for t in s], Fraction(-1, 2), -73)
    z = [0, 0, 1, 0, 0, 0, 1]
    beta = gd.closed_form_drift(s)
    for r in range(1, len(z) + 1):
        delta = sum(1 if t == 0 else -1 for t in z[:r])
        assert head.pooled(z[:r])[0] == delta + Fraction(beta[r - 1]).limit_denominator(4)
    p = {"E": np.array([[1.0], [-1.0]]), "B": np.array([[float(b[0])] for b in head.B]),
         "V": np.array([-73.0])}
    got, v_eff = gd.drift(p)
    assert np.allclose(got, beta) and v_eff == -73.0
    assert gd.distance_to_closed_form(got, s)[0] < 1e-12


def test_float_dp_agrees_with_the_mpmath_dp():
    word = "(()(()))(())"
    s = gd.parse(word)
    states = [tuple([0] * ((r + h) // 2) + [1] * ((r - h) // 2)) for r in range(1, 12)
              for h in range(0, min(r, 12 - r) + 1) if (r + h) % 2 == 0]
    worst = float((1 - gd.closed_form_valid_probability(s, -2.0, states)).max())
    assert abs(worst - float(dyck_worst_failure(dyck.parse(word), Fraction(-1, 2), -2))) < 1e-12


def test_the_printed_prompt_is_unbalanced_and_each_repair_parses():
    ex = _module()
    for convention in boolean.CONVENTIONS:
        assert not boolean.parses(ex.A511, convention)
        assert all(boolean.parses(text, convention) for text in ex.A511_READINGS.values())


def test_cli_prints_a_seeded_report(capsys):
    assert gd.main(["--steps", "20", "--seeds", "2"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["seeds"] == [0, 1] and len(rep["single"]) == 2 and rep["closed_form"]["deep_valid"] > 0.99


@pytest.mark.slow
def test_full_run_on_d32():
    """The documented run: python -m proofkit.posembed.gd --full (N = 16, 8 seeds, ~25 s)."""
    f = gd.FULL
    rep = gd.run(gd.Config(N=16, steps=f["steps"], batch=f["batch"]), f["word"], f["q_train"], f["n_words"],
                 f["n_test"], f["seeds"])
    assert rep["test_prefixes"] == 1024 and rep["closed_form"]["deep_valid"] > 0.9999
    single, many = rep["single"], rep["many"]
    assert all(x["train_loss"] < 1e-4 for x in single)
    fails = [x for x in single if x["deep_valid"] < 0.5]
    assert fails and all(x["v_eff"] > 0 for x in fails)  # the repulsive minimum
    assert all(x["v_eff"] < 0 for x in single if x not in fails)
    assert np.mean([x["deep_valid"] for x in many]) < 0.3
    assert min(x["drift_distance"] for x in single + many) > 0.25


def test_smallest_experiment_still_has_runs():
    """seeds = 1, steps = 1: each experiment claim covers its one run (never zero runs), floating point."""
    r = checked(TID, {"seeds": 1, "steps": 1})
    for c in r.claims:
        assert not c.error, (c.name, c.error)
        if c.verdict in (Verdict.CERTIFIED, Verdict.CONFIRMED):
            assert c.scope.count != 0, (c.name, c.scope)
        if c.name.startswith("EXP") and c.verdict == Verdict.CONFIRMED:
            assert c.scope.count >= 1 and c.scope.evidence == "floating point"
