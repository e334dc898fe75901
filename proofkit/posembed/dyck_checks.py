"""The exhaustive and sampled checks of R24.T41 (Richard 2024, Theorem 4.1) over the exact DP of the
Dyck head (:mod:`.dp`): the worst failure at v = -2N^2 over every word and prefix state (and the states
deeper than s), seeded words beyond that range, the smallest |v| by bisection, the argmax path, the
gamma > 0 converse, Monte Carlo against the DP, and the control. Each returns the Evidence of one claim;
the engine decides the verdict.

Moved out of theorems/r24/t41_dyck.py (which keeps the statement's bounds and the proof walk) so that the
theorem file stays under its line budget; the functions are unchanged.
"""

from __future__ import annotations

from fractions import Fraction

from ..language.evidence import Evidence, Method, fails, holds, undecided
from . import bounds, dp, dyck
from .sweep import Fail, at_most, over

G = Fraction(-1, 2)


def _N(p):
    return range(1, p["N"] + 1)


def _span(lo, hi):
    """'N = lo..hi' as the domain names it (an empty range reads as such, and counts 0 cases)."""
    return f"N = {lo}..{hi}" + (" (empty)" if hi < lo else "")


def exact_worst(p, deep=False) -> Evidence:
    """The exact worst failure over every s in D_2N and prefix state (``deep``: the states admitting a
    prefix deeper than s) at v = -2N^2, N = 1..N, against 2N e^-N (exhaustive DP in intervals)."""
    what = "state admitting a prefix deeper than s" if deep else "prefix state"
    domain = f"every s in D_2N and every {what}, {_span(1, p['N'])}, at v = -2N^2 (gamma = -1/2)"
    rows, count = [], 0
    for N in _N(p):
        w, b, states = bounds.exhaustive_worst(N, G, Fraction(-2 * N * N), deep)
        if w.value is None:
            rows.append(f"N={N}: no prefix deeper than any s")
            continue
        count += states
        if dp.gt(w.value, b):
            return fails(Method.INTERVAL, f"N = {N}: {dp.text(w.value)} > 2N e^-N at {w.where()}",
                         domain=domain, residual=str(N))
        if not dp.le(w.value, b):
            return undecided(f"N = {N}: {dp.text(w.value)} overlaps 2N e^-N", method=Method.INTERVAL,
                             domain=domain)
        rows.append(f"N={N}: {dp.text(w.value, 3)} ({dp.ratio_text(w.value, b)} of the bound) at {w.where()}")
    return holds(Method.INTERVAL, domain, count=count,
                 detail="exact DP, intervals: worst failure " + "; ".join(rows))


def sampled_worst(p) -> Evidence:
    """Seeded words beyond the exhaustive range: each word's every prefix state decided in intervals (a
    failing word is a certified counterexample; words that hold are samples)."""
    worst: dict[int, object] = {}

    def words():
        for N in range(p["N"] + 1, p["N_top"] + 1):
            yield from ((N, s) for s in dyck.sampled_words(N, p["samples"], p["seed"]))

    def case(Ns):
        N, s = Ns
        w, b = bounds.word_worst(N, s, G, Fraction(-2 * N * N))
        if N not in worst or w.value.b > worst[N].b:
            worst[N] = w.value
        return at_most(w.value, b, f"N = {N}: {dp.text(w.value)} at {w.where()}", str(N))

    return over(words(), case, method=Method.SAMPLED, fail_method=Method.INTERVAL,
                domain=(f"{p['samples']} seeded words per N (uniform D_2N sampler and the deepest word, "
                        f"numpy default_rng({p['seed']})), {_span(p['N'] + 1, p['N_top'])}, every prefix "
                        "state of each, v = -2N^2"),
                detail=lambda k: "worst failure per N: " + "; ".join(
                    f"N={N}: {dp.text(v, 3)}" for N, v in sorted(worst.items())))


def threshold_tight(p) -> Evidence:
    """Is -v > 2N^2 needed? Bisection (exact DP per |v|) for the smallest |v| meeting 2N e^-N; each
    bracket [lo, hi] is proven at both ends (fails at lo, holds at hi) and printed rounded outward, so the
    printed bracket contains the proven one."""
    rows, loose = [], []
    for N, lo, hi, sc in dp.thresholds(p["N_bisect"]):
        rows.append(f"N={N}: |v|* in {dp.bracket(lo, hi)} = {float(hi) / (2 * N * N):.3f} x 2N^2"
                    + (f" (fails at the lower end: {sc.all.where()})" if lo else " (holds at v = 0)"))
        if hi < 2 * N * N:
            loose.append((lo == 0, N, lo, hi))
    domain = f"{_span(1, p['N_bisect'])}, every s in D_2N and every prefix state, |v| bisected on [0, 2N^2]"
    if loose:
        _, N, lo, hi = min(loose)  # a proper threshold (lo > 0) below 2N^2 is the telling witness
        return fails(Method.INTERVAL, f"N = {N}: the bound already holds (proven, exhaustive DP) at |v| = "
                     f"{dp.round_decimal(hi, 4, up=True)} < 2N^2 = {2 * N * N}", domain=domain,
                     count=p["N_bisect"], residual=str(N),
                     detail=("the bound holds (proven) at the upper ends, below 2N^2, and fails (proven) at "
                             "the lower ends: " + "; ".join(rows)))
    return holds(Method.INTERVAL, domain, count=p["N_bisect"], detail="; ".join(rows))


def shortest_path(p) -> Evidence:
    """Argmax from (r, h): closes (opens) straight to s's stack path, meets it at the earliest r' with
    |h - Delta_r'(s)| <= r' - r, then follows s exactly."""
    def case(c):
        s, r, h, path, ok = c
        return None if ok else Fail(f"s = {dyck.show(s)}, (r, h) = ({r}, {h}): heights {path}", "1")

    cases = (c for N in _N(p) for c in dp.argmax_paths(N, G, Fraction(-2 * N * N)))
    return over(cases, case, method=Method.ENUMERATION,
                domain=f"every s in D_2N and every prefix state, {_span(1, p['N'])}",
                detail="exact signs at v = -2N^2 (argmax does not depend on |v|)")


GAMMAS = (Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4))


def converse(p) -> Evidence:
    """Claim (c), declared reading: for gamma > 0, v gamma = N^2 + 1, every prefix off s's stack path is
    completed validly with probability <= 2N e^-N."""
    rows = []

    def case(gN):
        g, N = gN
        w, b = dp.scan_all(N, g, (N * N + 1) / g, "valid").off, bounds.paper_bound(N)
        if N == p["N"] or N == 2:
            rows.append(f"gamma={g}, N={N}: {dp.text(w.value, 3)}")
        return at_most(w.value, b, f"gamma = {g}, N = {N}: P(valid) {dp.text(w.value)} > 2N e^-N at "
                       f"{w.where()}", f"{g},{N}")

    return over(((g, N) for g in GAMMAS for N in range(2, p["N"] + 1)), case, method=Method.INTERVAL,
                domain=("every s in D_2N, every prefix state with Delta_r(z) != Delta_r(s), gamma in "
                        f"{{1/4, 1/2, 1, 2, 4}} x {_span(2, p['N'])}, at v gamma = N^2 + 1"),
                detail=lambda k: "max P(valid) " + "; ".join(rows))


def sampling_check(p) -> Evidence:
    """Seeded Monte Carlo vs the DP where failure is not tiny (v = -2, gamma = -1/2): within 5 standard
    deviations (float64 sampling)."""
    N = min(p["N"], 4)
    s = next(iter(dyck.dyck_words(N)))

    def case(c):
        r, h, mc, exact, sd = c
        if abs(mc - exact) > 5 * sd:
            return Fail(f"state (r, h) = ({r}, {h}): Monte Carlo {mc} vs DP {exact:.6g} (> 5 sd = "
                        f"{5 * sd:.3g})")
        return None

    states = dp.sampled_vs_exact(N, s, G, Fraction(-2), dyck.prefix_states(N)[:6], 4000, p["seed"])
    return over(states, case, method=Method.FLOAT,
                domain=f"s = {dyck.show(s)}, the first 6 prefix states (4000 runs each, numpy default_rng("
                       f"{p['seed']}))",
                detail="Monte Carlo within 5 sd of the DP")


def dyck_control(p) -> Evidence:
    """Deliberately false: failure <= e^{-N^2} at v = -2N^2."""
    def case(N):
        w = dp.scan_all(N, G, Fraction(-2 * N * N)).all
        return at_most(w.value, bounds.exp_of(-N * N), f"N = {N}: {dp.text(w.value)} > e^-N^2 at {w.where()}",
                       str(N))

    return over(_N(p), case, method=Method.INTERVAL,
                domain=f"every s in D_2N and every prefix state, {_span(1, p['N'])}, at v = -2N^2")
