"""Counterexample records: written by falsify, byte-reproducible, validated field by field on load, and
replayed (reproduces / certified). Tampered records are rejected naming the field, or do not reproduce."""

from __future__ import annotations

import copy
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest

from proofkit.engine.falsify import falsify
from proofkit.engine.fit import warm_start
from proofkit.engine.modelsearch import max_gap
from proofkit.engine.problem import build_problem
from proofkit.engine.replay import replay
from proofkit.errors import InputError
from proofkit.language import registry
from proofkit.numerics.backend import MP, mp_abs_max, mp_str
from proofkit.storage import record
from tests.storage.record_helpers import THM, _change_digit, _load_error, _replay_error, _write


# ----------------------------------------------------------------------------- the record itself
def test_falsify_result_and_record_content(made, rec):
    assert str(made.verdict) == "refuted" and made.certified
    assert made.dropped == ["T>=2"] and made.params["T"] == 1
    name = Path(made.record_path).name
    assert name == record.filename(rec)
    assert name.startswith("AM24.T4") and name.endswith("seed0.json")
    assert not set(name) & set("/\\<>:*? ")
    assert rec == made.record
    assert rec["format"] == record.FORMAT and rec["kind"] == "model"
    assert rec["theorem"] == THM and rec["dropped"] == ["T>=2"] and rec["params"]["T"] == 1
    assert rec["dps"] == 60 and rec["seed"] == 0
    assert rec["sha256"] == record.digest(rec)
    assert len(rec["learned_params"]) == 12 and len(rec["true_params"]) == 12
    assert rec["witness_length"] == len(rec["witness"]) >= 2  # longer than T = 1
    assert mp.mpf(rec["test_discrepancy"]) >= mp.mpf("1e-8")
    assert mp.mpf(rec["train_residual"]) <= mp.mpf("1e-40")
    assert rec["certificate"]["certified"] is True
    # the file is the canonical serialisation (sorted keys, trailing newline)
    assert Path(made.record_path).read_text() == record.canonical(rec)


def test_record_learned_model_fits_training_and_differs_on_witness(rec):
    thm = registry.get(THM)
    with mp.workdps(60):
        prob = build_problem(thm, thm.params.resolve(rec["params"]), seed=rec["seed"], dps=60)
        theta = MP.asarray(np.asarray(rec["learned_params"], dtype=object))
        assert mp_abs_max(prob.residual(theta, MP)) <= mp.mpf("1e-40")
        X = np.array([[float(v) for v in row] for row in rec["witness"]])
        gap = max_gap(prob, theta, [X[None]])
        assert abs(gap - mp.mpf(rec["test_discrepancy"])) < mp.mpf("1e-18")


def test_load_roundtrip(made, rec):
    assert record.load(made.record_path) == rec


def test_replay_reproduces_and_is_certified(made):
    res = replay(made.record_path)
    assert res.reproduces and res.certified
    assert "certified" in res.how and "60 digits" in res.how
    d = res.as_dict()
    assert d["reproduces"] is True and d["certified"] is True and d["record"] == made.record_path


def _disturb_heap(seed: int) -> list:
    rng = np.random.default_rng(seed)
    return [np.empty(int(size)) for size in rng.integers(1, 4000, 30)]


def test_falsify_is_byte_reproducible(tmp_path, made):
    a = Path(made.record_path).read_bytes()
    for i in range(2):
        junk = _disturb_heap(i)
        res = falsify(registry.get(THM), ["T>=2"], shrink=False, out_dir=tmp_path / f"again{i}")
        del junk
        assert Path(res.record_path).name == Path(made.record_path).name
        assert Path(res.record_path).read_bytes() == a


def test_warm_start_is_deterministic():
    thm = registry.get(THM)
    prob = build_problem(thm, thm.params.resolve({"T": 1}), seed=0, dps=60)
    theta0 = prob.learned.init(np.random.default_rng(0), 0.5)
    seen = set()
    for i in range(20):
        junk = _disturb_heap(i)
        theta, _ = warm_start(prob, theta0.copy())
        del junk
        seen.add(theta.tobytes())
    assert len(seen) == 1, f"{len(seen)} different results from 20 identical calls"


def test_record_serialisation_is_canonical(rec):
    shuffled = dict(reversed(list(rec.items())))
    assert record.canonical(shuffled) == record.canonical(rec)
    assert record.digest(shuffled) == rec["sha256"]


def test_digest_covers_content_not_hash(rec):
    h = record.digest(rec)
    assert record.digest(dict(rec, sha256="0" * 64)) == h
    assert record.digest(dict(rec, seed=1)) != h
    assert len(h) == 64 and int(h, 16) >= 0


def test_filename_depends_on_seed_and_variant(rec):
    a = record.filename(rec)
    assert record.filename(dict(rec, seed=3)).endswith("seed3.json")
    assert record.filename(dict(rec, dropped=["ALL"])) != a
    assert not set(record.slug("a b/c>d\\e")) & set(" /\\>")


# ----------------------------------------------------------------------------- tampering


def test_tamper_keep_hash_is_sha256_error(tmp_path, rec):
    rec["learned_params"][5] = _change_digit(rec["learned_params"][5], -1)  # its last digit
    p = _write(tmp_path, rec, rehash=False)
    exc = _load_error(p)
    assert exc.field == "sha256"
    assert _replay_error(p).field == "sha256"


@pytest.mark.parametrize("name", ["witness_length", "learned_params", "dps", "sha256", "theorem",
                                  "test_discrepancy"])
def test_missing_field(tmp_path, rec, name):
    del rec[name]
    exc = _load_error(_write(tmp_path, rec, rehash=name != "sha256"))
    assert exc.field == name
    assert "missing" in exc.expected


@pytest.mark.parametrize("bad", ["abc", "NaN", "nan", "Infinity", "1e999", "", "0x10", "1.0.0"])
def test_non_numeric_learned_param(tmp_path, rec, bad):
    rec["learned_params"][3] = bad
    for rehash in (False, True):
        exc = _load_error(_write(tmp_path, rec, rehash=rehash))
        assert exc.field == "learned_params[3]"


@pytest.mark.parametrize("field,index", [("true_params", 0), ("witness", None),
                                         ("test_discrepancy", None), ("train_residual", None)])
def test_nan_strings_elsewhere(tmp_path, rec, field, index):
    if field == "witness":
        rec["witness"][1][0] = "NaN"
        want = "witness[1][0]"
    elif index is not None:
        rec[field][index] = "NaN"
        want = f"{field}[{index}]"
    else:
        rec[field] = "NaN"
        want = field
    assert _load_error(_write(tmp_path, rec, rehash=True)).field == want


def test_bare_nan_literal_rejected(tmp_path, made):
    text = Path(made.record_path).read_text().replace('"dps": 60', '"dps": NaN')
    assert "NaN" in text
    p = tmp_path / "nan.json"
    p.write_text(text)
    exc = _load_error(p)
    assert exc.field == "record" and "finite" in exc.expected


@pytest.mark.parametrize("field,value,typename", [
    ("dps", "60", "str"), ("dps", 60.0, "float"), ("dps", True, "bool"), ("seed", None, "NoneType"),
    ("learned_params", "1.5", "str"), ("params", [], "list"), ("witness", {}, "dict"),
    ("test_discrepancy", 0.5, "float"),
])
def test_wrong_type(tmp_path, rec, field, value, typename):
    rec[field] = value
    exc = _load_error(_write(tmp_path, rec, rehash=True))
    assert exc.field == field and exc.got == typename


def test_witness_row_not_a_list(tmp_path, rec):
    rec["witness"][0] = "1.0"
    assert _load_error(_write(tmp_path, rec, rehash=True)).field == "witness[0]"


@pytest.mark.parametrize("cut", [1, 10, 200, -3])
def test_truncated_json(tmp_path, made, cut):
    text = Path(made.record_path).read_text()
    p = tmp_path / "trunc.json"
    p.write_text(text[:cut] if cut > 0 else text[:cut - 20])
    exc = _load_error(p)
    assert exc.field == "record" and "valid JSON" in exc.expected


def test_not_an_object_and_not_utf8(tmp_path):
    p = tmp_path / "list.json"
    p.write_text("[1, 2]")
    assert _load_error(p).field == "record"
    q = tmp_path / "bin.json"
    q.write_bytes(b"\xff\xfe\x00{")
    assert _load_error(q).field == "record"


def test_missing_file(tmp_path):
    exc = _load_error(tmp_path / "nope.json")
    assert exc.field == "record"
    assert _replay_error(tmp_path / "nope.json").field == "record"
    assert _load_error(tmp_path).field == "record"  # a directory is not a record


@pytest.mark.parametrize("dps", [10**6, 14, -60, 0])
def test_dps_out_of_range(tmp_path, rec, dps):
    rec["dps"] = dps
    exc = _load_error(_write(tmp_path, rec, rehash=True))
    assert exc.field == "dps" and exc.got == dps


@pytest.mark.parametrize("field,value", [("format", "proofkit-counterexample/2"),
                                         ("kind", "other")])
def test_format_and_kind(tmp_path, rec, field, value):
    rec[field] = value
    assert _load_error(_write(tmp_path, rec, rehash=True)).field == field


def test_rehashed_learned_params_change_is_rejected(tmp_path, rec):
    # the stored training residual no longer describes the stored model (it used to replay as "does
    # not reproduce"; a record whose derived fields disagree is now rejected naming the field)
    old = rec["learned_params"][0]
    rec["learned_params"][0] = _change_digit(old, old.index(".") + 1)  # A[0,0] by ~0.1: no fit
    p = _write(tmp_path, rec, rehash=True)
    assert record.load(p)["learned_params"][0] == rec["learned_params"][0]  # loads fine
    exc = _replay_error(p)
    assert exc.field == "train_residual" and "recomputed value" in exc.expected


def test_rehashed_free_parameter_change_is_rejected(tmp_path, rec):
    # Lam is not seen by training at T = 1, so the fit survives, but the recorded test gap is off
    rec["learned_params"][4] = str(mp.mpf(rec["learned_params"][4]) + mp.mpf("0.125"))
    assert _replay_error(_write(tmp_path, rec, rehash=True)).field == "test_discrepancy"


def test_rehashed_test_discrepancy_change_is_rejected(tmp_path, rec):
    rec["test_discrepancy"] = "0.75"
    exc = _replay_error(_write(tmp_path, rec, rehash=True))
    assert exc.field == "test_discrepancy" and exc.got == "0.75"


def test_rehashed_inconsistent_fields_raise(tmp_path, rec):
    cases = {
        "learned_params": lambda r: r.update(learned_params=r["learned_params"][:-1]),
        "true_params": lambda r: r["true_params"].__setitem__(0, "1.25"),
        "theorem": lambda r: r.update(theorem="AM24.NOPE"),
        "params.T": lambda r: r["params"].update(T="abc"),  # the field names the parameter
        "witness": lambda r: r.update(witness=[["1.0", "1.0", "1.0"]]),
    }
    for want, mutate in cases.items():
        r = copy.deepcopy(rec)
        mutate(r)
        assert _replay_error(_write(tmp_path, r, rehash=True)).field == want, want


def test_witness_kind_for_theorem_without_falsifier(tmp_path, rec):
    r = {k: v for k, v in rec.items() if k in record.WITNESS_FIELDS}
    r.update(kind="witness", witness={"x": "1"})
    assert _replay_error(_write(tmp_path, r, rehash=True)).field == "kind"


def test_negative_seed_is_input_error(tmp_path, rec):
    rec["seed"] = -1
    assert _replay_error(_write(tmp_path, rec, rehash=True)).field == "seed"


def test_ragged_witness_is_input_error(tmp_path, rec):
    rec["witness"] = [["1.0", "1.0"], ["1.0"]]
    assert _replay_error(_write(tmp_path, rec, rehash=True)).field.startswith("witness")


def test_low_dps_record_cannot_certify_a_non_fit(tmp_path, rec):
    thm = registry.get(THM)
    rec["dps"] = 20
    with mp.workdps(20):
        prob = build_problem(thm, thm.params.resolve(rec["params"]), seed=0, dps=20)
        theta = MP.asarray(np.asarray(rec["learned_params"], dtype=object))
        theta[0] = theta[0] + mp.mpf("0.25")  # A[0,0] moved: training residual ~0.37
        assert mp_abs_max(prob.residual(theta, MP)) > mp.mpf("0.1")
        rec["learned_params"] = [mp_str(v, 20) for v in theta]
        X = np.array([[float(v) for v in row] for row in rec["witness"]])
        rec["test_discrepancy"] = mp_str(max_gap(prob, theta, [X[None]]), 20)
    p = _write(tmp_path, rec, rehash=True)
    try:
        res = replay(p)
    except InputError as exc:  # rejecting dps < 30 on load is a fine fix too
        assert exc.field == "dps"
        return
    assert res.reproduces is False and res.certified is False


def test_unknown_param_in_record_names_params_field(tmp_path, rec):
    rec["params"]["depth"] = 3
    exc = _replay_error(_write(tmp_path, rec, rehash=True))
    assert "depth" in str(exc)
    assert exc.field.startswith("params")
