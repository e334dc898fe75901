"""Every ``--json`` output validates against its published schema (proofkit/schemas/, docs/formats.md), and so
does every file the commands write (records, weights, sweep files): this is where the output formats are
enforced. Cheap commands only: the toy theorem SWEEP.TOY (tests/sweep/sweep_theorems) for check, falsify,
scan,
report (the verdict table and the paper tables), cite and sweep, one real model theorem (AM24.T4: check,
falsify, replay of the record), a cheap exact theorem with a stored record (AM24.L1: cite, bundle,
verify-bundle), small C-RASP programs, and the crasp section of ``bench --quick``. Each output is one JSON
document on stdout; every object output carries its version (``"schema": "<kind>/1"``), which its schema
requires."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from proofkit.crasp.compilation.network import Network
from proofkit.crasp.semantics.truth import LIBRARY
from proofkit.errors import InputError
from proofkit.interface.cli import main
from proofkit.publish import bundle
from proofkit.storage import formats, record

ROOT = Path(__file__).resolve().parents[2]
TOY = str(ROOT / "tests" / "sweep" / "sweep_theorems")
MAJORITY = str(ROOT / "theorems" / "hyb24" / "programs" / "majority.crasp")
THM = "AM24.T4"


def cli(*argv: str) -> tuple[int, str, str]:
    """``proofkit ARGV`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["-q", *argv])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def conforms(kind: str, out: str) -> object:
    """The one JSON document on stdout, validated as ``kind`` (which pins its version field, if any)."""
    obj = json.loads(out)
    formats.validate(kind, obj)
    return obj


def record_conforms(path: str) -> dict:
    """A record a command wrote: it conforms and loads."""
    formats.validate("record", json.loads(Path(path).read_text()))
    return record.load(path)


# ----------------------------------------------------------------------------- a real model theorem
def test_check_of_a_model_theorem():
    code, out, _ = cli("check", THM, "--json")
    assert code == 0 and conforms("check", out)["id"] == THM


def test_falsify_and_replay_of_a_model_theorem(tmp_path):
    code, out, _ = cli("falsify", THM, "--drop", "T>=2", "--out", str(tmp_path), "--json")
    res = conforms("falsify", out)
    assert code == 1 and res["found"] and record_conforms(res["record"])["kind"] == "model"
    code, out, _ = cli("replay", res["record"], "--json")
    assert code == 0 and conforms("replay", out)["reproduces"]


def test_replay_of_a_stored_witness_record():
    code, out, _ = cli("replay", str(ROOT / "counterexamples" / "AM24.EX1_drop-none_seed0.json"), "--json")
    assert code == 0 and conforms("replay", out)["certified"]


# ----------------------------------------------------------------------------- the toy theorem
def test_list_and_show():
    code, out, _ = cli("list", "--json")
    assert code == 0 and THM in [t["id"] for t in conforms("list", out)]
    code, out, _ = cli("show", THM, "--json", "--drop", "T>=2")
    assert code == 0 and conforms("show", out)["dropped"] == ["T>=2"]


def test_check_and_report_of_the_toy():
    code, out, _ = cli("--theorems", TOY, "check", "SWEEP.TOY", "--set", "n=1", "--json")
    assert code == 1 and conforms("check", out)["verdict"] == "refuted"
    code, out, _ = cli("--theorems", TOY, "report", "SWEEP.TOY", "--format", "json")
    rows = conforms("report", out)
    assert code == 0 and [(r["theorem"], r["verdict"], r["certified"]) for r in rows] == [
        ("SWEEP.TOY", "certified", True)]
    assert cli("--theorems", TOY, "report", "SWEEP.TOY", "--json")[1] == out  # --json is --format json
    code, out, _ = cli("--theorems", TOY, "report", "SWEEP.TOY", "--tables", "--json")
    tables = conforms("report-tables", out)
    assert code == 0 and tables[0]["id"] == "SWEEP.TOY" and tables[0]["rows"][0]["verdict"] == "certified"
    with pytest.raises(InputError):  # each array is its own format
        formats.validate("report", tables)


def test_report_written_to_a_folder(tmp_path):
    code, _, _ = cli("--theorems", TOY, "report", "SWEEP.TOY", "--format", "json,md", "--out", str(tmp_path))
    assert code == 0
    formats.validate("report", json.loads((tmp_path / "verdicts.json").read_text()))


# ----------------------------------------------------------------------------- cite and bundles
def test_cite():
    code, out, _ = cli("cite", "AM24.L1", "--no-bundle", "--json")
    res = conforms("cite", out)
    assert code == 0 and res["bibkey"] and res["paper_bibtex"] and res["bundle_sha256"] is None
    code, out, _ = cli("--theorems", TOY, "cite", "SWEEP.TOY", "--no-bundle", "--json")
    assert code == 0 and conforms("cite", out)["paper_bibtex"] is None


def test_bundle_and_verify_bundle(tmp_path):
    path = tmp_path / "l1.bundle.json"
    assert cli("bundle", "AM24.L1", "--out", str(path))[0] == 0
    data = json.loads(path.read_text())
    formats.validate("bundle", data)
    assert data["format"] == bundle.FORMAT and data["records"]  # a bundle that carries a record
    code, out, _ = cli("verify-bundle", str(path), "--json")
    res = conforms("verify-bundle", out)
    assert code == 0 and res["reproduces"] and res["status"] == "ok" and len(res["records"]) == 1
    altered = tmp_path / "altered.json"
    altered.write_text(path.read_text().replace('"seed": 0', '"seed": 1', 1))
    code, out, _ = cli("verify-bundle", str(altered), "--json")
    res = conforms("verify-bundle", out)
    assert code == 1 and res["status"] == "altered" and res["verdict"] is None


def test_falsify_witness_found_and_not_found(tmp_path):
    code, out, _ = cli("--theorems", TOY, "falsify", "SWEEP.TOY", "--set", "n=1", "--out", str(tmp_path),
                       "--json")
    res = conforms("falsify", out)
    assert code == 1 and record_conforms(res["record"])["kind"] == "witness"
    code, out, _ = cli("--theorems", TOY, "falsify", "SWEEP.TOY", "--set", "n=5", "--out", str(tmp_path),
                       "--json")
    assert code == 0 and conforms("falsify", out)["record"] is None


@pytest.mark.parametrize("argv", [["--param", "n", "--values", "1,3,5"], ["--param", "n", "--values", "2,4",
                                                                          "--no-search"],
                                  ["--param", "mode", "--values", "a,b"]])
def test_scan(tmp_path, argv):
    code, out, _ = cli("--theorems", TOY, "scan", "SWEEP.TOY", *argv, "--out", str(tmp_path), "--json")
    res = conforms("scan", out)
    assert code == 0 and len(res["rows"]) == len(argv[3].split(","))
    for path in tmp_path.glob("*.json"):
        record_conforms(str(path))


def test_sweep_summary_and_its_files(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"theorem": "SWEEP.TOY", "grid": {"n": [1, 4], "mode": ["a", "b"]}}))
    code, out, _ = cli("--theorems", TOY, "sweep", str(spec), "--out", str(tmp_path / "out"), "--json")
    assert code == 0 and conforms("sweep", out)["threshold"] is not None
    formats.validate("sweep-manifest", json.loads((tmp_path / "out" / "sweep.json").read_text()))
    points = sorted((tmp_path / "out" / "points").glob("*.json"))
    assert len(points) == 4
    for path in points:
        formats.validate("sweep-point", json.loads(path.read_text()))
    records = sorted((tmp_path / "out" / "records").glob("*.json"))
    assert records
    for path in records:
        record_conforms(str(path))


UNDEFINED = '''
import sympy as sp

from proofkit.language.params import Param, ParamSpace
from proofkit.language.spec import Computed, PaperRef, Theorem


def holds(p):
    return "certified", "0", "n >= 0"


class Search:
    """A counterexample search the engine cannot evaluate (what it raises for a singular matrix)."""

    def search(self, p):
        return 1 / 0


THEOREM = Theorem(
    id="FORMATS.UNDEFINED", title="an engine that cannot evaluate", paper=PaperRef("proofkit tests", "x"),
    statement=sp.Symbol("n") >= 0, params=ParamSpace((Param("n", int, 1, "n", min=0, max=3),)),
    assumptions=(), claims=(Computed("c", "conclusion", "toy", text="n >= 0", run=holds),),
    falsifier=Search())
'''


def test_inconclusive_engine(tmp_path):
    (tmp_path / "undefined_engine.py").write_text(UNDEFINED)
    code, out, _ = cli("--theorems", str(tmp_path), "falsify", "FORMATS.UNDEFINED", "--out",
                       str(tmp_path / "o"), "--json")
    assert code == 3 and conforms("inconclusive", out)["verdict"] == "inconclusive"


# ----------------------------------------------------------------------------- C-RASP and bench
def test_crasp_info():
    code, out, _ = cli("crasp", "info", MAJORITY, "--json")
    res = conforms("crasp-info", out)
    assert code == 0 and res["fragment"] == "[]" and res["statements"][-1]["name"] == res["output"]


def test_crasp_eval_check_rows():
    code, out, _ = cli("crasp", "eval", MAJORITY, "--string", "aab", "--json")
    assert code == 0 and conforms("crasp-eval", out)["accepts"] is True
    code, out, _ = cli("crasp", "check", MAJORITY, "--against", "library:MAJORITY", "--max-len", "4",
                       "--json")
    assert code == 0 and conforms("crasp-check", out)["agrees"]
    code, out, _ = cli("crasp", "rows", MAJORITY, "--N", "3", "--json")
    assert code == 0 and conforms("crasp-rows", out)["within_bound"]


def test_crasp_check_against_a_dfa_file(tmp_path):
    dfa = LIBRARY["Tomita1"].to_dict()
    formats.validate("dfa", dfa)
    path = tmp_path / "tomita1.json"
    path.write_text(json.dumps(dfa))
    program = str(ROOT / "theorems" / "hyb24" / "programs" / "tomita1.crasp")
    code, out, _ = cli("crasp", "check", program, "--against", str(path), "--max-len", "6", "--json")
    assert code == 0 and conforms("crasp-check", out)["agrees"]


def test_crasp_compile_and_its_weights(tmp_path):
    weights = tmp_path / "w.json"
    code, out, _ = cli("crasp", "compile", MAJORITY, "--check-len", "3", "--out", str(weights), "--json")
    assert code == 0 and conforms("crasp-compile", out)["weights"] == str(weights)
    text = weights.read_text()
    formats.validate("limit-weights", json.loads(text))
    assert Network.from_json(text).to_json() == text


def test_bench(tmp_path):
    code, out, _ = cli("bench", "--quick", "--only", "crasp", "--no-save", "--json")
    assert code == 0 and conforms("bench", out)["sections_run"] == ["crasp"]
