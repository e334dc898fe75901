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

The layout Alice and Bob share (key classes, value intervals, the static bound c log2(N + 1) + d) is
derived from the weights in :mod:`proofkit.crasp.communication.protocol_plan`; Alice's message and its
decodable bit encoding are in :mod:`proofkit.crasp.communication.protocol_message`. This module holds Bob,
the end-to-end simulation and the exhaustive tables.

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
from .protocol_message import (
    HeadMessage,
    Message,
    _message_from_streams,
    _tokens,
    alice_message,
    decode_message,
    encode_message,
)
from .protocol_plan import HeadPlan, Plan, Row, Vec, _apply_mlp, _embed, _mlp_units, _n, analyze

# ----------------------------------------------------------------------------------------------------------
# Bob
# ----------------------------------------------------------------------------------------------------------

def _div(a: Any, b: Any) -> int | Fraction:
    """a / b exactly."""
    return _n(Fraction(a) / b) if not (isinstance(a, int) and isinstance(b, int)) else _n(Fraction(a, b))


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


@dataclass(frozen=True)
class ProtocolSummary:
    """One program's :func:`protocol_table`, condensed: the (x, y) pairs enumerated over all N, whether the
    reconstruction is exact, the plan compressible and every message within the static bound (``ok``), the
    plan's reasons, the maximum message bits per N and the layout fit ``C_layout`` (nan when absent)."""

    name: str
    pairs: int
    ok: bool
    reasons: list[str]
    max_bits: list[int]
    C_layout: float


def protocol_summaries(programs: Iterable[tuple[str, Program]], Ns: Sequence[int]) -> list[ProtocolSummary]:
    """:func:`protocol_table` of each named program at the same N, up to and including the first that is
    not ``ok``."""
    out = []
    for name, program in programs:
        t = protocol_table(program, Ns)
        ok = t["exact"] and t["compressible"] and all(r["within_bound"] for r in t["table"])
        out.append(ProtocolSummary(name, sum(r["pairs"] for r in t["table"]), ok, t["reasons"],
                                   [r["max_bits"] for r in t["table"]], t.get("C_layout", float("nan"))))
        if not ok:
            break
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
