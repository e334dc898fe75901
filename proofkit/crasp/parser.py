"""C-RASP surface syntax: a hand-written tokenizer and recursive-descent parser to the IR of ``ir.py``.

Program text is data: it is tokenized and parsed here and never passed to eval, exec or any other
evaluator. Grammar (EBNF; ``{x}`` = zero or more, ``[x]`` = optional; one statement per line;
``//`` starts a comment that runs to the end of the line)::

    program     = header { statement } [ "accept" NAME NL ] ;
    header      = "alphabet" ":" symbol { symbol } NL ;
    symbol      = NAME | INT | QUOTED ;               (* a, SEP, 0, 1, '(' , ")" *)
    statement   = NAME ":=" expr NL ;
    expr        = implication [ "?" expr ":" expr ] ;  (* P ? C : C, right-associative *)
    implication = disjunction [ ( "->" | "<->" ) implication ] ;
    disjunction = conjunction { "or" conjunction } ;
    conjunction = negation { "and" negation } ;
    negation    = "not" negation | comparison ;
    comparison  = sum [ ( "<=" | "<" | ">=" | ">" | "==" | "!=" ) sum ] ;   (* no chaining *)
    sum         = unary { ( "+" | "-" ) unary } ;
    unary       = "-" unary | counting | primary ;
    counting    = "#" [ "<" | "[" offsets "]" ] operand ;
    operand     = "not" operand | counting | primary ;
    offsets     = INT | "{" INT { "," INT } "}" ;
    primary     = INT | "true" | "false" | "Q" "(" symbol ")" | "mod" "(" INT "," INT ")"
                | "exists" operand | ( "min" | "max" ) "(" expr "," expr ")" | NAME | "(" expr ")" ;

NAME is ``[A-Za-z][A-Za-z0-9_]*`` minus the keywords (names starting with ``_`` are reserved for the
generated ``_t<k>`` operations), INT is a decimal literal of at most 18 digits, QUOTED is one
non-blank character in single or double quotes. Sugar and its expansion into IR primitives:

    false = not true          P or R  = not (not P and not R)     P -> R = not (P and not R)
    P <-> R = (P -> R) and (R -> P)     C < D  = C + 1 <= D       C >= D = D <= C
    C > D = D + 1 <= C        C == D = C <= D and D <= C          C != D = not (C == D)
    exists P = 1 <= #P        #< P = #P - (P ? 1 : 0)             -C = 0 - C
    min(C, D) = (C <= D) ? C : D        max(C, D) = (C <= D) ? D : C

Every error is a :class:`CraspSyntaxError` naming the line and column.
"""

from __future__ import annotations

import string as _string
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from .ir import Op, Program

MAX_CHARS = 100_000
MAX_OPS = 10_000
MAX_NESTING = 50
MAX_INT_DIGITS = 18

KEYWORDS = frozenset(
    {"alphabet", "accept", "true", "false", "not", "and", "or", "mod", "exists", "min", "max", "Q"}
)
OPERATORS = (
    "<->", ":=", "<=", ">=", "==", "!=", "->",
    "<", ">", "+", "-", "#", "?", ":", "(", ")", "[", "]", "{", "}", ",",
)  # fmt: skip
_NAME_START = frozenset(_string.ascii_letters + "_")
_NAME_CHARS = frozenset(_string.ascii_letters + _string.digits + "_")
_DIGITS = frozenset(_string.digits)
_SORT_WORD = {"bool": "Boolean expression", "count": "count expression"}


class Plain(str):
    """A description printed without quotes in an InputError message (its ``got`` is repr'd)."""

    def __repr__(self) -> str:
        return str(self)


class CraspSyntaxError(InputError):
    """A syntax or type error in C-RASP program text; field is ``"line L, column C"``."""

    def __init__(self, line: int, column: int, expected: str, got: object = None) -> None:
        self.line = line
        self.column = column
        super().__init__(f"line {line}, column {column}", expected, got)


@dataclass(frozen=True)
class Token:
    """One token: kind is name, int, quoted, op, newline or eof; text is the source text."""

    kind: str
    text: str
    line: int
    col: int

    def describe(self) -> Plain | str:
        """What the token looks like in an error message."""
        if self.kind == "newline":
            return Plain("end of line")
        if self.kind == "eof":
            return Plain("end of program")
        return self.text


# ----------------------------------------------------------------------------- tokenizer
def _position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of character ``index`` of ``text``."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def tokenize(text: str) -> list[Token]:
    """Split program text into tokens, dropping blanks and ``//`` comments; ends with an eof token."""
    tokens, error = _tokenize(text)
    if error is not None:
        raise error
    return tokens


def _tokenize(text: str) -> tuple[list[Token], CraspSyntaxError | None]:
    """Tokens up to the first lexical error, and that error (raised by the parser only when it gets
    there, so errors are reported in source order)."""
    if not isinstance(text, str):
        raise InputError("program text", "a str", Plain(type(text).__name__))
    if len(text) > MAX_CHARS:
        raise CraspSyntaxError(*_position(text, MAX_CHARS), f"a program of at most {MAX_CHARS} characters",
                               Plain(f"{len(text)} characters"))
    tokens: list[Token] = []
    i, line, start_of_line = 0, 1, 0
    while i < len(text):
        ch, col = text[i], i - start_of_line + 1
        if ch == "\n":
            tokens.append(Token("newline", "\n", line, col))
            i, line, start_of_line = i + 1, line + 1, i + 1
        elif ch in " \t\r\f\v":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        else:
            try:
                tok = _scan_token(text, i, line, col)
            except CraspSyntaxError as exc:
                tokens.append(Token("error", text[i], line, col))
                return tokens, exc
            tokens.append(tok)
            i += len(tok.text) + (2 if tok.kind == "quoted" else 0)
    tokens.append(Token("eof", "", line, len(text) - start_of_line + 1))
    return tokens, None


def _scan_token(text: str, i: int, line: int, col: int) -> Token:
    """Scan the one token starting at ``text[i]`` (not a blank, newline or comment)."""
    ch = text[i]
    if ch in _NAME_START:
        j = i
        while j < len(text) and text[j] in _NAME_CHARS:
            j += 1
        return Token("name", text[i:j], line, col)
    if ch in _DIGITS:
        j = i
        while j < len(text) and text[j] in _DIGITS:
            j += 1
        if j - i > MAX_INT_DIGITS:
            raise CraspSyntaxError(line, col, f"an integer of at most {MAX_INT_DIGITS} digits",
                                   Plain(f"{j - i} digits"))
        return Token("int", text[i:j], line, col)
    if ch in "'\"":
        body = text[i + 1 : i + 2]
        if len(body) == 1 and not body.isspace() and text[i + 2 : i + 3] == ch:
            return Token("quoted", body, line, col)
        raise CraspSyntaxError(line, col, "a quoted single non-blank character like '('",
                               text[i : i + 3].split("\n")[0])
    for op in OPERATORS:
        if text.startswith(op, i):
            return Token("op", op, line, col)
    if ch == "=":
        raise CraspSyntaxError(line, col, "':=' to define a statement or '==' to compare counts", ch)
    raise CraspSyntaxError(line, col, "a name, an integer, a quoted symbol or an operator", ch)


# ----------------------------------------------------------------------------- expressions
Spec = tuple  # (kind, args, symbol, modulus, residue, offsets, value): an Op without name and line


def _spec(kind: str, args: tuple[str, ...] = (), symbol: str | None = None, modulus: int | None = None,
          residue: int | None = None, offsets: tuple[int, ...] = (), value: int | None = None) -> Spec:
    """The hash-consing key of an operation: every field of Op except name and line."""
    return (kind, args, symbol, modulus, residue, offsets, value)


@dataclass(frozen=True)
class Expr:
    """A typed subexpression: either a named operation (ref) or a pending one (spec) not yet emitted.

    The top of a statement stays pending so that it can be emitted under the statement's own name."""

    sort: str
    line: int
    col: int
    ref: str | None = None
    spec: Spec | None = None


class _Builder:
    """Emits IR operations in order, hash-consing generated ones so equal subexpressions are shared."""

    def __init__(self) -> None:
        self.ops: list[Op] = []
        self.sorts: dict[str, str] = {}
        self.table: dict[Spec, str] = {}
        self.generated: dict[str, Spec] = {}
        self.counter = 0

    def emit(self, spec: Spec, at: tuple[int, int], name: str | None = None) -> str:
        """Append the operation (or reuse an equal generated one when unnamed); return its name."""
        if name is None and spec in self.table:
            return self.table[spec]
        if len(self.ops) >= MAX_OPS:
            raise CraspSyntaxError(*at, f"a program of at most {MAX_OPS} operations after expansion",
                                   Plain("more"))
        if name is None:
            self.counter += 1
            name = f"_t{self.counter}"
            self.generated[name] = spec
        kind, args, symbol, modulus, residue, offsets, value = spec
        op = Op(name, kind, args, symbol, modulus, residue, offsets, value, line=at[0])
        self.ops.append(op)
        self.sorts[name] = op.sort
        self.table.setdefault(spec, name)
        return name

    def name(self, e: Expr) -> str:
        """Name of an expression, emitting it under a generated name if it is still pending."""
        return e.ref if e.ref is not None else self.emit(e.spec, (e.line, e.col))

    def make(self, kind: str, sort: str, at: tuple[int, int], *args: Expr, **fields) -> Expr:
        """A pending operation whose operands are emitted now."""
        names = tuple(self.name(a) for a in args)
        return Expr(sort, at[0], at[1], spec=_spec(kind, names, **fields))


# ----------------------------------------------------------------------------- sugar
class _Sugar(_Builder):
    """Constructors for every surface construct, expanding sugar into IR primitives."""

    def const(self, value: int, at: tuple[int, int]) -> Expr:
        return self.make("const", "count", at, value=value)

    def true(self, at: tuple[int, int]) -> Expr:
        return self.make("true", "bool", at)

    def not_(self, p: Expr, at: tuple[int, int]) -> Expr:
        """Negation; a double negation of a generated operation collapses to its operand."""
        inner = p.spec if p.spec is not None else self.generated.get(p.ref or "")
        if inner is not None and inner[0] == "not":
            return Expr("bool", p.line, p.col, ref=inner[1][0])
        return self.make("not", "bool", at, p)

    def and_(self, p: Expr, r: Expr, at: tuple[int, int]) -> Expr:
        return self.make("and", "bool", at, p, r)

    def or_(self, p: Expr, r: Expr, at: tuple[int, int]) -> Expr:
        return self.not_(self.and_(self.not_(p, at), self.not_(r, at), at), at)

    def implies(self, p: Expr, r: Expr, at: tuple[int, int]) -> Expr:
        return self.not_(self.and_(p, self.not_(r, at), at), at)

    def iff(self, p: Expr, r: Expr, at: tuple[int, int]) -> Expr:
        return self.and_(self.implies(p, r, at), self.implies(r, p, at), at)

    def le(self, c: Expr, d: Expr, at: tuple[int, int]) -> Expr:
        return self.make("le", "bool", at, c, d)

    def lt(self, c: Expr, d: Expr, at: tuple[int, int]) -> Expr:
        return self.le(self.add(c, self.const(1, at), at), d, at)

    def eq(self, c: Expr, d: Expr, at: tuple[int, int]) -> Expr:
        return self.and_(self.le(c, d, at), self.le(d, c, at), at)

    def compare(self, op: str, c: Expr, d: Expr, at: tuple[int, int]) -> Expr:
        """The comparison ``c op d`` for op in <=, <, >=, >, ==, !=."""
        if op == "<=":
            return self.le(c, d, at)
        if op == "<":
            return self.lt(c, d, at)
        if op == ">=":
            return self.le(d, c, at)
        if op == ">":
            return self.lt(d, c, at)
        if op == "==":
            return self.eq(c, d, at)
        return self.not_(self.eq(c, d, at), at)

    def add(self, c: Expr, d: Expr, at: tuple[int, int]) -> Expr:
        return self.make("add", "count", at, c, d)

    def sub(self, c: Expr, d: Expr, at: tuple[int, int]) -> Expr:
        return self.make("sub", "count", at, c, d)

    def cond(self, p: Expr, c: Expr, d: Expr, at: tuple[int, int]) -> Expr:
        return self.make("cond", "count", at, p, c, d)

    def count(self, p: Expr, at: tuple[int, int]) -> Expr:
        return self.make("count", "count", at, p)

    def local(self, p: Expr, offsets: tuple[int, ...], at: tuple[int, int]) -> Expr:
        return self.make("local", "count", at, p, offsets=offsets)

    def strict_past(self, p: Expr, at: tuple[int, int]) -> Expr:
        return self.sub(self.count(p, at), self.cond(p, self.const(1, at), self.const(0, at), at), at)

    def exists(self, p: Expr, at: tuple[int, int]) -> Expr:
        return self.le(self.const(1, at), self.count(p, at), at)

    def minmax(self, which: str, c: Expr, d: Expr, at: tuple[int, int]) -> Expr:
        """min(c, d) or max(c, d) through a comparison and a conditional."""
        test = self.le(c, d, at)
        return self.cond(test, c, d, at) if which == "min" else self.cond(test, d, c, at)


# ----------------------------------------------------------------------------- parser
class _Parser(_Sugar):
    """Recursive-descent parser over the token list; one method per grammar rule."""

    def __init__(self, tokens: list[Token], lex_error: CraspSyntaxError | None = None) -> None:
        super().__init__()
        self.tokens = tokens
        self.lex_error = lex_error
        self.pos = 0
        self.nesting = 0
        self.alphabet: tuple[str, ...] = ()
        self.statements: list[str] = []

    # -- token helpers
    def peek(self) -> Token:
        tok = self.tokens[self.pos]
        if tok.kind == "error":
            raise self.lex_error
        return tok

    def advance(self) -> Token:
        tok = self.peek()
        if tok.kind != "eof":
            self.pos += 1
        return tok

    def at_op(self, *texts: str) -> bool:
        tok = self.peek()
        return tok.kind == "op" and tok.text in texts

    def at_keyword(self, *words: str) -> bool:
        tok = self.peek()
        return tok.kind == "name" and tok.text in words

    def fail(self, expected: str, tok: Token | None = None) -> CraspSyntaxError:
        tok = tok or self.peek()
        return CraspSyntaxError(tok.line, tok.col, expected, tok.describe())

    def expect_op(self, text: str, expected: str | None = None) -> Token:
        if not self.at_op(text):
            raise self.fail(expected or f"'{text}'")
        return self.advance()

    def expect_end_of_line(self, what: str) -> None:
        if self.peek().kind not in ("newline", "eof"):
            raise self.fail(f"end of line after {what}")
        self.advance()

    def skip_blank_lines(self) -> None:
        while self.peek().kind == "newline":
            self.advance()

    def nest(self) -> None:
        """Count one more level of recursion, refusing input nested too deeply for the parser."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise self.fail(f"expressions nested at most {MAX_NESTING} levels deep")

    # -- typing helpers
    def need(self, e: Expr, sort: str, role: str) -> Expr:
        """Check the sort of an operand; role says where it stands (e.g. "operand of 'and'")."""
        if e.sort != sort:
            raise CraspSyntaxError(e.line, e.col, f"a {_SORT_WORD[sort]} as {role}",
                                   Plain(f"a {_SORT_WORD[e.sort]}"))
        return e

    # -- program structure
    def program(self, name: str, source: str) -> Program:
        self.skip_blank_lines()
        self.header()
        output = None
        while True:
            self.skip_blank_lines()
            if self.peek().kind == "eof":
                break
            if output is not None:
                raise self.fail("end of program after the accept line")
            if self.at_keyword("accept"):
                output = self.accept_line()
            else:
                self.statement()
        return Program(self.alphabet, tuple(self.ops), output or self.default_output(), name, source)

    def header(self) -> None:
        if not self.at_keyword("alphabet"):
            raise self.fail("'alphabet:' as the first line")
        self.advance()
        self.expect_op(":", "':' after 'alphabet'")
        symbols: list[str] = []
        while self.peek().kind in ("name", "int", "quoted"):
            tok = self.advance()
            if tok.text in symbols:
                raise self.fail("distinct alphabet symbols", tok)
            symbols.append(tok.text)
        if not symbols:
            raise self.fail("at least one alphabet symbol (a name, digits or a quoted character like '(')")
        if self.peek().kind not in ("newline", "eof"):
            raise self.fail("an alphabet symbol or end of line (quote punctuation symbols, as in '(')")
        self.advance()
        self.alphabet = tuple(symbols)

    def statement(self) -> None:
        tok = self.peek()
        if tok.kind != "name" or tok.text in KEYWORDS:
            raise self.fail("a statement 'NAME := expression' (keywords are reserved)")
        if tok.text.startswith("_"):
            raise self.fail("a name not starting with '_' (reserved for generated operations)")
        if tok.text in self.sorts:
            raise self.fail(f"a new name ('{tok.text}' is already defined)")
        self.advance()
        self.expect_op(":=", f"':=' after '{tok.text}'")
        e = self.expr()
        self.expect_end_of_line("the statement")
        self.define(tok, e)

    def define(self, tok: Token, e: Expr) -> None:
        """Emit the statement's top operation under its own name (aliases become and/add no-ops)."""
        at = (tok.line, tok.col)
        if e.spec is None:  # `A := B`: the IR has no copy operation
            e = self.and_(e, e, at) if e.sort == "bool" else self.add(e, self.const(0, at), at)
        self.emit(e.spec, at, name=tok.text)
        self.statements.append(tok.text)

    def accept_line(self) -> str:
        self.advance()
        tok = self.peek()
        if tok.kind != "name" or tok.text not in self.sorts or tok.text.startswith("_"):
            raise self.fail("the name of a defined statement after 'accept'")
        if self.sorts[tok.text] != "bool":
            raise self.fail("a Boolean statement after 'accept'")
        self.advance()
        self.expect_end_of_line("'accept NAME'")
        return tok.text

    def default_output(self) -> str:
        for name in reversed(self.statements):
            if self.sorts[name] == "bool":
                return name
        raise self.fail("at least one Boolean statement (the last one is accepted)")

    # -- expressions, lowest precedence first
    def expr(self) -> Expr:
        self.nest()
        cond = self.implication()
        if self.at_op("?"):
            at = (cond.line, cond.col)
            self.need(cond, "bool", "condition of '? :'")
            self.advance()
            then = self.need(self.expr(), "count", "branch of '? :'")
            self.expect_op(":", "':' of the conditional 'P ? C : D'")
            other = self.need(self.expr(), "count", "branch of '? :'")
            cond = self.cond(cond, then, other, at)
        self.nesting -= 1
        return cond

    def implication(self) -> Expr:
        parts = [self.disjunction()]
        ops: list[str] = []
        while self.at_op("->", "<->"):
            ops.append(self.advance().text)
            parts.append(self.disjunction())
        right = parts[-1]
        if ops:
            self.need(right, "bool", f"right operand of '{ops[-1]}'")
        for left, op in zip(reversed(parts[:-1]), reversed(ops)):  # right-associative
            at = (left.line, left.col)
            self.need(left, "bool", f"left operand of '{op}'")
            right = self.implies(left, right, at) if op == "->" else self.iff(left, right, at)
        return right

    def disjunction(self) -> Expr:
        left = self.conjunction()
        while self.at_op_keyword("or"):
            self.need(left, "bool", "operand of 'or'")
            right = self.need(self.conjunction(), "bool", "operand of 'or'")
            left = self.or_(left, right, (left.line, left.col))
        return left

    def conjunction(self) -> Expr:
        left = self.negation()
        while self.at_op_keyword("and"):
            self.need(left, "bool", "operand of 'and'")
            right = self.need(self.negation(), "bool", "operand of 'and'")
            left = self.and_(left, right, (left.line, left.col))
        return left

    def at_op_keyword(self, word: str) -> bool:
        """Consume the binary keyword ``word`` if it comes next."""
        if self.at_keyword(word):
            self.advance()
            return True
        return False

    def negation(self) -> Expr:
        if not self.at_keyword("not"):
            return self.comparison()
        tok = self.advance()
        self.nest()
        p = self.need(self.negation(), "bool", "operand of 'not'")
        self.nesting -= 1
        return self.not_(p, (tok.line, tok.col))

    def comparison(self) -> Expr:
        left = self.sum()
        if not self.at_op("<=", "<", ">=", ">", "==", "!="):
            return left
        op = self.advance().text
        self.need(left, "count", f"left operand of '{op}'")
        right = self.need(self.sum(), "count", f"right operand of '{op}'")
        if self.at_op("<=", "<", ">=", ">", "==", "!="):
            raise self.fail("a single comparison (comparisons do not chain; combine them with 'and')")
        return self.compare(op, left, right, (left.line, left.col))

    def sum(self) -> Expr:
        left = self.unary()
        while self.at_op("+", "-"):
            op = self.advance().text
            self.need(left, "count", f"left operand of '{op}'")
            right = self.need(self.unary(), "count", f"right operand of '{op}'")
            at = (left.line, left.col)
            left = self.add(left, right, at) if op == "+" else self.sub(left, right, at)
        return left

    def unary(self) -> Expr:
        if self.at_op("#"):
            return self.counting()
        if not self.at_op("-"):
            return self.primary()
        tok = self.advance()
        at = (tok.line, tok.col)
        if self.peek().kind == "int":
            return self.const(-int(self.advance().text), at)
        self.nest()
        c = self.need(self.unary(), "count", "operand of unary '-'")
        self.nesting -= 1
        return self.sub(self.const(0, at), c, at)

    def counting(self) -> Expr:
        tok = self.advance()
        at = (tok.line, tok.col)
        if self.at_op("<"):
            self.advance()
            return self.strict_past(self.operand("'#<'"), at)
        if self.at_op("["):
            self.advance()
            offsets = self.offsets()
            self.expect_op("]", "']' closing the offsets of '#[...]'")
            return self.local(self.operand("'#[...]'"), offsets, at)
        return self.count(self.operand("'#'"), at)

    def operand(self, after: str) -> Expr:
        """The Boolean operand of a count or of exists: a primary, maybe negated or itself a count."""
        self.nest()
        if self.at_keyword("not"):
            tok = self.advance()
            e = self.not_(self.need(self.operand("'not'"), "bool", "operand of 'not'"), (tok.line, tok.col))
        elif self.at_op("#"):
            e = self.counting()
        else:
            e = self.primary()
        self.nesting -= 1
        return self.need(e, "bool", f"operand of {after}")

    def offsets(self) -> tuple[int, ...]:
        if not self.at_op("{"):
            return (self.offset(),)
        self.advance()
        if self.at_op("}"):
            raise self.fail("at least one offset in '{...}'")
        values = [self.offset()]
        while self.at_op(","):
            self.advance()
            values.append(self.offset())
        self.expect_op("}", "',' or '}' in the offset set")
        return tuple(sorted(set(values)))

    def offset(self) -> int:
        tok = self.peek()
        value = self.signed_int("an offset (an integer >= 0)")
        if value < 0:
            raise CraspSyntaxError(tok.line, tok.col, "an offset >= 0 (i - j for j <= i)", str(value))
        return value

    def signed_int(self, expected: str) -> int:
        sign = -1 if self.at_op("-") else 1
        if sign < 0:
            self.advance()
        if self.peek().kind != "int":
            raise self.fail(expected)
        return sign * int(self.advance().text)

    def primary(self) -> Expr:
        tok = self.peek()
        at = (tok.line, tok.col)
        if tok.kind == "int":
            return self.const(int(self.advance().text), at)
        if tok.kind == "op" and tok.text == "(":
            self.advance()
            e = self.expr()
            self.expect_op(")", f"')' closing the '(' at column {tok.col}")
            return Expr(e.sort, tok.line, tok.col, e.ref, e.spec)
        if tok.kind != "name":
            raise self.fail("an expression (a count, a symbol test Q(a), a name, an integer, ...)")
        handler = _PRIMARY_KEYWORDS.get(tok.text)
        if handler is not None:
            self.advance()
            return handler(self, at)
        return self.reference()

    def reference(self) -> Expr:
        tok = self.peek()
        if tok.text in KEYWORDS or tok.text not in self.sorts or tok.text.startswith("_"):
            what = "a keyword" if tok.text in KEYWORDS else "an unknown name"
            raise self.fail(f"the name of an earlier statement ('{tok.text}' is {what})")
        self.advance()
        return Expr(self.sorts[tok.text], tok.line, tok.col, ref=tok.text)

    # -- keyword primaries
    def p_true(self, at: tuple[int, int]) -> Expr:
        return self.true(at)

    def p_false(self, at: tuple[int, int]) -> Expr:
        return self.not_(self.true(at), at)

    def p_symbol(self, at: tuple[int, int]) -> Expr:
        self.expect_op("(", "'(' after 'Q'")
        tok = self.peek()
        if tok.kind not in ("name", "int", "quoted"):
            raise self.fail("an alphabet symbol inside Q(...)")
        if tok.text not in self.alphabet:
            raise self.fail("a symbol of the alphabet " + " ".join(self.alphabet))
        self.advance()
        self.expect_op(")", "')' closing Q(...)")
        return self.make("sym", "bool", at, symbol=tok.text)

    def p_mod(self, at: tuple[int, int]) -> Expr:
        self.expect_op("(", "'(' after 'mod'")
        tok = self.peek()
        modulus = self.signed_int("a modulus (an integer >= 1)")
        if modulus < 1:
            raise CraspSyntaxError(tok.line, tok.col, "a modulus >= 1", str(modulus))
        self.expect_op(",", "',' between modulus and residue")
        tok = self.peek()
        residue = self.signed_int("a residue (an integer)")
        if not 0 <= residue < modulus:
            raise CraspSyntaxError(tok.line, tok.col, f"a residue in [0, {modulus})", str(residue))
        self.expect_op(")", "')' closing mod(m, r)")
        return self.make("periodic", "bool", at, modulus=modulus, residue=residue)

    def p_exists(self, at: tuple[int, int]) -> Expr:
        return self.exists(self.operand("'exists'"), at)

    def p_minmax(self, at: tuple[int, int]) -> Expr:
        which = self.tokens[self.pos - 1].text
        self.expect_op("(", f"'(' after '{which}'")
        c = self.need(self.expr(), "count", f"first argument of {which}")
        self.expect_op(",", f"',' between the arguments of {which}")
        d = self.need(self.expr(), "count", f"second argument of {which}")
        self.expect_op(")", f"')' closing {which}(...)")
        return self.minmax(which, c, d, at)


_PRIMARY_KEYWORDS = {
    "true": _Parser.p_true,
    "false": _Parser.p_false,
    "Q": _Parser.p_symbol,
    "mod": _Parser.p_mod,
    "exists": _Parser.p_exists,
    "min": _Parser.p_minmax,
    "max": _Parser.p_minmax,
}


# ----------------------------------------------------------------------------- public API
def parse(text: str, name: str = "") -> Program:
    """Parse C-RASP program text into a Program; every error is a CraspSyntaxError with line/column."""
    return _Parser(*_tokenize(text)).program(name, text)


def load(path: str | Path) -> Program:
    """Read and parse a program file (UTF-8); the program's name is the file's stem."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        got = Plain(f"{str(p)!r} ({reason})")
        raise InputError("program file", "a readable UTF-8 text file", got) from None
    return parse(text, p.stem)


# ----------------------------------------------------------------------------- printing
def _is_plain_name(name: str) -> bool:
    """Whether ``name`` can appear as a statement name in program text."""
    return (bool(name) and name[0] in _string.ascii_letters and set(name) <= _NAME_CHARS
            and name not in KEYWORDS)


def _symbol_text(symbol: str) -> str:
    """An alphabet symbol as program text: bare when it is a name or digits, quoted otherwise."""
    if (symbol and set(symbol) <= _DIGITS) or (symbol[:1] in _NAME_START and set(symbol) <= _NAME_CHARS):
        return symbol
    if len(symbol) != 1 or symbol.isspace():
        raise InputError("program", "symbols that are names, digits or one non-blank character", symbol)
    return f'"{symbol}"' if symbol == "'" else f"'{symbol}'"


def _statement_names(program: Program) -> dict[str, str]:
    """Printable names: plain names are kept, others (generated _t<k>, ...) become fresh t<k>."""
    taken = {op.name for op in program.ops if _is_plain_name(op.name)}
    names: dict[str, str] = {}
    k = 0
    for op in program.ops:
        if op.name in taken:
            names[op.name] = op.name
            continue
        k += 1
        while f"t{k}" in taken:
            k += 1
        names[op.name] = f"t{k}"
        taken.add(f"t{k}")
    return names


def _op_text(op: Op, a: list[str]) -> str:
    """The right-hand side of one IR op, using only primitive syntax."""
    kind = op.kind
    if kind == "sym":
        return f"Q({_symbol_text(op.symbol)})"
    if kind == "periodic":
        return f"mod({op.modulus}, {op.residue})"
    if kind == "local":
        return "#[{" + ", ".join(map(str, op.offsets)) + "}] " + a[0]
    simple = {"true": "true", "not": "not {0}", "and": "{0} and {1}", "le": "{0} <= {1}", "count": "#{0}",
              "cond": "{0} ? {1} : {2}", "add": "{0} + {1}", "sub": "{0} - {1}", "const": str(op.value)}
    return simple[kind].format(*a)


def to_text(program: Program) -> str:
    """Program text for an IR program, one primitive statement per op; parse(to_text(p)) has the same
    ops up to renaming of the non-plain names (generated ``_t<k>`` become ``t<k>``)."""
    names = _statement_names(program)
    lines = ["alphabet: " + " ".join(_symbol_text(s) for s in program.alphabet)]
    for op in program.ops:
        lines.append(f"{names[op.name]} := {_op_text(op, [names[x] for x in op.args])}")
    lines.append(f"accept {names[program.output]}")
    return "\n".join(lines) + "\n"
