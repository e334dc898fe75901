"""Relations that hold by definition: a printed relation that holds for ANY matrices once its group
elements' definitions are substituted (a tautology, which no residual can make evidence), and controls
that hold identically at the given dimensions (a control that cannot bite).

Decided exactly: sympy rational matrices drawn at every size assignment, never floats.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

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

from .identify import Undefined, show_as_written

if TYPE_CHECKING:
    from ..language.spec import GroupElement

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
    v = sp.sympify(sp.sympify(d, strict=True).xreplace(sizes), strict=True)
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
        return out * sp.sympify(coeff, strict=True).xreplace(values)
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
        base, k = _exact(expr.base, env, values, sizes), sp.sympify(expr.exp, strict=True).xreplace(values)
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
               + ", ".join(f"{g.symbol.name} := {show_as_written(g.definition)}" for g in used))
    # as substituted, not canonicalised
    return f"{why}: {show_as_written(new_l)} = {show_as_written(new_r)} {over}"


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
