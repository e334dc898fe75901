"""One-way communication complexity of prefix functions (Huang et al. 2024, Thm 12, Cor. 13; HYB24.T12, C13).

Split every string of length 2N into Alice's first N symbols x and Bob's last N symbols y. The row of
x is the vector of f's outputs on x.y over all Bob halves y, in one of two modes:

* ``"prefix-vector"``: Bob's outputs at every position of his half, i.e. acceptance of x.y[:k] for
  k = 1..N (Bob computes every activation of his half, as in Thm 12);
* ``"final"``: only acceptance of x.y.

The number of distinct rows is the size of the one-way communication matrix; log2 of it is
D^{A->B}(f, N). Theorem 12 (with the O(log N) precision hypothesis of its restatement, Thm 19, App. B.3)
predicts rows <= poly(N) for anything a Limit Transformer with Periodic and Local computes. Regular
languages have a bounded number of rows, so a bounded trend is reported as inconclusive, never as
"expressible"; exponential growth on the C13 families is evidence, not proof.

Prefix functions follow proofkit/crasp/semantics/truth.py: X int (B, n) of symbol indices -> bool (B, n + 1),
column 0 = the empty prefix.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np

from ...errors import InputError, one_of
from ...numerics import arrays
from ..semantics.compare import PrefixFn, all_strings, as_prefix_fn, check_prefix_output, check_symbols

MODES = ("prefix-vector", "final")
MAX_STRINGS = 1 << 31
TREND_MIN_POINTS = 3  # rows(N) entries a growth label needs (two fits of two parameters each)
VERDICTS = {"constant": "inconclusive-constant", "polynomial": "consistent-with-T12",
            "exponential": "exponential-trend"}

COPY_ALPHABET = ("a", "b")
MARKED_COPY_ALPHABET = ("a", "b", "#")
ADDITION_ALPHABET = ("0", "1", "+", "=")
DYCK2_ALPHABET = ("(", "[", ")", "]")


# ----------------------------------------------------------------------------------------------------
# Row counting


def _check_rows_args(alphabet_size: int, N: int, mode: str) -> None:
    """Validate the arguments of rows()."""
    if not isinstance(alphabet_size, int) or alphabet_size < 1:
        raise InputError("alphabet_size", "an integer >= 1", alphabet_size)
    if not isinstance(N, int) or N < 1:
        raise InputError("N", "an integer >= 1", N)
    if mode not in MODES:
        raise one_of("mode", MODES, mode)
    if alphabet_size ** (2 * N) > MAX_STRINGS:
        raise InputError("N", f"alphabet_size ** (2N) <= {MAX_STRINGS}", alphabet_size ** (2 * N))


def _alice_chunks(alphabet_size: int, N: int, chunk_strings: int, xp: Any) -> Iterator[Any]:
    """Alice halves in lexicographic order, as many per chunk as fit in ``chunk_strings`` strings."""
    n_bob = alphabet_size**N
    per = max(1, chunk_strings // n_bob)
    for start in range(0, n_bob, per):
        yield all_strings(alphabet_size, N, start, start + per, xp)


def _packbits(bits: Any, xp: Any) -> Any:
    """A bool (r, m, c) array packed 8 bits to a uint8 along axis 1, in ``xp``: bit 7 - i of [a, j, col]
    is bits[a, i * ceil(m / 8) + j, col] (a fixed bijection, which is all that comparing rows of one shape
    needs; the standard has no packbits). Only these bytes leave the namespace."""
    r, m, c = bits.shape
    width = -(-m // 8)
    if 8 * width > m:
        bits = xp.concat([bits, xp.zeros((r, 8 * width - m, c), dtype=xp.bool)], axis=1)
    planes = xp.reshape(bits, (r, 8, width, c))
    packed = xp.zeros((r, width, c), dtype=xp.uint8)
    for i in range(8):
        packed |= xp.astype(planes[:, i, :, :], xp.uint8) << (7 - i)
    return packed


def _row_block(f: PrefixFn, alice: Any, bob: Any, mode: str, xp: Any, host: bool) -> Any:
    """Rows of a block of Alice halves, bit-packed: uint8 (len(alice), ...) in ``xp``, one row per half."""
    na, N = alice.shape
    nb = bob.shape[0]
    X = xp.empty((na, nb, 2 * N), dtype=xp.int64)  # x.y for every pair, written once by broadcasting
    X[:, :, :N] = alice[:, None, :]
    X[:, :, N:] = bob[None, :, :]
    out = check_prefix_output(f(xp.reshape(X, (na * nb, 2 * N))), na * nb, 2 * N, "f_prefixes",
                              None if host else xp)
    cols = out[:, N + 1:] if mode == "prefix-vector" else out[:, 2 * N:]
    return _packbits(xp.reshape(cols, (na, nb, cols.shape[1])), xp)


def rows(f_prefixes: Any, alphabet_size: int, N: int, mode: str = "prefix-vector",
         chunk_strings: int = 1 << 18, xp: Any = None) -> int:
    """Number of distinct one-way rows of f at split N (exact; rows are compared as packed bytes).

    All alphabet_size ** (2N) strings are enumerated in chunks of whole Alice halves (bounded memory:
    about 200 bytes per string of a chunk for the int64 input and a counter-style f), f is evaluated
    once per string, and each Alice row is hashed as its packed bit vector.

    ``xp`` (:mod:`proofkit.numerics.arrays`): None keeps the prefix-function contract, f takes and returns
    host numpy arrays (it may compute elsewhere itself: ``accepts_prefixes`` with no ``xp`` runs on the
    ``--backend``). With a namespace, the strings are built in it, f must take and return arrays of it
    (e.g. ``lambda X: accepts_prefixes(program, X, xp)``), the rows are bit-packed in it, and only the
    packed rows come to the host. De-duplication is on the host in either case: the standard's
    ``unique_values`` works on single elements, not rows (up to alphabet_size ** N * N bits each), and a
    hash on the device would make the count probabilistic.
    """
    _check_rows_args(alphabet_size, N, mode)
    f = as_prefix_fn(f_prefixes, "f_prefixes")
    host, xp = xp is None, arrays.namespace("numpy") if xp is None else xp
    bob = all_strings(alphabet_size, N, xp=xp)
    seen: set[bytes] = set()
    for alice in _alice_chunks(alphabet_size, N, chunk_strings, xp):
        packed = arrays.to_numpy(_row_block(f, alice, bob, mode, xp, host))
        seen.update(row.tobytes() for row in packed)
    return len(seen)


def rows_table(f_prefixes: Any, alphabet_size: int, Ns: Iterable[int], mode: str = "prefix-vector",
               bound: Callable[[int], int] | None = None, xp: Any = None) -> list[dict[str, Any]]:
    """rows(N) for each N, with log2 rows, seconds, and (if ``bound`` is given) the bound and pass/fail
    (``xp``: as for :func:`rows`)."""
    table = []
    for N in Ns:
        t0 = time.perf_counter()
        r = rows(f_prefixes, alphabet_size, N, mode, xp=xp)
        entry: dict[str, Any] = {"N": N, "rows": r, "log2_rows": math.log2(r),
                                 "seconds": time.perf_counter() - t0}
        if bound is not None:
            entry["bound"] = bound(N)
            entry["within_bound"] = r <= entry["bound"]
        table.append(entry)
    return table


# ----------------------------------------------------------------------------------------------------
# Trend classification


@dataclass(frozen=True)
class TrendFit:
    """Growth class of rows(N) with both least-squares fits (trend evidence for Thm 12 / Cor. 13).

    poly: log2 rows ~ poly_intercept + poly_degree * log2 N, and rows <= poly_constant * N ** poly_degree
    on the data; exp: log2 rows ~ exp_intercept + exp_slope * N (exp_base = 2 ** exp_slope).
    """

    label: str
    verdict: str
    poly_degree: float
    poly_intercept: float
    poly_constant: float
    rss_poly: float
    exp_slope: float
    exp_intercept: float
    exp_base: float
    rss_exp: float
    n_points: int


def _fit_line(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Least-squares line y ~ a + b x: (b, a, residual sum of squares)."""
    b, a = np.polyfit(x, y, 1)
    rss = float(np.sum((y - (a + b * x)) ** 2))
    return float(b), float(a), rss


def _is_bounded(r: np.ndarray) -> bool:
    """Rows stop growing: the maximum over the second half of the table <= the maximum over the first."""
    half = len(r) // 2
    return bool(r[half:].max() <= r[:half].max())


def trend_fit(table: Sequence[dict[str, Any]]) -> TrendFit:
    """Classify rows(N) as "constant", "polynomial" or "exponential" and report both fits.

    Constant: bounded (the caller reports "inconclusive", never "expressible"). Otherwise the better of
    the two least-squares fits (smaller residual) decides. At N <= 12 this is trend evidence only: a
    finite table cannot refute C log N for an unknown C.
    """
    pts = sorted((int(e["N"]), int(e["rows"])) for e in table)
    if len(pts) < TREND_MIN_POINTS or pts[0][0] < 1 or min(r for _, r in pts) < 1:
        raise InputError("table", f"at least {TREND_MIN_POINTS} entries with N >= 1 and rows >= 1", pts)
    N = np.array([p[0] for p in pts], dtype=float)
    r = np.array([p[1] for p in pts], dtype=float)
    y = np.log2(r)
    d, a_p, rss_p = _fit_line(np.log2(N), y)
    s, a_e, rss_e = _fit_line(N, y)
    if _is_bounded(r):
        label = "constant"
    else:
        label = "exponential" if rss_e < rss_p else "polynomial"
    c = float(np.max(r / N ** max(d, 0.0)))
    return TrendFit(label, VERDICTS[label], d, a_p, c, rss_p, s, a_e, 2.0**s, rss_e, len(pts))


def trend(table: Sequence[dict[str, Any]]) -> str:
    """The growth label of trend_fit: "constant", "polynomial" or "exponential"."""
    return trend_fit(table).label


# ----------------------------------------------------------------------------------------------------
# Program-level bound (a form of Thm 12 for C-RASP programs, derived here)


def program_bound(N: int, depth: int, n_counts: int, local_windows: Sequence[int] = ()) -> int:
    """Theorem-12 row bound for a C-RASP[periodic, local] program at split N:

        rows_P(N) <= (N + 1) ** n_counts * prod_k 2 ** min(tau_k, N)

    Source: derived here, not in the paper (a program-level form of Thm 12 for C-RASP). Alice
    sends each plain count's total over her half (N + 1 values) and, for each local count with window
    tau_k = max offset, its argument's values at her last tau_k positions; periodic predicates need no
    message because both parties know positions. Every activation of Bob's half is determined by this
    message, so it bounds both row modes. ``depth`` (count nesting depth) does not enter the bound:
    nested counts are counted in n_counts. It is accepted and validated only because the paper's
    constant C depends on the model size (Thm 19 bounds it linearly in a size parameter that the
    extracted text of the paper does not show; plausibly p or L*H);
    the min(tau_k, N) refinement is ours (Alice has only N positions).
    """
    for name, v in (("N", N), ("depth", depth), ("n_counts", n_counts)):
        if not isinstance(v, int) or v < 0:
            raise InputError(name, "an integer >= 0", v)
    for tau in local_windows:
        if not isinstance(tau, int) or tau < 0:
            raise InputError("local_windows", "integers >= 0", tau)
    return (N + 1) ** n_counts * 2 ** sum(min(tau, N) for tau in local_windows)


def program_bound_for_ops(ops: Iterable[Any], N: int) -> int:
    """program_bound for a C-RASP IR op list (duck-typed proofkit.crasp.language.ir.Op: kind, args,
    offsets)."""
    ops = list(ops)
    depth: dict[str, int] = {}
    for op in ops:
        inner = max((depth.get(a, 0) for a in op.args), default=0)
        depth[op.name] = inner + (1 if op.kind in ("count", "local") else 0)
    n_counts = sum(1 for op in ops if op.kind == "count")
    windows = [max(op.offsets, default=0) for op in ops if op.kind == "local"]
    return program_bound(N, max(depth.values(), default=0), n_counts, windows)


# ----------------------------------------------------------------------------------------------------
# Thm 12 without its precision hypothesis: NoPE average-of-running-averages at infinite precision
# (a model constructed here, not in the paper)


def _round_down(x: Fraction, bits: int | None) -> Fraction:
    """Truncate x to ``bits`` fractional bits (None = exact)."""
    if bits is None:
        return x
    scale = 1 << bits
    return Fraction(math.floor(x * scale), scale)


def nope_average_model(word: Sequence[int], round_bits: int | None = None) -> list[Fraction]:
    """Exact outputs z_0..z_n of the NoPE 2-layer average-of-running-averages model on $w (a = 0, b = 1).

    Layer 1 (uniform head over positions 0..j incl. SOS, value 1[w_j = a]): c_j = #a(w_<=j) / (j + 1).
    Layer 2 (uniform head, value c_j): z_k = (c_0 + ... + c_k) / (k + 1). With round_bits, every c_j
    and z_k is truncated to that many fractional bits (the O(log N) precision of Thm 19).
    """
    out, count_a, total = [Fraction(0)], 0, Fraction(0)
    for j, sym in enumerate(word, start=1):
        count_a += 1 if sym == 0 else 0
        total += _round_down(Fraction(count_a, j + 1), round_bits)
        out.append(_round_down(total / (j + 1), round_bits))
    return out


def _bob_outputs(N: int, count_a: int, total: Fraction, depth: int, round_bits: int | None,
                 acc: list[Fraction]) -> None:
    """Pre-order outputs of the model over the trie of Bob's halves (output at N + k depends on y[:k])."""
    if depth == N:
        return
    j = N + depth + 1
    for sym in (0, 1):
        ca = count_a + (1 if sym == 0 else 0)
        t = total + _round_down(Fraction(ca, j + 1), round_bits)
        acc.append(_round_down(t / (j + 1), round_bits))
        _bob_outputs(N, ca, t, depth + 1, round_bits, acc)


def counterexample_rows(N: int, round_bits: int | None = None) -> int:
    """Distinct rows (exact Fraction outputs at Bob's positions N+1..2N) of ``nope_average_model``."""
    seen: set[tuple[Fraction, ...]] = set()
    for x in product((0, 1), repeat=N):
        count_a = x.count(0)
        total = sum((_round_down(Fraction(sum(1 for s in x[:j] if s == 0), j + 1), round_bits)
                     for j in range(1, N + 1)), Fraction(0))
        acc: list[Fraction] = []
        _bob_outputs(N, count_a, total, 0, round_bits, acc)
        seen.add(tuple(acc))
    return len(seen)


def protocol_counterexample(Ns: Iterable[int] = range(1, 9), round_bits: int | None = None
                            ) -> list[dict[str, Any]]:
    """Thm 12 without its precision hypothesis: the NoPE average-of-running-averages model at infinite
    precision has 2^N rows.

    Rows are real-valued (Bob must reproduce his activations, as in Theorem 12's protocol). Returns
    [{"N", "rows", "two_pow_N"}]; with round_bits the same model at finite precision, for contrast.
    """
    return [{"N": N, "rows": counterexample_rows(N, round_bits), "two_pow_N": 2**N} for N in Ns]


# ----------------------------------------------------------------------------------------------------
# C13 instance families (plain prefix functions)


def copy_language(X: np.ndarray) -> np.ndarray:
    """{ww : w in {a, b}*} over COPY_ALPHABET (copy as a language): prefix of length 2h is w.w, |w| = h."""
    X = check_symbols(X, 2)
    B, n = X.shape
    out = np.zeros((B, n + 1), dtype=bool)
    for m in range(0, n + 1, 2):
        h = m // 2
        out[:, m] = np.all(X[:, :h] == X[:, h:m], axis=1)
    return out


def copy_marked_language(X: np.ndarray) -> np.ndarray:
    """{w#w : w in {a, b}*} over MARKED_COPY_ALPHABET (index 2 = '#'): exactly one '#', halves equal."""
    X = check_symbols(X, 3)
    B, n = X.shape
    out = np.zeros((B, n + 1), dtype=bool)
    for m in range(1, n + 1, 2):
        h = (m - 1) // 2
        out[:, m] = (X[:, h] == 2) & np.all(X[:, :h] != 2, axis=1) & np.all(X[:, :h] == X[:, h + 1:m], axis=1)
    return out


def addition_language(X: np.ndarray) -> np.ndarray:
    """{a+b=c} over ADDITION_ALPHABET ('0','1','+','='): a, b non-empty MSB-first bit strings (leading
    zeros allowed), c = a + b in binary MSB-first without leading zeros ("0" for zero), as in "101+10=111".
    Operands up to 62 bits."""
    X = check_symbols(X, 4)
    B, n = X.shape
    phase = np.zeros(B, dtype=np.int64)  # 0: in a, 1: in b, 2: in c, 3: dead
    vals = np.zeros((3, B), dtype=np.int64)
    lens = np.zeros((3, B), dtype=np.int64)
    out = np.zeros((B, n + 1), dtype=bool)
    for t in range(n):
        phase, vals, lens = _addition_step(X[:, t], phase, vals, lens)
        total = vals[0] + vals[1]
        width = np.maximum(_bit_length(total), 1)
        shape_ok = (phase == 2) & (lens[0] >= 1) & (lens[1] >= 1)
        out[:, t + 1] = shape_ok & (lens[2] == width) & (vals[2] == total)
    return out


def _addition_step(col: np.ndarray, phase: np.ndarray, vals: np.ndarray, lens: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One symbol of the a+b=c scanner: bits extend the current operand, '+' / '=' advance the phase."""
    bit = col <= 1
    after_eq = np.where(col == 3, np.where(phase == 1, 2, 3), phase)
    nxt = np.where(col == 2, np.where(phase == 0, 1, 3), after_eq)
    nxt = np.where(phase == 3, 3, nxt)
    vals, lens = vals.copy(), lens.copy()
    for p in range(3):
        sel = bit & (phase == p)
        vals[p] = np.where(sel, 2 * vals[p] + col, vals[p])
        lens[p] = np.where(sel, lens[p] + 1, lens[p])
    return nxt, vals, lens


def _bit_length(v: np.ndarray) -> np.ndarray:
    """Bit length of non-negative int64 values (0 for 0): how many of 1, 2, 4, ..., 2^62 are <= v."""
    return np.searchsorted(_POWERS, v, side="right").astype(np.int64)


_POWERS = 2 ** np.arange(63, dtype=np.int64)


def dyck2_language(X: np.ndarray) -> np.ndarray:
    """Dyck-2 over DYCK2_ALPHABET ('(', '[', ')', ']'): balanced; each closer matches the last opener.

    The stack of opener kinds (0 or 1) is a uint64 bit stack per string (push: shift in the kind; pop:
    shift out), every step elementwise over the batch; strings longer than 63 symbols keep an explicit
    stack per depth."""
    X = check_symbols(X, 4)
    B, n = X.shape
    if n > 63:
        return _dyck2_deep(X)
    stack = np.zeros(B, dtype=np.uint64)
    depth = np.zeros(B, dtype=np.int64)
    alive = np.ones(B, dtype=bool)
    out = np.empty((n + 1, B), dtype=bool)
    out[0] = True
    one = np.uint64(1)
    for t in range(n):
        col = X[:, t]
        opener = col <= 1
        alive &= opener | ((depth > 0) & ((stack & one).astype(np.int64) == col - 2))
        stack = np.where(opener, (stack << one) | col.astype(np.uint64), stack >> one)
        depth = np.where(opener, depth + 1, np.maximum(depth - 1, 0))
        out[t + 1] = alive & (depth == 0)
    return out.T


def _dyck2_deep(X: np.ndarray) -> np.ndarray:
    """Dyck-2 with an explicit (B, n + 1) stack of opener kinds, for any length."""
    B, n = X.shape
    stack = np.zeros((B, n + 1), dtype=np.int64)
    depth = np.zeros(B, dtype=np.int64)
    alive = np.ones(B, dtype=bool)
    rows_idx = np.arange(B)
    out = np.zeros((B, n + 1), dtype=bool)
    out[:, 0] = True
    for t in range(n):
        col = X[:, t]
        opener = col <= 1
        top = stack[rows_idx, np.maximum(depth - 1, 0)]
        alive &= opener | ((depth > 0) & (top == col - 2))
        stack[rows_idx, depth] = np.where(opener, col, stack[rows_idx, depth])
        depth = np.where(opener, depth + 1, np.maximum(depth - 1, 0))
        out[:, t + 1] = alive & (depth == 0)
    return out


def embed_family(language: PrefixFn, alice: Callable[[np.ndarray], np.ndarray],
                 bob: Callable[[np.ndarray], np.ndarray]) -> PrefixFn:
    """A binary instance family: x.y (|x| = |y| = N) -> language on alice(x).bob(y), bob symbol-wise.

    Column N + k of the result is the language's acceptance of alice(x).bob(y[:k]); columns < N (Alice's
    own prefixes) are False and carry no information. Only even-length inputs are meaningful.
    """

    def family(X: np.ndarray) -> np.ndarray:
        X = check_symbols(X, 2)
        B, n = X.shape
        if n % 2:
            raise InputError("X", "an even number of columns (Alice's and Bob's halves)", n)
        N = n // 2
        left = alice(X[:, :N])
        P = check_prefix_output(language(np.concatenate([left, bob(X[:, N:])], axis=1)),
                                B, left.shape[1] + N, "language")
        out = np.zeros((B, n + 1), dtype=bool)
        out[:, N:] = P[:, left.shape[1]:]
        return out

    return family


def _with_middle(middle: Sequence[int], split: int | None = None) -> Callable[[np.ndarray], np.ndarray]:
    """Alice's map: her bits (as symbols 0/1), with ``middle`` appended, and optionally a '+' (2) at split."""

    def alice(x: np.ndarray) -> np.ndarray:
        parts = [x] if split is None else [x[:, :split], np.full((x.shape[0], 1), 2), x[:, split:]]
        parts.append(np.tile(np.asarray(middle, dtype=np.int64), (x.shape[0], 1)))
        return np.concatenate(parts, axis=1).astype(np.int64)

    return alice


def _identity(y: np.ndarray) -> np.ndarray:
    """Bob's symbols unchanged."""
    return y


def _offset(delta: int) -> Callable[[np.ndarray], np.ndarray]:
    """Symbol-wise map b -> b + delta."""
    return lambda y: y + delta


copy_marked_family: PrefixFn = embed_family(copy_marked_language, _with_middle([2]), _identity)
copy_marked_family.__doc__ = "Copy with a marker: x # y over {a, b, #}; Bob checks y[:k] against x. 2^N rows."

addition_zero_family: PrefixFn = embed_family(addition_language, _with_middle([2, 0, 3]), _identity)
addition_zero_family.__doc__ = ("Addition sub-family a + 0 = c (Cor. 13 / Cor. 20): Alice holds a = x (N "
                                "bits) and Bob writes c = y; row determined by val(x). 2^N rows.")

dyck2_family: PrefixFn = embed_family(dyck2_language, _with_middle([]), _offset(2))
dyck2_family.__doc__ = ("Dyck-2 family of Remark 21: u = x over {(, [}, v = y over {), ]}; u.v in Dyck-2 "
                        "iff y_i closes x_{N+1-i}. 2^N rows.")


def addition_split_family(split: int) -> PrefixFn:
    """Addition with Alice holding both operands: a = x[:split], b = x[split:], Bob writes c = y.

    Rows = number of distinct sums = 2^split + 2^(N-split) - 1 when 1 <= split <= N - 1 (the sum has at
    most N bits, so Bob can write it); still exponential for split = N/2."""
    if not isinstance(split, int) or split < 1:
        raise InputError("split", "an integer >= 1", split)
    return embed_family(addition_language, _with_middle([3], split), _identity)
