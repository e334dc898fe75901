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

How each op's pieces are computed (the constructive content of the induction of Lemma 37) is in
:mod:`proofkit.crasp.theory.piecewise`.

API:

- ``eventual_form(program, u)`` -> ``EventualForm`` (``.ops[name]``: threshold, modulus L, minimal
  period, per-residue values; ``.value(name, i)`` exact at any position; ``.accepts(n)`` exact for u^n);
- ``acceptance_eventually(program, u)`` -> (n0, pattern): for every n >= n0 the program accepts u^n iff
  ``pattern[n % L']``, L' = L / p = ``len(pattern)``; n0 is the least such threshold;
- the target languages on u^n and ``certify_not_recognizing(program, language, u)`` -> ``Certificate``
  (what a certificate proves) are in :mod:`proofkit.crasp.theory.nonrecognition`;
- ``fuzz(...)`` -> ``FuzzReport`` (random programs, symbolic forms against the reference interpreter) is in
  :mod:`proofkit.crasp.theory.eventual_fuzz`.

Inputs are IR programs (``proofkit.crasp.parse`` output or hand-built ``Program``s); nothing is evaluated
as Python text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from ...errors import InputError
from ..language.analysis import period, validate
from ..language.ir import Program
from .piecewise import Entry, Piecewise, _entry_value, _fill, _op_piecewise, _residue_span


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
