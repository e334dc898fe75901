"""Failure masses, losses and ratios of the uniform-attention heads against the bounds that Richard 2024
states for them, as mpmath intervals.

Each function evaluates at ``dps`` digits (at least MIN_DPS) inside its own precision context and returns
intervals, so a caller only compares them (:func:`proofkit.posembed.sweep.at_most`, :func:`dp.le`,
:func:`dp.gt`) and prints them (:func:`dp.text`): no interval arithmetic happens outside this package.

* one-hot memorization (Lemma 5.1, E = I_t) at v gamma = k n log(nt);
* the head without positional embedding (Claim 5.3, E = [a, -1]): its exact DP over prefix states;
* Theorem 4.1's loss, memorization failure and union bound against 8N^2 e^-N and 2N e^-N, and the worst
  failure of the exact DP over the words of D_2N;
* the Catalan asymptotics C_N ~ 4^N pi^-1/2 N^-3/2 of Sec. 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from ..language.tolerances import MIN_DPS
from . import dp, dyck
from .dp import iv, ivdps

Interval = Any  #: an mpmath interval (``mp.iv.mpf``)


# ----------------------------------------------------------------------------- Lemma 5.1 (one-hot)
def onehot_failure(n: int, t: int, k: int, dps: int = MIN_DPS) -> tuple[Interval, Interval]:
    """(1 - P(s_:1 -> s), n t e^{-v gamma/n}) for the one-hot head (E = I_t, word length n) at v gamma =
    k n log(nt). The failure 1 - prod_{r=1}^{n-1} [1 + (t-1) e^{-v gamma/r}]^{-1} is accumulated directly
    (f_r = e_r/(1 + e_r) + f_{r+1}/(1 + e_r), e_r = (t-1) e^{-v gamma/r}), never as 1 - P, so that a tiny
    failure is not lost; the second interval is Lemma 5.1's bound on it."""
    with ivdps(dps):
        vg = k * n * iv.log(iv.mpf(n * t))
        f = iv.mpf(0)
        for rr in range(n - 1, 0, -1):
            e = (t - 1) * iv.exp(-vg / rr)
            f = e / (1 + e) + f / (1 + e)
        return f, n * t * iv.exp(-vg / n)


# ----------------------------------------------------------------------------- Claim 5.3 (no B)
def nope_failures(N: int, v: Fraction, a: Fraction | None = None, dps: int = MIN_DPS
                  ) -> tuple[list[tuple[tuple[int, int], Interval]], Interval]:
    """The head with E = [a, -1]^T (a = 2N/(2N+1) unless given) and no positional embedding: its failure
    mass at every prefix state (r, h) of D_2N (exact DP, :func:`dp.table`, in the order of
    :func:`dyck.prefix_states`), and 2N e^-N."""
    a = Fraction(2 * N, 2 * N + 1) if a is None else a
    with ivdps(dps):
        tab = dp.table(N, dp.nope_log_odds(a, v))
        return [((r, h), tab[r][h]) for r, h in dyck.prefix_states(N)], dp.paper_bound(N)


def nope_worst(N: int, v: Fraction, dps: int = MIN_DPS) -> tuple[Interval, Interval]:
    """The largest failure (by upper end; the first on ties) of :func:`nope_failures` at a = 2N/(2N+1),
    and 2N e^-N."""
    states, bound = nope_failures(N, v, dps=dps)
    return max((x for _, x in states), key=lambda x: x.b), bound


def nope_exp_step(N: int, r: int, v: Fraction, dps: int = MIN_DPS) -> tuple[Interval, Interval, Interval]:
    """(1 - e^{v/(r(2N+1))}, 1 - e^{-N}, their difference): the two sides of the inequality that the
    proof of Claim 5.3 prints, at one (N, r, v)."""
    with ivdps(dps):
        lhs = 1 - iv.exp(dp.ball(v / (r * (2 * N + 1))))
        rhs = 1 - iv.exp(iv.mpf(-N))
        return lhs, rhs, lhs - rhs


# ----------------------------------------------------------------------------- Theorem 4.1
def loss_vs_bound(N: int, vg: Fraction, dps: int = MIN_DPS) -> tuple[Interval, Interval]:
    """(eq. (2)'s loss on the training word at v gamma = ``vg``, terms r = 1..2N-1, the same for every s;
    Theorem 4.1's bound 8N^2 e^-N)."""
    with ivdps(dps):
        return dp.training_loss(N, vg), dp.loss_bound(N)


def memorization_vs_bound(N: int, vg: Fraction, dps: int = MIN_DPS) -> tuple[Interval, Interval]:
    """(1 - P(s_:1 -> s) at v gamma = ``vg`` (:func:`dp.memorization_failure`), 2N e^-N)."""
    with ivdps(dps):
        return dp.memorization_failure(N, vg), dp.paper_bound(N)


def union_vs_bound(N: int, absv: Fraction, dps: int = MIN_DPS) -> tuple[Interval, Interval]:
    """(the union bound sum_r 1/(1 + e^{|v|/r}) on leaving the argmax path (:func:`dp.union_bound`),
    2N e^-N)."""
    with ivdps(dps):
        return dp.union_bound(N, absv), dp.paper_bound(N)


def paper_bound(N: int, dps: int = MIN_DPS) -> Interval:
    """2N e^-N (Theorem 4.1 (a), (b) and Claim 5.3)."""
    with ivdps(dps):
        return dp.paper_bound(N)


def exp_of(x: int, dps: int = MIN_DPS) -> Interval:
    """e^x for an integer x."""
    with ivdps(dps):
        return iv.exp(iv.mpf(x))


def exhaustive_worst(N: int, gamma: Fraction, v: Fraction, deep: bool = False, dps: int = MIN_DPS
                     ) -> tuple[dp.Worst, Interval, int]:
    """The worst failure over every s in D_2N and every prefix state (``deep``: only the states that admit
    a prefix deeper than s) of the exact DP (:func:`dp.scan_all`), 2N e^-N, and how many (s, state) pairs
    that maximum ranges over."""
    sc = dp.scan_all(N, gamma, v)
    count = dyck.deep_states(N, dyck.dyck_words(N)) if deep else sc.states
    return (sc.deep if deep else sc.all), paper_bound(N, dps), count


def word_worst(N: int, s: Sequence[int], gamma: Fraction, v: Fraction, dps: int = MIN_DPS
               ) -> tuple[dp.Worst, Interval]:
    """The worst failure over every prefix state of the one word s (exact DP), and 2N e^-N."""
    return dp.scan(N, [s], gamma, v, dps=dps).all, paper_bound(N, dps)


def first_loss_bound_below_log2(N_max: int, dps: int = MIN_DPS) -> tuple[int, Interval] | None:
    """The first N in 1..N_max at which log 2 > 8N^2 e^-N is proven (a loss term of log 2 alone then
    exceeds Theorem 4.1's loss bound), with that bound; None if there is none."""
    with ivdps(dps):
        for N in range(1, N_max + 1):
            b = dp.loss_bound(N)
            if dp.gt(iv.log(2), b):
                return N, b
    return None


# ----------------------------------------------------------------------------- Catalan asymptotics
def _catalan_ratio(N: int) -> Interval:
    n = iv.mpf(N)
    return iv.mpf(dyck.catalan(N)) * iv.sqrt(iv.pi) * n * iv.sqrt(n) / iv.mpf(4) ** N


class Deviation(NamedTuple):
    """How far C_N / (4^N pi^-1/2 N^-3/2) is from 1: the ratio, |1 - ratio|, that in percent, and the
    tolerance it is compared with (all intervals)."""

    ratio: Interval
    deviation: Interval
    percent: Interval
    tolerance: Interval


def catalan_deviation(N: int, tolerance: str, dps: int = MIN_DPS) -> Deviation:
    """:class:`Deviation` of the Catalan ratio at N from 1, with ``tolerance`` (a decimal string) as an
    interval."""
    with ivdps(dps):
        r = _catalan_ratio(N)
        dev = abs(1 - r)
        return Deviation(r, dev, dev * 100, iv.mpf(tolerance))


def catalan_ratio_steps(Ns: Sequence[int], dps: int = MIN_DPS) -> list[tuple[int, Interval, Interval]]:
    """(N, C_N / (4^N pi^-1/2 N^-3/2), the ratio at the next N of ``Ns`` or 1 after the last) for each N:
    the ratio increasing towards 1 along ``Ns`` is each value at most its successor."""
    with ivdps(dps):
        rs = [_catalan_ratio(N) for N in Ns]
        return list(zip(Ns, rs, rs[1:] + [iv.mpf(1)]))
