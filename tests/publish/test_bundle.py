"""Evidence bundles (issues 15, 22): ``proofkit bundle ID --out FILE`` is byte-stable and hashed over its
canonical form; ``proofkit verify-bundle FILE`` re-derives every field and compares, replays its records
and runs the kernel on every certificate. One test per forgery class (each a copy of one bundle, edited
and re-hashed, so the hash alone cannot catch it): statement, title or reference; BibTeX; a claim's
statement, how-text or residual; the record list emptied; a duplicate claim; a record name that would
forge a line; a stale bundle's figures; a user's changed true model; duplicate records; and the
``--max-work`` refusal. Also: altered, unregistered, environment differences (not failures)."""

from __future__ import annotations

import copy
import hashlib
import json
import math
from fractions import Fraction
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest

from proofkit.interface import cli
from proofkit.interface.testing import run_cli
from proofkit.language import registry
from proofkit.publish import bundle, compare, env
from proofkit.publish import verify as verifying
from proofkit.storage import formats

ROOT = Path(__file__).resolve().parents[2]
#: a cheap theorem (exact sympy steps, well under a second) with one stored record
CHEAP = "AM24.L1"


@pytest.fixture
def run(capsys, monkeypatch):
    """The command line with the publish subcommands registered (once, whether or not cli lists them)."""
    if "proofkit.publish.cli" not in cli.COMMAND_MODULES:
        monkeypatch.setattr(cli, "COMMAND_MODULES", (*cli.COMMAND_MODULES, "proofkit.publish.cli"))
    return lambda *argv: run_cli(capsys, *argv)


@pytest.fixture(scope="module")
def built():
    """One bundle of the cheap theorem per module; each forgery test edits a deep copy."""
    made = bundle.build(registry.get(CHEAP), records_folder=ROOT / "counterexamples")
    return json.loads(bundle.dumps(made))


def _write(path: Path, data: dict, rehash: bool = True) -> Path:
    if rehash:
        data["sha256"] = bundle.digest(data)
    path.write_text(bundle.dumps(data), encoding="utf-8")
    return path


def test_bundle_holds_spec_inputs_verdict_records_environment(built):
    assert built["format"] == bundle.FORMAT and built["theorem"]["id"] == CHEAP
    assert built["theorem"]["claims"] and built["theorem"]["reference"]["bibkey"] == "ahuja2024provable"
    assert built["citation"]["bibtex"].startswith("@article{ahuja2024provable,")
    assert built["check"] == {"overrides": {}, "params": {"region": "unit_disc"}, "seed": 0, "dps": 60}
    assert built["verdict"]["id"] == CHEAP
    assert len(built["verdict"]["claims"]) == len(built["theorem"]["claims"])
    names = sorted(p.name for p in (ROOT / "counterexamples").glob(f"{CHEAP}_*.json"))
    assert [r["file"] for r in built["records"]] == names and names
    assert built["records"][0]["record"] == json.loads((ROOT / "counterexamples" / names[0]).read_text())
    assert set(built["environment"]) == {"proofkit", "git_commit", "git_dirty", "python", *env.PACKAGES}


def test_verdict_json_has_no_timing_fields(built):
    text = json.dumps(built["verdict"])
    assert not any(f'"{k}"' in text for k in bundle.TIMING_KEYS)


def test_hash_is_over_the_canonical_form_without_the_hash(built):
    body = {k: v for k, v in built.items() if k != "sha256"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    assert built["sha256"] == hashlib.sha256(canonical).hexdigest() == bundle.digest(built)
    assert bundle.validate(json.loads(bundle.dumps(built))) == built


def test_bundles_are_byte_identical_across_runs(run, tmp_path, built):
    files = [tmp_path / "a.json", tmp_path / "b.json"]
    for f in files:
        code, out, err = run("bundle", CHEAP, "--out", str(f))
        assert code == 0, err
        assert f"sha256 {built['sha256']}" in out
    assert files[0].read_bytes() == files[1].read_bytes() == bundle.dumps(built).encode("utf-8")


def test_verify_reproduces_every_field_verdict_and_record(run, tmp_path, built):
    path = _write(tmp_path / "b.json", dict(built), rehash=False)
    code, out, err = run("verify-bundle", str(path))
    assert code == 0, err + out
    assert "sha256 ok" in out and "every field, verdict and record reproduces; certificates:" in out
    parts = ("theorem specification", "citation", "parameters", "pins", "record set")
    assert all(f"[reproduces] {p}:" in out for p in parts) and "[DIFFERS]" not in out
    claims, records = len(built["verdict"]["claims"]), len(built["records"])
    assert out.count("[reproduces]") == len(parts) + 1 + claims + records
    sha = built["pins"]["theorem_file"]["sha256"]
    assert f"pins: theorem file am24/l1_lemma.py (sha256 {sha[:16]}" in out
    assert f"kernel [checked] record {built['records'][0]['file']}" in out  # the kernel re-checked it
    assert f"re-run: proofkit check {CHEAP} --seed 0 --dps 60" in out
    code, out, _ = run("verify-bundle", str(path), "--json")
    res = json.loads(out)
    formats.validate("verify-bundle", res)
    assert code == 0 and res["reproduces"] is True and res["status"] == "ok"
    assert [k["status"] for k in res["kernel"]] == ["checked"]


def test_bundle_pins_theorem_file_version_and_true_model(built):
    source = registry.where(CHEAP)[0]
    assert built["pins"] == {"proofkit": env.environment()["proofkit"], "true_params": None, "theorem_file": {
        "path": "am24/l1_lemma.py", "sha256": hashlib.sha256(source.read_bytes()).hexdigest()}}
    assert bundle.exact_text([1.5, 2, Fraction(1, 3), mp.mpf("0.25"), np.float64(0.1), ("1/7",)]) == \
        ["1.5", "2", "1/3", "0.25", "0.1", ["1/7"]]


def _forge(run, tmp_path, built, edit):
    """Verify a copy of the bundle edited by ``edit`` and re-hashed: (exit code, output)."""
    data = copy.deepcopy(built)
    edit(data)
    code, out, err = run("verify-bundle", str(_write(tmp_path / "forged.json", data)))
    assert err == "", err
    return code, out


def _claim(data: dict, verdict: str) -> dict:
    return next(c for c in data["verdict"]["claims"] if c["verdict"] == verdict)


@pytest.mark.parametrize("key, value, field", [
    ("statement", "Implies(True, True)", "theorem.statement"),
    ("title", "A stronger lemma", "theorem.title"),
    ("reference", {"paper": "Another paper", "section": "Thm 1", "equation": "",
                   "bibkey": "ahuja2024provable"}, "theorem.reference.paper"),
])
def test_forged_statement_title_reference_do_not_reproduce(run, tmp_path, built, key, value, field):
    code, out = _forge(run, tmp_path, built, lambda d: d["theorem"].update({key: value}))
    assert code == 1 and "[DIFFERS] theorem specification:" in out and f"      {field}: " in out
    assert "does NOT reproduce: 1 of" in out and "theorem specification" in out.splitlines()[-2]


def test_forged_bibtex_does_not_reproduce(run, tmp_path, built):
    fake = "@article{ahuja2024provable,\n  title = {A result nobody proved},\n}"
    code, out = _forge(run, tmp_path, built, lambda d: d["citation"].update(bibtex=fake))
    assert code == 1 and "[DIFFERS] citation:" in out and "citation.bibtex: " in out
    assert "A result nobody proved" in out and "\n  title" not in out  # shown escaped, on one line


@pytest.mark.parametrize("key, value", [
    ("statement", "d = 0 everywhere"),
    ("how", "exact: sympy simplifies the residual to zero; hardmax from N = 16"),
    ("residual", "0"),
])
def test_a_rewritten_claim_field_does_not_reproduce(run, tmp_path, built, key, value):
    name = _claim(built, "refuted")["name"]
    code, out = _forge(run, tmp_path, built, lambda d: _claim(d, "refuted").update({key: value}))
    assert code == 1 and f"[DIFFERS] {name}: refuted\n      {key}: " in out
    assert f"claim {name}" in out.splitlines()[-2]


def test_an_emptied_record_list_does_not_reproduce(run, tmp_path, built):
    code, out = _forge(run, tmp_path, built, lambda d: d["records"].clear())
    assert code == 1 and "[DIFFERS] record set:" in out
    assert f"records: {built['records'][0]['file']} of {CHEAP} in " in out
    assert "missing from the bundle" in out


def test_a_duplicate_claim_marked_certified_first_is_forged(run, tmp_path, built):
    def edit(d):
        d["verdict"]["claims"].insert(0, dict(_claim(d, "refuted"), verdict="certified"))
    code, out = _forge(run, tmp_path, built, edit)
    name = _claim(built, "refuted")["name"]
    assert code == 1 and out.splitlines()[0].endswith(
        f'forged.json: does NOT reproduce: FORGED: verdict.claims: the claim name "{name}" appears 2 times '
        f"(entries 0, {len(built['verdict']['claims'])})")
    assert "nothing was re-run" in out and "[reproduces]" not in out


def test_a_record_name_is_printed_escaped(run, tmp_path, built):
    def edit(d):
        d["records"][0]["file"] = "x\n[reproduces] every claim"
    code, out = _forge(run, tmp_path, built, edit)
    assert code == 1 and "x\\n[reproduces] every claim" in out
    assert not any(line.lstrip().startswith("[reproduces] every claim") for line in out.splitlines())
    assert "records: x\\n[reproduces] every claim is not a record of" in out


def test_a_stale_bundle_with_other_figures_does_not_reproduce(run, tmp_path, built):
    def edit(d):
        claim = _claim(d, "refuted")
        claim["how"] = claim["how"].replace("exact value 1/4", "exact value 1/8")
        d["environment"]["git_commit"] = "0" * 40  # made by older code
    assert "exact value 1/4" in _claim(built, "refuted")["how"]
    code, out = _forge(run, tmp_path, built, edit)
    assert code == 1 and 'zero, exact value 1/8 (rational arithmetic)" in the bundle, ' in out
    assert 'zero, exact value 1/4 (rational arithmetic)" now' in out and "git_commit: " + "0" * 40 in out


def test_duplicate_records_are_refused(run, tmp_path, built):
    code, out = _forge(run, tmp_path, built, lambda d: d["records"].append(copy.deepcopy(d["records"][0])))
    assert code == 1 and "FORGED: records: the file " in out and "appears 2 times (entries 0, 1)" in out
    assert "FORGED: records: the same record appears 2 times (entries 0, 1: " in out
    assert "nothing was re-run" in out
    data = copy.deepcopy(built)
    data["records"].append(dict(data["records"][0], file="renamed.json"))  # the same record, another name
    code, out, _ = run("verify-bundle", str(_write(tmp_path / "renamed.json", data)), "--json")
    res = json.loads(out)
    formats.validate("verify-bundle", res)
    assert code == 1 and res["status"] == "forged" and res["reproduces"] is False
    assert res["forged"] == [f'records: the same record appears 2 times (entries 0, 1: '
                             f'"{built["records"][0]["file"]}", "renamed.json")']


def test_a_claim_certificate_goes_to_the_kernel(run, tmp_path, built):
    cert = {"kind": "identity", "lhs": "1", "rhs": "2"}
    code, out = _forge(run, tmp_path, built, lambda d: _claim(d, "certified").update(certificate=cert))
    name = _claim(built, "certified")["name"]
    assert code == 1 and f"kernel [failed] claim {name} certificate (identity): " in out
    assert f"[DIFFERS] {name}: certified\n      certificate: " in out and f"kernel: claim {name}" in out


def test_max_work_refuses_before_running(run, tmp_path, built):
    path = _write(tmp_path / "b.json", copy.deepcopy(built), rehash=False)
    code, out, err = run("verify-bundle", str(path), "--max-work", "1000")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    claims = len(registry.get(CHEAP).claims)
    assert err.startswith("proofkit: bad input: verify-bundle: expected work within the cap of 1000 units; "
                          f"estimated 0 computed claims x 5e+08 + {claims} other claims x 1e+08 + 1 record "
                          f"replays x 5e+08 = {claims * 10**8 + 5 * 10**8:.1e} units")
    assert "raise the cap with --max-work 1e9" in err


def test_a_changed_true_model_does_not_reproduce(run, tmp_path):
    """A user's theorem (docs/examples) bundled, then its true model changed: the pin says so."""
    folder = tmp_path / "mine"
    folder.mkdir()
    source = (ROOT / "docs/examples/my_theorems/mypaper/scalar_recurrence.py").read_text(encoding="utf-8")
    assert 'true_params=lambda p: ["1.5", "0.5", "0.8"]' in source
    (folder / "scalar_recurrence.py").write_text(source, encoding="utf-8")
    path = tmp_path / "my.json"
    code, out, err = run("--theorems", str(folder), "bundle", "MY.T1", "--out", str(path))
    assert code == 0, err
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["pins"]["true_params"] == ["1.5", "0.5", "0.8"]
    assert data["pins"]["theorem_file"]["path"] == "scalar_recurrence.py"
    changed = source.replace('["1.5", "0.5", "0.8"]', '["1.25", "0.5", "0.8"]')
    (folder / "scalar_recurrence.py").write_text(changed, encoding="utf-8")
    code, out, err = run("--theorems", str(folder), "verify-bundle", str(path))
    assert code == 1, err + out
    assert "[DIFFERS] pins:" in out and 'pins.true_params[0]: "1.5" in the bundle, "1.25" now' in out
    assert "pins.theorem_file.sha256: " in out


def test_an_edited_bundle_is_reported_altered(run, tmp_path, built):
    data = json.loads(bundle.dumps(built))
    data["verdict"]["claims"][0]["verdict"] = "refuted"
    code, out, _ = run("verify-bundle", str(_write(tmp_path / "b.json", data, rehash=False)))
    assert code == 1 and "ALTERED" in out and "nothing was re-run" in out


def test_a_verdict_that_does_not_reproduce_fails_naming_the_claim(run, tmp_path, built):
    data = json.loads(bundle.dumps(built))
    claim = data["verdict"]["claims"][0]
    claim["verdict"] = "refuted" if claim["verdict"] != "refuted" else "certified"
    code, out, _ = run("verify-bundle", str(_write(tmp_path / "b.json", data)))
    assert code == 1 and f"[DIFFERS] {claim['name']}: {claim['verdict']} in the bundle" in out
    assert "does NOT reproduce: 1 of" in out


def test_changed_parameters_and_unreplayable_records_fail(run, tmp_path, built):
    data = json.loads(bundle.dumps(built))
    data["check"]["params"]["region"] = "disc_with_segment"
    code, out, _ = run("verify-bundle", str(_write(tmp_path / "p.json", data)))
    assert code == 1 and "[DIFFERS] parameters:" in out
    assert 'check.params.region: "disc_with_segment" in the bundle, "unit_disc" now' in out
    data = json.loads(bundle.dumps(built))
    data["records"][0]["record"]["witness"]["anchor"] = "2,0"  # the record's own hash no longer matches
    code, out, _ = run("verify-bundle", str(_write(tmp_path / "r.json", data)))
    assert code == 1 and f"[DIFFERS] record {data['records'][0]['file']}: does not replay" in out
    assert "[DIFFERS] record set:" in out and ".witness.anchor: " in out


def test_environment_differences_are_reported_not_failures(run, tmp_path, built):
    data = json.loads(bundle.dumps(built))
    data["environment"]["numpy"] = "0.0.1"
    code, out, _ = run("verify-bundle", str(_write(tmp_path / "b.json", data)))
    assert code == 0 and f"numpy: 0.0.1 -> {env.environment()['numpy']}" in out


def test_a_theorem_not_registered_here_exits_3(run, tmp_path, built):
    data = json.loads(bundle.dumps(built).replace(f'"{CHEAP}', '"ELSEWHERE.T1'))
    assert data["theorem"]["id"] == "ELSEWHERE.T1" == data["records"][0]["record"]["theorem"]
    code, out, _ = run("verify-bundle", str(_write(tmp_path / "b.json", data)))
    assert code == 3 and "not registered here" in out


@pytest.mark.parametrize("content, field", [
    ("not json", "bundle"),
    ("[]", "bundle"),
    ('{"format": "proofkit-bundle/2"}', "bundle fields"),
])
def test_bad_bundles_are_one_line_exit_2(run, tmp_path, content, field):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run("verify-bundle", str(path))
    assert code == 2 and out == "" and err.startswith(f"proofkit: bad input: {field}")
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("edit, field", [
    (lambda d: d.update(format="proofkit-bundle/0"), "bundle format"),
    (lambda d: d.update(sha256="XYZ"), "bundle sha256"),
    (lambda d: d["check"].update(dps=10), "bundle check.dps"),
    (lambda d: d["verdict"]["claims"][0].update(verdict="maybe"), "bundle verdict.claims[0]"),
    (lambda d: d["records"][0].update(extra=1), "bundle records[0]"),
    (lambda d: d["pins"]["theorem_file"].update(sha256="XYZ"), "bundle pins.theorem_file"),
    (lambda d: d["pins"].pop("true_params"), "bundle pins"),
    (lambda d: d.update(extra=1), "bundle fields"),
])
def test_malformed_fields_are_named(run, tmp_path, built, edit, field):
    data = json.loads(bundle.dumps(built))
    edit(data)
    path = tmp_path / "b.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run("verify-bundle", str(path))
    assert code == 2 and err.startswith(f"proofkit: bad input: {field}")


def test_bundle_bad_input(run, tmp_path):
    code, out, err = run("bundle", "NOPE.T1")
    assert code == 2 and out == "" and "NOPE.T1" in err
    code, _, err = run("bundle", CHEAP, "--out", str(tmp_path / "missing" / "b.json"))
    assert code == 2 and err.startswith("proofkit: bad input: --out")
    code, _, err = run("bundle", CHEAP, "--set", "nosuchparam=1")
    assert code == 2 and err.startswith("proofkit: bad input: --set") and "nosuchparam" in err


def test_jsonable_makes_plain_reproducible_json():
    data = {"a": (1, 2), "big": 10**50, "nan": math.nan, "mp": mp.mpf("0.5"), "np": np.float64(1.5),
            "arr": np.arange(2), "elapsed_s": 3.0, "nested": {"timings_s": {"x": 1}, "keep": True}}
    out = bundle.jsonable(data, bundle.TIMING_KEYS)
    assert out == {"a": [1, 2], "big": str(10**50), "nan": "nan", "mp": "0.5", "np": 1.5, "arr": [0, 1],
                   "nested": {"keep": True}}
    bundle.canonical(out)  # serializable without NaN


@pytest.mark.slow
def test_am24_t4_bundle_is_byte_stable_and_reproduces(run, tmp_path):
    """A theorem with a fit, ball certificates, an erratum and nine records (about 20 s)."""
    first = bundle.build(registry.get("AM24.T4"), records_folder=ROOT / "counterexamples")
    second = bundle.build(registry.get("AM24.T4"), records_folder=ROOT / "counterexamples")
    assert bundle.dumps(first) == bundle.dumps(second) and len(first["records"]) >= 9
    code, out, err = run("verify-bundle", str(_write(tmp_path / "t4.json", first, rehash=False)))
    assert code == 0, out + err


def test_names_are_escaped_and_differences_name_the_json_path():
    assert compare.name("a\nb\x1bc\u202ed") == "a\\nb\\x1bc\\u202ed"
    diffs = compare.differences({"how": "N = 4096, exact", "n": 1, "xs": [1]},
                                {"how": "N = 16, exact", "n": 1.0, "xs": [1, 2]}, "claim")
    assert diffs == ['claim.how: "N = 4096, exact" in the bundle, "N = 16, exact" now',
                     "claim.n: 1 in the bundle, 1.0 now", "claim.xs: 1 entries in the bundle, 2 now"]


def test_without_a_records_folder_the_set_is_said_not_rederived(built):
    v = verifying.verify(copy.deepcopy(built), "b.json", records_folder=None)
    part = next(p for p in v.parts if p.name == "record set")
    assert v.reproduces and not part.rederived
    assert "[not re-derived] record set: 1 record(s) carried; no records folder here" in v.text()
