"""The exact backward dynamic program of Richard 2024, Theorem 4.1: completing a prefix into a D_2N word.

With E = [1, -1]^T, uniform attention and B = B(s) of eq. (4), the next-token law at context length r
depends on the context only through its stack height h (eq. (9) and the telescoping of eq. (4)):

    X_r(h) = (v / r) (h - Delta_r(s) + gamma E_{s_{r+1}}),
    P('(') = 1/(1 + e^{-2X}),  P(')') = 1/(1 + e^{2X}).

Generation is a Markov chain on (r, h). Every variant here has the same shape: a *log-odds* function
D(r, h) = logit('(') - logit(')') (exact rational) with P('(') = 1/(1 + e^{-D}), P(')') = 1/(1 + e^{D}).
The failure mass F(r, h) = P(the length-2N word is not in D_2N | state (r, h)) is accumulated directly,
F = P('(') F(r+1, h+1) + P(')') F(r+1, h-1), with F = 1 on every non-completable state and F(2N, 0) = 0:
a sum of non-negative terms, never 1 - P(success). Every quantity is an mpmath interval (``mp.iv``,
outward rounded at ``dps`` digits, at least 60), so each comparison with a bound is a proof.

The column F(r, .) of a word s depends on s only through its suffix s_{r+1..2N} (Delta_r(s) = minus the
suffix's sum), so :func:`scan` shares columns between words with a common suffix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath as mp

from ..language.tolerances import MIN_DPS
from . import dyck

LogOdds = Callable[[int, int], Fraction]
iv = mp.iv


@contextmanager
def ivdps(dps: int) -> Iterator[None]:
    """Run mpmath interval arithmetic at ``max(dps, MIN_DPS)`` digits inside the block."""
    old = iv.prec
    iv.dps = max(dps, MIN_DPS)
    try:
        yield
    finally:
        iv.prec = old


def ball(x: Fraction) -> Any:
    """The exact rational ``x`` as an interval."""
    return iv.mpf(x.numerator) / x.denominator


def le(a: Any, b: Any) -> bool:
    """Proven a <= b (upper end of a below lower end of b)."""
    return a.b <= b.a


def gt(a: Any, b: Any) -> bool:
    """Proven a > b."""
    return a.a > b.b


def text(x: Any, digits: int = 6) -> str:
    """An interval as '[lo, hi]' with ``digits`` significant digits, each end rounded to nearest (a
    display: the printed ends may lie just inside the interval; :func:`bracket` rounds outward)."""
    return f"[{mp.nstr(mp.mpf(x.a), digits)}, {mp.nstr(mp.mpf(x.b), digits)}]"


def round_decimal(x: Fraction, digits: int, up: bool) -> str:
    """``x`` >= 0 to ``digits`` significant digits, rounded down (or up) exactly."""
    if x == 0:
        return "0"
    e = len(str(x.numerator)) - len(str(x.denominator))  # floor(log10 x) or one above it
    while Fraction(10) ** e > x:
        e -= 1
    places = digits - 1 - e
    scaled = x * Fraction(10) ** places
    q = -(-scaled.numerator // scaled.denominator) if up else scaled.numerator // scaled.denominator
    if places <= 0:
        return str(q * 10 ** -places)
    q_text = str(q).rjust(places + 1, "0")
    return (q_text[:-places] + "." + q_text[-places:]).rstrip("0").rstrip(".")


def bracket(lo: Fraction, hi: Fraction, digits: int = 4) -> str:
    """'[lo, hi]' for 0 <= lo <= hi with ``digits`` significant digits rounded outward (lo down, hi up),
    so the printed bracket contains the exact one (a threshold proven inside [lo, hi] is inside it)."""
    return f"[{round_decimal(Fraction(lo), digits, False)}, {round_decimal(Fraction(hi), digits, True)}]"


def E_of(k: int, e_close: Fraction) -> Fraction:
    """Token embedding: '(' -> 1, ')' -> e_close (-1 for the theorem's E)."""
    return Fraction(1) if k == dyck.OPEN else e_close


def prefix_sums(s: Sequence[int], e_close: Fraction) -> list[Fraction]:
    """[0, E[s_1], E[s_1] + E[s_2], ...] for E = [1, e_close]."""
    out = [Fraction(0)]
    for k in s:
        out.append(out[-1] + E_of(k, e_close))
    return out


def head_log_odds(s: Sequence[int], gamma: Fraction, v: Fraction, e_close: Fraction = Fraction(-1),
                  fixed_B: bool = False) -> LogOdds:
    """D(r, h) for the head of Thm 4.1 built from ``s`` (token ids). ``e_close`` replaces E[')'] = -1 by
    -1 + eta; B is rebuilt from that E by eq. (4), or, with ``fixed_B``, kept as eq. (4) of E = [1, -1]
    (the token and unembedding rows perturbed after B was built). Contexts of length r, 1 <= r <= 2N - 1."""
    n, eB = len(s), Fraction(-1) if fixed_B else e_close
    ref = prefix_sums(s, eB)  # sum_{i<=r} E_B[s_i], the E that built B

    def D(r: int, h: int) -> Fraction:
        opens, closes = Fraction(r + h, 2), Fraction(r - h, 2)
        nxt = E_of(s[r], eB) if r < n else Fraction(0)
        pooled = opens + e_close * closes - ref[r] + gamma * nxt  # sum_{i<=r} E[z_i] + B_i
        return v / r * pooled * (1 - e_close)  # logits = (v/r) pooled [1, e_close]
    return D


def nope_log_odds(a: Fraction, v: Fraction) -> LogOdds:
    """Claim 5.3: E = [a, -1]^T, no positional embedding: logits = (v/r) (sum E[z_i]) [a, -1]."""
    def D(r: int, h: int) -> Fraction:
        total = a * Fraction(r + h, 2) - Fraction(r - h, 2)
        return v / r * total * (a + 1)
    return D


class Probs:
    """P('(') and P(')') as intervals, cached by the exact log-odds (many states share one)."""

    def __init__(self) -> None:
        self._c: dict[Fraction, tuple[Any, Any]] = {}

    def __call__(self, D: Fraction) -> tuple[Any, Any]:
        out = self._c.get(D)
        if out is None:
            e = iv.exp(ball(D))
            out = self._c[D] = (e / (1 + e), 1 / (1 + e))  # no 1 - p anywhere
        return out


def column(N: int, r: int, nxt: list[Any] | None, D: LogOdds, probs: Probs, target: str) -> list[Any]:
    """The DP column at context length r (index h = 0..2N - r; None where the parity is wrong), from the
    column ``nxt`` at r + 1. ``target`` 'fail' accumulates failure mass, 'valid' success mass."""
    out_of = iv.mpf(1) if target == "fail" else iv.mpf(0)
    n = 2 * N
    if r == n:
        return [(iv.mpf(0) if target == "fail" else iv.mpf(1)) if h == 0 else None for h in range(1)]
    col: list[Any] = []
    for h in range(n - r + 1):
        if (h - r) % 2:
            col.append(None)
            continue
        up = nxt[h + 1] if h + 1 <= n - r - 1 else out_of
        down = nxt[h - 1] if h >= 1 else out_of
        po, pc = probs(D(r, h))
        col.append(po * up + pc * down)
    return col


def table(N: int, D: LogOdds, target: str = "fail", dps: int = MIN_DPS) -> dict[int, list[Any]]:
    """Every column r = 1..2N of the DP for the log-odds ``D``."""
    with ivdps(dps):
        probs, cols = Probs(), {}
        nxt = None
        for r in range(2 * N, 0, -1):
            nxt = cols[r] = column(N, r, nxt, D, probs, target)
        return cols


@dataclass
class Worst:
    """The largest mass over a set of states and where it is: word s, context length r, height h."""

    value: Any = None
    s: tuple[int, ...] = ()
    r: int = 0
    h: int = 0

    def offer(self, value: Any, s: tuple[int, ...], r: int, h: int) -> None:
        if self.value is None or value.b > self.value.b:
            self.value, self.s, self.r, self.h = value, s, r, h

    def where(self) -> str:
        z = dyck.show(witness_prefix(self.r, self.h))
        return f"s = {dyck.show(self.s)}, prefix {z} (r = {self.r}, height {self.h})"


def witness_prefix(r: int, h: int) -> tuple[int, ...]:
    """The deepest prefix reaching (r, h): '(' x (r+h)/2 then ')' x (r-h)/2 (depth (r+h)/2)."""
    return (dyck.OPEN,) * ((r + h) // 2) + (dyck.CLOSE,) * ((r - h) // 2)


@dataclass
class Scan:
    """:func:`scan`'s result: the largest mass over every prefix state of every word (``all``), over the
    states that admit a prefix deeper than s (``deep``) and over states off s's stack path (``off``)."""

    words: int
    states: int
    columns: int
    all: Worst
    deep: Worst
    off: Worst


def scan(N: int, words: Iterable[Sequence[int]], gamma: Fraction, v: Fraction, target: str = "fail",
         dps: int = MIN_DPS, e_close: Fraction = Fraction(-1), fixed_B: bool = False) -> Scan:
    """The DP over each word (columns shared by suffix), maxima over every prefix state (r, h) reachable
    by a prefix of a D_2N word."""
    res = Scan(0, 0, 0, Worst(), Worst(), Worst())
    memo: dict[tuple[Fraction, tuple[int, ...]], list[Any]] = {}
    with ivdps(dps):
        probs = Probs()
        for s in words:
            s = tuple(s)
            res.words += 1
            D = head_log_odds(s, gamma, v, e_close, fixed_B)
            hs, q = [0, *dyck.heights(s)], dyck.depth(s)
            ref = prefix_sums(s, Fraction(-1) if fixed_B else e_close)
            nxt = None
            for r in range(2 * N, 0, -1):
                key = (ref[r], s[r:])  # the column is a function of the suffix and the sum before it
                col = memo.get(key)
                if col is None:
                    col = memo[key] = column(N, r, nxt, D, probs, target)
                    res.columns += 1
                nxt = col
                if r == 2 * N:
                    continue
                for h in range(0, min(r, 2 * N - r) + 1, 1):
                    if col[h] is None:
                        continue
                    res.states += 1
                    res.all.offer(col[h], s, r, h)
                    if (r + h) // 2 > q:
                        res.deep.offer(col[h], s, r, h)
                    if h != hs[r]:
                        res.off.offer(col[h], s, r, h)
    return res


@lru_cache(maxsize=64)
def scan_all(N: int, gamma: Fraction, v: Fraction, target: str = "fail") -> Scan:
    """:func:`scan` over every word of D_2N, cached: several claims read the same (N, gamma, v)."""
    return scan(N, dyck.dyck_words(N), gamma, v, target)


def paper_bound(N: int) -> Any:
    """2N e^{-N} (Thm 4.1 (a), (b) and Claim 5.3), as an interval."""
    return 2 * N * iv.exp(iv.mpf(-N))


def loss_bound(N: int) -> Any:
    """8N^2 e^{-N} (Thm 4.1's loss bound), as an interval."""
    return 8 * N * N * iv.exp(iv.mpf(-N))


def ratio_text(a: Any, b: Any, digits: int = 3) -> str:
    """The upper end of ``a`` over the lower end of ``b`` (how much of a bound a value uses), printed."""
    return mp.nstr(mp.mpf(a.b) / mp.mpf(b.a), digits)


def memorization_failure(N: int, vg: Fraction, r: int = 1) -> Any:
    """1 - P(complete s_{:r} into s) for Thm 4.1 (a): every step's wrong-token mass 1/(1 + e^{2 v gamma/r'})
    accumulated directly (f_r' = q + p f_{r'+1}); it depends on v gamma only and decreases in it."""
    f = iv.mpf(0)
    for rr in range(2 * N - 1, r - 1, -1):
        e = iv.exp(2 * ball(vg) / rr)
        f = 1 / (1 + e) + e / (1 + e) * f
    return f


def training_loss(N: int, vg: Fraction) -> Any:
    """Eq. (2) on s itself, r = 1..2N - 1: sum_r log(1 + e^{-2 v gamma/r}) (the same for every s)."""
    return iv.fsum(iv.log(1 + iv.exp(-2 * ball(vg) / r)) for r in range(1, 2 * N))


def union_bound(N: int, absv: Fraction) -> Any:
    """sum_{r=1}^{2N-1} 1/(1 + e^{|v|/r}): the chance that some step leaves the argmax path when gamma =
    -1/2 (|X| >= |v|/(2r) at every state, as |h - Delta_r(s) -/+ 1/2| >= 1/2); decreasing in |v|."""
    return iv.fsum(1 / (1 + iv.exp(ball(absv) / r)) for r in range(1, 2 * N))


def greedy(N: int, D: LogOdds, r: int, h: int) -> tuple[list[int], bool]:
    """Argmax decoding from (r, h) to length 2N: the heights h_r..h_2N and whether a tie (D = 0) occurred
    (ties broken towards '(')."""
    path, tie = [h], False
    for rr in range(r, 2 * N):
        d = D(rr, path[-1])
        tie |= d == 0
        path.append(path[-1] + (1 if d >= 0 else -1))
    return path, tie


def argmax_paths(N: int, gamma: Fraction, v: Fraction
                 ) -> Iterator[tuple[tuple[int, ...], int, int, list[int], bool]]:
    """For every s in D_2N and every prefix state (r, h): (s, r, h, the heights of argmax decoding from
    (r, h), whether they close (or open) straight to s's stack path, meet it at the earliest r' with
    |h - Delta_r'(s)| <= r' - r, then follow s exactly, with no tie on the way)."""
    for s in dyck.dyck_words(N):
        D, hs = head_log_odds(s, gamma, v), [0, *dyck.heights(s)]
        for r, h in dyck.prefix_states(N):
            path, tie = greedy(N, D, r, h)
            meet = next(rr for rr in range(r, 2 * N + 1) if abs(h - hs[rr]) <= rr - r)
            step = -1 if h > hs[r] else 1
            ok = (not tie and all(path[i] == h + step * i for i in range(meet - r + 1))
                  and path[meet - r:] == hs[meet:])
            yield s, r, h, path, ok


def sample_failure(N: int, D: LogOdds, r: int, h: int, n: int, seed: int) -> float:
    """Monte Carlo failure rate from (r, h): ``n`` seeded runs (numpy default_rng(seed)), float64 law."""
    import numpy as np

    rng = np.random.default_rng(seed)
    p_open = {}
    fails = 0
    for _ in range(n):
        hh = h
        for rr in range(r, 2 * N):
            key = (rr, hh)
            if key not in p_open:
                p_open[key] = float(1 / (1 + mp.exp(-mp.mpf(D(rr, hh).numerator) / D(rr, hh).denominator)))
            hh += 1 if rng.random() < p_open[key] else -1
            if hh < 0:
                break
        fails += hh != 0
    return fails / n


def sampled_vs_exact(N: int, s: Sequence[int], gamma: Fraction, v: Fraction,
                     states: Sequence[tuple[int, int]], runs: int, seed: int
                     ) -> Iterator[tuple[int, int, float, float, float]]:
    """For each state (r, h) of ``states`` of the head on s: (r, h, the Monte Carlo failure rate of
    :func:`sample_failure` over ``runs`` seeded runs, the exact DP failure (lower end, as a float), the
    binomial standard deviation of that rate, at least 1e-3)."""
    D = head_log_odds(s, gamma, v)
    tab = table(N, D)
    for r, h in states:
        exact = float(tab[r][h].a)
        mc = sample_failure(N, D, r, h, runs, seed)
        yield r, h, mc, exact, max((exact * (1 - exact) / runs) ** 0.5, 1e-3)


def min_abs_v(N: int, words: Sequence[Sequence[int]], tol: Fraction, dps: int = MIN_DPS
              ) -> tuple[Fraction, Fraction, Scan]:
    """Bisection on |v| (gamma = -1/2) for the smallest |v| at which every prefix of every word fails
    with mass <= 2N e^{-N}: returns (lo, hi, scan at lo) with the bound proven false at lo (witness in the
    scan) and proven true at hi (lo = hi = 0 with the scan at v = 0 when it already holds there). Needs it
    true at 2N^2."""
    g, bound = Fraction(-1, 2), None
    lo, hi = Fraction(0), Fraction(2 * N * N)

    def holds(a: Fraction) -> tuple[bool, Scan]:
        nonlocal bound
        sc = scan(N, words, g, -a, dps=dps)
        with ivdps(dps):
            bound = paper_bound(N)
            if le(sc.all.value, bound):
                return True, sc
            if gt(sc.all.value, bound):
                return False, sc
        raise ArithmeticError(f"|v| = {a}: failure {text(sc.all.value)} not resolved against the bound")

    ok_lo, sc_lo = holds(lo)
    if ok_lo:
        return lo, lo, sc_lo
    if not holds(hi)[0]:
        raise ValueError(f"N = {N}: the bound fails at |v| = {hi}")
    while hi - lo > tol:
        mid = (lo + hi) / 2
        ok, sc = holds(mid)
        if ok:
            hi = mid
        else:
            lo, sc_lo = mid, sc
    return lo, hi, sc_lo


def thresholds(N_max: int) -> Iterator[tuple[int, Fraction, Fraction, Scan]]:
    """(N, lo, hi, scan at lo) of :func:`min_abs_v` over every word of D_2N to within N^2/1000, for
    N = 1..N_max."""
    for N in range(1, N_max + 1):
        yield (N, *min_abs_v(N, list(dyck.dyck_words(N)), Fraction(N * N, 1000)))


def figure(path: str, n_exhaustive: int = 7, n_top: int = 16, samples: int = 6, seed: int = 0) -> None:
    """Exact worst failure vs N at v = -2N^2 (exhaustive for N <= n_exhaustive, sampled words beyond,
    numpy default_rng(seed)) with the union bound and 2N e^-N; and failure vs |v| / (2N^2) for N = 4, 8
    (the deepest word, the worst case found). Needs the optional ``plot`` extra (matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    g = Fraction(-1, 2)
    Ns, worst, unions, bounds = list(range(1, n_top + 1)), [], [], []
    with ivdps(MIN_DPS):
        for N in Ns:
            words = dyck.dyck_words(N) if N <= n_exhaustive else dyck.sampled_words(N, samples, seed)
            worst.append(float(scan(N, words, g, Fraction(-2 * N * N)).all.value.b))
            unions.append(float(union_bound(N, Fraction(2 * N * N)).b))
            bounds.append(float(paper_bound(N).a))
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
    a1.semilogy(Ns, bounds, "k--", label=r"$2N e^{-N}$ (Thm 4.1 (b))")
    a1.semilogy(Ns, unions, "b:", label=r"union bound $\sum_r (1+e^{2N^2/r})^{-1}$")
    a1.semilogy(Ns, worst, "ro-", ms=4, label=f"exact worst P(fail) (all s for N<={n_exhaustive}, "
                f"{samples} words beyond)")
    a1.set_xlabel("N"), a1.set_ylabel("failure probability at v = -2N^2, gamma = -1/2")
    a1.legend(fontsize=8)
    for N, style in ((4, "g"), (8, "m")):
        s = (dyck.OPEN,) * N + (dyck.CLOSE,) * N
        xs = [Fraction(k, 20) for k in range(1, 41)]
        with ivdps(MIN_DPS):
            ys = [float(table(N, head_log_odds(s, g, -x * 2 * N * N))[N][N].b) for x in xs]
            b = float(paper_bound(N).a)
        a2.semilogy([float(x) for x in xs], ys, style + "-", label=f"N = {N}: s = (^N )^N, prefix (^N")
        a2.axhline(b, color=style, ls="--", lw=0.8)
    a2.axvline(1, color="k", lw=0.8)
    a2.set_xlabel("|v| / (2N^2)"), a2.set_ylabel("exact P(fail); dashed: 2N e^-N")
    a2.legend(fontsize=8)
    fig.suptitle("Richard 2024, Thm 4.1: exact failure of the closed-form Dyck head (interval DP)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m proofkit.posembed.dp --figure PATH [--exhaustive N] [--min-v N]``."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m proofkit.posembed.dp")
    ap.add_argument("--figure", help="write the failure-probability figure (needs matplotlib)")
    ap.add_argument("--exhaustive", type=int, default=7, help="all words of D_2N up to this N")
    ap.add_argument("--min-v", type=int, default=0, help="print the smallest-|v| brackets for N = 1..this")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.figure:
        try:
            figure(args.figure, args.exhaustive, seed=args.seed)
        except ImportError:
            print("matplotlib is not installed (pip install proofkit[plot]): no figure written")
            return 0
        print(f"wrote {args.figure} (seed {args.seed})")
    for N, lo, hi, sc in thresholds(args.min_v):
        ratio = float(hi) / (2 * N * N)
        print(f"N = {N}: smallest |v| in {bracket(lo, hi, 6)} = {ratio:.4f} x 2N^2"
              + (f"; fails at the lower end at {sc.all.where()}" if lo else "; holds at v = 0"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
