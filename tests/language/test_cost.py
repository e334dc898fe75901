"""A theorem's declared running time (proofkit.Cost, issue 27 item 5): the estimate and its formula, the
engine refusing a setting above the work cap before any work starts (check, falsify, replay, the CLI with
one line and exit 2), and a raised cap letting it run."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from proofkit import Cost, InputError, Verdict, check, falsify
from proofkit.interface.testing import run_cli
from proofkit.language import registry
from proofkit.runtime import workguard

TOY = "tests/sweep/sweep_theorems"


def toy():
    with registry.using([TOY]):
        return registry.get("SWEEP.TOY")


def test_the_estimate_scales_each_named_parameter_and_says_how():
    cost = Cost(2.0, {"n": 3, "scale": 1})
    secs, formula = cost.estimate({"n": 6, "scale": 0.5}, {"n": 3, "scale": 1.0})
    assert secs == pytest.approx(16.0) and formula == "2 s at the defaults x (n 6/3)^3"
    assert cost.estimate({"n": 3, "scale": 1.0}, {"n": 3, "scale": 1.0}) == (2.0, "2 s at the defaults")


@pytest.mark.parametrize("bad", [dict(seconds=0), dict(seconds=float("inf")), dict(seconds=1, grows={"n": 0}),
                                 dict(seconds=1, grows={"n": 9})])
def test_a_cost_out_of_range_is_a_theorem_files_slip(bad):
    with pytest.raises(ValueError, match="Cost"):
        Cost(**bad)


@pytest.mark.parametrize("name", ["nope", "mode", "strict"])
def test_a_cost_names_only_numeric_parameters(name):
    with pytest.raises(ValueError, match="no numeric parameter"):
        replace(toy(), cost=Cost(1.0, {name: 1}))


def test_a_setting_above_the_cap_is_refused_before_any_work():
    thm = replace(toy(), cost=Cost(30.0, {"n": 2}))  # 30 s at n = 3: n = 9 is estimated at 270 s
    assert check(thm, {"n": 4}).verdict == Verdict.CERTIFIED  # 53 s: under the default cap of 4e10
    for run in (lambda: check(thm, {"n": 9}), lambda: falsify(thm, [], {"n": 9})):
        with pytest.raises(InputError) as info:
            run()
        text = str(info.value)
        assert info.value.field == "SWEEP.TOY parameters"
        assert "30 s at the defaults x (n 9/3)^2 = 270 s" in text and "--max-work 1e12" in text
    with workguard.work_cap(10**12):
        assert check(thm, {"n": 9}).verdict == Verdict.CERTIFIED


def test_the_cli_refuses_in_one_line_naming_the_estimate(capsys, tmp_path):
    text = Path(TOY, "toy_sweep.py").read_text().replace("SWEEP.TOY", "COST.TOY").replace(
        "    falsifier=Search(),\n", "    falsifier=Search(),\n    cost=Cost(30.0, {\"n\": 2}),\n").replace(
        "from proofkit.language.verdict import Verdict", "from proofkit.language.verdict import Verdict\n"
        "from proofkit import Cost")
    (tmp_path / "cost_toy.py").write_text(text)
    code, out, err = run_cli(capsys, "--theorems", str(tmp_path), "check", "COST.TOY", "--set", "n=9")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("proofkit: bad input: COST.TOY parameters: expected work within the cap")
    code, _, _ = run_cli(capsys, "--theorems", str(tmp_path), "check", "COST.TOY", "--set", "n=9",
                         "--max-work", "1e12")
    assert code == 0


def test_a_term_that_applies_in_one_setting_only():
    cost = Cost(5.0, {"steps": 1, "authors_steps": 1}, applies={"authors_steps": ("config", "authors")})
    d = {"steps": 100, "authors_steps": 10, "config": "proofkit"}
    assert cost.estimate({**d, "authors_steps": 1000}, d)[0] == 5.0
    secs, formula = cost.estimate({**d, "authors_steps": 1000, "config": "authors"}, d)
    assert secs == 500.0 and formula == "5 s at the defaults x (authors_steps 1000/10)^1"
    with pytest.raises(ValueError, match="applies"):
        Cost(1.0, {"steps": 1}, applies={"other": ("config", "a")})
    with pytest.raises(ValueError, match="no parameter"):
        replace(toy(), cost=Cost(1.0, {"n": 1}, applies={"n": ("nope", 1)}))


def test_fixed_seconds_rates_per_unit_and_setting_factors():
    cost = Cost(10.0, {"T": 1}, per_unit={"len": 2.0}, fixed=2.0, factors={("config", "slow"): 3.0})
    d = {"T": 5, "len": 10, "config": "fast"}
    assert cost.estimate(d, d) == (10.0, "2 s + 8 s at the defaults")
    secs, formula = cost.estimate({"T": 10, "len": 12, "config": "slow"}, d)
    assert secs == 2.0 + 8.0 * 3 * 2 * 4 and formula == ("2 s + 8 s at the defaults x 3 (config=slow) "
                                                         "x (T 10/5)^1 x 2^(len 12 - 10)")
    assert cost.estimate({**d, "len": 9}, d)[0] == 2.0 + 8.0 / 2
    for bad in (dict(seconds=1.0, fixed=1.0), dict(seconds=1.0, per_unit={"len": 0}),
                dict(seconds=1.0, factors={("c", 1): -1})):
        with pytest.raises(ValueError, match="Cost"):
            Cost(**bad)
