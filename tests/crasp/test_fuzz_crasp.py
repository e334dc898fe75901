"""Fuzzing the C-RASP program text boundary with grammar-generated programs (Hypothesis, issue 10): every
construct the parser accepts, at random precedence with and without parentheses, random blanks, comments,
CRLF and a byte-order mark. They parse; they mean what the grammar says (an independent evaluator of the
generated syntax tree agrees with the reference interpreter at every prefix of every short string);
``parse(to_text(p))`` is ``p`` up to the renaming of generated operations and printing is idempotent; the
reference and the vectorized interpreters agree on every operation at every prefix of every string up to a
small length.

Case counts (with test_fuzz_crasp_mutations.py): the fast run is a derandomized sample of 300 cases (grammar
100, mutations 120, --set 80; about 4 s); ``-m slow`` runs 9 000 random cases (grammar 3 000, mutations
4 000, --set 2 000; about 60 s), each under the per-case deadline of 2 s. With
``tests/interface/test_fuzz_cli.py`` (the command-line boundary) the fast run is 440 cases and the slow run
12 500."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from proofkit.crasp.language.ir import Program
from proofkit.crasp.language.lexer import KEYWORDS
from proofkit.crasp.language.parser import parse
from proofkit.crasp.semantics.interp import evaluate
from proofkit.crasp.semantics.vector import accepts_prefixes, all_strings, evaluate_batch, max_length
from proofkit.errors import InputError
from tests.crasp.fuzz_crasp_helpers import (
    _settings,
    assert_round_trip,
    canonical,
)
from tests.fuzzguard import no_code_from_input

# ----------------------------------------------------------------------------- 1. generated programs
# A syntax tree is a tuple (tag, ...). Boolean tags: true false sym mod ref not and or imp iff cmp exists;
# count tags: int ref count strict local add sub neg cond min max.
LEVEL = {"cond": 0, "imp": 1, "iff": 1, "or": 2, "and": 3, "not": 4, "cmp": 5, "add": 6, "sub": 6,
         "neg": 7, "count": 7, "strict": 7, "local": 7}  # everything else is a primary (8)
CMP = ("<=", "<", ">=", ">", "==", "!=")
SYMBOLS = ["a", "b", "c", "SEP", "x1", "Q", "not", "accept", "0", "1", "007", "(", ")", "'", '"', "#", "/",
           "\u00e9", "\u0661", "\x00", "\u200f"]
NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,6}", fullmatch=True).filter(lambda s: s not in KEYWORDS)
SMALL = st.integers(-3, 6)
HUGE = st.sampled_from([999_999_999_999_999_999, 123_456_789_012_345_678, 10**17])


def _symbol_text(symbol: str, quote: bool) -> str:
    """How a symbol is written: bare when it is a name or digits (or quoted, if asked and one character)."""
    bare = re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+", symbol) is not None
    if bare and not (quote and len(symbol) == 1):
        return symbol
    return f'"{symbol}"' if symbol == "'" else f"'{symbol}'"


def _expr(draw: Any, sort: str, depth: int, env: dict[str, str], alphabet: list[str]) -> tuple:
    """A random well-typed syntax tree of the given sort."""
    refs = [n for n, s in env.items() if s == sort]
    if sort == "bool":
        leaves = ["true", "false", "sym", "mod"] + (["ref"] if refs else [])
        inner = ["not", "and", "or", "imp", "iff", "cmp", "exists"]
    else:
        leaves = ["int"] + (["ref"] if refs else [])
        inner = ["count", "strict", "local", "add", "sub", "neg", "cond", "min", "max"]
    tag = draw(st.sampled_from(leaves + (inner if depth > 0 else [])))
    d = depth - 1
    if tag in ("true", "false"):
        return (tag,)
    if tag == "sym":
        return ("sym", draw(st.sampled_from(alphabet)))
    if tag == "mod":
        m = draw(st.one_of(st.integers(1, 5), st.just(999_999_999_999_999_999)))
        return ("mod", m, draw(st.integers(0, min(m - 1, 6))))
    if tag == "ref":
        return ("ref", draw(st.sampled_from(refs)))
    if tag == "int":
        return ("int", draw(st.one_of(SMALL, SMALL, SMALL, HUGE, HUGE.map(lambda v: -v))))
    if tag in ("not", "exists", "count", "strict"):
        return (tag, _expr(draw, "bool", d, env, alphabet))
    if tag in ("and", "or", "imp", "iff"):
        return (tag, _expr(draw, "bool", d, env, alphabet), _expr(draw, "bool", d, env, alphabet))
    if tag == "cmp":
        return ("cmp", draw(st.sampled_from(CMP)), _expr(draw, "count", d, env, alphabet),
                _expr(draw, "count", d, env, alphabet))
    if tag == "local":
        offsets = draw(st.lists(st.one_of(st.integers(0, 7), st.just(10**17)), min_size=1, max_size=3))
        return ("local", tuple(offsets), _expr(draw, "bool", d, env, alphabet))
    if tag == "neg":
        return ("neg", _expr(draw, "count", d, env, alphabet))
    if tag == "cond":
        return ("cond", _expr(draw, "bool", d, env, alphabet), _expr(draw, "count", d, env, alphabet),
                _expr(draw, "count", d, env, alphabet))
    return (tag, _expr(draw, "count", d, env, alphabet), _expr(draw, "count", d, env, alphabet))


class _Render:
    """Syntax tree -> program text at random: extra parentheses, blanks, quoting of symbols."""

    def __init__(self, rnd: Any) -> None:
        self.rnd = rnd

    def gap(self, required: bool = False) -> str:
        """Blank between tokens: never empty between two words."""
        choices = [" ", " ", " ", "  ", "\t"] + ([] if required else ["", ""])
        return self.rnd.choice(choices)

    def level(self, e: tuple) -> int:
        if e[0] == "int":
            return 8 if e[1] >= 0 else 7
        return LEVEL.get(e[0], 8)

    def __call__(self, e: tuple, need: int = 0) -> str:
        if self.level(e) < need or self.rnd.random() < 0.08:
            return "(" + self.gap() + self.text(e) + self.gap() + ")"
        return self.text(e)

    def operand(self, e: tuple) -> str:
        """A Boolean operand of #, #<, #[...] or exists: not-chains over primaries, else parenthesized."""
        if e[0] == "not" and self.rnd.random() < 0.7:
            return "not " + self.operand(e[1])
        if self.level(e) >= 8 and e[0] != "not":
            return self(e, 8)
        return "(" + self.text(e) + ")"

    def text(self, e: tuple) -> str:
        tag, g, w = e[0], self.gap, lambda: self.gap(required=True)
        if tag in ("true", "false"):
            return tag
        if tag == "sym":
            return f"Q({g()}{_symbol_text(e[1], self.rnd.random() < 0.3)}{g()})"
        if tag == "mod":
            return f"mod({g()}{e[1]},{g()}{e[2]}{g()})"
        if tag == "ref":
            return e[1]
        if tag == "int":
            return str(e[1]) if e[1] >= 0 or self.rnd.random() < 0.5 else f"-{g()}{-e[1]}"
        if tag == "not":
            return f"not{w()}{self(e[1], 4)}"
        if tag in ("and", "or"):
            left = 2 if tag == "or" else 3
            return f"{self(e[1], left)}{w()}{tag}{w()}{self(e[2], left + 1)}"
        if tag in ("imp", "iff"):
            return f"{self(e[1], 2)}{g()}{'->' if tag == 'imp' else '<->'}{g()}{self(e[2], 1)}"
        if tag == "cmp":
            return f"{self(e[2], 6)}{g()}{e[1]}{g()}{self(e[3], 6)}"
        if tag in ("add", "sub"):
            return f"{self(e[1], 6)}{g()}{'+' if tag == 'add' else '-'}{g()}{self(e[2], 7)}"
        if tag == "neg":
            return f"-{g()}{self(e[1], 7)}"
        if tag == "cond":
            return f"{self(e[1], 1)}{g()}?{g()}{self(e[2])}{g()}:{g()}{self(e[3])}"
        if tag in ("min", "max"):
            return f"{tag}({g()}{self(e[1])},{g()}{self(e[2])}{g()})"
        if tag == "exists":
            return f"exists{w()}{self.operand(e[1])}"
        if tag == "count":
            return f"#{g()}{self.operand(e[1])}"
        if tag == "strict":
            return f"#{g()}<{g()}{self.operand(e[1])}"
        offsets = e[1]
        inside = (str(offsets[0]) if len(offsets) == 1 and self.rnd.random() < 0.5
                  else "{" + f",{g()}".join(map(str, offsets)) + "}")
        return f"#[{g()}{inside}{g()}]{g()}{self.operand(e[2])}"


@st.composite
def generated_programs(draw: Any) -> tuple[str, list[str], list[tuple[str, tuple]], str]:
    """(program text, alphabet, [(statement name, syntax tree)], accepted name)."""
    alphabet = draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=3, unique=True))
    rnd = draw(st.randoms(use_true_random=False))
    render = _Render(rnd)
    env: dict[str, str] = {}
    statements: list[tuple[str, tuple]] = []
    count = draw(st.integers(1, 5))
    for k in range(count):
        sort = "bool" if k == count - 1 or draw(st.booleans()) else "count"
        tree = _expr(draw, sort, draw(st.integers(0, 4)), env, alphabet)
        fresh = st.one_of(NAMES, st.sampled_from(["t1", "t2", "t3", "Z_9"])).filter(lambda n: n not in env)
        name = draw(fresh)
        statements.append((name, tree))
        env[name] = sort
    bools = [n for n, s in env.items() if s == "bool"]
    accepted = draw(st.sampled_from(bools))
    explicit = accepted != bools[-1] or draw(st.booleans())
    lines = [draw(st.sampled_from(["", "// a generated program", "   "]))]
    lines.append("alphabet:" + "".join(" " + _symbol_text(s, rnd.random() < 0.3) for s in alphabet))
    for name, tree in statements:
        comment = draw(st.sampled_from(["", "", "  // note: a := b", "\t//"]))
        lines.append(f"{name}{render.gap()}:={render.gap()}{render(tree)}{comment}")
        if draw(st.integers(0, 5)) == 0:
            lines.append("")
    if explicit:
        lines.append(f"accept {accepted}")
    newline = draw(st.sampled_from(["\n", "\n", "\n", "\r\n"]))
    text = newline.join(lines) + draw(st.sampled_from(["", newline, newline * 2]))
    return draw(st.sampled_from(["", "", "", "\ufeff"])) + text, alphabet, statements, accepted


def _counts(p: list) -> list[int]:
    out, total = [0], 0
    for v in p[1:]:
        total += bool(v)
        out.append(total)
    return out


def semantics(e: tuple, w: list[str], env: dict[str, list]) -> list:
    """The value of a syntax tree at positions 0..n of w, straight from the grammar's definitions
    (independent of the parser, the builder and the interpreters)."""
    n = len(w)
    pos = range(n + 1)
    tag = e[0]

    def v(k: int) -> list:
        return semantics(e[k], w, env)

    if tag in ("true", "false"):
        return [tag == "true"] * (n + 1)
    if tag == "sym":
        return [i > 0 and w[i - 1] == e[1] for i in pos]
    if tag == "mod":
        return [i % e[1] == e[2] for i in pos]
    if tag == "ref":
        return env[e[1]]
    if tag == "int":
        return [e[1]] * (n + 1)
    if tag == "not":
        return [not x for x in v(1)]
    if tag in ("and", "or", "imp", "iff"):
        f = {"and": lambda x, y: x and y, "or": lambda x, y: x or y, "imp": lambda x, y: (not x) or y,
             "iff": lambda x, y: x == y}[tag]
        return [f(x, y) for x, y in zip(v(1), v(2))]
    if tag == "cmp":
        f = {"<=": lambda x, y: x <= y, "<": lambda x, y: x < y, ">=": lambda x, y: x >= y,
             ">": lambda x, y: x > y, "==": lambda x, y: x == y, "!=": lambda x, y: x != y}[e[1]]
        return [f(x, y) for x, y in zip(v(2), v(3))]
    if tag == "exists":
        return [c >= 1 for c in _counts(v(1))]
    if tag == "count":
        return _counts(v(1))
    if tag == "strict":  # #< P at i is #{j in 1..i-1 : P(j)} (docs/crasp.md): 0 at position 0
        c = _counts(v(1))
        return [0] + c[:-1]
    if tag == "local":
        p = v(2)
        return [sum(bool(p[i - c]) for c in set(e[1]) if i - c >= 1) for i in pos]
    if tag in ("add", "sub", "min", "max"):
        f = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "min": min, "max": max}[tag]
        return [f(x, y) for x, y in zip(v(1), v(2))]
    if tag == "neg":
        return [-x for x in v(1)]
    return [c if t else d for t, c, d in zip(v(1), v(2), v(3))]  # cond


def _strings(k: int) -> int:
    """The length up to which every string is enumerated: at most 81 strings."""
    return {1: 6, 2: 5}.get(k, 4)


def check_generated(case: tuple[str, list[str], list[tuple[str, tuple]], str]) -> Program:
    text, alphabet, statements, accepted = case
    with no_code_from_input():
        p = parse(text)
    assert p.alphabet == tuple(alphabet) and p.output == accepted
    assert canonical(parse(text.replace("\r\n", "\n").removeprefix("\ufeff"))) == canonical(p)
    assert_round_trip(p)
    k, n = len(alphabet), _strings(len(alphabet))
    X = all_strings(k, n)
    words = [[alphabet[i] for i in row] for row in X.tolist()]
    reference = [evaluate(p, w) for w in words]
    for w, ref in zip(words, reference):  # the grammar's meaning, statement by statement
        env: dict[str, list] = {}
        for name, tree in statements:
            env[name] = semantics(tree, w, env)
            assert [int(x) for x in ref[name]] == [int(x) for x in env[name]], (name, w, text)
        assert all(len(values) == n + 1 for values in ref.values()), (w, text)
        m = len(w) // 2  # a prefix evaluated on its own has the prefix's values
        assert {name: values[: m + 1] for name, values in ref.items()} == evaluate(p, w[:m])
    top = max_length(p)
    if top is not None and top < n:  # huge constants: the vectorized interpreter refuses, never wraps
        with pytest.raises(InputError):
            evaluate_batch(p, X)
        if top < 0:
            return p
        n = top
        X = all_strings(k, n)
        words = [[alphabet[i] for i in row] for row in X.tolist()]
        reference = [evaluate(p, w) for w in words]
    vector = evaluate_batch(p, X)
    for name in vector:
        expected = np.array([[int(x) for x in ref[name]] for ref in reference], dtype=np.int64)
        np.testing.assert_array_equal(vector[name].astype(np.int64), expected, err_msg=name)
    np.testing.assert_array_equal(accepts_prefixes(p, X), vector[p.output])
    return p


@given(generated_programs())
@_settings(100, fast=True)
def test_fuzz_generated_programs(case):
    check_generated(case)


@pytest.mark.slow
@given(generated_programs())
@_settings(3000, fast=False)
def test_fuzz_generated_programs_large(case):
    check_generated(case)
