"""Certification with python-flint ball arithmetic (and exact sympy arithmetic where parameters are
rational). Every routine takes its precision explicitly and restores flint's context afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import flint
import mpmath as mp
import numpy as np
import sympy as sp

from .backend import ARB, SYM
from .families import Family
from .identify import Env, evaluate


@contextmanager
def arb_precision(dps: int) -> Iterator[None]:
    """flint working precision of ``dps`` decimal digits (plus guard digits) for the block."""
    old = flint.ctx.prec
    flint.ctx.dps = dps + 10
    try:
        yield
    finally:
        flint.ctx.prec = old


def to_arb(values: np.ndarray) -> np.ndarray:
    """mpf/decimal object array -> arb balls (exact decimal strings, so only input rounding)."""
    return ARB.asarray(values)


def upper(x: flint.arb) -> mp.mpf:
    """An mpf that is >= |x| (the ball's upper bound, rounded up by a relative 1e-10)."""
    return mp.mpf(x.abs_upper().mid().str(30, radius=False)) * (1 + mp.mpf("1e-10"))


def lower(x: flint.arb) -> mp.mpf:
    """An mpf that is <= |x|."""
    return mp.mpf(x.abs_lower().mid().str(30, radius=False)) * (1 - mp.mpf("1e-10"))


def relation_upper(lhs: sp.Basic, rhs: sp.Basic, envs: list[Env], dps: int) -> mp.mpf:
    """Ball upper bound of max |lhs - rhs| over the environments (arb object arrays)."""
    worst = mp.mpf(0)
    with arb_precision(dps):
        for env in envs:
            benv = {k: to_arb(v) if isinstance(v, np.ndarray) and v.dtype == object else v
                    for k, v in env.items()}
            d = evaluate(lhs, benv) - evaluate(rhs, benv)
            for v in np.ravel(d):
                worst = max(worst, upper(v))
    return worst


def markov_sup_bound(fam_h: Family, th_h: np.ndarray, fam_f: Family, th_f: np.ndarray,
                     length: int, token_bound: Any, dps: int) -> mp.mpf | None:
    """For families linear in the inputs (logit = sum_j M_j x_{t-j}): a ball upper bound of
    sup |logit_h - logit_f| over every sequence of length <= ``length`` whose token coordinates obey
    |x_c| <= token_bound[c], from sum_j sum_c |M_j^h - M_j^f|[:, c] token_bound[c]. None when a family
    is not linear in its inputs."""
    if not (hasattr(fam_h, "markov") and hasattr(fam_f, "markov")):
        return None
    with arb_precision(dps):
        Mh = fam_h.markov(to_arb(th_h), length, ARB)
        Mf = fam_f.markov(to_arb(th_f), length, ARB)
        bound = [flint.arb(repr(float(b))) for b in np.broadcast_to(token_bound, (fam_h.n,))]
        total = np.full(fam_h.m, flint.arb(0), dtype=object)
        for a, b in zip(Mh, Mf):
            D = a - b
            total = total + np.array([sum((abs(v) * bc for v, bc in zip(row, bound)), flint.arb(0))
                                      for row in D], dtype=object)
        return max(upper(v) for v in total)


def linear_range_upper(fam: Family, theta: np.ndarray, length: int, lo: np.ndarray, hi: np.ndarray,
                       dps: int) -> mp.mpf | None:
    """Ball upper bound of max over t <= length and over tokens in the box [lo, hi] of every logit of a
    family linear in its inputs (exact range of a linear function on a box: each coordinate at an end).
    None when the family is not linear in its inputs."""
    if not hasattr(fam, "markov"):
        return None
    with arb_precision(dps):
        Ms = fam.markov(to_arb(theta), length, ARB)
        ends = [(flint.arb(repr(float(a))), flint.arb(repr(float(b)))) for a, b in zip(lo, hi)]
        partial = [flint.arb(0)] * fam.m
        best = None
        for M in Ms:
            for r in range(fam.m):
                for c, (a, b) in enumerate(ends):
                    partial[r] = partial[r] + (M[r, c] * a).max(M[r, c] * b)
            top = max(upper_signed(v) for v in partial)
            best = top if best is None else max(best, top)
        return best


def upper_signed(x: flint.arb) -> mp.mpf:
    """An mpf >= x (signed upper end of the ball, rounded outward)."""
    u = mp.mpf((x.mid() + x.rad()).str(30, radius=False))
    return u + abs(u) * mp.mpf("1e-10")


def exact_markov_equal(fam_h: Family, th_h: list[str], fam_f: Family, th_f: list[str],
                       length: int) -> list[bool] | None:
    """Exact (rational) comparison of Markov parameters j = 0..length-1; None if not applicable."""
    if not (hasattr(fam_h, "markov") and hasattr(fam_f, "markov")):
        return None
    try:
        Mh = fam_h.markov(SYM.asarray(np.asarray(th_h, dtype=object)), length, SYM)
        Mf = fam_f.markov(SYM.asarray(np.asarray(th_f, dtype=object)), length, SYM)
    except (TypeError, ValueError):
        return None
    return [all(sp.simplify(v) == 0 for v in np.ravel(a - b)) for a, b in zip(Mh, Mf)]


def logit_gap_lower(fam_h: Family, th_h: np.ndarray, fam_f: Family, th_f: np.ndarray,
                    X: np.ndarray, dps: int, activation: str | None = None) -> mp.mpf:
    """Ball lower bound of max |h - f| over the given sequences: logits, or outputs of ``activation``
    (for a non-injective readout, where equal outputs need not mean equal logits)."""
    from .activation import apply

    with arb_precision(dps):
        Xa = ARB.asarray(X)
        zh, zf = fam_h.logits(to_arb(th_h), Xa, ARB), fam_f.logits(to_arb(th_f), Xa, ARB)
        if activation is not None:
            zh, zf = apply(activation, zh, ARB), apply(activation, zf, ARB)
        return max(lower(v) for v in np.ravel(zh - zf))
