"""Bounded exhaustive search for C-RASP programs, bottom-up by size, with observational-equivalence pruning.

**Grammar and size.** A candidate is one C-RASP expression tree, Boolean at the top. Its size is the
number of nodes of the tree (no sharing): every leaf and every operator counts 1.
  Boolean: Q(a) | true | mod(m, r) [periodic] | not B | B and B | C <= C
  count:   c (a constant of the fragment) | #B | #[d] B [local, one offset d] | B ? C : C | C + C | C - C
Periodic leaves have 2 <= m <= max_modulus (m = 1 is ``true``), local counts a single offset
0 <= d <= max_offset (a set S is the sum of its singletons). Examples: MAJORITY ``#Q(b) <= #Q(a)`` has size
5, (aa)* ``(#Q(b) <= 0) and mod(2, 0)`` size 6. Every tree of size s flattens to at most s IR ops.

**Sample.** Any prefix-closed set of words, stored once each as the nodes of its trie, level by level
(node = prefix; position 0 = the empty prefix, the virtual start position). ``Sample(k, n)`` is the
complete case, all strings of length <= n (the distinct cells of the (strings x positions) array of the
vectorized interpreter), with arithmetic indexing; ``PrefixSample(k, words)`` is the general case with
explicit parent / depth / last-letter arrays (e.g. every prefix of a task's target sequences). A behaviour
is the vector of an expression's values at all nodes.

**Pruning, and why it is sound.** Of all expressions with the same behaviour only the first (smallest)
is kept. The value of an expression at node u (a prefix of length i) depends only on its operands'
values at u and at the ancestors of u (the prefixes of u, positions <= i of the same string):
``#B`` sums B over the ancestors, ``#[d] B`` reads the ancestor at distance d, and every other operator
is pointwise; periodic leaves read the depth. Every sample (complete or not) is prefix-closed: the
ancestors of a node are nodes. So an operator's behaviour is a function of its operands' behaviours
alone, and replacing an operand by an observationally equivalent one leaves the behaviour of the whole
expression unchanged. By induction on size: every behaviour that
some expression of size <= s has is reached by a kept expression of size <= s. Hence if no kept Boolean
expression of size <= s matches the target on the sample, **no** expression of size <= s does; and the
first match found is a smallest consistent program. Equality of behaviours is decided exactly (64-bit
hashes only bucket rows; a hash hit is compared element by element).

**Masked targets** (``search_masked``, ``search_task``). A target may care only about some nodes (bits,
care mask): a behaviour matches when it equals the bits on every cared node. The argument above covers
it unchanged (a matching expression of size <= s has a kept representative of size <= s with the same
behaviour, hence also matching); each size level's new Boolean behaviours are scanned for matches on
packed 64-bit words, ``(row ^ bits) & mask == 0``. ``search_task`` builds the sample from every prefix of
the target sequences x SEP y EOS of a task's valid inputs and, per alphabet symbol s, the target of
``next_s`` at the positions that ``tasks.check_task`` checks (SEP .. last output). A negative on a sample
holds on every larger sample, since consistency on the larger one implies consistency on the smaller.

**What a result means.** "found" = a smallest program consistent with f on the sample (for ``search``
every string of length <= n), then checked exactly at a longer length (it may or may not generalize).
"none found up to size s on strings <= n" is a bounded statement about this grammar and sample, never
"no program exists".

Memory is bounded by ``max_behaviours`` (kept behaviours per sort) and ``CELLS`` (cells per evaluated
candidate batch); when the cap is hit the search stops and reports the last size it completed.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError
from .ir import Program
from .parser import parse
from .truth import GroundTruth, exhaustive_check
from .vector import accepts_prefixes

CELLS = 1 << 23  # candidate cells (behaviours x nodes) evaluated per batch
MAX_NODES = 1 << 16

# kind codes (Boolean sort)
SYM, TRUE, PER, NOT, AND, LE = range(6)
# kind codes (count sort)
CONST, COUNT, LOCAL, COND, ADD, SUB = range(10, 16)


@dataclass(frozen=True)
class Fragment:
    """The searched fragment: which positional leaves are allowed and their bounds, and the constants."""

    periodic: bool = False
    local: bool = False
    max_modulus: int = 2
    max_offset: int = 1
    constants: tuple[int, ...] = (0, 1, 2)

    @classmethod
    def of(cls, spec: str | Fragment, **bounds: Any) -> Fragment:
        """'[]', '[periodic]', '[local]' or '[periodic,local]' (with optional bounds) as a Fragment."""
        if isinstance(spec, Fragment):
            return spec
        tags = {"[]": (False, False), "[periodic]": (True, False), "[local]": (False, True),
                "[periodic,local]": (True, True)}
        if spec not in tags:
            raise InputError("fragment", "one of " + ", ".join(tags), spec)
        frag = cls(*tags[spec], **bounds)
        frag.validate()
        return frag

    def validate(self) -> None:
        """Bounds in range (InputError naming the field otherwise)."""
        if not (isinstance(self.max_modulus, int) and 1 <= self.max_modulus <= 12):
            raise InputError("max_modulus", "an integer in [1, 12]", self.max_modulus)
        if not (isinstance(self.max_offset, int) and 0 <= self.max_offset <= 8):
            raise InputError("max_offset", "an integer in [0, 8]", self.max_offset)
        cs = self.constants
        if not cs or len(set(cs)) != len(cs) or any(not isinstance(c, int) or abs(c) > 9 for c in cs):
            raise InputError("constants", "distinct integers in [-9, 9]", cs)

    def text(self) -> str:
        """E.g. '[periodic,local] (m <= 2, d <= 1, constants 0,1,2)'."""
        tags = [t for t, on in (("periodic", self.periodic), ("local", self.local)) if on]
        bounds = ([f"m <= {self.max_modulus}"] if self.periodic else []) + \
                 ([f"d <= {self.max_offset}"] if self.local else [])
        consts = "constants " + ",".join(map(str, self.constants))
        return f"[{','.join(tags)}] ({', '.join(bounds + [consts])})"


class Sample:
    """Every string of length <= n over k letters as the nodes of the prefix trie, level by level."""

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


class _Store:
    """Kept behaviours of one sort: rows (padded to whole 64-bit words), provenance, and the hash index."""

    def __init__(self, width_bytes: int, dtype: Any, cap: int) -> None:
        self.dtype = np.dtype(dtype)
        self.width = width_bytes // self.dtype.itemsize  # row length in elements
        self.cap = cap
        self.rows = np.zeros((min(cap, 1024), self.width), dtype=self.dtype)
        self.meta = np.zeros((min(cap, 1024), 5), dtype=np.int64)  # kind, param, a, b, c
        self.size = np.zeros(min(cap, 1024), dtype=np.int64)
        self.n = 0
        self.index: dict[int, int] = {}
        self.collide: dict[bytes, int] = {}
        rng = np.random.default_rng(20241002)
        odd = rng.integers(1, 2**63, size=width_bytes // 8, dtype=np.uint64)
        self.mult = odd * np.uint64(2) + np.uint64(1)
        self.full = False
        self.candidates = 0

    def hash(self, rows: np.ndarray) -> np.ndarray:
        """64-bit hashes of padded rows (exact equality is checked separately)."""
        words = np.ascontiguousarray(rows).view(np.uint64)
        with np.errstate(over="ignore"):
            return _mix((words * self.mult).sum(axis=1, dtype=np.uint64))

    def _grow(self, extra: int) -> None:
        need = self.n + extra
        if need <= len(self.rows):
            return
        new = min(self.cap, max(need, 2 * len(self.rows)))
        for attr in ("rows", "meta", "size"):
            old = getattr(self, attr)
            buf = np.zeros((new,) + old.shape[1:], dtype=old.dtype)
            buf[: self.n] = old[: self.n]
            setattr(self, attr, buf)

    def find(self, row: np.ndarray, h: int) -> int:
        """Index of a kept behaviour equal to row, or -1 (exact)."""
        j = self.index.get(h, -1)
        if j >= 0 and np.array_equal(self.rows[j], row):
            return j
        return self.collide.get(row.tobytes(), -1) if j >= 0 else -1

    def _insert(self, row: np.ndarray, h: int, meta: np.ndarray, size: int) -> int:
        j = self.n
        self.rows[j], self.meta[j], self.size[j] = row, meta, size
        if h in self.index:
            self.collide[row.tobytes()] = j
        else:
            self.index[h] = j
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
        hits = np.array([self.index.get(x, -1) for x in h[order].tolist()], dtype=np.int64)
        slow = np.flatnonzero(~same).tolist()
        known = hits >= 0
        if known.any():  # a hash hit must be an exact match, else it goes to the exact slow path
            eq = np.all(self.rows[hits[known]] == rows[order[known]], axis=1)
            slow += order[np.flatnonzero(known)[~eq]].tolist()
        new = order[~known]
        room = self.cap - self.n
        if len(new) > room:
            new, self.full = new[:room], True
        self._grow(len(new) + len(slow))
        j = self.n
        self.rows[j: j + len(new)] = rows[new]
        self.meta[j: j + len(new)] = meta[new]
        self.size[j: j + len(new)] = size
        self.index.update(zip(h[new].tolist(), range(j, j + len(new))))
        self.n += len(new)
        for i in sorted(set(slow)):  # hash collisions: exact path (essentially never taken)
            if self.n >= self.cap:
                self.full = True
                break
            if self.find(rows[i], int(h[i])) < 0:
                self._insert(rows[i], int(h[i]), meta[i], size)
        return self.n - j


@dataclass
class SearchResult:
    """The outcome of ``search``: a smallest consistent program, or the bounded negative with counts."""

    language: str
    fragment: str
    n: int
    max_size: int
    found: bool
    size_completed: int  # every expression of size <= size_completed was covered
    program_text: str | None = None
    expression: str | None = None
    size: int | None = None
    bool_behaviours: int = 0
    count_behaviours: int = 0
    candidates: int = 0
    sample_strings: int = 0
    seconds: float = 0.0
    stopped: str = ""  # why the search stopped early ('' when it ran to max_size or found)
    verify_len: int | None = None
    generalizes: bool | None = None
    witness: str | None = None  # shortest string of length <= verify_len where the program is wrong
    per_size: list[tuple[int, int, int]] = field(default_factory=list)  # (size, bools, counts) kept

    def summary(self) -> str:
        """One line for reports."""
        counts = (f"{self.bool_behaviours} Boolean / {self.count_behaviours} count behaviours kept of "
                  f"{self.candidates} candidates, {self.seconds:.1f} s")
        if self.found:
            gen = ("" if self.generalizes is None else
                   f"; exact check on all strings of length <= {self.verify_len}: "
                   + ("agrees" if self.generalizes else f"fails at {self.witness!r}"))
            return (f"{self.language}: smallest program consistent on strings <= {self.n} in "
                    f"C-RASP{self.fragment}: size {self.size}, {self.expression}{gen} ({counts})")
        stop = f" (stopped: {self.stopped})" if self.stopped else ""
        return (f"{self.language}: none found up to size {self.size_completed} on strings <= {self.n} in "
                f"C-RASP{self.fragment}{stop} ({counts})")


def _truth_fn(truth: GroundTruth | Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    method = getattr(truth, "accepts_prefixes", None)
    if callable(method):
        return method
    if callable(truth):
        return truth
    raise InputError("truth_accepts", "a GroundTruth or a callable X -> bool (B, n + 1)", truth)


def _check_limits(max_size: Any, max_behaviours: Any) -> None:
    """The search bounds: expression size in [1, 30], at least 16 kept behaviours per sort."""
    if not isinstance(max_size, int) or isinstance(max_size, bool) or not 1 <= max_size <= 30:
        raise InputError("max_size", "an integer in [1, 30]", max_size)
    if not isinstance(max_behaviours, int) or max_behaviours < 16:
        raise InputError("max_behaviours", "an integer >= 16", max_behaviours)


class _Search:
    """State of one bottom-up enumeration (see the module docstring)."""

    def __init__(self, alphabet: tuple[str, ...], frag: Fragment, sample: Sample | PrefixSample,
                 max_behaviours: int) -> None:
        self.alphabet, self.frag = alphabet, frag
        self.S = sample
        N = self.S.N
        self.N = N
        self.bw = -(-N // 64) * 8  # packed Boolean row bytes
        self.cw = -(-N // 4) * 8  # int16 count row bytes
        self.B = _Store(self.bw, np.uint8, max_behaviours)
        self.C = _Store(self.cw, np.int16, max_behaviours)
        self.bstart: dict[int, int] = {}
        self.cstart: dict[int, int] = {}
        self.bend: dict[int, int] = {}
        self.cend: dict[int, int] = {}
        self.limit = 30000  # |count values| bound checked after each batch (int16 safety)

    # -- row conversions
    def pack(self, bits: np.ndarray) -> np.ndarray:
        out = np.zeros((len(bits), self.bw), dtype=np.uint8)
        out[:, : -(-self.N // 8)] = np.packbits(bits, axis=1)
        return out

    def unpack(self, idx: np.ndarray) -> np.ndarray:
        return np.unpackbits(self.B.rows[idx], axis=1, count=self.N).astype(bool)

    def crow(self, vals: np.ndarray) -> np.ndarray:
        if vals.size and int(np.abs(vals).max()) > self.limit:
            raise InputError("n", "lengths at which every count fits in int16", int(np.abs(vals).max()))
        out = np.zeros((len(vals), self.cw // 2), dtype=np.int16)
        out[:, : self.N] = vals
        return out

    def counts(self, idx: np.ndarray) -> np.ndarray:
        return self.C.rows[idx, : self.N].astype(np.int32)

    # -- batches
    @staticmethod
    def _meta(kind: int, param: Any, a: Any = -1, b: Any = -1, c: Any = -1, m: int = 0) -> np.ndarray:
        out = np.empty((m, 5), dtype=np.int64)
        out[:, 0], out[:, 1], out[:, 2], out[:, 3], out[:, 4] = kind, param, a, b, c
        return out

    def leaves(self) -> None:
        S, k = self.S, len(self.alphabet)
        rows = [S.last == a for a in range(k)] + [np.ones(self.N, dtype=bool)]
        meta = [(SYM, a) for a in range(k)] + [(TRUE, 0)]
        if self.frag.periodic:
            for m in range(2, self.frag.max_modulus + 1):
                for r in range(m):
                    rows.append(S.depth % m == r)
                    meta.append((PER, m * 64 + r))
        self.B.add(self.pack(np.array(rows)), np.array([[kd, p, -1, -1, -1] for kd, p in meta]), 1)
        cs = self.frag.constants
        self.C.add(self.crow(np.tile(np.array(cs)[:, None], (1, self.N))),
                   np.array([[CONST, c, -1, -1, -1] for c in cs]), 1)

    def pairs(self, rows: range, cols: range, triangle: int = 0) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Index pairs (i in rows, j in cols), at most CELLS cells per chunk; triangle 1: i < j, 2: i <= j."""
        per = max(1, CELLS // max(1, self.N) // max(1, len(cols)))
        for i0 in range(rows.start, rows.stop, per):
            ii = np.arange(i0, min(rows.stop, i0 + per), dtype=np.int64)
            jj = np.arange(cols.start, cols.stop, dtype=np.int64)
            a, b = np.repeat(ii, len(jj)), np.tile(jj, len(ii))
            if triangle:
                keep = a < b if triangle == 1 else a <= b
                a, b = a[keep], b[keep]
            step = max(1, CELLS // max(1, self.N))
            for s0 in range(0, len(a), step):
                yield a[s0: s0 + step], b[s0: s0 + step]

    def grow(self, s: int) -> None:
        """Enumerate size s (leaves at s = 1) and record which kept rows are new at this size."""
        self.bstart[s], self.cstart[s] = self.B.n, self.C.n
        self.leaves() if s == 1 else self.level(s)
        self.bend[s], self.cend[s] = self.B.n, self.C.n

    def rng(self, store: str, s: int) -> range:
        st, en = (self.bstart, self.bend) if store == "B" else (self.cstart, self.cend)
        return range(st.get(s, 0), en.get(s, 0))

    def level(self, s: int) -> None:
        """Generate every expression of size s from kept operands (sizes < s)."""
        S, B, C = self.S, self.B, self.C
        for i0 in self._chunks(self.rng("B", s - 1)):  # unary on Booleans
            bits = self.unpack(i0)
            m = len(i0)
            B.add(self.pack(~bits), self._meta(NOT, 0, i0, m=m), s)
            C.add(self.crow(S.tree_cumsum(bits, np.int32)), self._meta(COUNT, 0, i0, m=m), s)
            if self.frag.local:
                for d in range(self.frag.max_offset + 1):
                    idx, valid = S.anc[d]
                    C.add(self.crow(bits[:, idx] & valid), self._meta(LOCAL, d, i0, m=m), s)
        for s1 in range(1, s - 1):  # binary
            s2 = s - 1 - s1
            if s1 <= s2:
                for a, b in self.pairs(self.rng("B", s1), self.rng("B", s2), 1 if s1 == s2 else 0):
                    B.add(B.rows[a] & B.rows[b], self._meta(AND, 0, a, b, m=len(a)), s)
                for a, b in self.pairs(self.rng("C", s1), self.rng("C", s2), 2 if s1 == s2 else 0):
                    C.add(self.crow(self.counts(a) + self.counts(b)), self._meta(ADD, 0, a, b, m=len(a)), s)
            for a, b in self.pairs(self.rng("C", s1), self.rng("C", s2)):
                x, y = self.counts(a), self.counts(b)
                B.add(self.pack(x <= y), self._meta(LE, 0, a, b, m=len(a)), s)
                C.add(self.crow(x - y), self._meta(SUB, 0, a, b, m=len(a)), s)
        for s1 in range(1, s - 2):  # ternary: cond
            for s2 in range(1, s - 1 - s1):
                s3 = s - 1 - s1 - s2
                CB, CC1, CC2 = self.rng("B", s1), self.rng("C", s2), self.rng("C", s3)
                if not (len(CB) and len(CC1) and len(CC2)):
                    continue
                for p0 in self._chunks(CB):
                    conds = self.unpack(p0)
                    for a, b in self.pairs(CC1, CC2):
                        x, y = self.counts(a), self.counts(b)
                        for q, bits in zip(p0.tolist(), conds):
                            C.add(self.crow(np.where(bits, x, y)), self._meta(COND, 0, q, a, b, m=len(a)), s)

    def _chunks(self, r: range) -> Iterator[np.ndarray]:
        step = max(1, CELLS // max(1, self.N) // 4)
        for i0 in range(r.start, r.stop, step):
            yield np.arange(i0, min(r.stop, i0 + step), dtype=np.int64)

    # -- expression text
    def text(self, sort: str, i: int, alphabet: Sequence[str] | None = None) -> str:
        """Surface text of kept behaviour i over the alphabet (operands parenthesized unless atomic)."""
        alphabet = self.alphabet if alphabet is None else alphabet
        store = self.B if sort == "B" else self.C
        kind, p, a, b, c = (int(x) for x in store.meta[i])

        def sub(srt: str, j: int) -> str:
            st = self.B if srt == "B" else self.C
            kd, pj = int(st.meta[j, 0]), int(st.meta[j, 1])
            atomic = kd in (SYM, TRUE, PER, COUNT, LOCAL) or (kd == CONST and pj >= 0)
            t = self.text(srt, j, alphabet)
            return t if atomic else f"({t})"

        if kind == SYM:
            s = alphabet[p]
            return f"Q({s})" if s.isalnum() else f"Q('{s}')"
        if kind == TRUE:
            return "true"
        if kind == PER:
            return f"mod({p // 64}, {p % 64})"
        if kind == NOT:
            return f"not {sub('B', a)}"
        if kind == AND:
            return f"{sub('B', a)} and {sub('B', b)}"
        if kind == LE:
            return f"{sub('C', a)} <= {sub('C', b)}"
        if kind == CONST:
            return str(p)
        if kind == COUNT:
            return f"#{sub('B', a)}"
        if kind == LOCAL:
            return f"#[{p}] {sub('B', a)}"
        if kind == COND:
            return f"{sub('B', a)} ? {sub('C', b)} : {sub('C', c)}"
        return f"{sub('C', a)} {'+' if kind == ADD else '-'} {sub('C', b)}"


def _alphabet_text(alphabet: Sequence[str]) -> str:
    return " ".join(s if s.isalnum() else f"'{s}'" for s in alphabet)


def program_of(alphabet: Sequence[str], expression: str, name: str = "found") -> Program:
    """The one-statement program 'L := expression' over the alphabet (parsed, never executed)."""
    return parse(f"alphabet: {_alphabet_text(alphabet)}\nL := {expression}\n", name=name)


def _alpha(alphabet: Any) -> tuple[str, ...]:
    alpha = tuple(alphabet) if isinstance(alphabet, (str, list, tuple)) else ()
    if not alpha or len(set(alpha)) != len(alpha) or any(not isinstance(a, str) or not a for a in alpha):
        raise InputError("alphabet", "a non-empty sequence of distinct symbols", alphabet)
    return alpha


def search_all(truths: Sequence[tuple[str, Sequence[str], Any]], fragment: str | Fragment, max_size: int,
               n: int, verify_len: int | None = None, max_behaviours: int = 400_000) -> list[SearchResult]:
    """``search`` for several languages (name, alphabet, truth) over alphabets of one size, sharing one
    enumeration: the enumeration depends only on the alphabet size, the fragment and n."""
    t0 = time.perf_counter()
    if not truths:
        raise InputError("truths", "at least one (name, alphabet, ground truth)", truths)
    alphas = [_alpha(a) for _, a, _ in truths]
    k = len(alphas[0])
    if any(len(a) != k for a in alphas):
        raise InputError("truths", "languages over alphabets of one size", [len(a) for a in alphas])
    for (name, _, t), a in zip(truths, alphas):
        ta = getattr(t, "alphabet", None)
        if ta is not None and tuple(ta) != a:
            raise InputError("alphabet", f"the ground truth's alphabet {list(ta)} for {name}", list(a))
    frag = Fragment.of(fragment)
    _check_limits(max_size, max_behaviours)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise InputError("n", "an integer >= 0", n)
    fns = [_truth_fn(t) for _, _, t in truths]
    st = _Search(alphas[0], frag, Sample(k, n), max_behaviours)
    Xn = (np.stack(np.unravel_index(np.arange(k**n), (k,) * n), axis=1).astype(np.int64) if n
          else np.zeros((1, 0), dtype=np.int64))
    targets = []
    for f in fns:
        row = st.pack(st.S.from_prefixes(np.asarray(f(Xn), dtype=bool))[None, :])[0]
        targets.append((row, int(st.B.hash(row[None, :])[0])))
    results = [SearchResult(name, frag.text(), n, max_size, False, 0, sample_strings=st.S.N)
               for name, _, _ in truths]
    hits = [-1] * len(truths)
    stopped = ""
    for s in range(1, max_size + 1):
        st.grow(s)
        for i, (row, th) in enumerate(targets):
            if hits[i] < 0:
                hits[i] = st.B.find(row, th)
                results[i].per_size.append((s, st.B.n - st.bstart[s], st.C.n - st.cstart[s]))
                if hits[i] >= 0 or st.B.full or st.C.full:
                    _close(results[i], st, time.perf_counter() - t0)
                else:
                    results[i].size_completed = s
        if all(h >= 0 for h in hits):
            break
        if st.B.full or st.C.full:
            stopped = f"behaviour cap {max_behaviours} reached during size {s}"
            break
    for i, r in enumerate(results):
        if hits[i] < 0:
            r.stopped = stopped
            if not r.seconds:
                _close(r, st, time.perf_counter() - t0)
            continue
        r.found, r.size = True, int(st.B.size[hits[i]])
        r.size_completed = r.size - 1
        r.expression = st.text("B", hits[i], alphas[i])
        r.program_text = f"alphabet: {_alphabet_text(alphas[i])}\nL := {r.expression}\n"
        if verify_len is not None:
            prog = program_of(alphas[i], r.expression, name=f"smallest for {r.language}")
            r.verify_len = verify_len
            d = exhaustive_check(lambda X, prog=prog: accepts_prefixes(prog, X), fns[i], k, verify_len)
            r.generalizes = d is None
            r.witness = None if d is None else d.text(alphas[i])
    return results


def explore(alphabet: Sequence[str], fragment: str | Fragment, max_size: int, n: int | PrefixSample,
            max_behaviours: int = 400_000) -> tuple[np.ndarray, np.ndarray, list[str], Sample | PrefixSample]:
    """Every kept Boolean behaviour of size <= max_size: bits over the sample nodes (M, N), sizes (M,) and
    texts, plus the sample (for cross-checks of the pruning against an unpruned enumeration); the sample
    is every string of length <= n, or the given prefix-closed sample."""
    alpha = _alpha(alphabet)
    if isinstance(n, PrefixSample) and n.k != len(alpha):
        raise InputError("sample", f"a sample over {len(alpha)} letters", n.k)
    sample = n if isinstance(n, PrefixSample) else Sample(len(alpha), n)
    st = _Search(alpha, Fragment.of(fragment), sample, max_behaviours)
    for s in range(1, max_size + 1):
        st.grow(s)
    idx = np.arange(st.B.n, dtype=np.int64)
    return st.unpack(idx), st.B.size[: st.B.n].copy(), [st.text("B", int(i)) for i in idx], st.S


def _close(r: SearchResult, st: _Search, seconds: float) -> None:
    """Record the enumeration effort at the moment a language's search is decided."""
    r.bool_behaviours, r.count_behaviours = st.B.n, st.C.n
    r.candidates = st.B.candidates + st.C.candidates
    r.seconds = seconds


def search(truth_accepts: GroundTruth | Callable[[np.ndarray], np.ndarray], alphabet: Sequence[str],
           fragment: str | Fragment, max_size: int, n: int, verify_len: int | None = None,
           max_behaviours: int = 400_000, name: str = "") -> SearchResult:
    """The smallest program (tree size) in the fragment that agrees with the language on every string of
    length <= n, verified exactly at verify_len; or the bounded negative 'none found up to size s'."""
    lang = name or getattr(truth_accepts, "name", "f")
    return search_all([(lang, alphabet, truth_accepts)], fragment, max_size, n, verify_len, max_behaviours)[0]


@dataclass
class MaskedMatch:
    """One masked target of :func:`search_masked`: the smallest expression matching it on the cared nodes."""

    name: str
    cared: int  # number of sample nodes where the target is cared about
    found: bool = False
    size_completed: int = 0  # every expression of size <= size_completed was covered
    expression: str | None = None
    size: int | None = None

    def text(self) -> str:
        """'name := expression (size s)' or 'name: none found up to size s'."""
        if self.found:
            return f"{self.name} := {self.expression} (size {self.size})"
        return f"{self.name}: none found up to size {self.size_completed}"


@dataclass
class MaskedSearch:
    """The outcome of :func:`search_masked`: per target the smallest match or the bounded negative."""

    fragment: str
    max_size: int
    sample_nodes: int
    matches: list[MaskedMatch]
    bool_behaviours: int = 0
    count_behaviours: int = 0
    candidates: int = 0
    seconds: float = 0.0
    stopped: str = ""  # why the enumeration stopped early ('' when it ran to max_size or found all)
    per_size: list[tuple[int, int, int]] = field(default_factory=list)  # (size, bools, counts) kept

    def counts(self) -> str:
        """The enumeration effort in words."""
        return (f"{self.bool_behaviours} Boolean / {self.count_behaviours} count behaviours kept of "
                f"{self.candidates} candidates, {self.seconds:.1f} s")


def _masked_rows(st: _Search, r: range, target: np.ndarray, mask: np.ndarray) -> int:
    """Index of the first kept Boolean row in r that equals target on the mask (packed, 64-bit words)."""
    w = st.bw // 8
    step = max(1, CELLS // max(1, w) // 8)
    for a in range(r.start, r.stop, step):
        rows = st.B.rows[a: min(r.stop, a + step)].view(np.uint64)
        ok = np.flatnonzero(~((rows ^ target) & mask).any(axis=1))
        if len(ok):
            return a + int(ok[0])
    return -1


def search_masked(alphabet: Sequence[str], sample: Sample | PrefixSample,
                  targets: Sequence[tuple[str, Any, Any]], fragment: str | Fragment, max_size: int,
                  max_behaviours: int = 400_000) -> MaskedSearch:
    """Smallest Boolean expressions (one shared enumeration) matching masked targets (name, bits, care mask)
    over the sample nodes: a behaviour matches when it equals the bits on every cared node."""
    t0 = time.perf_counter()
    alpha = _alpha(alphabet)
    if not isinstance(sample, (Sample, PrefixSample)) or sample.k != len(alpha):
        raise InputError("sample", f"a Sample or PrefixSample over {len(alpha)} letters", sample)
    frag = Fragment.of(fragment)
    _check_limits(max_size, max_behaviours)
    if not targets:
        raise InputError("targets", "at least one (name, bits, mask)", targets)
    st = _Search(alpha, frag, sample, max_behaviours)
    packed, matches = [], []
    for name, bits, mask in targets:
        b, m = np.asarray(bits), np.asarray(mask)
        if b.shape != (st.N,) or b.dtype != bool:
            raise InputError("bits", f"a Boolean vector of shape ({st.N},) (one per sample node) for {name}",
                             b.shape)
        if m.shape != (st.N,) or m.dtype != bool:
            raise InputError("mask", f"a Boolean vector of shape ({st.N},) (one per sample node) for {name}",
                             m.shape)
        packed.append((st.pack((b & m)[None, :])[0].view(np.uint64), st.pack(m[None, :])[0].view(np.uint64)))
        matches.append(MaskedMatch(str(name), int(m.sum())))
    out = MaskedSearch(frag.text(), max_size, st.N, matches)
    hits = [-1] * len(targets)
    for s in range(1, max_size + 1):
        st.grow(s)
        out.per_size.append((s, st.B.n - st.bstart[s], st.C.n - st.cstart[s]))
        capped = st.B.full or st.C.full
        for i, (t, m) in enumerate(packed):
            if hits[i] < 0:
                hits[i] = _masked_rows(st, st.rng("B", s), t, m)
                if hits[i] < 0 and not capped:
                    matches[i].size_completed = s
        if all(h >= 0 for h in hits):
            break
        if capped:
            out.stopped = f"behaviour cap {max_behaviours} reached during size {s}"
            break
    for i, mt in enumerate(matches):
        if hits[i] >= 0:
            mt.found, mt.size = True, int(st.B.size[hits[i]])
            mt.size_completed = mt.size - 1
            mt.expression = st.text("B", hits[i])
    out.bool_behaviours, out.count_behaviours = st.B.n, st.C.n
    out.candidates = st.B.candidates + st.C.candidates
    out.seconds = time.perf_counter() - t0
    return out


@dataclass
class TaskSearchResult:
    """The outcome of :func:`search_task`: per ``next_`` statement the smallest expression or the bounded
    negative; when all are found, the assembled program and its exact task check at a larger size."""

    task: str
    max_input_len: int
    sequences: int  # target sequences whose prefixes form the sample
    search: MaskedSearch
    program_text: str | None = None
    verify_size: int | None = None
    generalizes: bool | None = None
    failure: str | None = None  # the task check's first failure (the program overfits the sample)

    @property
    def found(self) -> bool:
        """Every next_ statement was found."""
        return all(m.found for m in self.search.matches)

    def summary(self) -> str:
        """One line for reports."""
        s = self.search
        stop = f" (stopped: {s.stopped})" if s.stopped else ""
        head = (f"{self.task} in C-RASP{s.fragment}, per statement up to size {s.max_size}, on every prefix "
                f"of the {self.sequences} target sequences x SEP y EOS with |x| <= {self.max_input_len} "
                f"({s.sample_nodes} nodes; cared: the positions check_task checks): "
                + "; ".join(m.text() for m in s.matches) + stop)
        if self.found and self.verify_size is not None:
            head += ("; assembled program: exact check_task on all valid inputs |x| <= "
                     f"{self.verify_size}: " + ("holds" if self.generalizes else
                                                f"FAILS (overfits the sample): {self.failure}"))
        elif not self.found:
            head += "; no task program of that per-statement size is consistent on the sample"
        return f"{head} ({s.counts()})"


def search_task(task: Any, fragment: str | Fragment, max_size: int, max_input_len: int,
                verify_size: int | None = None, samples: int = 0, sample_len: int = 150, seed: int = 0,
                max_behaviours: int = 400_000) -> TaskSearchResult:
    """Bounded search for a task program (proofkit.crasp.tasks): for every alphabet symbol s the smallest
    ``next_s`` consistent with the task at the positions check_task checks, on every prefix of the target
    sequences of all valid inputs of length <= max_input_len; verified with check_task at verify_size."""
    from . import tasks as tk  # tasks does not import this module; imported here to keep the import light

    if not isinstance(max_input_len, int) or isinstance(max_input_len, bool) or max_input_len < 0:
        raise InputError("max_input_len", "an integer >= 0", max_input_len)
    alpha = _alpha(task.alphabet)
    seqs = []
    for n in task.lengths(max_input_len):
        X = task.inputs(n)
        if len(X):
            seqs += [(n, t) for t in task.targets(X).tolist()]
    if not seqs:
        raise InputError("max_input_len", f"a length with valid inputs of task {task.name!r}", max_input_len)
    sample = PrefixSample.closure(len(alpha), [t for _, t in seqs])
    index = {w: i for i, w in enumerate(sample.words)}
    nxt = np.full(sample.N, -1, dtype=np.int64)
    for n, t in seqs:  # checked: positions n + 1 (SEP) .. L - 1 (last output), predicting t[i]
        for i in range(n + 1, len(t)):
            u = index[tuple(t[:i])]
            if nxt[u] not in (-1, t[i]):
                raise InputError("task", "outputs determined by the prefix x SEP y_1 .. y_j",
                                 task.text(t[:i]))
            nxt[u] = t[i]
    care = nxt >= 0
    targets = [(tk.next_name(s), nxt == j, care) for j, s in enumerate(alpha)]
    ms = search_masked(alpha, sample, targets, fragment, max_size, max_behaviours)
    res = TaskSearchResult(task.name, max_input_len, len(seqs), ms)
    if res.found:
        res.program_text = f"alphabet: {_alphabet_text(alpha)}\n" + "".join(
            f"{m.name} := {m.expression}\n" for m in ms.matches)
        if verify_size is not None:
            prog = parse(res.program_text, name="smallest task program found")
            chk = tk.check_task(prog, task, verify_size, sample_len=sample_len, samples=samples, seed=seed)
            res.verify_size, res.generalizes = verify_size, chk.holds
            if not chk.holds:
                res.failure = str(chk.failure) if chk.failure else "the two interpreters disagree"
    return res


@dataclass
class OccamStep:
    """One training length of the Occam learner."""

    n: int
    expression: str | None
    size: int | None
    agrees_2n: bool | None
    witness: str | None
    seconds: float
    size_completed: int = 0  # when none was found: every expression of size <= this was covered


@dataclass
class OccamRun:
    """The learned sequence and where it stabilizes (a finite illustration of Theorem 7, not a proof)."""

    language: str
    fragment: str
    steps: list[OccamStep]
    stable_from: int | None  # first n from which the learned program never changes and agrees up to 2n
    first_agrees: int | None = None  # first n whose learned program agrees with f on all lengths <= 2n
    final_verified_len: int | None = None
    final_generalizes: bool | None = None

    def summary(self) -> str:
        """One line per run."""
        seq = "; ".join(f"n={s.n}: " + (f"{s.expression} [{'ok' if s.agrees_2n else 'fails'} at 2n]"
                                        if s.expression else f"none found up to size {s.size_completed}")
                        for s in self.steps)
        tail = (f"stable and correct up to 2n from n = {self.stable_from}"
                + (f"; final program checked exactly to length {self.final_verified_len}: "
                   f"{'agrees' if self.final_generalizes else 'fails'}" if self.final_verified_len else "")
                if self.stable_from is not None else "never stabilizes on a program correct up to 2n")
        return f"{self.language} in C-RASP{self.fragment}: {seq}. {tail}"


def occam(truth_accepts: GroundTruth | Callable[[np.ndarray], np.ndarray], alphabet: Sequence[str],
          fragment: str | Fragment, ns: Sequence[int], max_size: int, final_len: int | None = None,
          max_behaviours: int = 400_000, name: str = "") -> OccamRun:
    """Inference Procedure proxy (catalog D6): at each n the smallest program consistent on lengths <= n,
    checked on all strings of length <= 2n; reports from which n the sequence is stable and correct."""
    steps = []
    for n in ns:
        r = search(truth_accepts, alphabet, fragment, max_size, n, verify_len=2 * n,
                   max_behaviours=max_behaviours, name=name)
        steps.append(OccamStep(n, r.expression, r.size, r.generalizes, r.witness, r.seconds,
                               r.size_completed))
    stable = None
    for i in range(len(steps)):
        tail = steps[i:]
        last = tail[-1].expression
        if all(s.expression is not None and s.expression == last and s.agrees_2n for s in tail):
            stable = steps[i].n
            break
    lang = name or getattr(truth_accepts, "name", "f")
    first = next((s.n for s in steps if s.agrees_2n), None)
    run = OccamRun(lang, Fragment.of(fragment).text(), steps, stable, first)
    if stable is not None and final_len is not None:
        prog = program_of(tuple(alphabet), steps[-1].expression or "true")
        d = exhaustive_check(lambda X: accepts_prefixes(prog, X), _truth_fn(truth_accepts), len(alphabet),
                             final_len)
        run.final_verified_len, run.final_generalizes = final_len, d is None
    return run


def main(argv: Sequence[str] | None = None) -> int:
    """python -m proofkit.crasp.enumerate LANGUAGE --fragment F --max-size S --n N (bigger sweeps)."""
    from .morphism import resolve

    ap = argparse.ArgumentParser(prog="python -m proofkit.crasp.enumerate", description=main.__doc__)
    ap.add_argument("language", help="a LIBRARY / AUXILIARY ground-truth name")
    ap.add_argument("--fragment", default="[]")
    ap.add_argument("--max-size", type=int, default=8)
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--verify-len", type=int, default=None)
    ap.add_argument("--max-modulus", type=int, default=2)
    ap.add_argument("--max-offset", type=int, default=1)
    ap.add_argument("--max-behaviours", type=int, default=400_000)
    args = ap.parse_args(argv)
    try:
        truth = resolve(args.language)
        frag = Fragment.of(args.fragment, max_modulus=args.max_modulus, max_offset=args.max_offset)
        r = search(truth, truth.alphabet, frag, args.max_size, args.n, verify_len=args.verify_len,
                   max_behaviours=args.max_behaviours)
    except InputError as exc:
        print(exc)
        return 2
    print(r.summary())
    for s, b, c in r.per_size:
        print(f"  size {s}: {b} new Boolean, {c} new count behaviours")
    return 0 if r.found else 3


if __name__ == "__main__":
    raise SystemExit(main())
