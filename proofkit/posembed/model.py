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

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath as mp

from ..errors import InputError
from ..numerics.exact import exact_row
from . import dyck

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


def telescoping_residuals(t: int, d: int, n: int) -> list[Any]:
    """Eq. (4) symbolically (sympy), for every word s in [t]^n (the word of index w has s_i = digit i of w
    in base t), a symbolic E in R^{t x d} (entries e_kj) and a symbolic gamma: the residuals of B = R E (R
    the positional embeddings built from E = I_t, i.e. eq. (6)) and of the telescoping sum_{i<=r} (E_{s_i}
    + B_i) = gamma E_{s_{r+1}}, r = 1..n-1, expanded: all 0 exactly when both identities hold."""
    import sympy as sp

    g = sp.Symbol("gamma")
    E = [tuple(sp.Symbol(f"e{k}{j}") for j in range(d)) for k in range(t)]
    eye = [tuple(sp.Integer(int(i == k)) for i in range(t)) for k in range(t)]
    out = []
    for w in range(t**n):
        s = [(w // t**i) % t for i in range(n)]
        B, Rm = closed_form_B(E, s, g), closed_form_B(eye, s, g)
        for i in range(n):  # B = R E
            out += [sp.expand(B[i][j] - sum(Rm[i][k] * E[k][j] for k in range(t))) for j in range(d)]
        for r in range(1, n):
            out += [sp.expand(sum(E[s[i]][j] + B[i][j] for i in range(r)) - g * E[s[r]][j]) for j in range(d)]
    return out


#: E = [1, -1]^T: '(' -> +1, ')' -> -1 (Theorem 4.1)
DYCK_E = ((1,), (-1,))


def word_heads(E: Sequence[Sequence[Any]], lengths: Iterator[int] | Sequence[int], gamma: Any, v: Any
               ) -> Iterator[tuple[tuple[int, ...], Head]]:
    """(s, the closed-form head built on s) for every word s in [t]^n (t = len(E)), n in ``lengths``, in
    lexicographic order."""
    for n in lengths:
        for s in itertools.product(range(len(E)), repeat=n):
            yield s, Head.closed_form(E, s, gamma, v)


def dyck_heads(N_max: int, gamma: Any, v: Any) -> Iterator[tuple[int, tuple[int, ...], Head]]:
    """(N, s, the closed-form head with E = [1, -1]^T built on s) for every s in D_2N, N = 1..N_max."""
    for N in range(1, N_max + 1):
        for s in dyck.dyck_words(N):
            yield N, s, Head.closed_form(DYCK_E, s, gamma, v)


def binary_contexts(max_len: int) -> Iterator[tuple[int, ...]]:
    """Every context z in {0, 1}^r (tokens '(' and ')'), r = 1..max_len, shortest first."""
    return itertools.chain.from_iterable(itertools.product((0, 1), repeat=r) for r in range(1, max_len + 1))


def first_logit_change(cases: Iterable[tuple[Any, Head, Head, Sequence[int]]]) -> tuple[int, Any]:
    """Compare two heads' exact logits on a context, case by case (tag, head, other head, context z), up
    to the first case where they differ: (the number of cases compared, that case or None)."""
    n = 0
    for case in cases:
        n += 1
        if case[1].logits(case[3]) != case[2].logits(case[3]):
            return n, case
    return n, None


def dyck_worst_failure(word: Sequence[int], gamma: Any, v: Any, dps: int = 30) -> Any:
    """max over the states (r, h), 1 <= r < 2N, h <= r, of P(the completion is not in D_2N) for the
    closed-form head (E = [1, -1]^T) built on ``word``, by a backward DP over (r, h) on the head's own
    :meth:`Head.log_probs` at ``dps`` digits (mpmath, failure mass accumulated directly): independent of
    the interval DP of :mod:`.dp`, which derives the log-odds in closed form."""
    s = list(word)
    n = len(s)
    head = Head.closed_form(DYCK_E, s, gamma, v)
    with mp.workdps(dps):
        F = {(n, h): mp.mpf(0 if h == 0 else 1) for h in range(n + 2)}
        worst = mp.mpf(0)
        for r in range(n - 1, 0, -1):
            for h in range(0, n - r + 1):
                if (r + h) % 2 or h > r:
                    continue
                z = [0] * ((r + h) // 2) + [1] * ((r - h) // 2)
                lo, lc = head.log_probs(z, dps)
                down = F[(r + 1, h - 1)] if h >= 1 else mp.mpf(1)
                up = F.get((r + 1, h + 1), mp.mpf(1))  # too high to close in time: fails surely
                F[(r, h)] = mp.exp(lo) * up + mp.exp(lc) * down
                if h <= n - r:
                    worst = max(worst, F[(r, h)])
        return worst
