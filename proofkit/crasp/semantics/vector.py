"""Vectorized C-RASP interpreter: every op at every prefix of a batch of equal-length strings at once.

Strings are an int array X of shape (B, n) of symbol indices in alphabet order. Internally each op's
value is a position-major array of shape (n + 1, B), or (n + 1, 1) / (1, 1) when it does not depend
on the string (true, periodic, constants), so plain counts are one cumulative sum down the positions and
local counts are shifted row sums. Row 0 is the virtual start position (symbol tests false, counts 0).
Counts use the narrowest of int16 / int32 / int64 that the static bound |C(i)| <= M_C (i + 1)
(analysis.count_bounds) proves cannot overflow: narrow counts halve to quarter the memory traffic.

Every array operation goes through ``xp``, a namespace of the Python array API standard (see
:mod:`proofkit.numerics.arrays`; the suite runs this module on array-api-strict, so nothing numpy-only is used
and a CuPy namespace runs the same code on a GPU). Results are exact integers and booleans in every namespace.
``xp=None`` computes in :func:`proofkit.numerics.arrays.namespace` (the ``--backend``) and hands back host
numpy arrays, the boundary for callers that consume results with numpy; an explicit ``xp`` returns arrays of
that namespace (results stay on the device).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy

from ...errors import InputError
from ...numerics import arrays
from ..language.analysis import count_bounds, validate
from ..language.ir import Op, Program
from ..language.parser import Plain
from .interp import symbols_of

INT64_LIMIT = 2**62
CHUNK_CELLS = 2**18  # strings x positions per chunk in accepts_* on the host: bounds memory, stays in cache
DEVICE_CHUNK_CELLS = 2**24  # the same on other namespaces: fewer, larger kernel launches on a GPU
MAX_ENUMERATION = 2**26
ROW_LOOP_WIDTH = 256  # batch width from which counts are accumulated row by row


class _Ctx:
    """What every op kernel needs: the namespace, the transposed strings, the alphabet, the length."""

    def __init__(self, xp: Any, XT: Any, alphabet: tuple[str, ...], count_dtype: Any) -> None:
        self.xp = xp
        self.XT = XT  # (n, B)
        self.n = XT.shape[0]
        self.alphabet = alphabet
        self.index = {s: k for k, s in enumerate(alphabet)}  # symbol -> index in O(1)
        self.cdt = count_dtype

    def full_rows(self, a: Any) -> Any:
        """``a`` broadcast to n + 1 rows (keeping its width)."""
        return self.xp.broadcast_to(a, (self.n + 1, a.shape[1]))


def _sym(op: Op, v: dict, c: _Ctx) -> Any:
    out = c.xp.zeros((c.n + 1, c.XT.shape[1]), dtype=c.xp.bool)
    out[1:, :] = c.XT == c.index[op.symbol]
    return out


def _true(op: Op, v: dict, c: _Ctx) -> Any:
    return c.xp.ones((1, 1), dtype=c.xp.bool)


def _periodic(op: Op, v: dict, c: _Ctx) -> Any:
    pos = c.xp.reshape(c.xp.arange(c.n + 1, dtype=c.xp.int64), (c.n + 1, 1))
    return pos % op.modulus == op.residue


def _const(op: Op, v: dict, c: _Ctx) -> Any:
    return c.xp.full((1, 1), op.value, dtype=c.cdt)


def _not(op: Op, v: dict, c: _Ctx) -> Any:
    return c.xp.logical_not(v[op.args[0]])


def _and(op: Op, v: dict, c: _Ctx) -> Any:
    return c.xp.logical_and(v[op.args[0]], v[op.args[1]])


def _le(op: Op, v: dict, c: _Ctx) -> Any:
    return v[op.args[0]] <= v[op.args[1]]


def _count(op: Op, v: dict, c: _Ctx) -> Any:
    """Row i = sum of rows 1..i of P (row 0 excluded): a cumulative sum down the positions."""
    xp, p = c.xp, c.full_rows(v[op.args[0]])
    if p.shape[1] < ROW_LOOP_WIDTH:
        return xp.cumulative_sum(xp.astype(p[1:, :], c.cdt), axis=0, dtype=c.cdt, include_initial=True)
    out = xp.astype(p, c.cdt)  # for wide batches a loop over rows beats a cumulative sum along axis 0 tenfold
    out[0, :] = 0
    for i in range(1, c.n + 1):
        out[i, :] += out[i - 1, :]
    return out


def _local(op: Op, v: dict, c: _Ctx) -> Any:
    """Row i = sum over offsets d of P at row i - d when i - d >= 1: shifted row blocks."""
    xp = c.xp
    p = xp.astype(c.full_rows(v[op.args[0]]), c.cdt)
    out = xp.zeros(p.shape, dtype=c.cdt)
    for d in op.offsets:
        if d < c.n:
            out[d + 1 :, :] += p[1 : c.n + 1 - d, :]
    return out


def _cond(op: Op, v: dict, c: _Ctx) -> Any:
    return c.xp.where(v[op.args[0]], v[op.args[1]], v[op.args[2]])


def _add(op: Op, v: dict, c: _Ctx) -> Any:
    return v[op.args[0]] + v[op.args[1]]


def _sub(op: Op, v: dict, c: _Ctx) -> Any:
    return v[op.args[0]] - v[op.args[1]]


KERNELS: dict[str, Callable[[Op, dict, _Ctx], Any]] = {
    "sym": _sym, "true": _true, "periodic": _periodic, "const": _const, "not": _not, "and": _and,
    "le": _le, "count": _count, "local": _local, "cond": _cond, "add": _add, "sub": _sub,
}  # fmt: skip


def max_length(program: Program) -> int | None:
    """The longest strings this interpreter runs the program on: every count C has |C(i)| <= M_C (i + 1)
    (analysis.count_bounds) and must stay below INT64_LIMIT; None when no count can grow. Only programs
    with huge constants (the parser allows 18 digits) have a small limit; the reference interpreter
    (interp.evaluate) has none."""
    validate(program)
    bound = max(count_bounds(program).values(), default=0)
    return None if bound == 0 else max(-1, (INT64_LIMIT - 1) // bound - 1)


def _resolve(xp: Any) -> tuple[Any, bool]:
    """The namespace to compute in, and whether results go back to the host (``xp`` None)."""
    return (arrays.namespace(), True) if xp is None else (xp, False)


def _check_batch(program: Program, X: Any, xp: Any) -> Any:
    """X as a (B, n) integer array of ``xp``; also refuses lengths at which a count could overflow int64
    (never wraps), saying the longest length this program allows."""
    validate(program)
    X = arrays.asarray(X, xp)
    if X.ndim != 2 or (math.prod(X.shape) and not xp.isdtype(X.dtype, "integral")):
        got = Plain(f"{X.dtype} array of shape {tuple(X.shape)}")
        raise InputError("X", "an integer array of shape (B, n) of symbol indices", got)
    top = max_length(program)
    if top is not None and X.shape[1] > top:
        bound = max(count_bounds(program).values())
        raise InputError("string length", f"at most {top} for this program (a count can grow by {bound} per "
                         f"position and must fit in int64; crasp eval has no limit)", X.shape[1])
    return X


def _materialize(a: Any, dtype: Any, xp: Any) -> Any:
    """A fresh row-major array of ``a``'s values in ``dtype`` (whatever the strides of ``a``: a transposed
    or broadcast view comes out contiguous, the layout the row kernels are fast on)."""
    out = xp.empty(a.shape, dtype=dtype)
    out[...] = xp.astype(a, dtype, copy=False)
    return out


def _positions_first(X: Any, k: int, xp: Any) -> Any:
    """X transposed to a row-major (n, B) array of small ints, after checking indices are in [0, k)."""
    lo, hi = (int(xp.min(X)), int(xp.max(X))) if math.prod(X.shape) else (0, 0)
    if lo < 0 or hi >= k:
        raise InputError("X", f"symbol indices in [0, {k})", Plain(f"values in [{lo}, {hi}]"))
    small = xp.int8 if k <= 127 else xp.int16 if k <= 32767 else xp.int64
    return _materialize(xp.permute_dims(X, (1, 0)), small, xp)


def _last_uses(program: Program) -> dict[str, int]:
    """Index of the last op reading each op's value (so dead values can be freed early)."""
    last: dict[str, int] = {}
    for k, op in enumerate(program.ops):
        for a in op.args:
            last[a] = k
    return last


def _count_dtype(program: Program, n: int, xp: Any) -> Any:
    """The narrowest signed integer type that holds every count of the program on strings of length n.

    Sums and differences are bounded by the sum of their operands' bounds, so every intermediate of
    an op's kernel is within the op's own bound."""
    bound = (max(count_bounds(program).values(), default=0) + 1) * (n + 1)
    return xp.int16 if bound < 2**15 else xp.int32 if bound < 2**31 else xp.int64


def _run(program: Program, X: Any, xp: Any, keep: set[str] | None) -> dict[str, Any]:
    """Position-major values of the ops; with ``keep`` given, only those survive (memory)."""
    ctx = _Ctx(xp, _positions_first(X, len(program.alphabet), xp), program.alphabet,
               _count_dtype(program, X.shape[1], xp))
    last = _last_uses(program) if keep is not None else {}
    values: dict[str, Any] = {}
    for k, op in enumerate(program.ops):
        values[op.name] = KERNELS[op.kind](op, values, ctx)
        if keep is not None:
            for a in set(op.args):
                if last[a] == k and a not in keep:
                    del values[a]
    return values


def _to_batch(a: Any, shape: tuple[int, int], xp: Any) -> Any:
    """A position-major value as a (B, n + 1) array (materialized; counts widened back to int64)."""
    dtype = xp.bool if a.dtype == xp.bool else xp.int64
    return _materialize(xp.permute_dims(xp.broadcast_to(a, shape), (1, 0)), dtype, xp)


def evaluate_batch(program: Program, X: Any, xp: Any = None,
                   names: Sequence[str] | None = None) -> dict[str, Any]:
    """Value of every op (only ``names``, when given: the others are freed as soon as no op reads them and
    never laid out) at every position 0..n of every string: arrays of shape (B, n + 1)."""
    ns, host = _resolve(xp)
    X = _check_batch(program, X, ns)
    shape = (X.shape[1] + 1, X.shape[0])
    keep = None if names is None else set(names)
    values = {name: _to_batch(a, shape, ns) for name, a in _run(program, X, ns, keep).items()
              if keep is None or name in keep}
    return {name: arrays.to_numpy(a) for name, a in values.items()} if host else values


def accepts_prefixes(program: Program, X: Any, xp: Any = None) -> Any:
    """Acceptance of every prefix: bool array (B, n + 1); column i decides w_1..w_i (column 0: empty)."""
    ns, host = _resolve(xp)
    X = _check_batch(program, X, ns)
    B, n = X.shape
    result = ns.empty((B, n + 1), dtype=ns.bool)
    step = max(1, (CHUNK_CELLS if arrays.is_numpy(ns) else DEVICE_CHUNK_CELLS) // (n + 1))
    for start in range(0, B, step) if B else [0]:  # chunks bound memory (and keep host arrays in cache)
        stop = min(B, start + step)
        out = _run(program, X[start:stop, :], ns, {program.output})[program.output]
        result[start:stop, :] = ns.matrix_transpose(ns.broadcast_to(out, (n + 1, stop - start)))
    return arrays.to_numpy(result) if host else result


def accepts_batch(program: Program, X: Any, xp: Any = None) -> Any:
    """Acceptance of every whole string: bool array (B,)."""
    return accepts_prefixes(program, X, xp)[:, -1]


def all_strings(alphabet_size: int, n: int, xp: Any = None) -> Any:
    """All alphabet_size**n strings of length n as an int64 (k**n, n) array, in lexicographic order.

    The result is the transpose of a position-major buffer, the layout the evaluator works in. ``xp``:
    the namespace to build it in; None builds a host numpy array. (Ranges of strings, e.g. for lengths
    beyond MAX_ENUMERATION: :func:`proofkit.crasp.semantics.truth.all_strings`.)"""
    k = alphabet_size
    if k < 1 or n < 0 or k**n > MAX_ENUMERATION:
        raise InputError("all_strings", f"alphabet size >= 1, n >= 0 and at most {MAX_ENUMERATION} strings",
                         Plain(f"{k}**{n}"))
    ns = arrays.namespace("numpy") if xp is None else xp
    out = ns.empty((n, k**n), dtype=ns.int64)
    symbols = ns.reshape(ns.arange(k, dtype=ns.int64), (1, k, 1))
    for j in range(n):  # position j cycles through the symbols in blocks of k**(n - 1 - j)
        out[j, :] = ns.reshape(ns.broadcast_to(symbols, (k**j, k, k ** (n - 1 - j))), (k**n,))
    return ns.permute_dims(out, (1, 0))


def labelled_strings(program: Program, max_len: int) -> Iterator[tuple[str, bool]]:
    """Every string over the program's alphabet of length 0..max_len (by length, then lexicographic), its
    symbols concatenated, with the program's verdict on the whole string: the cases of an exhaustive
    comparison with another recognizer."""
    for n in range(max_len + 1):
        X = all_strings(len(program.alphabet), n)
        for row, a in zip(X, accepts_prefixes(program, X)[:, -1]):
            yield "".join(program.alphabet[i] for i in row), bool(a)


def encode(program: Program, strings: Sequence[Sequence[str] | str]) -> numpy.ndarray:
    """Strings (str or symbol lists, as for interp.evaluate) of one length as a (B, n) int64 array."""
    rows = [symbols_of(program, s) for s in strings]
    lengths = {len(r) for r in rows}
    if len(lengths) > 1:
        raise InputError("strings", "strings of equal length", Plain(f"lengths {sorted(lengths)}"))
    index = {s: k for k, s in enumerate(program.alphabet)}
    n = lengths.pop() if lengths else 0
    return numpy.array([[index[s] for s in r] for r in rows], dtype=numpy.int64).reshape(len(rows), n)
