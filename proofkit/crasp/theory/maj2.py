"""Two-variable majority logic MAJ2[<, MOD, +c] (Huang et al. 2024, Def. 30; Krebs 2008): formulas as a small
data structure, a hand-written parser for a tiny text grammar (never eval'd) and an exact evaluator.

Semantics (positions 1..n of w = w_1 ... w_n; Def. 30 as we reconstruct it: our text of the paper lost the
formulas):

- ``maj x (phi)`` holds iff strictly more than half of the positions satisfy phi: 2 |{x : phi}| > n;
- ``exists x (phi)``: some position x in 1..n satisfies phi; ``forall x (phi)`` = not exists x (not phi);
- ``Q(a, x)``: w_x = a; ``x < y`` (and ``<= > >= =``), optionally ``x = y + c`` / ``x < y + c`` with an
  integer constant c (the +c predicates); ``mod(x, m, r)``: x = r (mod m), m >= 1, 0 <= r < m;
- ``not and or -> true false``; only the two variable names ``x`` and ``y``.

On the empty string there are no positions: ``exists`` is false, ``maj`` is false (0 > 0 fails), ``forall``
is true. A sentence (no free variable) accepts w iff it holds on w.

Grammar (EBNF, one formula, whitespace free, ``//`` comments to the end of a line)::

    formula     = implication ;
    implication = disjunction [ "->" implication ] ;
    disjunction = conjunction { "or" conjunction } ;
    conjunction = negation { "and" negation } ;
    negation    = "not" negation | quantified | atom | "(" formula ")" ;
    quantified  = ( "maj" | "exists" | "forall" ) VAR "(" formula ")" ;
    atom        = "true" | "false" | "Q" "(" SYMBOL "," VAR ")" | "mod" "(" VAR "," INT "," INT ")"
                | VAR ( "<" | "<=" | ">" | ">=" | "=" ) VAR [ ( "+" | "-" ) INT ] ;
    VAR         = "x" | "y" ;

Unicode aliases: ``¬ ∧ ∨ → ∃ ∀ ≤ ≥`` and ``Maj``. Errors are :class:`Maj2SyntaxError` (an
:class:`~proofkit.errors.InputError` with field ``line L, column C``) saying what was expected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...errors import InputError

VARS = ("x", "y")
MAX_CHARS = 20_000
MAX_NESTING = 60
CMP_OPS = ("<", "<=", ">", ">=", "=")
_ALIASES = {"¬": "not", "∧": "and", "∨": "or", "→": "->", "∃": "exists", "∀": "forall", "≤": "<=",
            "≥": ">=", "Maj": "maj", "MAJ": "maj"}
_KEYWORDS = frozenset({"not", "and", "or", "maj", "exists", "forall", "true", "false", "Q", "mod"})


# --------------------------------------------------------------------------------------------------------
# Formulas


@dataclass(frozen=True)
class Const:
    """true or false."""

    value: bool


@dataclass(frozen=True)
class Letter:
    """Q(symbol, var): the letter at position var is symbol."""

    symbol: str
    var: str


@dataclass(frozen=True)
class Compare:
    """left op right + shift, op in < <= > >= = (shift is the +c of MAJ2[<, +c])."""

    left: str
    op: str
    right: str
    shift: int = 0


@dataclass(frozen=True)
class Mod:
    """var = residue (mod modulus)."""

    var: str
    modulus: int
    residue: int


@dataclass(frozen=True)
class Not:
    """Negation."""

    body: Formula


@dataclass(frozen=True)
class And:
    """Conjunction."""

    left: Formula
    right: Formula


@dataclass(frozen=True)
class Or:
    """Disjunction."""

    left: Formula
    right: Formula


@dataclass(frozen=True)
class Quant:
    """kind in maj, exists, forall; binds var in body."""

    kind: str
    var: str
    body: Formula


Formula = Const | Letter | Compare | Mod | Not | And | Or | Quant


def free_vars(f: Formula) -> frozenset[str]:
    """Free variables of a formula."""
    if isinstance(f, Const):
        return frozenset()
    if isinstance(f, Letter | Mod):
        return frozenset({f.var})
    if isinstance(f, Compare):
        return frozenset({f.left, f.right})
    if isinstance(f, Not):
        return free_vars(f.body)
    if isinstance(f, And | Or):
        return free_vars(f.left) | free_vars(f.right)
    if isinstance(f, Quant):
        return free_vars(f.body) - {f.var}
    raise InputError("formula", "a MAJ2 formula node", type(f).__name__)


def to_text(f: Formula) -> str:
    """Print a formula in the grammar of this module (fully parenthesized)."""
    if isinstance(f, Const):
        return "true" if f.value else "false"
    if isinstance(f, Letter):
        return f"Q({f.symbol}, {f.var})"
    if isinstance(f, Mod):
        return f"mod({f.var}, {f.modulus}, {f.residue})"
    if isinstance(f, Compare):
        shift = "" if not f.shift else (f" + {f.shift}" if f.shift > 0 else f" - {-f.shift}")
        return f"{f.left} {f.op} {f.right}{shift}"
    if isinstance(f, Not):
        return f"not ({to_text(f.body)})"
    if isinstance(f, And | Or):
        word = "and" if isinstance(f, And) else "or"
        return f"({to_text(f.left)}) {word} ({to_text(f.right)})"
    if isinstance(f, Quant):
        return f"{f.kind} {f.var} ({to_text(f.body)})"
    raise InputError("formula", "a MAJ2 formula node", type(f).__name__)


# --------------------------------------------------------------------------------------------------------
# Parser


class Maj2SyntaxError(InputError):
    """A syntax error in MAJ2 formula text; field is ``line L, column C``."""

    def __init__(self, line: int, column: int, expected: str, got: object = None) -> None:
        self.line, self.column = line, column
        super().__init__(f"line {line}, column {column}", expected, got)


@dataclass(frozen=True)
class _Tok:
    kind: str  # word, int, op, eof
    text: str
    line: int
    col: int


_OPS = ("->", "<=", ">=", "<", ">", "=", "(", ")", ",", "+", "-")


def _tokens(text: str) -> list[_Tok]:
    """Split formula text into tokens (words, integers, operators), mapping the unicode aliases."""
    out: list[_Tok] = []
    line, col, i = 1, 1, 0
    while i < len(text):
        ch = text[i]
        if ch == "\n":
            line, col, i = line + 1, 1, i + 1
            continue
        if ch.isspace():
            col, i = col + 1, i + 1
            continue
        if text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        if ch in _ALIASES:
            alias = _ALIASES[ch]
            out.append(_Tok("op" if alias in _OPS else "word", alias, line, col))
            col, i = col + 1, i + 1
            continue
        if ch.isascii() and (ch.isalpha() or ch == "_"):
            j = i
            while j < len(text) and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = _ALIASES.get(text[i:j], text[i:j])
            out.append(_Tok("word", word, line, col))
            col, i = col + j - i, j
            continue
        if ch.isascii() and ch.isdigit():
            j = i
            while j < len(text) and text[j].isascii() and text[j].isdigit():
                j += 1
            if j - i > 9:
                raise Maj2SyntaxError(line, col, "an integer of at most 9 digits", text[i:j])
            out.append(_Tok("int", text[i:j], line, col))
            col, i = col + j - i, j
            continue
        op = next((o for o in _OPS if text.startswith(o, i)), None)
        if op is None:
            raise Maj2SyntaxError(line, col, "a MAJ2 token (word, integer, -> <= >= < > = ( ) , + -)", ch)
        out.append(_Tok("op", op, line, col))
        col, i = col + len(op), i + len(op)
    out.append(_Tok("eof", "end of text", line, col))
    return out


class _Parser:
    """Recursive descent over the token list."""

    def __init__(self, text: str, alphabet: Sequence[str] | None) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0
        self.alphabet = None if alphabet is None else tuple(alphabet)

    def peek(self) -> _Tok:
        return self.toks[self.i]

    def fail(self, expected: str, tok: _Tok | None = None) -> Maj2SyntaxError:
        tok = tok or self.peek()
        return Maj2SyntaxError(tok.line, tok.col, expected, tok.text)

    def take(self, text: str, what: str | None = None) -> _Tok:
        tok = self.peek()
        if tok.text != text or tok.kind not in ("op", "word"):
            raise self.fail(what or f"'{text}'")
        self.i += 1
        return tok

    def var(self) -> str:
        tok = self.peek()
        if tok.kind != "word" or tok.text not in VARS:
            raise self.fail("a variable 'x' or 'y' (MAJ2 has exactly two variable names)")
        self.i += 1
        return tok.text

    def integer(self, what: str) -> int:
        tok = self.peek()
        if tok.kind != "int":
            raise self.fail(what)
        self.i += 1
        return int(tok.text)

    def formula(self) -> Formula:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.fail(f"a formula nested at most {MAX_NESTING} levels deep")
        left = self.disjunction()
        if self.peek().text == "->":
            self.i += 1
            right = self.formula()
            left = Not(And(left, Not(right)))
        self.depth -= 1
        return left

    def disjunction(self) -> Formula:
        f = self.conjunction()
        while self.peek().kind == "word" and self.peek().text == "or":
            self.i += 1
            f = Or(f, self.conjunction())
        return f

    def conjunction(self) -> Formula:
        f = self.negation()
        while self.peek().kind == "word" and self.peek().text == "and":
            self.i += 1
            f = And(f, self.negation())
        return f

    def negation(self) -> Formula:
        tok = self.peek()
        if tok.kind == "word" and tok.text == "not":
            self.i += 1
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise self.fail(f"a formula nested at most {MAX_NESTING} levels deep")
            body = self.negation()
            self.depth -= 1
            return Not(body)
        if tok.kind == "word" and tok.text in ("maj", "exists", "forall"):
            self.i += 1
            v = self.var()
            self.take("(", f"'(' after '{tok.text} {v}'")
            body = self.formula()
            self.take(")", f"')' closing the body of '{tok.text} {v}'")
            return Quant(tok.text, v, body)
        if tok.kind == "op" and tok.text == "(":
            self.i += 1
            f = self.formula()
            self.take(")", "')' closing '('")
            return f
        return self.atom()

    def atom(self) -> Formula:
        tok = self.peek()
        if tok.kind == "word" and tok.text in ("true", "false"):
            self.i += 1
            return Const(tok.text == "true")
        if tok.kind == "word" and tok.text == "Q":
            self.i += 1
            self.take("(", "'(' after 'Q'")
            sym = self.peek()
            if sym.kind not in ("word", "int") or sym.text in _KEYWORDS:
                raise self.fail("a letter symbol")
            if self.alphabet is not None and sym.text not in self.alphabet:
                raise self.fail("a letter of the alphabet " + " ".join(self.alphabet))
            self.i += 1
            self.take(",", "',' after the letter in Q(letter, var)")
            v = self.var()
            self.take(")", "')' closing Q(letter, var)")
            return Letter(sym.text, v)
        if tok.kind == "word" and tok.text == "mod":
            self.i += 1
            self.take("(", "'(' after 'mod'")
            v = self.var()
            self.take(",", "',' in mod(var, m, r)")
            mtok = self.peek()
            m = self.integer("a modulus m >= 1 in mod(var, m, r)")
            if m < 1:
                raise self.fail("a modulus m >= 1 in mod(var, m, r)", mtok)
            self.take(",", "',' in mod(var, m, r)")
            rtok = self.peek()
            r = self.integer("a residue 0 <= r < m in mod(var, m, r)")
            if r >= m:
                raise self.fail(f"a residue 0 <= r < {m} in mod(var, m, r)", rtok)
            self.take(")", "')' closing mod(var, m, r)")
            return Mod(v, m, r)
        if tok.kind == "word" and tok.text in VARS:
            left = self.var()
            op = self.peek()
            if op.kind != "op" or op.text not in CMP_OPS:
                raise self.fail("a comparison < <= > >= = after the variable")
            self.i += 1
            right = self.var()
            shift = 0
            if self.peek().kind == "op" and self.peek().text in ("+", "-"):
                sign = 1 if self.peek().text == "+" else -1
                self.i += 1
                shift = sign * self.integer("an integer constant c after '+' or '-'")
            return Compare(left, op.text, right, shift)
        raise self.fail("a formula (not, maj, exists, forall, '(', true, false, Q(a, x), mod(x, m, r) "
                        "or a comparison x < y)")


def parse(text: str, alphabet: Sequence[str] | None = None, sentence: bool = False) -> Formula:
    """Parse MAJ2 formula text (never eval'd); with ``sentence`` the formula must have no free variable."""
    if not isinstance(text, str):
        raise InputError("formula text", "a str", type(text).__name__)
    if len(text) > MAX_CHARS:
        raise InputError("formula text", f"at most {MAX_CHARS} characters", len(text))
    p = _Parser(text, alphabet)
    f = p.formula()
    if p.peek().kind != "eof":
        raise p.fail("end of formula (or 'and', 'or', '->')")
    if sentence and free_vars(f):
        raise InputError("formula", "a sentence (every variable bound by maj, exists or forall)",
                         "free " + ", ".join(sorted(free_vars(f))))
    return f


# --------------------------------------------------------------------------------------------------------
# Evaluator


def _table(f: Formula, word: Sequence[str], pos: np.ndarray) -> np.ndarray:
    """Truth table over (x, y): shape (n or 1, n or 1), axis 0 = x, axis 1 = y (size 1 when not free)."""
    n = len(word)
    if isinstance(f, Const):
        return np.full((1, 1), f.value)
    if isinstance(f, Letter):
        col = np.array([s == f.symbol for s in word], dtype=bool)
        return col.reshape(-1, 1) if f.var == "x" else col.reshape(1, -1)
    if isinstance(f, Mod):
        col = pos % f.modulus == f.residue
        return col.reshape(-1, 1) if f.var == "x" else col.reshape(1, -1)
    if isinstance(f, Compare):
        lhs = pos.reshape(-1, 1) if f.left == "x" else pos.reshape(1, -1)
        rhs = pos.reshape(-1, 1) if f.right == "x" else pos.reshape(1, -1)
        rhs = rhs + f.shift
        res = {"<": lhs < rhs, "<=": lhs <= rhs, ">": lhs > rhs, ">=": lhs >= rhs, "=": lhs == rhs}[f.op]
        return np.asarray(res, dtype=bool)
    if isinstance(f, Not):
        return ~_table(f.body, word, pos)
    if isinstance(f, And | Or):
        a, b = _table(f.left, word, pos), _table(f.right, word, pos)
        return (a & b) if isinstance(f, And) else (a | b)
    if isinstance(f, Quant):
        t = _table(f.body, word, pos)
        axis = 0 if f.var == "x" else 1
        full = np.broadcast_to(t, (n, t.shape[1]) if axis == 0 else (t.shape[0], n))
        if f.kind == "exists":
            return full.any(axis=axis, keepdims=True)
        if f.kind == "forall":
            return full.all(axis=axis, keepdims=True)
        return 2 * full.sum(axis=axis, keepdims=True) > n
    raise InputError("formula", "a MAJ2 formula node", type(f).__name__)


def holds(f: Formula, word: Sequence[str] | str, x: int | None = None, y: int | None = None) -> bool:
    """Truth of f on word (1-based positions), with free variables assigned by x and y."""
    w = list(word)
    n = len(w)
    need = free_vars(f)
    for name, val in (("x", x), ("y", y)):
        if name in need and (val is None or not 1 <= val <= n):
            raise InputError(name, f"a position in 1..{n} for the free variable {name}", val)
    t = _table(f, w, np.arange(1, n + 1))
    i = (x - 1) if ("x" in need and t.shape[0] > 1) else 0
    j = (y - 1) if ("y" in need and t.shape[1] > 1) else 0
    return bool(t[i, j])


def accepts(f: Formula, word: Sequence[str] | str) -> bool:
    """Whether the sentence f holds on word (InputError if f has a free variable)."""
    if free_vars(f):
        free = ", ".join(sorted(free_vars(f)))
        raise InputError("formula", "a sentence (no free variable)", f"free {free}")
    return holds(f, word)


#: the even-length witness of Remark 32 (the formula is derived here, not in the paper): for |w| >= 1 it
#: holds iff |w| is even; false on the empty string (no position y exists), so it defines the even
#: NON-EMPTY lengths.
EVEN_LENGTH = "exists y (not maj x (x <= y) and not maj x (x > y))"

#: MAJORITY (#a >= #b) over {a, b}: at most half the positions carry b. True on the empty string.
MAJORITY = "not maj x (Q(b, x))"
