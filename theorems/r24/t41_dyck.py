"""R24.T41: Theorem 4.1 of Richard 2024 (Sec. 4.1, proof in App. 5.3.1): the one-dimensional head with
E = [1, -1]^T, uniform attention (Q = 0), V = v and B = B(s) of eq. (4) built from one s in D_2N.

The model is finite and its generation is a Markov chain on (context length r, stack height h): every
probability is computed exactly (proofkit.posembed.dp: rational log-odds, mpmath intervals at >= 60
digits, failure mass accumulated directly). Claims over "every v" use monotonicity that is proven in the
how-text (the memorization product and the loss are monotone in v gamma; the union bound in |v|); claims
at one v say so. Exhaustive over every s in D_2N for N <= ``N`` (default 6), sampled words up to
``N_top`` (16). The printed (a) reads "1 2N exp(-N)": the minus sign is restored here.

Notation: B is the positional embedding (not an MLP matrix); L is the loss; r is a context length; a
prefix is identified by its state (r, h), which is all the model sees of it.
"""

from fractions import Fraction

import sympy as sp

from proofkit import (
    Assumption,
    Computed,
    Evidence,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    SymbolicStep,
    Theorem,
    Verdict,
    fails,
    holds,
    predicate,
    undecided,
)
from proofkit.posembed import VARIANTS, DyckFalsifier, Fail, Undecided, at_most, bounds, dp, dyck, over

N_, v_, g_, r_ = (
    sp.Symbol("N", integer=True, positive=True),
    sp.Symbol("v"),
    sp.Symbol("gamma"),
    sp.Symbol("r", integer=True, positive=True),
)
G = Fraction(-1, 2)
Completes = predicate(
    "CompletesEveryPrefix", "every completable prefix is completed into D_2N with probability >= 1 - 2N e^-N"
)
Memorizes = predicate("Memorizes", "every prefix of s is completed into s with probability >= 1 - 2N e^-N")
LossBelow = predicate("LossBelow", "the loss of eq. (2) on s is < 8 N^2 e^-N")
Uniform = predicate("UniformAttention", "Q = 0: row r of att is r^-1 1_r^T")
DyckE = predicate("DyckEmbedding", "E = [1, -1]^T exactly")
Balanced = predicate("Balanced", "the training word s is in D_2N")
Sampled = predicate("Sampled", "each token is drawn from softmax(logits) (eq. (1)), not the argmax")


def _var(name):
    return lambda p: p["variant"] != name


def _N(p):
    return range(1, p["N"] + 1)


def _top(p):
    return range(1, p["N_top"] + 1)


def _span(lo, hi):
    """'N = lo..hi' as the domain names it (an empty range reads as such, and counts 0 cases)."""
    return f"N = {lo}..{hi}" + (" (empty)" if hi < lo else "")


def loss_bound(p) -> Evidence:
    """L(v gamma) = sum_{r<2N} log(1 + e^{-2 v gamma/r}) decreases in v gamma: proven at v gamma = N^2."""
    rows = []

    def case(N):
        L, b = bounds.loss_vs_bound(N, Fraction(N * N))
        rows.append(f"N={N}: {dp.text(L, 3)} < {dp.text(b, 3)}")
        return at_most(L, b, f"N = {N}: L(N^2) = {dp.text(L)} >= 8N^2 e^-N = {dp.text(b)}", str(N))

    return over(_top(p), case, method=Method.INTERVAL,
                domain=f"{_span(1, p['N_top'])}, each: every s in D_2N, every v gamma >= N^2",
                detail=lambda k: ("the loss is the same for every s and decreasing in v gamma; intervals "
                                  "at 60 digits; terms r = 1..2N-1: " + "; ".join(rows)))


def loss_without_v(p) -> Evidence:
    """The statement puts no condition on v; tried at v = 0 only, where every term is log 2 (no
    counterexample there is a search effort, never a proof for every v)."""
    def case(N):
        L, b = bounds.loss_vs_bound(N, Fraction(0))
        if dp.gt(L, b):
            return Fail(f"v = 0, N = {N}: L = (2N - 1) log 2 = {dp.text(L)} > 8N^2 e^-N = {dp.text(b)} "
                        "(holds for N <= 3 only); needs e.g. v gamma > N^2", str(N))
        return None if dp.le(L, b) else Undecided(f"v = 0, N = {N}: the intervals overlap")

    return over(_top(p), case, method=Method.SEARCH, fail_method=Method.INTERVAL,
                domain=f"v = 0 (the only v tried), {_span(1, p['N_top'])}",
                detail="the bound holds at v = 0 for these N")


def memorization(p) -> Evidence:
    """1 - prod_{r'>=r} (1 + e^{-2 v gamma/r'})^-1 decreases in v gamma and increases as r decreases."""
    rows = []

    def case(N):
        f, b = bounds.memorization_vs_bound(N, Fraction(N * N))
        rows.append(f"N={N}: {dp.text(f, 3)}")
        return at_most(f, b, f"N = {N}: failure {dp.text(f)} > {dp.text(b)}", str(N))

    return over(_top(p), case, method=Method.INTERVAL,
                domain=f"{_span(1, p['N_top'])}, each: every s, every prefix s_:r, every v gamma >= N^2",
                detail=lambda k: ("failure from r = 1 at v gamma = N^2, the worst case, in intervals, vs "
                                  "2N e^-N: " + "; ".join(rows)))


def memorization_step(p) -> Evidence:
    """'1 - exp(-gamma v/r) >= 1 - exp(-N)' with v gamma > N^2 and r <= 2N - 1, decided exactly. It holds
    iff v gamma/r >= N; at v gamma = N^2 + 1/1000 that is r <= N, as at every v gamma in (N^2, N^2 +
    N/(2N - 1)): a failure there is a failure of the step as printed."""
    def case(Nr):
        N, r = Nr
        vg = Fraction(N * N) + Fraction(1, 1000)
        if vg / r >= N:  # e^{-vg/r} <= e^{-N}
            return None
        return Fail(f"N = {N}, v gamma = {vg} > N^2, r = {r}: v gamma / r = {vg / r} < N, so "
                    "1 - e^(-v gamma/r) < 1 - e^-N (exact); the final bound still holds through Lemma 5.2's "
                    "factor 2 (e^{-2 v gamma/r} <= e^{-2N^2/(2N-1)} < e^-N)", f"{vg / r - N}")

    return over(((N, r) for N in _top(p) for r in range(1, 2 * N)), case, method=Method.EXACT,
                domain=f"{_span(1, p['N_top'])}, every r = 1..2N-1, at v gamma = N^2 + 1/1000",
                detail="v gamma/r >= N at every case (exact)")


def argmax_local(p) -> Evidence:
    """The argmax step keeps every completable state completable, for every (r, h, Delta_r(s), s_{r+1})
    that a word of D_2N can present: at h = 0 it opens, at h = 2N - r it closes (exact signs)."""
    def case(cfg):
        N, r, d, k, h = cfg
        S = h - d + G * dp.E_of(k, Fraction(-1))
        if S == 0 or (h == 0 and S > 0) or (h == 2 * N - r and S < 0):
            return Fail(f"N = {N}, r = {r}, h = {h}, Delta = {d}: S = {S}", str(S))
        return None

    return over(dyck.local_configs(p["N_top"]), case, method=Method.ENUMERATION,
                domain=(f"every local configuration (r, h, Delta_r(s), s_r+1) a word of D_2N presents, "
                        f"{_span(1, p['N_top'])}"),
                detail="no tie, never leaves the completable region (exact signs)")


def generalization(p) -> Evidence:
    """Every deviation from the argmax costs at most 1/(1 + e^{|v|/r}) (|X| >= |v|/(2r)); the argmax path
    stays completable (argmax_local), so P(fail) <= sum_r 1/(1 + e^{|v|/r}), decreasing in |v|."""
    domain = (f"{_span(1, p['N_top'])}, each: every s in D_2N, every completable prefix, every v <= -2N^2 "
              "(gamma = -1/2)")
    lemma = argmax_local(p)
    if lemma.outcome != "holds" or lemma.domain.empty:
        return undecided(f"the argmax lemma is not established ({lemma.outcome}, {lemma.domain})",
                         method=Method.INTERVAL, domain=domain)
    rows = []

    def case(N):
        u, b = bounds.union_vs_bound(N, Fraction(2 * N * N))
        rows.append(f"N={N}: {dp.text(u, 3)}")
        if dp.le(u, b):
            return None  # the union bound only bounds the failure: above 2N e^-N it decides nothing
        return Undecided(f"N = {N}: union bound {dp.text(u)} is not below {dp.text(b)}")

    return over(_top(p), case, method=Method.INTERVAL, domain=domain,
                detail=lambda k: (f"argmax lemma over {lemma.domain.count} local configurations; "
                                  "failure <= sum_r 1/(1 + e^(2N^2/r)) <= 2N e^-N, intervals: "
                                  + "; ".join(rows)))


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


def control(p) -> Evidence:
    """Deliberately false: failure <= e^{-N^2} at v = -2N^2."""
    def case(N):
        w = dp.scan_all(N, G, Fraction(-2 * N * N)).all
        return at_most(w.value, bounds.exp_of(-N * N), f"N = {N}: {dp.text(w.value)} > e^-N^2 at {w.where()}",
                       str(N))

    return over(_N(p), case, method=Method.INTERVAL,
                domain=f"every s in D_2N and every prefix state, {_span(1, p['N'])}, at v = -2N^2")


def union_step():
    """2N^2/r - N >= 2N^2/(2N-1) - N = N/(2N-1) > 0 for r <= 2N - 1: each deviation costs < e^-N."""
    return sp.simplify(2 * N_**2 / (2 * N_ - 1) - N_ - N_ / (2 * N_ - 1))


THEOREM = Theorem(
    id="R24.T41",
    title="Closed-form head for D_2N: loss < 8N^2 e^-N, memorization, generalization to any prefix",
    paper=PaperRef("Richard 2024", "Sec. 4.1, Theorem 4.1; proof App. 5.3.1", "(4), (9)", "richard2024depth"),
    params=ParamSpace((
        Param("N", int, 6, "exhaustive over every s in D_2N for N = 1..N", min=1, max=10),
        Param("N_top", int, 16, "closed forms and samples up to this N", min=1, max=16),
        Param("N_bisect", int, 5, "smallest-|v| bisection for N = 1..N_bisect", min=1, max=8),
        Param("samples", int, 6, "sampled words per N beyond N", min=1, max=200),
        Param("seed", int, 0, "numpy seed for sampled words, Monte Carlo and the Q grid", min=0,
              max=10**6),
        Param("variant", str, "none", "the dropped assumption's variant (falsify)", choices=VARIANTS),
        Param("gamma", str, "1/2", "gamma for the 'gamma' variant (a rational)",
              choices=("-5/2", "-3/2", "-1", "-1/4", "1/4", "1/2", "1", "2", "4")),
        Param("N_drop", int, 3, "N for the falsifier's search", min=1, max=8),
    )),
    assumptions=(
        Assumption("uniform", "Q = 0 (uniform attention)", _var("attention-q"), {"variant": "attention-q"},
                   predicate=Uniform(sp.Symbol("Q"))),
        Assumption("E-exact", "E = [1, -1]^T exactly (B from eq. (4) of that E)",
                   lambda p: p["variant"] not in ("eta-fixed-B", "eta-rebuilt"), {"variant": "eta-fixed-B"},
                   note="eta-rebuilt: --set variant=eta-rebuilt", predicate=DyckE(sp.Symbol("E"))),
        Assumption("balanced", "s in D_2N", _var("unbalanced"), {"variant": "unbalanced"},
                   predicate=Balanced(sp.Symbol("s"))),
        Assumption("gamma", "gamma = -1/2 in (b)", _var("gamma"), {"variant": "gamma"},
                   predicate=sp.Eq(g_, sp.Rational(-1, 2))),
        Assumption("v-generalization", "-v > 2N^2 in (b)", _var("v-small"),
                   {"variant": "v-small", "N_drop": 6}, predicate=sp.StrictGreaterThan(-v_, 2 * N_**2)),
        Assumption("v-memorization", "v gamma > N^2 in (a)", _var("memorization-v"),
                   {"variant": "memorization-v", "N_drop": 6},
                   predicate=sp.StrictGreaterThan(v_ * g_, N_**2)),
        Assumption("stochastic", "tokens sampled from eq. (1)", _var("argmax"),
                   {"variant": "argmax", "N_drop": 6}, predicate=Sampled(sp.Symbol("z"))),
    ),
    conclusion=sp.And(LossBelow(N_), Memorizes(N_), Completes(N_)),
    claims=(
        Computed("loss < 8N^2 e^-N when v gamma >= N^2 (Part D 36)", "conclusion", "Thm 4.1",
                 "sum_{r=1}^{2N-1} log(1 + e^{-2 v gamma/r}) < 8 N^2 e^-N", loss_bound,
                 reading="our reading"),
        Computed("loss < 8N^2 e^-N with no condition on v (Part D 36)", "identification",
                 "Thm 4.1 as printed", "the loss bound at v = 0", loss_without_v, reading="our reading"),
        Computed("(a) memorization, 1 - 2N e^-N restored (Part D 37)", "conclusion", "Thm 4.1 (a)",
                 "P(s_:r -> s) >= 1 - 2N e^-N for v gamma > N^2", memorization, reading="corrected"),
        Computed("(a) proof step 1 - e^(-gamma v/r) >= 1 - e^-N (Part D 37)", "proof-step", "App. 5.3.1",
                 "with v gamma > N^2 and r <= 2N - 1", memorization_step),
        Computed("(b) argmax never leaves the completable region", "proof-step",
                 "App. 5.3.1 (h = 0 and h = 2N - r cases)", "open at h = 0, close at h = 2N - r, no ties",
                 argmax_local),
        Computed("(b) generalization for every v <= -2N^2 (union bound)", "conclusion", "Thm 4.1 (b)",
                 "P(valid) >= 1 - 2N e^-N for every s, prefix", generalization),
        SymbolicStep("2N^2/(2N - 1) - N = N/(2N - 1)", "proof-step", "App. 5.3.1", "per-step cost < e^-N",
                     union_step, reading="our reading"),
        Computed("(b) exact worst failure at v = -2N^2, exhaustive (Part D 38)", "identification",
                 "Thm 4.1 (b)", "max over s, prefixes of P(fail) <= 2N e^-N", exact_worst),
        Computed("(b) depth extrapolation: prefixes deeper than s", "identification",
                 "Thm 4.1 (b), 'arbitrary depth'", "max over states admitting a prefix deeper than s",
                 lambda p: exact_worst(p, True)),
        Computed("(b) sampled words beyond the exhaustive range", "identification", "Thm 4.1 (b)",
                 "seeded words, every prefix", sampled_worst),
        Computed("(b) -v > 2N^2 is the smallest |v| that works (Part D 38)", "identification", "Thm 4.1 (b)",
                 "bisection on exact DP values", threshold_tight, reading="our reading"),
        Computed("(d) argmax follows the shortest path to s, then s (Part D 40)", "identification",
                 "Sec. 4.1", "meets s's stack path at the earliest position and follows it", shortest_path,
                 reading="our reading"),
        Computed("(c) gamma > 0: off-path prefixes fail w.h.p. (Part D 39)", "identification", "Thm 4.1 (c)",
                 "declared: P(valid) <= 2N e^-N off s's stack path", converse, reading="our reading"),
        Computed("Monte Carlo agrees with the DP", "identification", "eq. (1)", "seeded sampling",
                 sampling_check, reading="experiment"),
        Computed("control: failure <= e^-N^2 at v = -2N^2", "control", "deliberately false", "too strong",
                 control, reading="our reading"),
    ),
    expect={
        "loss < 8N^2 e^-N when v gamma >= N^2 (Part D 36)": Verdict.CERTIFIED,
        "loss < 8N^2 e^-N with no condition on v (Part D 36)": Verdict.REFUTED,
        "(a) memorization, 1 - 2N e^-N restored (Part D 37)": Verdict.CERTIFIED,
        "(a) proof step 1 - e^(-gamma v/r) >= 1 - e^-N (Part D 37)": Verdict.REFUTED,
        "(b) argmax never leaves the completable region": Verdict.CERTIFIED,
        "(b) generalization for every v <= -2N^2 (union bound)": Verdict.CERTIFIED,
        "2N^2/(2N - 1) - N = N/(2N - 1)": Verdict.CERTIFIED,
        "(b) exact worst failure at v = -2N^2, exhaustive (Part D 38)": Verdict.CERTIFIED,
        "(b) depth extrapolation: prefixes deeper than s": Verdict.CERTIFIED,
        "(b) sampled words beyond the exhaustive range": Verdict.CONFIRMED,
        "(b) -v > 2N^2 is the smallest |v| that works (Part D 38)": Verdict.REFUTED,
        "(d) argmax follows the shortest path to s, then s (Part D 40)": Verdict.CERTIFIED,
        "(c) gamma > 0: off-path prefixes fail w.h.p. (Part D 39)": Verdict.CERTIFIED,
        "Monte Carlo agrees with the DP": Verdict.CONFIRMED,
        "control: failure <= e^-N^2 at v = -2N^2": Verdict.REFUTED,
    },
    falsifier=DyckFalsifier(),
)
