"""Param / ParamSpace: parsing command-line strings, validating API values, error fields."""

from __future__ import annotations

import math

import pytest

from proofkit.errors import InputError
from proofkit.language.params import (
    ACTIVATIONS,
    Param,
    ParamSpace,
    param_activation,
    param_supervision,
    param_T,
)

T = param_T(2)
ACT = param_activation()
SUP = param_supervision()
FRAC = Param("cut_frac", float, 0.5, "fraction", min=0.0, max=1.0)
FLAG = Param("flag", bool, False, "a switch")
FREE = Param("label", str, "x", "free-form text")
SPACE = ParamSpace((T, ACT, SUP, FRAC, FLAG))


def _raises(fn, *args) -> InputError:
    with pytest.raises(InputError) as info:
        fn(*args)
    return info.value


# ----------------------------------------------------------------------------- int
@pytest.mark.parametrize("text,value", [("2", 2), (" 7 ", 7), ("1", 1), ("50", 50), ("+3", 3)])
def test_int_parse_accepts(text, value):
    out = T.parse(text)
    assert out == value and type(out) is int


@pytest.mark.parametrize("text", ["abc", "2.0", "2.5", "", "0x10", "1e1", "nan", "inf"])
def test_int_parse_rejects_non_integers(text):
    exc = _raises(T.parse, text)
    assert exc.field == "--set T"
    assert exc.got == text
    assert "int in [1, 50]" in exc.expected


@pytest.mark.parametrize("text", ["0", "-1", "51", "1000"])
def test_int_parse_rejects_out_of_range(text):
    exc = _raises(T.parse, text)
    assert "T" in exc.field
    assert exc.got == int(text)
    assert "[1, 50]" in str(exc)


@pytest.mark.parametrize("value", [2.0, True, False, "2", None, [2]])
def test_int_validate_rejects_wrong_type(value):
    exc = _raises(T.validate, value)
    assert exc.field == "parameter T"


def test_int_validate_bounds_inclusive():
    assert T.validate(1) == 1 and T.validate(50) == 50
    assert _raises(T.validate, 0).field == "parameter T"
    assert _raises(T.validate, 51).field == "parameter T"


# ----------------------------------------------------------------------------- float
@pytest.mark.parametrize("text,value", [("0.25", 0.25), ("1", 1.0), ("0", 0.0), ("1e-1", 0.1)])
def test_float_parse_accepts(text, value):
    out = FRAC.parse(text)
    assert out == value and type(out) is float


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-inf", "Infinity"])
def test_float_parse_rejects_non_finite(text):
    exc = _raises(FRAC.parse, text)
    assert "cut_frac" in exc.field
    assert "finite" in exc.expected


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_float_validate_rejects_non_finite(value):
    exc = _raises(FRAC.validate, value)
    assert exc.field == "parameter cut_frac"


@pytest.mark.parametrize("text", ["abc", "", "1,5", "0.5.1"])
def test_float_parse_rejects_garbage(text):
    exc = _raises(FRAC.parse, text)
    assert exc.field == "--set cut_frac" and exc.got == text


@pytest.mark.parametrize("text", ["-0.01", "1.5", "1e9"])
def test_float_parse_rejects_out_of_range(text):
    exc = _raises(FRAC.parse, text)
    assert "cut_frac" in exc.field and "[0.0, 1.0]" in exc.expected


def test_float_validate_types():
    assert FRAC.validate(1) == 1.0 and type(FRAC.validate(1)) is float
    for bad in (True, "0.5", None):
        assert _raises(FRAC.validate, bad).field == "parameter cut_frac"


# ----------------------------------------------------------------------------- bool
@pytest.mark.parametrize("text,value", [("true", True), ("TRUE", True), ("1", True), ("yes", True),
                                        ("false", False), ("0", False), (" No ", False)])
def test_bool_parse(text, value):
    assert FLAG.parse(text) is value


@pytest.mark.parametrize("text", ["2", "y", "", "on", "truth"])
def test_bool_parse_rejects(text):
    exc = _raises(FLAG.parse, text)
    assert exc.field == "--set flag" and exc.expected == "true or false"


@pytest.mark.parametrize("value", [1, 0, "true", None])
def test_bool_validate_rejects_non_bool(value):
    assert _raises(FLAG.validate, value).field == "parameter flag"


# ----------------------------------------------------------------------------- str choices
@pytest.mark.parametrize("choice", ACTIVATIONS)
def test_choice_parse_accepts_every_choice(choice):
    assert ACT.parse(choice) == choice
    assert ACT.parse(f"  {choice} ") == choice


@pytest.mark.parametrize("text", ["gelu", "Sigmoid", "", "sigmoid,tanh"])
def test_choice_parse_rejects(text):
    exc = _raises(ACT.parse, text)
    assert "activation" in exc.field
    assert exc.expected.startswith("one of ") and "sigmoid" in exc.expected
    assert "gelu" not in exc.expected


def test_supervision_choices():
    assert SUP.parse("ONLY") == "ONLY"
    assert "supervision" in _raises(SUP.parse, "only").field


def test_choice_validate_rejects_non_member():
    assert _raises(ACT.validate, 3).field == "parameter activation"


def test_free_str_validate_rejects_non_str():
    _raises(FREE.validate, 3)


def test_allowed_texts():
    assert T.allowed() == "int in [1, 50]"
    assert FLAG.allowed() == "true or false"
    assert ACT.allowed() == "one of " + ", ".join(ACTIVATIONS)
    assert Param("x", float, 0.0).allowed() == "float in [-inf, inf]"


def test_message_contains_field_expected_and_got():
    exc = _raises(T.parse, "abc")
    assert str(exc) == "--set T: expected int in [1, 50], got 'abc'"
    assert isinstance(exc, ValueError)


# ----------------------------------------------------------------------------- ParamSpace
def test_defaults_and_resolve():
    assert SPACE.defaults() == {"T": 2, "activation": "sigmoid", "supervision": "ALL",
                                "cut_frac": 0.5, "flag": False}
    out = SPACE.resolve({"T": 5, "flag": True})
    assert out["T"] == 5 and out["flag"] is True and out["activation"] == "sigmoid"
    assert SPACE.resolve(None) == SPACE.defaults()


def test_resolve_validates_values():
    assert _raises(SPACE.resolve, {"T": 0}).field == "parameter T"
    assert _raises(SPACE.resolve, {"activation": "gelu"}).field == "parameter activation"
    exc = _raises(SPACE.resolve, {"bogus": 1})
    assert exc.field == "--set" and exc.got == "bogus"


def test_parse_sets_ok():
    out = SPACE.parse_sets(["T=3", " activation = tanh", "cut_frac=0.125", "flag=yes"])
    assert out == {"T": 3, "activation": "tanh", "cut_frac": 0.125, "flag": True}
    assert SPACE.parse_sets([]) == {}


def test_parse_sets_value_may_contain_equals():
    space = ParamSpace((FREE,))
    assert space.parse_sets(["label=a=b"]) == {"label": "a=b"}


def test_parse_sets_unknown_key():
    exc = _raises(SPACE.parse_sets, ["depth=3"])
    assert exc.field == "--set" and exc.got == "depth"
    for name in SPACE.names():
        assert name in exc.expected


def test_parse_sets_missing_equals():
    exc = _raises(SPACE.parse_sets, ["T3"])
    assert exc.field == "--set" and exc.expected == "key=value" and exc.got == "T3"


def test_parse_sets_empty_key():
    assert _raises(SPACE.parse_sets, ["=3"]).field == "--set"


@pytest.mark.parametrize("item,field", [
    ("T=abc", "T"), ("T=0", "T"), ("activation=gelu", "activation"), ("cut_frac=nan", "cut_frac"),
    ("flag=maybe", "flag"),
])
def test_parse_sets_bad_value_names_field(item, field):
    exc = _raises(SPACE.parse_sets, [item])
    assert field in exc.field


def test_get_unknown():
    assert SPACE.get("T") is T
    assert _raises(SPACE.get, "nope").got == "nope"


def test_with_defaults_changes_only_the_named_defaults_and_checks_them():
    moved = SPACE.with_defaults(T=3)
    assert moved.defaults() == {**SPACE.defaults(), "T": 3} and moved.names() == SPACE.names()
    assert _raises(lambda: SPACE.with_defaults(T=0)).field == "parameter T"
    assert _raises(lambda: SPACE.with_defaults(nope=1)).got == "nope"
