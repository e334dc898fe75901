"""The hardmax lemma decided model by model (proofkit.limit.regime), the exact ModPTask proxy and the
string enumeration (proofkit.limit.tasks), and the interval bound on the sin interpolant
(proofkit.limit.constructions)."""

import math
from fractions import Fraction as F

import mpmath as mp
import pytest

from proofkit.limit import margin as mg
from proofkit.limit.constructions import sin_gap_bound
from proofkit.limit.model import evaluate
from proofkit.limit.regime import WITNESS_CAP, margin_readings, regimes, spelled_witness
from proofkit.limit.tasks import ModPTask, modp_min_length, modp_proxy_error, modp_values, strings_up_to
from proofkit.limit.zoo import MODELS

ZOO = {name: make() for name, make in MODELS.items()}


def test_regimes_follow_the_zoo_and_the_corrected_margin_holds_everywhere():
    found = regimes(ZOO, 4, "completed", "all")
    assert [r.name for r in found] == list(ZOO)
    for r in found:
        assert r.gamma == mg.gamma(ZOO[r.name], "completed", "all") and not r.onset.failing
        assert r.onset.threshold == r.threshold


def test_printed_margin_fails_on_some_model_with_a_witness_the_forward_pass_confirms():
    bad = [r for r in regimes(ZOO, 4, "literal", "all") if r.onset.failing]
    assert bad
    r = bad[0]
    x, ev = spelled_witness(ZOO[r.name], r.onset.witness, 4, "inclusive")
    assert len(x) == r.onset.witness.N <= WITNESS_CAP and not ev.hardmax
    assert ev == evaluate(ZOO[r.name], x, 4)


def test_a_witness_beyond_the_cap_is_not_spelled_out():
    gap = mg.Gap(WITNESS_CAP + 1, F(1), ("a", 0, "a", 1, "b"))
    assert spelled_witness(ZOO["two-sets"], gap, 4, "inclusive") is None


def test_margin_readings_compare_the_printed_gamma_with_the_realized_gap():
    readings = margin_readings(ZOO)
    assert [r.name for r in readings] == list(ZOO)
    assert any(r.literal != r.realized for r in readings)
    for r in readings:
        m = ZOO[r.name]
        N = mg.stable_length(m)
        gaps = [mg.realized_gap(m, k).gap for k in range(N, N + m.Delta)]
        assert r.realized == min((g for g in gaps if g is not None), default=None)
        assert r.forward == mg.gamma(m, "forward")


def test_strings_up_to_enumerates_shortest_first():
    got = list(strings_up_to("01", 3))
    assert len(got) == 2 + 4 + 8 and got[:3] == [("0",), ("1",), ("0", "0")] and len(set(got)) == len(got)


@pytest.mark.parametrize("eps", [F(1, 20), F(1, 7), F(1, 2)])
def test_modp_min_length_is_the_closed_form(eps):
    for D in range(1, 6):
        task = ModPTask(D, 1)
        N = modp_min_length(eps, task)
        assert N == task.first_position() + D * (math.ceil(1 / (2 * eps)) - 1)
        assert modp_proxy_error(N, task) <= eps and (N == 1 or modp_proxy_error(N - 1, task) > eps)


def test_modp_values_and_the_empty_case():
    assert modp_values(4, ModPTask(2, 1)) == [F(0), F(1, 2), F(1)]
    assert modp_proxy_error(1, ModPTask(3, 2)) == 1  # no position = 2 mod 3 among 1..1
    assert modp_proxy_error(4, ModPTask(2, 1)) == F(1, 4)


def test_sin_gap_bound_brackets_the_true_gap():
    got = sin_gap_bound(F(1), F(1), F(21, 25))
    true = abs(mp.mpf(21) / 25 - mp.sin(1))
    assert true <= got <= true + mp.mpf(10) ** -40
    assert sin_gap_bound(F(3), F(0), F(0)) == 0
