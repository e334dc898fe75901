"""Bounded Dyck words D_2N (Richard 2024, Sec. 4): enumeration, Catalan numbers, stack heights, depth.

Tokens are indices into E = [1, -1]^T: 0 = '(' (+1), 1 = ')' (-1), as in the proof of Theorem 4.1. A word
is a tuple of token indices; :func:`parse` and :func:`show` convert from and to parenthesis strings.

The stack height (eq. (9)) after r tokens is Delta_r = #'(' - #')' among the first r. A state (r, h)
(context length r, height h) is *completable* into a D_2N word iff 0 <= h <= 2N - r and h = r (mod 2);
it is reachable by a prefix of a D_2N word iff moreover h <= r.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations, product
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


def catalan_form_mismatches(N_max: int) -> list[int]:
    """The N in 1..N_max where C_N (:func:`catalan`) is not binom(2N, N) - binom(2N, N + 1), or binom(2N, N)
    is not divisible by N + 1: empty when the two closed forms agree."""
    return [N for N in range(1, N_max + 1) if catalan(N) != comb(2 * N, N) - comb(2 * N, N + 1)
            or comb(2 * N, N) % (N + 1) or catalan(N) != comb(2 * N, N) // (N + 1)]


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


def balanced_depth(word: Sequence[int]) -> int | None:
    """The depth of a balanced word (every height >= 0, the last 0; the empty word has depth 0), None for a
    word that is not balanced."""
    return depth(word) if is_dyck(word) else None


def height_profile(word: Sequence[int]) -> tuple[int, int, int]:
    """(the last height, the first position 1.. whose height is negative (1 when none is), the largest
    height) of a non-empty word: where a word fails to be balanced."""
    hs = heights(word)
    return hs[-1], next((i for i, h in enumerate(hs) if h < 0), 0) + 1, max(hs)


def balanced_continuations(prefix: Sequence[int], k: int) -> int:
    """The number of the 2^k continuations w in {(, )}^k with prefix + w balanced (of any length)."""
    return sum(1 for w in product((OPEN, CLOSE), repeat=k) if is_dyck((*prefix, *w)))


def insertion_readings(text: str, opens: int, closes: int, max_depth: int) -> set[str]:
    """Every balanced word of depth exactly ``max_depth`` that ``text`` (parentheses) becomes when
    ``opens`` '(' and ``closes`` ')' are inserted anywhere: the readings of a misprinted word at edit
    distance opens + closes (insertions only)."""
    k = opens + closes
    n = len(text) + k
    out = set()
    for pos in combinations(range(n), k):
        for shut in combinations(range(k), closes):
            it, chars = iter(text), []
            for i in range(n):
                chars.append((")" if pos.index(i) in shut else "(") if i in pos else next(it))
            word = "".join(chars)
            if balanced_depth(parse(word)) == max_depth:
                out.add(word)
    return out


def completable(N: int, r: int, h: int) -> bool:
    """Some continuation of a context of length r at height h is a D_2N word."""
    return 0 <= r <= 2 * N and 0 <= h <= 2 * N - r and (h - r) % 2 == 0


def prefix_states(N: int) -> list[tuple[int, int]]:
    """Every (r, h), 1 <= r <= 2N - 1, reached by a prefix of a D_2N word (completable and h <= r)."""
    return [(r, h) for r in range(1, 2 * N) for h in range(0, min(r, 2 * N - r) + 1) if (h - r) % 2 == 0]


def deep_states(N: int, words: Iterator[Sequence[int]] | Sequence[Sequence[int]]) -> int:
    """The number of pairs (s, prefix state (r, h)) over the ``words`` of D_2N whose state admits a prefix
    deeper than s (the deepest prefix reaching (r, h) has depth (r + h)/2)."""
    states = prefix_states(N)
    return sum(1 for s in words for r, h in states if (r + h) // 2 > depth(s))


def local_configs(N_max: int) -> Iterator[tuple[int, int, int, int, int]]:
    """Every (N, r, d, k, h), N = 1..N_max: a context length r = 1..2N-1, a stack height d = Delta_r(s) and
    next token k = s_{r+1} that some word s of D_2N presents there, and a completable context height h."""
    for N in range(1, N_max + 1):
        for r in range(1, 2 * N):
            for d in range(0, min(r, 2 * N - r) + 1):
                if (d - r) % 2:
                    continue
                for k in (k for k, nd in ((OPEN, d + 1), (CLOSE, d - 1)) if completable(N, r + 1, nd)):
                    for h in range(0, 2 * N - r + 1):
                        if not (h - r) % 2:
                            yield N, r, d, k, h


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


def walk_depth_probability(N: int, max_depth: int) -> Fraction:
    """P(depth <= max_depth) for the word of D_2N generated by the 'uniform valid next move' walk: at
    each step '(' or ')', uniformly among the moves that keep the word completable (exact)."""
    n, dist = 2 * N, {0: Fraction(1)}
    for r in range(n):
        nxt: dict[int, Fraction] = {}
        for h, pr in dist.items():
            moves = [h2 for h2 in (h + 1, h - 1) if 0 <= h2 <= min(max_depth, n - r - 1)]
            allowed = [h2 for h2 in (h + 1, h - 1) if 0 <= h2 <= n - r - 1]
            for h2 in moves:
                nxt[h2] = nxt.get(h2, 0) + pr / len(allowed)
        dist = nxt
    return dist.get(0, Fraction(0))
