"""Exact evaluation of a one-layer limit transformer from token counts (Delta = 1), for lengths up to 10^6
and beyond.

With Delta = 1 (one positional vector) the logit of a key depends only on its token and, within the last
tau + 1 positions (offsets 0..tau, the query included), on its offset (Izzo, Nichani & Lee 2025, Sec. 3.1).
A string is therefore represented without loss for the last position's output by the token counts of its
prefix (offsets > tau) and its suffix of tau + 1 tokens: :class:`CountString`. The forward pass groups keys
by (token, offset class) and costs O(|Sigma| + tau) whatever the length. The flush is the exact integer
decision of :mod:`proofkit.limit.flush`; surviving terms ``N^-g`` with irrational value are evaluated with
mpmath (``arithmetic='mpmath'``) or, with ``interval=True``, in mpmath interval arithmetic so the output is a
rigorous enclosure (``arithmetic='interval'``). Cross-checked against :func:`model.evaluate` in the tests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath as mp

from ..errors import InputError
from . import flush
from .model import LimitTransformer, _act, _dot


@dataclass(frozen=True)
class CountString:
    """A string by its prefix token counts (positions at offsets > tau, order irrelevant at Delta = 1)
    followed by its suffix (the last min(N, tau + 1) tokens, the query last)."""

    prefix: tuple[tuple[str, int], ...]
    suffix: tuple[str, ...]

    @property
    def length(self) -> int:
        return sum(c for _, c in self.prefix) + len(self.suffix)

    def counts(self) -> dict[str, int]:
        """Prefix counts n_s (zero counts dropped)."""
        return {t: c for t, c in self.prefix if c}

    def spell(self) -> tuple[str, ...]:
        """The string itself (prefix tokens in alphabet order of the stored counts), for short strings."""
        return tuple(t for t, c in self.prefix for _ in range(c)) + self.suffix


def count_string(counts: Mapping[str, int], suffix: Sequence[str]) -> CountString:
    """A :class:`CountString` from prefix counts and a suffix (checked: non-negative counts)."""
    if any(not isinstance(c, int) or c < 0 for c in counts.values()):
        raise InputError("counts", "non-negative integers", dict(counts))
    return CountString(tuple(sorted((t, c) for t, c in counts.items() if c)), tuple(suffix))


def from_string(model: LimitTransformer, x: Sequence[str]) -> CountString:
    """The count representation of an explicit string (suffix: the last tau + 1 tokens)."""
    k = min(len(x), model.tau + 1)
    return count_string(Counter(x[: len(x) - k]), x[len(x) - k:])


@dataclass(frozen=True)
class CountEvaluation:
    """The output at the last position, the attention weight per key class (``('prefix', token)`` or
    ``('suffix', offset)``), the classes with maximal logit, and the arithmetic used."""

    out: tuple[Any, ...]
    weights: dict[tuple[str, Any], Any]
    argmax: tuple[tuple[str, Any], ...]
    hardmax: bool
    arithmetic: str


def _check(model: LimitTransformer, cs: CountString) -> None:
    if model.Delta != 1 or not model.standard:
        raise InputError("model", "Delta = 1 and a periodic, local, translation-invariant model", model.name)
    if not cs.suffix or (len(cs.suffix) != model.tau + 1 and cs.prefix):
        raise InputError("suffix", f"{model.tau + 1} tokens (fewer only when the prefix is empty)",
                         len(cs.suffix))
    bad = [t for t, _ in cs.prefix if t not in model.E] + [t for t in cs.suffix if t not in model.E]
    if bad:
        raise InputError("x", "tokens of the alphabet " + ",".join(model.alphabet), bad[0])


def classes(model: LimitTransformer, cs: CountString) -> list[tuple[tuple[str, Any], str, int, Fraction]]:
    """Key classes at the last query: (class, token, multiplicity, logit), exact."""
    _check(model, cs)
    qv = model.apply("Q", model.y(cs.suffix[-1], 0))
    out = [(("prefix", t), t, c, _dot(model.apply("K", model.y(t, 0)), qv)) for t, c in cs.prefix]
    L = len(cs.suffix)
    for i, t in enumerate(cs.suffix):
        k = L - 1 - i
        out.append((("suffix", k), t, 1, _dot(model.apply("K", model.y(t, 0)), qv) + model.bias(k)))
    return out


def _iv(v: Any) -> Any:
    v = Fraction(v)
    return mp.iv.mpf(v.numerator) / v.denominator


def evaluate_counts(model: LimitTransformer, cs: CountString, p: int | None, *, rule: str = "inclusive",
                    dps: int = 60, interval: bool = False) -> CountEvaluation:
    """The output at the last position of the string ``cs`` at ``p`` bits (None: infinite precision),
    softmax terms flushed exactly as in :func:`model.evaluate` (scope 'terms')."""
    N = cs.length
    cl = classes(model, cs)
    top = max(a for *_, a in cl)
    kept = [(c, t, m, top - a) for c, t, m, a in cl if p is None or not flush.term_flushed(N, top - a, p,
                                                                                           rule)]
    exact = {c: flush.term_value(N, g) for c, _, _, g in kept}
    if all(v is not None for v in exact.values()):
        terms, arithmetic = exact, "exact"
    elif interval:
        mp.iv.dps = dps
        terms = {c: mp.iv.mpf(N) ** (-_iv(g)) for c, _, _, g in kept}
        arithmetic = "interval"
    else:
        mp.mp.dps = dps
        terms = {c: mp.power(N, -mp.mpf(g.numerator) / g.denominator) for c, _, _, g in kept}
        arithmetic = "mpmath"
    conv = _iv if arithmetic == "interval" else (lambda v: v)
    total = sum(terms[c] * m for c, _, m, _ in kept)
    weights = {c: terms[c] * m / total for c, _, m, _ in kept}
    Y = [conv(v) for v in model.y(cs.suffix[-1], 0)]
    for c, t, _, _ in kept:
        Y = [Yc + weights[c] * conv(v) for Yc, v in zip(Y, model.apply("V", model.y(t, 0)))]
    if model.A:
        pre = [sum((conv(a) * y for a, y in zip(row, Y)), conv(0)) + conv(bb) for row, bb in zip(model.A,
                                                                                                 model.b)]
        hidden = [_act(model.psi, z) for z in pre]
        Y = [Yc + sum((conv(b) * h for b, h in zip(row, hidden)), conv(0)) for Yc, row in zip(Y, model.B)]
    out = tuple(sum((conv(u) * y for u, y in zip(row, Y)), conv(0)) for row in model.U)
    argmax = tuple(c for c, _, _, a in cl if a == top)
    return CountEvaluation(out, weights, argmax, {c for c, *_ in kept} == set(argmax), arithmetic)


def attention_average(model: LimitTransformer, cs: CountString, p: int) -> dict[str, Fraction]:
    """The hardmax attention distribution over tokens (token -> weight) of a string in the hardmax regime
    (every kept term is maximal); raises if it is not a hardmax."""
    ev = evaluate_counts(model, cs, p)
    if not ev.hardmax:
        raise InputError("x", "a string in the hardmax regime (every kept softmax term maximal)", cs.length)
    tok = {c: t for c, t, _, _ in classes(model, cs)}
    out: dict[str, Fraction] = {}
    for c, w in ev.weights.items():
        out[tok[c]] = out.get(tok[c], Fraction(0)) + w
    return out


__all__ = ["CountString", "CountEvaluation", "count_string", "from_string", "classes", "evaluate_counts",
           "attention_average"]
