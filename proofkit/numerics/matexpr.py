"""Relations as printed, evaluated on numbers: a sympy matrix expression (built in a theorem file, trusted
code; nothing is parsed from text) walked node by node on numpy object arrays of mpf or python-flint
balls, a leading batch axis broadcasting. An expression that cannot be evaluated as written (the inverse
of a non-square or singular matrix, an identity of symbolic size alone) raises :class:`Undefined`."""

from __future__ import annotations

from collections.abc import Mapping

import flint
import mpmath as mp
import numpy as np
import sympy as sp
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

from .backend import MP

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
    # mpmath's LU raises TypeError (a None pivot index) where a whole column is zero below the diagonal
    except (ZeroDivisionError, TypeError):
        raise Undefined("inverse of a singular matrix") from None


def _eye(size: int, like: np.ndarray) -> np.ndarray:
    one = like.flat[0] * 0 + 1 if like.size else mp.mpf(1)
    out = np.full((size, size), one * 0, dtype=object)
    for i in range(size):
        out[i, i] = one
    return out


def evaluate(expr: sp.Basic, env: Env) -> np.ndarray:
    """Evaluate a sympy matrix expression on mpf object arrays; a leading batch axis broadcasts."""
    if isinstance(expr, (MatrixSymbol, sp.Symbol)):
        if expr.name not in env:  # "for all j" (At Lt**j Bt) or a symbol no model defines: no value here
            raise Undefined(f"{expr.name} has no value here (relations are evaluated at the fitted learned "
                            "and true parameters and the group elements; a free index or symbol is not "
                            "one of them)")
        return env[expr.name]
    if isinstance(expr, MatMul):
        scalar, mats = expr.as_coeff_matrices()
        sized = [f for f in mats if not _free_identity(f)]  # I(n) of symbolic n: a no-op factor
        if not sized:
            raise Undefined(f"{expr}: an identity of symbolic size alone has no size here")
        out = evaluate(sized[0], env)
        for f in sized[1:]:
            out = _fitting("times", out, evaluate(f, env), expr)
        if scalar.free_symbols:  # c * L: the scalar's own value (Undefined where it has none)
            return out * np.asarray(evaluate(scalar, env), dtype=object)
        return out if scalar == 1 else out * _scalar(sp.Rational(scalar), out)
    if isinstance(expr, MatAdd):
        terms = [a for a in expr.args if not _free_identity(a)]
        if not terms:
            raise Undefined(f"{expr}: an identity of symbolic size alone has no size here")
        total = evaluate(terms[0], env)
        for a in terms[1:]:
            total = _fitting("plus", total, evaluate(a, env), expr)
        for a in expr.args:  # I(n) takes the size of the terms it is added to
            if _free_identity(a):
                coeff = a.as_coeff_mmul()[0] if isinstance(a, MatMul) else 1
                total = total + _eye(total.shape[-1], total) * _scalar(sp.Rational(coeff), total)
        return total
    if isinstance(expr, Inverse):
        return _inverse(evaluate(expr.arg, env))
    if isinstance(expr, Transpose):
        return np.swapaxes(evaluate(expr.arg, env), -1, -2)
    if isinstance(expr, MatPow):
        base = evaluate(expr.base, env)
        exp = expr.exp
        # the exponent among the scalars alone, so its constants stay exact numbers (not balls)
        value = evaluate(exp, {k: v for k, v in env.items() if np.ndim(v) == 0}) if exp.free_symbols else exp
        if int(value) != value:
            raise Undefined(f"power {exp} = {value} is not an integer")
        k = int(value)
        if np.ndim(base) < 2 or base.shape[-1] != base.shape[-2]:  # Bt * Bt of an n x 1 Bt folds to Bt**2
            raise Undefined(f"{expr}: a power of a {' x '.join(map(str, np.shape(base)[-2:]))} matrix")
        if k < 0:
            base, k = _inverse(base), -k
        out = _eye(base.shape[-1], base)
        for _ in range(k):
            out = out @ base
        return out
    # constants (sympy folds Inverse(L) * L to I) in the environment's number type: balls stay balls
    if isinstance(expr, (Identity, ZeroMatrix)):
        if not all(d.is_Integer for d in expr.shape):
            raise Undefined(f"{expr} has symbolic size {expr.shape}: not determined outside a sum or product")
        if isinstance(expr, Identity):
            return _eye(int(expr.shape[0]), _like(env))
        return np.full(tuple(int(s) for s in expr.shape), _scalar(sp.Integer(0), _like(env)), dtype=object)
    if isinstance(expr, sp.Number):
        return np.asarray(_scalar(sp.Rational(expr), _like(env)), dtype=object)
    if isinstance(expr, sp.Add) and all(isinstance(a, sp.Symbol) or a.is_Number for a in expr.args):
        return np.asarray(sum(evaluate(a, env) for a in expr.args), dtype=object)
    raise Undefined(f"unsupported expression node {type(expr).__name__}")


def _fitting(op: str, a: np.ndarray, b: np.ndarray, expr: sp.Basic) -> np.ndarray:
    """``a @ b`` or ``a + b`` where the matrices fit, else Undefined: sizes a symbolic shape left open
    (``Bt * Lt`` with Bt n x 1, Lt n x n fits only at n = 1) are known only here, and numpy would raise
    on a product or, worse, broadcast a 1 x n plus an n x 1 into an n x n sum."""
    ra, rb = np.shape(a)[-2:], np.shape(b)[-2:]
    fits = len(ra) == len(rb) == 2 and (ra[1] == rb[0] if op == "times" else ra == rb)
    if not fits:
        raise Undefined(f"{expr}: the shapes do not fit here ({' x '.join(map(str, ra))} {op} "
                        f"{' x '.join(map(str, rb))})")
    return np.matmul(a, b) if op == "times" else a + b


def _free_identity(expr: sp.Basic) -> bool:
    """I(n), or a number times I(n), with a symbolic n: sized by the sum or product it sits in."""
    if isinstance(expr, MatMul):
        coeff, mats = expr.as_coeff_matrices()
        return len(mats) == 1 and _free_identity(mats[0])
    return isinstance(expr, Identity) and not expr.shape[0].is_Integer


def _like(env: Env) -> np.ndarray:
    """An array of the environment's number type (mpf or arb), empty when it holds no value (mpf)."""
    for value in env.values():
        arr = np.asarray(value, dtype=object)
        if arr.size and isinstance(arr.flat[0], (flint.arb, mp.mpf)):
            return arr
    return np.empty(0, dtype=object)


def _scalar(q: sp.Rational, like: np.ndarray) -> object:
    if like.size and isinstance(like.flat[0], flint.arb):
        return flint.arb(int(q.p)) / int(q.q)
    return MP.convert(q)
