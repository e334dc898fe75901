"""C-RASP surface syntax: a recursive-descent parser (over the hand-written tokenizer of ``lexer.py``) to
the IR of ``ir.py``; ``printer.py`` prints IR back as text.

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
    sum         = product { ( "+" | "-" ) product } ;
    product     = unary { "*" unary } ;                (* one factor an integer literal *)
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
    exists P = 1 <= #P        #< P = #P - ((P and 1 <= #P) ? 1 : 0)   -C = 0 - C
    min(C, D) = (C <= D) ? C : D        max(C, D) = (C <= D) ? D : C
    c * C = C * c = C + ... + C (c copies; built by doubling), 0 for c = 0, 0 - |c| * C for c < 0

Every error is a :class:`CraspSyntaxError` naming the line and column; once the text has started like a
program (``alphabet``), it also carries the line at fault and a hint for common slips
(:mod:`proofkit.crasp.language.diagnostics`).
"""

from __future__ import annotations

from pathlib import Path

from .builder import MAX_OPS, Expr, Sugar
from .diagnostics import annotate
from .ir import Program
from .lexer import (
    KEYWORDS,
    MAX_CHARS,
    MAX_INT_DIGITS,
    CraspSyntaxError,
    Plain,
    Token,
    brief,
    symbol_list,
    tokenize,
    tokenize_until_error,
    without_bom,
)
from .printer import to_text

MAX_NESTING = 50
_SORT_WORD = {"bool": "Boolean expression", "count": "count expression"}

__all__ = ["KEYWORDS", "MAX_CHARS", "MAX_INT_DIGITS", "MAX_NESTING", "MAX_OPS", "CraspSyntaxError", "Expr",
           "Plain", "Token", "load", "parse", "to_text", "tokenize"]


# ----------------------------------------------------------------------------- parser
class _Parser(Sugar):
    """Recursive-descent parser over the token list; one method per grammar rule."""

    def __init__(self, tokens: list[Token], lex_error: CraspSyntaxError | None = None) -> None:
        super().__init__()
        self.tokens = tokens
        self.lex_error = lex_error
        self.pos = 0
        self.nesting = 0
        self.alphabet: tuple[str, ...] = ()
        self.symbols: frozenset[str] = frozenset()  # the alphabet as a set: membership in O(1)
        self.statements: list[str] = []
        self.started = False  # the text began with 'alphabet': from then on errors may quote its lines

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
        if not self.at_keyword("alphabet"):  # the file's content is not quoted: it may be any file at all
            tok = self.peek()
            raise CraspSyntaxError(tok.line, tok.col, "'alphabet:' as the first line",
                                   Plain("a file that does not start like a C-RASP program (not shown)"))
        self.started = True
        self.advance()
        self.expect_op(":", "':' after 'alphabet'")
        symbols: dict[str, None] = {}  # ordered, with O(1) membership (an alphabet line may hold 20 000)
        while self.peek().kind in ("name", "int", "quoted"):
            tok = self.advance()
            if tok.text in symbols:
                raise self.fail("distinct alphabet symbols", tok)
            symbols[tok.text] = None
        if not symbols:
            raise self.fail("at least one alphabet symbol (a name, digits or a quoted character like '(')")
        if self.peek().kind not in ("newline", "eof"):
            raise self.fail("an alphabet symbol or end of line (quote punctuation symbols, as in '(')")
        self.advance()
        self.alphabet = tuple(symbols)
        self.symbols = frozenset(symbols)

    def statement(self) -> None:
        tok = self.peek()
        if tok.kind != "name" or tok.text in KEYWORDS:
            raise self.fail("a statement 'NAME := expression' (keywords are reserved)")
        if tok.text.startswith("_"):
            raise self.fail("a name not starting with '_' (reserved for generated operations)")
        if tok.text in self.sorts:
            raise self.fail(f"a new name ('{brief(tok.text)}' is already defined)")
        self.advance()
        self.expect_op(":=", f"':=' after '{brief(tok.text)}'")
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
        left = self.product()
        while self.at_op("+", "-"):
            op = self.advance().text
            self.need(left, "count", f"left operand of '{op}'")
            right = self.need(self.product(), "count", f"right operand of '{op}'")
            at = (left.line, left.col)
            left = self.add(left, right, at) if op == "+" else self.sub(left, right, at)
        return left

    def product(self) -> Expr:
        left = self.unary()
        while self.at_op("*"):
            tok = self.advance()
            self.need(left, "count", "left operand of '*'")
            right = self.need(self.unary(), "count", "right operand of '*'")
            left = self.times(left, right, (tok.line, tok.col))
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
            raise self.fail(f"the name of an earlier statement ('{brief(tok.text)}' is {what})")
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
        if tok.text not in self.symbols:
            raise self.fail("a symbol of the alphabet " + symbol_list(self.alphabet))
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
def parse(text: str, name: str = "", *, max_chars: int = MAX_CHARS) -> Program:
    """Parse C-RASP program text into a Program; every error is a CraspSyntaxError with line/column.
    A leading byte-order mark is dropped (it is no part of the program, nor of ``Program.source``).

    Text longer than ``max_chars`` characters is refused before it is read (MAX_CHARS: the cap on text
    that is input). The printed form of a large program (``to_text``: one statement per operation) can be
    longer than the program it was parsed from (a line per operation); parse such trusted text back with
    ``max_chars=len(text)``. MAX_OPS and MAX_NESTING bound the work either way."""
    text = without_bom(text)
    parser = _Parser(*tokenize_until_error(text, max_chars))
    try:
        return parser.program(name, text)
    except CraspSyntaxError as exc:
        if parser.started:  # text that does not start like a program is never quoted
            annotate(exc, text, parser.alphabet, parser.sorts)
        raise


def load(path: str | Path) -> Program:
    """Read and parse a program file (UTF-8); the program's name is the file's stem. The read is bounded
    (a regular file of at most 4 x MAX_CHARS bytes, refused without blocking otherwise: /dev/zero and
    FIFOs are input errors, not hangs)."""
    from ...storage import safejson

    p = Path(path)
    text = safejson.read_text(p, "program file", 4 * MAX_CHARS)
    try:
        return parse(text, p.stem)
    except CraspSyntaxError as exc:
        exc.path = str(path)
        raise
