"""The data structures of the bottom-up program enumeration (:mod:`proofkit.crasp.search.enumerate`): the
sample, a prefix-closed set of words stored as the nodes of its trie (``Sample(k, n)``: every string of
length <= n; ``PrefixSample(k, words)``: any prefix-closed set), and the store of kept behaviours of one
sort with its exact, hash-bucketed deduplication."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...errors import InputError
from .hashindex import HashIndex

MAX_NODES = 1 << 16


class Sample:
    """Every string of length <= n over k letters as the nodes of the prefix trie, level by level.

    ``anc[d]`` (d = 0..n) is (index of each node's ancestor at distance d, whether that ancestor is a real
    position, depth >= 1); at d = n no node has one, so larger distances would add only all-false rows
    (the enumeration stops its local offsets there)."""

    def __init__(self, k: int, n: int) -> None:
        self.k, self.n = k, n
        self.start = [sum(k**j for j in range(L)) for L in range(n + 2)]
        self.N = self.start[-1]
        if self.N > MAX_NODES:
            raise InputError("n", f"at most {MAX_NODES} sample strings (k^0 + ... + k^n)", self.N)
        self.depth = np.concatenate([np.full(k**L, L, dtype=np.int64) for L in range(n + 1)])
        offs = np.concatenate([np.arange(k**L, dtype=np.int64) for L in range(n + 1)])
        self.last = np.where(self.depth > 0, offs % k, -1)
        self.anc: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for d in range(0, n + 1):  # ancestor at distance d, valid when it is a real position (depth >= 1)
            valid = self.depth - d >= 1
            idx = np.zeros(self.N, dtype=np.int64)
            L = self.depth[valid] - d
            idx[valid] = np.array(self.start)[L] + offs[valid] // k**d
            self.anc[d] = (idx, valid)

    def strings(self) -> int:
        """Number of sample strings."""
        return self.N

    def from_prefixes(self, acc: np.ndarray) -> np.ndarray:
        """Per-node values from a (k^n, n + 1) per-prefix array over all strings of length n."""
        out = np.empty(self.N, dtype=acc.dtype)
        for L in range(self.n + 1):
            rows = np.arange(self.k**L, dtype=np.int64) * self.k ** (self.n - L)
            out[self.start[L]: self.start[L + 1]] = acc[rows, L]
        return out

    def tree_cumsum(self, B: np.ndarray, dtype: Any) -> np.ndarray:
        """#B at every node of every row: the sum of B over the node's real ancestors (and itself)."""
        out = np.zeros(B.shape, dtype=dtype)
        for L in range(1, self.n + 1):
            a, b, c = self.start[L - 1], self.start[L], self.start[L + 1]
            out[:, b:c] = np.repeat(out[:, a:b], self.k, axis=1) + B[:, b:c]
        return out


class PrefixSample:
    """An arbitrary prefix-closed set of words over k letters as the nodes of its trie, level by level.

    Same interface as :class:`Sample` (``N``, ``depth``, ``last``, ``anc``, ``tree_cumsum``), with explicit
    parent pointers; within a level the nodes are in lexicographic order, so the complete set of strings of
    length <= n gives the nodes of ``Sample(k, n)`` in the same order."""

    def __init__(self, k: int, words: Any) -> None:
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise InputError("k", "an alphabet size >= 1", k)
        try:
            ws = {tuple(int(a) for a in w) for w in words}
        except (TypeError, ValueError):
            raise InputError("words", "an iterable of words (sequences of letter indices)", words) from None
        if not ws:
            raise InputError("words", "a non-empty prefix-closed set of words", "no words")
        if len(ws) > MAX_NODES:
            raise InputError("words", f"at most {MAX_NODES} words (sample nodes)", len(ws))
        for w in sorted(ws, key=lambda w: (len(w), w)):
            if any(not 0 <= a < k for a in w):
                raise InputError("words", f"letter indices in [0, {k})", list(w))
            if w and w[:-1] not in ws:
                raise InputError("words", "a prefix-closed set (every prefix of a word is a word)",
                                 f"{list(w)} without its prefix {list(w[:-1])}")
        self.k = k
        order = sorted(ws, key=lambda w: (len(w), w))
        self.words = order
        index = {w: i for i, w in enumerate(order)}
        self.N = len(order)
        self.n = len(order[-1])
        self.depth = np.array([len(w) for w in order], dtype=np.int64)
        self.last = np.array([w[-1] if w else -1 for w in order], dtype=np.int64)
        self.parent = np.array([index[w[:-1]] if w else 0 for w in order], dtype=np.int64)
        self.start = np.searchsorted(self.depth, np.arange(self.n + 2)).tolist()  # level L: start[L]..
        self.anc: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        idx = np.arange(self.N, dtype=np.int64)
        for d in range(0, self.n + 1):  # ancestor at distance d, valid when it is a real position
            self.anc[d] = (np.where(self.depth - d >= 1, idx, 0), self.depth - d >= 1)
            idx = self.parent[idx]

    @classmethod
    def closure(cls, k: int, words: Any) -> PrefixSample:
        """The sample of every prefix of the given words."""
        return cls(k, {tuple(w[:i]) for w in (tuple(int(a) for a in w) for w in words)
                       for i in range(len(w) + 1)})

    def strings(self) -> int:
        """Number of sample words (nodes)."""
        return self.N

    def values(self, fn: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """Per-node values of a causal per-prefix function fn: X (B, L) -> (B, L + 1), called once per
        length of the words that are no proper prefix of another word (the trie's leaves)."""
        below = np.arange(self.N, dtype=np.int64)  # a leaf below each node
        for u in range(self.N - 1, 0, -1):
            below[self.parent[u]] = below[u]
        out = np.zeros(self.N, dtype=bool)
        leaves = np.unique(below)
        for L in np.unique(self.depth[leaves]).tolist():
            group = leaves[self.depth[leaves] == L]
            X = np.array([self.words[i] for i in group], dtype=np.int64).reshape(len(group), L)
            vals = np.asarray(fn(X))
            row = {int(g): r for r, g in enumerate(group)}
            nodes = np.flatnonzero(np.isin(below, group))
            out[nodes] = vals[[row[int(below[u])] for u in nodes], self.depth[nodes]]
        return out

    def tree_cumsum(self, B: np.ndarray, dtype: Any) -> np.ndarray:
        """#B at every node of every row: the sum of B over the node's real ancestors (and itself)."""
        out = np.zeros(B.shape, dtype=dtype)
        for L in range(1, self.n + 1):
            a, b = self.start[L], self.start[L + 1]
            out[:, a:b] = out[:, self.parent[a:b]] + B[:, a:b]
        return out


def _mix(h: np.ndarray) -> np.ndarray:
    """A 64-bit finalizer (splitmix64) applied elementwise."""
    h = h ^ (h >> np.uint64(30))
    h = h * np.uint64(0xBF58476D1CE4E5B9)
    h = h ^ (h >> np.uint64(27))
    h = h * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


class BehaviourStore:
    """Kept behaviours of one sort: rows (padded to whole 64-bit words), provenance, and the hash index."""

    def __init__(self, width_bytes: int, dtype: Any, cap: int) -> None:
        self.dtype = np.dtype(dtype)
        self.width = width_bytes // self.dtype.itemsize  # row length in elements
        self.cap = cap
        self.rows = np.zeros((min(cap, 1024), self.width), dtype=self.dtype)
        self.meta = np.zeros((min(cap, 1024), 5), dtype=np.int32)  # kind, param, a, b, c (row indices < cap)
        self.size = np.zeros(min(cap, 1024), dtype=np.int32)
        self.n = 0
        self.index = HashIndex(min(cap, 1024))  # first row per hash -> its index
        self.collide: dict[bytes, int] = {}
        rng = np.random.default_rng(20241002)
        odd = rng.integers(1, 2**63, size=width_bytes // 8, dtype=np.uint64)
        self.mult = odd * np.uint64(2) + np.uint64(1)
        self.salt = rng.integers(0, 2**63, size=width_bytes // 8, dtype=np.uint64)
        self.full = False
        self.candidates = 0

    def hash(self, rows: np.ndarray) -> np.ndarray:
        """64-bit hashes of padded rows (exact equality is checked separately). Every word is mixed before
        the weighted sum: in a plain sum of odd multiples a change in a word's top byte meets only the
        multipliers' low bits, and sibling rows collided about once per 20 rows on HYB24.NEG."""
        words = np.ascontiguousarray(rows).view(np.uint64)
        with np.errstate(over="ignore"):
            return _mix((_mix(words ^ self.salt) * self.mult).sum(axis=1, dtype=np.uint64))

    def _grow(self, extra: int) -> None:
        """Room for ``extra`` more rows. Arrays grow in place where numpy allows it (``ndarray.resize``
        reallocates, and the C library remaps large blocks instead of copying them), so the peak stays near
        one copy of the store instead of two; an array that another object still views is copied instead.
        Growing in place is cheap, so capacity grows by a quarter (resize zero-fills, so spare rows are
        resident memory)."""
        need = self.n + extra
        if need <= len(self.rows):
            return
        new = min(self.cap, max(need, len(self.rows) + len(self.rows) // 4))
        for attr in ("rows", "meta", "size"):
            shape = (new,) + getattr(self, attr).shape[1:]
            try:  # no local name for the array: numpy's refcheck refuses while anything else refers to it
                getattr(self, attr).resize(shape)
            except ValueError:
                old = getattr(self, attr)
                buf = np.zeros(shape, dtype=old.dtype)
                buf[: self.n] = old[: self.n]
                setattr(self, attr, buf)

    def find(self, row: np.ndarray, h: int) -> int:
        """Index of a kept behaviour equal to row, or -1 (exact)."""
        j = int(self.index.get(np.array([h], dtype=np.uint64))[0])
        if j >= 0 and np.array_equal(self.rows[j], row):
            return j
        return self.collide.get(row.tobytes(), -1) if j >= 0 else -1

    def _insert(self, row: np.ndarray, h: int, meta: np.ndarray, size: int) -> int:
        j = self.n
        self.rows[j], self.meta[j], self.size[j] = row, meta, size
        if self.index.get(np.array([h], dtype=np.uint64))[0] >= 0:
            self.collide[row.tobytes()] = j
        else:
            self.index.put(np.array([h], dtype=np.uint64), np.array([j]))
        self.n += 1
        return j

    def add(self, rows: np.ndarray, meta: np.ndarray, size: int) -> int:
        """Keep the rows whose behaviour is new (the first occurrence wins); returns how many were kept."""
        self.candidates += len(rows)
        if not len(rows) or self.full:
            return 0
        h = self.hash(rows)
        _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
        same = np.all(rows == rows[first[inverse]], axis=1)  # False: a hash collision inside the batch
        order = np.sort(first)  # one representative per hash, in enumeration order
        hits = self.index.get(h[order])
        slow = np.flatnonzero(~same).tolist()
        known = hits >= 0
        if known.any():  # a hash hit must be an exact match, else it goes to the exact slow path
            eq = np.all(self.rows[hits[known]] == rows[order[known]], axis=1)
            slow += order[np.flatnonzero(known)[~eq]].tolist()
        if slow:  # a hash collision (about never with the mixed hash): the whole batch exactly, in order
            return self._add_in_order(rows, h, meta, size)
        new = order[~known]
        room = self.cap - self.n
        if len(new) > room:
            new, self.full = new[:room], True
        self._grow(len(new) + len(slow))
        j = self.n
        self.rows[j: j + len(new)] = rows[new]
        self.meta[j: j + len(new)] = meta[new]
        self.size[j: j + len(new)] = size
        self.index.put(h[new], np.arange(j, j + len(new)))
        self.n += len(new)
        return len(new)

    def _add_in_order(self, rows: np.ndarray, h: np.ndarray, meta: np.ndarray, size: int) -> int:
        """``add`` one row at a time with exact comparisons, so a row whose hash collides keeps its place
        in enumeration order (and under the cap the first new rows are the ones kept)."""
        j = self.n
        for i in range(len(rows)):
            if self.find(rows[i], int(h[i])) >= 0:
                continue
            if self.n >= self.cap:
                self.full = True
                break
            self._grow(1)
            self._insert(rows[i], int(h[i]), meta[i], size)
        return self.n - j
