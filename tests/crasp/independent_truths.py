"""Tiny independent pure-Python definitions of the library languages (regexes, direct counting, explicit
stacks): what the ground truths and the communication rows are checked against."""

from __future__ import annotations

import re
from itertools import groupby

import numpy as np

# ----------------------------------------------------------------------------------------------------
# Independent definitions


def is_subsequence(pattern: str, s: str) -> bool:
    """Whether pattern is a scattered subsequence of s."""
    it = iter(s)
    return all(ch in it for ch in pattern)


def dyck1(s: str) -> bool:
    """Every prefix has #( >= #), totals equal."""
    h = 0
    for ch in s:
        h += 1 if ch == "(" else -1
        if h < 0:
            return False
    return h == 0


def equal_blocks(s: str, letters: str) -> bool:
    """a^n b^n ... via a regex with one group per letter."""
    m = re.fullmatch("".join(f"({ch}*)" for ch in letters), s)
    return m is not None and len({len(g) for g in m.groups()}) == 1


def tomita3_runs(s: str) -> bool:
    """Reject iff some maximal odd run of 1s is immediately followed by a maximal odd run of 0s."""
    runs = [(ch, len(list(g))) for ch, g in groupby(s)]
    return not any(a[0] == "1" and a[1] % 2 and b[0] == "0" and b[1] % 2 for a, b in zip(runs, runs[1:]))


def depth_dyck_regex(n: int) -> str:
    """D_0 = eps, D_n = (a D_{n-1} b)*, spelled as a nested regex."""
    return "" if n == 0 else f"(?:a{depth_dyck_regex(n - 1)}b)*"


def full(pattern: str):
    """Membership by re.fullmatch."""
    return lambda s: re.fullmatch(pattern, s) is not None


BRUTE = {
    "MAJORITY": lambda s: s.count("a") >= s.count("b"),
    "DYCK-1": dyck1,
    "a^nb^n": lambda s: equal_blocks(s, "ab"),
    "a^nb^nc^n": lambda s: equal_blocks(s, "abc"),
    "a^nb^nc^nd^n": lambda s: equal_blocks(s, "abcd"),
    "Tomita1": full("1*"),
    "Tomita2": full("(10)*"),
    "Tomita3": tomita3_runs,
    "Tomita4": lambda s: "000" not in s,
    "Tomita5": lambda s: s.count("0") % 2 == 0 and s.count("1") % 2 == 0,
    "Tomita6": lambda s: (s.count("0") - s.count("1")) % 3 == 0,
    "Tomita7": full("0*1*0*1*"),
    "a*b*": full("a*b*"),
    "a+b+": full("a+b+"),
    "D_2": full(depth_dyck_regex(2)),
    "D_3": full(depth_dyck_regex(3)),
    "D_4": full(depth_dyck_regex(4)),
    "D_12": full(depth_dyck_regex(12)),
    "(aa)*": full("(aa)*"),
    "(aa)*/unary": lambda s: len(s) % 2 == 0,
    "(aaaa)*": full("(aaaa)*"),
    "(aaaa)*/unary": lambda s: len(s) % 4 == 0,
    "(abab)*": full("(abab)*"),
    "#15": full("aa*bb*cc*dd*ee*"),
    "#16": full("[ab]*d[bc]*"),
    "#17": full("[012]*02*"),
    "Sigma*abSigma*": lambda s: "ab" in s,
    "Sigma*be*": full("[abe]*be*"),
    "PARITY": lambda s: s.count("1") % 2 == 0,
    "avoid-1010": lambda s: not is_subsequence("1010", s),
    "subseq-aab": lambda s: is_subsequence("aab", s),
}

MAX_LEN = {1: 16, 2: 10, 3: 10, 4: 7, 5: 6}


def brute_prefixes(member, alphabet):
    """A prefix function from a membership test on strings (memoized over prefixes)."""
    memo: dict[str, bool] = {}

    def f(X):
        out = np.zeros((X.shape[0], X.shape[1] + 1), dtype=bool)
        for b, row in enumerate(X):
            s = "".join(alphabet[i] for i in row)
            for k in range(len(s) + 1):
                p = s[:k]
                if p not in memo:
                    memo[p] = bool(member(p))
                out[b, k] = memo[p]
        return out

    return f
