"""The counts-based evaluation (:func:`.counts.evaluate_counts`) against the exact forward pass
(:func:`.model.evaluate`), string by string: the check that prefix counts plus the last tau + 1 tokens
determine the output (Izzo, Nichani & Lee 2025, Sec. 3.1, Delta = 1), on the Delta = 1 zoo models and on
seeded random integer-table models.

Both sides are exact Fractions where every surviving softmax term is rational; where one is irrational both
are mpmath values at 60 digits, compared within 1e-40 (so that part is high-precision sampling, not exact).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

import numpy as np

from .counts import evaluate_counts, from_string
from .model import LimitTransformer, evaluate
from .survey import random_model
from .zoo import MODELS

#: the precisions each string is evaluated at: 1 bit and infinite precision (no flush)
PRECISIONS = (1, None)
#: the tolerance of the comparison where a surviving softmax term is irrational (60-digit mpmath values)
MPMATH_TOLERANCE = 1e-40


def comparison_models(seed: int, random_models: int = 4) -> list[LimitTransformer]:
    """The Delta = 1 zoo models, then ``random_models`` random integer-table models (|Sigma| = 3, tau = 2,
    :func:`.survey.random_model`, named random0, random1, ...) drawn from numpy default_rng(seed)."""
    rng = np.random.default_rng(seed)
    models = [m() for m in MODELS.values() if m().Delta == 1]
    return models + [random_model(rng, 3, 2, f"random{i}") for i in range(random_models)]


@dataclass(frozen=True)
class Mismatch:
    """The first string whose two evaluations differ: the model, the string, the precision (None: no
    flush), both outputs and whether both sides were exact."""

    model: str
    string: tuple[str, ...]
    bits: int | None
    forward: tuple[Any, ...]
    counts: tuple[Any, ...]
    exact: bool


@dataclass(frozen=True)
class CrossCheck:
    """``cases`` strings compared (string, precision and model each a case) before the first mismatch, or
    all of them; ``rounded``: some case had an irrational term (compared in mpmath, not exactly)."""

    cases: int
    rounded: bool
    mismatch: Mismatch | None


def counts_against_forward(models: Sequence[LimitTransformer], max_length: int) -> CrossCheck:
    """Every string of length 1..``max_length`` over each model's alphabet, at each of :data:`PRECISIONS`:
    the counts-based output against the exact forward pass; stops at the first mismatch."""
    n, rounded = 0, False
    for m in models:
        for length in range(1, max_length + 1):
            for x in product(m.alphabet, repeat=length):
                for bits in PRECISIONS:
                    a, b = evaluate(m, x, bits), evaluate_counts(m, from_string(m, x), bits)
                    exact = a.arithmetic == "exact" == b.arithmetic
                    rounded |= not exact
                    same = a.out == b.out if exact else all(abs(u - v) < MPMATH_TOLERANCE
                                                            for u, v in zip(a.out, b.out))
                    if not same:
                        return CrossCheck(n, rounded, Mismatch(m.name, x, bits, a.out, b.out, exact))
                    n += 1
    return CrossCheck(n, rounded, None)


__all__ = ["PRECISIONS", "MPMATH_TOLERANCE", "comparison_models", "Mismatch", "CrossCheck",
           "counts_against_forward"]
