"""Weights-only analyses of a compiled Limit Transformer, for the finite proxies of
:mod:`proofkit.crasp.theory.limits`: each function reads a
:class:`~proofkit.crasp.compilation.network.Network`'s weights only (never its program): regularizer
components, the (8)-type locality term, the positional period and the locality radius.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..compilation.network import Head, Layer, Mat, Network


def _mats(net: Network) -> Iterable[tuple[str, Mat]]:
    """Every parameter matrix with a label."""
    for li, lay in enumerate(net.layers):
        for hi, h in enumerate(lay.heads):
            yield f"L{li}H{hi}.K", h.K
            yield f"L{li}H{hi}.Q", h.Q
            yield f"L{li}H{hi}.V", h.V
        if lay.mlp is not None:
            yield f"L{li}.A", lay.mlp.A
            yield f"L{li}.B", lay.mlp.B
    yield "U", net.U


def _vectors(net: Network) -> Iterable[dict[int, Fraction]]:
    """Every parameter vector: embeddings, positional block, MLP biases."""
    yield from net.E
    yield from net.pos
    for lay in net.layers:
        if lay.mlp is not None:
            yield dict(enumerate(lay.mlp.b))


def exact_rank(m: Mat) -> int:
    """Rank over the rationals (Gaussian elimination on the sparse rows)."""
    rows = [dict(items) for _, items in m.row_items()]
    rank = 0
    while rows:
        pivot_row = rows.pop()
        if not pivot_row:
            continue
        col, val = next(iter(sorted(pivot_row.items())))
        rank += 1
        new = []
        for r in rows:
            if col in r:
                f = r[col] / val
                r = dict(r)
                for c, v in pivot_row.items():
                    x = r.get(c, Fraction(0)) - f * v
                    if x:
                        r[c] = x
                    else:
                        r.pop(c, None)
            if r:
                new.append(r)
        rows = new
    return rank


def phi_table(net: Network) -> list[dict[int, Fraction]]:
    """The positional logit term phi of every head (offset k - j -> value), nonzero entries only."""
    return [{c: v for c, v in h.phi.items() if v} for lay in net.layers for h in lay.heads]


def locality_term(net: Network, N: int) -> Fraction:
    """The Limit-Transformer analogue of the (8) penalty at context N: sum over heads and offsets
    c = 0..N-1 of phi(c)^2. Under Lemma 47's realization phi(j - 1) = p_1^T K^T Q p_j (Region II, one-hot
    positions), this is exactly (8) = sum_{l,h} sum_{j=1}^{N} (p_1^T K^T Q p_j)^2 (the square in (8) is
    reconstructed)."""
    return sum((v * v for ph in phi_table(net) for c, v in ph.items() if 0 <= c <= N - 1), Fraction(0))


def regularizer_components(net: Network) -> dict[str, Fraction | int]:
    """R_minus proxy components read from the weights (our reconstructed reading of Def. 5; not the paper's
    exact R): layers, max heads per layer, max rank V, max squared Frobenius norm of any parameter
    matrix or vector (the Frobenius norm bounds the spectral norm), max_h sum_c |phi_h(c)| (the spectral
    norm bound of Lemma 47's banded Region-II product; blind to WHERE phi is nonzero), precision bits
    (ceil log2 of the largest weight denominator)."""
    frob = [sum((v * v for v in m.entries.values()), Fraction(0)) for _, m in _mats(net)]
    frob += [sum((v * v for v in vec.values()), Fraction(0)) for vec in _vectors(net)]
    denoms = [Fraction(v).denominator for _, m in _mats(net) for v in m.entries.values()]
    denoms += [Fraction(v).denominator for vec in _vectors(net) for v in vec.values()]
    denoms += [Fraction(v).denominator for ph in phi_table(net) for v in ph.values()]
    ranks = [exact_rank(h.V) for lay in net.layers for h in lay.heads]
    return {
        "layers": len(net.layers),
        "heads": max((len(lay.heads) for lay in net.layers), default=0),
        "rank_V": max(ranks, default=0),
        "frobenius_sq": max(frob, default=Fraction(0)),
        "phi_abs_sum": max((sum((abs(v) for v in ph.values()), Fraction(0)) for ph in phi_table(net)),
                           default=Fraction(0)),
        "precision_bits": max((math.ceil(math.log2(d)) for d in denoms), default=0),
    }


def regularizer(net: Network, N: int) -> tuple[float, float]:
    """(R_minus proxy, R proxy) at context N: R_minus = layers + heads + rank_V + sqrt(frobenius_sq) +
    phi_abs_sum + precision_bits; R = R_minus + locality_term(net, N)."""
    c = regularizer_components(net)
    r_minus = (c["layers"] + c["heads"] + c["rank_V"] + math.sqrt(c["frobenius_sq"]) + float(c["phi_abs_sum"])
               + c["precision_bits"])
    return r_minus, r_minus + float(locality_term(net, N))


def move_phi(net: Network, old: int, new: int) -> Network:
    """A copy of the network whose phi entries at offset ``old`` are moved to offset ``new`` (weights-only
    surgery: every other parameter is shared)."""
    layers = []
    for lay in net.layers:
        heads = []
        for h in lay.heads:
            phi = dict(h.phi)
            if old in phi:
                phi[new] = phi.get(new, Fraction(0)) + phi.pop(old)
            heads.append(Head(h.K, h.Q, h.V, phi))
        layers.append(Layer(heads, lay.mlp))
    return replace(net, layers=layers)


def max_abs_weight(net: Network) -> Fraction:
    """Largest |entry| of any parameter (matrices, vectors, phi values)."""
    vals = [abs(v) for _, m in _mats(net) for v in m.entries.values()]
    vals += [abs(v) for vec in _vectors(net) for v in vec.values()]
    vals += [abs(v) for ph in phi_table(net) for v in ph.values()]
    return max(vals, default=Fraction(0))


def minimal_period(seq: Sequence[Any]) -> int:
    """Smallest P >= 1 dividing len(seq) with seq[i] == seq[(i + P) % len(seq)] for all i (cyclic)."""
    n = len(seq)
    if n == 0:
        return 1
    for P in range(1, n + 1):
        if n % P == 0 and all(seq[i] == seq[(i + P) % n] for i in range(n)):
            return P
    return n


def _readers(net: Network) -> list[dict[int, Fraction]]:
    """Every row of every matrix that reads the residual stream (K, Q, V, A, U): linear functionals."""
    out = []
    for label, m in _mats(net):
        if not label.endswith(".B"):
            out += [dict(items) for _, items in m.row_items()]
    return out


def extract_period(net: Network) -> dict[str, int]:
    """From the weights only: the minimal period of i -> p_i (stored cyclically), and the lcm over every
    stream-reading row r of the minimal period of the one-PE product i -> r . p_i."""
    block = [tuple(sorted((k, v) for k, v in p.items() if v)) for p in net.pos] or [()]
    prods = 1
    for r in _readers(net):
        vals = [sum((w * p.get(c, Fraction(0)) for c, w in r.items()), Fraction(0)) for p in net.pos]
        if vals:
            prods = math.lcm(prods, minimal_period(vals))
    return {"block": minimal_period(block), "products": prods}


def extract_locality(net: Network) -> dict[str, Any]:
    """From the weights only: the support of every head's phi and the locality radius max{c : phi(c) != 0}
    (0 when no head has a positional term); phi is stored as a function of k - j, so it is
    translation-invariant by representation."""
    support = sorted({c for ph in phi_table(net) for c in ph})
    return {"support": support, "radius": max(support, default=0)}


def offset_mismatch(net: Network, reference: Callable[[tuple[str, ...]], Sequence[bool]], max_len: int,
                    offsets: Iterable[int]) -> tuple[int, Any] | None:
    """First (offset, Mismatch) at which the network's verdicts on Sigma^{<=max_len} differ from the
    reference (every prefix), or None for every offset."""
    from ..compilation.checking import check_against

    for o in offsets:
        m = check_against(net, reference, max_len, "exact", o)
        if m is not None:
            return o, m
    return None
