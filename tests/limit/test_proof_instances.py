"""The instance machinery of Theorem 4.1's proof checks (proofkit.limit.crosscheck, .shares, .residues,
.survey): counts against the forward pass, the C2 shares of z, the Delta reduction's residue totals."""

from fractions import Fraction as F

import pytest

from proofkit.limit import auxiliary as cz
from proofkit.limit import crosscheck
from proofkit.limit.crosscheck import comparison_models, counts_against_forward
from proofkit.limit.residues import TOKENS, residue_imbalance
from proofkit.limit.shares import (
    attending_pair,
    near_eps_instances,
    renormalized_shares,
    share_deviation,
    share_instance,
)
from proofkit.limit.survey import cached_survey
from proofkit.limit.zoo import MODELS


def test_comparison_models_are_the_delta_one_zoo_then_seeded_random_tables():
    models = comparison_models(0)
    zoo = [m() for m in MODELS.values() if m().Delta == 1]
    assert [m.name for m in models] == [m.name for m in zoo] + [f"random{i}" for i in range(4)]
    again = comparison_models(0)
    assert all(a == b for a, b in zip(models, again))
    assert any(a != b for a, b in zip(models[len(zoo):], comparison_models(1)[len(zoo):]))


def test_counts_agree_with_the_forward_pass_and_every_case_is_counted():
    models = comparison_models(0)[-2:]  # two random integer-table models, alphabet of 3
    out = counts_against_forward(models, 3)
    assert out.mismatch is None and out.cases == len(models) * 2 * (3 + 9 + 27)


def test_a_wrong_counts_evaluation_is_reported_at_its_first_string(monkeypatch):
    real = crosscheck.evaluate_counts

    def shifted(model, cs, bits):
        ev = real(model, cs, bits)
        return type(ev)(**{**ev.__dict__, "out": tuple(v + 1 for v in ev.out)}) if cs.length == 2 else ev

    monkeypatch.setattr(crosscheck, "evaluate_counts", shifted)
    model = comparison_models(0)[-1]
    out = counts_against_forward([model], 3)
    assert out.mismatch is not None and out.cases == 2 * 3  # every length-1 string at both precisions
    assert out.mismatch.string == (model.alphabet[0],) * 2 and out.mismatch.bits == 1
    assert out.mismatch.model == model.name


def test_share_instance_is_case_c2_and_the_printed_comparison_is_off_by_the_overlap():
    f, g, x, tau, eps = share_instance()
    c = cz.build_z(f, g, x, tau, eps)
    assert c.case == "C2" and c.f_part == {"a": 8} and c.g_part == {"b": 24}
    assert share_deviation(c, x.counts(), c.Ag.size) == F(6, 25)  # 1 - 760/1000: the overlap share
    assert share_deviation(c, x.counts(), x.counts()["b"]) == 0  # renormalized over S_g \ S_f


def test_attending_pair_attends_as_stated():
    _, _, x, tau, _ = near_eps_instances(0, 1)[0]
    f, g = attending_pair(tau)
    assert cz.attended(f, x).tokens == ("a",) and set(cz.attended(g, x).tokens) == {"a", "b"}
    assert len(f.phi) == len(g.phi) == tau + 1 and cz.attended(g, x).size == x.length - tau - 1


def test_near_eps_instances_are_seeded_and_sit_near_eps():
    a, b = near_eps_instances(3, 10), near_eps_instances(3, 10)
    assert [(x.counts(), tau, eps) for _, _, x, tau, eps in a] == [(x.counts(), t, e) for _, _, x, t, e in b]
    for _, _, x, tau, eps in a:
        n = x.counts()
        assert abs(F(n["a"], n["a"] + n["b"]) - eps) < eps / 5 and x.suffix == ("b",) * (tau + 1)


def test_renormalized_shares_hold_and_a_tighter_instance_set_is_checked_in_order():
    out = renormalized_shares([share_instance()] + near_eps_instances(1))
    assert out.failure is None and len(out.deviations) >= 2 and out.deviations[0] == 0
    assert all(d <= 2 * 2 * F(1, 3) ** 2 for d in out.deviations)


def test_residue_imbalance_finds_unbalanced_floors_and_reports_them_consistently():
    bad = residue_imbalance(2, 200)
    assert bad is not None and abs(bad.residue0 - bad.residue1) > 1
    A = sum(bad.counts.values())
    floors = {k: int(F(v, A) * bad.tau / bad.eps) for k, v in bad.counts.items()}
    assert [sum(floors[(t, r)] for t in TOKENS) for r in (0, 1)] == [bad.residue0, bad.residue1]
    assert residue_imbalance(2, bad.trial) is None  # the trials before it balance
    assert residue_imbalance(2, 0) is None


@pytest.mark.parametrize("seed", [0, 4])
def test_cached_survey_is_one_run_per_setting_and_per_sigma_reads_its_maxima(seed):
    s = cached_survey(seed, 12, 8)
    assert cached_survey(seed, 12, 8) is s and cached_survey(seed, 13, 8) is not s
    per = s.per_sigma("prop_f/eps")
    assert list(per) == sorted(per) and max(per.values()) == round(s.maxima["prop_f/eps"], 3)
