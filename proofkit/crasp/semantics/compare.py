"""Comparing prefix-acceptance functions on batches of strings: the batch conventions shared by every
recognizer (symbol-index arrays, all strings of a length in lexicographic order, per-prefix output of shape
(B, n + 1)) and the exhaustive and sampled searches for the shortest, then lexicographically least, string
on which two of them disagree.

A prefix function takes an integer array ``X`` of shape (B, n) holding symbol indices in alphabet order and
returns a Boolean array of shape (B, n + 1) whose column k says whether the prefix ``X[:, :k]`` is accepted
(column 0 is the empty string): the convention of the C-RASP interpreters (proofkit/crasp/language/ir.py) and
of the ground truths of :mod:`proofkit.crasp.semantics.truth`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from proofkit.errors import InputError
from proofkit.runtime import workguard

PrefixFn = Callable[[np.ndarray], np.ndarray]

# ----------------------------------------------------------------------------------------------------
# Batches of strings


def check_symbols(X: Any, alphabet_size: int, field_name: str = "X") -> np.ndarray:
    """Return X as a 2-D integer array with entries in [0, alphabet_size); InputError otherwise."""
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise InputError(field_name, "a 2-D array of symbol indices (batch, length)", arr.shape)
    if arr.size == 0:
        return arr.astype(np.int64)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
        raise InputError(field_name, "an integer array of symbol indices", str(arr.dtype))
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi >= alphabet_size:
        raise InputError(field_name, f"symbol indices in [0, {alphabet_size})", (lo, hi))
    return arr


def all_strings(alphabet_size: int, length: int, start: int = 0, stop: int | None = None,
                xp: Any = None) -> Any:
    """All strings of one length in lexicographic order (rows start..stop-1), as an int64 array.

    ``xp``: the array namespace to build them in (:mod:`proofkit.numerics.arrays`; e.g. on a GPU, next to the
    evaluation); None builds a host numpy array, what prefix functions take by default."""
    if alphabet_size < 1:
        raise InputError("alphabet_size", "an integer >= 1", alphabet_size)
    if length < 0:
        raise InputError("length", "an integer >= 0", length)
    total = alphabet_size**length
    stop = total if stop is None else min(stop, total)
    if xp is None or xp is np:
        return _strings_range_host(alphabet_size, length, start, max(start, stop))
    idx = xp.arange(start, stop, dtype=xp.int64)
    powers = alphabet_size ** xp.arange(length - 1, -1, -1, dtype=xp.int64)
    return (idx[:, None] // powers[None, :]) % alphabet_size


def _strings_range_host(k: int, length: int, start: int, stop: int) -> np.ndarray:
    """``all_strings`` on the host, built position by position: position j holds runs of k**(length-1-j)
    equal symbols, so each position is one ``np.repeat`` of the run symbols by their lengths inside the
    range into a contiguous row (no division per cell, no cell outside the range, and the columns a
    prefix evaluator walks are contiguous). Returned as the (rows, length) transpose of that
    position-major buffer (values exactly as the row-major formula gives them)."""
    out = np.empty((length, stop - start), dtype=np.int64)
    for j in range(length) if stop > start else ():
        block = k ** (length - 1 - j)
        runs = np.arange(start // block, (stop - 1) // block + 1, dtype=np.int64)
        out[j] = np.repeat(runs % k, np.minimum((runs + 1) * block, stop) - np.maximum(runs * block, start))
    return out.T


def iter_string_chunks(alphabet_size: int, length: int, chunk: int) -> Iterator[np.ndarray]:
    """All strings of one length, lexicographically, in chunks of at most ``chunk`` rows."""
    total = alphabet_size**length
    for start in range(0, total, chunk):
        yield all_strings(alphabet_size, length, start, start + chunk)


def check_prefix_output(out: Any, batch: int, length: int, field_name: str, xp: Any = None) -> Any:
    """Validate a prefix function's output: shape (batch, length + 1), converted to bool (an array of the
    namespace ``xp``; None: numpy)."""
    arr = np.asarray(out) if xp is None else xp.asarray(out)
    if tuple(arr.shape) != (batch, length + 1):
        raise InputError(field_name, f"an array of shape ({batch}, {length + 1})", tuple(arr.shape))
    return arr.astype(bool, copy=False) if xp is None else xp.astype(arr, xp.bool)


# ----------------------------------------------------------------------------------------------------
# Exhaustive and sampled comparison


@dataclass(frozen=True)
class Disagreement:
    """A string on which two prefix-acceptance functions differ (shortest, then lexicographically least)."""

    symbols: tuple[int, ...]
    f_value: bool
    truth_value: bool

    @property
    def length(self) -> int:
        """Length of the disagreeing string."""
        return len(self.symbols)

    def text(self, alphabet: Sequence[str]) -> str:
        """The disagreeing string spelled in ``alphabet``."""
        return "".join(alphabet[i] for i in self.symbols)


def as_prefix_fn(obj: Any, field_name: str) -> PrefixFn:
    """A GroundTruth (its accepts_prefixes) or a plain callable, as a prefix function."""
    method = getattr(obj, "accepts_prefixes", None)
    if callable(method):
        return method
    if callable(obj):
        return obj
    raise InputError(field_name, "a callable X -> bool (B, n + 1) or an object with accepts_prefixes", obj)


def _first_disagreement(X: np.ndarray, f: PrefixFn, t: PrefixFn) -> Disagreement | None:
    """Shortest (then first-row) disagreement on one chunk; rows of X are in lexicographic order."""
    B, n = X.shape
    a = check_prefix_output(f(X), B, n, "f_prefixes")
    b = check_prefix_output(t(X), B, n, "truth")
    diff = a != b
    cols = np.flatnonzero(diff.any(axis=0))
    if cols.size == 0:
        return None
    k = int(cols[0])
    r = int(np.argmax(diff[:, k]))
    return Disagreement(tuple(int(v) for v in X[r, :k]), bool(a[r, k]), bool(b[r, k]))


def _better(new: Disagreement | None, old: Disagreement | None) -> bool:
    """Whether ``new`` is shorter, or equally long and lexicographically smaller, than ``old``."""
    if new is None:
        return False
    return old is None or (new.length, new.symbols) < (old.length, old.symbols)


def exhaustive_check(f_prefixes: Any, truth: Any, alphabet_size: int, max_len: int,
                     chunk: int = 1 << 16, per_cell: int = 1, field: str = "max_len") -> Disagreement | None:
    """Compare on all strings of length <= max_len; return the shortest, then lexicographically least,
    disagreeing string, or None. Strings of length max_len are evaluated at every prefix, which covers
    all shorter strings. The work (strings x positions x ``per_cell`` operations of both sides) is
    estimated first and refused above the cap (InputError naming ``field``,
    :mod:`proofkit.runtime.workguard`)."""
    if max_len < 0:
        raise InputError("max_len", "an integer >= 0", max_len)
    workguard.guard(field, workguard.enumeration(alphabet_size, max_len, per_cell))
    f, t = as_prefix_fn(f_prefixes, "f_prefixes"), as_prefix_fn(truth, "truth")
    best: Disagreement | None = None
    for X in iter_string_chunks(alphabet_size, max_len, chunk):
        found = _first_disagreement(X, f, t)
        if _better(found, best):
            best = found
        if best is not None and best.length == 0:
            break
    return best


def sample_check(f_prefixes: Any, truth: Any, alphabet_size: int, length: int, count: int, seed: int = 0,
                 sampler: Callable[[np.random.Generator, int, int], np.ndarray] | None = None,
                 chunk: int = 256) -> Disagreement | None:
    """Compare on ``count`` random strings of one (long) length at every prefix; return the shortest,
    then lexicographically least, disagreeing prefix found, or None. ``sampler(rng, batch, length)``
    replaces uniform sampling (e.g. to draw near-members of a sparse language)."""
    if length < 0 or count < 0:
        raise InputError("length/count", "integers >= 0", (length, count))
    if alphabet_size < 1:
        raise InputError("alphabet_size", "an integer >= 1", alphabet_size)
    f, t = as_prefix_fn(f_prefixes, "f_prefixes"), as_prefix_fn(truth, "truth")
    rng = np.random.default_rng(seed)
    best: Disagreement | None = None
    for start in range(0, count, chunk):
        b = min(chunk, count - start)
        if sampler is None:
            X = rng.integers(0, alphabet_size, size=(b, length), dtype=np.int64)
        else:
            X = check_symbols(sampler(rng, b, length), alphabet_size, "sampler")
        X = X[np.lexsort(X.T[::-1])] if length else X
        found = _first_disagreement(X, f, t)
        if _better(found, best):
            best = found
    return best
