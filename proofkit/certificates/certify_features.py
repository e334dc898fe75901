"""Support-wide certificates for families built from hidden units (deep sets and their kin).

A relation between token maps (``A psi = B phi``, psi learned, phi true) checked on a grid says
nothing between the grid points. Here it is bounded over the whole token box. Each side is affine in
the token maps, so ``lhs(x) - rhs(x) = P psi(x) + Q phi(x) + c``, which is a sum of hidden units of
both networks plus a constant. Pair each learned unit with a true unit under the family's symmetry
(hidden-unit permutation, and sign flip because the activation is odd). For every x in the box, a
pair then contributes at most ``|c_h + c_f| sup|act| + min(|c_h|, |c_f|) Lip sup_x |(w_h - w_f).x +
b_h - b_f|``, and an unpaired unit at most ``|c| sup|act|``.

Everything is computed in python-flint balls from exact inputs: fitted parameters as exact binary
numbers, true parameters as exact decimals. The returned number is an upper bound over the continuum,
not over samples. The float64 pairing only decides which units are compared, so a poor pairing makes
the bound loose but never wrong.

A family opts in with ``unit_parts(theta)`` (see :meth:`proofkit.families.DeepSets.unit_parts`).
Without it, or with an activation that is not odd and Lipschitz, the routines return None, and the
caller reports the claim at its samples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import flint
import mpmath as mp
import numpy as np
import sympy as sp
from scipy.optimize import linear_sum_assignment
from sympy.matrices.expressions import Identity, MatAdd, MatMul, MatPow, MatrixSymbol, Transpose, ZeroMatrix

from ..families import Family
from ..language.spec import GroupElement, Setup
from ..numerics.backend import ARB, to_float
from ..numerics.balls import Bound, arb_precision, box_text, upper
from ..numerics.matexpr import Env, Undefined, evaluate

#: activations the unit-pairing bound accepts: odd (so flipping a unit's sign is a symmetry of the
#: network), mapped to (Lipschitz constant, sup |activation|)
ODD_ACTIVATIONS: dict[str, tuple[int, int]] = {"tanh": (1, 1)}


@dataclass(frozen=True)
class _Rows:
    """Per-output ball bounds of sup_x |g(x)| and the pairing that produced them."""

    bounds: list[flint.arb]
    pairs: int
    unpaired: int


def exact_balls(values: Any) -> np.ndarray:
    """Object array of arb balls that contain the given numbers exactly (``ARB.asarray``: an mpf from
    its binary mantissa and exponent, decimal strings and floats through flint, balls unchanged)."""
    return ARB.asarray(values)


def affine_degree(expr: sp.Basic, names: set[str]) -> int | None:
    """1 if expr is affine in the matrix symbols ``names`` (token maps, states) and involves them, 0 if
    it does not involve them, None if it is not affine in them or has a node that ball evaluation would
    round."""
    if isinstance(expr, MatrixSymbol):
        return int(expr.name in names)
    if isinstance(expr, (sp.Symbol, Identity, ZeroMatrix, sp.Integer)):
        return 0
    if isinstance(expr, MatMul):
        scalar, mats = expr.as_coeff_matrices()
        degs = [affine_degree(f, names) for f in mats]
        if not sp.sympify(scalar, strict=True).is_Rational or None in degs or sum(degs) > 1:
            return None
        return sum(degs)
    if isinstance(expr, MatAdd):
        degs = [affine_degree(a, names) for a in expr.args]
        return None if None in degs else max(degs)
    if isinstance(expr, Transpose):
        return affine_degree(expr.arg, names)
    if isinstance(expr, MatPow):  # also Inverse: affine only when the base is free of the token maps
        exponent_ok = isinstance(expr.exp, (sp.Symbol, sp.Integer))
        return 0 if exponent_ok and affine_degree(expr.base, names) == 0 else None
    if isinstance(expr, sp.Add) and all(isinstance(a, (sp.Symbol, sp.Integer)) for a in expr.args):
        return 0
    return None


def linear_action(side: sp.Basic, names: tuple[str, str], sizes: tuple[int, int],
                  env: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(P, Q, c) with ``side = P psi + Q phi + c`` (output entries flattened) for a side affine in the
    column symbols ``names`` = (psi, phi) of ``sizes`` rows (token maps, states), read off by evaluating
    the side at psi = e_i, phi = 0; psi = 0, phi = e_j; and psi = phi = 0, in one batch of balls."""
    kh, kf = sizes
    batch = kh + kf + 1
    psi = np.full((batch, kh, 1), flint.arb(0), dtype=object)
    phi = np.full((batch, kf, 1), flint.arb(0), dtype=object)
    for i in range(kh):
        psi[i, i, 0] = flint.arb(1)
    for j in range(kf):
        phi[kh + j, j, 0] = flint.arb(1)
    out = np.asarray(evaluate(side, {**env, names[0]: psi, names[1]: phi}), dtype=object)
    flat = np.broadcast_to(out, (batch,) + out.shape[-2:]).reshape(batch, -1)
    c = flat[-1]
    return (flat[:kh] - c).T, (flat[kh:kh + kf] - c).T, c


def _linear_sup(d: np.ndarray, e: flint.arb, lo: np.ndarray, hi: np.ndarray) -> flint.arb:
    """Ball enclosing sup over the box [lo, hi] of |d.x + e|: the extremes of a linear function on a
    box take each coordinate at an end."""
    top = e + sum(((di * a).max(di * b) for di, a, b in zip(d, lo, hi)), flint.arb(0))
    bottom = e + sum(((di * a).min(di * b) for di, a, b in zip(d, lo, hi)), flint.arb(0))
    return abs(top).max(abs(bottom))


def _linear_sup_f(d: np.ndarray, e: float, lo: np.ndarray, hi: np.ndarray) -> float:
    """float64 version of :func:`_linear_sup`, for choosing the pairing."""
    return float(max(abs(e + np.maximum(d * lo, d * hi).sum()), abs(e + np.minimum(d * lo, d * hi).sum())))


def _pairing(Ch: np.ndarray, ph: Mapping[str, Any], Ct: np.ndarray, pf: Mapping[str, Any],
             lo: np.ndarray, hi: np.ndarray, lip: float, sup: float
             ) -> tuple[list[tuple[int, int, int]], list[int], list[int]]:
    """Matching of learned to true hidden units, with a sign per pair and leaving units unpaired
    where that is cheaper. It is an assignment on float64 estimates of each unit's share of the bound,
    padded so that every unit may stay alone. Returns (pairs (u, v, sign), unpaired learned,
    unpaired true)."""
    ch, ct = to_float(Ch), to_float(Ct)
    wh, bh = to_float(ph["in_weights"]), to_float(ph["in_bias"])
    wt, bt = to_float(pf["in_weights"]), to_float(pf["in_bias"])
    nh, nt = ch.shape[1], ct.shape[1]
    cost = np.full((nh + nt, nt + nh), np.inf)
    cost[nh:, nt:] = 0.0
    signs = np.ones((nh, nt), dtype=int)
    for u in range(nh):
        cost[u, nt + u] = sup * np.abs(ch[:, u]).sum()
        for v in range(nt):
            options = []
            for s in (1, -1):
                gap = _linear_sup_f(s * wh[u] - wt[v], s * bh[u] - bt[v], lo, hi)
                options.append((sup * np.abs(s * ch[:, u] + ct[:, v]).sum()
                                + lip * gap * np.minimum(np.abs(ch[:, u]), np.abs(ct[:, v])).sum(), s))
            cost[u, v], signs[u, v] = min(options)
    for v in range(nt):
        cost[nh + v, v] = sup * np.abs(ct[:, v]).sum()
    rows, cols = linear_sum_assignment(cost)
    pairs = [(int(u), int(v), int(signs[u, v])) for u, v in zip(rows, cols) if u < nh and v < nt]
    alone_h = [int(u) for u, v in zip(rows, cols) if u < nh and v >= nt]
    alone_t = [int(v) for u, v in zip(rows, cols) if u >= nh and v < nt]
    return pairs, alone_h, alone_t


def _rows_bound(P: np.ndarray, Q: np.ndarray, c: np.ndarray, ph: Mapping[str, Any],
                pf: Mapping[str, Any], lo: np.ndarray, hi: np.ndarray) -> _Rows:
    """Ball upper bounds, per output entry r, of sup over the box of |g_r(x)| for
    ``g = P psi_h + Q phi_f + c`` with psi_h, phi_f given by their unit parts (balls)."""
    lip, sup = ODD_ACTIVATIONS[ph["activation"]]
    Ch, Ct = P @ ph["out_weights"], Q @ pf["out_weights"]
    const = c + P @ ph["out_bias"] + Q @ pf["out_bias"]
    lo_f, hi_f = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    pairs, alone_h, alone_t = _pairing(Ch, ph, Ct, pf, lo_f, hi_f, lip, sup)
    lo_b, hi_b = exact_balls(lo_f), exact_balls(hi_f)
    rows = [abs(v) for v in const]
    for u, v, s in pairs:
        gap = _linear_sup(s * ph["in_weights"][u] - pf["in_weights"][v],
                          s * ph["in_bias"][u] - pf["in_bias"][v], lo_b, hi_b)
        for r in range(len(rows)):
            rows[r] += (abs(s * Ch[r, u] + Ct[r, v]) * sup
                        + abs(Ch[r, u]).min(abs(Ct[r, v])) * lip * gap)
    for r in range(len(rows)):
        rows[r] += sum((abs(Ch[r, u]) * sup for u in alone_h), flint.arb(0))
        rows[r] += sum((abs(Ct[r, v]) * sup for v in alone_t), flint.arb(0))
    return _Rows(rows, len(pairs), len(alone_h) + len(alone_t))


def _unit_parts(learned: Family, ball_h: np.ndarray, true: Family, ball_f: np.ndarray,
                lo: np.ndarray) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Both families' unit parts at parameters given as balls, or None when a family has no
    accessor, the activations differ or are not odd and Lipschitz, or the token dimensions do not
    match the box."""
    if not (hasattr(learned, "unit_parts") and hasattr(true, "unit_parts")):
        return None
    ph, pf = learned.unit_parts(ball_h), true.unit_parts(ball_f)
    if ph["activation"] != pf["activation"] or ph["activation"] not in ODD_ACTIVATIONS:
        return None
    if not ph["in_weights"].shape[1] == pf["in_weights"].shape[1] == len(lo):
        return None
    return ph, pf


def _ball_env(setup: Setup, learned: Family, ball_h: np.ndarray, true: Family, ball_f: np.ndarray,
              env: Env, groups: Sequence[GroupElement]) -> dict[str, Any]:
    """The relation's parameter-level symbols in exact balls. Learned and true symbols are rebuilt
    from the families at the ball parameters: the true ones from their exact decimals, not from env's
    rounded mpf. Other
    symbols are taken from env (e.g. a group element solved by least squares, proved for exactly
    that value). Group elements with a definition are re-evaluated in balls."""
    out: dict[str, Any] = {}
    for name, val in env.items():
        if isinstance(val, np.ndarray):
            out[name] = exact_balls(val)
        elif isinstance(val, mp.mpf):
            out[name] = ARB.convert(val)
        else:
            out[name] = val
    for fam, ball, symbols in ((learned, ball_h, setup.learned_symbols), (true, ball_f, setup.true_symbols)):
        for key, val in fam.relation_symbols(ball, ARB).items():
            if key in symbols:
                out[symbols[key].name] = val
    for g in groups:
        if g.definition is not None:
            out[g.symbol.name] = evaluate(g.definition, out)
    return out


def token_relation_bound(lhs: sp.Basic, rhs: sp.Basic, setup: Setup, learned: Family,
                         theta_h: np.ndarray, true: Family, theta_f: np.ndarray, env: Env,
                         lo: np.ndarray, hi: np.ndarray, dps: int,
                         groups: Sequence[GroupElement] = ()) -> Bound | None:
    """Rigorous upper bound of sup over every token x in the box [lo, hi] of max_entries
    |lhs(x) - rhs(x)|. lhs and rhs are affine in the token maps ``setup.token_symbols`` (psi of the
    learned model at ``theta_h``, phi of the true model at ``theta_f``, the exact decimals), with
    parameter-level matrices around them.

    Those matrices are rebuilt in balls: learned and true symbols from the families, defined
    ``groups`` from their definitions, the rest (solved group elements) from ``env`` at their exact
    values. Returns None when either family has no ``unit_parts``, the activation is not odd and
    Lipschitz, a side is not affine in the token maps, or the relation cannot be evaluated in balls
    (e.g. an inverse that is not provably invertible)."""
    if setup.token_symbols is None:
        return None
    names = (setup.token_symbols[0].name, setup.token_symbols[1].name)
    if affine_degree(lhs, set(names)) is None or affine_degree(rhs, set(names)) is None:
        return None
    domain = f"every token x in {box_text(lo, hi)}"
    with arb_precision(dps):
        ball_h, ball_f = exact_balls(theta_h), exact_balls(theta_f)
        parts = _unit_parts(learned, ball_h, true, ball_f, lo)
        if parts is None:
            return None
        ph, pf = parts
        sizes = (ph["out_weights"].shape[0], pf["out_weights"].shape[0])
        try:
            benv = _ball_env(setup, learned, ball_h, true, ball_f, env, groups)
            (Pl, Ql, cl), (Pr, Qr, cr) = (linear_action(s, names, sizes, benv) for s in (lhs, rhs))
        except (Undefined, ZeroDivisionError, TypeError, ValueError, KeyError):
            return None
        if Pl.shape != Pr.shape:
            return None
        rows = _rows_bound(Pl - Pr, Ql - Qr, cl - cr, ph, pf, lo, hi)
        value = max(upper(v) for v in rows.bounds)
    if not mp.isfinite(value):
        return None
    act = ph["activation"]
    lip, sup = ODD_ACTIVATIONS[act]
    return Bound(value, domain,
                 f"ball bound at {dps} digits over {domain}, unit by unit: {rows.pairs} hidden-unit "
                 f"pairs under permutation and sign ({act} odd, {lip}-Lipschitz, |{act}| <= {sup}), "
                 f"{rows.unpaired} unpaired")


def sum_bound(learned: Family, theta_h: np.ndarray, true: Family, theta_f: np.ndarray,
              lo: np.ndarray, hi: np.ndarray, length: int, dps: int) -> Bound | None:
    """Rigorous upper bound of sup |logit_h - logit_f| over every sequence of length t <= ``length``
    with tokens in the box [lo, hi], for families with ``logit = A sum_j psi(x_j) (+ a)``. Per output,
    ``|logit_h - logit_f| <= t sup_x |A_h psi(x) - A_f phi(x)| + |a_h - a_f|``, which is largest at
    t = ``length``. None when either family has no ``unit_parts``, the activation is not odd and
    Lipschitz, or the outputs differ in number."""
    domain = f"every sequence of length <= {length} with tokens in {box_text(lo, hi)}"
    with arb_precision(dps):
        parts = _unit_parts(learned, exact_balls(theta_h), true, exact_balls(theta_f), lo)
        if parts is None:
            return None
        ph, pf = parts
        Ah, Af = ph["readout"], pf["readout"]
        if Ah.shape[0] != Af.shape[0]:
            return None
        rows = _rows_bound(Ah, -Af, np.full(Ah.shape[0], flint.arb(0), dtype=object), ph, pf, lo, hi)
        zero = np.full(Ah.shape[0], flint.arb(0), dtype=object)
        ah = zero if ph["readout_bias"] is None else ph["readout_bias"]
        af = zero if pf["readout_bias"] is None else pf["readout_bias"]
        value = max(upper(int(length) * b + abs(ah[r] - af[r])) for r, b in enumerate(rows.bounds))
    if not mp.isfinite(value):
        return None
    return Bound(value, domain,
                 f"ball bound at {dps} digits: t sup_x |A_h psi(x) - A_f phi(x)| + |a_h - a_f| at "
                 f"t = {length}, the token sup bounded unit by unit ({rows.pairs} hidden-unit pairs "
                 f"under permutation and sign, {rows.unpaired} unpaired)")
