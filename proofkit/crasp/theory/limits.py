"""Honest finite proxies for the asymptotic identification results of Huang et al. 2024 (Thm 7 = Thm 14,
Lemma 17, Cor. 18, Thm 23 / Cor. 24, Lemmas 48 and 52, App. D.2). The drop families below are constructed
here, not in the paper.

Nothing here proves an asymptotic statement. Each function computes an exact fact about a finite object
(a program family on Sigma^{<=n}, a compiled network's weights, a rational threshold family) that the
theorem's argument predicts; theorem files report these as "consistent with", never as a proof.

Families (programs are generated as TEXT and parsed, never eval'd):

- ``window_majority_text(D)``: W_D = [#a >= #b over the last D positions], C-RASP[local], locality D - 1;
- ``trigger_text(D)``: f_D = MAJORITY xor [w_{n-D} = a], C-RASP[local], locality D;
- ``threshold_text(n0)``: g_{n0} = MAJORITY xor [n >= n0], written in C-RASP[] as ``#true >= n0``;
- ``f_alpha``: [#_a(x) > alpha |x|] (App. D.2, the function reconstructed) and the exact minimal
  distinguishing length;
- lookup hypotheses for the copy language {ww} (Thm 23 / Cor. 24, illustrative);
- the three Lemma-48 necessity families cos(delta), delta, [delta = 0].

Aggregates over them (``formula_vs_brute``, ``distinguishing_growth``, ``grid_bounds``,
``l48_as_predicted``, ``schedule_summaries``) are what theorem files turn into evidence; the exhaustive
studies of the drop families are in :mod:`proofkit.crasp.theory.drop_families`.

The weights-only analyses of a compiled network (regularizer components, the (8)-type locality term, the
positional period and the locality radius) are in :mod:`proofkit.crasp.theory.network_weights`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from ...errors import InputError
from ..compilation.network import Mat
from ..language.ir import Program
from ..language.parser import parse
from ..semantics.vector import accepts_prefixes, all_strings
from .network_weights import exact_rank

PrefixFn = Callable[[np.ndarray], np.ndarray]
MAJORITY_TEXT = "alphabet: a b\nM := #Q(b) <= #Q(a)\n"
MAX_EXHAUSTIVE = 2**22


def _check_int(name: str, value: Any, lo: int, hi: int | None = None) -> int:
    """An int in [lo, hi] or InputError naming the field."""
    if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        rng = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
        raise InputError(name, f"an integer {rng}", value)
    return value


# --------------------------------------------------------------------------------------------------------
# Program families (text, then parsed)


def majority() -> Program:
    """MAJORITY over {a, b} (#a >= #b), parsed from text."""
    return parse(MAJORITY_TEXT, name="majority")


def window_majority_text(D: int) -> str:
    """C-RASP[local] text of W_D: #a >= #b over the last D positions (offsets 0..D-1)."""
    _check_int("D", D, 1, 500)
    offs = ",".join(str(c) for c in range(D))
    return (f"alphabet: a b\n// window majority W_{D}: locality {D - 1}\n"
            f"A := #[{{{offs}}}] Q(a)\nB := #[{{{offs}}}] Q(b)\nW := B <= A\n")


def trigger_text(D: int) -> str:
    """C-RASP[local] text of f_D = MAJORITY xor [exists j: i - j = D and w_j = a] (locality D)."""
    _check_int("D", D, 0, 10**6)
    return (f"alphabet: a b\n// trigger family f_{D}\nM := #Q(b) <= #Q(a)\nT := #[{D}] Q(a) >= 1\n"
            f"F := M <-> not T\n")


def threshold_text(n0: int) -> str:
    """C-RASP[] text of g_{n0} = MAJORITY xor [i >= n0] (i = #true, the position; constant n0)."""
    _check_int("n0", n0, 0, 10**6)
    return (f"alphabet: a b\n// threshold family g_{n0}\nM := #Q(b) <= #Q(a)\nP := #true >= {n0}\n"
            f"G := M <-> not P\n")


@dataclass(frozen=True)
class Disagreement:
    """Exhaustive comparison of two prefix functions on Sigma^{<=max_len}: the (length, then
    lexicographic)-smallest disagreeing string, or None, and how many strings were compared."""

    max_len: int
    strings: int
    word: str | None

    @property
    def length(self) -> int | None:
        """Length of the witness (None when they agree everywhere compared)."""
        return None if self.word is None else len(self.word)


def first_disagreement(f: PrefixFn, g: PrefixFn, alphabet: Sequence[str], max_len: int) -> Disagreement:
    """Smallest string of length <= max_len on which f and g differ (every prefix of every string of length
    max_len is compared: column k of a (B, n+1) prefix array is the prefix of length k)."""
    k = len(alphabet)
    _check_int("max_len", max_len, 0, 64)
    if k**max_len > MAX_EXHAUSTIVE:
        raise InputError("max_len", f"k^max_len <= {MAX_EXHAUSTIVE} strings", f"{k}^{max_len}")
    X = all_strings(k, max_len)
    diff = np.asarray(f(X), dtype=bool) != np.asarray(g(X), dtype=bool)
    strings = sum(k**m for m in range(max_len + 1))
    for ell in range(max_len + 1):
        rows = np.flatnonzero(diff[:, ell])
        if rows.size:
            w = "".join(alphabet[int(s)] for s in X[rows[0], :ell])
            return Disagreement(max_len, strings, w)
    return Disagreement(max_len, strings, None)


def program_fn(program: Program) -> PrefixFn:
    """Prefix acceptance of a program (vectorized interpreter)."""
    return lambda X: accepts_prefixes(program, X)


def length_shift(f: PrefixFn, n0: int) -> PrefixFn:
    """f xor [prefix length >= n0], evaluated directly (independent of the C-RASP encoding)."""
    def g(X: np.ndarray) -> np.ndarray:
        out = np.asarray(f(X), dtype=bool).copy()
        out[:, n0:] = ~out[:, n0:]
        return out
    return g


# --------------------------------------------------------------------------------------------------------
# App. D.2: thresholds alpha at infinite vs finite parameter precision


def f_alpha(alpha: Fraction, word: str, strict: bool = True) -> bool:
    """[#_a(word) > alpha |word|] (strict, our reading of App. D.2) or [>=] (strict=False), exactly."""
    k = word.count("a")
    return k > alpha * len(word) if strict else k >= alpha * len(word)


def min_distinguishing_length(alpha: Fraction, beta: Fraction, strict: bool = True) -> int:
    """L*(alpha, beta) = min{L >= 1 : exists integer k in 0..L with alpha < k/L <= beta} for alpha < beta
    (strict '>' thresholds; with strict=False: alpha <= k/L < beta), exactly with Fractions.

    Needs 0 <= alpha < beta <= 1 (strict) or 0 <= alpha < beta <= 1 with alpha < 1 (non-strict): outside
    [0, 1] the two functions can coincide on every string although a definition with 'exists k in Z' would
    say otherwise (e.g. alpha = 1, beta = 2 are both constant false)."""
    a, b = Fraction(alpha), Fraction(beta)
    if not (0 <= a < b <= 1):
        raise InputError("(alpha, beta)", "rationals with 0 <= alpha < beta <= 1", (str(a), str(b)))
    L = 1
    while True:
        if strict:
            k = math.floor(a * L) + 1           # least k with k/L > alpha
            if k <= L and Fraction(k, L) <= b:
                return L
        else:
            k = math.ceil(a * L)                # least k with k/L >= alpha
            if k <= L and Fraction(k, L) < b:
                return L
        L += 1


@cache
def _a_counts(L: int) -> tuple[int, ...]:
    """The distinct numbers of a's over all 2^L strings of length L (enumerated, not assumed)."""
    X = all_strings(2, L)
    counts = (X == 0).sum(axis=1) if L else np.zeros(1, dtype=np.int64)
    return tuple(int(k) for k in np.unique(counts))


def brute_distinguishing_length(alpha: Fraction, beta: Fraction, max_len: int,
                                strict: bool = True) -> int | None:
    """Smallest L <= max_len such that some string over {a, b} of length L separates f_alpha and f_beta,
    by enumerating all 2^L strings (their counts of a), or None."""
    a, b = Fraction(alpha), Fraction(beta)
    _check_int("max_len", max_len, 0, 22)
    for L in range(0, max_len + 1):
        for k in _a_counts(L):
            fa = k > a * L if strict else k >= a * L
            fb = k > b * L if strict else k >= b * L
            if fa != fb:
                return L
    return None


def grid_bound(p: int, strict: bool = True) -> tuple[int, int, tuple[Fraction, Fraction] | None]:
    """Over all pairs alpha < beta on the 2^-p grid of [0, 1]: (pairs checked, max L*, a pair violating
    L* <= 2^p or None)."""
    _check_int("p", p, 0, 12)
    grid = [Fraction(i, 2**p) for i in range(2**p + 1)]
    worst, bad, pairs = 0, None, 0
    for i, a in enumerate(grid):
        for b in grid[i + 1:]:
            L = min_distinguishing_length(a, b, strict)
            pairs += 1
            worst = max(worst, L)
            if L > 2**p and bad is None:
                bad = (a, b)
    return pairs, worst, bad


@dataclass(frozen=True)
class FormulaCheck:
    """Result of :func:`formula_vs_brute`: pairs checked (each flag counted) and the first pair whose formula
    value differs from the brute-force minimum, as (alpha, beta, formula L*), or None."""

    checked: int
    mismatch: tuple[Fraction, Fraction, int] | None


def formula_vs_brute(denominator: int, max_len: int) -> FormulaCheck:
    """The closed form :func:`min_distinguishing_length` against :func:`brute_distinguishing_length` (all
    strings of length <= max_len) for every pair alpha < beta on the 1/denominator grid of [0, 1], under
    '>' and then '>=' thresholds; stops at the first mismatch."""
    _check_int("denominator", denominator, 1, 256)
    grid = [Fraction(i, denominator) for i in range(denominator + 1)]
    checked = 0
    for strict in (True, False):
        for i, a in enumerate(grid):
            for b in grid[i + 1:]:
                L = min_distinguishing_length(a, b, strict)
                if brute_distinguishing_length(a, b, max_len, strict) != L:
                    return FormulaCheck(checked, (a, b, L))
                checked += 1
    return FormulaCheck(checked, None)


def distinguishing_growth(alpha: Fraction, ms: Iterable[int]) -> list[tuple[int, int]]:
    """(m, L*(alpha, alpha + 2^-m)) for each m: how the minimal distinguishing length grows as beta ->
    alpha."""
    return [(m, min_distinguishing_length(alpha, alpha + Fraction(1, 2**m))) for m in ms]


@dataclass(frozen=True)
class GridBound:
    """:func:`grid_bound` at one p: the strict pairs and max L*, the pairs of both thresholds together,
    and the first pair violating L* <= 2^p under either threshold (strict first), or None."""

    p: int
    pairs: int
    worst: int
    pairs_both: int
    violation: tuple[Fraction, Fraction] | None


def grid_bounds(p_max: int) -> list[GridBound]:
    """:func:`grid_bound` under '>' and '>=' for p = 0..p_max, up to and including the first p with a
    violation."""
    out = []
    for q in range(p_max + 1):
        pairs, worst, bad = grid_bound(q)
        pairs2, _, bad2 = grid_bound(q, strict=False)
        out.append(GridBound(q, pairs, worst, pairs + pairs2, bad or bad2))
        if bad or bad2:
            break
    return out


# --------------------------------------------------------------------------------------------------------
# Lemma 48 necessity families


@dataclass(frozen=True)
class L48Family:
    """One Lemma-48 drop family g(delta) with its realization p_i^T A p_j and which hypothesis it drops."""

    name: str
    dropped: str
    translation_invariant: bool
    rank: str
    norm: str
    fixed_precision: bool
    period_from_0: int | None
    eventual_period: int | None
    horizon: int


def period_within(g: Sequence[Any], start: int, equal: Callable[[Any, Any], bool]) -> int | None:
    """Smallest P <= (len(g) - start) // 2 with g[d + P] == g[d] for all start <= d < len(g) - P, or None."""
    H = len(g)
    for P in range(1, (H - start) // 2 + 1):
        if all(equal(g[d + P], g[d]) for d in range(start, H - P)):
            return P
    return None


def l48_families(horizon: int = 10_000, grid: int = 40) -> list[L48Family]:
    """cos(delta) (drops fixed precision), delta (drops bounded norm), [delta = 0] (drops bounded rank):
    translation invariance on a grid, the realization's rank / norms / precision, and (a)periodicity of
    g(delta) for delta in 0..horizon-1, from 0 and from horizon/2 (eventual periodicity)."""
    import mpmath

    _check_int("horizon", horizon, 4, 10**6)
    out = []
    with mpmath.workdps(40):
        tol = mpmath.mpf(10) ** -30
        g_cos = [mpmath.cos(d) for d in range(horizon)]

        def f_cos(i: int, j: int) -> Any:
            # p_i = (cos i, sin i), A = I
            return mpmath.cos(i) * mpmath.cos(j) + mpmath.sin(i) * mpmath.sin(j)

        ti = all(abs(f_cos(i + t, j + t) - f_cos(i, j)) < tol
                 for i in range(0, grid, 7) for j in range(0, grid, 5) for t in range(0, grid, 11))
        # g(d) = cos(d) computed afresh: the grid may reach past the horizon of the periodicity checks
        ti = ti and all(abs(f_cos(i, i + d) - mpmath.cos(d)) < tol
                        for i in range(0, grid, 3) for d in range(grid))
        # fixed precision: cos(d) on a 2^-q grid would leave no remainder; cos(1) is transcendental
        fixed = any(abs(g_cos[1] * 2**q - mpmath.nint(g_cos[1] * 2**q)) < tol for q in range(64))

        def eq(a: Any, b: Any) -> bool:
            return bool(abs(a - b) < tol)

        out.append(L48Family("cos(delta)", "fixed precision", ti, "2", "1 (||p_i|| = 1, ||A|| = 1)", fixed,
                             period_within(g_cos, 0, eq), period_within(g_cos, horizon // 2, eq), horizon))
    # delta: p_i = (1, i), A = [[0, 1], [-1, 0]]: p_i^T A p_j = j - i (integers)
    A = ((0, 1), (-1, 0))

    def f_lin(i: int, j: int) -> int:
        pi, pj = (1, i), (1, j)
        return sum(pi[r] * A[r][c] * pj[c] for r in range(2) for c in range(2))

    g_lin = [f_lin(0, d) for d in range(horizon)]
    cube = [(i, j, t) for i in range(grid) for j in range(grid) for t in range(0, grid, 7)]
    ti = all(f_lin(i + t, j + t) == f_lin(i, j) for i, j, t in cube)
    norm = f"||p_i|| = sqrt(1 + i^2), {math.hypot(1, horizon - 1):.0f} at i = {horizon - 1}"
    out.append(L48Family("delta", "bounded norm", ti, "2", norm, True, period_within(g_lin, 0, int.__eq__),
                         period_within(g_lin, horizon // 2, int.__eq__), horizon))
    # [delta = 0]: p_i = e_i (one-hot in R^N), A = I_N
    g_one = [int(d == 0) for d in range(horizon)]
    ti = all(int(i + t == j + t) == int(i == j) for i, j, t in cube)
    rank = exact_rank(Mat(64, 64, {(i, i): Fraction(1) for i in range(64)}))
    out.append(L48Family("[delta = 0]", "bounded rank", ti, f"N (identity; exact rank {rank} at N = 64)",
                         "1", True, period_within(g_one, 0, int.__eq__),
                         period_within(g_one, horizon // 2, int.__eq__), horizon))
    return out


def l48_as_predicted(families: Sequence[L48Family]) -> bool:
    """Whether the families of :func:`l48_families` behave as Lemma 48 predicts: each is
    translation-invariant and not periodic from delta = 0; cos(delta) is not at a fixed precision and not
    eventually periodic, delta is not eventually periodic, [delta = 0] is eventually periodic with
    period 1."""
    ok = all(f.translation_invariant and f.period_from_0 is None for f in families)
    by = {f.name: f for f in families}
    ok &= not by["cos(delta)"].fixed_precision and by["cos(delta)"].eventual_period is None
    ok &= by["delta"].eventual_period is None and by["[delta = 0]"].eventual_period == 1
    return ok


# --------------------------------------------------------------------------------------------------------
# Theorem 23 / Corollary 24 illustration: lookup tables for the copy language {ww}


def copy_codes(length: int) -> np.ndarray:
    """Integer codes (binary, first symbol most significant; a = 0, b = 1) of every string of the given
    length that lies in COPY = {ww : w in {a, b}*}."""
    if length % 2:
        return np.zeros(0, dtype=np.int64)
    h = length // 2
    w = np.arange(2**h, dtype=np.int64)
    return (w << h) | w


@dataclass(frozen=True)
class LookupHypothesis:
    """H_m: accept exactly the strings stored in its table, the copy strings ww with |w| <= m.
    Complexity measure mu(H_m) = number of stored entries = 2^(m+1) - 1."""

    m: int
    table: dict[int, frozenset[int]]

    @staticmethod
    def build(m: int) -> LookupHypothesis:
        """The table of H_m, listed string by string."""
        _check_int("m", m, 0, 20)
        table = {2 * h: frozenset(int(c) for c in copy_codes(2 * h)) for h in range(m + 1)}
        return LookupHypothesis(m, table)

    @property
    def measure(self) -> int:
        """Number of table entries."""
        return sum(len(v) for v in self.table.values())

    def accepts_codes(self, length: int, codes: np.ndarray) -> np.ndarray:
        """Membership of every code of one length in the table."""
        stored = np.fromiter(sorted(self.table.get(length, ())), dtype=np.int64)
        return np.isin(codes, stored)


def lookup_first_failure(h: LookupHypothesis, max_len: int) -> int | None:
    """Smallest length <= max_len at which H_m disagrees with COPY, enumerating all 2^L strings of each length
    as integer codes; None when it agrees on all of Sigma^{<=max_len}."""
    _check_int("max_len", max_len, 0, 22)
    for L in range(max_len + 1):
        codes = np.arange(2**L, dtype=np.int64)
        truth = np.isin(codes, copy_codes(L))
        if np.any(truth != h.accepts_codes(L, codes)):
            return L
    return None


def schedule_table(schedule: Callable[[int], int], ns: Iterable[int], max_len: int) -> list[dict[str, Any]]:
    """For each n: the training length t(n), the least-measure lookup hypothesis H_m matching COPY on every
    string of length <= t(n) (found by exhaustive checks), its measure, and its first failing length."""
    fails: dict[int, int | None] = {}
    rows = []
    for n in ns:
        t = schedule(n)
        m = 0
        while True:
            if m not in fails:
                fails[m] = lookup_first_failure(LookupHypothesis.build(m), max_len)
            if fails[m] is None or fails[m] > t:
                break
            m += 1
        h = LookupHypothesis.build(m)
        rows.append({"n": n, "t": t, "m": m, "measure": h.measure, "first_failure": fails[m],
                     "fails_by_n": fails[m] is not None and fails[m] <= n,
                     "fails_by_2n": fails[m] is not None and fails[m] <= 2 * n})
    return rows


@dataclass(frozen=True)
class ScheduleSummary:
    """:func:`schedule_table` under one named schedule t(n), n = 1..n_max (strings up to 2 n_max): the
    measures and first failing lengths per n, whether the measure never decreases, whether every n >
    n_max // 2 fails at a length <= n, and whether every n >= 2 fails by 2n."""

    name: str
    measures: list[int]
    first_failures: list[int | None]
    monotone: bool
    fails_by_n_late: bool
    fails_by_2n: bool


def schedule_summaries(schedules: dict[str, Callable[[int], int]], n_max: int) -> list[ScheduleSummary]:
    """One :class:`ScheduleSummary` per schedule, in order."""
    out = []
    for name, t in schedules.items():
        rows = schedule_table(t, range(1, n_max + 1), 2 * n_max)
        meas = [r["measure"] for r in rows]
        late = [r for r in rows if r["n"] > n_max // 2]
        out.append(ScheduleSummary(
            name, meas, [r["first_failure"] for r in rows], all(a <= b for a, b in zip(meas, meas[1:])),
            all(r["fails_by_n"] for r in late), all(r["fails_by_2n"] for r in rows[1:])))
    return out
