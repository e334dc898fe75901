"""The published JSON formats (proofkit.storage.formats, proofkit/schemas/, docs/formats.md): every schema is
a valid
draft 2020-12 schema whose $id, version field and constants agree with the code that writes and reads the
format; every stored document conforms; the loaders refuse what only the schema forbids; errors name the
JSON path of the first error in one line; ``validate`` exits 0/1/2. The ``--json`` outputs are validated
against their schemas in tests/interface/test_json_outputs.py."""

from __future__ import annotations

import copy
import io
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from proofkit.bench import suite
from proofkit.crasp.compilation import network
from proofkit.crasp.compilation.compiler import compile_program
from proofkit.crasp.compilation.network import Network
from proofkit.crasp.language.parser import load as load_program
from proofkit.crasp.semantics import truth
from proofkit.errors import InputError
from proofkit.language.tolerances import MAX_DPS, MIN_DPS
from proofkit.publish import bundle
from proofkit.storage import formats, record, safejson
from proofkit.sweep import spec as sweep_spec
from proofkit.sweep import store

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "proofkit" / "schemas"
RECORDS = sorted((ROOT / "counterexamples").glob("*.json"))
PROGRAMS = ROOT / "theorems" / "hyb24" / "programs"


def _err(kind: str, obj, document: str | None = None, within: str | None = None) -> InputError:
    with pytest.raises(InputError) as info:
        formats.validate(kind, obj, document, within)
    assert "\n" not in str(info.value)
    return info.value


def _model_record() -> dict:
    return json.loads(next(p for p in RECORDS if json.loads(p.read_text())["kind"] == "model").read_text())


def _witness_record() -> dict:
    return json.loads(next(p for p in RECORDS if json.loads(p.read_text())["kind"] == "witness").read_text())


def _network(name: str = "majority.crasp") -> dict:
    return json.loads(compile_program(load_program(PROGRAMS / name)).to_json())


# ----------------------------------------------------------------------------- the schema files
def test_one_schema_file_per_format_and_no_other():
    assert sorted(p.name for p in SCHEMAS.glob("*.json")) == sorted(f.file for f in formats.FORMATS.values())


@pytest.mark.parametrize("kind", list(formats.FORMATS))
def test_schema_is_valid_and_versioned(kind):
    fmt, sch = formats.FORMATS[kind], formats.schema(kind)
    Draft202012Validator.check_schema(sch)
    assert sch["$schema"] == formats.DIALECT
    assert sch["$id"] == fmt.id == f"https://proofkit.dev/schemas/{kind}/{fmt.version}.json"
    assert sch["title"] and sch["description"]
    if fmt.marker is not None:  # the document carries its version: the schema pins and requires it
        key, value = fmt.marker
        assert sch["properties"][key] == {"const": value} and key in sch["required"]
        assert fmt.read or value == f"{kind}/{fmt.version}"  # an output's is its tag
    else:  # hand-written inputs have no version field (version 1 by definition); arrays cannot carry one
        assert (fmt.read and kind in ("dfa", "sweep-spec")) or (not fmt.read and sch["type"] == "array")


def test_version_fields_are_the_ones_the_code_writes():
    assert formats.FORMATS["record"].marker == ("format", record.FORMAT)
    assert formats.FORMATS["limit-weights"].marker == ("format", network._NETWORK_FORMAT)
    assert formats.FORMATS["sweep-point"].marker == ("format", store.POINT_FORMAT)
    assert formats.FORMATS["sweep-manifest"].marker == ("format", store.MANIFEST_FORMAT)
    assert formats.FORMATS["bench"].marker == ("schema", suite.SCHEMA)
    assert formats.FORMATS["bundle"].marker == ("format", bundle.FORMAT)


def test_caps_and_ranges_are_the_code_constants():
    assert formats.FORMATS["record"].max_bytes == record.MAX_RECORD_BYTES
    assert formats.FORMATS["limit-weights"].max_bytes == network.MAX_NETWORK_BYTES
    assert formats.FORMATS["dfa"].max_bytes == truth.MAX_JSON_CHARS
    assert formats.FORMATS["bundle"].max_bytes == bundle.MAX_BUNDLE_BYTES
    assert formats.FORMATS["sweep-spec"].max_bytes == sweep_spec.MAX_SPEC_BYTES
    rec = formats.schema("record")["$defs"]
    dps = rec["model"]["properties"]["dps"]
    assert (dps["minimum"], dps["maximum"]) == (record.OLDEST_DPS, MAX_DPS)
    assert rec["decimal"]["maxLength"] == safejson.MAX_DECIMAL_CHARS
    assert rec["seed"]["maximum"] == 2**32 - 1
    for kind in ("sweep-point", "sweep-manifest"):
        sch = formats.schema(kind)
        props = sch["properties"] if kind == "sweep-point" else sch["properties"]["spec"]["properties"]
        assert (props["dps"]["minimum"], props["dps"]["maximum"]) == (MIN_DPS, MAX_DPS)
    props = formats.schema("sweep-spec")["properties"]
    assert (props["dps"]["minimum"], props["dps"]["maximum"]) == (MIN_DPS, MAX_DPS)
    points = sweep_spec.MAX_POINTS
    assert props["seeds"]["maxItems"] == props["grid"]["additionalProperties"]["maxItems"] == points
    assert props["out"]["maxLength"] == props["description"]["maxLength"] == sweep_spec.MAX_TEXT
    assert formats.schema("sweep-spec")["$defs"]["seed"]["maximum"] == sweep_spec.SEED_LIMIT - 1
    dps = formats.schema("bundle")["properties"]["check"]["properties"]["dps"]
    assert (dps["minimum"], dps["maximum"]) == (MIN_DPS, MAX_DPS)
    net = formats.schema("limit-weights")
    assert net["$defs"]["index"]["maximum"] == network.MAX_NETWORK_DIM
    assert net["properties"]["offset"]["maximum"] == network.MAX_NETWORK_DIM
    assert net["$defs"]["rational"]["maxLength"] == 2 * safejson.MAX_FRACTION_DIGITS + 3


# the patterns say in the schema what safejson checks by hand (length caps and magnitudes apart)
_DEC = formats.schema("record")["$defs"]["decimal"]["pattern"]
_NUM = formats.schema("record")["$defs"]["number"]["pattern"]
_RAT = formats.schema("limit-weights")["$defs"]["rational"]["pattern"]


def _refusal(check, text: str) -> InputError | None:
    try:
        check(text, "f")
    except InputError as exc:
        return exc
    return None


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(alphabet="0123456789+-.eE/ x", max_size=12))
def test_number_patterns_agree_with_the_hand_checks(text):
    for pattern, check in ((_DEC, safejson.check_decimal), (_NUM, safejson.check_number),
                           (_RAT, safejson.check_rational)):
        matches, refused = re.search(pattern, text) is not None, _refusal(check, text)
        if refused is None:
            assert matches, (pattern, text)
        elif matches:  # the schema leaves magnitudes to proofkit's loader (1e999, 1e-9999)
            assert "float range" in refused.expected or "magnitude" in refused.expected, (text, refused)


@pytest.mark.parametrize("kind", ["record", "limit-weights", "dfa", "check"])
def test_shared_definitions_are_identical_across_files(kind):
    """Each schema is self-contained (a user needs one file); definitions shared by name must agree."""
    defs = formats.schema(kind).get("$defs", {})
    for other in formats.FORMATS:
        for name, body in formats.schema(other).get("$defs", {}).items():
            if name in defs and name in ("verdict", "seed", "scalar"):
                assert body == defs[name], (kind, other, name)


# ----------------------------------------------------------------------------- stored documents conform
def test_every_stored_record_conforms_and_loads():
    assert len(RECORDS) >= 40
    for path in RECORDS:
        formats.validate("record", json.loads(path.read_text()))
        assert record.load(path)["format"] == record.FORMAT


def test_compiled_networks_conform_and_round_trip():
    for name in ("majority.crasp", "dyck1.crasp", "task_binary_majority.crasp", "tomita4.crasp"):
        obj = _network(name)
        formats.validate("limit-weights", obj)
        text = json.dumps(obj, indent=1, sort_keys=True)
        assert Network.from_json(text).to_json() == text


def test_library_dfas_conform():
    dfas = [t for t in truth.LIBRARY.values() if isinstance(t, truth.DFA)]
    assert len(dfas) >= 10
    for dfa in dfas:
        formats.validate("dfa", dfa.to_dict())


def test_stored_bench_results_conform():
    results = sorted((ROOT / "benchmarks" / "results").glob("*.json"))
    assert results
    for path in results:
        formats.validate("bench", suite.load(path))


# ----------------------------------------------------------------------------- enforced on load
def test_record_load_refuses_what_only_the_schema_forbids(tmp_path):
    rec = _witness_record()
    key = sorted(rec["witness"])[0]
    rec["witness"][key] = 3  # a number where the record format has strings: the field checks let it pass
    rec["sha256"] = record.digest(rec)
    path = tmp_path / "r.json"
    path.write_text(record.canonical(rec))
    with pytest.raises(InputError) as info:
        record.load(path)
    exc = info.value
    assert exc.field == f"witness.{key}" and exc.expected == "a string" and exc.got == "int"


def test_network_load_refuses_what_only_the_schema_forbids():
    obj = _network()
    obj["layers"][0]["extra"] = 1  # the field checks read heads and mlp only
    with pytest.raises(InputError) as info:
        Network.from_json(json.dumps(obj))
    exc = info.value
    assert exc.field == "layers[0].extra" and "only the fields of a layer: heads, mlp" in exc.expected


def test_sweep_point_and_manifest_that_do_not_conform(tmp_path):
    ident = {"theorem": "SWEEP.TOY", "params": {"n": 1}, "seed": 0, "dps": 60, "search": True}
    key = store.key(ident)
    body = {"format": store.POINT_FORMAT, "key": key, **ident, "status": "holds", "reason": "r",
            "check_verdict": "certified", "conclusions": {"c": "certified"}, "counterexample_search": None,
            "record": None, "violated_assumptions": [], "proofkit_version": "0", "elapsed_s": 0.5}
    formats.validate("sweep-point", body)
    (tmp_path / store.POINTS).mkdir()
    store.write_point(tmp_path, body)
    assert store.read_point(tmp_path, key, ident) == (body, "")
    store.write_point(tmp_path, dict(body, conclusions={"c": "maybe"}))
    got, why = store.read_point(tmp_path, key, ident)
    assert got is None and "not a point file" in why and "conclusions.c: expected one of 'certified'" in why
    manifest = {"format": store.MANIFEST_FORMAT, "spec_sha256": "0" * 64}
    (tmp_path / store.MANIFEST).write_text(json.dumps(manifest))
    spec = sweep_spec.SweepSpec("SWEEP.TOY", {"n": [1]}, {}, MIN_DPS, (0,), True)
    with pytest.raises(InputError) as info:
        store.open_folder(tmp_path, spec, force=False)
    exc = info.value
    assert exc.field == "--out" and "spec: expected a field of a sweep folder's manifest" in exc.got


@pytest.fixture(scope="module")
def cheap_bundle() -> dict:
    """A bundle of AM24.L1 (exact sympy steps, under a second) carrying its stored record."""
    from proofkit.language import registry

    built = bundle.build(registry.get("AM24.L1"), records_folder=ROOT / "counterexamples")
    return json.loads(bundle.dumps(built))


def test_bundle_load_refuses_what_only_the_schema_forbids(tmp_path, cheap_bundle):
    formats.validate("bundle", cheap_bundle)
    data = copy.deepcopy(cheap_bundle)
    data["citation"]["url"] = "https://example.org"  # the field checks do not read citation
    data["sha256"] = bundle.digest(data)
    path = tmp_path / "b.json"
    path.write_text(bundle.dumps(data))
    with pytest.raises(InputError) as info:
        bundle.load(path)
    exc = info.value
    assert exc.field == "bundle citation.url" and "only the fields of the paper's BibTeX" in exc.expected
    data["sha256"] = "0" * 64  # the same bundle altered: left to verify-bundle, which says altered
    path.write_text(bundle.dumps(data))
    assert bundle.load(path)["citation"]["url"] == "https://example.org"


SPEC_EXAMPLE = ROOT / "docs" / "examples" / "sweep_am24_t4.json"


def test_sweep_spec_conforms_and_is_validated_on_load(monkeypatch):
    example = json.loads(SPEC_EXAMPLE.read_text())
    formats.validate("sweep-spec", example)
    seen = []
    real = formats.validate

    def spy(kind, obj, *args, **kwargs):
        seen.append(kind)
        real(kind, obj, *args, **kwargs)

    monkeypatch.setattr(formats, "validate", spy)
    spec, _ = sweep_spec.parse(example)
    assert seen == ["sweep-spec"] and spec.theorem == "AM24.T4"


@pytest.mark.parametrize("edit, schema_field, loader_field", [
    ({"grid": {}}, "grid", "grid"), ({"grid": {"T": []}}, "grid.T", "grid.T"),
    ({"grid": {"T": [1, 1]}}, "grid.T", "grid.T[1]"), ({"seed": 0, "seeds": [1, 2]}, "", "seeds"),
    ({"seeds": [3, 3]}, "seeds", "seeds[1]"), ({"dps": 10}, "dps", "dps"),
    ({"search": "yes"}, "search", "search"), ({"out": 3}, "out", "out"), ({"extra": 1}, "extra", "extra"),
])
def test_sweep_spec_schema_and_field_checks_refuse_alike(edit, schema_field, loader_field):
    """The published schema refuses the structural errors the loader's field checks refuse."""
    spec = {k: v for k, v in json.loads(SPEC_EXAMPLE.read_text()).items() if k != "seed"} | edit
    got = _err("sweep-spec", spec, within="sweep spec").field
    assert got == f"sweep spec {schema_field}".strip()
    with pytest.raises(InputError) as info:
        sweep_spec.parse(spec)
    assert info.value.field == f"sweep spec {loader_field}"


# ----------------------------------------------------------------------------- error messages
def test_first_error_is_named_by_its_json_path():
    rec = _model_record()
    bad = copy.deepcopy(rec)
    bad["witness"][0][0] = "1,5"
    exc = _err("record", bad)
    assert exc.field == "witness[0][0]" and exc.got == "1,5"
    assert "decimal number written as a string" in exc.expected
    bad = copy.deepcopy(rec)
    bad["witness"][0][0], bad["dps"] = "1,5", "60"  # the shallowest error first
    assert _err("record", bad).field == "dps"
    net = _network()
    net["layers"][0]["heads"][0]["V"]["entries"][0][2] = 0.5
    exc = _err("limit-weights", net, "network")
    assert exc.field == "layers[0].heads[0].V.entries[0][2]" and exc.got == "float"
    net = _network()
    net["E"][0]["x"] = "1"
    exc = _err("limit-weights", net)
    assert exc.field == "E[0].x" and "stream indices" in exc.expected and exc.got == "x"


@pytest.mark.parametrize("mutate,field,expected,got", [
    (lambda r: r.pop("sha256"), "sha256", "a field of a model record (missing)", None),
    (lambda r: r.update(color=1), "color", "only the fields of a model record: format, kind", None),
    (lambda r: r.update({"a b": 1}), "'a b'", "only the fields", None),
    (lambda r: r.update(format="proofkit-counterexample/2"), "format", "'proofkit-counterexample/1'",
     "proofkit-counterexample/2"),
    (lambda r: r.update(kind="other"), "kind", "one of 'model', 'witness'", "other"),
    (lambda r: r.update(dps=60.0), "dps", "an integer", "float"),
    (lambda r: r.update(dps=True), "dps", "an integer", "bool"),
    (lambda r: r.update(dps=29), "dps", "an integer in [30, 500]", 29),
    (lambda r: r.update(seed=-1), "seed", "an integer in [0, 4294967295]", -1),
    (lambda r: r.update(sha256="ABC"), "sha256", "64 lower-case hexadecimal digits", "ABC"),
    (lambda r: r.update(witness=[]), "witness", "at least 1 items", []),
    (lambda r: r["params"].update(T=[1]), "params.T", "a string or a number or true or false", "list"),
    (lambda r: r["certificate"].pop("how"), "certificate.how", "(missing)", None),
])
def test_error_fields_expectations_and_echo(mutate, field, expected, got):
    rec = _model_record()
    mutate(rec)
    exc = _err("record", rec)
    assert exc.field == field and expected in exc.expected and exc.got == got, str(exc)


def test_document_level_errors_name_the_document():
    assert _err("record", [1, 2], "record").field == "record"
    assert _err("record", {"format": record.FORMAT}).field == "kind"
    exc = _err("dfa", {"alphabet": ["a"]}, "dfa")
    assert exc.field == "states" and "missing" in exc.expected


def test_long_values_are_echoed_capped():
    rec = _model_record()
    rec["train_residual"] = "9" * 100_000
    msg = str(_err("record", rec))
    assert len(msg) < 600 and "(100000 characters)" in msg


def test_unknown_kind():
    with pytest.raises(InputError) as info:
        formats.validate("nope", {})
    assert info.value.field == "KIND" and "record" in info.value.expected


def test_stamp_puts_the_version_first_and_validates():
    out = formats.stamp("replay", {"record": "r.json", "reproduces": True, "certified": False, "how": "x",
                                   "schema": "old"})
    assert list(out)[0] == "schema" and out["schema"] == "replay/1"
    formats.validate("replay", out)
    assert _err("replay", dict(out, schema="replay/2")).field == "schema"
    unstamped = _err("replay", {k: v for k, v in out.items() if k != "schema"})  # every object output has it
    assert unstamped.field == "schema" and "missing" in unstamped.expected
    assert formats.stamp("list", [{"id": "a"}]) == [{"id": "a"}]  # an array carries no version field


# ----------------------------------------------------------------------------- validate, the command
def _run(argv, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    return formats.main(argv)


def test_validate_exit_codes(tmp_path, capsys, monkeypatch):
    good = RECORDS[0]
    assert formats.main(["validate", "record", str(good), str(RECORDS[1])]) == 0
    out, err = capsys.readouterr()
    assert out.count("conforms to record/1") == 2 and err == ""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(json.loads(good.read_text()), seed="0")))
    assert formats.main(["validate", "record", str(good), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and "does not conform to record/1" in err and "seed" in err
    (tmp_path / "trunc.json").write_text("{")
    assert formats.main(["validate", "record", str(tmp_path / "trunc.json")]) == 1
    assert "valid JSON" in capsys.readouterr().err
    for argv in (["validate", "record", str(tmp_path / "missing.json")], ["validate", "nope", str(good)],
                 ["validate", "record", str(tmp_path)]):
        assert formats.main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and err.startswith("proofkit: bad input: ")
    lines = (b'{"schema": "inconclusive/1", "verdict": "inconclusive", "reason": "r"}\n\n'
             b'{"schema": "inconclusive/1", "verdict": "inconclusive", "reason": "s"}\n')
    assert _run(["validate", "inconclusive", "--lines", "-"], lines, monkeypatch) == 0
    assert "(2 documents)" in capsys.readouterr().out
    bad_line = b'{"schema": "inconclusive/1", "verdict": 3, "reason": "t"}\n'
    assert _run(["validate", "inconclusive", "--lines", "-"], lines + bad_line, monkeypatch) == 1
    assert "verdict (line 4): expected 'inconclusive', got 3" in capsys.readouterr().err
    assert formats.main(["kinds"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(formats.FORMATS)


def test_proofkit_validate_through_the_cli(monkeypatch, capsys):
    """``proofkit validate`` (proofkit/interface/formats_cli.py, a module of cli.COMMAND_MODULES): same exit
    codes."""
    from proofkit.interface import cli

    if "proofkit.interface.formats_cli" not in cli.COMMAND_MODULES:
        monkeypatch.setattr(cli, "COMMAND_MODULES", (*cli.COMMAND_MODULES, "proofkit.interface.formats_cli"))
    assert cli.main(["validate", "record", str(RECORDS[0])]) == 0
    assert "conforms to record/1" in capsys.readouterr().out
    assert cli.main(["validate", "replay", str(RECORDS[0])]) == 1
    assert "does not conform to replay/1" in capsys.readouterr().err
    assert cli.main(["validate", "nope", str(RECORDS[0])]) == 2
    err = capsys.readouterr().err
    assert err.startswith("proofkit: bad input: KIND: expected one of record,") and len(err.splitlines()) == 1


@pytest.mark.parametrize("tail", [[1], ["q5"], []], ids=["mixed types", "duplicate", "valid"])
def test_unique_items_is_linear_in_the_document(tail):
    """Issue 27, item 2: jsonschema compares an array's items pairwise when it mixes types (an 8 000-state DFA
    took 100 s). proofkit's uniqueItems hashes: 60 000 states (pairwise: 1.8e9 comparisons) in well under
    the bound; a duplicate is named by its index."""
    import time

    states = [f"q{i}" for i in range(60_000)] + tail
    doc = {"alphabet": ["a"], "states": states, "start": "q0", "accept": [], "delta": {}}
    start = time.perf_counter()
    if tail:
        with pytest.raises(InputError) as info:
            formats.validate("dfa", doc)
        assert info.value.field == ("states[60000]" if tail == [1] else "states")
        assert tail == [1] or "item 60000 repeats an earlier item" in str(info.value)
    else:
        formats.validate("dfa", doc)
    assert time.perf_counter() - start < 5.0


def test_unique_items_equality_is_json_schemas():
    key = formats._json_key
    assert key(1) == key(1.0) and key(True) != key(1) and key(None) != key(0) and key("1") != key(1)
    assert key({"a": [1, {"b": 2}]}) == key({"a": [1.0, {"b": 2}]}) and key([1, 2]) != key([2, 1])
