"""The independent certificate checker (proofkit/kernel/, docs/trust.md): it imports nothing else of
proofkit, re-checks every stored record's structured certificate, rejects hand-corrupted copies of each
kind (the SHA-256 re-stamped, so the kernel's arithmetic is what rejects them), and its command's exit
codes, escaping and bundle handling."""

from __future__ import annotations

import ast
import copy
import json
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from proofkit import record
from proofkit.cli import main
from proofkit.errors import InputError
from proofkit.kernel import (
    CHECKED,
    FAILED,
    NONE,
    NOT_RECHECKED,
    check_bundle,
    check_certificate,
    check_record,
)

ROOT = Path(__file__).resolve().parents[1]
KERNEL, STORED = ROOT / "proofkit" / "kernel", ROOT / "counterexamples"
#: one stored record per certificate kind (and the two records without a re-checkable certificate)
RECORDS = {
    "rational-learner": "AM24.T4_drop-A5.A-invertible_true_A=singular_dps60_seed0.json",
    "krawczyk": "AM24.T4_drop-A5.square_n=1_dps60_seed0.json",
    "ball-bound": "AM24.T4_drop-A5.injective_activation=relu_true_instance=nonpositive_dps60_seed0.json",
    "identity": "AM24.T5_drop-A6.square_n=1_dps60_seed0.json",
    "pooled-exact": "AM24.T1_drop-A1.injective_activation=relu_family=hinge_learned_dim=1_m=1_n=1_"
                    "support=iid_dps60_seed0.json",
    "pairwise": "AM24.T2_drop-ALL_learned_dim=1_m=1_n=1_supervision=ONLY_dps60_seed0.json",
    "enumeration": "R24.T41_drop-v-generalization_N_drop=6_variant=v-small_seed0.json",
    "no-data": "HYB24.T9_drop-exact_variant=float64-naive_seed0.json",
    "uncertified": "AM24.T1_drop-A1.bias-free_T=1_learned_dim=1_m=1_readout_bias=True_dps60_seed0.json",
}


def stored(key: str) -> dict:
    return json.loads((STORED / RECORDS[key]).read_text())


def restamp(rec: dict) -> dict:
    """The record with its SHA-256 recomputed (damage detection is not what these tests exercise)."""
    rec["sha256"] = record.digest(rec)
    return rec


def only(results: list) -> object:
    assert len(results) == 1, results
    return results[0]


# ------------------------------------------------------------------------------------------ independence
def _imports(path: Path) -> list[tuple[str, int]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.module or "", node.level))
    return out


def test_the_kernel_imports_only_the_standard_library_and_python_flint():
    allowed = set(sys.stdlib_module_names) | {"flint"}
    bad = []
    for path in sorted(KERNEL.glob("*.py")):
        for name, level in _imports(path):
            top = name.split(".")[0]
            if level > 1 or (level == 0 and name.startswith("proofkit") and
                             not name.startswith("proofkit.kernel")):
                bad.append((path.name, "." * level + name, "proofkit outside the kernel"))
            elif level == 0 and (top in ("numpy", "scipy", "mpmath", "sympy") or top not in allowed):
                bad.append((path.name, name, "not the standard library or python-flint"))
    assert bad == []
    assert sum(len(p.read_text().splitlines()) for p in KERNEL.glob("*.py")) < 1600


def test_the_import_check_catches_a_forbidden_import(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import numpy\nfrom .. import record\nfrom proofkit.fit import fit\n"
                     "from . import core\n")
    assert _imports(probe) == [("numpy", 0), ("", 2), ("proofkit.fit", 0), ("", 1)]


# ------------------------------------------------------------------------------------ the stored records
def test_every_stored_certified_record_with_data_is_re_checked():
    by_kind, statuses = Counter(), Counter()
    for path in sorted(STORED.glob("*.json")):
        rec = json.loads(path.read_text())
        res = only(check_record(rec, path.name))
        statuses[res.status] += 1
        if "data" in rec["certificate"]:
            assert res.status == CHECKED, res.line()
            by_kind[res.kind] += 1
        else:
            assert res.status == (NOT_RECHECKED if rec["certificate"]["certified"] else NONE), res.line()
    assert statuses[FAILED] == 0
    # coverage (docs/trust.md): a writer that stops emitting data shows up here
    assert by_kind == {"rational-learner": 5, "krawczyk": 3, "ball-bound": 1, "identity": 4,
                       "pooled-exact": 8, "enumeration": 8}
    assert statuses[CHECKED] == 29 and statuses[NONE] == 1 and statuses[NOT_RECHECKED] == 20


# ------------------------------------------------------------------------------------ corrupted copies
def _data(rec: dict) -> dict:
    return rec["certificate"]["data"]


def _bump_digit(text: str) -> str:
    """The first non-zero digit of a number string changed (1 -> 2, ..., 9 -> 8)."""
    for i, ch in enumerate(text):
        if ch in "123456789":
            return text[:i] + ("8" if ch == "9" else str(int(ch) + 1)) + text[i + 1:]
    return text.replace("0", "1", 1)


def _flip(text: str) -> str:
    return text[1:] if text.startswith("-") else "-" + text


def _shift_free(d: dict, by: str) -> None:
    """Move the box centre's first free coordinate (flat order A, Lam, B) by ``by`` (far beyond the box)."""
    cells = [(name, r, c) for name in ("A", "Lam", "B") for r, row in enumerate(d["learner"][name])
             for c in range(len(row))]
    name, r, c = cells[d["free"][0]]
    d["learner"][name][r][c] = str(Fraction(d["learner"][name][r][c]) + Fraction(by))


CORRUPTIONS = {
    # (kind, what is changed): (record key, edit of the certificate data, field the failure names)
    "learner parameter digit": ("rational-learner", lambda d: d["learner"]["B"][0].__setitem__(
        0, _bump_digit(d["learner"]["B"][0][0])), "certificate.data.learner"),
    "rational gap sign": ("rational-learner", lambda d: d.__setitem__("gap", _flip(d["gap"])),
                          "certificate.data.gap"),
    "krawczyk box shrunk": ("krawczyk", lambda d: d.__setitem__("radius", "1e-100"),
                            "certificate.data.radius"),
    "krawczyk box shifted": ("krawczyk", lambda d: _shift_free(d, "1e-40"), "certificate.data.radius"),
    "krawczyk gap raised": ("krawczyk", lambda d: d.__setitem__("gap_lower", "100"),
                            "certificate.data.gap_lower"),
    "dead readout bound": ("ball-bound", lambda d: d["logit_upper"].__setitem__("learner", "-1"),
                           "certificate.data.logit_upper.learner"),
    "ball gap raised": ("ball-bound", lambda d: d.__setitem__("gap_lower", "2"),
                        "certificate.data.gap_lower"),
    "identity parameter": ("identity", lambda d: d["learner"]["Lam"][1].__setitem__(
        0, _bump_digit(d["learner"]["Lam"][1][0])), "certificate.data.learner"),
    "identity gap ball": ("identity", lambda d: d.__setitem__("gap_ball", [_flip(d["gap_ball"][1]),
                                                                           _flip(d["gap_ball"][0])]),
                          "certificate.data.gap_ball"),
    "hinge weight digit": ("pooled-exact", lambda d: d["learner"]["W"][0].__setitem__(
        1, _bump_digit(d["learner"]["W"][0][1])), "certificate.data.learner"),
    "pooled gap sign": ("pooled-exact", lambda d: d.__setitem__("gap", _flip(d["gap"])),
                        "certificate.data.gap"),
    "pairwise weight digit": ("pairwise", lambda d: d["learner"]["W"][0].__setitem__(
        1, _bump_digit(d["learner"]["W"][0][1])), "certificate.data.learner"),
    "enumeration mass raised": ("enumeration", lambda d: d.__setitem__("fail_lower", "0.0967"),
                                "certificate.data.fail_lower"),
    "enumeration count": ("enumeration", lambda d: d.__setitem__("N", d["N"] + 1), "certificate.data.word"),
    "enumeration head": ("enumeration", lambda d: d.__setitem__("v", _bump_digit(d["v"])),
                         "certificate.data.fail_lower"),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_a_corrupted_certificate_is_rejected_by_the_arithmetic(name):
    key, edit, field = CORRUPTIONS[name]
    rec = stored(key)
    assert only(check_record(rec)).status == CHECKED  # the original passes
    edit(_data(rec))
    res = check_certificate(_data(rec))  # the data alone, no record to tie it to
    assert res.status == FAILED and res.field == field, res.line()
    assert only(check_record(restamp(rec), "x.json")).status == FAILED


@pytest.mark.parametrize("change,field", [
    (lambda r: r["learned_params"].__setitem__(0, "2.5"), "certificate.data.learner"),
    (lambda r: r["true_params"].__setitem__(0, "2.5"), "certificate.data.truth"),
    (lambda r: r["witness"][0].__setitem__(0, "0.5"), "certificate.data.witness"),
    (lambda r: r.__setitem__("test_discrepancy", _bump_digit(r["test_discrepancy"])), "test_discrepancy"),
    (lambda r: r["params"].__setitem__("activation", "tanh"), "certificate.data.readout"),
])
def test_a_certificate_about_another_model_is_rejected(change, field):
    """The data must be about this record: its learner, truth, witness, discrepancy and readout."""
    rec = stored("rational-learner")
    change(rec)
    res = only(check_record(restamp(rec)))
    assert res.status == FAILED and res.field == field, res.line()


def test_a_modified_record_and_odd_certificates_are_reported():
    rec = stored("rational-learner")
    rec["search"] = "edited"
    assert [r.field for r in check_record(rec) if r.status == FAILED] == ["sha256"]
    unknown = check_certificate({"kind": "oracle", "says": "yes"})
    assert unknown.status == NOT_RECHECKED and "not re-checkable by the kernel" in unknown.detail
    assert check_certificate({"no": "kind"}).status == FAILED
    assert check_certificate({"kind": "rational-learner", "gap": 1.5}).status == FAILED  # fields, floats
    unc = stored("uncertified")
    unc["certificate"]["data"] = _data(stored("rational-learner"))
    assert FAILED in {r.status for r in check_record(restamp(unc))}


# ------------------------------------------------------------------------------- record format, replay
def test_the_record_loader_refuses_floats_in_certificate_data(tmp_path):
    rec = stored("rational-learner")
    _data(rec)["gap"] = 7.6
    path = tmp_path / "r.json"
    path.write_text(record.canonical(restamp(rec)))
    with pytest.raises(InputError) as exc:
        record.load(path)
    assert exc.value.field == "certificate.data.gap"
    _data(rec)["gap"] = "7.6"
    del _data(rec)["kind"]
    path.write_text(record.canonical(restamp(rec)))
    with pytest.raises(InputError) as exc:
        record.load(path)
    assert exc.value.field == "certificate.data"


def test_replay_recomputes_the_certificate_data(tmp_path):
    from proofkit.replay import replay

    rec = stored("rational-learner")
    path = tmp_path / "r.json"
    path.write_text(record.canonical(rec))
    assert replay(path).certified
    _data(rec)["gap"] = _bump_digit(_data(rec)["gap"])
    path.write_text(record.canonical(restamp(rec)))
    with pytest.raises(InputError) as exc:
        replay(path)
    assert exc.value.field == "certificate.data.gap"


# ----------------------------------------------------------------------------------------- the command
def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["kernel", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_command_exit_codes(capsys, tmp_path):
    good = [str(STORED / RECORDS[k]) for k in ("rational-learner", "krawczyk", "enumeration")]
    code, out, _ = run(capsys, *good)
    assert code == 0 and out.count("[checked]") == 3 and "3 re-checked" in out
    code, out, _ = run(capsys, *good, str(STORED / RECORDS["no-data"]))
    assert code == 3 and "not re-checkable by the kernel" in out
    rec = stored("rational-learner")
    _data(rec)["gap"] = _flip(_data(rec)["gap"])
    bad = tmp_path / "bad.json"
    bad.write_text(record.canonical(restamp(rec)))
    code, _, err = run(capsys, *good, str(bad))
    assert code == 1 and "bad.json certificate.data.gap" in err and "the certificate says -" in err
    (tmp_path / "not.json").write_text("{")
    code, out, err = run(capsys, str(tmp_path / "not.json"))
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "not JSON" in err
    (tmp_path / "other.json").write_text('{"format": "something/1"}')
    assert run(capsys, str(tmp_path / "other.json"))[0] == 2


def test_bundles_every_record_and_claim_certificate_with_names_escaped(capsys, tmp_path):
    evil = "x\n[checked] every claim\x1b[2J"
    rec = stored("krawczyk")
    bundle = {"format": "proofkit-bundle/2",
              "records": [{"file": evil, "record": rec}, {"file": "b.json", "record": stored("no-data")}],
              "verdict": {"claims": [{"name": evil, "certificate": _data(stored("identity"))},
                                     {"name": "plain", "certificate": None}]}}
    results = check_bundle(bundle, "bundle.json")
    assert [r.status for r in results] == [CHECKED, NOT_RECHECKED, CHECKED]
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    code, out, _ = run(capsys, str(path))
    assert code == 3
    assert "\x1b" not in out and "x\\n[checked] every claim\\x1b[2J" in out
    assert all(line.startswith(("[", "kernel: ")) for line in out.splitlines())
    bundle["verdict"]["claims"][0]["certificate"] = copy.deepcopy(_data(stored("identity")))
    bundle["verdict"]["claims"][0]["certificate"]["gap_ball"] = ["-1", "1"]
    path.write_text(json.dumps(bundle))
    code, _, err = run(capsys, str(path))
    assert code == 1 and "verdict.claims[0].certificate.gap_ball" in err
