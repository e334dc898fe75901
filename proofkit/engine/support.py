"""Training supports (samplers over lengths) and the test suites (TS-L: lengths beyond T; TS-C: products of
token marginals at t <= T; Ahuja & Mansouri 2024, Definitions 1 and 2)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..errors import InputError, one_of

#: the training supports with interior a theorem may name (``--set support=...``): iid, cut, subspace
SUPPORTS = ("iid", "cut", "subspace")
#: also degenerate supports (no interior): only for theorems whose certificates do not assume a box
ALL_SUPPORTS = SUPPORTS + ("antidiag", "ball")


@dataclass(frozen=True)
class Support:
    """Distribution of training sequences at each length.

    ``iid``: tokens i.i.d. U[0,1]^n (F-iid). ``cut``: U([0,1]^{nT} with sum <= c), prefixes for shorter
    lengths (F-cut; not a product, so compositional tests are meaningful). ``subspace``: tokens
    (s, 0, ..., 0), s ~ U[0,1] (F-sub; the length-t support does not span R^{nt}). ``antidiag``: at
    length T the tokens sum to (T/2, ..., T/2) (uniform on that slice of the cube; T = 2, n = 1 is
    {(s, 1 - s)}), prefixes for shorter lengths: every token marginal is [0,1]^n, but the length-T
    support has no interior (not regular closed) and no density. ``ball`` (n = 1 only): the solid ball
    {x in R^T : |x - 1/2| <= 1/2} of the paper's example (Sec. 2), uniform: x = 1/2 + (1/2) r u, u
    uniform on the unit sphere, r = U^(1/T); prefixes for shorter lengths (the lower-dimensional balls).
    Every token marginal is [0,1], but no pair marginal is [0,1]^2 (it is the disc of radius 1/2).
    """

    kind: str
    n: int
    T: int
    cut_frac: float = 0.5
    test_scale: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in ALL_SUPPORTS:
            raise one_of("support", ALL_SUPPORTS, self.kind)
        if self.kind == "ball" and self.n != 1:
            raise InputError("n", "1 for the ball support (scalar tokens)", self.n)

    @property
    def c(self) -> float:
        """Sum bound of the cut cube: cut_frac * n * T, at least n (so token marginals stay [0,1]^n)."""
        return max(float(self.n), self.cut_frac * self.n * self.T)

    def exact_cut(self) -> Fraction:
        """The cut cube's sum bound as the exact decimal the setting names (cut_frac * n * T, at least n)."""
        return max(Fraction(self.n), Fraction(repr(self.cut_frac)) * self.n * self.T)

    def full_marginals(self) -> bool:
        """Whether every training position's token marginal is the whole token box (the tokens test
        sequences draw). Not so for the antidiagonal support at T = 1: its one token is (1/2, ..., 1/2)."""
        return not (self.kind == "antidiag" and self.T == 1)

    def pair_bound(self) -> tuple[Fraction, str] | None:
        """An exact c' < 2n with sum(a) + sum(b) <= c' for the tokens a = x_i, b = x_j (i != j) of every
        training sequence and prefix, and why; None where this support has no such bound (its pairs may
        fill [0,1]^{2n}). Only the cut cube has one here: c' = min(c, 2n) when that is below 2n."""
        if self.kind != "cut" or self.exact_cut() >= 2 * self.n:
            return None
        c = self.exact_cut()
        return c, (f"on the cut cube every token coordinate is >= 0 and a training sequence's coordinates "
                   f"sum to at most c = {c}, so the coordinates of any two of its tokens do (prefixes too)")

    def token_box(self) -> tuple[np.ndarray, np.ndarray]:
        """Bounds of a single token (the per-token marginal support)."""
        lo = np.zeros(self.n)
        hi = np.ones(self.n)
        if self.kind == "subspace":
            hi[1:] = 0.0
        return lo, hi

    def free_coordinates(self) -> list[int]:
        """Token coordinates the support varies (the rest are pinned by the token box)."""
        lo, hi = self.token_box()
        return [i for i in range(self.n) if hi[i] > lo[i]]

    def tokens(self, rng: np.random.Generator, shape: tuple[int, ...],
               beyond: bool = False) -> np.ndarray:
        """Tokens drawn independently from the per-token marginal (the product distribution);
        ``beyond``: at test positions past T, whose range is [0, test_scale] (1 = the theorem's H1)."""
        x = rng.uniform(0.0, self.test_scale if beyond else 1.0, shape + (self.n,))
        if self.kind == "subspace":
            x[..., 1:] = 0.0
        return x

    def sample(self, rng: np.random.Generator, N: int, t: int) -> np.ndarray:
        """N training sequences of length t: shape (N, t, n)."""
        if self.kind == "antidiag" and t <= self.T:
            return self._antidiag(rng, N)[:, :t, :]
        if self.kind == "ball" and t <= self.T:
            return self._ball(rng, N)[:, :t, :]
        if self.kind != "cut" or t > self.T:
            return self.tokens(rng, (N, t))
        out = np.empty((0, self.T, self.n))
        while out.shape[0] < N:
            cand = rng.uniform(0.0, 1.0, (4 * N, self.T, self.n))
            keep = cand.reshape(4 * N, -1).sum(axis=1) <= self.c
            out = np.concatenate([out, cand[keep]])
        return out[:N, :t, :]

    def _antidiag(self, rng: np.random.Generator, N: int) -> np.ndarray:
        """N length-T sequences with tokens in [0,1]^n summing to T/2 per coordinate (rejection)."""
        out = np.empty((0, self.T, self.n))
        while out.shape[0] < N:
            # dyadic tokens (multiples of 2^-20): the last token and the sum are exact in float64
            head = np.round(rng.uniform(0.0, 1.0, (4 * N, self.T - 1, self.n)) * 2.0 ** 20) / 2.0 ** 20
            last = self.T / 2 - head.sum(axis=1, keepdims=True)
            cand = np.concatenate([head, last], axis=1)
            keep = ((last >= 0) & (last <= 1)).all(axis=(1, 2))
            out = np.concatenate([out, cand[keep]])
        return out[:N]

    def _ball(self, rng: np.random.Generator, N: int) -> np.ndarray:
        """N points uniform in the ball of radius 1/2 about (1/2, ..., 1/2) in R^T, shape (N, T, 1)."""
        u = rng.standard_normal((N, self.T))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        r = rng.uniform(0.0, 1.0, (N, 1)) ** (1.0 / self.T)
        return (0.5 + 0.5 * r * u)[:, :, None]

    def spanning_points(self, t: int) -> list[np.ndarray] | None:
        """Length-t sequences of the support whose affine hull contains the whole length-t support (so an
        affine function of the sequence that vanishes at them vanishes on the support); None where not
        implemented (box supports: use the vertices)."""
        if self.kind != "antidiag" or t != self.T:
            return None
        centre = np.full((t, self.n), 0.5)
        pts = [centre]
        for j in range(t - 1):
            for i in range(self.n):
                P = centre.copy()
                P[j, i], P[t - 1, i] = 1.0, 0.0
                pts.append(P)
        return pts

    def vertices(self, t: int, limit: int = 64) -> np.ndarray:
        """Every vertex sequence of the length-t support box (for box supports with at most ``limit``
        vertices; empty otherwise). Fitting a model at the vertices pins down its extremes: a function
        linear in the inputs that is <= 0 at every vertex is <= 0 on the whole box."""
        lo, hi = self.token_box()
        free = self.free_coordinates()
        if self.kind in ("cut", "antidiag", "ball") or 2 ** (len(free) * t) > limit:
            return np.zeros((0, t, self.n))
        out = []
        for bits in range(2 ** (len(free) * t)):
            seq = np.tile(lo, (t, 1)).astype(float)
            for b in range(len(free) * t):
                if bits >> b & 1:
                    seq[b // len(free), free[b % len(free)]] = hi[free[b % len(free)]]
            out.append(seq)
        return np.array(out)


def corner_sequences(support: Support, t: int) -> np.ndarray:
    """Deterministic sequences: all-zeros, all-ones (within the token box), and e_i then zeros."""
    lo, hi = support.token_box()
    seqs = [np.tile(lo, (t, 1)), np.tile(hi, (t, 1))]
    for i in range(support.n):
        if hi[i] > lo[i]:
            s = np.tile(lo, (t, 1))
            s[0, i] = hi[i]
            seqs.append(s)
    return np.array(seqs)


def test_lengths(T: int, longest: int = 1000) -> list[int]:
    """TS-L lengths: T+1, 2T+1, 10, 100, 1000 (those beyond T)."""
    return sorted({L for L in (T + 1, 2 * T + 1, 10, 100, longest) if T < L <= longest})
