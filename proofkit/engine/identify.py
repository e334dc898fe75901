"""Identification: evaluate the relations a proof prints between learned and true objects, solve for
the group element they name, and look for the nearby relation that holds when a printed one fails
(recognising tautologies is :mod:`proofkit.engine.tautology`).

Relations are sympy matrix expressions built in theorem files (trusted code); they are walked here
node by node and evaluated on numpy object arrays of mpf (or, for the identity test, exactly on
sympy rational matrices). Nothing is parsed from text.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import mpmath as mp
import numpy as np
import sympy as sp
from sympy.matrices.exceptions import NonSquareMatrixError, ShapeError
from sympy.matrices.expressions import (
    Identity,
    Inverse,
    MatAdd,
    MatMul,
    MatPow,
    MatrixSymbol,
    Transpose,
    ZeroMatrix,
)

from ..numerics.backend import mp_abs_max
from ..numerics.matexpr import Env, Undefined, evaluate


def relation_residual(lhs: sp.Basic, rhs: sp.Basic, envs: list[Env]) -> mp.mpf:
    """Largest |lhs - rhs| entry over every environment, relative to max(1, |rhs|)."""
    worst, scale = mp.mpf(0), mp.mpf(1)
    for env in envs:
        a, b = evaluate(lhs, env), evaluate(rhs, env)
        if np.shape(a) != np.shape(b):
            raise Undefined(f"shapes differ: {np.shape(a)} vs {np.shape(b)}")
        worst = max(worst, mp_abs_max(a - b))
        scale = max(scale, mp_abs_max(b))
    return worst / scale


@dataclass
class Solved:
    value: np.ndarray
    residual: mp.mpf
    how: str


def solve_linear(symbol: MatrixSymbol, equations: list[tuple[sp.Basic, sp.Basic, list[Env]]],
                 shape: tuple[int, int]) -> Solved:
    """Least-squares solve for a matrix that enters every equation affinely (linear map, similarity)."""
    name = symbol.name
    rows, cols = shape

    def stacked(M: np.ndarray) -> list[mp.mpf]:
        out = []
        for lhs, rhs, envs in equations:
            for env in envs:
                e = dict(env)
                e[name] = M
                left, right = evaluate(lhs, e), evaluate(rhs, e)
                if np.shape(left) != np.shape(right):  # e.g. a learner of another dimension
                    raise Undefined(f"{sp.sstr(lhs)} is {np.shape(left)} but {sp.sstr(rhs)} is "
                                    f"{np.shape(right)} at these dimensions")
                out.extend(np.ravel(left - right).tolist())
        return out

    zero = np.full(shape, mp.mpf(0), dtype=object)
    r0 = stacked(zero)
    cols_ = []
    for a in range(rows):
        for b in range(cols):
            E = zero.copy()
            E[a, b] = mp.mpf(1)
            cols_.append([u - v for u, v in zip(stacked(E), r0)])
    with mp.workdps(2 * mp.mp.dps):  # normal equations at doubled precision
        Jt = np.array(cols_, dtype=object)  # (unknowns, residuals)
        G = mp.matrix((Jt @ Jt.T).tolist())
        rhs = mp.matrix((-(Jt @ np.array(r0, dtype=object))).tolist())
        sol = mp.lu_solve(G, rhs)
    value = np.array([[sol[a * cols + b] for b in range(cols)] for a in range(rows)], dtype=object)
    res = mp_abs_max(np.array(stacked(value), dtype=object))
    return Solved(value, res, "least squares over the equations it enters")


#: discrete groups a solved element is projected onto (``signed permutation`` = ``signed-permutation``)
GROUPS = ("GL", "diagonal", "permutation", "signed-permutation", "signed permutation")


def project(value: np.ndarray, group: str) -> np.ndarray:
    """Nearest element of a discrete group (permutation, signed permutation, diagonal).

    Permutations: the assignment problem on |entries| (``scipy.optimize.linear_sum_assignment``, the
    support pattern of largest total magnitude), never a threshold on single entries; the result is an
    exact 0/1 (or 0/+-1, sign of the assigned entry) matrix of mpf, so relations naming it are decided
    with the exact group element and only the fit's own error in their residuals."""
    if group == "GL":
        return value
    if group == "diagonal":
        out = np.full(value.shape, mp.mpf(0), dtype=object)
        for i in range(value.shape[0]):
            out[i, i] = value[i, i]
        return out
    if group not in GROUPS:
        raise ValueError(f"unknown group {group!r}: expected one of {', '.join(GROUPS)}")
    if value.ndim != 2 or value.shape[0] != value.shape[1]:
        raise Undefined(f"a {group} matrix is square; the estimate is {value.shape[0]}x{value.shape[1]}")
    from scipy.optimize import linear_sum_assignment

    mags = np.vectorize(lambda v: float(abs(v)), otypes=[float])(value)
    rows, cols = linear_sum_assignment(-mags)  # the support pattern of largest total magnitude
    out = np.full(value.shape, mp.mpf(0), dtype=object)
    for i, j in zip(rows, cols):
        sign = 1 if (group == "permutation" or value[i, j] >= 0) else -1
        out[i, j] = mp.mpf(sign)
    return out


def describe_element(value: np.ndarray) -> str:
    """A 0/+-1 matrix in words: ``identity``, ``swap`` (2x2), else the image of each unit with its sign
    (``e0->-e1, e1->e0``: column j has its non-zero entry in row i). Other matrices: their entries."""
    n = value.shape[0] if value.ndim == 2 else 0
    entries = [[int(v) if v in (-1, 0, 1) else None for v in row] for row in value.tolist()]
    if n == 0 or value.shape[1] != n or any(v is None for row in entries for v in row):
        return "[" + ", ".join("[" + ", ".join(mp.nstr(v, 6) for v in row) + "]"
                               for row in value.tolist()) + "]"
    cols = []
    for j in range(n):
        hits = [(i, entries[i][j]) for i in range(n) if entries[i][j]]
        if len(hits) != 1:
            return str(entries)
        cols.append(hits[0])
    if all(i == j and s == 1 for j, (i, s) in enumerate(cols)):
        return "identity"
    if n == 2 and all(i != j and s == 1 for j, (i, s) in enumerate(cols)):
        return "swap"
    return ", ".join(f"e{j}->{'-' if s < 0 else ''}e{i}" for j, (i, s) in enumerate(cols))


# ----------------------------------------------------------------------------- canonical form, printing
def _product(coeff: sp.Expr, factors: list[sp.Basic]) -> sp.Basic:
    """coeff * factors as one flat MatMul without identity factors and with adjacent X X^-1 and
    X^-1 X cancelled (a lone factor with coefficient 1 stays itself)."""
    size = factors[0].shape[0]
    flat: list[sp.Basic] = []
    for f in factors:
        c, mats = f.as_coeff_matrices() if isinstance(f, MatMul) else (1, [f])
        coeff = coeff * c
        for m in mats:
            last = flat[-1] if flat else None
            if isinstance(m, Identity):
                continue
            if (isinstance(m, Inverse) and m.arg == last) or (isinstance(last, Inverse) and last.arg == m):
                flat.pop()
            else:
                flat.append(m)
    flat = flat or [Identity(size)]
    if coeff == 1:
        return flat[0] if len(flat) == 1 else MatMul(*flat)
    return MatMul(coeff, *flat)


def canonical(expr: sp.Basic) -> sp.Basic:
    """The same matrix with transposes pushed onto symbols ((X Y).T = Y.T X.T, (X^-1).T = (X.T)^-1),
    double transposes and double inverses removed and products flattened, so that candidates that
    differ only in how they are written compare and print equal."""
    if isinstance(expr, Transpose):
        a = canonical(expr.arg)
        if isinstance(a, Transpose):
            return a.arg
        if isinstance(a, Identity):
            return a
        if isinstance(a, ZeroMatrix):
            return ZeroMatrix(a.shape[1], a.shape[0])
        if isinstance(a, Inverse):
            return Inverse(canonical(Transpose(a.arg)))
        if isinstance(a, MatMul):
            coeff, mats = a.as_coeff_matrices()
            return _product(coeff, [canonical(Transpose(m)) for m in reversed(mats)])
        if isinstance(a, MatAdd):
            return MatAdd(*[canonical(Transpose(t)) for t in a.args])
        if isinstance(a, MatPow):
            return MatPow(canonical(Transpose(a.base)), a.exp)
        return Transpose(a)
    if isinstance(expr, Inverse):
        a = canonical(expr.arg)
        if isinstance(a, Inverse):
            return a.arg
        if isinstance(a, Identity):
            return a
        return Inverse(a)
    if isinstance(expr, MatPow):
        base = canonical(expr.base)
        if expr.exp == 1:
            return base
        if expr.exp == -1:
            return canonical(Inverse(base))
        return MatPow(base, expr.exp)
    if isinstance(expr, MatMul):
        coeff, mats = expr.as_coeff_matrices()
        return _product(coeff, [canonical(m) for m in mats])
    if isinstance(expr, MatAdd):
        return MatAdd(*[canonical(t) for t in expr.args])
    return expr


def _postfix_operand(expr: sp.Basic) -> str:
    """expr printed for a postfix ^-1, ^j or .T: bare if a symbol or a transposed symbol."""
    text = show_as_written(expr)
    simple = isinstance(expr, (MatrixSymbol, Identity)) or (
        isinstance(expr, Transpose) and isinstance(expr.arg, MatrixSymbol))
    return text if simple else f"({text})"


def show_as_written(expr: sp.Basic) -> str:
    """expr printed as written (not canonicalised): X^-1, X.T, X^j, products joined by '*'; the
    explanation of a tautology prints the relation as substituted, so the reader sees why it holds."""
    if isinstance(expr, MatrixSymbol):
        return expr.name
    if isinstance(expr, Identity):
        return "I"
    if isinstance(expr, ZeroMatrix):
        return "0"
    if isinstance(expr, Transpose):
        return _postfix_operand(expr.arg) + ".T"
    if isinstance(expr, Inverse):
        return _postfix_operand(expr.arg) + "^-1"
    if isinstance(expr, MatPow):
        exp = expr.exp
        power = sp.sstr(exp) if exp.is_Symbol or (exp.is_Integer and exp > 0) else f"({sp.sstr(exp)})"
        return f"{_postfix_operand(expr.base)}^{power}"
    if isinstance(expr, MatMul):
        coeff, mats = expr.as_coeff_matrices()
        body = "*".join(f"({show_as_written(m)})" if isinstance(m, MatAdd) else show_as_written(m)
                        for m in mats)
        if coeff == 1:
            return body
        text = f"({sp.sstr(coeff)})" if coeff.is_Add else sp.sstr(coeff)  # (c + 1)*X, not c + 1*X
        return f"-{body}" if coeff == -1 else f"{text}*{body}"
    if isinstance(expr, MatAdd):
        text = show_as_written(expr.args[0])
        for term in expr.args[1:]:
            t = show_as_written(term)
            text += f" - {t[1:]}" if t.startswith("-") else f" + {t}"
        return text
    return sp.sstr(expr)


def show(expr: sp.Basic) -> str:
    """A matrix expression in the readable canonical form errata print: X^-1, X.T, X.T^-1, X^j,
    products joined by '*' (never X.T.T or (X^-1)^-1)."""
    return show_as_written(canonical(expr))


# ----------------------------------------------------------------------------- errata
def nearby(expr: sp.Basic, group_symbols: set[str]) -> Iterator[tuple[sp.Basic, str]]:
    """Candidate corrections of a printed side: reordered products, transposed or inverted group
    elements, and a left pseudo-inverse in place of an inverse, each with a short description.

    Candidates are yielded in canonical form (:func:`canonical`), once each, and never equal to the
    printed side itself: substituting C.T for C in a side that already holds C.T gives C, not C.T.T."""
    seen = {sp.srepr(canonical(expr))}

    def raw() -> Iterator[tuple[Callable[[], sp.Basic], str]]:
        # each candidate is built lazily: with concretely shaped factors (a 1x2 times a 2x2) a reordered
        # product or a replaced factor may not fit, which rules that candidate out, not the search
        if isinstance(expr, MatMul):
            scalar, mats = expr.as_coeff_matrices()
            for perm in itertools.permutations(range(len(mats))):
                yield (lambda perm=perm: _product(scalar, [mats[i] for i in perm])), "factors reordered"
        for node in sp.preorder_traversal(expr):
            if isinstance(node, MatrixSymbol) and node.name in group_symbols:
                yield (lambda node=node: expr.xreplace({node: Inverse(node)})), \
                    f"{node.name} replaced by its inverse"
                yield (lambda node=node: expr.xreplace({node: Transpose(node)})), \
                    f"{node.name} replaced by its transpose"
            if isinstance(node, Inverse):
                X = node.arg
                yield (lambda node=node, X=X: expr.xreplace(
                    {node: MatMul(Inverse(MatMul(Transpose(X), X)), Transpose(X))})), \
                    f"inverse of {show(X)} replaced by its left pseudo-inverse"
                if isinstance(X, MatrixSymbol) and X.name in group_symbols:
                    yield ((lambda node=node, X=X: expr.xreplace({node: X})),
                           f"{X.name}^-1 replaced by {X.name}")

    for build, what in raw():
        try:
            cand = canonical(build())
        except (ShapeError, NonSquareMatrixError, ValueError, TypeError):
            continue
        key = sp.srepr(cand)
        if key not in seen:
            seen.add(key)
            yield cand, what


def find_erratum(lhs: sp.Basic, rhs: sp.Basic, envs: list[Env], group_symbols: set[str],
                 tol: mp.mpf) -> tuple[str, mp.mpf, str] | None:
    """The first nearby relation (rhs corrected, then lhs) that holds to tol, if any, printed by
    :func:`show`."""
    for side in ("rhs", "lhs"):
        for cand, what in nearby(rhs if side == "rhs" else lhs, group_symbols):
            new_l, new_r = (lhs, cand) if side == "rhs" else (cand, rhs)
            try:
                res = relation_residual(new_l, new_r, envs)
            except (Undefined, ValueError, KeyError):
                continue
            if res <= tol:
                return f"{show(new_l)} = {show(new_r)}", res, what
    return None
