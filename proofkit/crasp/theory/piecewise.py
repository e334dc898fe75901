"""Exact piecewise values of C-RASP ops along u^infinity, the machinery behind
:mod:`proofkit.crasp.theory.eventual`: on each of finitely many intervals of positions an op has one
form per residue r = i mod L (L = lcm(|u|, period)), a Boolean or an affine function alpha_r + beta_r * i.

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
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...errors import InputError
from ..language.ir import Op

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
