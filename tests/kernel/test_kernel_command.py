"""The independent certificate checker, part 2: record format and replay, the command's exit codes, escaping
and bundle handling, and the network-disagreement certificates of HYB24.T9 records."""

from __future__ import annotations

import copy
import itertools
import json
from fractions import Fraction

import pytest

from proofkit.errors import InputError
from proofkit.interface.cli import main
from proofkit.kernel import (
    CHECKED,
    FAILED,
    NOT_RECHECKED,
    check_bundle,
    check_certificate,
    check_record,
)
from proofkit.storage import record
from tests.kernel.kernel_helpers import RECORDS, STORED, _bump_digit, _data, _flip, only, restamp, stored


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
    from proofkit.engine.replay import replay

    rec = stored("rational-learner")
    path = tmp_path / "r.json"
    path.write_text(record.canonical(rec))
    assert replay(path).certified
    _data(rec)["gap"] = _bump_digit(_data(rec)["gap"])
    path.write_text(record.canonical(restamp(rec)))
    with pytest.raises(InputError) as exc:
        replay(path)
    assert exc.value.field == "certificate.data.gap"


def test_replay_recomputes_the_limit_transformer_data(tmp_path):
    """The INL25.T41 falsifier writes the kernel's data; replay recomputes it field by field."""
    from proofkit.engine.replay import replay

    rec = stored("limit-hat")
    path = tmp_path / "r.json"
    path.write_text(record.canonical(rec))
    assert replay(path).certified
    _data(rec)["string"]["prefix"]["a"] = "2"
    path.write_text(record.canonical(restamp(rec)))
    with pytest.raises(InputError) as exc:
        replay(path)
    assert exc.value.field == "certificate.data.string.prefix.a"


# ----------------------------------------------------------------------------------------- the command
def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["kernel", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_command_exit_codes(capsys, tmp_path):
    good = [str(STORED / RECORDS[k]) for k in ("rational-learner", "krawczyk", "enumeration")]
    code, out, _ = run(capsys, *good)
    assert code == 0 and out.count("[checked]") == 3 and "3 re-checked" in out
    no_data = tmp_path / "no_data.json"
    no_data.write_text(record.canonical(stored("no-data")))
    code, out, _ = run(capsys, *good, str(no_data))
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


# ------------------------------------------------------------------ network-disagreement (HYB24.T9 records)
T9 = sorted(STORED.glob("HYB24.T9_*.json"))


def _t9(variant: str) -> dict:
    return json.loads(next(p for p in T9 if f"variant={variant}_" in p.name).read_text())


def _negate_readout(d: dict) -> None:
    for e in d["network"]["U"]["entries"]:
        e[2] = _flip(e[2])


@pytest.mark.parametrize("path", T9, ids=lambda p: p.name.split("_")[1])
def test_network_disagreements_re_check_and_a_changed_weight_or_flipped_verdict_is_rejected(path):
    rec = json.loads(path.read_text())
    res = only(check_record(rec, path.name))
    assert res.status == CHECKED and res.kind == "network-disagreement", res.line()
    for edit, field in ((_negate_readout, "certificate.data.network_output"),
                        (lambda d: d.__setitem__("program_output", not d["program_output"]),
                         "certificate.data.program_output")):
        bad = copy.deepcopy(rec)
        edit(_data(bad))
        res = check_certificate(_data(bad))
        assert res.status == FAILED and res.field == field, res.line()
        assert only(check_record(restamp(bad))).status == FAILED


@pytest.mark.parametrize("variant,edit,field", [
    # a^8 b^8 (or the prefix of length 16): MAJORITY holds there
    ("ramp", lambda d: d.update(word=d["word"][:-2], position=16), "certificate.data.program_output"),
    ("ramp", lambda d: d.update(position=16), "certificate.data.program_output"),
    # the first ramp unit's bias 1 -> 1/2: the network then agrees with MAJORITY on the word
    ("ramp", lambda d: d["network"]["layers"][5]["mlp"]["b"].__setitem__(0, "1/2"),
     "certificate.data.network_output"),
    ("float64-naive", lambda d: d.update(word="a a a a a"), "certificate.data.network_output"),
    ("float64-naive", lambda d: d.update(arithmetic="exact"), "certificate.data.network_output"),
    ("no-log-scaling", lambda d: d.update(position=34), "certificate.data.program_output"),
    ("naive-periodic-offset", lambda d: d.update(offset=0), "certificate.data.network_output"),
])
def test_a_changed_network_disagreement_is_rejected_by_the_re_derivation(variant, edit, field):
    """Word, position, a weight, the arithmetic or the offset changed in the data (and, for the record,
    in the witness too, so that the tie is not what rejects it): the kernel's own verdicts disagree."""
    rec = _t9(variant)
    edit(_data(rec))
    res = check_certificate(_data(rec))
    assert res.status == FAILED and res.field == field, res.line()
    w = rec["witness"]
    w["word"], w["position"] = _data(rec)["word"], str(_data(rec)["position"])
    assert only(check_record(restamp(rec))).status == FAILED


def test_a_network_disagreement_must_be_about_its_witness():
    rec = _t9("ramp")
    rec["witness"]["word"] = "a a"
    res = only(check_record(restamp(rec)))
    assert res.status == FAILED and res.field == "certificate.data.word", res.line()
    rec = _t9("float64-naive")
    _data(rec)["arithmetic"] = "exact"  # also no longer a disagreement; the tie is checked after the data
    assert only(check_record(restamp(rec))).status == FAILED
    d = _data(_t9("ramp"))
    d["program"] = d["program"].replace("#Q(b) <= #Q(a)", "min(#Q(b), 1) <= #Q(a)")
    res = check_certificate(d)
    assert res.status == NOT_RECHECKED and "grammar" in res.detail, res.line()


def test_the_kernel_network_and_interpreter_agree_with_proofkit_on_short_words():
    """Differential check of the kernel's two evaluators against proofkit's compiler and interpreter (the
    kernel imports neither): every word up to length 4 of every stored program, every position."""

    from proofkit.crasp.compilation.forward import run
    from proofkit.crasp.compilation.network import network_from_json
    from proofkit.crasp.compilation.variants import VARIANTS
    from proofkit.crasp.language.parser import parse
    from proofkit.crasp.semantics.interp import evaluate
    from proofkit.kernel import crasp as kc

    for path in T9:
        d = _data(json.loads(path.read_text()))
        program = parse(d["program"], "p")
        net = network_from_json(json.dumps({"format": "proofkit-limit-transformer-1", "dims": [
            str(i) for i in range(d["network"]["width"])],
            "base": None if d["base"] == "N" else int(d["base"]),
            "offset": 0, "meta": {}} | {k: v for k, v in d["network"].items() if k != "width"} | {
            "layers": [{"mlp": None} | lay for lay in d["network"]["layers"]]}))
        _, precision, offset = VARIANTS[d["variant"]]
        conv = float if precision == "float64" else Fraction
        for n in range(5):
            for w in itertools.product(program.alphabet, repeat=n):
                base = (n + 1) if d["base"] == "N" else int(d["base"])
                got = kc.run_network(d["network"], net.encode(w), conv,
                                     float(base) if precision == "float64" else base, offset)
                assert got == run(net, net.encode(w), precision, offset), (path.name, w)
                assert kc.evaluate_program(d["program"], list(w))[1] == \
                    [bool(x) for x in evaluate(program, list(w))[program.output]], (path.name, w)
