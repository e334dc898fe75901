"""The command line, through ``proofkit.interface.cli.main([...])``: outputs, exit codes, and bad input
reported as one line on stderr (exit 2, no traceback)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

from proofkit.engine.identify import Undefined
from proofkit.interface.cli import main
from proofkit.interface.testing import run_cli as run
from proofkit.language.tolerances import MAX_DPS, MIN_DPS
from proofkit.storage import record

THM = "AM24.T4"



def assert_bad_input(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("proofkit:")
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


@pytest.fixture(scope="module")
def falsified(tmp_path_factory):
    """`falsify AM24.T4 --drop T>=2 --json`, run once (about a second)."""
    out_dir = tmp_path_factory.mktemp("cli-falsify")
    buf_out, buf_err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buf_out), contextlib.redirect_stderr(buf_err):
        code = main(["falsify", THM, "--drop", "T>=2", "--out", str(out_dir), "--json"])
    assert buf_err.getvalue() == ""
    return code, buf_out.getvalue(), out_dir


# ----------------------------------------------------------------------------- list / show
def test_list_json(capsys):
    code, out, err = run(capsys, "list", "--json")
    assert code == 0 and err == ""
    items = json.loads(out)
    ids = [t["id"] for t in items]
    assert THM in ids and ids == sorted(ids)
    assert all({"id", "title", "paper"} <= set(t) for t in items)


def test_list_text(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and any(line.startswith(THM) for line in out.splitlines())


def test_show_text_and_json(capsys):
    code, out, err = run(capsys, "show", THM)
    assert code == 0 and err == "" and THM in out and "T>=2" in out
    code, out, _ = run(capsys, "show", THM, "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["id"] == THM
    assert "T>=2" in [a["id"] for a in obj["assumptions"]]
    params = {p["name"]: p for p in obj["parameters"]}
    assert params["T"]["default"] == 2 and params["T"]["type"] == "int"
    names = [c["name"] for c in obj["claims"]]
    assert "B~ = B C (as printed)" in names
    assert {c["expected"] for c in obj["claims"]} <= {"certified", "confirmed", "refuted",
                                                      "inconclusive", ""}


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("argv,needles", [
    (["show", "AM24.NOPE"], ["theorem id", "AM24.NOPE"]),
    (["check", "AM24.NOPE"], ["theorem id"]),
    (["check", THM, "--set", "depth=3"], ["--set", "depth"]),
    (["check", THM, "--set", "T=abc"], ["T", "abc"]),
    (["check", THM, "--set", "T=0"], ["T"]),
    (["check", THM, "--set", "T"], ["--set", "key=value"]),
    (["check", THM, "--set", "activation=gelu"], ["activation", "gelu"]),
    (["check", THM, "--set", "cut_frac=nan"], ["cut_frac"]),
    (["check"], ["check"]),
    (["check", THM, "--all"], ["check"]),
    (["falsify", THM, "--drop", "nonexistent"], ["--drop", "nonexistent"]),
    (["falsify", "AM24.NOPE"], ["theorem id"]),
    (["check", THM, "--dps", "5"], ["--dps", "5"]),
    (["check", THM, "--dps", "abc"], ["--dps", "abc"]),
    (["check", THM, "--dps", "100000"], ["--dps"]),
    (["check", THM, "--dps", str(MIN_DPS - 1)], ["--dps", f"[{MIN_DPS}, {MAX_DPS}]", str(MIN_DPS - 1)]),
    (["check", THM, "--dps", str(MAX_DPS + 1)], ["--dps", str(MAX_DPS + 1)]),
    (["scan", THM, "--param", "T", "--values", "1", "--dps", "30"], ["--dps", "30"]),
    (["check", THM, "--seed", "-1"], ["--seed"]),
    (["scan", THM, "--param", "depth", "--values", "1,2"], ["depth"]),
    (["scan", THM, "--param", "T", "--values", "1,x"], ["--values", "T", "x"]),
    (["scan", THM, "--param", "T", "--values", ","], ["--values"]),
    (["scan", THM, "--param", "T", "--values", "1,2", "--set", "T=3"], ["--set", "scanned"]),
    (["--theorems", "/nonexistent-folder", "list"], ["--theorems", "/nonexistent-folder"]),
    (["replay", "/nonexistent.json"], ["record", "/nonexistent.json"]),
    (["frobnicate"], []),
    ([], []),
])
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, argv, needles):
    code, out, err = run(capsys, *argv)
    assert_bad_input(code, out, err, *needles)
    assert not any(tmp_path.iterdir())


def test_bad_input_fails_before_any_work(capsys, tmp_path):
    out_dir = str(tmp_path / "o")
    code, out, err = run(capsys, "falsify", THM, "--drop", "nonexistent", "--out", out_dir)
    assert_bad_input(code, out, err, "nonexistent")
    assert not (tmp_path / "o").exists()


# ----------------------------------------------------------------------------- falsify / replay
def test_falsify_drop_writes_record(falsified):
    code, out, out_dir = falsified
    assert code == 1
    obj = json.loads(out)
    assert obj["id"] == THM and obj["found"] is True and obj["verdict"] == "refuted"
    assert obj["dropped"] == ["T>=2"] and obj["params"]["T"] == 1
    assert obj["certified"] is True
    assert obj["reproduce"] == f"proofkit falsify {THM} --drop 'T>=2' --seed 0 --dps 60"
    path = Path(obj["record"])
    assert path.parent == out_dir and path.is_file()
    assert list(out_dir.iterdir()) == [path]
    rec = record.load(path)
    assert rec["theorem"] == THM and rec["dropped"] == ["T>=2"]


def test_replay_written_record(capsys, falsified):
    path = json.loads(falsified[1])["record"]
    code, out, err = run(capsys, "replay", path, "--json")
    assert code == 0 and err == ""
    obj = json.loads(out)
    assert obj == {**obj, "record": path, "reproduces": True, "certified": True}
    assert obj["reproduce"] == f"proofkit replay {Path(path).resolve()}"
    code, out, _ = run(capsys, "replay", path)
    assert code == 0 and "reproduces" in out and "DOES NOT" not in out
    assert out.rstrip().splitlines()[-1] == f"reproduce: {obj['reproduce']}"


def test_replay_tampered_record_exits_2(capsys, tmp_path, falsified):
    src = Path(json.loads(falsified[1])["record"])
    data = json.loads(src.read_text())
    data["learned_params"][2] = "0.5"  # hash left as it was
    bad = tmp_path / "tampered.json"
    bad.write_text(record.canonical(data))
    code, out, err = run(capsys, "replay", str(bad))
    assert_bad_input(code, out, err, "sha256")
    bad.write_text(src.read_text()[:100])
    code, out, err = run(capsys, "replay", str(bad))
    assert_bad_input(code, out, err, "record", "valid JSON")


def test_replay_rehashed_non_reproducing_record_exits_1(capsys, tmp_path, falsified):
    """A record moved consistently (every derived field recomputed, rehashed) to a model that no longer
    fits the training data: it is well-formed, so replay answers 'does not reproduce' (exit 1)."""
    import mpmath as mp

    from proofkit.engine.falsify import certify_model
    from proofkit.engine.modelsearch import max_gap
    from proofkit.engine.problem import build_problem
    from proofkit.language import registry
    from proofkit.numerics.backend import MP, mp_abs_max

    data = json.loads(Path(json.loads(falsified[1])["record"]).read_text())
    data["learned_params"][0] = "2.5"  # A[0,0]: no longer fits the training data
    thm = registry.get(data["theorem"])
    with mp.workdps(data["dps"]):
        problem = build_problem(thm, thm.params.resolve(data["params"]), seed=data["seed"], dps=data["dps"])
        theta = MP.asarray(np.asarray(data["learned_params"], dtype=object))
        X = np.array([[float(v) for v in row] for row in data["witness"]])
        data["train_residual"] = mp.nstr(mp_abs_max(problem.residual(theta, MP)), 5)
        data["test_discrepancy"] = mp.nstr(max_gap(problem, theta, [X[None]]), 5)
        certified, how = certify_model(problem, theta, X, data["dps"], data["learned_params"])
    data["certificate"] = {"certified": certified, "how": how}
    data["sha256"] = record.digest(data)
    p = tmp_path / "moved.json"
    p.write_text(record.canonical(data))
    code, out, err = run(capsys, "replay", str(p), "--json")
    assert code == 1 and err == ""
    assert json.loads(out)["reproduces"] is False


def test_replay_negative_seed_record_is_bad_input(capsys, tmp_path, falsified):
    data = json.loads(Path(json.loads(falsified[1])["record"]).read_text())
    data["seed"] = -1
    data["sha256"] = record.digest(data)
    p = tmp_path / "neg.json"
    p.write_text(record.canonical(data))
    try:
        code, out, err = run(capsys, "replay", str(p))
    except ValueError as exc:  # escaped main(): the user would see a traceback
        pytest.fail(f"uncaught {type(exc).__name__}: {exc}")
    assert_bad_input(code, out, err, "seed")


def test_falsify_without_drop_finds_nothing(capsys, tmp_path):
    out_dir = tmp_path / "none"
    code, out, err = run(capsys, "falsify", THM, "--json", "--out", str(out_dir))
    assert code == 0, err
    obj = json.loads(out)
    assert obj["found"] is False and obj["record"] is None and obj["dropped"] == []
    assert obj["verdict"] in ("confirmed", "certified")
    assert not out_dir.exists() or not any(out_dir.iterdir())


# ----------------------------------------------------------------------------- check / scan
def test_check_json(capsys):
    code, out, err = run(capsys, "check", THM, "--json")
    assert code == 0, err
    obj = json.loads(out)
    keys = ("id", "verdict", "claims", "errata", "dps", "seed", "params", "records", "elapsed_s")
    for key in keys:
        assert key in obj, key
    assert obj["id"] == THM and obj["dps"] == 60 and obj["seed"] == 0
    assert obj["params"]["T"] == 2 and obj["verdict"] in ("certified", "confirmed")
    assert isinstance(obj["records"], list) and obj["elapsed_s"] > 0
    for c in obj["claims"]:
        assert {"name", "statement", "verdict", "residual"} <= set(c)
    by_name = {c["name"]: c for c in obj["claims"]}
    assert by_name["length generalization"]["verdict"] == "certified"
    assert by_name["B~ = B C (as printed)"]["verdict"] == "refuted"
    assert by_name["control: Lam~ = Lam (wrong group: identity)"]["verdict"] == "refuted"
    assert obj["as_expected"] is True
    assert obj["reproduce"] == f"proofkit check {THM} --seed 0 --dps 60"
    for e in obj["errata"]:
        assert {"printed", "found", "residual"} <= set(e)
    errata = {(e["printed"], e["found"]) for e in obj["errata"]}
    assert ("Bt = B*C", "Bt = C*B") in errata


def test_scan_T_threshold(capsys):
    """T=1 refuted (the search finds a certified counterexample), T=2 holds (about 5 s)."""
    code, out, err = run(capsys, "scan", THM, "--param", "T", "--values", "1,2", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["param"] == "T" and [r["value"] for r in obj["rows"]] == [1, 2]
    assert [r["status"] for r in obj["rows"]] == ["refuted", "holds"]
    assert obj["rows"][0]["search"]["found"] is True and obj["rows"][0]["search"]["certified"] is True
    assert obj["rows"][1]["search"]["found"] is False
    assert obj["threshold"] == 2 and obj["monotone"] is True and obj["warnings"] == []


def test_scan_text_no_search(capsys):
    code, out, err = run(capsys, "scan", THM, "--param", "T", "--values", "2", "--no-search")
    assert code == 0 and err == ""
    assert "without counterexample search" in out and "T=2: HOLDS" in out and "search:" not in out
    assert "smallest T from which every scanned value holds: 2" in out
    line = f"proofkit scan {THM} --seed 0 --dps 60 --param T --values 2 --no-search"
    assert f"      reproduce: {line}" in out and out.rstrip().splitlines()[-1] == f"reproduce: {line}"


# ----------------------------------------------------------------------------- engine backstop
def _raises(exc: Exception):
    def fail(*args, **kwargs):
        raise exc
    return fail


@pytest.mark.parametrize("exc", [Undefined("inverse of a 2x3 matrix is undefined"),
                                 ZeroDivisionError("matrix is numerically singular"),
                                 np.linalg.LinAlgError("Singular matrix")])
@pytest.mark.parametrize("argv,target", [
    (["check", THM], "proofkit.engine.check.check"),
    (["falsify", THM, "--drop", "T>=2"], "proofkit.engine.falsify.falsify"),
    (["replay", "some.json"], "proofkit.engine.replay.replay"),
])
def test_engine_undefined_is_inconclusive_not_refuted(capsys, monkeypatch, tmp_path, exc, argv, target):
    """An engine that cannot evaluate a theorem as written: one line on stderr, exit 3, never a traceback
    or 1; stdout has the line that reproduces it (a "reproduce" field with --json)."""
    monkeypatch.setattr(target, _raises(exc))
    code, out, err = run(capsys, *argv, *(["--out", str(tmp_path)] if argv[0] == "falsify" else []))
    assert code == 3 and out.startswith(f"reproduce: proofkit {argv[0]} ") and out.count("\n") == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("proofkit: inconclusive: ") and str(exc) in lines[0]
    line = out[len("reproduce: "):].strip()
    code, out, err = run(capsys, *argv, "--json")
    assert code == 3 and json.loads(out) == {"schema": "inconclusive/1", "verdict": "inconclusive",
                                             "reason": err.strip()[24:], "reproduce": line}


def test_engine_undefined_in_scan_is_an_inconclusive_value(capsys, monkeypatch):
    monkeypatch.setattr("proofkit.engine.check.check",
                        _raises(Undefined("inverse of a 2x3 matrix is undefined")))
    code, out, err = run(capsys, "scan", THM, "--param", "T", "--values", "2", "--no-search", "--json")
    assert code == 0 and err == ""
    (row,) = json.loads(out)["rows"]
    assert row["status"] == "inconclusive" and "2x3" in row["reason"]


def test_non_square_learner_never_crashes(capsys):
    """`check AM24.T4 --set learned_dim=3` once died with a traceback and exit 1 (finding 4)."""
    code, out, err = run(capsys, "check", THM, "--set", "learned_dim=3")
    assert "Traceback" not in err + out and code in (1, 3)
    assert err == "" or err.startswith("proofkit: inconclusive: ")


@pytest.mark.parametrize("argv,field", [
    (["check", "AM24.T4", "--set", "T=\u0661"], "--set T"),                  # Arabic-Indic 1
    (["check", "AM24.T4", "--set", "T=1_0"], "--set T"),
    (["check", "AM24.T4", "--set", "cut_frac=nan"], "--set cut_frac"),
    (["check", "AM24.T4", "--set", "cut_frac=\uff10.5"], "--set cut_frac"),  # fullwidth 0
])
def test_set_numbers_are_ascii(capsys, argv, field):
    """Numbers are written with ASCII digits, as in records (int() alone takes other scripts' digits)."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.startswith(f"proofkit: bad input: {field}: expected ")


def test_option_numbers_are_ascii_and_junk_is_not_echoed_whole(capsys):
    program = str(Path(__file__).resolve().parents[2] / "theorems" / "hyb24" / "programs" / "majority.crasp")
    with pytest.raises(SystemExit) as exc:
        main(["crasp", "check", program, "--against", "library:MAJORITY", "--max-len", "\uff11\uff10"])
    assert exc.value.code == 2 and "ASCII digits" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["list", "x" * 100_000])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and len(err) < 1000 and "characters)" in err


def test_a_crash_is_exit_4_never_a_verdict(capsys, monkeypatch):
    """A bug (here: a built-in theorem file that fails to import) is exit 4 with its traceback: exit 1 would
    read as 'refuted' (issue 27)."""
    from proofkit.interface.testing import run_cli
    from proofkit.language import registry

    def broken(*args, **kwargs):
        raise RuntimeError("a built-in theorem file's bug")

    monkeypatch.setattr(registry, "load_all", broken)
    code, out, err = run_cli(capsys, "list")
    assert code == 4 and out == "" and "Traceback" in err
    assert err.strip().splitlines()[-1].startswith("proofkit: internal error: RuntimeError: a built-in")


@pytest.mark.parametrize("argv,hint", [
    (["chek"], "invalid choice: 'chek' (did you mean check?)"),
    (["check", "AM24.T4", "--sett", "T=2"], "unrecognized arguments: --sett T=2 (did you mean --set?)"),
    (["check", "AM24.T4", "--backend", "nump"], "(did you mean numpy?)"),
    (["check", "AM24.T44"], "theorem id: expected a theorem id (did you mean AM24.T4?)"),
    (["check", "AM24.T4", "--set", "TT=3"], "--set: expected a parameter of this theorem (did you mean T?)"),
    (["scan", "AM24.T4", "--param", "X", "--values", "1"], "bad input: --param: expected a parameter"),
    (["falsify", "AM24.T4", "--drop", "A5.Lam-invertibl"], "(did you mean A5.Lam-invertible?)"),
])
def test_a_misspelt_name_gets_the_closest_one(capsys, argv, hint):
    """Issue 28, item 5: `proofkit chek`, `--set TT=3`, an id one character off get a did-you-mean, and
    `scan --param X` blames --param, not --set."""
    from proofkit.interface.testing import run_cli

    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and hint in err, err


def test_theorem_ids_are_read_case_insensitively(capsys):
    from proofkit.interface.testing import run_cli

    code, out, _ = run_cli(capsys, "show", "am24.t4")
    assert code == 0 and "AM24.T4" in out


def test_replaying_a_witness_of_a_falsifier_without_replay_is_bad_input(capsys, tmp_path):
    """Found by the bundle fuzz (issue 27): a record of a theorem whose falsifier has only ``search``
    crashed replay and verify-bundle (exit 4); it is one line, exit 2."""
    from proofkit.interface.testing import run_cli

    toy = str(Path(__file__).resolve().parents[1] / "sweep" / "sweep_theorems")
    code, _, _ = run_cli(capsys, "--theorems", toy, "falsify", "SWEEP.TOY", "--drop", "n>=3", "--out",
                         str(tmp_path), "--no-known")
    assert code == 1
    (record,) = tmp_path.glob("*.json")
    code, out, err = run_cli(capsys, "--theorems", toy, "replay", str(record))
    assert code == 2 and "has no replay method" in err and len(err.strip().splitlines()) == 1
