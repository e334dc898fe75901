"""Fuzzing the C-RASP program text boundary and the ``--set NAME=VALUE`` boundary with Hypothesis (issue 10).

1. Grammar-generated programs (every construct the parser accepts, at random precedence with and without
   parentheses, random blanks, comments, CRLF and a byte-order mark): they parse; they mean what the
   grammar says (an independent evaluator of the generated syntax tree agrees with the reference
   interpreter at every prefix of every short string); ``parse(to_text(p))`` is ``p`` up to the renaming of
   generated operations and printing is idempotent; the reference and the vectorized interpreters agree on
   every operation at every prefix of every string up to a small length.
2. Token mutations of the shipped programs (deleted, duplicated, swapped, replaced tokens, inserted
   unicode: BOM, NUL, bidi marks, fullwidth and Arabic-Indic digits; 18+ digit constants; deep nesting of
   parentheses, unary minus, ``not`` and ``#``; very long lines; CRLF and lone CR): parsing either succeeds
   (and the result round-trips through the printer) or raises a CraspSyntaxError (an InputError) whose
   message is one line, at most MAX_MESSAGE characters, naming a line and column inside the text; never
   another exception, never slower than the deadline, never code run from the text.
3. ``thm.params.parse_sets(["NAME=VALUE"])`` for every parameter of every registered theorem with values at
   and beyond the limits, floats for ints, nan/inf, unicode digits, empty, huge, booleans and choices
   misspelled: an in-range value of the parameter's type, or an InputError naming ``--set NAME``.

The command-line boundary (``proofkit crasp eval|check|compile|rows``) is fuzzed in
``tests/interface/test_fuzz_cli.py``. Case counts: the fast run is a derandomized sample of 300 cases here
(grammar 100, mutations 120, --set 80; about 4 s); ``-m slow`` runs 9 000 random cases here (grammar 3 000,
mutations 4 000, --set 2 000; about 60 s), each under the per-case deadline of 2 s. With
``tests/interface/test_fuzz_cli.py`` the fast run is 440 cases and the slow run 12 500.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proofkit.crasp.language.ir import Program
from proofkit.crasp.language.lexer import KEYWORDS, MAX_CHARS, CraspSyntaxError, without_bom
from proofkit.crasp.language.parser import parse
from proofkit.crasp.language.printer import to_text
from proofkit.crasp.semantics.interp import evaluate
from proofkit.crasp.semantics.vector import accepts_prefixes, all_strings, evaluate_batch, max_length
from proofkit.errors import InputError
from proofkit.language import registry
from tests.fuzzguard import DEADLINE, no_code_from_input

ROOT = Path(__file__).resolve().parents[2]
PROGRAM_FILES = sorted((ROOT / "theorems/hyb24/programs").glob("*.crasp"))
SOURCES = [p.read_text(encoding="utf-8") for p in PROGRAM_FILES]
#: the longest error message accepted: field, expectation and the echoed input together
MAX_MESSAGE = 500
_AT = re.compile(r"line (\d+), column (\d+)")


def _settings(examples: int, fast: bool) -> settings:
    return settings(max_examples=examples, deadline=DEADLINE, database=None, derandomize=fast,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])


# ----------------------------------------------------------------------------- the IR up to renaming
def canonical(p: Program) -> tuple:
    """The program with every operand and the output as an op index: equal for programs that differ only
    in the names of their operations (the printer renames generated ``_t<k>`` to ``t<k>``)."""
    index = {op.name: k for k, op in enumerate(p.ops)}
    ops = tuple((op.kind, tuple(index[a] for a in op.args), op.symbol, op.modulus, op.residue, op.offsets,
                 op.value) for op in p.ops)
    return p.alphabet, ops, index[p.output]


def assert_round_trip(p: Program) -> None:
    """parse(to_text(p)) is p up to renaming, and printing that again gives the same text. The printed
    text of a large program can exceed MAX_CHARS (the cap on input text), so the cap is raised to its
    length (the documented way to re-parse printer output)."""
    text = to_text(p)
    q = parse(text, max_chars=max(MAX_CHARS, len(text)))
    assert canonical(q) == canonical(p), text
    assert to_text(q) == text
    assert all(op.name == q.ops[k].name for k, op in enumerate(p.ops) if not op.name.startswith("_"))


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
