"""Readable output: the fit summary in words, a counterexample's learned parameters by block name and
shape, an empty search explained with what to try next, per-value verdicts for a categorical scan, a
runnable reproduce line after every verdict, exit codes for scripts, and controls that never produce
errata."""

from __future__ import annotations

import contextlib
import io
import json
import shlex
from dataclasses import replace

import pytest

from proofkit.engine.check import check
from proofkit.engine.falsify import FalsifyResult
from proofkit.engine.scan import ScanResult, ScanRow
from proofkit.interface.cli import main
from proofkit.interface.testing import run_cli as run
from proofkit.language import registry
from proofkit.language.verdict import ClaimResult, TheoremResult, Verdict
from proofkit.render import report
from proofkit.storage import record

THM = "AM24.T4"
FIT = {"converged": True, "train_residual": "1.24e-60", "float64_residual": 8.881784197001252e-16,
       "restarts_tried": 2, "restart_used": 1, "mp_iterations": 3, "reason": ""}
LOCAL_ID = ("J_train rank 8/12 (sigma_r 3.25, next 2.36e-60); null(J_train) dim 4 vs the family's symmetry "
            "orbit dim 4 (only the symmetry); test outputs locally identified")


def result(diagnostics: dict) -> TheoremResult:
    claim = ClaimResult("length generalization", "h = f", "conclusion", Verdict.CERTIFIED, "1e-50", "bound")
    return TheoremResult(THM, Verdict.CERTIFIED, [claim], [], 60, 0, {"T": 2}, diagnostics=diagnostics)


# ----------------------------------------------------------------------------- check
def test_the_fit_summary_is_a_sentence_not_a_dict():
    text = report.theorem_detail(result({"fit": FIT, "groups": {"C": "C := At**(-1)*A (as defined)"},
                                         "local_identifiability": LOCAL_ID, "timings_s": {"fit": 0.1}}))
    lines = {line.split(":")[0].strip(): line for line in text.splitlines()}
    assert lines["fit"] == ("  fit: converged from start 2 of 2 tried (seeded): training residual "
                            "1.24e-60 at 60 digits after 3 polish iterations (the float64 warm start "
                            "reached 8.88e-16)")
    assert lines["group elements"] == "  group elements: C := At**(-1)*A (as defined)"
    assert lines["local identifiability"].startswith(
        "  local identifiability: test outputs locally identified: J_train rank 8/12")
    assert "{" not in text and text.splitlines()[-1] == "  time: fit 0.10s"


def test_a_fit_that_did_not_converge_says_why():
    fit = dict(FIT, converged=False, train_residual=None, float64_residual=0.618, restarts_tried=8,
               restart_used=None, mp_iterations=0, reason="no float64 restart reached a residual below 1e-6")
    assert report.fit_sentence(fit, 60) == ("did not converge (8 seeded start(s) tried): no float64 restart "
                                            "reached a residual below 1e-6; best float64 residual 0.618")


def test_check_ends_with_a_runnable_reproduce_line(capsys, monkeypatch):
    seen = {}

    def fake(theorem, overrides=None, *, dps, seed):
        seen.update(overrides=overrides, dps=dps, seed=seed)
        return result({"fit": FIT})

    monkeypatch.setattr("proofkit.engine.check.check", fake)
    code, out, err = run(capsys, "check", THM, "--set", "n=3", "--seed", "7", "--dps", "80")
    assert code == 0 and err == ""
    line = f"proofkit check {THM} --set n=3 --seed 7 --dps 80"
    assert out.rstrip().splitlines()[-1] == f"reproduce: {line}"
    code, out, _ = run(capsys, "check", THM, "--set", "n=3", "--seed", "7", "--dps", "80", "--json")
    assert json.loads(out)["reproduce"] == line
    seen.clear()
    assert run(capsys, *shlex.split(line)[1:])[0] == 0  # the line runs as printed, with the same inputs
    assert seen == {"overrides": {"n": 3}, "dps": 80, "seed": 7}


# ----------------------------------------------------------------------------- controls
@pytest.mark.parametrize("role,errata", [("control", []), ("identification", [("Bt = B*C", "Bt = C*B")])])
def test_a_refuted_control_is_never_an_erratum(role, errata):
    """AM24.T4's printed B~ = B C, refuted, with the reordered C B holding: an erratum as an identification
    claim, and nothing but the control biting when the same relation is a control."""
    thm = registry.get(THM)
    printed = next(c for c in thm.claims if c.name == "B~ = B C (as printed)")
    variant = thm.with_claims((replace(printed, name=f"{role}: B~ = B C", role=role),))
    res = check(variant, dps=60, seed=0)
    assert res.claim(f"{role}: B~ = B C").verdict == Verdict.REFUTED
    assert [(e.printed, e.found) for e in res.errata] == errata
    assert ("ERRATUM" in report.theorem_detail(res)) == bool(errata)


# ----------------------------------------------------------------------------- falsify
@pytest.fixture(scope="module")
def found(tmp_path_factory):
    """`falsify AM24.T4 --drop 'T>=2'` as text and as JSON (about a second each)."""
    out_dir = tmp_path_factory.mktemp("readable-falsify")
    runs = []
    for extra in ([], ["--json"]):
        buf_out, buf_err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(buf_out), contextlib.redirect_stderr(buf_err):
            code = main(["falsify", THM, "--drop", "T>=2", "--out", str(out_dir), "-q", *extra])
        runs.append((code, buf_out.getvalue(), buf_err.getvalue()))
    return runs


def test_a_counterexample_is_labelled_by_block_name_and_shape(found):
    (code, text, err), (_, out, _) = found
    assert code == 1 and err == ""
    obj = json.loads(out)
    rec = record.load(obj["record"])
    n, k = rec["params"]["n"], rec["params"]["learned_dim"]  # where the search shrank them to
    layout = {"A": (n, k), "Lam": (k, k), "B": (k, n)}
    assert {k: tuple(v["shape"]) for k, v in obj["learned"].items()} == layout
    flat = [x for block in obj["learned"].values() for row in block["values"] for x in row]
    assert flat == rec["learned_params"]  # every digit kept in the JSON, in the record's order
    lines = text.splitlines()
    start = lines.index("  learned model h (zero training risk, differs from f beyond training):")
    for (name, (rows, cols)), line in zip(layout.items(), lines[start + 1:start + 4]):
        assert line.strip().startswith(f"{name} ({rows}x{cols})") and line.count("[") == 1 + rows
    assert "--drop 'T>=2'" in lines[-1] and lines[-1] == f"reproduce: {obj['reproduce']}"


def test_the_reproduce_line_recomputes_the_same_record(capsys, found, tmp_path):
    obj = json.loads(found[1][1])
    argv = shlex.split(obj["reproduce"])[1:] + ["--out", str(tmp_path), "--json", "-q"]
    code, out, _ = run(capsys, *argv)
    again = json.loads(out)
    assert code == 1 and again["verdict"] == obj["verdict"]
    assert record.load(again["record"])["sha256"] == record.load(obj["record"])["sha256"]


def searched(found: bool, verdict: Verdict) -> FalsifyResult:
    return FalsifyResult(THM, {**registry.get(THM).params.defaults()}, [], found, verdict,
                         "4 seeded fits, 36 penalty fits", how="no counterexample found (searched and empty)")


def test_an_empty_search_says_what_was_searched_and_what_to_try(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("proofkit.engine.falsify.falsify", lambda *a, **k: searched(False, Verdict.CONFIRMED))
    code, out, err = run(capsys, "falsify", THM, "--out", str(tmp_path))
    assert code == 0 and err == ""
    assert "searched at n=2, learned_dim=2, T=2" in out and "evidence, not a proof" in out
    tries = out[out.index("what to try:"):]
    assert f"a larger n (learned_dim follows): proofkit falsify {THM} --set n=3 --seed 0 --dps 60" in tries
    assert f"another seed: proofkit falsify {THM} --seed 1 --dps 60" in tries
    assert f"a scan over T: proofkit scan {THM} --seed 0 --dps 60 --param T --values 1,2,3" in tries
    assert "--drop 'T>=2'" in tries and "--drop A8" in tries


@pytest.mark.parametrize("found,verdict,plain,expecting", [
    (True, Verdict.REFUTED, 1, 0),
    (False, Verdict.CONFIRMED, 0, 1),
    (False, Verdict.INCONCLUSIVE, 3, 3),
])
def test_expect_counterexample_exits_0_iff_one_is_found(capsys, monkeypatch, tmp_path, found, verdict, plain,
                                                        expecting):
    monkeypatch.setattr("proofkit.engine.falsify.falsify", lambda *a, **k: searched(found, verdict))
    assert run(capsys, "falsify", THM, "--out", str(tmp_path))[0] == plain
    code, out, _ = run(capsys, "falsify", THM, "--out", str(tmp_path), "--expect-counterexample", "--json")
    assert code == expecting
    assert json.loads(out)["reproduce"].endswith("--expect-counterexample")


def test_learned_values_are_short_decimals():
    assert report.short_number("0.123456789012345678901234567890") == "0.123457"
    assert report.short_number("3/2") == "3/2"
    assert report.short_number("100000000/300000001") == "0.333333"
    assert report.learned_lines({"A": {"shape": [1, 2], "values": [["1.5", "-0.25"]]},
                                 "bias": {"shape": [2], "values": ["0.1", "3/4"]}}) == [
        "    A (1x2)  = [[1.5, -0.25]]", "    bias (2) = [0.1, 3/4]"]


# ----------------------------------------------------------------------------- scan
def scanned(param: str, values: list, statuses: list[str], ordered: bool) -> ScanResult:
    rows = [ScanRow(v, s, "why not", "certified", {}, None) for v, s in zip(values, statuses)]
    return ScanResult(THM, param, rows, values[-1] if ordered else None, [], False, ordered, 60, 0)


def test_a_categorical_scan_reports_each_value_not_a_smallest():
    text = report.scan_text(scanned("activation", ["sigmoid", "relu"], ["holds", "refuted"], False),
                            ["line 1", "line 2"])
    assert "smallest" not in text
    assert text.splitlines()[-1] == ("per value (activation is categorical, so no threshold): sigmoid holds, "
                                     "relu refuted")
    assert "      reproduce: line 2" in text
    numeric = report.scan_text(scanned("T", [1, 2], ["refuted", "holds"], True))
    assert numeric.splitlines()[-1] == "smallest T from which every scanned value holds: 2"


def test_scan_rows_carry_their_own_reproduce_line(capsys, monkeypatch):
    monkeypatch.setattr("proofkit.engine.scan.scan", lambda thm, param, values, *a, **k:
                        scanned(param, values, ["holds"] * len(values), False))
    code, out, _ = run(capsys, "scan", THM, "--param", "readout_bias", "--values", "true,false", "--json",
                       "--no-search")
    obj = json.loads(out)
    assert code == 0 and [r["reproduce"] for r in obj["rows"]] == [
        f"proofkit scan {THM} --seed 0 --dps 60 --param readout_bias --values {v} --no-search"
        for v in ("true", "false")]
    assert obj["reproduce"].endswith("--values true,false --no-search")


def test_a_bad_values_entry_names_values(capsys):
    code, out, err = run(capsys, "scan", THM, "--param", "T", "--values", "1,x")
    assert code == 2 and out == ""
    assert err.startswith("proofkit: bad input: --values: expected each entry int in [1, 50] (values of T)")


def test_the_headline_names_the_variant_and_its_violated_assumptions(capsys):
    """Issue 28, item 6: 'AM24.T4: refuted' for a setting outside the theorem read, copied into notes, as
    the theorem being false. The headline names the parameters set and the assumptions they violate."""
    toy = "tests/sweep/sweep_theorems"
    with registry.using([toy]):
        thm = registry.get("SWEEP.TOY")
        assert check(thm).headline == "SWEEP.TOY: certified"
        res = check(thm, {"n": 1, "mode": "b"})
    assert res.headline == "SWEEP.TOY at n=1, mode=b: refuted, outside the theorem (violates n>=3)"
    assert res.as_dict()["overrides"] == {"n": 1, "mode": "b"}
    code, out, _ = run(capsys, "--theorems", toy, "check", "SWEEP.TOY", "--set", "n=1")
    assert code == 1 and out.splitlines()[0].startswith("SWEEP.TOY at n=1: refuted, outside the theorem")
