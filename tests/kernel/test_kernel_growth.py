"""The kernel's "growth" kind (proofkit/kernel/growth.py): HYB24.G1c's five records re-check, its own
moment count gives the closed forms, and corrupted copies (exponent, coefficient, width exponent, kurtosis,
keys) are rejected with the SHA-256 re-stamped, so the kernel's arithmetic is what rejects them."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from proofkit.kernel import CHECKED, FAILED, check_certificate, check_record
from proofkit.kernel.growth import leading, moments
from tests.kernel.kernel_helpers import STORED, _data, only, restamp

G1C = {
    "width": "HYB24.G1c_drop-quadratic-width_width_exp=1_seed0.json",
    "variance": "HYB24.G1c_drop-variance-scale_var_exp=1_2_seed0.json",
    "fourth": "HYB24.G1c_drop-fourth-moment_law=student-t3_seed0.json",
    "heads": "HYB24.G1c_drop-constant-LH_heads_exp=1_seed0.json",
    "tied": "HYB24.G1c_drop-independent_keys=tied_seed0.json",
}


def _rec(key: str) -> dict:
    return json.loads((STORED / G1C[key]).read_text())


def _status(rec: dict) -> object:
    return only(check_record(restamp(rec), "corrupted"))


@pytest.mark.parametrize("key", sorted(G1C))
def test_every_g1c_record_is_re_checked(key):
    res = only(check_record(_rec(key), key))
    assert res.status == CHECKED and res.kind == "growth", res.line()


def test_the_kernels_moment_count_gives_the_closed_forms():
    # independent: d^3 and d^3 + (kappa - 1) d^2; tied K = Q: d^2 (2d + kappa - 2) and
    # d^2 (d^2 + (kappa + 1) d + kappa^2 - kappa - 2); keys (d power, kappa power)
    assert moments(False, False) == {(3, 0): 1}
    assert moments(False, True) == {(3, 0): 1, (2, 1): 1, (2, 0): -1}
    assert moments(True, False) == {(3, 0): 2, (2, 1): 1, (2, 0): -2}
    assert moments(True, True) == {(4, 0): 1, (3, 1): 1, (3, 0): 1, (2, 2): 1, (2, 1): -1, (2, 0): -2}
    F = Fraction
    assert leading(F(2), F(1), F(0), F(3), False) == (F(0), [(F(1, 2), F(-1))])  # bounded: 1/(2c)
    assert leading(F(1), F(1), F(0), F(3), False) == (F(1), [(F(1, 2), F(-1))])


@pytest.mark.parametrize("field, value", [
    ("leading_exponent", "2"), ("leading_exponent", "1/2"),
    ("leading_coefficient", [["1", "-1"]]), ("leading_coefficient", [["1/2", "0"]]),
])
def test_a_changed_leading_term_is_rejected(field, value):
    rec = _rec("width")
    _data(rec)[field] = value
    res = _status(rec)
    assert res.status == FAILED and field in res.field, res.line()


def test_a_changed_setting_or_kurtosis_is_rejected():
    for key, field, value in [("width", "width_exp", "2"), ("width", "width_exp", "3/2"),
                              ("variance", "kappa", "1"), ("variance", "kappa", "9/5"),
                              ("tied", "keys", "independent"), ("width", "heads_exp", "1"),
                              ("fourth", "kappa", "3")]:
        rec = _rec(key)
        _data(rec)[field] = value
        res = _status(rec)
        assert res.status == FAILED, (key, field, value, res.line())


def test_a_bounded_or_malformed_setting_is_rejected():
    # the corrected width d = N^2 with its own (bounded) leading term: exponent 0 does not diverge
    bounded = {"kind": "growth", "width_exp": "2", "width_c": "1", "var_exp": "1", "heads_exp": "0",
               "kappa": "3", "keys": "independent", "leading_exponent": "0",
               "leading_coefficient": [["1/2", "-1"]]}
    res = check_certificate(bounded)
    assert res.status == FAILED and "does not diverge" in res.detail
    for change in ({"width_c": "0"}, {"kappa": "1/2"}, {"keys": "other"}, {"width_exp": 1.0},
                   {"kappa": "infinite"}, {"leading_coefficient": []}):
        assert check_certificate(bounded | change).status == FAILED, change
    # a record's law must have the stated kurtosis (tie to the record)
    rec = _rec("fourth")
    rec["witness"]["law"] = "gaussian"
    assert _status(rec).status == FAILED


def test_a_mixed_sign_coefficient_is_decided_in_balls():
    # a = 0 (constant width d = c), tied keys, v = 1, kappa = 1: E(67) ~ (c^-1 - 1/2 c^-2) N^2, positive
    # at c = 4, negative at c = 1/4
    F = Fraction
    top, coef = leading(F(0), F(1), F(0), F(1), True)
    assert (top, coef) == (F(2), [(F(-1, 2), F(-2)), (F(1), F(-1))])
    data = {"kind": "growth", "width_exp": "0", "width_c": "4", "var_exp": "1", "heads_exp": "0",
            "kappa": "1", "keys": "tied", "leading_exponent": "2",
            "leading_coefficient": [["-1/2", "-2"], ["1", "-1"]]}
    assert check_certificate(data).status == CHECKED
    res = check_certificate(data | {"width_c": "1/4"})
    assert res.status == FAILED and "not proven positive" in res.detail
