"""Seeded searches over token embeddings E that satisfy the distortion condition (7) of Richard 2024's
Theorem 3.1, for a certified violation of its probability bound, and the other sweeps over seeded draws.

Each seed gives a numpy default_rng(seed), a random word s in [t]^n drawn from it and then each family's
E (the same generator continued); (7) is checked exactly on the rational entries of E, and the completion
probabilities are balls (:mod:`.jl`), so a violation found is a certified counterexample.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from flint import arb

from .jl import (
    Embedding,
    completion,
    corrected_step_bound,
    distortion,
    failure_bound,
    gaussian,
    logit_rows,
    outside_copy,
    reflect,
    row_deviation,
    satisfies_7,
    scaled,
    shifted,
    square_scale,
    steps_against,
)

Family = Callable[[np.random.Generator, tuple[int, ...]], Embedding | None]


def draws(n: int, t: int, seeds: Iterable[int], families: dict[str, Family]
          ) -> Iterator[tuple[int, str, tuple[int, ...], Embedding | None]]:
    """(seed, family, s, E) for each seed and family: s in [t]^n from numpy default_rng(seed), then the
    family's E from the same generator (None where the family does not apply)."""
    for seed in seeds:
        for name, make in families.items():
            rng = np.random.default_rng(seed)
            s = tuple(int(x) for x in rng.integers(0, t, size=n))
            yield seed, name, s, make(rng, s)


def gaussian_successes(n: int, t: int, eps: Fraction, d: int, seeds: Iterable[int]) -> int:
    """How many seeded draws of the proof's Gaussian embedding (N(0, 1/d) entries, :func:`jl.gaussian`)
    satisfy (7) exactly for their random word: the JL lemma promises success with probability >= 1/n per
    draw."""
    ok = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        s = tuple(int(x) for x in rng.integers(0, t, size=n))
        ok += satisfies_7(gaussian(t, d, rng), s, eps)
    return ok


@dataclass(frozen=True)
class Candidate:
    """One embedding in the search: family, seed, word, E, and what was decided about it."""

    family: str
    seed: int
    s: tuple[int, ...]
    E: Embedding
    eps: Fraction


@dataclass(frozen=True)
class Witness:
    """A certified counterexample to '(7) => the probability bound': exact (7), a ball failure mass
    above the ball bound."""

    cand: Candidate
    vg: Fraction
    failure: arb
    bound: arb
    dist: tuple[Fraction, Fraction] | None


def first_violation(cand: Candidate, grid: Sequence[Fraction]) -> Witness | None:
    """The smallest v gamma of ``grid`` where the completion failure of ``cand`` certainly exceeds
    n t exp(-v gamma/n + 2 eps), or None."""
    rows = logit_rows(cand.E, cand.s)
    n, t = len(cand.s), len(cand.E)
    for vg in grid:
        c, b = completion(rows, vg).failure, failure_bound(n, t, cand.eps, vg)
        if c > b:
            return Witness(cand, vg, c, b, distortion(cand.E, cand.s))
    return None


@dataclass(frozen=True)
class SearchResult:
    """How hard the search looked and what it found, per family."""

    tried: dict[str, int]
    satisfied: dict[str, int]
    refuted: dict[str, int]
    witnesses: dict[str, Witness]
    grid: tuple[Fraction, ...]

    def preferred_witness(self, family: str) -> Witness:
        """The witness of ``family`` if it has one (the proof's own embedding first), else one where (7)
        is not vacuous (first by family order), else the first."""
        return min(self.witnesses.values(), key=lambda x: (x.cand.family != family, x.dist is None))


def search(n: int, t: int, eps: Fraction, d: int, seeds: Sequence[int], grid: Sequence[Fraction],
           families: dict[str, Family]) -> SearchResult:
    """For each seed and family (:func:`draws`): a random word s in [t]^n, the family's E, (7) checked
    exactly (those that fail it are skipped), then the v gamma grid searched for a certified violation of
    the probability bound."""
    tried = {f: 0 for f in families}
    sat = dict(tried)
    bad = dict(tried)
    wit: dict[str, Witness] = {}
    for seed, name, s, E in draws(n, t, seeds, families):
        if E is None:
            continue
        tried[name] += 1
        if not satisfies_7(E, s, eps):
            continue
        sat[name] += 1
        w = first_violation(Candidate(name, seed, s, E, eps), grid)
        if w is not None:
            bad[name] += 1
            wit.setdefault(name, w)
    return SearchResult(tried, sat, bad, wit, tuple(grid))


def default_families(t: int, d: int, eps: Fraction) -> dict[str, Family]:
    """The searched families at dimension d: the proof's Gaussian JL embedding; one-hot scaled to
    squared distances 2 c2 (c2 = :func:`jl.square_scale`, so (7) holds at its lower end) and rotated by
    two Householder reflections; the one-hot translate with a target at the origin; one-hot with a token
    outside s copying a target."""
    c2 = square_scale(eps)
    return {
        "gaussian JL": lambda rng, s: gaussian(t, d, rng),
        "scaled+rotated one-hot": lambda rng, s: reflect(scaled(t, d, c2), rng, 2) if d >= t else None,
        "shifted one-hot": lambda rng, s: shifted(t, d, s[-1]) if d >= t else None,
        "outside token": lambda rng, s: outside_copy(t, d, s) if d >= t else None,
    }


def corrected_steps(n: int, t: int, eps: Fraction, d: int, seeds: Iterable[int], grid: Sequence[Fraction]
                    ) -> Iterator[tuple[str, int, tuple[int, ...], Fraction, Fraction, int, arb, arb]]:
    """Every step of every searched E (:func:`default_families`, :func:`draws`) whose row deviation eta
    (:func:`jl.row_deviation`) is < 1/2, at each v gamma of ``grid``: (family, seed, s, eta, v gamma, r,
    the step failure q_r, the corrected bound t exp(-(v gamma/n)(1 - 2 eta)))."""
    for seed, family, s, E in draws(n, t, seeds, default_families(t, d, eps)):
        if E is None or len(s) < 2 or (eta := row_deviation(E, s)) >= Fraction(1, 2):
            continue
        for vg, r, q, b in steps_against(logit_rows(E, s), grid,
                                         lambda vg, eta=eta: corrected_step_bound(n, t, eta, vg)):
            yield family, seed, s, eta, vg, r, q, b
