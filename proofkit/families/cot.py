"""Scalar recurrences h_t = g(h_{t-1}, x_t) learned with chain-of-thought labels (the true states h_t), in
exact rationals. Zero CoT risk makes a learned transition g~ equal g on the visited pairs (h_{t-1}, x_t)
only; whether h~_t = h_t at longer lengths depends on whether test states leave the visited set. These
are the pieces a proxy of that statement is built from: a tent learner that differs from g only outside a
region, and the paired trajectories of g and g~."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction

Transition = Callable[[Fraction, Fraction], Fraction]


def tent(h: Fraction, lo: Fraction, hi: Fraction) -> Fraction:
    """A tent of height 1 on (lo, hi), zero elsewhere (exact rationals)."""
    if h <= lo or h >= hi:
        return Fraction(0)
    mid = (lo + hi) / 2
    return 1 - abs(h - mid) / (mid - lo)


def final_states(g: Transition, g_learned: Transition, h0: Fraction, tokens: Iterable[Fraction]
                 ) -> tuple[Fraction, Fraction]:
    """(h_t, h~_t) after reading ``tokens`` from the start state ``h0`` under g and g~."""
    h = ht = h0
    for x in tokens:
        h, ht = g(h, x), g_learned(ht, x)
    return h, ht


def constant_token_trajectories(g: Transition, g_learned: Transition, starts: Iterable[Fraction],
                                tokens: Iterable[Fraction], max_length: int
                                ) -> Iterator[tuple[Fraction, Fraction, int, Fraction, Fraction]]:
    """For every start state h_0 and constant token x, the states (h_0, x, t, h_t, h~_t) of g and g~ at
    every length t = 1..max_length."""
    tokens = tuple(tokens)
    for h0 in starts:
        for x in tokens:
            h = ht = h0
            for t in range(1, max_length + 1):
                h, ht = g(h, x), g_learned(ht, x)
                yield h0, x, t, h, ht
