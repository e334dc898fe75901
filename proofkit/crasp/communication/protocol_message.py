"""Alice's side of the one-way protocol of :mod:`proofkit.crasp.communication.protocol`: her message (per
head and key class the count and exact value sum, plus her window positions) and its bit encoding.

Encoding (a stated, decodable bit layout that both parties know from the network, N and M):
  count of a class       counts of all classes but the last, each ceil(log2(N+1)) bits, when there are >= 2
                         static classes (with one class the count is N - |W|: nothing is sent);
  value sum, integral    each value coordinate whose per-position values are integers in [lo, hi] (interval
                         analysis in protocol_plan) has a class sum in [min(0, N lo), max(0, N hi)]:
                         fixed width ceil(log2(size of that range)) bits (0 bits when the range is {0});
  window key / value     class index in ceil(log2 #classes) bits; integral value in ceil(log2(hi - lo + 1));
  anything else          an exact rational p/q as sign bit + Elias-gamma(|p| + 1) + Elias-gamma(q)
                         (non-static keys, non-integral sums, stream-mode activations).
decode_message inverts encode_message exactly, and Bob reconstructs from the decoded message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..compilation.forward import Stepper
from ..compilation.network import Network
from .protocol_plan import HeadPlan, Plan, Vec, _ceil_log2, _sum_range, _width, analyze

WINDOW_MODES = ("kv", "stream")


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
