"""Certification with python-flint ball arithmetic (and exact sympy arithmetic where parameters are
rational). Every routine takes its precision explicitly and restores flint's context afterwards."""

from __future__ import annotations

from typing import Any

import flint
import mpmath as mp
import numpy as np
import sympy as sp

from ..families import Family
from ..numerics.backend import ARB, SYM
from ..numerics.balls import arb_precision, lower, to_arb, upper
from ..numerics.matexpr import Env, evaluate

#: a transition whose spectral radius (float64 estimate) is at least this gets no geometric tail bound
STABLE_RADIUS = 0.999
#: most Markov parameters summed explicitly by the all-length bound before its geometric tails
MAX_MARKOV_TERMS = 4000


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
    # guard digits: in a badly conditioned state basis rounding errors grow like |Lam|^length
    with arb_precision(dps + power_guard_digits(((fam_h, th_h), (fam_f, th_f)), length)):
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
    from ..numerics.activation import apply

    with arb_precision(dps):
        Xa = ARB.asarray(X)
        zh, zf = fam_h.logits(to_arb(th_h), Xa, ARB), fam_f.logits(to_arb(th_f), Xa, ARB)
        if activation is not None:
            zh, zf = apply(activation, zh, ARB), apply(activation, zf, ARB)
        return max(lower(v) for v in np.ravel(zh - zf))


def markov_all_lengths_bound(fam_h: Family, th_h: np.ndarray, fam_f: Family, th_f: np.ndarray,
                             token_bound: Any, dps: int, max_terms: int = MAX_MARKOV_TERMS
                             ) -> tuple[mp.mpf, int] | None:
    """Ball upper bound of sup |logit_h - logit_f| over EVERY length t >= 1 and every sequence whose
    token coordinates obey |x_c| <= token_bound[c], for families linear in their inputs.

    sum_{j<J} |M_j^h - M_j^f| b bounds the first J terms; the tails sum_{j>=J} |A Lam^j B| b of each
    model are bounded with a power p at which ||Lam^p||_inf = q < 1: every term with j = J + r + i p is at
    most ||A Lam^(J+r)||_inf q^i ||B||_inf max(b), so the tail is at most
    sum_{r<p} ||A Lam^(J+r)|| ||B|| max(b) / (1 - q). J doubles until the tails are below 1% of the
    total. Returns (bound, J), or None when no such p exists: a mode of modulus >= STABLE_RADIUS, or no
    power p <= 64 of a transition with ||Lam^p||_inf < 1."""
    if not (hasattr(fam_h, "markov") and hasattr(fam_f, "markov")):
        return None
    if not all(spectral_radius(fam, th) < STABLE_RADIUS for fam, th in ((fam_h, th_h), (fam_f, th_f))):
        return None
    b = [flint.arb(repr(float(v))) for v in np.broadcast_to(token_bound, (fam_h.n,))]
    bmax = max(float(v) for v in np.broadcast_to(token_bound, (fam_h.n,)))
    J = 64
    while J <= max_terms:
        # guard digits against cancellation in a badly conditioned state basis: |Lam|^J growth
        with arb_precision(dps + power_guard_digits(((fam_h, th_h), (fam_f, th_f)), J)):
            head = _head_sum(fam_h, th_h, fam_f, th_f, J, b)
            tails = [_tail(fam, th, J, flint.arb(repr(bmax))) for fam, th in ((fam_h, th_h), (fam_f, th_f))]
            if all(t is not None for t in tails):
                total = head + tails[0] + tails[1]
                if upper(tails[0] + tails[1]) <= upper(total) * mp.mpf("0.01") or J * 2 > max_terms:
                    return upper(total), J
        J *= 2
    return None


def spectral_radius(fam: Family, th: np.ndarray) -> float:
    """float64 estimate of the spectral radius of the family's state transition ``Lam`` (0 for an empty
    state): it only decides whether a geometric tail bound is attempted, the bound itself is in balls."""
    if not getattr(fam, "k", 0):
        return 0.0
    Lf = np.array([[float(v) for v in row] for row in fam.unpack(th)["Lam"]])
    return float(max(abs(np.linalg.eigvals(Lf)))) if Lf.size else 0.0


def power_guard_digits(models: Any, terms: int) -> int:
    """Extra digits that keep ``terms`` powers of the transitions of ``models`` ((family, parameters)
    pairs) accurate in balls: rounding errors and the radii of rounded inputs (decimals, inverses) grow
    like |Lam|^terms in a badly conditioned state basis, i.e. terms x log10 of the largest spectral
    radius of |Lam| entrywise (at least 1), plus 10."""
    growth = max([_abs_growth(fam, th) for fam, th in models] + [1.0])
    return int(terms * np.log10(growth)) + 10


def _abs_growth(fam: Family, th: np.ndarray) -> float:
    """Spectral radius of |Lam| entrywise (how fast rounding errors grow in this basis)."""
    L = np.abs(np.array([[float(v) for v in row] for row in fam.unpack(th)["Lam"]]))
    return float(max(abs(np.linalg.eigvals(L)))) if L.size else 0.0


def _head_sum(fam_h: Family, th_h: np.ndarray, fam_f: Family, th_f: np.ndarray, J: int,
              b: list[flint.arb]) -> flint.arb:
    Mh = fam_h.markov(to_arb(th_h), J, ARB)
    Mf = fam_f.markov(to_arb(th_f), J, ARB)
    total = [flint.arb(0)] * fam_h.m
    for a, c in zip(Mh, Mf):
        D = a - c
        total = [t + sum((abs(v) * bc for v, bc in zip(row, b)), flint.arb(0)) for t, row in zip(total, D)]
    return max(total, key=lambda v: upper(v))


def _norm_inf(M: np.ndarray) -> flint.arb:
    return max((sum((abs(v) for v in row), flint.arb(0)) for row in M), key=lambda v: upper(v))


def _tail(fam: Family, th: np.ndarray, J: int, bmax: flint.arb) -> flint.arb | None:
    """Upper bound of sum_{j>=J} ||A Lam^j B||_inf bmax, or None when no power p <= 64 contracts."""
    p_ = fam.unpack(to_arb(th))
    A, Lam, B = p_["A"], p_["Lam"], p_["B"]
    P, p, q = Lam, 1, _norm_inf(Lam)
    while upper(q) >= 1 and p < 64:
        P, p = P @ Lam, p + 1
        q = _norm_inf(P)
    if upper(q) >= 1:
        return None
    AL = A
    for _ in range(J):
        AL = AL @ Lam
    total = flint.arb(0)
    for _ in range(p):
        total = total + _norm_inf(AL)
        AL = AL @ Lam
    return total * _norm_inf(B) * bmax / (1 - flint.arb(upper(q).__str__()))
