"""One-way protocol simulation for compiled Limit Transformers (Huang et al. 2024, Thm 12 = Thm 19 and its
proof in App. B.3; the protocol claim of HYB24.T12).

A string of length n = N + M is split as x.y with Alice holding x (positions 1..N) and Bob holding y
(positions N+1..N+M); the softmax base is n + 1 (log-N scaling, network.py) and both parties know it. The
SOS (position 0) attends only to itself, so Bob computes its activations himself. Alice sends, for every
layer and head, what Bob needs to finish every softmax sum exactly:

* Key classes. The logit of key j at query k is (K y_j).(Q y_k) + phi(k - j). Only the K coordinates whose Q
  row is nonzero can matter (the "visible" key). Alice positions j with k - j in supp(phi) for some Bob k
  form the *window* W (at most tau = max offset positions: her last tau). Every other Alice position has
  logit = key_j . q_k, so Bob needs, per distinct visible key ("key class"), only the pair (count, exact
  sum of the value vectors V y_j). The key classes are derived from the weights: a key is *static* when every
  dim it reads is a function of (token, position mod Delta), which a propagation over the layers decides
  (attention writes make a dim non-static; MLP units with static inputs keep it static). The classes are
  then the distinct visible keys over all (symbol, residue) pairs.
* Window. kv mode (default): per window position its key (class index) and value vector. stream mode: its
  full residual-stream activations at that layer (a more literal, costlier reading of the message); Bob
  derives key and value himself.

Encoding (a stated, decodable bit layout that both parties know from the network, N and M):
  count of a class       counts of all classes but the last, each ceil(log2(N+1)) bits, when there are >= 2
                         static classes (with one class the count is N - |W|: nothing is sent);
  value sum, integral    each value coordinate whose per-position values are integers in [lo, hi] (interval
                         analysis over the layers, below) has a class sum in [min(0, N lo), max(0, N hi)]:
                         fixed width ceil(log2(size of that range)) bits (0 bits when the range is {0});
  window key / value     class index in ceil(log2 #classes) bits; integral value in ceil(log2(hi - lo + 1));
  anything else          an exact rational p/q as sign bit + Elias-gamma(|p| + 1) + Elias-gamma(q)
                         (non-static keys, non-integral sums, stream-mode activations).
decode_message inverts encode_message exactly, and Bob reconstructs from the decoded message.

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

Negative control (Thm 12 without the O(log N) precision hypothesis that Thm 19 adds; a model constructed
here, not in the paper): ``nope_average_network`` is the NoPE 2-layer average of running averages at exact
precision. Its layer-2 value reads an attention output, so the plan is not compressible:
the protocol still reconstructs Bob exactly (exact rational sums) but needs 2^N distinct messages.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np

from ..compilation.compiler import compile_program
from ..compilation.forward import Stepper, dot, trace
from ..compilation.network import Head, Layer, Mat, Network
from ..language.ir import Program

WINDOW_MODES = ("kv", "stream")
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


def _div(a: Any, b: Any) -> int | Fraction:
    """a / b exactly."""
    return _n(Fraction(a) / b) if not (isinstance(a, int) and isinstance(b, int)) else _n(Fraction(a, b))



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
# Messages
# ----------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HeadMessage:
    """Alice's part for one head: per key class (key, count, value sums) over her non-window positions,
    and per window position (j, key, value) [kv mode] or (j, residual stream at the layer input) [stream]."""

    layer: int
    head: int
    classes: tuple[tuple[Vec, int, Vec], ...]
    window: tuple[tuple[int, Vec, Vec], ...] = ()
    streams: tuple[tuple[int, Vec], ...] = ()


@dataclass(frozen=True)
class Message:
    """Alice's whole message (exact rationals); ``encode_message`` gives its bits."""

    N: int
    total_length: int
    mode: str
    heads: tuple[HeadMessage, ...]


def _check_split(N: int, total_length: int, mode: str) -> int:
    if N < 0 or total_length < N:
        raise ValueError(f"need 0 <= N <= total_length, got N = {N}, total_length = {total_length}")
    if mode not in WINDOW_MODES:
        raise ValueError(f"window mode must be one of {WINDOW_MODES}, not {mode!r}")
    return total_length - N


def _tokens(net: Network, symbols: Sequence[str] | str) -> list[int]:
    return net.encode(list(symbols))


def alice_message(net: Network, x_symbols: Sequence[str] | str, total_length: int, mode: str = "kv",
                  plan: Plan | None = None) -> Message:
    """Alice's message for the split x.y with |x| = N and |x.y| = total_length (softmax base total + 1).

    Alice evaluates her own positions 0..N directly (causal: they do not depend on y) and aggregates.
    """
    plan = plan or analyze(net)
    x = _tokens(net, x_symbols)
    N = len(x)
    M = _check_split(N, total_length, mode)
    st = Stepper(net, "exact", total_length + 1, record=True)
    st.push(net.sos)
    for t in x:
        st.push(t)
    return _message_from_streams(plan, st.streams, N, M, total_length, mode)


def _message_from_streams(plan: Plan, streams: list[list[list[Any]]], N: int, M: int, total_length: int,
                          mode: str) -> Message:
    """Aggregate Alice's recorded streams (streams[j][l] = input of layer l at position j)."""
    out = []
    for hp in plan.heads:
        win = hp.window(N, M)
        agg: dict[Vec, list[Any]] = {}
        if hp.classes is not None:
            for key in hp.classes:
                agg[key] = [0, [Fraction(0)] * len(hp.value_rows)]
        wset = set(win)
        for j in range(1, N + 1):
            if j in wset:
                continue
            y = streams[j][hp.layer]
            key = hp.key(y)
            if key not in agg:
                if hp.classes is not None:
                    raise AssertionError(f"key {key} outside the static classes of head {hp.layer}.{hp.head}")
                agg[key] = [0, [Fraction(0)] * len(hp.value_rows)]
            entry = agg[key]
            entry[0] += 1
            entry[1] = [s + v for s, v in zip(entry[1], hp.value(y))]
        keys = list(hp.classes) if hp.classes is not None else sorted(agg)
        classes = tuple((k, agg[k][0], tuple(Fraction(s) for s in agg[k][1])) for k in keys)
        if mode == "kv":
            window = tuple((j, hp.key(streams[j][hp.layer]), hp.value(streams[j][hp.layer])) for j in win)
            out.append(HeadMessage(hp.layer, hp.head, classes, window=window))
        else:
            sts = tuple((j, tuple(Fraction(v) for v in streams[j][hp.layer])) for j in win)
            out.append(HeadMessage(hp.layer, hp.head, classes, streams=sts))
    return Message(N, total_length, mode, tuple(out))


# ----------------------------------------------------------------------------------------------------------
# Bit encoding
# ----------------------------------------------------------------------------------------------------------

def _gamma(n: int) -> str:
    """Elias gamma code of n >= 1."""
    b = bin(n)[2:]
    return "0" * (len(b) - 1) + b


def _rational(q: Fraction) -> str:
    q = Fraction(q)
    return ("1" if q < 0 else "0") + _gamma(abs(q.numerator) + 1) + _gamma(q.denominator)


def _uint(v: int, width: int) -> str:
    fits = 0 <= v < (1 << width) if width else v == 0
    if not fits:
        raise ValueError(f"value {v} does not fit in {width} bits")
    return format(v, f"0{width}b") if width else ""


class _Reader:
    def __init__(self, bits: str) -> None:
        self.bits, self.i = bits, 0

    def take(self, width: int) -> int:
        if self.i + width > len(self.bits):
            raise ValueError("message truncated")
        s = self.bits[self.i:self.i + width]
        self.i += width
        return int(s, 2) if s else 0

    def gamma(self) -> int:
        z = 0
        while self.bits[self.i] == "0":
            z += 1
            self.i += 1
        return self.take(z + 1)

    def rational(self) -> Fraction:
        neg = self.take(1)
        p = self.gamma() - 1
        q = self.gamma()
        return Fraction(-p if neg else p, q)


def _width(rng: tuple[int, int]) -> int:
    """Bits of one integral value in [lo, hi]."""
    return _ceil_log2(rng[1] - rng[0] + 1)


def _sum_range(rng: tuple[int, int], m: int) -> tuple[int, int]:
    lo, hi = rng
    return min(0, m * lo), max(0, m * hi)


def encode_message(net: Network, message: Message, plan: Plan | None = None) -> str:
    """The message as a '0'/'1' string in the layout of the module docstring."""
    plan = plan or analyze(net)
    N = message.N
    out: list[str] = []
    for hp, hm in zip(plan.heads, message.heads):
        if (hp.layer, hp.head) != (hm.layer, hm.head):
            raise ValueError("message does not match the network's heads")
        static = hp.classes is not None
        if static:
            if len(hp.classes) >= 2:
                out.extend(_uint(cnt, _ceil_log2(N + 1)) for _, cnt, _ in hm.classes[:-1])
        else:
            out.append(_gamma(len(hm.classes) + 1))
        for key, cnt, sums in hm.classes:
            if not static:
                out.extend(_rational(v) for v in key)
                out.append(_uint(cnt, _ceil_log2(N + 1)))
            for s, rng in zip(sums, hp.value_ranges):
                if rng is None:
                    out.append(_rational(s))
                else:
                    lo, hi = _sum_range(rng, N)
                    out.append(_uint(int(s) - lo, _ceil_log2(hi - lo + 1)))
        for _j, key, val in hm.window:
            if static:
                out.append(_uint(hp.classes.index(key), _ceil_log2(len(hp.classes))))
            else:
                out.extend(_rational(v) for v in key)
            for v, rng in zip(val, hp.value_ranges):
                out.append(_rational(v) if rng is None else _uint(int(v) - rng[0], _width(rng)))
        for _j, y in hm.streams:
            out.extend(_rational(v) for v in y)
    return "".join(out)


def decode_message(net: Network, bits: str, N: int, total_length: int, mode: str = "kv",
                   plan: Plan | None = None) -> Message:
    """Inverse of encode_message: Bob needs only the network, N, the total length and the bits."""
    plan = plan or analyze(net)
    M = _check_split(N, total_length, mode)
    rd = _Reader(bits)
    heads = []
    for hp in plan.heads:
        win = hp.window(N, M)
        if hp.classes is not None:
            keys = list(hp.classes)
            counts = [rd.take(_ceil_log2(N + 1)) for _ in keys[:-1]] if len(keys) >= 2 else []
            counts.append(N - len(win) - sum(counts))
            classes = []
            for key, cnt in zip(keys, counts):
                classes.append((key, cnt, _read_sums(rd, hp, N)))
        else:
            n_cls = rd.gamma() - 1
            classes = []
            for _ in range(n_cls):
                key = tuple(rd.rational() for _ in hp.key_rows)
                cnt = rd.take(_ceil_log2(N + 1))
                classes.append((key, cnt, _read_sums(rd, hp, N)))
        window, streams = [], []
        for j in win:
            if mode == "kv":
                if hp.classes is not None:
                    key = hp.classes[rd.take(_ceil_log2(len(hp.classes)))]
                else:
                    key = tuple(rd.rational() for _ in hp.key_rows)
                val = tuple(rd.rational() if rng is None else Fraction(rd.take(_width(rng)) + rng[0])
                            for rng in hp.value_ranges)
                window.append((j, key, val))
            else:
                streams.append((j, tuple(rd.rational() for _ in range(net.d))))
        heads.append(HeadMessage(hp.layer, hp.head, tuple(classes), tuple(window), tuple(streams)))
    if rd.i != len(bits):
        raise ValueError(f"{len(bits) - rd.i} trailing bits")
    return Message(N, total_length, mode, tuple(heads))


def _read_sums(rd: _Reader, hp: HeadPlan, N: int) -> Vec:
    sums = []
    for rng in hp.value_ranges:
        if rng is None:
            sums.append(rd.rational())
        else:
            lo, hi = _sum_range(rng, N)
            sums.append(Fraction(rd.take(_ceil_log2(hi - lo + 1)) + lo))
    return tuple(sums)


def message_bits(net: Network, message: Message, plan: Plan | None = None) -> int:
    """Length of the encoded message in bits."""
    return len(encode_message(net, message, plan))


# ----------------------------------------------------------------------------------------------------------
# Bob
# ----------------------------------------------------------------------------------------------------------

class Bob:
    """Bob's causal evaluation from the message: ``push`` appends one token (the SOS first, at position 0,
    then y_1, y_2, ... at N+1, N+2, ...) and returns its per-layer streams; ``pop`` undoes."""

    def __init__(self, net: Network, message: Message, plan: Plan | None = None) -> None:
        self.net, self.msg = net, message
        self.plan = plan or analyze(net)
        self.base = net.base if net.base is not None else message.total_length + 1
        self.N = message.N
        self.delta = max(net.period, 1)
        self.by_layer: dict[int, list[tuple[HeadPlan, HeadMessage]]] = {}
        for hp, hm in zip(self.plan.heads, message.heads):
            if hm.streams:
                hm = HeadMessage(hm.layer, hm.head, hm.classes,
                                 tuple((j, hp.key(y), hp.value(y)) for j, y in hm.streams))
            self.by_layer.setdefault(hp.layer, []).append((hp, hm))
        self.units = [_mlp_units(layer) for layer in net.layers]
        self.own: dict[tuple[int, int], list[tuple[int, Vec, Vec]]] = {
            (hp.layer, hp.head): [] for hp in self.plan.heads}
        self.streams: list[list[list[Fraction]]] = []
        items = dict(net.U.row_items()).get(net.U.rows - 1, [])
        self.u_last: Row = tuple(items)

    def position(self) -> int:
        """Position of the next push."""
        return 0 if not self.streams else self.N + len(self.streams)

    def _weight(self, logit: Any) -> int | Fraction:
        if not isinstance(logit, int):
            if Fraction(logit).denominator != 1:
                raise ValueError(f"non-integer logit {logit} (exact mode needs integer logits)")
            logit = int(logit)
        return self.base**logit if logit >= 0 else Fraction(1, self.base**-logit)

    def push(self, token: int) -> list[list[Fraction]]:
        k = self.position()
        y = _embed(self.net, token, (k + self.net.offset) % self.delta)
        rec = [y]
        for li in range(len(self.net.layers)):
            heads = self.by_layer.get(li, [])
            if heads:
                new = list(y)
                for hp, hm in heads:
                    own = self.own[(hp.layer, hp.head)]
                    own.append((k, hp.key(y), hp.value(y)))
                    q = hp.query(y)
                    nv = len(hp.value_rows)
                    num: list[Any] = [0] * nv
                    den: Any = 0
                    entries: list[tuple[Any, int, Vec]] = []
                    if k > self.N:
                        entries += [(hp.logit(key, q), cnt, sums) for key, cnt, sums in hm.classes]
                        entries += [(hp.logit(key, q, k - j), 1, val) for j, key, val in hm.window]
                    entries += [(hp.logit(key, q, k - j), 1, val) for j, key, val in own]
                    for logit, cnt, sums in entries:
                        if not cnt:
                            continue
                        w = self._weight(logit)
                        den += w * cnt
                        for t, s in enumerate(sums):
                            if s:
                                num[t] += w * s
                    for (row, _), s in zip(hp.value_rows, num):
                        new[row] = _n(new[row] + _div(s, den))
                y = new
            if self.units[li]:
                y = _apply_mlp(self.units[li], y)
            rec.append(y)
        self.streams.append(rec)
        return rec

    def pop(self) -> None:
        self.streams.pop()
        for own in self.own.values():
            own.pop()

    def accepts(self) -> bool:
        """Acceptance at the last pushed position (last row of U > 0)."""
        return dot(self.u_last, self.streams[-1][-1]) > 0


def bob_reconstruct(net: Network, message: Message, y_symbols: Sequence[str] | str, total_length: int,
                    plan: Plan | None = None) -> list[list[list[Fraction]]]:
    """Bob's activations from the message and y alone: result[l][i] = stream after layer l (0 = embedding)
    at position N + 1 + i, in the format of ``forward.trace`` restricted to Bob's positions."""
    if total_length != message.total_length:
        raise ValueError("total_length disagrees with the message")
    y = _tokens(net, y_symbols)
    if message.N + len(y) != total_length:
        raise ValueError(f"|y| = {len(y)} but total_length - N = {total_length - message.N}")
    bob = Bob(net, message, plan)
    bob.push(net.sos)
    recs = [bob.push(t) for t in y]
    return [[rec[li] for rec in recs] for li in range(len(net.layers) + 1)]


def simulate(net: Network, x: Sequence[str] | str, y: Sequence[str] | str, mode: str = "kv",
             plan: Plan | None = None) -> bool:
    """Run the protocol on x.y (Alice -> bits -> decoded message -> Bob) and return whether Bob's
    reconstruction equals ``trace`` of the whole network on x.y, exactly, at every layer and Bob position."""
    plan = plan or analyze(net)
    x, y = list(x), list(y)
    total = len(x) + len(y)
    msg = alice_message(net, x, total, mode, plan)
    bits = encode_message(net, msg, plan)
    decoded = decode_message(net, bits, len(x), total, mode, plan)
    if decoded != msg:
        return False
    recon = bob_reconstruct(net, decoded, y, total, plan)
    direct = trace(net, _tokens(net, x + y))
    return all(recon[li][i] == direct[li][len(x) + 1 + i]
               for li in range(len(direct)) for i in range(len(y)))


# ----------------------------------------------------------------------------------------------------------
# Exhaustive tables
# ----------------------------------------------------------------------------------------------------------

def _dfs(st: Stepper, bob: Bob, tokens: Sequence[int], depth: int, path: list[bool],
         leaves: list[tuple[bool, ...]]) -> bool:
    """Push every y over ``tokens`` into the direct stepper and Bob together, comparing each new position's
    streams at every layer; leaves collect Bob's acceptance vectors (y in lexicographic order)."""
    ok = True
    for t in tokens:
        st.push(t)
        rec = bob.push(t)
        ok &= rec == st.stream(-1)
        path.append(bob.accepts())
        if depth == 1:
            leaves.append(tuple(path))
        else:
            ok &= _dfs(st, bob, tokens, depth - 1, path, leaves)
        path.pop()
        bob.pop()
        st.pop()
    return ok


def protocol_run(net: Network, N: int, alphabet: Sequence[str] | None = None, mode: str = "kv",
                 plan: Plan | None = None) -> dict[str, Any]:
    """All x, y in alphabet^N: Bob's exact reconstruction (every layer, every Bob position, compared with
    the direct causal evaluation at base 2N + 1), message bits, distinct messages and distinct Bob rows."""
    plan = plan or analyze(net)
    symbols = list(alphabet) if alphabet is not None else list(net.alphabet)
    tokens = _tokens(net, symbols)
    total = 2 * N
    t0 = time.perf_counter()
    msgs: set[str] = set()
    rows: set[tuple[tuple[bool, ...], ...]] = set()
    bob_rows: dict[tuple[str, ...], tuple[tuple[bool, ...], ...]] = {}
    max_bits, min_bits, ok, pairs = 0, None, True, 0
    for x in product(symbols, repeat=N):
        st = Stepper(net, "exact", total + 1, record=True)
        st.push(net.sos)
        for t in _tokens(net, x):
            st.push(t)
        msg = _message_from_streams(plan, st.streams, N, N, total, mode)
        bits = encode_message(net, msg, plan)
        decoded = decode_message(net, bits, N, total, mode, plan)
        ok &= decoded == msg
        msgs.add(bits)
        max_bits = max(max_bits, len(bits))
        min_bits = len(bits) if min_bits is None else min(min_bits, len(bits))
        bob = Bob(net, decoded, plan)
        ok &= bob.push(net.sos) == st.stream(0)
        leaves: list[tuple[bool, ...]] = []
        if N:
            ok &= _dfs(st, bob, tokens, N, [], leaves)
        pairs += len(leaves)
        row = tuple(leaves)
        rows.add(row)
        bob_rows[tuple(x)] = row
    return {"N": N, "pairs": pairs, "exact": bool(ok), "messages": len(msgs), "max_bits": max_bits,
            "min_bits": min_bits or 0, "rows": len(rows), "bob_rows": bob_rows,
            "seconds": time.perf_counter() - t0}


def fit_log(Ns: Sequence[int], values: Sequence[float]) -> tuple[float, float]:
    """Least-squares (C, D) with values ~ C log2(N + 1) + D."""
    x = np.log2(np.asarray(Ns, dtype=float) + 1)
    C, D = np.polyfit(x, np.asarray(values, dtype=float), 1)
    return float(C), float(D)


def protocol_table(program: Program | Network, Ns: Iterable[int] = range(1, 6),
                   alphabet: Sequence[str] | None = None, mode: str = "kv") -> dict[str, Any]:
    """Exhaustive protocol table: per N the exactness of Bob's reconstruction, the maximum message length
    in bits, the number of distinct messages (an upper bound on the one-way rows) and the rows of Bob's
    outputs; plus the least-squares C of max bits ~ C log2(N + 1) + D (``C_bits``, over the enumerated N),
    the same fit of log2 #messages (``C_messages``), and for a compressible plan the static bound
    c log2(N + 1) + d, the exact fixed layout width per N (checked against every measured message) and its
    fit over N = 2^k - 1, k = 1..20 (``C_layout``: equals c when every growing field has range 1).

    A Program is compiled with the faithful knobs; a Network is used as given.
    """
    net = program if isinstance(program, Network) else compile_program(program)
    plan = analyze(net)
    table = []
    for N in Ns:
        row = protocol_run(net, N, alphabet, mode, plan)
        row.pop("bob_rows")
        if plan.compressible and mode == "kv":
            row["layout_bits"] = plan.layout_bits(N)
            row["fixed_width"] = row["max_bits"] == row["min_bits"] == row["layout_bits"]
            row["bound"] = plan.bound(N)
            row["within_bound"] = row["max_bits"] <= row["bound"]
        table.append(row)
    Ns_l = [r["N"] for r in table]
    out: dict[str, Any] = {"name": net.meta.get("program", "network"), "mode": mode,
                           "compressible": plan.compressible, "reasons": list(plan.reasons), "table": table,
                           "exact": all(r["exact"] for r in table)}
    if len(table) >= 2:
        out["C_bits"], out["D_bits"] = fit_log(Ns_l, [r["max_bits"] for r in table])
        out["C_messages"], out["D_messages"] = fit_log(Ns_l, [math.log2(r["messages"]) for r in table])
    if plan.compressible:
        c, d = plan.log_bound()
        out.update(c=c, d=d, heads_x_classes=plan.heads_x_classes)
        if mode == "kv":
            big = [2**k - 1 for k in range(1, 21)]
            out["C_layout"], out["D_layout"] = fit_log(big, [plan.layout_bits(N) for N in big])
    return out


# ----------------------------------------------------------------------------------------------------------
# Negative control: Thm 12 without its precision hypothesis
# ----------------------------------------------------------------------------------------------------------

def nope_average_network() -> Network:
    """The exact-precision NoPE 2-layer model (Thm 12 without its precision hypothesis) as an explicit
    network over {a, b}, NOT a compiled C-RASP network.

    Layer 1: uniform head, value 1[w_j = a] -> c_j = #a(w_<=j) / (j + 1). Layer 2: uniform head, value c_j
    -> z_k = (c_0 + ... + c_k) / (k + 1). Output 2 z - 1 (the acceptance is irrelevant: Theorem 12 is about
    activations). Agrees with ``comm.nope_average_model``.
    """
    dims = ["tok:a", "tok:b", "sos", "one", "c", "z"]
    d = len(dims)
    f1 = Fraction(1)
    E = [{0: f1, 3: f1}, {1: f1, 3: f1}, {2: f1, 3: f1}]

    def uniform(out: int, src: int) -> Head:
        v = Mat(d, d)
        v.add(out, src, 1)
        return Head(Mat(0, d), Mat(0, d), v, {})

    U = Mat(1, d)
    U.add(0, 5, 2)
    U.add(0, 3, -1)
    return Network(("a", "b"), dims, E, [{}], [Layer([uniform(4, 0)]), Layer([uniform(5, 4)])], U,
                   meta={"program": "nope_average"})
