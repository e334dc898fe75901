"""Eventual forms of C-RASP programs on periodic inputs u^n (Huang et al. 2024, Lemmas 37/38, 40/41 proxy).

Lemma 11 (2, negative side) via Lemmas 37/38: on the unary family a^n every C-RASP[] program is eventually
constant, so no C-RASP[] program recognizes (aa)*. This module evaluates a program
*symbolically* along the positions i = 0, 1, 2, ... of the infinite periodic word u^infinity. Let p = |u|,
Delta the program's period (lcm of its moduli, 1 without periodic ops) and L = lcm(p, Delta). Then, with
exact rational arithmetic (``fractions.Fraction``):

- every op is *piecewise* over finitely many intervals [s, e) of positions, and on each interval it has
  one form per residue r = i mod L: a Boolean for Boolean ops, an affine function alpha_r + beta_r * i
  for count ops. The values are exact at **every** position, not only eventually
  (``EventualForm.value``);
- the last interval is infinite: that is the *eventual form*. ``OpForm.threshold`` is the least i0 such
  that the eventual form gives the op's value at every position i >= i0 (computed exactly, by locating
  the last position where an earlier piece disagrees with it).

How each op is computed (this is the constructive content of the induction of Lemma 37):

- ``sym``/``true``/``periodic``/``const`` are periodic with period dividing L from position 1 (0 for the
  last three);
- ``not``/``and``/``add``/``sub``/``cond`` act pointwise on a common refinement of the intervals;
- ``le`` compares two affine functions on each residue class: the sign of
  (alpha2 - alpha1) + (beta2 - beta1) * i changes at most once, at an exactly computed integer cut, so
  the comparison splits each interval at most L times (slopes decide for large i, then intercepts);
- ``count`` is a prefix sum of an eventually periodic Boolean: on an interval where the predicate has
  the periodic pattern b, #P(i) = base + D * floor(i / L) + G(i mod L), an affine function of i on each
  residue class (D = number of true residues, G its prefix counts), with base fixed by continuity;
- ``local`` (#[S] P) is the sum over offsets c of the 0/1 indicator of P shifted by c (so thresholds
  move by at most max S).

API:

- ``eventual_form(program, u)`` -> ``EventualForm`` (``.ops[name]``: threshold, modulus L, minimal
  period, per-residue values; ``.value(name, i)`` exact at any position; ``.accepts(n)`` exact for u^n);
- ``acceptance_eventually(program, u)`` -> (n0, pattern): for every n >= n0 the program accepts u^n iff
  ``pattern[n % L']``, L' = L / p = ``len(pattern)``; n0 is the least such threshold;
- ``certify_not_recognizing(program, language, u)`` -> ``Certificate``: the per-program certificate of
  Lemma 37 (u = a, target (aa)*) and of the Lemma 40/41 proxy (u = b^(K-1) a, target PARITY);
- ``fuzz(...)`` -> ``FuzzReport``: random programs, symbolic forms against the reference interpreter.

What a certificate proves. For the one program given: its acceptance of u^n is, for every n >= n0,
``pattern[n % L']`` (the symbolic computation above), and at the witness n >= n0 it differs from the
target language (this one fact is also re-checked with the reference interpreter when u^n is short enough).
A witness alone already shows the program does not recognize the language; the eventual pattern shows
more: every n >= n0 in the witness's residue class modulo lcm(L', language period) is a counterexample.
It is **not** a proof of Lemma 37 over all programs: that is the paper's induction on depth, of which this
module is an executable instance (trusted as code, and cross-checked against the interpreter by ``fuzz``).

Inputs are IR programs (``proofkit.crasp.parse`` output or hand-built ``Program``s); nothing is evaluated
as Python text.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from ...errors import InputError
from ..language.analysis import fragment, locality, op_depths, period, validate
from ..language.ir import Op, Program
from ..semantics.interp import accepts, evaluate

ZERO = Fraction(0)
ONE = Fraction(1)

# A form is a tuple indexed by the residue r = i mod L: a bool (Boolean op) or (alpha, beta) (count op,
# value alpha + beta * i).
Entry = Any
Form = tuple


# ----------------------------------------------------------------------------- piecewise functions
def _entry_value(sort: str, entry: Entry, i: int) -> bool | int:
    if sort == "bool":
        return bool(entry)
    v = entry[0] + entry[1] * i
    if v.denominator != 1:  # cannot happen at a position of the entry's own piece
        raise AssertionError(f"non-integer count value {v} at position {i}")
    return int(v)


def _residue_span(s: int, e: int | None, modulus: int, r: int) -> tuple[int, int | None] | None:
    """First and last position of residue r in [s, e) (last is None when e is None); None if empty."""
    first = s + (r - s) % modulus
    if e is not None and first >= e:
        return None
    last = None if e is None else first + (e - 1 - first) // modulus * modulus
    return first, last


def _predicts(sort: str, modulus: int, form: Form, s: int, e: int | None, other: Form) -> bool:
    """Whether ``form`` gives the value of ``other`` at every position of [s, e)."""
    for r in range(modulus):
        if form[r] == other[r]:
            continue
        span = _residue_span(s, e, modulus, r)
        if span is None:
            continue
        if sort == "bool":
            return False
        first, last = span
        # Two different affine functions agree at one point at most.
        if last != first or _entry_value(sort, form[r], first) != _entry_value(sort, other[r], first):
            return False
    return True


@dataclass(frozen=True)
class Piecewise:
    """Exact values of one op at every position i >= 0 of u^infinity.

    Piece k covers [starts[k], starts[k + 1]) (the last piece is infinite); ``forms[k][i % modulus]`` is
    the value (bool) or the affine function (alpha, beta) at position i of that piece."""

    sort: str
    modulus: int
    starts: tuple[int, ...]
    forms: tuple[Form, ...]

    def end(self, k: int) -> int | None:
        return self.starts[k + 1] if k + 1 < len(self.starts) else None

    def pieces(self, lo: int = 0) -> Iterator[tuple[int, int | None, Form]]:
        """(start, end, form) of every piece, clipped to [lo, infinity)."""
        for k, s in enumerate(self.starts):
            e = self.end(k)
            if e is not None and e <= lo:
                continue
            yield max(s, lo), e, self.forms[k]

    def value(self, i: int) -> bool | int:
        if not isinstance(i, int) or i < 0:
            raise InputError("position", "an int >= 0", i)
        k = bisect.bisect_right(self.starts, i) - 1
        return _entry_value(self.sort, self.forms[k][i % self.modulus], i)

    def values(self, n: int) -> list[bool | int]:
        """The values at positions 0..n (same layout as the reference interpreter's lists)."""
        out: list[Any] = [None] * (n + 1)
        for s, e, f in self.pieces():
            if s > n:
                break
            _fill(out, self.sort, self.modulus, f, s, min(n + 1, e) if e is not None else n + 1)
        return out


def _fill(out: list[Any], sort: str, modulus: int, form: Form, s: int, e: int) -> None:
    """out[i] = value of ``form`` at i for s <= i < e (integer stepping along each residue class)."""
    for r in range(modulus):
        first = s + (r - s) % modulus
        if first >= e:
            continue
        count = len(range(first, e, modulus))
        if sort == "bool":
            out[first:e:modulus] = [bool(form[r])] * count
        else:
            v0 = _entry_value(sort, form[r], first)
            step = form[r][1] * modulus  # an integer: counts change by integers along a residue class
            if step.denominator != 1:
                raise AssertionError(f"non-integer step {step}")
            out[first:e:modulus] = [v0 + int(step) * k for k in range(count)]


def _build(sort: str, modulus: int, pieces: list[tuple[int, Form]]) -> Piecewise:
    """Normalize a list of (start, form) pieces (first start 0): drop empty pieces and merge a piece into
    its neighbour whenever the neighbour's form already gives its values (fewer, longer pieces)."""
    out: list[tuple[int, Form]] = []
    for k, (s, f) in enumerate(pieces):
        e = pieces[k + 1][0] if k + 1 < len(pieces) else None
        if e is not None and e <= s:
            continue
        while out and _predicts(sort, modulus, f, out[-1][0], s, out[-1][1]):
            s = out.pop()[0]
        if out and e is not None and _predicts(sort, modulus, out[-1][1], s, e, f):
            continue
        out.append((s, f))
    assert out and out[0][0] == 0
    return Piecewise(sort, modulus, tuple(s for s, _ in out), tuple(f for _, f in out))


def _align(pws: Sequence[Piecewise]) -> list[tuple[int, int | None, tuple[Form, ...]]]:
    """Common refinement: (start, end, forms of every input) on each interval."""
    starts = sorted(set().union(*(p.starts for p in pws)))
    idx = [0] * len(pws)
    out = []
    for k, s in enumerate(starts):
        for t, p in enumerate(pws):
            while idx[t] + 1 < len(p.starts) and p.starts[idx[t] + 1] <= s:
                idx[t] += 1
        e = starts[k + 1] if k + 1 < len(starts) else None
        out.append((s, e, tuple(p.forms[idx[t]] for t, p in enumerate(pws))))
    return out


def _pointwise(sort: str, modulus: int, pws: Sequence[Piecewise], fn: Callable[..., Entry]) -> Piecewise:
    pieces = [(s, tuple(fn(*(f[r] for f in fs)) for r in range(modulus))) for s, _, fs in _align(pws)]
    return _build(sort, modulus, pieces)


def _le(modulus: int, a: Piecewise, b: Piecewise) -> Piecewise:
    """a <= b: on each interval and residue, the sign of (b - a)(i) changes at most once."""
    pieces: list[tuple[int, Form]] = []
    for s, e, (fa, fb) in _align([a, b]):
        rules: list[tuple[int, Any]] = []  # (0, value) | (1, cut: true iff i >= cut) | (-1, cut: iff i < cut)
        cuts: set[int] = set()
        for r in range(modulus):
            da = fb[r][0] - fa[r][0]
            db = fb[r][1] - fa[r][1]
            if db == 0:
                rules.append((0, da >= 0))
                continue
            if db > 0:  # da + db * i >= 0  <=>  i >= -da / db
                cut = math.ceil(-da / db)
                rules.append((1, cut))
            else:  # i <= -da / db  <=>  i < floor(-da / db) + 1
                cut = math.floor(-da / db) + 1
                rules.append((-1, cut))
            if s < cut and (e is None or cut < e):
                cuts.add(cut)
        for s2 in [s, *sorted(cuts)]:
            form = tuple(v if kind == 0 else (s2 >= v if kind == 1 else s2 < v) for kind, v in rules)
            pieces.append((s2, form))
    return _build("bool", modulus, pieces)


def _count(modulus: int, p: Piecewise) -> Piecewise:
    """#P(i) = #{j in 1..i : P(j)}: on a piece [s, e) where P has the periodic pattern b,
    #P(i) = #P(s - 1) + F(i) - F(s - 1) with F(i) = D * (i // L) + G(i % L)."""
    zero = (ZERO, ZERO)
    pieces: list[tuple[int, Form]] = [(0, (zero,) * modulus)]
    for s, _, b in p.pieces(lo=1):
        d = sum(bool(x) for x in b)
        g = list(itertools.accumulate((bool(b[t]) for t in range(1, modulus)), initial=0))

        def big_f(i: int, d: int = d, g: list[int] = g) -> int:
            q, r = divmod(i, modulus)
            return q * d + g[r]

        prev = pieces[-1][1]
        base = _entry_value("count", prev[(s - 1) % modulus], s - 1) - big_f(s - 1)
        slope = Fraction(d, modulus)
        pieces.append((s, tuple((base + g[r] - slope * r, slope) for r in range(modulus))))
    return _build("count", modulus, pieces)


def _shift(modulus: int, p: Piecewise, c: int) -> Piecewise:
    """i -> P(i - c) if i - c >= 1 else False."""
    pieces: list[tuple[int, Form]] = [(0, (False,) * modulus)]
    for s, _, b in p.pieces(lo=1):
        pieces.append((s + c, tuple(b[(r - c) % modulus] for r in range(modulus))))
    return _build("bool", modulus, pieces)


def _local(modulus: int, p: Piecewise, offsets: Sequence[int]) -> Piecewise:
    shifted = [_shift(modulus, p, c) for c in offsets]
    return _pointwise("count", modulus, shifted, lambda *bs: (Fraction(sum(map(bool, bs))), ZERO))


def _constant(sort: str, modulus: int, entry: Entry) -> Piecewise:
    return Piecewise(sort, modulus, (0,), ((entry,) * modulus,))


def _op_piecewise(op: Op, u: tuple[str, ...], modulus: int, v: dict[str, Piecewise]) -> Piecewise:
    k, a = op.kind, [v[x] for x in op.args]
    if k == "sym":
        form = tuple(u[(r - 1) % len(u)] == op.symbol for r in range(modulus))
        return _build("bool", modulus, [(0, (False,) * modulus), (1, form)])
    if k == "true":
        return _constant("bool", modulus, True)
    if k == "periodic":
        form = tuple(r % op.modulus == op.residue for r in range(modulus))
        return Piecewise("bool", modulus, (0,), (form,))
    if k == "const":
        return _constant("count", modulus, (Fraction(op.value), ZERO))
    if k == "not":
        return _pointwise("bool", modulus, a, lambda x: not x)
    if k == "and":
        return _pointwise("bool", modulus, a, lambda x, y: bool(x and y))
    if k == "le":
        return _le(modulus, a[0], a[1])
    if k == "count":
        return _count(modulus, a[0])
    if k == "local":
        return _local(modulus, a[0], op.offsets)
    if k == "cond":
        return _pointwise("count", modulus, a, lambda c, x, y: x if c else y)
    if k == "add":
        return _pointwise("count", modulus, a, lambda x, y: (x[0] + y[0], x[1] + y[1]))
    if k == "sub":
        return _pointwise("count", modulus, a, lambda x, y: (x[0] - y[0], x[1] - y[1]))
    raise InputError("program", "a known op kind", k)  # validate() rules this out


# ----------------------------------------------------------------------------- eventual forms
def _last_disagreement(
    sort: str, entry: Entry, final: Entry, s: int, e: int, modulus: int, r: int
) -> int | None:
    """Last position of residue r in [s, e) where ``entry`` and ``final`` give different values."""
    if entry == final:
        return None
    span = _residue_span(s, e, modulus, r)
    if span is None:
        return None
    first, last = span
    if sort == "bool" or entry[1] == final[1]:
        return last
    meet = (final[0] - entry[0]) / (entry[1] - final[1])  # the one point where the two lines meet
    if last != meet:
        return last
    return last - modulus if last - modulus >= first else None


def _threshold(pw: Piecewise) -> int:
    """Least i0 such that the last piece's form gives the value at every i >= i0."""
    final = pw.forms[-1]
    for k in range(len(pw.starts) - 2, -1, -1):
        s, e, f = pw.starts[k], pw.starts[k + 1], pw.forms[k]
        found = [_last_disagreement(pw.sort, f[r], final[r], s, e, pw.modulus, r) for r in range(pw.modulus)]
        found = [x for x in found if x is not None]
        if found:
            return max(found) + 1
    return 0


def _min_period(values: Sequence[Any]) -> int:
    m = len(values)
    for d in range(1, m + 1):
        if m % d == 0 and all(values[r] == values[(r + d) % m] for r in range(m)):
            return d
    return m


def _fmt_frac(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def format_affine(alpha: Fraction, beta: Fraction) -> str:
    """'alpha + beta*i' in a short readable form, e.g. 'i - 2', '1/2*i + 1/2', '3'."""
    parts = []
    if beta != 0:
        parts.append("i" if beta == 1 else "-i" if beta == -1 else f"{_fmt_frac(beta)}*i")
    if alpha != 0 or not parts:
        if parts:
            parts.append(("+ " if alpha > 0 else "- ") + _fmt_frac(abs(alpha)))
        else:
            parts.append(_fmt_frac(alpha))
    return " ".join(parts)


@dataclass(frozen=True)
class OpForm:
    """The eventual form of one op: for every position i >= threshold, its value is ``at(i)``.

    ``values[r]`` (r = i mod modulus) is a bool for a Boolean op and (alpha, beta) (Fractions, value
    alpha + beta * i) for a count op; ``period`` is the least d dividing ``modulus`` with
    values[r] == values[(r + d) % modulus] for every r."""

    name: str
    kind: str
    sort: str
    threshold: int
    modulus: int
    period: int
    values: tuple

    def at(self, i: int) -> bool | int:
        return _entry_value(self.sort, self.values[i % self.modulus], i)

    def values_between(self, lo: int, hi: int) -> list[bool | int]:
        """The eventual form's values at positions lo..hi (index k holds position lo + k)."""
        out: list[Any] = [None] * (hi + 1)
        _fill(out, self.sort, self.modulus, self.values, lo, hi + 1)
        return out[lo:]

    def describe(self) -> str:
        def one(x: Entry) -> str:
            return str(bool(x)).lower() if self.sort == "bool" else format_affine(*x)

        shown = self.values[: self.period]
        body = one(shown[0]) if self.period == 1 else "; ".join(
            f"i%{self.period}={r}: {one(x)}" for r, x in enumerate(shown)
        )
        return f"{self.name} = {body}  for i >= {self.threshold}"

    def to_dict(self) -> dict[str, Any]:
        vals: list[Any] = [
            bool(x) if self.sort == "bool" else [_fmt_frac(x[0]), _fmt_frac(x[1])] for x in self.values
        ]
        return {"name": self.name, "kind": self.kind, "sort": self.sort, "threshold": self.threshold,
                "modulus": self.modulus, "period": self.period, "values": vals}  # fmt: skip


@dataclass(frozen=True)
class EventualForm:
    """Symbolic evaluation of a program along u^infinity (see the module docstring)."""

    program: Program
    u: tuple[str, ...]
    modulus: int
    ops: Mapping[str, OpForm]
    pieces: Mapping[str, Piecewise] = field(repr=False)

    @property
    def n_modulus(self) -> int:
        """L' = L / |u|: acceptance of u^n is eventually periodic in n with period dividing L'."""
        return self.modulus // len(self.u)

    def value(self, name: str, i: int) -> bool | int:
        """Exact value of op ``name`` at position i of u^infinity (any i >= 0)."""
        return self.pieces[name].value(i)

    def accepts(self, n: int) -> bool:
        """Exact acceptance of u^n (any n >= 0): the output op at position n * |u|."""
        return bool(self.value(self.program.output, n * len(self.u)))

    def acceptance(self) -> tuple[int, tuple[bool, ...]]:
        """(n0, pattern): for every n >= n0, u^n is accepted iff pattern[n % L']; n0 is the least such."""
        pw = self.pieces[self.program.output]
        p, big_l, lp = len(self.u), self.modulus, self.n_modulus
        final = pw.forms[-1]
        pattern = tuple(bool(final[(t * p) % big_l]) for t in range(lp))
        for k in range(len(pw.starts) - 2, -1, -1):
            s, e, f = pw.starts[k], pw.starts[k + 1], pw.forms[k]
            n_lo, n_hi = -(-s // p), (e - 1) // p  # the n with s <= n * p < e
            last = None
            for t in range(lp):
                if n_hi >= n_lo and bool(f[(t * p) % big_l]) != pattern[t]:
                    n = n_hi - (n_hi - t) % lp
                    if n >= n_lo:
                        last = n if last is None else max(last, n)
            if last is not None:
                return last + 1, pattern
        return 0, pattern

    def describe(self) -> str:
        return "\n".join(f.describe() for f in self.ops.values())

    def to_dict(self) -> dict[str, Any]:
        n0, pattern = self.acceptance()
        return {"program": self.program.name, "u": list(self.u), "modulus": self.modulus,
                "n_modulus": self.n_modulus, "acceptance_threshold": n0, "acceptance_pattern": list(pattern),
                "ops": [f.to_dict() for f in self.ops.values()]}  # fmt: skip


def _word(program: Program, u: str | Sequence[str]) -> tuple[str, ...]:
    """u as a tuple of alphabet symbols: a str naming one symbol is that symbol; another str is split
    into characters (all symbols one character) or on whitespace; a sequence is taken as symbols."""
    if isinstance(u, str):
        if u in program.alphabet:
            syms: list[str] = [u]
        elif all(len(s) == 1 for s in program.alphabet):
            syms = list(u)
        else:
            syms = u.split()
    else:
        try:
            syms = list(u)
        except TypeError:
            raise InputError("u", "a str or a sequence of symbols", type(u).__name__) from None
    if not syms:
        raise InputError("u", "a non-empty word", u)
    for k, s in enumerate(syms, start=1):
        if s not in program.alphabet:
            raise InputError("u", "symbols of the alphabet " + " ".join(program.alphabet), f"{s!r} at {k}")
    return tuple(syms)


def eventual_form(program: Program, u: str | Sequence[str] = "a") -> EventualForm:
    """Symbolic evaluation of every op of ``program`` along u^infinity (u: one symbol name, or a word).

    L = lcm(|u|, period(program)); every op gets exact piecewise values at all positions and an eventual
    form (threshold i0, period dividing L, a bool or (alpha, beta) per residue mod L)."""
    validate(program)
    word = _word(program, u)
    modulus = math.lcm(len(word), period(program))
    pieces: dict[str, Piecewise] = {}
    forms: dict[str, OpForm] = {}
    for op in program.ops:
        pw = _op_piecewise(op, word, modulus, pieces)
        pieces[op.name] = pw
        final = pw.forms[-1]
        forms[op.name] = OpForm(op.name, op.kind, op.sort, _threshold(pw), modulus, _min_period(final), final)
    return EventualForm(program, word, modulus, MappingProxyType(forms), MappingProxyType(pieces))


def acceptance_eventually(program: Program, u: str | Sequence[str] = "a") -> tuple[int, tuple[bool, ...]]:
    """(n0, pattern): for every n >= n0 the program accepts u^n iff pattern[n % len(pattern)].

    len(pattern) = L' = lcm(|u|, period) / |u| (1 for C-RASP[] on a single letter, and for the Lemma 41
    block word when |u| is a multiple of the period); n0 is the least threshold with this property."""
    return eventual_form(program, u).acceptance()


# ----------------------------------------------------------------------------- target languages on u^n
@dataclass(frozen=True)
class NLanguage:
    """A language restricted to the family u^n, as a predicate on n (``fn(n)``: is u^n in it?).

    ``period``: a known period of fn in n (used to turn a witness into a whole residue class of
    counterexamples); None if unknown."""

    name: str
    fn: Callable[[int], bool]
    period: int | None = None

    def __call__(self, n: int) -> bool:
        return bool(self.fn(n))


def n_mod(m: int, r: int = 0, name: str = "") -> NLanguage:
    """u^n is in the language iff n = r (mod m); (aa)* on a^n is n_mod(2)."""
    return NLanguage(name or f"n = {r} mod {m}", lambda n: n % m == r, m)


def symbol_parity(u: Sequence[str] | str, symbol: str = "b", name: str = "") -> NLanguage:
    """PARITY (an even number of ``symbol``) on u^n: n * (occurrences of symbol in u) is even."""
    occ = list(u).count(symbol)  # a str u is read as characters; pass a sequence for longer symbol names
    return NLanguage(name or f"PARITY({symbol})", lambda n: n * occ % 2 == 0, 2)


def on_words(pred: Callable[[list[str]], bool], u: Sequence[str] | str, name: str = "",
             period: int | None = None) -> NLanguage:  # fmt: skip
    """A predicate on words (lists of symbols) turned into one on n (builds u^n: small n only)."""
    word = list(u)  # a str u is read as characters; pass a sequence for longer symbol names
    return NLanguage(name or getattr(pred, "__name__", "language"), lambda n: pred(word * n), period)


def aa_star() -> NLanguage:
    """(aa)* on a^n: accepted iff n is even."""
    return n_mod(2, 0, "(aa)*")


def block_word(program: Program, filler: str = "b", marker: str = "a", even: bool = True) -> tuple[str, ...]:
    """The Lemma 40/41 block h(a) = filler^(K-1) marker, K the least multiple of the program's period
    (of lcm(period, 2) when ``even``) with K > locality. With ``even``, PARITY of ``filler`` alternates
    on h(a^n) = (filler^(K-1) marker)^n (n(K-1) fillers); with K odd it would be constant."""
    step = math.lcm(period(program), 2 if even else 1)
    k = step * (locality(program) // step + 1)
    return (filler,) * (k - 1) + (marker,)


@dataclass(frozen=True)
class Certificate:
    """Result of ``certify_not_recognizing``; ``certified`` says whether a witness was found.

    For n >= threshold the program accepts u^n iff pattern[n % n_modulus] (symbolic, exact). ``witness``
    is the least n >= threshold in the searched window where that differs from the language;
    ``counterexample_residues`` (mod ``span``) lists every class of n >= threshold where they differ
    when the language's period is known (span = lcm(n_modulus, language period)). ``certified`` False
    means only that the *eventual* pattern agrees with the language on the window searched: the program
    may still err below the threshold (``early_disagreements``, from the exact symbolic acceptance)."""

    certified: bool
    program: str
    fragment: str
    language: str
    u: tuple[str, ...]
    threshold: int
    n_modulus: int
    pattern: tuple[bool, ...]
    witness: int | None
    program_accepts: bool | None
    language_accepts: bool | None
    interpreter_checked: bool
    span: int | None
    counterexample_residues: tuple[int, ...]
    early_disagreements: tuple[int, ...]  # n < threshold (scanned up to 1000) where program != language
    reason: str

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["u"] = list(self.u)
        d["pattern"] = list(self.pattern)
        d["counterexample_residues"] = list(self.counterexample_residues)
        d["early_disagreements"] = list(self.early_disagreements)
        return d


def certify_not_recognizing(
    program: Program,
    language_fn: Callable[[int], bool],
    u: str | Sequence[str] = "a",
    *,
    language_period: int | None = None,
    search: int | None = None,
    interp_max_len: int = 100_000,
    form: EventualForm | None = None,
) -> Certificate:
    """Per-program certificate that ``program`` does not recognize a language, on the family u^n.

    ``language_fn(n)``: whether u^n is in the target language (an ``NLanguage`` carries its period; or
    pass ``language_period``). The program's eventual acceptance (n0, pattern) is computed exactly; the
    witness is the least n >= n0 where it differs from the language, searched over one full period
    lcm(L', language period) when the period is known, else over ``search`` values (default
    max(64, 4 L')). The witness is re-checked with the reference interpreter when n * |u| <=
    ``interp_max_len``. For C-RASP[] (or [local]) on u = a, L' = 1: the acceptance is eventually
    constant, so (aa)* (period 2) always yields a witness among n0, n0 + 1 (Lemma 37 / 38)."""
    ev = form if form is not None else eventual_form(program, u)
    n0, pattern = ev.acceptance()
    lp = len(pattern)
    lang_period = language_period if language_period is not None else getattr(language_fn, "period", None)
    lang_name = getattr(language_fn, "name", getattr(language_fn, "__name__", "language"))
    if lang_period is not None:
        if not (isinstance(lang_period, int) and lang_period >= 1):
            raise InputError("language_period", "an int >= 1", lang_period)
        span: int | None = math.lcm(lp, lang_period)
        window = span
    else:
        span = None
        window = search if search is not None else max(64, 4 * lp)
    witness = prog = lang = None
    bad: list[int] = []
    for n in range(n0, n0 + window):
        p_acc, l_acc = pattern[n % lp], bool(language_fn(n))
        if p_acc != l_acc:
            if witness is None:
                witness, prog, lang = n, p_acc, l_acc
            if span is not None:
                bad.append(n % span)
    early = tuple(n for n in range(min(n0, 1000)) if ev.accepts(n) != bool(language_fn(n)))
    common = dict(program=program.name, fragment=fragment(program), language=lang_name, u=ev.u, threshold=n0,
                  n_modulus=lp, pattern=pattern, span=span, early_disagreements=early)  # fmt: skip
    if witness is None:
        what = f"one period ({window})" if span is not None else f"{window} values"
        reason = (f"the eventual acceptance pattern {pattern} (n >= {n0}) agrees with the language on "
                  f"{what} of n: no witness")  # fmt: skip
        if early:
            reason += f" (it differs only below the threshold, at n in {list(early)[:10]})"
        return Certificate(False, witness=None, program_accepts=None, language_accepts=None,
                           interpreter_checked=False, counterexample_residues=(), reason=reason,
                           **common)  # fmt: skip
    checked = False
    if witness * len(ev.u) <= interp_max_len:
        interp = accepts(program, list(ev.u) * witness)
        if interp != prog:
            msg = f"symbolic acceptance {prog} but the interpreter says {interp} at n={witness}"
            raise AssertionError(msg)
        checked = True
    residues = f", and on every n >= {n0} with n % {span} in {sorted(bad)}" if span is not None else ""
    reason = (f"for n >= {n0} the program accepts u^n iff pattern[n % {lp}] = {pattern}; at n = {witness} it "
              f"{'accepts' if prog else 'rejects'} while the language {'accepts' if lang else 'rejects'}"
              f"{residues}")  # fmt: skip
    return Certificate(True, witness=witness, program_accepts=prog, language_accepts=lang,
                       interpreter_checked=checked, counterexample_residues=tuple(sorted(bad)), reason=reason,
                       **common)  # fmt: skip


# ----------------------------------------------------------------------------- random programs and fuzz
def random_program(
    rng: random.Random,
    alphabet: Sequence[str] = ("a", "b"),
    *,
    max_depth: int = 4,
    size: int = 10,
    const_range: tuple[int, int] = (-2, 2),
    moduli: Sequence[int] = (),
    max_offset: int = 0,
    name: str = "random",
) -> Program:
    """A random well-formed IR program: counting depth <= max_depth, constants in const_range, periodic
    ops with the given moduli (none: C-RASP[]), local counts with offsets <= max_offset (0: none)."""
    ops: list[Op] = []
    depth: dict[str, int] = {}
    bools: list[str] = []
    counts: list[str] = []
    serial = itertools.count(1)

    def new(kind: str, args: tuple[str, ...] = (), **kw: Any) -> str:
        nm = f"o{next(serial)}"
        op = Op(nm, kind, args, **kw)
        ops.append(op)
        depth[nm] = max((depth[a] for a in args), default=0) + (kind in ("count", "local"))
        (bools if op.sort == "bool" else counts).append(nm)
        return nm

    def pick(pool: list[str], shallow: bool = False) -> str | None:
        cands = [x for x in pool if not shallow or depth[x] < max_depth]
        if not cands:
            return None
        if shallow and rng.random() < 0.5:  # nest: count one of the deepest predicates available
            deepest = max(depth[x] for x in cands)
            return rng.choice([x for x in cands if depth[x] == deepest])
        recent = cands[-5:]
        return rng.choice(recent) if rng.random() < 0.6 else rng.choice(cands)

    for s in alphabet:
        new("sym", symbol=s)
    new("count", (rng.choice(bools),))
    kinds = ["count"] * 3 + ["le"] * 3 + ["and"] * 2 + ["not"] * 2 + ["add", "sub", "cond", "const", "true"]
    if moduli:
        kinds += ["periodic"] * 2
    if max_offset > 0:
        kinds += ["local"] * 2
    for _ in range(size):
        kind = rng.choice(kinds)
        if kind in ("count", "local"):
            b = pick(bools, shallow=True)
            if b is None:
                continue
            if kind == "count":
                new("count", (b,))
            else:
                k = rng.randint(1, min(3, max_offset + 1))
                new("local", (b,), offsets=tuple(sorted(rng.sample(range(max_offset + 1), k))))
        elif kind == "le":
            new("le", (pick(counts), pick(counts)))
        elif kind == "and":
            new("and", (pick(bools), pick(bools)))
        elif kind == "not":
            new("not", (pick(bools),))
        elif kind in ("add", "sub"):
            new(kind, (pick(counts), pick(counts)))
        elif kind == "cond":
            new("cond", (pick(bools), pick(counts), pick(counts)))
        elif kind == "const":
            new("const", value=rng.randint(*const_range))
        elif kind == "true":
            new("true")
        else:
            m = rng.choice(list(moduli))
            new("periodic", modulus=m, residue=rng.randrange(m))
    c = new("const", value=rng.randint(*const_range))
    out = new("le", (pick(counts), new("add", (pick(counts), c))))
    if rng.random() < 0.5:
        out = new("and", (out, pick(bools)))
    if rng.random() < 0.5:
        out = new("not", (out,))
    return Program(tuple(alphabet), tuple(ops), out, name=name)


@dataclass(frozen=True)
class FuzzReport:
    """Counts from ``fuzz``; ``mismatches == 0`` means every checked value agreed with the interpreter."""

    programs: int
    ops: int
    eventual_checks: int  # (op, position >= threshold) pairs compared with the interpreter
    exact_checks: int  # (op, position) pairs of the full piecewise values compared
    threshold_checks: int  # thresholds shown least (the eventual form fails at threshold - 1)
    mismatches: int
    failures: tuple[str, ...]
    max_threshold: int
    thresholds_beyond_n_max: int
    depth_histogram: Mapping[int, int]
    acceptance_patterns: Mapping[str, int]
    certified: int | None
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["failures"] = list(self.failures)
        d["depth_histogram"] = dict(self.depth_histogram)
        d["acceptance_patterns"] = dict(self.acceptance_patterns)
        return d


def fuzz(
    n_programs: int = 200,
    seed: int = 0,
    *,
    n_max: int = 300,
    u: str | Sequence[str] = "a",
    alphabet: Sequence[str] = ("a", "b"),
    max_depth: int = 4,
    size: int = 10,
    const_range: tuple[int, int] = (-2, 2),
    moduli: Sequence[int] = (),
    max_offset: int = 0,
    language: Callable[[int], bool] | None = None,
    programs: Sequence[Program] | None = None,
) -> FuzzReport:
    """Random programs (seeded; or the given ``programs``): for each, the symbolic evaluation along u^n is
    compared with the reference interpreter on u^n_max at every op and position: the eventual form at
    every position >= threshold, the exact piecewise values at every position, the least-threshold
    property, and the exact acceptance of every u^n, n <= n_max. With ``language``, also counts the
    programs certified not to recognize it."""
    t0 = time.perf_counter()
    rng = random.Random(seed)
    progs = list(programs) if programs is not None else [
        random_program(rng, alphabet, max_depth=max_depth, size=size, const_range=const_range, moduli=moduli,
                       max_offset=max_offset, name=f"fuzz{seed}_{k}")
        for k in range(n_programs)
    ]  # fmt: skip
    n_ops = ev_checks = ex_checks = th_checks = mismatches = max_th = beyond = 0
    certified = 0 if language is not None else None
    failures: list[str] = []
    depths: Counter[int] = Counter()
    patterns: Counter[str] = Counter()

    def fail(msg: str) -> None:
        nonlocal mismatches
        mismatches += 1
        if len(failures) < 10:
            failures.append(msg)

    for prog in progs:
        ev = eventual_form(prog, u)
        word = list(ev.u) * n_max
        vals = evaluate(prog, word)
        last = len(word)
        depths[max(op_depths(prog).values(), default=0)] += 1
        for op in prog.ops:
            n_ops += 1
            f, pw, got = ev.ops[op.name], ev.pieces[op.name], vals[op.name]
            max_th = max(max_th, f.threshold)
            beyond += f.threshold > last
            exact = pw.values(last)
            ex_checks += last + 1
            if exact != got:
                i = next(i for i in range(last + 1) if exact[i] != got[i])
                fail(f"{prog.name}:{op.name} exact value at {i}: {exact[i]} != {got[i]}")
            if f.threshold <= last:
                eventual = f.values_between(f.threshold, last)
                ev_checks += len(eventual)
                if eventual != got[f.threshold :]:
                    i = next(i for i in range(f.threshold, last + 1) if eventual[i - f.threshold] != got[i])
                    fail(f"{prog.name}:{op.name} eventual value at {i}: {f.at(i)} != {got[i]}")
            if 0 < f.threshold <= last:
                th_checks += 1
                if f.at(f.threshold - 1) == got[f.threshold - 1]:
                    fail(f"{prog.name}:{op.name} threshold {f.threshold} is not the least")
        n0, pattern = ev.acceptance()
        out = vals[prog.output]
        p = len(ev.u)
        for n in range(n_max + 1):
            if ev.accepts(n) != out[n * p] or (n >= n0 and pattern[n % len(pattern)] != out[n * p]):
                fail(f"{prog.name}: acceptance at n={n}")
        if 0 < n0 <= n_max and pattern[(n0 - 1) % len(pattern)] == out[(n0 - 1) * p]:
            fail(f"{prog.name}: acceptance threshold {n0} is not the least")
        key = "".join("1" if x else "0" for x in pattern)
        patterns[key] += 1
        if language is not None:
            cert = certify_not_recognizing(prog, language, ev.u, form=ev)
            certified += cert.certified
    return FuzzReport(
        programs=len(progs), ops=n_ops, eventual_checks=ev_checks, exact_checks=ex_checks,
        threshold_checks=th_checks, mismatches=mismatches, failures=tuple(failures), max_threshold=max_th,
        thresholds_beyond_n_max=beyond, depth_histogram=MappingProxyType(dict(sorted(depths.items()))),
        acceptance_patterns=MappingProxyType(dict(patterns)), certified=certified,
        seconds=time.perf_counter() - t0,
    )  # fmt: skip
