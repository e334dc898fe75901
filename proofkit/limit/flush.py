"""The flush-to-zero precision rule of finite-precision limit transformers, decided exactly.

The rule (Izzo, Nichani & Lee 2025, Sec. 3.2): after the largest attention logit is subtracted, every
post-exponentiation term ``s = N^(a - a*)`` of absolute value at most ``2^-p`` is set to 0, and every
other quantity stays exact. The threshold is a boundary statement (at ``N = 2^(p/g)`` a term equals
``2^-p`` exactly), so a float64 ``exp(log(N) * g)`` lands on either side of it. For a rational gap
``g = a/b > 0`` the decision is an integer comparison: ``N^-g <= 2^-p  <=>  N^a >= 2^(p b)``.
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import InputError, one_of

#: the inclusive rule of the paper (``|s| <= 2^-p`` is flushed); ``strict`` flushes ``|s| < 2^-p`` only
RULES = ("inclusive", "strict")


def _check(N: int, p: int) -> None:
    if not isinstance(N, int) or N < 1:
        raise InputError("N", "a positive integer", N)
    if not isinstance(p, int) or p < 0:
        raise InputError("p", "a non-negative integer (bits of precision)", p)


def term_flushed(N: int, gap: Fraction, p: int, rule: str = "inclusive") -> bool:
    """Is the softmax term ``N^-gap`` (``gap = a* - a >= 0``, rational) flushed at ``p`` bits?

    Exact: ``N^-a/b <= 2^-p`` iff ``N^a >= 2^(p b)`` (both sides integers). A maximal key (gap 0) has
    ``s = 1``, which is never flushed for ``p >= 1``; at ``p = 0`` it is (``1 <= 2^0``) under the
    inclusive rule, as the literal rule says."""
    _check(N, p)
    gap = Fraction(gap)
    if gap < 0:
        raise InputError("gap", "a non-negative rational (a* - a)", gap)
    if rule not in RULES:
        raise one_of("rule", RULES, rule)
    a, b = gap.numerator, gap.denominator
    lhs, rhs = N**a, 2 ** (p * b)
    return lhs >= rhs if rule == "inclusive" else lhs > rhs


def _iroot_ceil(value: int, k: int) -> int:
    """The smallest integer r >= 1 with r^k >= value (exact integer k-th root, rounded up)."""
    if value <= 1:
        return 1
    lo, hi = 1, 1 << (value.bit_length() // k + 1)
    while lo < hi:
        mid = (lo + hi) // 2
        if mid**k >= value:
            hi = mid
        else:
            lo = mid + 1
    return lo


def hardmax_length(p: int, gap: Fraction | None, rule: str = "inclusive") -> int:
    """The smallest N >= 1 at which a term of gap ``gap`` is flushed: the exact integer form of the paper's
    ``N >= 2^(p/gamma)``. ``gap = None`` stands for gamma = +inf (no sub-maximal logit): 1."""
    if gap is None:
        return 1
    gap = Fraction(gap)
    if gap <= 0:
        raise InputError("gap", "a positive rational or None (+inf)", gap)
    a, b = gap.numerator, gap.denominator
    N = _iroot_ceil(2 ** (p * b), a)  # smallest N with N^a >= 2^(p b)
    if rule == "strict":
        while not term_flushed(N, gap, p, rule):
            N += 1
    return N


def term_value(N: int, gap: Fraction) -> Fraction | None:
    """``N^-gap`` as an exact rational where it is one (integer gap, or N a perfect power), else None."""
    gap = Fraction(gap)
    a, b = gap.numerator, gap.denominator
    root = _iroot_ceil(N, b)
    if root**b != N:
        return None
    return Fraction(1, root**a) if a >= 0 else Fraction(root ** (-a))
