"""A single attention head with uniform attention, a scalar value map and closed-form positional embeddings.

The model of Richard 2024 (Sec. 3.1, eq. (1), with the simplifications Q = 0 and V = v I used by every
theorem there): vocabulary [t] (here token indices 0..t-1), token embeddings E (t x d), positional
embeddings B (n x d), and for a context z of length r <= n

    logits_r = (v / r) * sum_{i <= r} (E[z_i] + B_i) E^T        (a t-vector)
    P[next = k | z] = softmax(logits_r)_k

The closed-form positional embeddings of eq. (4) are built from one training word s and a free gamma:
B_1 = -E[s_1] + gamma E[s_2], B_i = -E[s_i] + gamma (E[s_{i+1}] - E[s_i]) for i >= 2, with E[s_{n+1}] := 0
(eq. (4) needs a token past the word; B_n only enters the logits at context length n, which predicts a
token beyond the word). They telescope: sum_{i<=r} (E[s_i] + B_i) = gamma E[s_{r+1}] for r < n.

Logits are exact (rationals, when E, B, v are); probabilities go through mpmath in the log domain so that
tiny failure masses (e^{-2N^2/r}) are not lost: :func:`log_probs` returns log P exactly enough to sum
failure mass directly, never as 1 - P(success).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath as mp

from ..errors import InputError
from ..numerics.exact import exact_row

Vector = tuple[Fraction, ...]


def closed_form_B(E: Sequence[Vector], s: Sequence[int], gamma: Fraction) -> tuple[Vector, ...]:
    """The positional embeddings of eq. (4) for the training word ``s`` (token indices), E[s_{n+1}] := 0."""
    n, d = len(s), len(E[0])
    if n < 1:
        raise InputError("s", "a non-empty training word", "")
    zero = (Fraction(0),) * d

    def e(i: int) -> Vector:  # E[s_i], 1-based; 0 past the word
        return E[s[i - 1]] if i <= n else zero

    B = [tuple(-a + gamma * b for a, b in zip(e(1), e(2)))]
    for i in range(2, n + 1):
        B.append(tuple(-a + gamma * (b - a) for a, b in zip(e(i), e(i + 1))))
    return tuple(B)


@dataclass(frozen=True)
class Head:
    """Uniform attention (Q = 0), V = v I, tied unembedding: ``E`` (t x d), ``B`` (n x d), scalar ``v``."""

    E: tuple[Vector, ...]
    B: tuple[Vector, ...]
    v: Fraction

    def __post_init__(self) -> None:
        if not self.E or len({len(r) for r in self.E}) != 1:
            raise InputError("E", "t >= 1 token embeddings of one dimension d", len(self.E))
        if not self.B or any(len(r) != self.d for r in self.B):
            raise InputError("B", f"n >= 1 positional embeddings of dimension d = {self.d}", len(self.B))

    @classmethod
    def closed_form(cls, E: Sequence[Sequence[Any]], s: Sequence[int], gamma: Any, v: Any) -> Head:
        """The head whose positional embeddings are eq. (4) built from ``s``."""
        Ev = tuple(exact_row(r, "E") for r in E)
        if any(not 0 <= k < len(Ev) for k in s):
            raise InputError("s", f"token indices in 0..{len(Ev) - 1}", list(s))
        g, vv = Fraction(gamma), Fraction(v)
        return cls(Ev, closed_form_B(Ev, s, g), vv)

    @property
    def t(self) -> int:
        return len(self.E)

    @property
    def d(self) -> int:
        return len(self.E[0])

    @property
    def n(self) -> int:
        return len(self.B)

    def pooled(self, z: Sequence[int]) -> Vector:
        """sum_{i <= r} (E[z_i] + B_i) for the context z (length r <= n)."""
        r = len(z)
        if not 1 <= r <= self.n:
            raise InputError("context", f"a context of length 1..{self.n} (B has {self.n} rows)", r)
        acc = [Fraction(0)] * self.d
        for i, k in enumerate(z):
            for c in range(self.d):
                acc[c] += self.E[k][c] + self.B[i][c]
        return tuple(acc)

    def logits(self, z: Sequence[int]) -> Vector:
        """(v / r) sum_{i<=r} (E[z_i] + B_i) E^T, exact."""
        p, r = self.pooled(z), len(z)
        return tuple(self.v / r * sum((a * b for a, b in zip(p, e)), Fraction(0)) for e in self.E)

    def log_probs(self, z: Sequence[int], dps: int = 50) -> list[Any]:
        """log P[next = k | z] for every k (mpmath at ``dps`` digits, log-sum-exp: no underflow)."""
        with mp.workdps(dps):
            lg = [mp.mpf(x.numerator) / x.denominator for x in self.logits(z)]
            top = max(lg)
            lse = top + mp.log(mp.fsum(mp.exp(x - top) for x in lg))
            return [x - lse for x in lg]

    @property
    def weight_count(self) -> int:
        """Numbers that define the head: E (t d), B (n d) and v (Q = 0 and K are fixed, not counted)."""
        return self.t * self.d + self.n * self.d + 1
