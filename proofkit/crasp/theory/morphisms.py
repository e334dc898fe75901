"""Uniform-length morphisms and the reductions behind the Table-2 "no" rows (Huang et al. 2024, App. C.3
and E.1.2): Lemma 42 (C-RASP[periodic,local] is closed under inverse images of morphisms that map every
letter to a word of the same length K), the padding of Lemma 34 / 35, the renaming of Lemma 36 and the
block morphism of Lemmas 40 / 41.

A morphism h: Sigma -> Gamma^K is data (a letter -> word table), never code. ``check_preimage(h, L, L')``
decides exhaustively, at every prefix of every string of length <= n, whether w in h^{-1}(L) <=> w in L'
(membership of h(w_1..w_i) is read off column K*i of L's per-prefix acceptance of h(w)), and returns the
shortest, then lexicographically least, witness when it fails. Such a check is evidence of a *reduction*
("L in C-RASP[p,l] implies L' in C-RASP[p,l]", by Lemma 42), never of non-membership itself.

``transform(program, h)`` is the program transformer of Lemma 42's proof: from a program P over Gamma it
builds a program P' over Sigma with P' accepting w iff P accepts h(w) (checked, not assumed, by
``check_transform``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import InputError, one_of
from ..language.analysis import validate
from ..language.ir import Op, Program
from ..semantics.compare import exhaustive_check
from ..semantics.regex import regex_truth
from ..semantics.truth import AUXILIARY, LIBRARY, GroundTruth

MAX_CELLS = 1 << 22  # strings x image positions per evaluated chunk (bounds memory)


@dataclass(frozen=True)
class Morphism:
    """h: source alphabet -> target words, all of the same length K >= 1 (images as symbol tuples)."""

    source: tuple[str, ...]
    target: tuple[str, ...]
    images: tuple[tuple[str, ...], ...]  # images[i] = h(source[i])
    name: str = ""

    @property
    def K(self) -> int:
        """The common image length."""
        return len(self.images[0])

    def table(self) -> np.ndarray:
        """Target symbol indices of every image: int64 array (|source|, K)."""
        index = {s: j for j, s in enumerate(self.target)}
        return np.array([[index[s] for s in img] for img in self.images], dtype=np.int64)

    def text(self) -> str:
        """The morphism as 'a->w, b->v' (target symbols concatenated when all are one character)."""
        sep = "" if all(len(s) == 1 for s in self.target) else " "
        return ", ".join(f"{a}->{sep.join(img)}" for a, img in zip(self.source, self.images))

    def apply_text(self, word: Sequence[str]) -> tuple[str, ...]:
        """h(word) as a tuple of target symbols (InputError on a letter outside the source alphabet)."""
        index = {s: i for i, s in enumerate(self.source)}
        out: list[str] = []
        for k, a in enumerate(word, start=1):
            if a not in index:
                raise InputError("word", f"letters of the source alphabet {list(self.source)}",
                                 f"{a!r} at {k}")
            out.extend(self.images[index[a]])
        return tuple(out)


def _alphabet(value: Any, field: str) -> tuple[str, ...]:
    """A non-empty sequence of distinct non-empty string symbols (a str is split into characters)."""
    syms = tuple(value) if isinstance(value, (str, list, tuple)) else None
    if not syms or any(not isinstance(s, str) or not s for s in syms) or len(set(syms)) != len(syms):
        raise InputError(field, "a non-empty sequence of distinct symbols", value)
    return syms


def morphism(mapping: Mapping[str, str | Sequence[str]], source: Sequence[str] | str,
             target: Sequence[str] | str, name: str = "") -> Morphism:
    """Validate a letter -> word table into a Morphism; every image must have the same length K >= 1.

    Images are str (split into characters when every target symbol is one character) or symbol lists."""
    src, tgt = _alphabet(source, "source alphabet"), _alphabet(target, "target alphabet")
    if not isinstance(mapping, Mapping):
        raise InputError("morphism", "a mapping letter -> word", type(mapping).__name__)
    unknown = [a for a in mapping if a not in src]
    if unknown:
        raise InputError("morphism", f"letters of the source alphabet {list(src)} as keys", unknown[0])
    missing = [a for a in src if a not in mapping]
    if missing:
        raise InputError("morphism", f"an image for every source letter {list(src)}",
                         f"no image for {missing[0]!r}")
    single = all(len(s) == 1 for s in tgt)
    images = []
    for a in src:
        img = mapping[a]
        if isinstance(img, str):
            word = tuple(img) if single else tuple(img.split())
        elif isinstance(img, (list, tuple)):
            word = tuple(img)
        else:
            raise InputError(f"morphism[{a}]", "a word (str or list of symbols)", img)
        bad = [s for s in word if s not in tgt]
        if bad:
            raise InputError(f"morphism[{a}]", f"symbols of the target alphabet {list(tgt)}", bad[0])
        images.append(word)
    lengths = {a: len(w) for a, w in zip(src, images)}
    if len(set(lengths.values())) != 1 or min(lengths.values()) < 1:
        raise InputError("morphism", "images of one common length K >= 1 (a uniform-length morphism)",
                         lengths)
    return Morphism(src, tgt, tuple(images), name)


def padding(alphabet: Sequence[str] | str, pad: str, K: int) -> Morphism:
    """Lemma 34's padding morphism: every letter a -> a pad^(K-1) (pad must be a letter of the alphabet)."""
    alpha = _alphabet(alphabet, "alphabet")
    if pad not in alpha:
        raise InputError("pad", f"a letter of the alphabet {list(alpha)}", pad)
    if not isinstance(K, int) or isinstance(K, bool) or K < 1:
        raise InputError("K", "an integer >= 1", K)
    return morphism({a: [a] + [pad] * (K - 1) for a in alpha}, alpha, alpha, f"pad({pad},{K})")


def resolve(spec: GroundTruth | str) -> GroundTruth:
    """A ground truth: a GroundTruth, a LIBRARY / AUXILIARY name, or 'regex:PATTERN@ALPHABET'."""
    if isinstance(spec, GroundTruth):
        return spec
    if isinstance(spec, str) and spec.startswith("regex:"):
        return regex_truth(spec, None, "language")
    if isinstance(spec, str) and spec in LIBRARY:
        return LIBRARY[spec]
    if isinstance(spec, str) and spec in AUXILIARY:
        return AUXILIARY[spec]
    names = sorted(LIBRARY) + sorted(AUXILIARY)
    raise one_of("language", names, spec, "a GroundTruth, 'regex:PATTERN@ALPHABET' or one of")


def apply(h: Morphism, X: Any) -> np.ndarray:
    """h applied to every row of X (B, n) of source indices: (B, n*K) of target indices."""
    X = np.asarray(X)
    if X.ndim != 2 or (X.size and (X.dtype.kind not in "iu" or X.min() < 0 or X.max() >= len(h.source))):
        raise InputError("X", f"an integer array (B, n) of source indices in [0, {len(h.source)})",
                         f"{X.dtype} array of shape {X.shape}")
    B, n = X.shape
    return h.table()[X.astype(np.int64)].reshape(B, n * h.K)


@dataclass(frozen=True)
class MorphismCheck:
    """Outcome of an exhaustive preimage check: h^{-1}(L) == L' on every string of length <= max_len."""

    holds: bool
    morphism: str
    language: str
    preimage: str
    max_len: int
    strings: int
    witness: str | None = None  # the shortest, then lexicographically least, w where they differ
    image: str | None = None  # h(witness)
    in_language: bool | None = None  # whether h(witness) is in L
    in_preimage: bool | None = None  # whether the witness is in L'

    def how(self) -> str:
        """One line saying what was enumerated and what was found."""
        head = (f"h = {self.morphism}: h^-1({self.language}) vs {self.preimage}, exhaustive over all "
                f"{self.strings} strings of length <= {self.max_len} at every prefix (exact DFA runs)")
        if self.holds:
            return head + ": equal"
        return (head + f": differ at w = {self.witness!r} (h(w) = {self.image!r} "
                f"{'in' if self.in_language else 'not in'} {self.language}, w "
                f"{'in' if self.in_preimage else 'not in'} {self.preimage})")


def check_preimage(h: Morphism, language: GroundTruth | str, preimage: GroundTruth | str,
                   max_len: int, prefix: Sequence[str] = ()) -> MorphismCheck:
    """Exhaustively test w in h^{-1}(language) <=> w in preimage for all w of length <= max_len.

    With a prefix u (target symbols), the image is u h(w) instead of h(w) (families such as 1 0^m)."""
    L, P = resolve(language), resolve(preimage)
    bad = [x for x in prefix if x not in h.target]
    if bad:
        raise InputError("prefix", f"symbols of the target alphabet {list(h.target)}", bad[0])
    u = np.array([[h.target.index(x) for x in prefix]], dtype=np.int64).reshape(1, len(prefix))
    if tuple(L.alphabet) != h.target:
        raise InputError("language", f"a language over the morphism's target alphabet {list(h.target)}",
                         list(L.alphabet))
    if tuple(P.alphabet) != h.source:
        raise InputError("preimage", f"a language over the morphism's source alphabet {list(h.source)}",
                         list(P.alphabet))
    if not isinstance(max_len, int) or isinstance(max_len, bool) or max_len < 0:
        raise InputError("max_len", "an integer >= 0", max_len)
    K, k = h.K, len(h.source)
    if k**max_len * (max_len * K + 1) > 1 << 30:
        raise InputError("max_len", "at most 2**30 image cells", f"{k}**{max_len} strings")

    def image_prefixes(X: np.ndarray) -> np.ndarray:
        Y = np.concatenate([np.repeat(u, len(X), axis=0), apply(h, X)], axis=1)
        return L.accepts_prefixes(Y)[:, len(prefix)::K]

    chunk = max(1, MAX_CELLS // (max_len * K + 1))
    d = exhaustive_check(image_prefixes, P, k, max_len, chunk=chunk)
    strings = sum(k**i for i in range(max_len + 1))
    lang, pre = getattr(L, "name", "L"), getattr(P, "name", "L'")
    sep = "" if all(len(x) == 1 for x in h.target) else " "
    if prefix:
        lang = f"{sep.join(prefix)}.{lang}"
    if d is None:
        return MorphismCheck(True, h.text(), lang, pre, max_len, strings)
    w = tuple(h.source[i] for i in d.symbols)
    wsep = "" if all(len(x) == 1 for x in h.source) else " "
    return MorphismCheck(False, h.text(), lang, pre, max_len, strings, wsep.join(w),
                         sep.join(tuple(prefix) + h.apply_text(w)), d.f_value, d.truth_value)


class Preimage(GroundTruth):
    """h^{-1}(L) as a ground truth over h's source alphabet (membership of h(w) in L, per prefix)."""

    def __init__(self, h: Morphism, language: GroundTruth | str) -> None:
        self.h, self.L = h, resolve(language)
        self.name = f"h^-1({self.L.name})"
        self.alphabet, self.table2_row, self.description = h.source, None, f"h = {h.text()}"

    def accepts_prefixes(self, X: Any) -> np.ndarray:
        """Acceptance of h(w_1..w_i) for every prefix."""
        return self.L.accepts_prefixes(apply(self.h, X))[:, :: self.h.K]


@dataclass(frozen=True)
class Reduction:
    """A reduction behind a Table-2 row: h^{-1}(language) == preimage (with an optional fixed prefix)."""

    key: str
    rows: tuple[str, ...]  # the Table-2 rows it bears on
    images: tuple[tuple[str, str], ...]  # (letter, image word)
    source: str
    target: str
    language: str
    preimage: str
    meaning: str
    prefix: str = ""

    def morphism(self) -> Morphism:
        """The reduction's morphism."""
        return morphism(dict(self.images), self.source, self.target, self.key)

    def check(self, max_len: int) -> MorphismCheck:
        """The exhaustive check to max_len."""
        return check_preimage(self.morphism(), self.language, self.preimage, max_len, tuple(self.prefix))


REDUCTIONS: tuple[Reduction, ...] = (
    Reduction("T6->MOD3", ("6",), (("0", "01"), ("1", "00")), "01", "01", "Tomita6", "MOD3",
              "MOD3 = h^-1(Tomita 6), so Tomita 6 in C-RASP[p,l] => MOD3 in C-RASP[p,l] (Lemma 42)"),
    Reduction("MOD3->T6", ("6",), (("0", "01"), ("1", "11")), "01", "01", "MOD3", "Tomita6",
              "Tomita 6 = g^-1(MOD3), so MOD3 in C-RASP[p,l] => Tomita 6 in C-RASP[p,l] (Lemma 42)"),
    Reduction("T5->PARITY", ("5",), (("0", "00"), ("1", "01")), "01", "01", "Tomita5", "PARITY",
              "PARITY = h^-1(Tomita 5), so Tomita 5 in C-RASP[p,l] => PARITY in C-RASP[p,l] (Lemma 42)"),
    Reduction("#17->be", ("17",), (("a", "1"), ("b", "0"), ("e", "2")), "abe", "012", "#17", "Sigma*be*",
              "Sigma*be* = h^-1(#17) (renaming), so #17 in C-RASP[p,l] => Sigma*be* in C-RASP[p,l] "
              "(Lemma 36)"),
    Reduction("be->#17", ("17",), (("0", "b"), ("1", "a"), ("2", "e")), "012", "abe", "Sigma*be*", "#17",
              "#17 = g^-1(Sigma*be*) (renaming back), so the two are equivalent"),
    Reduction("pad2", ("17",), (("a", "ae"), ("b", "be"), ("e", "ee")), "abe", "abe", "Sigma*be*",
              "Sigma*be*", "padding with e (K = 2) fixes Sigma*be* (the step of Lemma 35 that uses "
              "Lemma 34)"),
    Reduction("pad3", ("17",), (("a", "aee"), ("b", "bee"), ("e", "eee")), "abe", "abe", "Sigma*be*",
              "Sigma*be*", "padding with e (K = 3) fixes Sigma*be* (Lemma 35 via Lemma 34)"),
    Reduction("block2", ("PARITY", "5"), (("a", "01"),), "a", "01", "PARITY", "(aa)*/unary",
              "on block words h(a^m), h(a) = 0^(K-1) 1, PARITY is (aa)* (Lemma 41; the step to C-RASP[] "
              "is Lemma 40, cited)"),
    Reduction("block4", ("PARITY", "5"), (("a", "0001"),), "a", "01", "PARITY", "(aa)*/unary",
              "the same with K = 4 (Lemma 41)"),
    Reduction("abab->aa", ("14",), (("a", "ab"),), "a", "ab", "(abab)*", "(aa)*/unary",
              "(aa)*/unary = h^-1((abab)*); Lemma 42's construction maps C-RASP[] to C-RASP[], so (abab)* in "
              "C-RASP[] => (aa)* in C-RASP[], against Lemma 38"),
    Reduction("aa->unary", ("12",), (("a", "a"),), "a", "ab", "(aa)*", "(aa)*/unary",
              "(aa)*/unary = h^-1((aa)* over {a,b}) (inclusion of alphabets), so both are outside C-RASP[] "
              "together (Lemma 38)"),
    Reduction("T3-family", ("3",), (("a", "0"),), "a", "01", "Tomita3", "(aa)*/unary",
              "on the family 1 0^m Tomita 3 is (aa)* in m, the family the C-RASP[] argument uses "
              "(Lemma-38 style, App. E.1.2; the family's form is reconstructed)", prefix="1"),
)


# ----------------------------------------------------------------------------------------------------
# Lemma 42's program transformer


class _Emitter:
    """Hash-consing builder of IR ops over the source alphabet."""

    def __init__(self) -> None:
        self.ops: list[Op] = []
        self.seen: dict[tuple, str] = {}

    def op(self, kind: str, args: tuple[str, ...] = (), **fields: Any) -> str:
        key = (kind, args, tuple(sorted(fields.items())))
        if key not in self.seen:
            name = f"h{len(self.ops)}"
            self.ops.append(Op(name, kind, args, **fields))
            self.seen[key] = name
        return self.seen[key]

    def false(self) -> str:
        return self.op("not", (self.op("true"),))

    def or_(self, names: list[str]) -> str:
        """not (and of nots): the disjunction of the given Booleans (false when empty)."""
        if not names:
            return self.false()
        acc = self.op("not", (names[0],))
        for x in names[1:]:
            acc = self.op("and", (acc, self.op("not", (x,))))
        return self.op("not", (acc,))

    def sum(self, names: list[str]) -> str:
        """The sum of the given counts (0 when empty)."""
        if not names:
            return self.op("const", value=0)
        acc = names[0]
        for x in names[1:]:
            acc = self.op("add", (acc, x))
        return acc

    def indicator(self, p: str) -> str:
        """p ? 1 : 0 (C-RASP[] needs no local count for it)."""
        return self.op("cond", (p, self.op("const", value=1), self.op("const", value=0)))


def transform(program: Program, h: Morphism) -> Program:
    """Lemma 42: a program P' over h's source alphabet with P' accepting w iff ``program`` accepts h(w).

    Position p = K(i-1) + t (t in 1..K) of h(w) is slot t of source position i, and position 0 of h(w)
    is slot K of position 0. Every op O becomes K ops O_t with O_t(i) = O(K(i-1) + t):
      sym g      -> or of Q(a) over letters a with h(a)[t] = g;
      mod(m, r)  -> or of mod(m, j) over residues j with K(j-1) + t = r (mod m);
      #P         -> sum_t' #P_t' - sum_{t' > t} [P_t'] (the block of position i is counted up to slot t);
      #[S] P     -> sum_{d in S} #[a] P_t'' with t - d = t'' - K a, t'' in 1..K (a local offset on blocks);
    the other kinds act slot by slot. The output is O_K of the program's output."""
    validate(program)
    if tuple(program.alphabet) != h.target:
        raise InputError("program", f"a program over the morphism's target alphabet {list(h.target)}",
                         list(program.alphabet))
    K, e = h.K, _Emitter()
    slot: dict[str, list[str]] = {}  # op name -> names of its K slot ops (index t - 1)
    for op in program.ops:
        a = [slot[x] for x in op.args]
        out: list[str] = []
        for t in range(1, K + 1):
            out.append(_slot_op(op, a, t, K, h, e))
        slot[op.name] = out
    ops = tuple(e.ops)
    return Program(h.source, ops, slot[program.output][K - 1], name=f"{program.name}@h^-1({h.text()})")


def _slot_op(op: Op, a: list[list[str]], t: int, K: int, h: Morphism, e: _Emitter) -> str:
    """The op for slot t of one program op (see ``transform``)."""
    k = op.kind
    if k == "sym":
        return e.or_([e.op("sym", symbol=s) for s, img in zip(h.source, h.images) if img[t - 1] == op.symbol])
    if k == "true":
        return e.op("true")
    if k == "const":
        return e.op("const", value=op.value)
    if k == "periodic":
        m, r = op.modulus, op.residue
        hits = [j for j in range(m) if (K * (j - 1) + t) % m == r]
        if len(hits) == m:
            return e.op("true")
        return e.or_([e.op("periodic", modulus=m, residue=j) if m > 1 else e.op("true") for j in hits])
    if k in ("not", "and", "le", "add", "sub", "cond"):
        return e.op(k, tuple(x[t - 1] for x in a))
    if k == "count":
        p = a[0]
        total = e.sum([e.op("count", (p[s],)) for s in range(K)])
        later = [e.indicator(p[s - 1]) for s in range(t + 1, K + 1)]
        return e.op("sub", (total, e.sum(later))) if later else total
    if k == "local":
        p, terms = a[0], []
        for d in op.offsets:
            back = math.floor((t - d - 1) / K)  # t - d - 1 = K * back + (t'' - 1)
            t2 = (t - d - 1) - K * back + 1
            terms.append(e.op("local", (p[t2 - 1],), offsets=(-back,)))
        return e.sum(terms)
    raise InputError("program", "an op kind of the IR", k)  # unreachable after validate


def check_transform(program: Program, h: Morphism, max_len: int) -> MorphismCheck:
    """Exhaustively test that transform(program, h) accepts w iff program accepts h(w), |w| <= max_len."""
    from ..semantics.vector import accepts_prefixes

    p2 = transform(program, h)

    class _Prog(GroundTruth):
        def __init__(self, prog: Program, name: str) -> None:
            self.prog, self.name, self.alphabet = prog, name, prog.alphabet
            self.table2_row, self.description = None, ""

        def accepts_prefixes(self, X: Any) -> np.ndarray:
            return accepts_prefixes(self.prog, X)

    return check_preimage(h, _Prog(program, program.name or "L(P)"), _Prog(p2, "L(P')"), max_len)
