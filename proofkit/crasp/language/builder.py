"""IR construction for the C-RASP parser: typed pending subexpressions, hash-consed emission of IR
operations, and the expansion of every piece of surface sugar into IR primitives (the table is in the
docstring of :mod:`proofkit.crasp.language.parser`)."""

from __future__ import annotations

from dataclasses import dataclass

from .ir import Op
from .lexer import MAX_INT_DIGITS, CraspSyntaxError, Plain

MAX_OPS = 10_000


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


class Builder:
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


def _literal(e: Expr) -> int | None:
    """The value of an integer literal (maybe negative or parenthesized) that is still pending, else
    None (a name, even of a constant statement, is not a literal)."""
    return e.spec[6] if e.spec is not None and e.spec[0] == "const" else None


# ----------------------------------------------------------------------------- sugar
class Sugar(Builder):
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

    def times(self, left: Expr, right: Expr, star: tuple[int, int]) -> Expr:
        """``c * C`` or ``C * c`` with c an integer literal: sugar for the c-fold sum (:meth:`scale`); two
        literals multiply. A product of two counts is no C-RASP operation: refused at the '*' (``star``)."""
        at = (left.line, left.col)
        a, b = _literal(left), _literal(right)
        if a is not None and b is not None:
            if abs(a * b) >= 10**MAX_INT_DIGITS:
                raise CraspSyntaxError(*star, f"a product of constants of at most {MAX_INT_DIGITS} digits",
                                       Plain(f"{len(str(abs(a * b)))} digits"))
            return self.const(a * b, at)
        if a is None and b is None:
            raise CraspSyntaxError(*star, "an integer literal on one side of '*' (C-RASP multiplies a count "
                                   "only by a constant, as in 2 * #Q(b))", Plain("a product of two counts"))
        return self.scale(a, right, at) if a is not None else self.scale(b, left, at)

    def scale(self, c: int, e: Expr, at: tuple[int, int]) -> Expr:
        """``c * e`` for an integer constant c, as additions: e doubled along the binary digits of |c|
        and the doublings of its 1 bits summed (at most 2 log2 |c| additions; ``3 * C`` is
        ``C + (C + C)``), then subtracted from 0 when c < 0. Counts are integers, so this is the c-fold sum
        C + ... + C exactly, and stays in C-RASP."""
        if c < 0:
            return self.sub(self.const(0, at), self.scale(-c, e, at), at)
        if c == 0:
            return self.const(0, at)
        total: Expr | None = None
        power = e
        while True:
            if c & 1:
                total = power if total is None else self.add(total, power, at)
            c >>= 1
            if not c:
                return total
            power = self.add(power, power, at)

    def cond(self, p: Expr, c: Expr, d: Expr, at: tuple[int, int]) -> Expr:
        return self.make("cond", "count", at, p, c, d)

    def count(self, p: Expr, at: tuple[int, int]) -> Expr:
        return self.make("count", "count", at, p)

    def local(self, p: Expr, offsets: tuple[int, ...], at: tuple[int, int]) -> Expr:
        return self.make("local", "count", at, p, offsets=offsets)

    def strict_past(self, p: Expr, at: tuple[int, int]) -> Expr:
        """#< P = #{j in 1..i-1 : P(j)} = #P - (P and 1 <= #P ? 1 : 0). At a real position P(i) implies
        #P >= 1, so this is #P - (P ? 1 : 0) (Prop. 39); at the virtual position 0 (the empty string) #P is
        0 and nothing is subtracted even where P holds there (true, not Q(a), mod(m, 0)): it was -1."""
        count = self.count(p, at)
        one = self.const(1, at)
        current = self.and_(p, self.le(one, count, at), at)
        return self.sub(count, self.cond(current, one, self.const(0, at), at), at)

    def exists(self, p: Expr, at: tuple[int, int]) -> Expr:
        return self.le(self.const(1, at), self.count(p, at), at)

    def minmax(self, which: str, c: Expr, d: Expr, at: tuple[int, int]) -> Expr:
        """min(c, d) or max(c, d) through a comparison and a conditional."""
        test = self.le(c, d, at)
        return self.cond(test, c, d, at) if which == "min" else self.cond(test, d, c, at)
