"""Exact checks of MAJ2 sentences (:mod:`proofkit.crasp.theory.maj2`) against a predicate of the word
length: on a^n and seeded random words for every length up to a bound, then on every word up to a shorter
exhaustive bound (Huang et al. 2024, Remark 32: a MAJ2[<] sentence for the even lengths, which C-RASP[]
cannot express)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..semantics.vector import all_strings
from . import maj2


@dataclass(frozen=True)
class LengthFailure:
    """A word on which the sentence's value differs from the length predicate, the sentence's value there,
    and whether it came from the exhaustive phase (else from a^n or a seeded word)."""

    word: str
    value: bool
    exhaustive: bool


def length_predicate_failure(formula: maj2.Formula, alphabet: Sequence[str], predicate: Callable[[int], bool],
                             max_len: int, exhaustive_len: int, seed: int = 0,
                             per_length: int = 2) -> LengthFailure | None:
    """First word w with accepts(formula, w) != predicate(|w|): for each length 1..max_len the word
    ``alphabet[0] * n`` and ``per_length`` seeded random words (one generator over all lengths), then every
    word of length 1..exhaustive_len in lexicographic order; None when there is none."""
    rng = np.random.default_rng(seed)
    k = len(alphabet)
    for n in range(1, max_len + 1):
        words = [alphabet[0] * n] + ["".join(alphabet[i] for i in rng.integers(0, k, n))
                                     for _ in range(per_length)]
        for w in words:
            if (v := maj2.accepts(formula, w)) != predicate(n):
                return LengthFailure(w, v, False)
    for n in range(1, exhaustive_len + 1):
        for row in all_strings(k, n):
            w = "".join(alphabet[i] for i in row)
            if (v := maj2.accepts(formula, w)) != predicate(n):
                return LengthFailure(w, v, True)
    return None


def agrees_on_powers(formula: maj2.Formula, letter: str, predicate: Callable[[int], bool],
                     max_len: int) -> bool:
    """accepts(formula, letter^n) == predicate(n) for every n = 0..max_len."""
    return all(maj2.accepts(formula, letter * n) == predicate(n) for n in range(0, max_len + 1))
