"""Identification: evaluate the relations a proof prints between learned and true objects, solve for
the group element they name, and look for the nearby relation that holds when a printed one fails.

Relations are sympy matrix expressions built in theorem files (trusted code); they are walked here
node by node and evaluated on numpy object arrays of mpf. Nothing is parsed from text.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

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

from .backend import MP, mp_abs_max

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


def nearby(expr: sp.Basic, group_symbols: set[str]) -> Iterator[tuple[sp.Basic, str]]:
    """Candidate corrections of a printed side: reordered products, transposed or inverted group
    elements, and a left pseudo-inverse in place of an inverse. Each comes with a short description."""
    if isinstance(expr, MatMul):
        scalar, mats = expr.as_coeff_matrices()
        for perm in itertools.permutations(range(len(mats))):
            if list(perm) == list(range(len(mats))):
                continue
            factors = [mats[i] for i in perm]
            yield (MatMul(*factors) if scalar == 1 else MatMul(scalar, *factors)), "factors reordered"
    for node in sp.preorder_traversal(expr):
        if isinstance(node, MatrixSymbol) and node.name in group_symbols:
            yield expr.xreplace({node: Inverse(node)}), f"{node.name} replaced by its inverse"
            yield expr.xreplace({node: Transpose(node)}), f"{node.name} replaced by its transpose"
        if isinstance(node, Inverse):
            X = node.arg
            pinv = MatMul(Inverse(MatMul(Transpose(X), X)), Transpose(X))
            yield expr.xreplace({node: pinv}), f"inverse of {sp.sstr(X)} replaced by its left pseudo-inverse"
            if isinstance(X, MatrixSymbol) and X.name in group_symbols:
                yield expr.xreplace({node: X}), f"{X.name}^-1 replaced by {X.name}"


def find_erratum(lhs: sp.Basic, rhs: sp.Basic, envs: list[Env], group_symbols: set[str],
                 tol: mp.mpf) -> tuple[str, mp.mpf, str] | None:
    """The first nearby relation (rhs corrected, then lhs) that holds to tol, if any."""
    for side in ("rhs", "lhs"):
        target = rhs if side == "rhs" else lhs
        seen = set()
        for cand, what in nearby(target, group_symbols):
            key = sp.srepr(cand)
            if key in seen:
                continue
            seen.add(key)
            new_l, new_r = (lhs, cand) if side == "rhs" else (cand, rhs)
            try:
                res = relation_residual(new_l, new_r, envs)
            except (Undefined, ValueError, KeyError):
                continue
            if res <= tol:
                return f"{sp.sstr(new_l)} = {sp.sstr(new_r)}", res, what
    return None
