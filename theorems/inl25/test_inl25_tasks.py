"""Regression suite for INL25.TASKS and INL25.SCALING: verdicts at the defaults, the exact targets against
the seeded generators, the proxies against brute force, the training reference's gradients, and (slow) a
training sweep with its fit."""

import importlib.util
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from proofkit import Verdict, checked, registry
from proofkit.limit import (
    ModPTask,
    SimpleTask,
    evaluate,
    interpolation_error,
    mlpnorm,
    short_string_arguments,
    training,
)
from proofkit.limit import constructions as cons


@pytest.mark.parametrize("tid", ["INL25.TASKS", "INL25.SCALING"])
def test_default_verdicts_match_expectation(tid):
    r = checked(tid)
    assert r.as_expected(), [(c.name, c.verdict, c.how) for c in r.claims if c.verdict != c.expected]


def test_tasks_verdicts_hold_at_other_parameters():
    r = checked("INL25.TASKS", {"omega": 3, "c": 3, "bits": 6, "knots": 24, "period": 3, "k": 2})
    assert r.as_expected(), [(c.name, c.verdict, c.how) for c in r.claims if c.verdict != c.expected]


def test_fig3_weight_is_one_sixteenth():
    c = checked("INL25.TASKS").claim("Fig. 3: attention 1/16 at p = 5, length 80")
    assert "keys 1..79: [15, 16, 16, 16, 16]" in c.how and "{1/16} on" in c.how


@pytest.mark.parametrize("task", [SimpleTask(2), ModPTask(3, 2)])
def test_sampled_targets_equal_exact_targets(task):
    rng = np.random.default_rng(7)
    X, y, ok = task.sample(rng, 200, rng.integers(1, 9, size=200))
    for row, val, d in zip(X, y, ok):
        x = tuple(str(v) for v in row if v >= 0)
        exact = task.target(x)
        assert (exact is not None) == d
        if d:
            assert abs(float(exact) - val) < 1e-12


def test_sampling_is_seeded():
    a = SimpleTask(1).sample(np.random.default_rng(3), 50, 6)
    b = SimpleTask(1).sample(np.random.default_rng(3), 50, 6)
    assert all(np.array_equal(u, v) for u, v in zip(a, b))


@pytest.mark.parametrize("nearest", ["value", "argument"])
def test_interpolation_error_against_a_dense_grid(nearest):
    N, om = 8, 5.0
    G = short_string_arguments(N)
    q = np.linspace(-1, 1, 100001)
    if nearest == "value":
        got = np.abs(np.sin(om * q)[:, None] - np.sin(om * G)[None, :]).min(axis=1).max()
    else:
        idx = np.clip(np.searchsorted(G, q), 1, len(G) - 1)
        near = np.where(q - G[idx - 1] <= G[idx] - q, G[idx - 1], G[idx])
        got = np.abs(np.sin(om * q) - np.sin(om * near)).max()
    exact = interpolation_error(N, om, nearest)
    assert got <= exact + 1e-12 and exact - got < 1e-3


def test_short_string_arguments_are_the_realized_ones():
    want = {float(Fraction(a - b, a + b)) for a in range(6) for b in range(6) if 1 <= a + b <= 5}
    assert set(short_string_arguments(5).tolist()) == want


def test_construction_outputs_depend_on_counts_only():
    m = cons.simple_task_model(2, 2, 8)
    outs = {}
    for x in product("012", repeat=5):
        key = (x.count("0"), x.count("1"))
        out = evaluate(m, x, 4).out
        assert outs.setdefault(key, out) == out


def test_training_gradients_match_finite_differences():
    rng = np.random.default_rng(1)
    task = ModPTask(3, 1)
    net = training.Net.init(rng, 2, 3, 4, 5)
    X, y, ok = task.sample(rng, 6, rng.integers(1, 7, size=6))

    def loss():
        p, _ = training.forward(net, X)
        return float(np.sum(np.where(ok, p - y, 0) ** 2))

    p, cache = training.forward(net, X)
    g = training.backward(net, cache, 2 * np.where(ok, p - y, 0))
    for name in net.names():
        M = getattr(net, name)
        idx = tuple(int(rng.integers(0, s)) for s in M.shape)
        old = M[idx]
        M[idx] = old + 1e-6
        up = loss()
        M[idx] = old - 1e-6
        down = loss()
        M[idx] = old
        assert abs(g[name][idx] - (up - down) / 2e-6) < 1e-5 * max(1.0, abs(g[name][idx]))


def test_fit_exponent_recovers_a_power_law():
    xs, noise = (1, 2, 4, 8), (1.0, 1.02, 0.98, 1.01)
    fit = training.fit_exponent(xs, [3 * x**1.5 * e for x, e in zip(xs, noise)])
    assert abs(fit.slope - 1.5) < 0.02 and fit.consistent_with(1.5) and not fit.consistent_with(1.0)


def test_sigmoid_rewrite_is_the_same_function():
    z = np.linspace(-1, 1, 101)
    a, t, w = 7.0, 0.2, 1.3
    tanh_net = w * np.tanh(a * (z - t))
    sig_net = 2 * w * mlpnorm.PSI["sigmoid"](2 * a * (z - t)) - w
    assert np.allclose(tanh_net, sig_net)


def test_plot_skips_without_matplotlib(tmp_path):
    res = {"task": "simple", "eps": 0.01, "min_length": {1.0: 4, 2.0: 8}, "fit": None}
    out = training.plot(res, str(tmp_path / "f.png"))
    assert (out is None) == (importlib.util.find_spec("matplotlib") is None)


def test_theorems_are_registered():
    assert registry.get("INL25.TASKS").id == "INL25.TASKS"
    assert registry.get("INL25.SCALING").id == "INL25.SCALING"


@pytest.mark.slow
def test_training_sweep_simple_task(tmp_path):
    """The App. B protocol over omega in {1, 2, 4, 8}, training lengths 4..32 (an experiment; minutes)."""
    res = training.sweep("simple", [1, 2, 4, 8], [4, 8, 16, 32], seeds=1, steps=1500, eps=1e-2)
    assert set(res["min_length"]) == {1, 2, 4, 8}
    training.plot(res, str(tmp_path / "sweep.png"))


def _engine_decided(r):
    for c in r.claims:
        assert not c.error and "theorem file's own verdict" not in c.scope.evidence, c.name
        if c.verdict in (Verdict.CERTIFIED, Verdict.CONFIRMED) and c.scope.count is not None:
            assert c.scope.count >= 1, (c.name, c.scope)


MODP = [n for n in registry.get("INL25.TASKS").expect if n.startswith("ModPTask as printed")
        or n == "ModPTask construction with p_i = q_j, i = j (mod p)"]


def test_string_ranges_below_the_threshold_decide_nothing():
    """2^(bits/c) = 4 at the defaults: strings of length <= 2 (the minimum) leave the constructions'
    string ranges empty, so they are inconclusive, never certified (nor refuted) over no string."""
    r = checked("INL25.TASKS", {"n_enum": 2, "n_enum_modp": 2})
    _engine_decided(r)
    for name in MODP + ["SimpleTask construction (finite gap c) computes (c0-c1)/(c0+c1) and sin within eta"]:
        c = r.claim(name)
        assert c.verdict == Verdict.INCONCLUSIVE and c.scope.count == 0 and "empty domain" in c.how, name


def test_tasks_refutations_are_readings():
    """App. A.2 prints 'p_i = q_j where i != j' (no j named) and infinite logits: every refuted
    construction is a reading of that sketch, none an erratum."""
    r = checked("INL25.TASKS")
    _engine_decided(r)
    refuted = {c.name: c.scope.reading for c in r.claims if c.verdict == Verdict.REFUTED}
    assert not any(c.erratum for c in r.claims)
    assert set(refuted.values()) == {"our reading", "proxy"} and len(refuted) == 4


def test_scaling_minimum_steps_and_proxies():
    """Two training steps do not confirm the experiment; every scaling refutation is a proxy's, since
    the paper fixes no activation and its figures are of trained transformers."""
    r = checked("INL25.SCALING", {"steps": 2})
    _engine_decided(r)
    assert r.claim("training reference reduces the loss (experiment)").verdict == Verdict.INCONCLUSIVE
    d = checked("INL25.SCALING")
    assert not any(c.erratum for c in d.claims)
    assert {c.scope.reading for c in d.claims if c.verdict == Verdict.REFUTED} == {"proxy"}
