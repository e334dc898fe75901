"""Fuzzing the C-RASP program text and the ``--set NAME=VALUE`` boundaries with Hypothesis (issue 10).

1. Token mutations of the shipped programs (deleted, duplicated, swapped, replaced tokens, inserted
   unicode: BOM, NUL, bidi marks, fullwidth and Arabic-Indic digits; 18+ digit constants; deep nesting of
   parentheses, unary minus, ``not`` and ``#``; very long lines; CRLF and lone CR): parsing either succeeds
   (and the result round-trips through the printer) or raises a CraspSyntaxError (an InputError) whose
   message is one line, at most MAX_MESSAGE characters, naming a line and column inside the text; never
   another exception, never slower than the deadline, never code run from the text.
2. ``thm.params.parse_sets(["NAME=VALUE"])`` for every parameter of every registered theorem with values at
   and beyond the limits, floats for ints, nan/inf, unicode digits, empty, huge, booleans and choices
   misspelled: an in-range value of the parameter's type, or an InputError naming ``--set NAME``.
3. Regressions of earlier findings.

Case counts: test_fuzz_crasp.py."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from proofkit.crasp.language.ir import Program
from proofkit.crasp.language.lexer import KEYWORDS, MAX_CHARS, CraspSyntaxError, without_bom
from proofkit.crasp.language.parser import parse
from proofkit.crasp.language.printer import to_text
from proofkit.crasp.semantics.interp import evaluate
from proofkit.crasp.semantics.vector import all_strings, evaluate_batch
from proofkit.errors import InputError
from proofkit.language import registry
from tests.crasp.fuzz_crasp_helpers import (
    _AT,
    MAX_MESSAGE,
    PROGRAM_FILES,
    SOURCES,
    _settings,
    assert_round_trip,
)
from tests.fuzzguard import no_code_from_input

# ----------------------------------------------------------------------------- 2. mutated programs
_PIECE = re.compile(r"//[^\n]*|\r?\n|[ \t]+|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|'[^\n]'|\"[^\n]\""
                    r"|<->|:=|<=|>=|==|!=|->|.", re.S)
POOL = sorted(KEYWORDS) + [
    "<->", ":=", "<=", ">=", "==", "!=", "->", "<", ">", "+", "-", "#", "?", ":", "(", ")", "[", "]", "{",
    "}", ",", "=", "Q(a)", "Q(b)", "mod(2, 0)", "#[1]", "#[{0, 1}]", "#<", "L", "M", "X", "_t1", "0", "-1",
    "'('", '"\'"', "accept L", "alphabet:", "\n", "\r\n", "//", "true ? 1 : 0", "min(1, 2)"]
STRANGE = ["\ufeff", "\x00", "\u200f", "\u200e", "\u202e", "\u2066", "\uff11", "\uff10\uff11", "\u0661\u0662",
           "\u06f3", "\u00a0", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\r", "\t", "\ud800",
           "\U0001d7d8", "\u01c5", "\u0130", "\u00df", "a\u0301", "\U0001f600", "\\", "$", "`", "@", "%",
           "^", "&", "|", "~", ";", "'", '"', "''", "'ab'", "'\n'", "' '", "/*", "#!", "\x1b[31m",
           "__import__('os').system('true')", "eval(1)", "${HOME}", "%s%n", "{0}", "\x7f"]
DIGITS = st.integers(1, 45).map(lambda n: "9" * n) | st.sampled_from(
    ["999999999999999999", "1000000000000000000", "0" * 30 + "1", "18446744073709551616"])


def _nested(piece: str, kind: str, k: int) -> str:
    return {"paren": "(" * k + piece + ")" * k, "minus": "- " * k + piece, "minus-tight": "-" * k + piece,
            "not": "not " * k + piece, "hash": "#" * k + piece, "not-paren": "not (" * k + piece + ")" * k,
            "min": "min(" * k + piece + ", 1)" * k, "cond": "true ? " * k + piece + " : 0" * k,
            "open": "(" * k + piece}[kind]


@st.composite
def mutated_programs(draw: Any) -> str:
    pieces = _PIECE.findall(draw(st.sampled_from(SOURCES)))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(pieces) - 1)) if pieces else 0
        action = draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "insert", "nest", "long",
                                       "digits", "crlf", "bom", "truncate"]))
        if not pieces:
            pieces = [""]
        if action == "delete":
            del pieces[i]
        elif action == "duplicate":
            pieces.insert(i, pieces[i])
        elif action == "swap":
            j = draw(st.integers(0, len(pieces) - 1))
            pieces[i], pieces[j] = pieces[j], pieces[i]
        elif action == "replace":
            pieces[i] = draw(st.sampled_from(POOL + STRANGE))
        elif action == "insert":
            pieces.insert(i, draw(st.one_of(st.sampled_from(STRANGE), st.text(max_size=6))))
        elif action == "nest":
            kind = draw(st.sampled_from(["paren", "minus", "minus-tight", "not", "hash", "not-paren", "min",
                                         "cond", "open"]))
            pieces[i] = _nested(pieces[i], kind, draw(st.integers(1, 3000)))
        elif action == "long":
            k = draw(st.integers(1, 40_000))
            line = draw(st.sampled_from([
                "Z := " + "1 + " * k + "1", "Z := " + " and ".join(["Q(a)"] * (k // 8 + 1)),
                "Z" * k + " := Q(a)", "Z := " + "y" * k, "// " + "x" * k,
                "alphabet: " + " ".join(f"s{j}" for j in range(k // 4 + 1))]))
            pieces.insert(i, "\n" + line + "\n")
        elif action == "digits":
            pieces.insert(i, draw(st.sampled_from(["", " ", "-", "#[", "mod(", "mod(2, "])) + draw(DIGITS))
        elif action == "crlf":
            pieces = ["".join(pieces).replace("\n", draw(st.sampled_from(["\r\n", "\r", "\n\n", "\x0b"])))]
        elif action == "bom":
            pieces.insert(draw(st.sampled_from([0, 0, i])), draw(st.sampled_from(["\ufeff", "\ufeff\ufeff"])))
        else:
            pieces = list("".join(pieces)[: draw(st.integers(0, max(0, len("".join(pieces)))))])
    return "".join(pieces)


def check_syntax_error(exc: BaseException, text: str) -> None:
    """The error of bad program text: a CraspSyntaxError naming a line and a column inside the text, on
    one line of at most MAX_MESSAGE characters."""
    assert isinstance(exc, CraspSyntaxError) and isinstance(exc, InputError), repr(exc)
    msg = str(exc)
    assert len(msg.splitlines()) == 1 and "\n" not in msg and "\r" not in msg, msg
    assert len(msg) <= MAX_MESSAGE, f"{len(msg)} characters: {msg[:300]}..."
    at = _AT.fullmatch(exc.field)
    assert at and msg.startswith(exc.field + ": expected "), msg
    line, column = int(at.group(1)), int(at.group(2))
    lines = without_bom(text).split("\n")
    assert 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1, (line, column, msg)


def parse_or_syntax_error(text: str) -> Program | None:
    with no_code_from_input():
        try:
            p = parse(text)
        except Exception as exc:  # noqa: BLE001 (the property: nothing but a CraspSyntaxError)
            check_syntax_error(exc, text)
            return None
    assert_round_trip(p)
    return p


@given(mutated_programs())
@_settings(120, fast=True)
def test_fuzz_mutated_programs(text):
    parse_or_syntax_error(text)


@pytest.mark.slow
@given(mutated_programs())
@_settings(4000, fast=False)
def test_fuzz_mutated_programs_large(text):
    parse_or_syntax_error(text)


def test_every_shipped_program_round_trips():
    for path, text in zip(PROGRAM_FILES, SOURCES):
        p = parse_or_syntax_error(text)
        assert p is not None, path.name


# ----------------------------------------------------------------------------- 3. --set values
THEOREMS = registry.load_all()
PARAMS = [(thm, p) for thm in THEOREMS.values() for p in thm.params.params]
_TRANSLATE = {"arabic": str.maketrans("0123456789", "".join(chr(0x660 + d) for d in range(10))),
              "fullwidth": str.maketrans("0123456789", "".join(chr(0xFF10 + d) for d in range(10)))}


def _near(p: Any) -> list[Any]:
    """Numbers at and just beyond the parameter's limits."""
    out: list[Any] = [0, 1, -1, 2**63, -(2**63), 10**30]
    for bound in (p.min, p.max, p.default):
        if isinstance(bound, (int, float)) and not isinstance(bound, bool):
            out += [bound, bound - 1, bound + 1, bound - 0.5, bound + 1e-9, bound * 2]
    return out


@st.composite
def set_values(draw: Any) -> tuple[Any, Any, str]:
    thm, p = draw(st.sampled_from(PARAMS))
    number = draw(st.sampled_from(_near(p)))
    spelled = draw(st.sampled_from([str, repr, lambda x: f"{x:e}" if isinstance(x, float) else str(x),
                                    lambda x: f" {x} ", lambda x: f"+{x}", lambda x: f"{x}.0",
                                    lambda x: str(x).translate(_TRANSLATE["arabic"]),
                                    lambda x: str(x).translate(_TRANSLATE["fullwidth"]),
                                    lambda x: f"{x}_0", lambda x: f"0{x}", lambda x: hex(int(x))]))
    choices = [str(c) for c in p.choices or ()] + ["sigmoid", "ALL"]
    choice = draw(st.sampled_from(choices))
    value = draw(st.one_of(
        st.just(spelled(number)),
        st.sampled_from(["", " ", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e999", "-1e999",
                         "1e-999", "1e308", "0x10", "0b1", "1/2", "true", "True", "TRUE", " yes ", "no", "on",
                         "off", "t", "f", "1", "0", "01", "\x00", "\ufeff1", "1\u200f", "\U0001d7d9",
                         "1" * 5000, "9" * 4400, "-" + "9" * 400, "0." + "3" * 3000, "1e" + "9" * 30, "=1",
                         "1=2", "None", "[]", "{}"]),
        st.sampled_from([choice, choice.upper(), choice.lower(), choice[:-1], choice + "x", f" {choice}\t",
                         choice.replace("i", "\u0131"), choice + "\x00", choice * 50]),
        st.text(max_size=20)))
    return thm, p, value


def check_set(thm: Any, p: Any, value: str) -> None:
    with no_code_from_input():
        try:
            out = thm.params.parse_sets([f"{p.name}={value}"])
        except Exception as exc:  # noqa: BLE001 (the property: nothing but an InputError naming --set NAME)
            assert isinstance(exc, InputError), repr(exc)
            assert exc.field == f"--set {p.name}", str(exc)
            assert str(exc).startswith(f"--set {p.name}: expected "), str(exc)
            assert len(str(exc).splitlines()) == 1 and len(str(exc)) <= MAX_MESSAGE, str(exc)
            return
    assert list(out) == [p.name]
    v = out[p.name]
    assert type(v) is p.type, (value, v)
    assert p.validate(v) == v
    if p.type is float:
        assert v == v and abs(v) != float("inf")
    if p.choices is not None:
        assert v in p.choices
    if p.min is not None:
        assert v >= p.min
    if p.max is not None:
        assert v <= p.max


@given(set_values())
@_settings(80, fast=True)
def test_fuzz_set_values(case):
    check_set(*case)


@pytest.mark.slow
@given(set_values())
@_settings(2000, fast=False)
def test_fuzz_set_values_large(case):
    check_set(*case)


def test_every_parameter_parses_its_default_and_limits():
    for thm, p in PARAMS:
        text = str(p.default).lower() if p.type is bool else str(p.default)
        assert thm.params.parse_sets([f"{p.name}={text}"]) == {p.name: p.default}
        for bound in (p.min, p.max):
            if bound is not None:
                assert thm.params.parse_sets([f" {p.name} = {bound} "]) == {p.name: bound}



# ----------------------------------------------------------------------------- regressions (findings)
def test_local_count_with_an_offset_beyond_the_string_has_one_value_per_position():
    """Finding: interp._local sliced p[1 : n + 1 - c] with a negative end when c >= n + 2, so a local
    count had more values than positions (#[4] Q(a) on "aa" gave [0, 0, 0, 1])."""
    p = parse("alphabet: a b\nX := #[4] Q(a)\nY := #[{3, 9}] Q(a)\nZ := X >= 1\n")
    for w in ("", "a", "aa", "aaa", "aaaa", "aaaaa"):
        values = evaluate(p, w)
        assert all(len(v) == len(w) + 1 for v in values.values()), (w, values)
        assert values["X"] == [int(i >= 5) for i in range(len(w) + 1)]
        assert values["Y"] == [int(i >= 4) for i in range(len(w) + 1)]
    np.testing.assert_array_equal(evaluate_batch(p, all_strings(2, 3))["X"], np.zeros((8, 4), dtype=np.int64))


@pytest.mark.parametrize("text", [
    "alphabet: a\nZ := " + "y" * 5000 + "\n",  # unknown name
    "alphabet: a\n" + "Z" * 5000 + " := Q(a)\n" + "Z" * 5000 + " := Q(a)\n",  # defined twice
    "alphabet: a\n" + "Z" * 5000 + " = Q(a)\n",  # ':=' after the name
    "alphabet: " + " ".join(f"s{i}" * 30 for i in range(400)) + "\nZ := Q(b)\n",  # not in a long alphabet
])
def test_a_long_name_is_echoed_once_and_briefly(text):
    """Finding: the expectation quoted the offending name in full (capped at 400 characters) and the got
    quoted it again, so one error echoed about 600 characters of input."""
    assert parse_or_syntax_error(text) is None
    with pytest.raises(CraspSyntaxError) as info:
        parse(text)
    assert len(str(info.value)) <= 400, str(info.value)  # was about 600: 400 + 200 characters of the name


def test_a_long_alphabet_line_parses_in_linear_time():
    """The alphabet's symbols are checked for duplicates and looked up in sets (was a list: quadratic in
    the number of symbols, about 0.4 s for 10 000)."""
    import time

    symbols = [str(i) for i in range(16_000)]
    uses = " or ".join(f"Q({s})" for s in symbols[-900:])
    text = "alphabet: " + " ".join(symbols) + "\nZ := " + uses + "\n"
    assert len(text) < MAX_CHARS
    start = time.perf_counter()
    p = parse(text)
    assert len(p.alphabet) == 16_000 and time.perf_counter() - start < 1.0
    with pytest.raises(InputError) as info:
        evaluate(p, ["0", "x" * 1000])
    assert "... (16000 symbols)" in str(info.value) and len(str(info.value)) < 400


def test_strict_past_is_zero_at_the_virtual_position():
    """Finding: #< P expanded to #P - (P ? 1 : 0) was -1 at position 0 where P holds there (true, not Q(a),
    mod(m, 0)), so the empty string was decided on a count of -1; docs/crasp.md defines #< P at i as
    #{j in 1..i-1 : P(j)}, which is 0 at position 0."""
    p = parse("alphabet: a b\nT := #< true\nN := #< not Q(a)\nM := #< mod(2, 0)\nL := T == 0 and N <= 0\n")
    assert evaluate(p, "")["T"] == [0] and evaluate(p, "")["L"] == [True]
    for w in ("a", "ab", "bba", "abab"):
        values = evaluate(p, w)
        assert values["T"] == list(range(len(w) + 1)[:1]) + list(range(len(w)))
        assert values["N"] == [0] + [w[: i - 1].count("b") for i in range(1, len(w) + 1)]
        assert values["M"] == [0] + [sum(j % 2 == 0 for j in range(1, i)) for i in range(1, len(w) + 1)]
    X = all_strings(2, 4)
    batch = evaluate_batch(p, X)
    assert (batch["T"][:, 0] == 0).all() and batch["L"][:, 0].all()
    assert_round_trip(p)


def test_a_large_program_prints_longer_than_the_input_cap_and_parses_back():
    """Finding: a 24 000-character program of about 6 000 operations (a long sum) printed, one statement
    per operation, to more than MAX_CHARS characters, which parse refused: the printed form of a program
    the parser accepts could not be parsed back. parse(text, max_chars=len(text)) reads trusted text."""
    text = "alphabet: a b\nZ := #Q(a) + " + " + ".join(["1"] * 6000) + "\nL := Z >= 3 <-> Q(b)\n"
    p = parse(text)
    printed = to_text(p)
    assert len(text) < MAX_CHARS < len(printed)
    with pytest.raises(CraspSyntaxError) as info:
        parse(printed)  # the cap on input text stays
    assert f"at most {MAX_CHARS} characters" in str(info.value)
    assert_round_trip(p)
    assert evaluate(parse(printed, max_chars=len(printed)), "abab")["L"] == evaluate(p, "abab")["L"]
