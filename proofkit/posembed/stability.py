"""The stability ratios mu_r of Richard 2024, Sec. 3.2, exactly.

Under the section's hypothesis sum_{i<=r} c_i = r gamma c_{r+1} (for the differences c_i of the pooled
embeddings of two contexts), subtracting it at r - 1 from it at r gives c_{r+1} = mu_r c_r with
mu_r = (1 + (r-1) gamma)/(r gamma): the differences contract where |mu_r| < 1 and grow where it is > 1.
Everything here is an exact rational.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction


def mu(r: int, gamma: Fraction) -> Fraction:
    """mu_r = (1 + (r-1) gamma)/(r gamma), the ratio c_{r+1}/c_r at step r >= 1."""
    return (1 + (r - 1) * gamma) / (r * gamma)


def products(gamma: Fraction, m_max: int) -> Iterator[tuple[int, Fraction]]:
    """(m, prod_{r<m} mu_r) for m = 1..m_max (the empty product 1 at m = 1): c_m = prod c_1."""
    prod = Fraction(1)
    for m in range(1, m_max + 1):
        yield m, prod
        prod *= mu(m, gamma)


def escape(c1: Fraction | int, gamma: Fraction, steps: int, allowed: tuple[Fraction | int, ...]
           ) -> tuple[int, Fraction] | None:
    """The first index m <= ``steps`` at which c_m = mu_{m-1} c_{m-1} (from c_1 = ``c1``) leaves
    ``allowed``, with c_m; None when c_2..c_steps all stay in it."""
    c = Fraction(c1)
    for r in range(1, steps):
        c *= mu(r, gamma)
        if c not in allowed:
            return r + 1, c
    return None
