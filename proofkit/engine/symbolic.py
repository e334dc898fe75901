"""Decide a CAS-checked proof step from the residual its ``check()`` returns.

A step holds when its residual is identically zero (or its statement is ``True``) over the domain its
free symbols' assumptions describe. sympy failing to simplify a residual proves nothing, so the three
outcomes are kept apart:

* ``certified``: sympy reduces the residual to 0 (or the statement to True): an exact proof.
* ``refuted``: at a stated point that respects every symbol's assumptions the residual has a certified
  non-zero value: exact rational arithmetic when the value is rational, otherwise a python-flint ball
  (computed by :func:`ball` over the sympy tree) that excludes 0. One such point disproves an identity.
* ``inconclusive``: neither; the reason says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import flint
import sympy as sp
from sympy.polys.fields import sfield

from ..language.tolerances import MIN_DPS
from ..language.verdict import Verdict
from ..numerics.balls import Unsupported, arb_precision, ball

#: the reason given when neither a proof nor a certified counterexample point was found
UNDECIDED = "sympy could not simplify the residual to 0 and no point gave a certified nonzero value"

#: candidate coordinates, tried in this order; 0 and +-1 come last because identities that fail
#: elsewhere often hold there by accident
POOL = tuple(sp.Rational(p, q) for p, q in (
    (3, 2), (2, 3), (2, 1), (5, 7), (3, 1), (-1, 2), (7, 4), (-3, 1), (1, 3), (5, 1), (-2, 5),
    (11, 3), (1, 2), (4, 1), (-7, 3), (13, 1), (6, 1), (1, 1), (-1, 1), (-2, 1), (0, 1)))
#: how many points a residual is evaluated at before giving up
N_POINTS = 8
#: the working precisions (decimal digits) tried for a ball evaluation, cheapest first
BALL_DPS = (MIN_DPS, 250)


# ----------------------------------------------------------------------------- exact zero test
def _numerator(expr: sp.Expr) -> sp.Expr:
    """The expanded numerator of the combined fraction (for rational functions: zero iff expr is)."""
    return sp.expand(sp.numer(sp.together(expr)))


def _numerator_zero(expr: sp.Expr) -> bool:
    """Rational functions: zero iff the expanded numerator of the combined fraction is zero."""
    num = _numerator(expr)
    return num == 0 or sp.simplify(num) == 0


def _field_zero(expr: sp.Expr) -> bool:
    """Whether the residual is the zero element of the field of rational functions over QQ in its atoms
    (sympy's sparse field arithmetic: a canonical form, faster than ``together``). Zero there is zero
    wherever the residual is defined; False proves nothing (a conversion sympy refuses), and the slower
    tests follow."""
    try:
        return sfield(expr)[1] == 0
    except (sp.PolynomialError, sp.polys.polyerrors.PolificationFailed, ValueError, TypeError,
            NotImplementedError):
        return False


def _rational_zero(expr: sp.Expr) -> str | None:
    """Which exact test shows ``expr`` is the zero rational function of its symbols, or None (the cheap
    first tests: exact polynomials in python-flint, then sympy's sparse field)."""
    if _transcendental(expr):
        return None
    flint_zero = _flint_zero(expr)
    if flint_zero is not None:
        return FLINT_ZERO if flint_zero else None
    return FIELD_ZERO if _field_zero(expr) else None


#: how a residual was shown to be the zero rational function (the verdict's "how")
FLINT_ZERO = "exact: the residual is the zero rational function (python-flint polynomials over QQ)"
FIELD_ZERO = "exact: sympy simplifies the residual to zero"


class _NotRational(Exception):
    """A node outside rational functions over QQ (the flint walk hands over to sympy)."""


def _flint_zero(expr: sp.Expr) -> bool | None:
    """Whether ``expr`` is the zero rational function, by one walk of its tree in python-flint's exact
    multivariate polynomials over QQ: every node becomes a (numerator, denominator) pair, so sums and
    products never expand at sympy's expression level (its ``expand`` was most of AM24.T4's proof steps).
    A sum's denominator is the product of its terms', unreduced, which is harmless: the value is zero iff
    the numerator is. None when the expression is not a rational function with rational coefficients
    (floats, radicals, I, functions) or a denominator is the zero polynomial: sympy then decides."""
    symbols = sorted(expr.free_symbols, key=lambda v: v.name)
    if not symbols:
        return None
    ctx = flint.fmpq_mpoly_ctx.get(tuple(f"v{i}" for i in range(len(symbols))), "lex")
    gens = dict(zip(symbols, ctx.gens()))
    one = ctx.from_dict({(0,) * len(symbols): 1})
    memo: dict[sp.Basic, tuple[Any, Any]] = {}

    def walk(node: sp.Basic) -> tuple[Any, Any]:
        if node not in memo:
            memo[node] = combine(node)
        return memo[node]

    def combine(node: sp.Basic) -> tuple[Any, Any]:
        if node.is_Symbol:
            return gens[node], one
        if node.is_Rational:
            return one * flint.fmpq(int(node.p), int(node.q)), one
        if node.is_Add or node.is_Mul:
            num, den = walk(node.args[0])
            for arg in node.args[1:]:
                n2, d2 = walk(arg)
                if node.is_Mul:
                    num, den = num * n2, den * d2
                elif d2 == den:
                    num = num + n2
                else:
                    num, den = num * d2 + n2 * den, den * d2
            return num, den
        if node.is_Pow and node.exp.is_Integer:
            num, den = walk(node.base)
            k = int(node.exp)
            if k < 0 and num == 0:
                raise _NotRational  # 1/0
            return (num**k, den**k) if k >= 0 else (den**-k, num**-k)
        raise _NotRational

    try:
        num, den = walk(expr)
    except _NotRational:
        return None
    return None if den == 0 else num == 0


def _transcendental(expr: sp.Expr) -> bool:
    """Whether the expression has anything beyond rational functions of its symbols."""
    return expr.has(sp.Function) or any(not p.exp.is_Integer for p in expr.atoms(sp.Pow))


def is_zero(result: Any) -> bool:
    """True when sympy proves ``result`` zero / True (lists, tuples, matrices: every entry).

    Tries the combined-fraction numerator, ``simplify``, and for transcendental residuals
    ``simplify`` after rewriting in ``exp`` (which settles e.g. tanh(u) - (e^{2u} - 1)/(e^{2u} + 1)).
    False means "not proved", never "proved non-zero"; :func:`decide` tells the two apart.
    """
    return all(_entry_zero(entry) for _, entry in _entries(result))


def _entry_zero(entry: Any) -> bool:
    if entry is True or entry is sp.true:
        return True
    if _is_statement(entry):
        return sp.simplify(entry) is sp.true
    if not isinstance(entry, sp.Expr):
        return False
    if _rational_zero(entry) is not None or _numerator_zero(entry):
        return True
    return _transcendental(entry) and sp.simplify(entry.rewrite(sp.exp)) == 0


def _is_statement(entry: Any) -> bool:
    """Booleans and relations (sympy's ``is_Boolean`` is not set on relations such as Eq)."""
    return isinstance(entry, (sp.logic.boolalg.Boolean, sp.Rel))


def describe(result: Any, limit: int = 160) -> str:
    """The residual as text, cut to ``limit`` characters (for tables and verdict lines)."""
    text = sp.sstr(result)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ----------------------------------------------------------------------------- entries
def _entries(result: Any, label: str = "") -> Iterator[tuple[str, Any]]:
    """Every scalar entry of a (nested) list, tuple, sympy Tuple or matrix, with its position."""
    if isinstance(result, sp.matrices.expressions.MatrixExpr) and not isinstance(result, sp.MatrixBase):
        result = result.as_explicit()
    if isinstance(result, sp.MatrixBase):
        for i in range(result.rows):
            for j in range(result.cols):
                yield from _entries(result[i, j], f"{label}[{i}, {j}]")
    elif isinstance(result, (list, tuple, sp.Tuple)):
        for i, item in enumerate(result):
            yield from _entries(item, f"{label}[{i}]")
    else:
        yield label, _as_sympy(result)


def _as_sympy(value: Any) -> Any:
    """Python numbers become sympy numbers (exact for int and Fraction); other objects pass through.
    Nothing is parsed: strings stay strings and are reported as not a residual."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return sp.Integer(value)
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    if isinstance(value, float):
        return sp.Float(value)
    return value


# ----------------------------------------------------------------------------- points
def _admissible(symbol: sp.Symbol, value: sp.Rational) -> bool:
    """Whether ``value`` satisfies every assumption sympy records for ``symbol`` (positive, integer,
    nonnegative, real, prime, ...): each stated property must be definitely the same for the value."""
    for key, want in symbol.assumptions0.items():
        if getattr(value, f"is_{key}", None) is not want:
            return False
    return True


def points(symbols: list[sp.Symbol], count: int = N_POINTS) -> list[dict[sp.Symbol, sp.Rational]]:
    """Up to ``count`` rational points, each coordinate admissible for its symbol, different
    symbols taking different values where the pool allows."""
    choices = [[v for v in POOL if _admissible(s, v)] for s in symbols]
    if any(not c for c in choices):
        return []
    out = []
    for k in range(count):
        out.append({s: c[(k + i) % len(c)] for i, (s, c) in enumerate(zip(symbols, choices))})
    return out


def _at(point: dict[sp.Symbol, sp.Rational]) -> str:
    """``at x = 3/2, y = 2/3: `` (empty for a constant)."""
    return "at " + ", ".join(f"{s} = {v}" for s, v in point.items()) + ": " if point else ""


def _nonzero_at(expr: sp.Expr, point: dict[sp.Symbol, sp.Rational]) -> str | None:
    """A certificate that ``expr`` is non-zero at ``point`` (exact or a ball excluding 0), or None."""
    value = expr.xreplace(point)
    if value.free_symbols or value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return None
    if value.is_Rational:
        return None if value == 0 else f"exact value {value} (rational arithmetic)"
    for dps, b in _balls(value):
        if not b.contains(0):
            return (f"value in the ball {b.str(15, radius=True)} (python-flint ball arithmetic, "
                    f"{dps} digits), which excludes 0")
        if b.rad() == 0:
            return None
    return None


def _balls(expr: sp.Basic) -> Iterator[tuple[int, flint.arb]]:
    """python-flint balls of a constant expression at each precision of BALL_DPS in turn (nothing when
    the expression has a node the ball walker does not support)."""
    for dps in BALL_DPS:
        with arb_precision(dps):
            try:
                b = ball(expr)
            except Unsupported:
                return
        yield dps, b


def _relation_false_at(rel: sp.Rel, point: dict[sp.Symbol, sp.Rational]) -> str | None:
    """A certificate that an inequality fails at ``point``: the ball of lhs - rhs lies on the wrong
    side (ball comparisons in python-flint are True only when certain)."""
    diff = (rel.lhs - rel.rhs).xreplace(point)
    if diff.free_symbols or diff.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return None
    fails: dict[type, Callable[[flint.arb], bool]] = {
        sp.StrictGreaterThan: lambda d: d <= 0, sp.GreaterThan: lambda d: d < 0,
        sp.StrictLessThan: lambda d: d >= 0, sp.LessThan: lambda d: d > 0,
    }
    if type(rel) not in fails:
        return None
    for dps, b in _balls(diff):
        if fails[type(rel)](b):
            return (f"lhs - rhs in the ball {b.str(15, radius=True)} ({dps} digits), so "
                    f"{sp.sstr(rel.func(sp.Symbol('lhs'), sp.Symbol('rhs')))} fails")
    return None


# ----------------------------------------------------------------------------- decide
def _search(expr: sp.Basic, certificate: Callable[[sp.Basic, dict], str | None]) -> str | None:
    symbols = sorted((s for s in expr.free_symbols if isinstance(s, sp.Symbol)), key=str)
    if len(symbols) != len(expr.free_symbols):
        return None
    for point in points(symbols) if symbols else [{}]:
        found = certificate(expr, point)
        if found is not None:
            return _at(point) + found
    return None


def _decide_entry(entry: Any) -> tuple[Verdict, str]:
    """Verdict and how-text of one scalar residual (expression or statement)."""
    if entry is True or entry is sp.true:
        return Verdict.CERTIFIED, "exact: sympy evaluates the statement to True"
    if entry is False or entry is sp.false:
        return Verdict.REFUTED, "exact: sympy evaluates the statement to False"
    if entry is None:
        return Verdict.INCONCLUSIVE, "sympy could not decide the statement (it returned None)"
    if not isinstance(entry, sp.Basic):
        return Verdict.INCONCLUSIVE, f"the step returned a {type(entry).__name__}, not a sympy residual"
    if _is_statement(entry):
        return _decide_statement(entry)
    if isinstance(entry, sp.Expr):
        return _decide_expr(entry)
    return Verdict.INCONCLUSIVE, f"the step returned a {type(entry).__name__}, not a sympy residual"


def _decide_expr(expr: sp.Expr) -> tuple[Verdict, str]:
    """Cheapest decisive evidence first: the expanded numerator of the combined fraction is 0 (a canonical
    form: certified); a certified non-zero ball value at a rational point (refuted); only then
    ``simplify``, which can take seconds on a residual that is not zero (both kinds of evidence are
    exact, so the order changes the time, never the verdict)."""
    how = _rational_zero(expr)
    if how is not None:
        return Verdict.CERTIFIED, how
    num = _numerator(expr)
    if num == 0:
        return Verdict.CERTIFIED, "exact: sympy simplifies the residual to zero"
    found = _search(expr, _nonzero_at)
    if found is not None:
        return Verdict.REFUTED, f"the residual is not zero, {found}"
    if sp.simplify(num) == 0:
        return Verdict.CERTIFIED, "exact: sympy simplifies the residual to zero"
    if _transcendental(expr) and sp.simplify(expr.rewrite(sp.exp)) == 0:
        return Verdict.CERTIFIED, "exact: sympy simplifies the residual, rewritten in exp, to zero"
    return Verdict.INCONCLUSIVE, UNDECIDED


def _decide_statement(stmt: sp.Basic) -> tuple[Verdict, str]:
    simplified = sp.simplify(stmt)
    if simplified is sp.true or simplified is sp.false:
        return _decide_entry(simplified)
    if isinstance(stmt, sp.Equality):
        if isinstance(stmt.lhs, sp.Expr) and isinstance(stmt.rhs, sp.Expr):  # matrices too
            return _decide_all(stmt.lhs - stmt.rhs)
        pairs = _pairs(stmt)
        if pairs is not None:
            return _combine([(label, _decide_entry(a - b)) for label, (a, b) in pairs])
    if isinstance(stmt, sp.And):
        return _combine([(f"[{i}]", _decide_entry(a)) for i, a in enumerate(stmt.args)])
    if isinstance(stmt, sp.Rel):
        found = _search(stmt, _relation_false_at)
        if found is not None:
            return Verdict.REFUTED, f"the statement fails, {found}"
    return Verdict.INCONCLUSIVE, "sympy could not decide the statement and no point gave a certified failure"


def _pairs(eq: sp.Equality) -> list[tuple[str, tuple[Any, Any]]] | None:
    """Entry-wise (lhs, rhs) pairs of an equation between tuples or matrices of the same shape, or
    None when the shapes differ or an entry is not an expression."""
    left, right = list(_entries(eq.lhs)), list(_entries(eq.rhs))
    if len(left) != len(right) or any(a[0] != b[0] for a, b in zip(left, right)):
        return None
    if not all(isinstance(a[1], sp.Expr) and isinstance(b[1], sp.Expr) for a, b in zip(left, right)):
        return None
    return [(a[0], (a[1], b[1])) for a, b in zip(left, right)]


def _combine(decided: list[tuple[str, tuple[Verdict, str]]]) -> tuple[Verdict, str]:
    """Every entry must hold: one refuted entry refutes, one undecided entry leaves it inconclusive."""
    for label, (verdict, how) in decided:
        if verdict == Verdict.REFUTED:
            return verdict, (f"entry {label}: {how}" if label else how)
    for label, (verdict, how) in decided:
        if verdict != Verdict.CERTIFIED:
            return verdict, (f"entry {label}: {how}" if label else how)
    if not decided:
        return Verdict.INCONCLUSIVE, "the step returned no residual (an empty collection proves nothing)"
    return Verdict.CERTIFIED, "; ".join(sorted({how for _, (_, how) in decided}))


def _decide_all(result: Any) -> tuple[Verdict, str]:
    """Every entry decided (stopping at the first refuted one), then combined."""
    decided = []
    for label, entry in _entries(result):
        verdict, how = _decide_entry(entry)
        decided.append((label, (verdict, how)))
        if verdict == Verdict.REFUTED:
            break
    return _combine(decided)


def decide(result: Any) -> tuple[Verdict, str, str]:
    """(verdict, residual text, how) for a SymbolicStep's ``check()`` result.

    certified: sympy proves the residual zero (every entry of a list, tuple or matrix) or the
    statement True; refuted: sympy evaluates the statement to False, or some entry has a certified
    non-zero value at a stated rational point respecting its symbols' assumptions; inconclusive
    otherwise (never refuted merely because sympy could not simplify).
    """
    verdict, how = _decide_all(result)
    if verdict == Verdict.CERTIFIED:
        is_bool = all(isinstance(e, bool) or _is_statement(e) for _, e in _entries(result))
        return verdict, "True" if is_bool else "0", how
    return verdict, describe(result), how
