"""The forward pass of an explicit Limit Transformer (:mod:`proofkit.crasp.compilation.network`; Huang et al.
2024, Sec. 2 eqs. (1)-(4)).

y_k = E[x_k] + p_{k+o}; for every head the logit of key j <= k at query k is (K y_j) . (Q y_k) + phi(k - j);
softmax weights are base^{logit} with base N = n + 1 (log-N scaling) or a fixed base; residual connections
around attention and MLP. The evaluation is incremental (one position at a time, causal), so the same code
serves whole-string runs and prefix-tree searches.

Arithmetic modes: ``exact`` (Python int / ``flint.fmpq`` inside a pass, because python-flint's C rationals
add about 10x faster than ``fractions.Fraction`` and additions are the pass's cost; weights are stored, and
recorded streams returned, as int / ``Fraction``; every logit must be an integer so that base^{logit} is an
exact rational), ``float64`` (Python floats; softmax shifted by the max logit) and, in exact mode, optional
rounding of every residual-stream coordinate to ``round_bits`` fractional bits after each sublayer (the
fixed-point model behind ``compiler.precision_needed``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flint import fmpq

from .network import MODES, Mat, Network

Num = int | Fraction | fmpq | float


Row = tuple[tuple[int, Num], ...]


def _exact(x: Any) -> int | fmpq:
    """A stored weight as a pass number: int when integral (the fast path), else ``fmpq``."""
    q = Fraction(x)
    return q.numerator if q.denominator == 1 else fmpq(q.numerator, q.denominator)


def _fraction(x: Num | fmpq) -> Num:
    """A pass number as it leaves the pass: ``fmpq`` back to ``Fraction`` (they do not compare equal)."""
    return Fraction(int(x.p), int(x.q)) if isinstance(x, fmpq) else x


def _conv(mode: str):
    """Number conversion for a mode: exact keeps integers as int (fast path), float64 uses float."""
    if mode == "float64":
        return float
    if mode == "exact":
        return _exact
    raise ValueError(f"unknown mode {mode!r}; expected one of {MODES}")


@dataclass
class _PHead:
    uniform: bool
    K: list[Row]
    Q: list[Row]
    V: list[tuple[int, Row]]
    phi: dict[int, Num]


@dataclass
class _PMLP:
    units: list[tuple[Num, Row, bool]]          # (bias, A row, is_heaviside)
    outs: list[list[tuple[int, Num]]]          # per unit: (stream row, B value)


@dataclass(frozen=True)
class Prepared:
    """A network's weights converted for one arithmetic mode (:func:`prepare`): reused by every pass over
    the same, unchanged network (preparing costs about as much as a short pass)."""

    mode: str
    layers: list[tuple[list[_PHead], _PMLP | None]]
    E: list[list[Num]]
    pos: list[list[Num]]
    U_last: Row  # the row of U read for acceptance (the last output coordinate)


def prepare(net: Network, mode: str = "exact") -> Prepared:
    """Convert the sparse exact weights into per-mode row lists. The result is a snapshot: prepare again
    after changing the network."""
    cv = _conv(mode)

    def rows(m: Mat) -> list[Row]:
        dense_rows = dict(m.row_items())
        return [tuple((c, cv(v)) for c, v in dense_rows.get(r, [])) for r in range(m.rows)]

    def vec(v: dict[int, Fraction]) -> list[Num]:
        out = [cv(0)] * net.d
        for i, x in v.items():
            out[i] = cv(x)
        return out

    layers = []
    for lay in net.layers:
        heads = [_PHead(h.uniform, rows(h.K), rows(h.Q),
                        [(r, tuple((c, cv(v)) for c, v in items)) for r, items in h.V.row_items()],
                        {c: cv(v) for c, v in h.phi.items() if v}) for h in lay.heads]
        mlp = None
        if lay.mlp is not None:
            a_rows = rows(lay.mlp.A)
            units = [(cv(lay.mlp.b[u]), a_rows[u], lay.mlp.act[u] == "heaviside") for u in range(len(a_rows))]
            outs: list[list[tuple[int, Num]]] = [[] for _ in units]
            for (r, u), v in sorted(lay.mlp.B.entries.items()):
                outs[u].append((r, cv(v)))
            mlp = _PMLP(units, outs)
        layers.append((heads, mlp))
    u_last = dict(net.U.row_items()).get(net.U.rows - 1, [])
    return Prepared(mode, layers, [vec(v) for v in net.E], [vec(v) for v in net.pos] or [[cv(0)] * net.d],
                    tuple((c, cv(v)) for c, v in u_last))


def dot(row: Row, y: Sequence[Num]) -> Num:
    """Sparse row . dense vector, in the numbers given (exact for ints and rationals)."""
    s: Num = 0
    for c, w in row:
        s += w * y[c]
    return s


class Stepper:
    """Causal forward pass one token at a time: ``push`` returns the new position's verdict, ``pop`` undoes.

    length: the N of log-N scaling (needed unless the network is length-independent); offset: positional
    offset o (token k reads p_{k+o}); round_bits: exact mode only, round every stream coordinate to that many
    fractional bits after each sublayer; record: keep every layer's stream for ``trace``; prepared: the
    network's weights from :func:`prepare` in this mode (prepared here when None).
    """

    def __init__(self, net: Network, mode: str = "exact", length: int | None = None,
                 offset: int | None = None, round_bits: int | None = None, record: bool = False,
                 prepared: Prepared | None = None) -> None:
        if round_bits is not None and mode != "exact":
            raise ValueError("round_bits applies to exact mode (fixed-point model)")
        if prepared is not None and prepared.mode != mode:
            raise ValueError(f"weights prepared for mode {prepared.mode!r}, run in mode {mode!r}")
        self.net, self.mode, self.round_bits, self.record = net, mode, round_bits, record
        self.offset = net.offset if offset is None else offset
        base = net.base if net.base is not None else length
        if base is None:
            if not net.length_independent():
                raise ValueError("log-N scaling needs the input length N")
            base = 2
        self.base = float(base) if mode == "float64" else int(base)
        prep = prepared or prepare(net, mode)
        self.layers, self.E, self.pos, self.U_last = prep.layers, prep.E, prep.pos, prep.U_last
        # per layer, per head: list over positions of (key, value) or prefix sums of values
        self.cache: list[list[list[Any]]] = [[[] for _ in heads] for heads, _ in self.layers]
        self._recs: list[list[list[Num]]] = []  # pass numbers; ``streams`` converts on read
        self.accepts: list[bool] = []

    def __len__(self) -> int:
        return len(self.accepts)

    @property
    def streams(self) -> list[list[list[Num]]]:
        """Recorded streams (``record=True``): streams[k][l] = stream after layer l (0 = embedding) at
        position k, exact values as int / Fraction (converted on every read: read it once)."""
        return [[[_fraction(v) for v in y] for y in rec] for rec in self._recs]

    def stream(self, k: int) -> list[list[Num]]:
        """``streams[k]`` alone: every layer's stream at recorded position k."""
        return [[_fraction(v) for v in y] for y in self._recs[k]]

    def final_stream(self) -> list[list[Num]]:
        """The stream after the last layer at every recorded position (converted as ``streams``)."""
        return [[_fraction(v) for v in rec[-1]] for rec in self._recs]

    def _round(self, y: list[Num]) -> list[Num]:
        """Fixed-point rounding to round_bits fractional bits (round half to even)."""
        scale = 1 << self.round_bits
        return [fmpq(round(x * scale), scale) for x in y]

    def _weight(self, logit: Num, top: Num) -> Num:
        """Softmax weight base^{logit} (exact, integer logits) or base^{logit - max} (float64)."""
        if self.mode == "float64":
            return self.base ** (logit - top)
        if not isinstance(logit, int):
            if fmpq(logit).q != 1:
                raise ValueError(f"non-integer logit {_fraction(logit)} in exact mode")
            logit = int(logit)
        return self.base ** logit if logit >= 0 else fmpq(1, self.base ** -logit)

    def _div(self, a: Num, b: Num) -> Num:
        """a / b exactly (int / int -> fmpq) or in float."""
        if isinstance(a, int) and isinstance(b, int):
            return fmpq(a, b)
        return a / b

    def _attend(self, li: int, h: int, head: _PHead, y: list[Num], k: int) -> list[tuple[int, Num]]:
        """Attention output of one head at query position k (the current one) as (row, value) pairs."""
        val = tuple(dot(r, y) for _, r in head.V)
        store = self.cache[li][h]
        if head.uniform:
            prev = store[-1] if store else (0,) * len(val)
            sums = tuple(a + b for a, b in zip(prev, val))
            store.append(sums)
            return [(row, self._div(s, k + 1)) for (row, _), s in zip(head.V, sums)]
        key = tuple(dot(r, y) for r in head.K)
        store.append((key, val))
        query = tuple(dot(r, y) for r in head.Q)
        logits = [sum(a * b for a, b in zip(kj, query)) + head.phi.get(k - j, 0)
                  for j, (kj, _) in enumerate(store)]
        top = max(logits)
        weights = [self._weight(a, top) for a in logits]
        den = sum(weights)
        num = [0] * len(val)
        for w, (_, vj) in zip(weights, store):
            if w:
                for t, x in enumerate(vj):
                    if x:
                        num[t] += w * x
        return [(row, self._div(s, den)) for (row, _), s in zip(head.V, num)]

    def _mlp(self, mlp: _PMLP, y: list[Num]) -> list[Num]:
        """y + B act(A y + b)."""
        out = list(y)
        for (bias, row, heav), outs in zip(mlp.units, mlp.outs):
            z = bias + dot(row, y)
            a = (1 if z >= 0 else 0) if heav else (z if z > 0 else 0)
            if a:
                for r, w in outs:
                    out[r] += w * a
        return out

    def push(self, token: int) -> bool:
        """Append one token (index into alphabet, or ``net.sos``) and return acceptance at its position."""
        k = len(self.accepts)
        pos = self.pos[(k + self.offset) % len(self.pos)]
        y = [a + b for a, b in zip(self.E[token], pos)]
        rec = [y] if self.record else None
        for li, (heads, mlp) in enumerate(self.layers):
            if heads:
                new = list(y)
                for h, head in enumerate(heads):
                    for row, v in self._attend(li, h, head, y, k):
                        new[row] += v
                y = self._round(new) if self.round_bits is not None else new
            if mlp is not None:
                y = self._mlp(mlp, y)
                if self.round_bits is not None:
                    y = self._round(y)
            if rec is not None:
                rec.append(y)
        if rec is not None:
            self._recs.append(rec)
        acc = dot(self.U_last, y) > 0
        self.accepts.append(acc)
        return acc

    def pop(self) -> None:
        """Remove the last position (backtracking in prefix-tree searches)."""
        for per_layer in self.cache:
            for store in per_layer:
                store.pop()
        if self.record:
            self._recs.pop()
        self.accepts.pop()


def run(net: Network, string_indices: Sequence[int], mode: str = "exact", offset: int | None = None,
        round_bits: int | None = None, length: int | None = None,
        prepared: Prepared | None = None) -> list[bool]:
    """Acceptance at every position 0..n of $w in one causal pass with N = n + 1 (or ``length``).

    Position n is T's verdict on w; position k < n is T's verdict on w[:k] read inside a context of length N
    (for length-independent networks this equals the verdict on w[:k] alone). ``prepared``: the weights
    from :func:`prepare` when the same network runs on many strings.
    """
    st = Stepper(net, mode, length or len(string_indices) + 1, offset, round_bits, prepared=prepared)
    st.push(net.sos)
    for t in string_indices:
        st.push(t)
    return list(st.accepts)


def trace(net: Network, string_indices: Sequence[int], mode: str = "exact", offset: int | None = None,
          round_bits: int | None = None) -> list[list[list[Num]]]:
    """Residual streams for debugging: result[l][k] = stream after layer l (0 = embedding) at position k."""
    st = Stepper(net, mode, len(string_indices) + 1, offset, round_bits, record=True)
    st.push(net.sos)
    for t in string_indices:
        st.push(t)
    streams = st.streams
    return [[streams[k][li] for k in range(len(streams))] for li in range(len(net.layers) + 1)]


def final_stream(net: Network, string_indices: Sequence[int], mode: str = "exact",
                 prepared: Prepared | None = None) -> list[list[Num]]:
    """``trace(...)[-1]`` without converting the other layers: the stream after the last layer at every
    position (``prepared`` as for :func:`run`)."""
    st = Stepper(net, mode, len(string_indices) + 1, record=True, prepared=prepared)
    st.push(net.sos)
    for t in string_indices:
        st.push(t)
    return st.final_stream()


def read(net: Network, streams: list[list[list[Num]]], dim: str) -> list[Num]:
    """One named stream coordinate at every position after the last layer (debug helper)."""
    i = net.dims.index(dim)
    return [y[i] for y in streams[-1]]
