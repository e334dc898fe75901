"""The protocol's static layout for one compiled network, derived from the weights alone (used by Alice,
the bit encoding and Bob of :mod:`proofkit.crasp.communication.protocol`): visible keys, static key classes,
value intervals and the fixed-width fields of the message (the layout is in
:mod:`proofkit.crasp.communication.protocol_message`).

The static bound. When every key is static and every value coordinate integral (``Plan.compressible``; true
for every compiled C-RASP network: values are SOS-masked Booleans, e_SOS or the one-hot periodic block), the
kv-mode message has at most ``c log2(N + 1) + d`` bits for every N >= 1, with c = number of fields whose range
grows with N (counts of all but one class, value sums with a nonzero range) and d from the per-field
constants (count: 1; integral sum with range R: log2 R + 1; window: tau times the per-position width).
c <= sum over heads of (#classes)(1 + #value rows) (``Plan.heads_x_classes``). Derivation:
ceil(log2(N R + 1)) <= log2((N + 1) R) + 1 and bitlen(N) <= log2(N + 1) + 1. In kv mode a compressible
layout has fixed width: every message at (N, M) has exactly ``Plan.layout_bits(N, M)`` bits.

Interval analysis (for integrality and ranges): two tracks, the SOS position (exact point values: it only
attends to itself) and the positions >= 1 (embedding over the alphabet and every residue). An attention
output at a position >= 1 is a convex combination of values at the SOS and at positions >= 1, so it lies in
the hull of both tracks' value intervals; it is marked integral only when that hull is a single integer.
MLP units use interval arithmetic (integral iff the bias, weights and inputs are). Positions >= 1 is what
Alice aggregates over, so e.g. the u = 1/(i+1) head (value e_SOS, 0 at every position >= 1) costs 0 bits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..compilation.forward import dot
from ..compilation.network import Head, Layer, Mat, Network

Vec = tuple[Fraction, ...]
Row = tuple[tuple[int, Fraction], ...]


# ----------------------------------------------------------------------------------------------------------
# Small helpers
# ----------------------------------------------------------------------------------------------------------

def _ceil_log2(n: int) -> int:
    """Bits for a fixed-width field with n >= 1 possible values."""
    if n < 1:
        raise ValueError("a field needs at least one value")
    return (n - 1).bit_length()


def _n(v: Any) -> int | Fraction:
    """Exact number as int when integral (fast path, as in network.py) else Fraction."""
    v = Fraction(v)
    return v.numerator if v.denominator == 1 else v


def _rows(m: Mat) -> list[Row]:
    """Every row of a sparse matrix (empty rows included) as sparse (col, value) tuples."""
    items = dict(m.row_items())
    return [tuple((c, _n(v)) for c, v in items.get(r, [])) for r in range(m.rows)]


def _embed(net: Network, token: int, residue: int) -> list[Fraction]:
    """E[token] + p_residue as a dense exact vector."""
    y: list[Any] = [0] * net.d
    for i, v in net.E[token].items():
        y[i] = _n(y[i] + v)
    if net.pos:
        for i, v in net.pos[residue].items():
            y[i] = _n(y[i] + v)
    return y


@dataclass(frozen=True)
class _MLPUnit:
    bias: Fraction
    row: Row
    heaviside: bool
    outs: Row


def _mlp_units(layer: Layer) -> list[_MLPUnit]:
    """The layer's MLP as hidden units (bias, input row, activation, output column)."""
    if layer.mlp is None:
        return []
    mlp = layer.mlp
    outs: list[list[tuple[int, Fraction]]] = [[] for _ in range(mlp.A.rows)]
    for (r, u), v in sorted(mlp.B.entries.items()):
        outs[u].append((r, _n(v)))
    return [_MLPUnit(_n(mlp.b[u]), row, mlp.act[u] == "heaviside", tuple(outs[u]))
            for u, row in enumerate(_rows(mlp.A))]


def _apply_mlp(units: list[_MLPUnit], y: list[Fraction]) -> list[Fraction]:
    """y + B act(A y + b), exactly (H(z) = 1 iff z >= 0)."""
    out = list(y)
    for unit in units:
        z = unit.bias + dot(unit.row, y)
        a = (1 if z >= 0 else 0) if unit.heaviside else (z if z > 0 else 0)
        if a:
            for r, w in unit.outs:
                out[r] += w * a
    return out


# ----------------------------------------------------------------------------------------------------------
# Static analysis: visible keys, static key classes, value intervals
# ----------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Iv:
    """Interval [lo, hi] of a stream coordinate with an 'always an integer' flag."""

    lo: Fraction
    hi: Fraction
    integral: bool

    def scale(self, w: Fraction) -> _Iv:
        a, b = self.lo * w, self.hi * w
        return _Iv(min(a, b), max(a, b), self.integral and w.denominator == 1)

    def __add__(self, other: _Iv) -> _Iv:
        return _Iv(self.lo + other.lo, self.hi + other.hi, self.integral and other.integral)

    def hull(self, other: _Iv) -> _Iv:
        lo, hi = min(self.lo, other.lo), max(self.hi, other.hi)
        return _Iv(lo, hi, lo == hi and lo.denominator == 1)


def _point(v: Fraction) -> _Iv:
    return _Iv(v, v, v.denominator == 1)


def _row_iv(row: Row, ivs: list[_Iv], bias: Fraction = Fraction(0)) -> _Iv:
    acc = _point(Fraction(bias))
    for c, w in row:
        acc = acc + ivs[c].scale(w)
    return acc


def _mlp_iv(units: list[_MLPUnit], ivs: list[_Iv]) -> list[_Iv]:
    out = list(ivs)
    for unit in units:
        z = _row_iv(unit.row, ivs, unit.bias)
        if unit.heaviside:
            a = _Iv(Fraction(1 if z.lo >= 0 else 0), Fraction(1 if z.hi >= 0 else 0), True)
        else:
            a = _Iv(max(z.lo, Fraction(0)), max(z.hi, Fraction(0)), z.integral)
        for r, w in unit.outs:
            out[r] = out[r] + a.scale(w)
    return out


@dataclass(frozen=True)
class HeadPlan:
    """What the protocol needs to know about one head, derived from the weights alone.

    key_rows / query_rows: the visible K and Q rows (Q row nonzero); value_rows: (stream row, V row);
    phi: nonzero positional terms {k - j: value}; classes: the static key classes (distinct visible keys over
    all (symbol, residue) pairs), or None when a key reads a dim that attention has written; value_ranges:
    per value row, the integer range [lo, hi] of its value at positions >= 1, or None when not integral.
    """

    layer: int
    head: int
    key_rows: tuple[Row, ...]
    query_rows: tuple[Row, ...]
    value_rows: tuple[tuple[int, Row], ...]
    phi: tuple[tuple[int, Fraction], ...]
    classes: tuple[Vec, ...] | None
    value_ranges: tuple[tuple[int, int] | None, ...]

    @property
    def tau(self) -> int:
        """Largest positive offset of phi (the window is at most Alice's last tau positions)."""
        return max((c for c, _ in self.phi if c > 0), default=0)

    def window(self, N: int, M: int) -> tuple[int, ...]:
        """Alice positions j in 1..N with k - j in supp(phi) for some Bob position k in N+1..N+M."""
        js: set[int] = set()
        for c, _ in self.phi:   # N + 1 <= j + c <= N + M and 1 <= j <= N: at most c positions
            js.update(range(max(1, N + 1 - c), min(N, N + M - c) + 1))
        return tuple(sorted(js))

    def key(self, y: Sequence[Any]) -> Vec:
        return tuple(_n(dot(r, y)) for r in self.key_rows)

    def query(self, y: Sequence[Any]) -> Vec:
        return tuple(dot(r, y) for r in self.query_rows)

    def value(self, y: Sequence[Any]) -> Vec:
        return tuple(_n(dot(r, y)) for _, r in self.value_rows)

    def logit(self, key: Vec, query: Vec, distance: int | None = None) -> Fraction:
        """(K y_j).(Q y_k) + phi(k - j); distance None = outside the window (phi = 0 there)."""
        content = sum((a * b for a, b in zip(key, query)), 0)
        return content if distance is None else content + dict(self.phi).get(distance, 0)


@dataclass(frozen=True)
class Plan:
    """The protocol's static layout for one network (see the module docstring)."""

    heads: tuple[HeadPlan, ...]
    reasons: tuple[str, ...]

    @property
    def compressible(self) -> bool:
        """Every key static and every value coordinate integral: the kv message is O(log N) bits."""
        return not self.reasons

    @property
    def heads_x_classes(self) -> int:
        """sum over heads of #classes x (1 + #value rows): an upper bound on the log coefficient c."""
        if not self.compressible:
            raise ValueError("no static key classes: " + "; ".join(self.reasons))
        return sum(len(h.classes or ()) * (1 + len(h.value_rows)) for h in self.heads)

    def log_bound(self) -> tuple[int, float]:
        """(c, d) with kv-mode message bits <= c log2(N + 1) + d for every N >= 1 (M >= 1 arbitrary)."""
        if not self.compressible:
            raise ValueError("no static key classes or non-integral values: " + "; ".join(self.reasons))
        c, d = 0, 0.0
        for h in self.heads:
            assert h.classes is not None
            n_cls = len(h.classes)
            if n_cls >= 2:
                c += n_cls - 1
                d += n_cls - 1
            per_pos = _ceil_log2(max(n_cls, 1))
            for rng in h.value_ranges:
                assert rng is not None
                lo, hi = rng
                r = max(hi, 0) - min(lo, 0)
                if r:
                    c += n_cls
                    d += n_cls * (math.log2(r) + 1)
                per_pos += _ceil_log2(hi - lo + 1)
            d += h.tau * per_pos
        return c, d

    def layout_bits(self, N: int, M: int | None = None) -> int:
        """Exact kv-mode message length at split (N, M) (M = N by default) for a compressible plan."""
        if not self.compressible:
            raise ValueError("variable-length layout: " + "; ".join(self.reasons))
        M = N if M is None else M
        bits = 0
        for h in self.heads:
            assert h.classes is not None
            n_cls = len(h.classes)
            if n_cls >= 2:
                bits += (n_cls - 1) * _ceil_log2(N + 1)
            sums = 0
            for rng in h.value_ranges:
                assert rng is not None
                lo, hi = _sum_range(rng, N)
                sums += _ceil_log2(hi - lo + 1)
            per_pos = _ceil_log2(max(n_cls, 1)) + sum(_width(r) for r in h.value_ranges if r is not None)
            bits += n_cls * sums + len(h.window(N, M)) * per_pos
        return bits

    def bound(self, N: int) -> float:
        c, d = self.log_bound()
        return c * math.log2(N + 1) + d


def _static_keys(net: Network, layer_heads: list[list[tuple[Row, ...]]]) -> list[list[set[Vec] | None]]:
    """Per layer and head, the set of visible keys over every (symbol, residue) pair, or None when a key row
    reads a dim that is not a function of (symbol, residue) at that layer."""
    delta = max(net.period, 1)
    states = [{i: v for i, v in enumerate(_embed(net, t, r))}
              for t in range(len(net.alphabet)) for r in range(delta)]
    out: list[list[set[Vec] | None]] = []
    for li, layer in enumerate(net.layers):
        per_head: list[set[Vec] | None] = []
        for key_rows in layer_heads[li]:
            keys: set[Vec] | None = set()
            for s in states:
                if any(c not in s for row in key_rows for c, _ in row):
                    keys = None
                    break
                keys.add(tuple(dot(row, s) for row in key_rows))
            per_head.append(keys)
        out.append(per_head)
        written = {r for h in layer.heads for (r, _c) in h.V.entries}
        units = _mlp_units(layer)
        for s in states:
            for r in written:
                s.pop(r, None)
            add: dict[int, Fraction] = {}
            lost: set[int] = set()
            for unit in units:
                if all(c in s for c, _ in unit.row):
                    z = unit.bias + dot(unit.row, s)
                    a = (1 if z >= 0 else 0) if unit.heaviside else max(z, Fraction(0))
                    for r, w in unit.outs:
                        add[r] = add.get(r, Fraction(0)) + w * a
                else:
                    lost.update(r for r, _ in unit.outs)
            for r in lost:
                s.pop(r, None)
            for r, v in add.items():
                if r in s:
                    s[r] += v
    return out


def _value_intervals(net: Network) -> list[list[_Iv]]:
    """Per layer, the intervals of every stream dim at positions >= 1 at the layer's input."""
    delta = max(net.period, 1)
    sos = _embed(net, net.sos, net.offset % delta)
    embs = [_embed(net, t, r) for t in range(len(net.alphabet)) for r in range(delta)]
    ivs = [_Iv(min(col), max(col), all(v.denominator == 1 for v in col)) for col in zip(*embs)]
    out = []
    for layer in net.layers:
        out.append(list(ivs))
        sos_ivs = [_point(v) for v in sos]
        new = list(ivs)
        for h in layer.heads:
            for r, row in _rows_of_v(h):
                contrib = _row_iv(row, ivs).hull(_row_iv(row, sos_ivs))
                new[r] = new[r] + contrib
        units = _mlp_units(layer)
        ivs = _mlp_iv(units, new)
        sos = _apply_mlp(units, _sos_attend(layer, sos))
    return out


def _rows_of_v(h: Head) -> list[tuple[int, Row]]:
    return [(r, tuple(items)) for r, items in h.V.row_items()]


def _sos_attend(layer: Layer, y: list[Fraction]) -> list[Fraction]:
    """Attention sublayer at the SOS: every head attends only to position 0, so it adds its own value."""
    new = list(y)
    for h in layer.heads:
        for r, row in _rows_of_v(h):
            new[r] += dot(row, y)
    return new


def analyze(net: Network) -> Plan:
    """Derive the protocol layout from the weights: visible keys, static key classes, value ranges."""
    layer_heads: list[list[tuple[Row, ...]]] = []
    query_rows: list[list[tuple[Row, ...]]] = []
    for layer in net.layers:
        ks, qs = [], []
        for h in layer.heads:
            krows, qrows = _rows(h.K), _rows(h.Q)
            vis = [i for i, q in enumerate(qrows) if q]
            ks.append(tuple(krows[i] for i in vis))
            qs.append(tuple(qrows[i] for i in vis))
        layer_heads.append(ks)
        query_rows.append(qs)
    keys = _static_keys(net, layer_heads)
    ivs = _value_intervals(net)
    heads, reasons = [], []
    for li, layer in enumerate(net.layers):
        for hi, h in enumerate(layer.heads):
            vrows = tuple(_rows_of_v(h))
            ranges: list[tuple[int, int] | None] = []
            for r, row in vrows:
                iv = _row_iv(row, ivs[li])
                if iv.integral:
                    ranges.append((math.ceil(iv.lo), math.floor(iv.hi)))
                else:
                    ranges.append(None)
                    reasons.append(f"layer {li} head {hi}: value row {net.dims[r]!r} is not integral "
                                   "(class sums are not integers)")
            kset = keys[li][hi]
            if kset is None:
                reasons.append(f"layer {li} head {hi}: key reads a dim written by attention "
                               "(no static classes)")
            phi = tuple(sorted((c, Fraction(v)) for c, v in h.phi.items() if v))
            heads.append(HeadPlan(li, hi, layer_heads[li][hi], query_rows[li][hi], vrows, phi,
                                  None if kset is None else tuple(sorted(kset)), tuple(ranges)))
    return Plan(tuple(heads), tuple(reasons))


# ----------------------------------------------------------------------------------------------------------
# Field widths of the message layout
# ----------------------------------------------------------------------------------------------------------

def _width(rng: tuple[int, int]) -> int:
    """Bits of one integral value in [lo, hi]."""
    return _ceil_log2(rng[1] - rng[0] + 1)


def _sum_range(rng: tuple[int, int], m: int) -> tuple[int, int]:
    lo, hi = rng
    return min(0, m * lo), max(0, m * hi)
