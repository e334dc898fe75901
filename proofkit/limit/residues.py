"""The Delta reduction of the proof of Theorem 4.1 (Izzo, Nichani & Lee 2025, App. A.1, "Including
positional embedding vectors"): for Delta > 1 each token is paired with its position mod Delta, and the
construction of z runs on the reduced alphabet of Delta |Sigma| tokens. A string realizes the reduced counts
only if its residues alternate, so at Delta = 2 the residue-0 and residue-1 totals of z's prefix may differ by
at most 1; the floors m_(s, r) = floor(n_(s, r)/|A| * tau/eps) need not keep them that close, and then z's
prefix is no string unless a filler token is added. Decided here exactly (Fractions) on seeded instances.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

#: the tokens of the instances: |Sigma| = 6, every (token, residue) attended
TOKENS = "abcdef"


@dataclass(frozen=True)
class Imbalance:
    """A reduced instance whose floors leave the residue totals more than 1 apart: the trial index, the
    reduced counts n_(s, r), tau, eps and the two residue totals of the floors."""

    trial: int
    counts: dict[tuple[str, int], int]
    tau: int
    eps: Fraction
    residue0: int
    residue1: int


def residue_imbalance(seed: int, trials: int) -> Imbalance | None:
    """``trials`` seeded Delta = 2 instances (numpy default_rng(seed)) with uniform attention over the
    6 tokens, so that every (token, residue) is attended and no filler is needed: per residue a multinomial
    of 300..2999 positions with shared Dirichlet weights, tau in 1..3, eps = 1/k for k in 10..59. The first
    instance whose floors m_(s, r) = floor(n_(s, r)/|A| * tau/eps) give residue totals more than 1 apart,
    or None."""
    rng = np.random.default_rng(seed)
    for trial in range(trials):
        half = int(rng.integers(300, 3000))
        share = rng.dirichlet(np.ones(len(TOKENS)))
        n: dict[tuple[str, int], int] = {}
        for r in (0, 1):
            c = rng.multinomial(half, share)
            n.update({(t, r): int(v) for t, v in zip(TOKENS, c)})
        tau, eps = int(rng.integers(1, 4)), Fraction(1, int(rng.integers(10, 60)))
        A = sum(n.values())
        m = {k: int(Fraction(v, A) * tau / eps) for k, v in n.items()}
        s0, s1 = (sum(m[(t, r)] for t in TOKENS) for r in (0, 1))
        if abs(s0 - s1) > 1:
            return Imbalance(trial, n, tau, eps, s0, s1)
    return None


__all__ = ["TOKENS", "Imbalance", "residue_imbalance"]
