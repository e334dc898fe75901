"""Identification: evaluate the relations a proof prints between learned and true objects, solve for
the group element they name, look for the nearby relation that holds when a printed one fails, and
recognise a relation that holds for any matrices once a group element's definition is substituted
(a tautology, which no residual can make evidence).

Relations are sympy matrix expressions built in theorem files (trusted code); they are walked here
node by node and evaluated on numpy object arrays of mpf (or, for the identity test, exactly on
sympy rational matrices). Nothing is parsed from text.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import flint
import mpmath as mp
import numpy as np
import sympy as sp
from sympy.matrices.exceptions import NonInvertibleMatrixError, NonSquareMatrixError, ShapeError
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
from sympy.utilities.iterables import multiset_partitions

from .backend import MP, mp_abs_max

if TYPE_CHECKING:
    from .spec import GroupElement

Env = Mapping[str, np.ndarray]


class Undefined(ValueError):
    """A relation cannot be evaluated as written (e.g. the inverse of a non-square matrix)."""


def _inverse(M: np.ndarray) -> np.ndarray:
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise Undefined(f"inverse of a {M.shape[0]}x{M.shape[1]} matrix is undefined")
    if M.size and isinstance(M.flat[0], flint.arb):
        inv = flint.arb_mat(M.tolist()).inv()  # raises ZeroDivisionError if not provably invertible
        return np.array([[inv[i, j] for j in range(inv.ncols())] for i in range(inv.nrows())],
                        dtype=object)
    try:
        return np.array(mp.inverse(mp.matrix(M.tolist())).tolist(), dtype=object)
    except ZeroDivisionError:
        raise Undefined("inverse of a singular matrix") from None


def _eye(size: int, like: np.ndarray) -> np.ndarray:
    one = like.flat[0] * 0 + 1 if like.size else mp.mpf(1)
    out = np.full((size, size), one * 0, dtype=object)
    for i in range(size):
        out[i, i] = one
    return out


def evaluate(expr: sp.Basic, env: Env) -> np.ndarray:
    """Evaluate a sympy matrix expression on mpf object arrays; a leading batch axis broadcasts."""
    if isinstance(expr, MatrixSymbol):
        return env[expr.name]
    if isinstance(expr, sp.Symbol):
        return env[expr.name]
    if isinstance(expr, MatMul):
        scalar, mats = expr.as_coeff_matrices()
        out = evaluate(mats[0], env)
        for f in mats[1:]:
            out = np.matmul(out, evaluate(f, env))
        return out if scalar == 1 else out * _scalar(sp.Rational(scalar), out)
    if isinstance(expr, MatAdd):
        parts = [evaluate(a, env) for a in expr.args]
        total = parts[0]
        for p in parts[1:]:
            total = total + p
        return total
    if isinstance(expr, Inverse):
        return _inverse(evaluate(expr.arg, env))
    if isinstance(expr, Transpose):
        return np.swapaxes(evaluate(expr.arg, env), -1, -2)
    if isinstance(expr, MatPow):
        base = evaluate(expr.base, env)
        exp = expr.exp
        k = int(evaluate(exp, env)) if isinstance(exp, sp.Symbol) else int(exp)
        if k < 0:
            base, k = _inverse(base), -k
        out = _eye(base.shape[-1], base)
        for _ in range(k):
            out = out @ base
        return out
    if isinstance(expr, Identity):
        return np.array(mp.eye(int(expr.shape[0])).tolist(), dtype=object)
    if isinstance(expr, ZeroMatrix):
        return np.full(tuple(int(s) for s in expr.shape), mp.mpf(0), dtype=object)
    if isinstance(expr, sp.Number):
        return np.asarray(MP.convert(sp.Rational(expr)), dtype=object)
    if isinstance(expr, sp.Add) and all(isinstance(a, sp.Symbol) or a.is_Number for a in expr.args):
        return np.asarray(sum(evaluate(a, env) for a in expr.args), dtype=object)
    raise Undefined(f"unsupported expression node {type(expr).__name__}")


def _scalar(q: sp.Rational, like: np.ndarray) -> object:
    if like.size and isinstance(like.flat[0], flint.arb):
        return flint.arb(int(q.p)) / int(q.q)
    return MP.convert(q)


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
                out.extend(np.ravel(evaluate(lhs, e) - evaluate(rhs, e)).tolist())
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


def project(value: np.ndarray, group: str) -> np.ndarray:
    """Nearest element of a discrete group (permutation, signed permutation, diagonal)."""
    if group == "GL":
        return value
    if group == "diagonal":
        out = np.full(value.shape, mp.mpf(0), dtype=object)
        for i in range(value.shape[0]):
            out[i, i] = value[i, i]
        return out
    if group not in ("permutation", "signed permutation"):
        raise ValueError(f"unknown group {group!r}: expected GL, diagonal, permutation, "
                         "signed permutation")
    from scipy.optimize import linear_sum_assignment

    mags = np.vectorize(lambda v: float(abs(v)))(value)
    rows, cols = linear_sum_assignment(-mags)  # the support pattern of largest total magnitude
    out = np.full(value.shape, mp.mpf(0), dtype=object)
    for i, j in zip(rows, cols):
        sign = 1 if (group == "permutation" or value[i, j] >= 0) else -1
        out[i, j] = mp.mpf(sign)
    return out


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
    text = _show(expr)
    simple = isinstance(expr, (MatrixSymbol, Identity)) or (
        isinstance(expr, Transpose) and isinstance(expr.arg, MatrixSymbol))
    return text if simple else f"({text})"


def _show(expr: sp.Basic) -> str:
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
        body = "*".join(f"({_show(m)})" if isinstance(m, MatAdd) else _show(m) for m in mats)
        if coeff == 1:
            return body
        return f"-{body}" if coeff == -1 else f"{sp.sstr(coeff)}*{body}"
    if isinstance(expr, MatAdd):
        text = _show(expr.args[0])
        for term in expr.args[1:]:
            t = _show(term)
            text += f" - {t[1:]}" if t.startswith("-") else f" + {t}"
        return text
    return sp.sstr(expr)


def show(expr: sp.Basic) -> str:
    """A matrix expression in the readable canonical form errata print: X^-1, X.T, X.T^-1, X^j,
    products joined by '*' (never X.T.T or (X^-1)^-1)."""
    return _show(canonical(expr))


# ----------------------------------------------------------------------------- errata
def nearby(expr: sp.Basic, group_symbols: set[str]) -> Iterator[tuple[sp.Basic, str]]:
    """Candidate corrections of a printed side: reordered products, transposed or inverted group
    elements, and a left pseudo-inverse in place of an inverse, each with a short description.

    Candidates are yielded in canonical form (:func:`canonical`), once each, and never equal to the
    printed side itself: substituting C.T for C in a side that already holds C.T gives C, not C.T.T."""
    seen = {sp.srepr(canonical(expr))}

    def raw() -> Iterator[tuple[sp.Basic, str]]:
        if isinstance(expr, MatMul):
            scalar, mats = expr.as_coeff_matrices()
            for perm in itertools.permutations(range(len(mats))):
                yield _product(scalar, [mats[i] for i in perm]), "factors reordered"
        for node in sp.preorder_traversal(expr):
            if isinstance(node, MatrixSymbol) and node.name in group_symbols:
                yield expr.xreplace({node: Inverse(node)}), f"{node.name} replaced by its inverse"
                yield expr.xreplace({node: Transpose(node)}), f"{node.name} replaced by its transpose"
            if isinstance(node, Inverse):
                X = node.arg
                pinv = MatMul(Inverse(MatMul(Transpose(X), X)), Transpose(X))
                yield (expr.xreplace({node: pinv}),
                       f"inverse of {show(X)} replaced by its left pseudo-inverse")
                if isinstance(X, MatrixSymbol) and X.name in group_symbols:
                    yield expr.xreplace({node: X}), f"{X.name}^-1 replaced by {X.name}"

    for cand, what in raw():
        cand = canonical(cand)
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


# ----------------------------------------------------------------------------- identities
#: exact draws per size assignment; entries are integers uniform in [-_ENTRY, _ENTRY]
_DRAWS, _ENTRY = 3, 10**6
#: a draw that hits a singular inverse is replaced by the next seed, at most this many times in all
_SPARE_DRAWS = 7
#: values every power symbol (the j of a relation over powers) takes
_POWERS = (0, 1, 2, 3)


@dataclass
class _Atoms:
    """What a relation is built from: matrix symbols (first appearance first), power symbols
    (exponents), other scalar symbols, and the dimension symbols of the shapes."""

    matrices: dict[str, MatrixSymbol]
    powers: set[sp.Symbol]
    scalars: set[sp.Symbol]
    dims: set[sp.Symbol]


def _atoms(exprs: tuple[sp.Basic, ...]) -> _Atoms:
    out = _Atoms({}, set(), set(), set())

    def walk(e: sp.Basic) -> None:
        if isinstance(e, MatrixSymbol):
            out.matrices.setdefault(e.name, e)
            out.dims |= sp.Tuple(*e.shape).free_symbols
        elif isinstance(e, (Identity, ZeroMatrix)):
            out.dims |= sp.Tuple(*e.shape).free_symbols
        elif isinstance(e, MatPow):
            walk(e.base)
            out.powers |= e.exp.free_symbols
        elif isinstance(e, MatMul):
            coeff, mats = e.as_coeff_matrices()
            out.scalars |= coeff.free_symbols
            for m in mats:
                walk(m)
        elif isinstance(e, sp.Symbol):
            out.scalars.add(e)
        else:
            for a in e.args:
                walk(a)

    for e in exprs:
        walk(e)
    out.scalars -= out.powers
    return out


def _size(d: sp.Basic, sizes: Mapping[sp.Symbol, int]) -> int:
    """A dimension at these sizes; ShapeError (this assignment does not fit) unless a positive int."""
    v = sp.sympify(sp.sympify(d).xreplace(sizes))
    if not (v.is_Integer and v > 0):
        raise ShapeError(f"dimension {d} is not a positive integer at {sizes}")
    return int(v)


def _exact(expr: sp.Basic, env: Mapping[str, sp.Matrix], values: Mapping[sp.Symbol, sp.Integer],
           sizes: Mapping[sp.Symbol, int]) -> sp.Matrix:
    """Evaluate exactly on explicit rational matrices. Raises ShapeError where the shapes do not fit
    (an inverse of a non-square matrix, a product of mismatched factors) and NonInvertibleMatrixError
    at a singular inverse."""
    if isinstance(expr, MatrixSymbol):
        return env[expr.name]
    if isinstance(expr, MatMul):
        coeff, mats = expr.as_coeff_matrices()
        out = _exact(mats[0], env, values, sizes)
        for f in mats[1:]:
            out = out * _exact(f, env, values, sizes)
        return out * sp.sympify(coeff).xreplace(values)
    if isinstance(expr, MatAdd):
        parts = [_exact(a, env, values, sizes) for a in expr.args]
        total = parts[0]
        for p in parts[1:]:
            total = total + p
        return total
    if isinstance(expr, Inverse):
        return _exact(expr.arg, env, values, sizes).inv()
    if isinstance(expr, Transpose):
        return _exact(expr.arg, env, values, sizes).T
    if isinstance(expr, MatPow):
        base, k = _exact(expr.base, env, values, sizes), sp.sympify(expr.exp).xreplace(values)
        if not k.is_Integer:
            raise Undefined(f"power {expr.exp} is not an integer at {dict(values)}")
        if not base.is_square:
            raise NonSquareMatrixError(f"power of a {base.rows}x{base.cols} matrix")
        return base.inv() ** -int(k) if k < 0 else base ** int(k)
    if isinstance(expr, Identity):
        return sp.eye(_size(expr.shape[0], sizes))
    if isinstance(expr, ZeroMatrix):
        return sp.zeros(_size(expr.shape[0], sizes), _size(expr.shape[1], sizes))
    raise Undefined(f"unsupported expression node {type(expr).__name__}")


def _draw(atoms: _Atoms, sizes: Mapping[sp.Symbol, int], seed: int) -> tuple[dict[str, sp.Matrix],
                                                                             dict[sp.Symbol, sp.Integer]]:
    """Independent random integer matrices for every matrix symbol (and integers for every scalar
    symbol that is not a power), seeded."""
    rng = random.Random(seed)

    def entry() -> sp.Integer:
        return sp.Integer(rng.randint(-_ENTRY, _ENTRY))

    env = {}
    for name in sorted(atoms.matrices):
        rows, cols = (_size(d, sizes) for d in atoms.matrices[name].shape)
        env[name] = sp.Matrix(rows, cols, [entry() for _ in range(rows * cols)])
    return env, {s: entry() for s in sorted(atoms.scalars, key=str)}


def _holds_identically(lhs: sp.Basic, rhs: sp.Basic,
                       assignments: Iterable[Mapping[sp.Symbol, int]]) -> bool | None:
    """Whether lhs = rhs at every size assignment where it is defined, on independent random exact
    draws (see :func:`by_definition` for how reliable a True is; a False is exact: a witness).
    None when no assignment gives a decision (shapes never fit, or every draw hits a singular
    inverse)."""
    atoms = _atoms((lhs, rhs))
    powers = sorted(atoms.powers, key=str)
    decided = False
    for sizes in assignments:
        done, seed = 0, 0
        try:
            while done < _DRAWS and seed < _DRAWS + _SPARE_DRAWS:
                env, scalars = _draw(atoms, sizes, seed)
                seed += 1
                try:
                    for js in itertools.product(_POWERS, repeat=len(powers)):
                        values = {**scalars, **{p: sp.Integer(v) for p, v in zip(powers, js)}}
                        a, b = _exact(lhs, env, values, sizes), _exact(rhs, env, values, sizes)
                        if a.shape != b.shape:
                            raise ShapeError(f"sides are {a.shape} and {b.shape}")
                        if a != b:
                            return False
                except NonInvertibleMatrixError:
                    continue
                done += 1
        except ShapeError:
            continue
        except Undefined:
            return None
        decided = decided or done == _DRAWS
    return True if decided else None


def _size_assignments(dims: set[sp.Symbol]) -> Iterator[dict[sp.Symbol, int]]:
    """Sizes for the dimension symbols: every way of letting some of them coincide (finest first),
    each block at two sizes >= 3 ((3, 4, ..) and (.., 5, 4): every symbol changes size between the
    two), so no size is 1 (where everything commutes) or 2 (where 2x2-only identities hold)."""
    order = sorted(dims, key=str)
    if not order:
        yield {}
        return
    for blocks in sorted(multiset_partitions(order), key=len, reverse=True):
        b = len(blocks)
        for sizes in (range(3, 3 + b), range(b + 3, 3, -1)):
            yield {d: s for block, s in zip(blocks, sizes) for d in block}


def _substitute(lhs: sp.Basic, rhs: sp.Basic, groups: Sequence[GroupElement]
                ) -> tuple[sp.Basic, sp.Basic, list[GroupElement]] | None:
    """lhs and rhs with every defined group element replaced by its definition (repeatedly, for
    definitions that name another element), and the elements substituted; None if definitions
    refer to each other in a cycle. Elements without a definition stay as independent symbols."""
    defined = {g.symbol.name: g for g in groups if g.definition is not None}
    used: list[GroupElement] = []
    for _ in range(len(defined) + 1):
        present = [defined[name] for name in _atoms((lhs, rhs)).matrices if name in defined]
        if not present:
            return lhs, rhs, used
        rules = {g.symbol: g.definition for g in present}
        lhs, rhs = lhs.xreplace(rules), rhs.xreplace(rules)
        used += [g for g in present if g not in used]
    return None


def _invertible(exprs: tuple[sp.Basic, ...]) -> tuple[list[str], bool]:
    """The matrix symbols every inverse in exprs needs invertible, and whether that is all it needs
    (False when some inverse is of a sum, a scaled or non-square product, e.g. (X.T X)^-1)."""
    names: list[str] = []

    def factors(arg: sp.Basic) -> bool:
        if isinstance(arg, MatrixSymbol):
            if arg.name not in names:
                names.append(arg.name)
            return True
        if isinstance(arg, (Inverse, Transpose)):
            return factors(arg.arg)
        if isinstance(arg, MatPow):
            return factors(arg.base)
        if isinstance(arg, MatMul):
            coeff, mats = arg.as_coeff_matrices()
            square = all(sp.simplify(m.shape[0] - m.shape[1]) == 0 for m in mats)
            return coeff.is_Number and coeff != 0 and square and all([factors(m) for m in mats])
        return False

    complete = True
    for e in exprs:
        for node in sp.preorder_traversal(e):
            if isinstance(node, Inverse):
                complete = factors(node.arg) and complete
            elif isinstance(node, MatPow) and node.exp.is_negative:
                complete = factors(node.base) and complete
    return names, complete


def by_definition(lhs: sp.Basic, rhs: sp.Basic, groups: Sequence[GroupElement]) -> str | None:
    """Whether ``lhs = rhs`` holds identically once every group element with a ``definition`` is
    replaced by it: then it holds for any learned and true matrices whatsoever (e.g. A~ = A C^-1 with
    C := A~^-1 A, since A (A~^-1 A)^-1 = A~) and is no evidence of identification, however small its
    residual. Returns a one-line explanation, or None if it is not an identity or cannot be decided.

    Method (noncommutative, no simplifier): every matrix symbol -- learned, true, vectors such as
    psi or h, and group elements solved by least squares, which are independent unknowns here --
    gets an independent random integer matrix, entries uniform in [-10^6, 10^6]; both sides are
    evaluated exactly with sympy Matrices and must agree on 3 seeded draws, at every power
    j = 0..3 and at every size assignment where the relation is defined (:func:`_size_assignments`:
    dimension symbols equal or distinct in every pattern, two sizes >= 3 each; patterns needing an
    inverse of a non-square matrix are skipped, and with none left the answer is None).
    Reliability: a disagreement is an exact witness, so None for a non-identity is certain. An
    entry of lhs - rhs is a rational function P/Q of the entries; if P != 0 has degree d, a uniform
    draw is a root with probability <= d / (2*10^6 + 1) (Schwartz-Zippel), so a non-identity of
    degree <= 100 passes three independent draws with probability < 2e-13. The identity is tested
    at the sizes and powers above, not proved for every size or j (identities special to n x n
    matrices have degree >= 2n, Amitsur-Levitzki, far above a printed relation's)."""
    substituted = _substitute(lhs, rhs, groups)
    if substituted is None:
        return None
    new_l, new_r, used = substituted
    atoms = _atoms((new_l, new_r))
    if not _holds_identically(new_l, new_r, _size_assignments(atoms.dims)):
        return None
    inverted, complete = _invertible((new_l, new_r))
    plain = [name for name in atoms.matrices if name not in inverted]
    over = ", ".join(plain)
    if inverted:
        over += (" and " if plain else "") + "invertible " + ", ".join(inverted)
    over = f"for all {over}" if over else "always"
    if not complete:
        over += " where the inverses exist"
    if atoms.powers:
        over += " (tested at " + ", ".join(f"{p} = 0..3" for p in sorted(atoms.powers, key=str)) + ")"
    why = "holds identically"
    if used:
        why = ("holds by the definition" + ("s " if len(used) > 1 else " ")
               + ", ".join(f"{g.symbol.name} := {_show(g.definition)}" for g in used))
    return f"{why}: {_show(new_l)} = {_show(new_r)} {over}"  # as substituted, not canonicalised


def holds_generically(lhs: sp.Basic, rhs: sp.Basic, groups: Sequence[GroupElement],
                      dims: Mapping[str | sp.Symbol, int], given: Sequence[tuple[sp.Basic, sp.Basic]] = ()
                      ) -> bool | None:
    """Whether ``lhs = rhs`` follows, at these concrete dimensions, from the ``given`` relations and
    the group definitions alone, for generic values of everything else. A control that does is
    satisfied by every model the given identification relations allow, so it cannot bite there: at
    n = 1, Lam~ = Lam follows from Lam~ = C Lam C^-1 because 1x1 matrices commute.

    Each given ``(X, expr)`` with a bare matrix symbol X is a rewrite X -> expr (all applied at once,
    not into each other; other givens are not used), then group definitions are substituted;
    elements without a definition stay independent unknowns. The test is :func:`by_definition`'s
    (exact random draws, j = 0..3) at the one size assignment ``dims`` (dimension symbol or its name
    -> size). True: implied (wrong with probability < 2e-13 for rational functions of degree
    <= 100). False: exact, the rewritten relation fails at a witness, so these rewrites do not force
    it (givens not used as rewrites might). None when a dimension is missing from dims, the shapes
    do not fit there, or definitions form a cycle."""
    rules = {x: e for x, e in given if isinstance(x, MatrixSymbol)}
    substituted = _substitute(lhs.xreplace(rules), rhs.xreplace(rules), groups)
    if substituted is None:
        return None
    new_l, new_r, _ = substituted
    by_name = {str(d): size for d, size in dims.items()}
    sizes = {d: by_name[d.name] for d in _atoms((new_l, new_r)).dims if d.name in by_name}
    return _holds_identically(new_l, new_r, [sizes])
