"""The independent certificate checker (proofkit/kernel/, docs/trust.md): it imports nothing else of
proofkit, re-checks every stored record's structured certificate, and rejects hand-corrupted copies of each
kind (the SHA-256 re-stamped, so the kernel's arithmetic is what rejects them)."""

from __future__ import annotations

import ast
import copy
import itertools
import json
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from proofkit.kernel import (
    CHECKED,
    FAILED,
    NONE,
    NOT_RECHECKED,
    check_certificate,
    check_record,
)
from tests.kernel.kernel_helpers import KERNEL, STORED, _bump_digit, _data, _flip, only, restamp, stored


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
    assert sum(len(p.read_text().splitlines()) for p in KERNEL.glob("*.py")) < 3250


def test_the_import_check_catches_a_forbidden_import(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import numpy\nfrom .. import record\nfrom proofkit.engine.fit import fit\n"
                     "from . import core\n")
    assert _imports(probe) == [("numpy", 0), ("", 2), ("proofkit.engine.fit", 0), ("", 1)]


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
    assert by_kind == {"rational-learner": 6, "krawczyk": 3, "ball-bound": 1, "identity": 4,
                       "pooled-exact": 9, "enumeration": 12, "limit-transformer": 6,
                       "network-disagreement": 5, "closed-form-witness": 14, "hinge-vanishing": 1,
                       "growth": 5, "flush": 7}
    assert statuses[CHECKED] == 73 and statuses[NONE] == 1 and statuses[NOT_RECHECKED] == 0


# ------------------------------------------------------------------------------------ corrupted copies






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
    # limit transformers: g's attention weight, f's hat weight, the separation, the stated agreement, the
    # string (its suffix by counts, its first token spelled out), the agreement length
    "limit attention weight digit": ("limit-transformer", lambda d: d["g"]["Q"][0].__setitem__(
        0, _bump_digit(d["g"]["Q"][0][0])), "certificate.data.delta_upper"),
    "limit hat weight digit": ("limit-hat", lambda d: d["f"]["B"][0].__setitem__(
        0, _bump_digit(d["f"]["B"][0][0])), "certificate.data.delta_upper"),
    "limit gap raised": ("limit-transformer", lambda d: d.__setitem__("gap_lower", "79/100"),
                         "certificate.data.gap_lower"),
    "limit agreement understated": ("limit-transformer", lambda d: d.__setitem__("delta_upper", "0"),
                                    "certificate.data.delta_upper"),
    "limit suffix altered": ("limit-transformer", lambda d: d["string"].__setitem__("suffix", "ab"),
                             "certificate.data.gap_lower"),
    "limit tokens altered": ("limit-tokens", lambda d: d["string"].__setitem__(
        "tokens", "b" + d["string"]["tokens"][1:]), "certificate.data.gap_lower"),
    "limit agreement length": ("limit-tokens", lambda d: d.__setitem__("N", 40), "certificate.data.N"),
    # closed-form witnesses: a constant in the learner's expression (the hinge's knot below the cut's
    # maximum 5/2; psi's offset), the support (the ball's radius), the witness tokens, the gap's sign
    "closed-form knot lowered": ("closed-form", lambda d: d["learner"]["omega"]["args"][1]["args"][0][
        "args"][0]["args"].__setitem__(0, "-2"), "certificate.data.learner"),
    "closed-form offset constant": ("closed-form-offset", lambda d: d["learner"]["psi"]["args"].__setitem__(
        0, "2"), "certificate.data.learner"),
    "closed-form ball radius": ("closed-form-ball", lambda d: d["support"]["balls"][0].__setitem__(
        "radius2", "1/2"), "certificate.data.learner"),
    "closed-form tokens altered": ("closed-form", lambda d: d["witness"].__setitem__(0, "3/4"),
                                   "certificate.data.gap"),
    "closed-form gap sign": ("closed-form", lambda d: d.__setitem__("gap", _flip(d["gap"])),
                             "certificate.data.gap"),
    "hinge disc widened": ("hinge", lambda d: d["pieces"][0].__setitem__("disc", ["0", "0", "3/2"]),
                           "certificate.data.pieces[0].disc"),
    "hinge point off the region": ("hinge", lambda d: d.__setitem__("point", ["3/2", "1/8"]),
                                   "certificate.data.point"),
    "hinge gradient altered": ("hinge", lambda d: d.__setitem__("grad", ["0", "1/2"]),
                               "certificate.data.grad"),
    "closed-form gap ball sign": ("closed-form-ball", lambda d: d.__setitem__(
        "gap_ball", [_flip(d["gap_ball"][1]), _flip(d["gap_ball"][0])]), "certificate.data.gap_ball"),
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


@pytest.mark.parametrize("change,field", [
    (lambda r: r["witness"].__setitem__("string", r["witness"]["string"].replace("bb (", "ab (")),
     "certificate.data.string"),
    (lambda r: r["witness"].__setitem__("g", r["witness"]["f"]), "certificate.data.g"),
    (lambda r: r["witness"].__setitem__("delta_upper", "1/2"), "certificate.data.delta_upper"),
])
def test_a_limit_certificate_about_another_witness_is_rejected(change, field):
    rec = stored("limit-transformer")
    change(rec)
    res = only(check_record(restamp(rec)))
    assert res.status == FAILED and res.field == field, res.line()


@pytest.mark.parametrize("change,field", [
    (lambda r: r["witness"].__setitem__("tokens", "['1', '1', '1', '3/4']"), "certificate.data.witness"),
    (lambda r: r["witness"].__setitem__("gap", "1/4"), "certificate.data.gap"),
    (lambda r: r["params"].__setitem__("T", 5), "certificate.data.lengths"),
])
def test_a_closed_form_certificate_about_another_witness_is_rejected(change, field):
    """The data must be about this record: its tokens, its exact gap, its training lengths."""
    rec = stored("closed-form")
    change(rec)
    res = only(check_record(restamp(rec)))
    assert res.status == FAILED and res.field == field, res.line()


def test_the_closed_form_sign_proofs_refuse_false_bounds():
    """Zero risk is not shown where the support does not give the sign: the hinge's knot below the sorted
    chain's reach, a cut looser than the knot, a ball wider than the bump's disc."""
    from proofkit.kernel.closed_form import check_closed_form
    from proofkit.kernel.core import Reject

    for key, edit in [("closed-form", lambda d: d["support"]["sums"][0].__setitem__("at_most", "11/4")),
                      ("closed-form", lambda d: d["support"]["sums"][0].__setitem__("positions", [1, 2, 4])),
                      ("closed-form-ball", lambda d: d["support"]["balls"][0].__setitem__("centre", "1/3"))]:
        d = _data(stored(key))
        assert check_closed_form(copy.deepcopy(d))
        edit(d)
        with pytest.raises(Reject, match="not shown to vanish"):
            check_closed_form(d)


def test_the_limit_evaluator_agrees_with_proofkits_forward_pass():
    """The kernel's own evaluator (Fractions, balls) against proofkit's (Fractions, mpmath) on every
    string of length <= 6 of every pair (N = 4, so late positions, far offsets and late queries enter),
    and by counts at a length where the soft terms are irrational (the kernel's output is then a ball)."""
    import flint
    import mpmath as mp

    from proofkit.kernel import limit
    from proofkit.limit.counts import count_string, evaluate_counts
    from proofkit.limit.model import evaluate, to_dict
    from proofkit.limit.variants import VARIANTS, build_pair

    def same(got: object, ref: object) -> bool:  # exact equal, or a tight ball around mpmath's value
        if isinstance(got, Fraction):
            return got == ref
        return got.rad() < flint.arb("1e-50") and got.overlaps(flint.arb(mp.nstr(ref, 70)))

    compared, balls = 0, 0
    for variant in VARIANTS:
        f, g, p = build_pair(variant, 4)
        models = [limit.parse_model(to_dict(m), m.name) for m in (f, g)]
        for n in range(1, 7):
            for x in itertools.product("ab", repeat=n):
                keys, length, query, _ = limit.parse_string({"tokens": "".join(x)}, models)
                for m, km in zip((f, g), models):
                    with limit.precision(60):
                        got = limit.evaluate(km, keys, length, query, p)
                    assert same(got, evaluate(m, x, p, dps=70).out[0]), (variant, x)
                    compared, balls = compared + 1, balls + isinstance(got, flint.arb)
    assert compared == 2 * len(VARIANTS) * sum(2**n for n in range(1, 7)) and balls > 0
    f, g, _ = build_pair("infinite-precision", 32)
    models = [limit.parse_model(to_dict(m), m.name) for m in (f, g)]
    keys, n, query, _ = limit.parse_string({"prefix": {"a": "1000", "b": "3000"}, "suffix": "bb"}, models)
    with limit.precision(60):
        out = limit.evaluate(models[1], keys, n, query, None)
    assert isinstance(out, flint.arb) and out.rad() < flint.arb("1e-50")
    with mp.workdps(60):
        ref = evaluate_counts(g, count_string({"a": 1000, "b": 3000}, "bb"), None).out[0]
        assert abs(ref - mp.mpf(out.mid().str(60, radius=False))) < mp.mpf(10) ** -50


def test_a_limit_certificate_re_checks_in_balls_and_is_tied_to_its_string():
    """A different prefix count makes every soft term irrational: the data alone still states a true
    separation (checked in balls), but it is not the record's string."""
    rec = stored("limit-transformer")
    _data(rec)["string"]["prefix"]["a"] = str(int(_data(rec)["string"]["prefix"]["a"]) - 10**35)
    res = check_certificate(_data(rec))
    assert res.status == CHECKED and "+/-" in res.detail.split(" at the last")[0], res.line()
    res = only(check_record(restamp(rec)))
    assert res.status == FAILED and res.field == "certificate.data.string", res.line()


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
