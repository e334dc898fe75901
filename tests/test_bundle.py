"""Evidence bundles (issue 15): ``proofkit bundle ID --out FILE`` is byte-stable and hashed over its
canonical form; ``proofkit verify-bundle FILE`` re-checks it claim by claim and replays its records, says
when it was altered, when a verdict or a record does not reproduce, when the theorem is not registered,
and reports a different environment without failing."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest

from proofkit import cli, registry
from proofkit.publish import bundle, env
from proofkit.testing import run_cli

ROOT = Path(__file__).resolve().parents[1]
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
    return bundle.build(registry.get(CHEAP), records_folder=ROOT / "counterexamples")


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


def test_verify_reproduces_every_verdict_and_record(run, tmp_path, built):
    path = _write(tmp_path / "b.json", dict(built), rehash=False)
    code, out, err = run("verify-bundle", str(path))
    assert code == 0, err + out
    assert "sha256 ok" in out and "every verdict and record reproduces" in out
    assert out.count("[reproduces]") == 1 + len(built["verdict"]["claims"]) + len(built["records"])
    assert f"re-run: proofkit check {CHEAP} --seed 0 --dps 60" in out
    code, out, _ = run("verify-bundle", str(path), "--json")
    assert code == 0 and json.loads(out)["reproduces"] is True


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
    assert code == 1 and "parameters differ" in out and "region: disc_with_segment in the bundle" in out
    data = json.loads(bundle.dumps(built))
    data["records"][0]["record"]["witness"]["anchor"] = "2,0"  # the record's own hash no longer matches
    code, out, _ = run("verify-bundle", str(_write(tmp_path / "r.json", data)))
    assert code == 1 and f"[DIFFERS] record {data['records'][0]['file']}: does not replay" in out


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
    ('{"format": "proofkit-bundle/1"}', "bundle fields"),
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
