"""The shares of the g-part of the auxiliary string z in case C2 (Izzo, Nichani & Lee 2025, App. A.1, case 2:
"by roughly the same logic which we used to deduce (1)"), exactly.

In case C2 z holds m_s = floor(n_s/|A_g| * tau/eps^2) copies of each s in S_g \\ S_f. The text compares the
shares m_s / sum m with n_s/|A_g|; those shares sum to 1 while the n_s/|A_g| over S_g \\ S_f sum to
1 - |A_f cap A_g|/|A_g|, which case 2 only bounds by eps, so the comparison is off by up to eps. Renormalized
over S_g \\ S_f (n_s / sum_{S_g \\ S_f} n) the shares are within O(eps^2/tau). The instances here are the
two-token pairs where f attends a and g attends a and b, with |A_f cap A_g|/|A_g| at or near eps (the worst
case of the printed comparison).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .auxiliary import Construction, build_z
from .counts import CountString, count_string
from .model import LimitTransformer
from .survey import table_model

#: one instance of the construction: (f, g, x, tau, eps)
Instance = tuple[LimitTransformer, LimitTransformer, CountString, int, Fraction]


def attending_pair(tau: int) -> tuple[LimitTransformer, LimitTransformer]:
    """Tokens a, b with one-hot values, readout e_1, no MLP and no positional logit (offsets 0..tau): f
    attends a only (logit table [[1, 0], [1, 0]]), g attends a and b alike ([[1, 1], [1, 1]])."""
    f = table_model([[1, 0], [1, 0]], [0] * (tau + 1), [[1, 0], [0, 1]], [], [], [], [[1, 0]], "f")
    g = table_model([[1, 1], [1, 1]], [0] * (tau + 1), [[1, 0], [0, 1]], [], [], [], [[1, 0]], "g")
    return f, g


def share_instance() -> Instance:
    """|Sigma| = 2, tau = 2, eps = 1/4: f attends a, g attends a and b; n_a = 240, n_b = 760, suffix bbb
    (case C2: |A_f cap A_g|/|A_g| = 6/25 <= eps)."""
    f, g = attending_pair(2)
    return f, g, count_string({"a": 240, "b": 760}, "bbb"), 2, Fraction(1, 4)


def near_eps_instances(seed: int, count: int = 40) -> list[Instance]:
    """``count`` seeded instances (numpy default_rng(seed)) of :func:`attending_pair` with tau in {1, 2},
    eps = 1/k for k in 3..8, n_a in 200..1999 and n_b = floor(n_a (1/eps - 1)) plus 0..49, so that
    |A_f cap A_g|/|A_g| = n_a/(n_a + n_b) is close to eps (case C2 where it is at most eps: its worst
    case)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        tau, eps = int(rng.integers(1, 3)), Fraction(1, int(rng.integers(3, 9)))
        na = int(rng.integers(200, 2000))
        nb = int(na * (1 / float(eps) - 1)) + int(rng.integers(0, 50))
        f, g = attending_pair(tau)
        out.append((f, g, count_string({"a": na, "b": nb}, "b" * (tau + 1)), tau, eps))
    return out


def share_deviation(c: Construction, counts: Mapping[str, int], total: int) -> Fraction:
    """max over s in S_g \\ S_f of |m_s / sum m - n_s / total|: ``total`` = |A_g| is the printed comparison,
    the sum of n_s over S_g \\ S_f the renormalized one. The g-part must be non-empty."""
    G = sum(c.g_part.values())
    return max(abs(Fraction(m, G) - Fraction(counts[t], total)) for t, m in c.g_part.items())


@dataclass(frozen=True)
class RenormalizedShares:
    """The renormalized deviation of every C2 instance with a non-empty g-part, in order, up to the first
    that exceeds 2|Sigma| eps^2/tau (where |S_g| eps^2/tau <= 1/2); that one as ``failure`` =
    (|Sigma|, tau, eps, deviation), else None."""

    deviations: list[Fraction]
    failure: tuple[int, int, Fraction, Fraction] | None


def renormalized_shares(instances: Sequence[Instance]) -> RenormalizedShares:
    """The renormalized share comparison (:func:`share_deviation` over S_g \\ S_f) on each C2 instance of
    ``instances`` whose g-part is non-empty; the others are skipped."""
    rows: list[Fraction] = []
    for f, g, x, tau, eps in instances:
        c = build_z(f, g, x, tau, eps)
        G, n = sum(c.g_part.values()), x.counts()
        if c.case != "C2" or not G:
            continue
        sig = len(f.alphabet)
        dev = share_deviation(c, n, sum(n[t] for t in c.g_part))
        if dev > 2 * sig * eps**2 / tau and len(c.Ag.tokens) * eps**2 / tau <= Fraction(1, 2):
            return RenormalizedShares(rows, (sig, tau, eps, dev))
        rows.append(dev)
    return RenormalizedShares(rows, None)


__all__ = ["Instance", "attending_pair", "share_instance", "near_eps_instances", "share_deviation",
           "RenormalizedShares", "renormalized_shares"]
