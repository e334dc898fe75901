"""Bounded Dyck words D_2N (Richard 2024, Sec. 4): enumeration, Catalan numbers, stack heights, depth.

Tokens are indices into E = [1, -1]^T: 0 = '(' (+1), 1 = ')' (-1), as in the proof of Theorem 4.1. A word
is a tuple of token indices; :func:`parse` and :func:`show` convert from and to parenthesis strings.

The stack height (eq. (9)) after r tokens is Delta_r = #'(' - #')' among the first r. A state (r, h)
(context length r, height h) is *completable* into a D_2N word iff 0 <= h <= 2N - r and h = r (mod 2);
it is reachable by a prefix of a D_2N word iff moreover h <= r.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import comb

from ..errors import InputError

OPEN, CLOSE = 0, 1
Word = tuple[int, ...]


def parse(text: str) -> Word:
    """'(()' -> (0, 0, 1); any character other than '(' and ')' is bad input."""
    bad = set(text) - {"(", ")"}
    if bad:
        raise InputError("word", "a string of '(' and ')'", text)
    return tuple(OPEN if c == "(" else CLOSE for c in text)


def show(word: Sequence[int]) -> str:
    """(0, 0, 1) -> '(()'."""
    return "".join("(" if k == OPEN else ")" for k in word)


def catalan(N: int) -> int:
    """C_N = binom(2N, N)/(N + 1), exact."""
    if N < 0:
        raise InputError("N", "N >= 0", N)
    return comb(2 * N, N) // (N + 1)


def heights(word: Sequence[int]) -> list[int]:
    """[Delta_1, ..., Delta_n] (eq. (9))."""
    out, h = [], 0
    for k in word:
        h += 1 if k == OPEN else -1
        out.append(h)
    return out


def depth(word: Sequence[int]) -> int:
    """The largest stack height of the word (0 for the empty word)."""
    return max([0, *heights(word)])


def is_dyck(word: Sequence[int]) -> bool:
    """Balanced: every height >= 0 and the last one 0."""
    hs = heights(word)
    return all(h >= 0 for h in hs) and (not hs or hs[-1] == 0)


def completable(N: int, r: int, h: int) -> bool:
    """Some continuation of a context of length r at height h is a D_2N word."""
    return 0 <= r <= 2 * N and 0 <= h <= 2 * N - r and (h - r) % 2 == 0


def prefix_states(N: int) -> list[tuple[int, int]]:
    """Every (r, h), 1 <= r <= 2N - 1, reached by a prefix of a D_2N word (completable and h <= r)."""
    return [(r, h) for r in range(1, 2 * N) for h in range(0, min(r, 2 * N - r) + 1) if (h - r) % 2 == 0]


def dyck_words(N: int, max_depth: int | None = None) -> Iterator[Word]:
    """Every word of D_2N (of depth <= max_depth if given), in lexicographic order ('(' first)."""
    n, cap = 2 * N, N if max_depth is None else max_depth
    word: list[int] = []

    def rec(h: int) -> Iterator[Word]:
        r = len(word)
        if r == n:
            yield tuple(word)
            return
        for k, nh in ((OPEN, h + 1), (CLOSE, h - 1)):
            if 0 <= nh <= min(cap, n - r - 1):
                word.append(k)
                yield from rec(nh)
                word.pop()

    yield from rec(0)


def completions(N: int, r: int, h: int) -> int:
    """The number of continuations of a context (r, h) into D_2N (ballot number; 0 if not completable)."""
    if not completable(N, r, h):
        return 0
    m = 2 * N - r
    down = (m + h) // 2  # closing tokens among the m
    return comb(m, down) - (comb(m, down + 1) if down + 1 <= m else 0)


def dyck_count(N: int, max_depth: int) -> int:
    """#{w in D_2N : depth(w) <= max_depth}, by a DP over heights in [0, max_depth]."""
    if max_depth < 0:
        return 0
    row = [1] + [0] * max_depth
    for _ in range(2 * N):
        row = [(row[h - 1] if h else 0) + (row[h + 1] if h < max_depth else 0) for h in range(max_depth + 1)]
    return row[0]


def random_dyck(N: int, rng) -> Word:  # noqa: ANN001 (a numpy Generator)
    """A uniformly random word of D_2N: each token drawn with the exact ratio of completion counts."""
    word, h = [], 0
    for r in range(2 * N):
        up = completions(N, r + 1, h + 1)
        total = completions(N, r, h)
        k = OPEN if int(rng.integers(total)) < up else CLOSE
        word.append(k)
        h += 1 if k == OPEN else -1
    return tuple(word)


def sampled_words(N: int, k: int, seed: int) -> list[Word]:
    """The deepest word (^N )^N and k - 1 uniform words of D_2N (numpy default_rng(seed))."""
    import numpy as np

    rng = np.random.default_rng(seed)
    deepest = (OPEN,) * N + (CLOSE,) * N
    return [deepest] + [random_dyck(N, rng) for _ in range(k - 1)]
