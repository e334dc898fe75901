"""Adversarial test sequences: the deterministic inputs that random sampling misses.

Random tokens almost surely avoid every set of measure zero, yet a learner can differ from the truth
exactly there: on sparse sequences (one non-zero token among zeros), on repeated tokens, on the
vertices and facets of the token box, and, for models with a kinked activation (ReLU RNNs), on inputs
that put a hidden unit's pre-activation exactly at the kink. :func:`adversarial_sequences` adds these
to the generalization checks' test suites (:mod:`proofkit.engine.generalization`) and so to the
counterexample search's test sequences (:mod:`proofkit.engine.falsify`).

Families opt into kink inputs with a hook ``kink_sequences(theta, t, support)`` returning sequences of
length t (N x t x n) whose pre-activations sit at a kink (see
:meth:`proofkit.families.rnn.VanillaRNN.kink_sequences`).

Every generator is deterministic (seeded by ``(seed, t)``, independent of call order) and the number of
sequences per length is capped (:func:`limit`: long sequences cost t steps each, and the counterexample
search evaluates its test suites on every candidate): the groups are taken round-robin, so every kind is
represented before any kind gets a second sequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..families.kinks import positions
from .support import Support, corner_sequences

#: most adversarial sequences per length: (longest length, count), then LONG_LIMIT past the last
LIMITS = ((10, 32), (100, 12))
LONG_LIMIT = 4
#: all vertex sequences of the token box when there are at most this many, else seeded ones
VERTEX_LIMIT = 16
#: sampled sequences per group (repeated tokens, vertex sequences, facet tokens per facet)
PER_GROUP = 3


def limit(t: int) -> int:
    """The most adversarial sequences at length t."""
    return next((count for longest, count in LIMITS if t <= longest), LONG_LIMIT)


def sparse_sequences(support: Support, t: int) -> np.ndarray:
    """One non-zero token among zero (lower-corner) tokens, at the last, a middle and the first
    position; the token is the all-ones corner of the box, then each basis vector (one free
    coordinate at its upper end)."""
    lo, hi = support.token_box()
    tokens = [hi.copy()]
    for i in support.free_coordinates():
        e = lo.copy()
        e[i] = hi[i]
        tokens.append(e)
    out = []
    for x in tokens:
        for j in positions(t):
            s = np.tile(lo, (t, 1)).astype(float)
            s[j] = x
            out.append(s)
    return np.array(out).reshape(-1, t, support.n)


def repeated_sequences(support: Support, t: int, rng: np.random.Generator,
                       count: int = PER_GROUP) -> np.ndarray:
    """``count`` sampled tokens, each repeated t times."""
    x = support.tokens(rng, (count,))
    return np.repeat(x[:, None, :], t, axis=1)


def vertex_sequences(support: Support, t: int, rng: np.random.Generator,
                     most: int = VERTEX_LIMIT, count: int = PER_GROUP) -> np.ndarray:
    """Every vertex sequence of the token box (each token a vertex) when there are at most ``most``,
    else ``count`` seeded ones."""
    lo, hi = support.token_box()
    free = support.free_coordinates()
    total = len(free) * t
    if 2 ** total <= most:
        patterns = [[(code >> b) & 1 for b in range(total)] for code in range(2 ** total)]
    else:
        patterns = [list(rng.integers(0, 2, total)) for _ in range(count)]
    out = []
    for bits in patterns:
        s = np.tile(lo, (t, 1)).astype(float)
        for b, on in enumerate(bits):
            if on:
                s[b // len(free), free[b % len(free)]] = hi[free[b % len(free)]]
        out.append(s)
    return np.array(out).reshape(-1, t, support.n)


def facet_sequences(support: Support, t: int, rng: np.random.Generator) -> np.ndarray:
    """For each facet of the token box (a free coordinate pinned at its lower or upper end), one
    sequence of sampled tokens lying on that facet."""
    lo, hi = support.token_box()
    out = []
    for i in support.free_coordinates():
        for end in (lo[i], hi[i]):
            s = support.tokens(rng, (t,))
            s[:, i] = end
            out.append(s)
    return np.array(out).reshape(-1, t, support.n)


def kink_sequences(models: Sequence[tuple[Any, Any]], t: int, support: Support) -> np.ndarray:
    """Sequences from each model's ``kink_sequences(theta, t, support)`` hook (none without one)."""
    out = [np.asarray(fam.kink_sequences(theta, t, support), dtype=float)
           for fam, theta in models if hasattr(fam, "kink_sequences")]
    return np.concatenate(out) if out else np.zeros((0, t, support.n))


def adversarial_sequences(support: Support, t: int, models: Sequence[tuple[Any, Any]] = (),
                          seed: int = 0) -> np.ndarray:
    """The adversarial test sequences of length t (N x t x n), deterministic in (support, t, models,
    seed): sparse, kink (``models``: (family, parameters) pairs with the optional hook), repeated,
    vertex and facet sequences, taken round-robin, without duplicates and without the corner
    sequences (:func:`proofkit.engine.support.corner_sequences`, which the test suites hold already), at most
    :func:`limit` (t) of them."""
    rng = np.random.default_rng([seed, t])
    groups = [sparse_sequences(support, t), kink_sequences(models, t, support),
              repeated_sequences(support, t, rng), vertex_sequences(support, t, rng),
              facet_sequences(support, t, rng)]
    cap = limit(t)
    seen = {s.tobytes() for s in corner_sequences(support, t).astype(float)}
    out: list[np.ndarray] = []
    for i in range(max(len(g) for g in groups)):
        for g in groups:
            if i < len(g) and len(out) < cap and g[i].tobytes() not in seen:
                seen.add(g[i].tobytes())
                out.append(g[i])
    return np.array(out).reshape(-1, t, support.n)
