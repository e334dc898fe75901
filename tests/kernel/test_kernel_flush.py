"""The kernel's "flush" kind (proofkit/kernel/flush.py): INL25.P37c's four and INL25.TASKSc's three records
re-check; the kernel's margin gamma and strict/inclusive flush agree with proofkit's on the model family;
corrupted copies (string, gap, gamma, p, rule, readings, output, target, c) are rejected, by the data alone
or by the tie to the record, with the SHA-256 re-stamped so that the hash is not what rejects them."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from proofkit.kernel import CHECKED, FAILED, check_certificate, check_record
from tests.kernel.kernel_helpers import STORED, _data, only, restamp

RECORDS = {
    "visible": "INL25.P37c_drop-gamma-visible_logits=forward_seed0.json",
    "pairs": "INL25.P37c_drop-gamma-all-pairs_pairs=max-vs-rest_seed0.json",
    "strict": "INL25.P37c_drop-flush-inclusive_rule=strict_seed0.json",
    "divisor": "INL25.P37c_drop-N-threshold_divisor=2_seed0.json",
    "task-positions": "INL25.TASKSc_drop-positions-equiv_reading=complement_seed0.json",
    "task-start": "INL25.TASKSc_drop-N-threshold_start=1_seed0.json",
    "task-strict": "INL25.TASKSc_drop-flush-inclusive_rule=strict_seed0.json",
}


def _rec(key: str) -> dict:
    return json.loads((STORED / RECORDS[key]).read_text())


@pytest.mark.parametrize("key", sorted(RECORDS))
def test_every_inl25_flush_record_is_re_checked(key):
    res = only(check_record(_rec(key), key))
    assert res.status == CHECKED and res.kind == "flush", res.line()


def test_the_kernels_margin_and_flush_agree_with_proofkits():
    """gamma under every reading and both pair rules on every model of the P37c family; the flush
    decision under both rules on boundary cases (N^u = 2^(p v) exactly) and around them."""
    from proofkit.kernel import flush as kflush
    from proofkit.kernel import limit
    from proofkit.limit import flush, margin
    from proofkit.limit.model import to_dict
    from proofkit.limit.p37_search import family

    for m in family(12, 0):
        km = limit.parse_model(to_dict(m), m.name)
        for logits in kflush.LOGITS:
            for pairs in kflush.PAIRS:
                assert kflush.gamma(km, logits, pairs) == margin.gamma(m, logits, pairs), (m.name, logits)
    for n in range(1, 70):
        for gap in map(Fraction, ("0", "1", "1/3", "2/3", "5/2", "1/10")):
            for p in range(0, 9):
                for rule in ("inclusive", "strict"):
                    assert limit.flushed(n, gap, p, rule == "strict") == flush.term_flushed(n, gap, p, rule)


# (record, edit of the certificate data, field the data-alone failure names)
CORRUPTIONS = {
    "hardmax string all maximal": ("visible", lambda d: d["string"].__setitem__("tokens", "bb"),
                                   "certificate.data.hardmax.gap"),
    "hardmax string below threshold": ("visible", lambda d: d["string"].__setitem__("tokens", "a"),
                                       "certificate.data.string"),
    "hardmax gap altered": ("pairs", lambda d: d["hardmax"].__setitem__("gap", "1/5"),
                            "certificate.data.hardmax.gap"),
    "hardmax gamma altered": ("visible", lambda d: d["hardmax"].__setitem__("gamma", "1/3"),
                              "certificate.data.hardmax.gamma"),
    "hardmax reading changed": ("visible", lambda d: d["hardmax"].__setitem__("logits", "completed"),
                                "certificate.data.hardmax.gamma"),
    "hardmax precision raised": ("divisor", lambda d: d.__setitem__("p", 2), "certificate.data.string"),
    "hardmax rule made inclusive": ("strict", lambda d: d.__setitem__("rule", "inclusive"),
                                    "certificate.data.hardmax.gap"),
    "hardmax divisor dropped": ("divisor", lambda d: d["hardmax"].__setitem__("divisor", 1),
                                "certificate.data.string"),
    "hardmax key weight digit": ("visible", lambda d: d["model"]["phi"].__setitem__(1, "0"),
                                 "certificate.data.hardmax.gamma"),
    "hardmax unknown rule": ("visible", lambda d: d.__setitem__("rule", "round"), "certificate.data.rule"),
    "task output altered": ("task-start", lambda d: d["task"].__setitem__("output", "1"),
                            "certificate.data.task.output"),
    "task target altered": ("task-start", lambda d: d["task"].__setitem__("target", "4/5"),
                            "certificate.data.task.target"),
    "task string altered": ("task-positions", lambda d: d["string"].__setitem__("tokens", "00"),
                            "certificate.data.task.target"),
    "task precision lowered": ("task-start", lambda d: d.__setitem__("p", 1), "certificate.data.task.output"),
    "task rule made inclusive": ("task-strict", lambda d: d.__setitem__("rule", "inclusive"),
                                 "certificate.data.task.output"),
    "task index moved": ("task-positions", lambda d: d["task"].__setitem__("k", 1),
                         "certificate.data.task.target"),
    "task below the threshold": ("task-start", lambda d: d["task"].__setitem__("c", "2"),
                                 "certificate.data.task.c"),
    "task construction's key": ("task-positions", lambda d: d["model"]["K"][0].__setitem__(2, "0"),
                                "certificate.data.task.output"),
    "both statements": ("task-start", lambda d: d.__setitem__("hardmax", {}), "certificate.data"),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_a_corrupted_flush_certificate_is_rejected_by_the_arithmetic(name):
    key, edit, field = CORRUPTIONS[name]
    rec = _rec(key)
    edit(_data(rec))
    res = check_certificate(_data(rec))  # the data alone, no record to tie it to
    assert res.status == FAILED and res.field == field, res.line()
    assert only(check_record(restamp(rec), "x.json")).status == FAILED


@pytest.mark.parametrize("key,change,field", [
    ("visible", lambda r: r["witness"].__setitem__("string", "aaaa"), "certificate.data.string"),
    ("visible", lambda r: r["witness"].__setitem__("p", "2"), "certificate.data.hardmax.p"),
    ("visible", lambda r: r["witness"].__setitem__("gamma", "1/3"), "certificate.data.hardmax.gamma"),
    ("visible", lambda r: r["params"].__setitem__("logits", "completed"), "certificate.data.hardmax.logits"),
    ("strict", lambda r: r["params"].__setitem__("rule", "inclusive"), "certificate.data.rule"),
    ("pairs", lambda r: r["witness"].__setitem__("model", r["witness"]["model"].replace("1/10", "1/5")),
     "certificate.data.model"),
    ("task-start", lambda r: r["witness"].__setitem__("output", "1/2"), "certificate.data.task.output"),
    ("task-start", lambda r: r["witness"].__setitem__("bits", "2"), "certificate.data.task.bits"),
    ("task-start", lambda r: r["params"].__setitem__("start", "threshold"), "certificate.data.task.c"),
    ("task-strict", lambda r: r["witness"].__setitem__("rule", "inclusive"), "certificate.data.rule"),
    ("task-positions", lambda r: r["witness"].__setitem__("period", "3"), "certificate.data.task.period"),
])
def test_a_flush_certificate_about_another_witness_is_rejected(key, change, field):
    """The data must be about this record: its string, precision, rule, readings, model and figures."""
    rec = _rec(key)
    change(rec)
    res = only(check_record(restamp(rec)))
    assert res.status == FAILED and res.field == field, res.line()
