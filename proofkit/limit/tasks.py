"""The synthetic tasks of Izzo, Nichani & Lee 2025, Sec. 5, with exact targets and the data generators
of their App. B.

* **SimpleTask** (alphabet {0, 1, 2}): ``f*(x) = sin(omega (c_0 - c_1)/(c_0 + c_1))`` with ``c_s`` the
  count of token ``s``. The argument is an exact :class:`~fractions.Fraction`, the target a sympy
  ``sin`` of a rational multiple of ``omega``.
* **ModPTask** (alphabet {0, 1}, period ``p``, index ``k``): the fraction of ones among the positions
  ``t = 1..T`` with ``t = k (mod p)``, an exact Fraction.

Undefined targets (the stated convention): SimpleTask when ``c_0 + c_1 = 0`` (every token is 2), ModPTask
when no position ``t <= T`` has ``t = k (mod p)``. The exact target is then ``None``; the samplers return
a boolean ``defined`` mask and every loss in :mod:`proofkit.limit.training` averages over the defined
sequences only (undefined ones are dropped from the loss, never given a made-up label).

Generators (App. B), every random choice from a seeded ``numpy.random.Generator``:
SimpleTask draws ``p`` uniformly on the simplex (Dirichlet(1, 1, 1)) per sequence, then ``x_i`` iid ~ p;
ModPTask draws ``q_0..q_{p-1}`` iid U[0, 1] per sequence, then ``x_i ~ Bernoulli(q_{i mod p})``
(positions 1-based; the text's "Bernoulli(p_k), k = i mod p" with its p read as q).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import ClassVar

import numpy as np
import sympy as sp

from ..errors import InputError, one_of


@dataclass(frozen=True)
class SimpleTask:
    """SimpleTask with link ``sin(omega z)``; ``omega`` an exact rational (int, Fraction or decimal str)."""

    omega: Fraction = Fraction(1)

    alphabet: ClassVar[tuple[str, ...]] = ("0", "1", "2")

    def __post_init__(self) -> None:
        if isinstance(self.omega, float):
            raise InputError("omega", "an int, Fraction or decimal string (exact)", self.omega)
        object.__setattr__(self, "omega", Fraction(self.omega))

    def argument(self, x: Sequence[str]) -> Fraction | None:
        """z = (c_0 - c_1)/(c_0 + c_1), exactly; None where c_0 + c_1 = 0 (undefined)."""
        c0, c1 = sum(1 for t in x if t == "0"), sum(1 for t in x if t == "1")
        return None if c0 + c1 == 0 else Fraction(c0 - c1, c0 + c1)

    def target(self, x: Sequence[str]) -> sp.Expr | None:
        """f*(x) = sin(omega z) as an exact sympy expression; None where undefined."""
        z = self.argument(x)
        return None if z is None else sp.sin(sp.Rational(self.omega * z))

    def sample(self, rng: np.random.Generator, S: int, T: int | np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                                       np.ndarray]:
        """S sequences: lengths ``T`` (an int or one length per sequence), padded with -1 to the longest.
        Returns (tokens (S, n) ints in {0, 1, 2} or -1, float64 targets (0 where undefined), defined)."""
        lengths = np.full(S, T) if np.isscalar(T) else np.asarray(T)
        n = int(lengths.max())
        probs = rng.dirichlet(np.ones(3), size=S)
        u = rng.random((S, n))
        X = (u[:, :, None] > np.cumsum(probs, axis=1)[:, None, :2]).sum(axis=2)
        X = np.where(np.arange(n)[None, :] < lengths[:, None], X, -1)
        c0, c1 = (X == 0).sum(axis=1), (X == 1).sum(axis=1)
        defined = (c0 + c1) > 0
        z = np.where(defined, (c0 - c1) / np.maximum(c0 + c1, 1), 0.0)
        return X, np.sin(float(self.omega) * z), defined


@dataclass(frozen=True)
class ModPTask:
    """ModPTask with period ``p`` (= Delta; never the bits of precision) and index ``k``."""

    p: int = 5
    k: int = 1

    alphabet: ClassVar[tuple[str, ...]] = ("0", "1")

    def __post_init__(self) -> None:
        if not isinstance(self.p, int) or self.p < 1:
            raise InputError("p", "a period >= 1", self.p)

    def first_position(self) -> int:
        """The smallest position t >= 1 with t = k (mod p): shorter strings have an undefined target."""
        r = self.k % self.p
        return r if r else self.p

    def target(self, x: Sequence[str]) -> Fraction | None:
        """The fraction of ones at positions t = k (mod p), t = 1..|x|; None where there is none."""
        picked = [x[t - 1] for t in range(1, len(x) + 1) if (t - self.k) % self.p == 0]
        return Fraction(sum(1 for v in picked if v == "1"), len(picked)) if picked else None

    def sample(self, rng: np.random.Generator, S: int, T: int | np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                                       np.ndarray]:
        """S sequences (lengths ``T``, padded with -1): (tokens, float64 targets (0 where undefined),
        defined)."""
        lengths = np.full(S, T) if np.isscalar(T) else np.asarray(T)
        n = int(lengths.max())
        q = rng.random((S, self.p))
        pos = np.arange(1, n + 1)
        X = (rng.random((S, n)) < q[:, pos % self.p]).astype(int)
        valid = pos[None, :] <= lengths[:, None]
        X = np.where(valid, X, -1)
        sel = valid & ((pos - self.k) % self.p == 0)[None, :]
        cnt = sel.sum(axis=1)
        defined = cnt > 0
        return X, np.where(defined, (X * sel).sum(axis=1) / np.maximum(cnt, 1), 0.0), defined


def undefined_probability_exact(T: int) -> sp.Rational:
    """P(c_0 + c_1 = 0) for SimpleTask at length T under the generator: E[p_2^T] for p ~ Dirichlet(1,1,1),
    by exact integration of the density 2 over the simplex (sympy)."""
    p1, p2 = sp.symbols("p1 p2", nonnegative=True)
    return sp.integrate(sp.integrate(2 * p2**T, (p1, 0, 1 - p2)), (p2, 0, 1))


def undefined_probability_closed_form(T: int) -> sp.Rational:
    """The closed form 2/((T+1)(T+2))."""
    return sp.Rational(2, (T + 1) * (T + 2))


def undefined_probability_sampled(T: int, S: int, seed: int) -> tuple[float, float]:
    """The fraction f of S seeded SimpleTask sequences of length T with c_0 + c_1 = 0, and its binomial
    standard error sqrt(max(f(1 - f), 1/S)/S)."""
    _, _, defined = SimpleTask().sample(np.random.default_rng(seed), S, T)
    f = float((~defined).mean())
    return f, float(np.sqrt(max(f * (1 - f), 1.0 / S) / S))


def short_string_arguments(N: int) -> np.ndarray:
    """G_N = {(a - b)/(a + b) : a, b >= 0, 1 <= a + b <= N}, the SimpleTask arguments z realized by strings
    of length <= N, sorted (float64; distinct rationals with denominators <= N differ by >= 1/N^2)."""
    if N < 1:
        raise InputError("N", "a length >= 1", N)
    vals = [(2 * np.arange(n + 1) - n) / n for n in range(1, N + 1)]
    return np.unique(np.concatenate(vals))


NEAREST = ("value", "argument")


def interpolation_error(N: int, omega: float, nearest: str = "value") -> float:
    """The nearest-short-string interpolation error of SimpleTask's target (float64).

    ``value``: e(N, omega) = sup_{q in [-1, 1]} min_{q' in G_N} |sin(omega q) - sin(omega q')|. Since
    sin(omega .) maps [-1, 1] onto S = [-s, s] (s = 1 if omega >= pi/2, else sin(omega)), this is the
    sup over v in S of the distance to V_N = sin(omega G_N): the largest of half the largest gap of V_N
    and the two end gaps. ``argument``: q' is the point of G_N nearest to q (in z), the comparison a
    Lipschitz argument makes: sup |sin(omega q) - sin(omega q*(q))| over each half-gap, attained at its
    far end or at an extremum of sin(omega .) inside it. Either is a property of the target's values on
    short strings, not of a transformer."""
    if nearest not in NEAREST:
        raise one_of("nearest", NEAREST, nearest)
    G = short_string_arguments(N)
    if nearest == "value":
        s = 1.0 if abs(omega) >= np.pi / 2 else abs(float(np.sin(omega)))
        V = np.unique(np.sin(omega * G))
        return float(max(np.max(np.diff(V)) / 2 if len(V) > 1 else 0.0, s - V[-1], V[0] + s))
    mid = (G[1:] + G[:-1]) / 2
    worst = float(np.max(np.abs(np.sin(omega * mid) - np.sin(omega * G[:-1])))) if len(G) > 1 else 0.0
    k = np.arange(np.floor((-abs(omega) - np.pi / 2) / np.pi), np.ceil(abs(omega) / np.pi) + 1)
    ext = (np.pi / 2 + k * np.pi) / omega
    ext = ext[(ext >= -1) & (ext <= 1)]
    if len(ext):
        anchor = G[np.clip(np.searchsorted(G, ext), 1, len(G) - 1)]
        below = G[np.clip(np.searchsorted(G, ext) - 1, 0, len(G) - 1)]
        near = np.where(np.abs(ext - below) <= np.abs(anchor - ext), below, anchor)
        worst = max(worst, float(np.max(np.abs(np.sin(omega * ext) - np.sin(omega * near)))))
    return worst


def min_proxy_length(omega: float, eps: float, N_max: int = 4096, nearest: str = "value") -> int | None:
    """A length N with e(N, omega) <= eps < e(N - 1, omega), by doubling then bisection (the smallest such
    N when e is non-increasing in N, which holds for ``value``: G_N grows with N); None if no doubling
    step up to N_max reaches eps."""
    hi = 1
    while interpolation_error(hi, omega, nearest) > eps:
        if hi >= N_max:
            return None
        hi = min(2 * hi, N_max)
    lo = max(1, hi // 2)
    if interpolation_error(lo, omega, nearest) <= eps:
        return lo
    while hi - lo > 1:  # invariant: e(lo) > eps >= e(hi)
        mid = (lo + hi) // 2
        if interpolation_error(mid, omega, nearest) <= eps:
            hi = mid
        else:
            lo = mid
    return hi


def strings_up_to(alphabet: Sequence[str], n: int) -> Iterator[tuple[str, ...]]:
    """Every string over ``alphabet`` of length 1..n, shortest first, each length in lexicographic order."""
    for L in range(1, n + 1):
        yield from product(alphabet, repeat=L)


def modp_values(N: int, task: ModPTask) -> list[Fraction]:
    """The ModPTask target values realized by strings of length <= N, sorted (exact)."""
    M = sum(1 for t in range(1, N + 1) if (t - task.k) % task.p == 0)
    return sorted({Fraction(a, m) for m in range(1, M + 1) for a in range(m + 1)})


def modp_proxy_error(N: int, task: ModPTask) -> Fraction:
    """sup over v in [0, 1] of the distance to the values realized by strings of length <= N (1 when
    there are none), exact."""
    vals = modp_values(N, task)
    if len(vals) < 2:
        return Fraction(1)
    return max(b - a for a, b in zip(vals, vals[1:])) / 2


def modp_min_length(eps: Fraction, task: ModPTask) -> int:
    """The smallest N with modp_proxy_error(N) <= eps, by scan (exact)."""
    N = 1
    while modp_proxy_error(N, task) > eps:
        N += 1
    return N


__all__ = ["SimpleTask", "ModPTask", "undefined_probability_exact", "undefined_probability_closed_form",
           "undefined_probability_sampled", "short_string_arguments", "NEAREST", "interpolation_error",
           "min_proxy_length", "strings_up_to", "modp_values", "modp_proxy_error", "modp_min_length"]
