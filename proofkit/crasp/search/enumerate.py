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

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import InputError, one_of
from ..language.ir import Program
from ..language.parser import parse
from ..semantics.compare import exhaustive_check
from ..semantics.truth import GroundTruth
from ..semantics.vector import accepts_prefixes
from .samples import MAX_NODES, BehaviourStore, PrefixSample, Sample

CELLS = 1 << 21  # candidate cells per batch (2^23 held 140 MB of int32 operands on HYB24.NEG)

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
            raise one_of("fragment", tags, spec)
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
                  f"{self.candidates} candidates")  # no timing: verdict texts must be reproducible
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
    """The search bounds: expression size in [1, 30], 16 to 2^31 - 1 kept behaviours per sort (provenance
    is stored as 32-bit row indices)."""
    if not isinstance(max_size, int) or isinstance(max_size, bool) or not 1 <= max_size <= 30:
        raise InputError("max_size", "an integer in [1, 30]", max_size)
    if not isinstance(max_behaviours, int) or isinstance(max_behaviours, bool) \
            or not 16 <= max_behaviours <= 2**31 - 1:
        raise InputError("max_behaviours", "an integer in [16, 2^31 - 1]", max_behaviours)


class _Search:
    """State of one bottom-up enumeration (see the module docstring)."""

    def __init__(self, alphabet: tuple[str, ...], frag: Fragment, sample: Sample | PrefixSample,
                 max_behaviours: int, max_size: int) -> None:
        self.alphabet, self.frag = alphabet, frag
        self.S = sample
        N = self.S.N
        self.N = N
        self.bw = -(-N // 64) * 8  # packed Boolean row bytes
        # count rows: int8 where no count can leave it. A count tree of size <= max_size has at most
        # max_size leaves, each worth at most max(n + 1, |constant|) in absolute value (#B counts the
        # n + 1 positions of a depth-n node), and + - and the conditional add at most their operands'
        # bounds; otherwise int16, whose range crow checks batch by batch
        bound = max_size * max([self.S.n + 1, *map(abs, frag.constants)])
        self.cdtype = np.dtype(np.int8 if bound <= np.iinfo(np.int8).max else np.int16)
        self.limit = min(30000, int(np.iinfo(self.cdtype).max))
        self.cw = -(-N * self.cdtype.itemsize // 8) * 8  # count row bytes
        self.B = BehaviourStore(self.bw, np.uint8, max_behaviours)
        self.C = BehaviourStore(self.cw, self.cdtype, max_behaviours)
        self.bstart: dict[int, int] = {}
        self.cstart: dict[int, int] = {}
        self.bend: dict[int, int] = {}
        self.cend: dict[int, int] = {}

    # -- row conversions
    def pack(self, bits: np.ndarray) -> np.ndarray:
        out = np.zeros((len(bits), self.bw), dtype=np.uint8)
        out[:, : -(-self.N // 8)] = np.packbits(bits, axis=1)
        return out

    def unpack(self, idx: np.ndarray) -> np.ndarray:
        return np.unpackbits(self.B.rows[idx], axis=1, count=self.N).astype(bool)

    def crow(self, vals: np.ndarray) -> np.ndarray:
        top = int(np.abs(vals).max()) if vals.size else 0
        if top > self.limit:
            raise InputError("n", f"lengths at which every count fits in {self.cdtype}", top)
        out = np.zeros((len(vals), self.cw // self.cdtype.itemsize), dtype=self.cdtype)
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
                # an offset d >= n has no real ancestor at any node (d = n gives the all-zero row), so
                # offsets beyond the sample's length add nothing new
                for d in range(min(self.frag.max_offset, S.n) + 1):
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
                        # several conditions per batch (rows condition-major, the order one add per
                        # condition would keep): one add per condition was 34,000 calls on HYB24.NEG
                        per = max(1, CELLS // max(1, len(a) * self.N))
                        for q0 in range(0, len(p0), per):
                            qs = p0[q0: q0 + per]
                            vals = np.where(conds[q0: q0 + per, None, :], x[None], y[None])
                            meta = self._meta(COND, 0, np.repeat(qs, len(a)), np.tile(a, len(qs)),
                                              np.tile(b, len(qs)), m=len(a) * len(qs))
                            C.add(self.crow(vals.reshape(-1, self.N)), meta, s)

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
    st = _Search(alphas[0], frag, Sample(k, n), max_behaviours, max_size)
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
    st = _Search(alpha, Fragment.of(fragment), sample, max_behaviours, max_size)
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


__all__ = ["CELLS", "MAX_NODES", "Fragment", "PrefixSample", "Sample", "SearchResult", "explore",
           "program_of", "search", "search_all"]
