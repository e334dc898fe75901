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
    Cost,
    Evidence,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Proof,
    Step,
    SymbolicStep,
    Theorem,
    Verdict,
    predicate,
    undecided,
)
from proofkit.posembed import (
    VARIANTS,
    DyckFalsifier,
    Fail,
    Undecided,
    at_most,
    binary_contexts,
    bounds,
    dp,
    dyck,
    dyck_heads,
    over,
)
from proofkit.posembed import dyck_checks as dc
from proofkit.posembed import proof_steps as ps

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


def union_step():
    """2N^2/r - N >= 2N^2/(2N-1) - N = N/(2N-1) > 0 for r <= 2N - 1: each deviation costs < e^-N."""
    return sp.simplify(2 * N_**2 / (2 * N_ - 1) - N_ - N_ / (2 * N_ - 1))


def _delta(z):
    return sum(1 if c == 0 else -1 for c in z)


def pooled_identity(p) -> Evidence:
    """The generalization display: 1_r^T (E_z + B(s)) = Delta_r(z) - Delta_r(s) + gamma E_(s_(r+1)), and
    the memorization logits (v gamma/r) delta_(s_(r+1))^T E E^T = +-(v gamma/r) E^T, on the model (exact)."""
    cases = ((s, h, z) for N, s, h in dyck_heads(4, G, -7) for z in binary_contexts(2 * N - 1))

    def case(c):
        s, h, z = c
        r = len(z)
        want = _delta(z) - _delta(s[:r]) + G * (1 if s[r] == 0 else -1)
        if h.pooled(z)[0] != want:
            return Fail(f"s = {dyck.show(s)}, z = {dyck.show(z)}: {h.pooled(z)[0]} != {want}", "1")
        sign = 1 if s[r] == 0 else -1
        if z == s[:r] and list(h.logits(z)) != [Fraction(-7) * G / r * x * sign for x in (1, -1)]:
            return Fail(f"s = {dyck.show(s)}, r = {r}: logits {h.logits(z)}", "1")
        return None

    return over(cases, case, method=Method.ENUMERATION, detail="exact rational pooled sums and logits",
                domain="every s in D_2N, N = 1..4, every context z in {(, )}^r, r = 1..2N-1, gamma = "
                       "-1/2, v = -7")


def att_row_is_stack():
    """App. 5.3.1 before (9): 'the r-th row of att E_s is equal to the size of the stack Delta_r' as
    printed, with att's row r = r^-1 1_r^T: residuals (1/r) Delta_r - Delta_r over every s in D_2N, N <= 4,
    r = 1..2N (nonzero wherever Delta_r != 0 and r >= 2); (9)'s Delta_r = 1_r^T E_(s_:r) is the sum itself."""
    out = []
    for N in range(1, 5):
        for s in dyck.dyck_words(N):
            for r in range(1, 2 * N + 1):
                d = _delta(s[:r])
                out.append(sp.Rational(d, r) - d)
    return out


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
                 "Thm 4.1 (b)", "max over s, prefixes of P(fail) <= 2N e^-N", dc.exact_worst),
        Computed("(b) depth extrapolation: prefixes deeper than s", "identification",
                 "Thm 4.1 (b), 'arbitrary depth'", "max over states admitting a prefix deeper than s",
                 lambda p: dc.exact_worst(p, True)),
        Computed("(b) sampled words beyond the exhaustive range", "identification", "Thm 4.1 (b)",
                 "seeded words, every prefix", dc.sampled_worst),
        Computed("(b) -v > 2N^2 is the smallest |v| that works (Part D 38)", "identification", "Thm 4.1 (b)",
                 "bisection on exact DP values", dc.threshold_tight, reading="our reading"),
        Computed("(d) argmax follows the shortest path to s, then s (Part D 40)", "identification",
                 "Sec. 4.1", "meets s's stack path at the earliest position and follows it",
                 dc.shortest_path, reading="our reading"),
        Computed("(c) gamma > 0: off-path prefixes fail w.h.p. (Part D 39)", "identification", "Thm 4.1 (c)",
                 "declared: P(valid) <= 2N e^-N off s's stack path", dc.converse, reading="our reading"),
        Computed("Monte Carlo agrees with the DP", "identification", "eq. (1)", "seeded sampling",
                 dc.sampling_check, reading="experiment"),
        SymbolicStep("row r of att E_s is Delta_r (before (9))", "proof-step", "App. 5.3.1, before (9)",
                     "att row r = r^-1 1_r^T", att_row_is_stack),
        Computed("pooled sum = Delta_r(z) - Delta_r(s) + gamma E_(s_(r+1))", "proof-step", "App. 5.3.1",
                 "and the memorization logits +-(v gamma/r) E^T", pooled_identity),
        Computed("elastic: Delta_r(z) > Delta_r(s) gives X <= v(1 - E/2) < 0, below gives X > 0",
                 "proof-step", "App. 5.3.1 (elastic remark)",
                 "S = Delta_r(z) - Delta_r(s) + gamma E_(s_(r+1))",
                 lambda p: ps.local_case(p, "elastic")),
        Computed("Delta_r(z) = 0: -Delta_r(s) + gamma E_(s_(r+1)) <= -1/2", "proof-step", "App. 5.3.1",
                 "every local configuration with h = 0", lambda p: ps.local_case(p, "empty")),
        Computed("Delta_r(z) = 2N - r: Delta_r(z) - Delta_r(s) + gamma E_(s_(r+1)) >= 1/2", "proof-step",
                 "App. 5.3.1", "d <= h; d = h => s_(r+1) = ')', S = 1/2", lambda p: ps.local_case(p, "full")),
        Computed("v gamma > N^2 is required for (a)", "identification",
                 "Thm 4.1 (c) ('the condition v gamma > N^2 required for memorization', read as necessary)",
                 "the memorization bound fails at every v gamma <= N^2", ps.memo_threshold_needed,
                 reading="our reading"),
        Computed("control: failure <= e^-N^2 at v = -2N^2", "control", "deliberately false", "too strong",
                 dc.dyck_control, reading="our reading"),
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
        "row r of att E_s is Delta_r (before (9))": Verdict.REFUTED,
        "pooled sum = Delta_r(z) - Delta_r(s) + gamma E_(s_(r+1))": Verdict.CERTIFIED,
        "elastic: Delta_r(z) > Delta_r(s) gives X <= v(1 - E/2) < 0, below gives X > 0": Verdict.CERTIFIED,
        "Delta_r(z) = 0: -Delta_r(s) + gamma E_(s_(r+1)) <= -1/2": Verdict.CERTIFIED,
        "Delta_r(z) = 2N - r: Delta_r(z) - Delta_r(s) + gamma E_(s_(r+1)) >= 1/2": Verdict.CERTIFIED,
        "v gamma > N^2 is required for (a)": Verdict.REFUTED,
        "control: failure <= e^-N^2 at v = -2N^2": Verdict.REFUTED,
    },
    proofs=(Proof("Theorem 4.1", "App. 5.3.1", (
        Step("setup", "'(' -> 0, ')' -> 1, E = [1, -1]^T, Q = 0", kind="definition",
             why_not="the tokenization and the model's weights"),
        Step("before (9)", "row r of att E_s equals the stack size Delta_r (it is Delta_r/r)",
             by="row r of att E_s is Delta_r (before (9))"),
        Step("(9)", "Delta_r(s) = #'(' - #')' among the first r = 1_r^T E_(s_:r)", kind="definition",
             why_not="defines Delta_r; the identity with the sum is the encoding of E (checked by the "
                     "pooled-sum claim)"),
        Step("choice", "B of eq. (4), gamma = -1/2, v < -2N^2", kind="definition", why_not="the parameters"),
        Step("memorization display", "logits_r = (v gamma/r) delta^T E E^T = +-(v gamma/r) E^T",
             by="pooled sum = Delta_r(z) - Delta_r(s) + gamma E_(s_(r+1))"),
        Step("memorization, Lemma 5.2", "gamma v > N^2: P(next = s_(r+1)) >= 1 - e^(-gamma v/r) >= 1 - e^-N",
             by="(a) proof step 1 - e^(-gamma v/r) >= 1 - e^-N (Part D 37)"),
        Step("memorization, union bound", "every prefix of s is completed into s w.p. >= 1 - 2N e^-N",
             by="(a) memorization, 1 - 2N e^-N restored (Part D 37)"),
        Step("generalization display", "1_r^T (E_z + B(s)) = Delta_r(z) - Delta_r(s) + gamma E_(s_(r+1))",
             by="pooled sum = Delta_r(z) - Delta_r(s) + gamma E_(s_(r+1))"),
        Step("elastic", "stack of z above (below) that of s: X <= v(1 - E/2) < 0 (X > 0), the next token "
             "moves z towards s",
             by=("elastic: Delta_r(z) > Delta_r(s) gives X <= v(1 - E/2) < 0, below gives X > 0",
                 "(d) argmax follows the shortest path to s, then s (Part D 40)")),
        Step("Delta_r(z) = 0 display", "-Delta_r(s) + gamma E_(s_(r+1)) <= -1/2 < 0: the next token opens",
             by=("Delta_r(z) = 0: -Delta_r(s) + gamma E_(s_(r+1)) <= -1/2",
                 "(b) argmax never leaves the completable region")),
        Step("Delta_r(z) = 0, probability", "P >= 1 - exp(v/r) >= 1 - e^-N",
             by=("Delta_r(z) = 0: -Delta_r(s) + gamma E_(s_(r+1)) <= -1/2",
                 "2N^2/(2N - 1) - N = N/(2N - 1)")),
        Step("Delta_r(z) = 2N - r", "Delta_r(z) - Delta_r(s) + gamma E >= 1/2: ')' w.p. >= 1 - e^-N",
             by=("Delta_r(z) = 2N - r: Delta_r(z) - Delta_r(s) + gamma E_(s_(r+1)) >= 1/2",
                 "(b) argmax never leaves the completable region", "2N^2/(2N - 1) - N = N/(2N - 1)")),
        Step("conclusion", "every completable prefix is completed into D_2N w.p. >= 1 - 2N e^-N (union "
                           "bound)",
             by=("(b) generalization for every v <= -2N^2 (union bound)",
                 "(b) exact worst failure at v = -2N^2, exhaustive (Part D 38)")),
    )),),
    sentences=(
        Step("Thm 4.1", "for any s in D_2N: loss < 8N^2 e^-N (no condition on v printed)",
             by=("loss < 8N^2 e^-N when v gamma >= N^2 (Part D 36)", "loss < 8N^2 e^-N with no "
                                                                     "condition on v (Part D 36)")),
        Step("Thm 4.1 (a)", "if v gamma > N^2, any prefix s_:r of s is completed into s (sufficient)",
             by="(a) memorization, 1 - 2N e^-N restored (Part D 37)"),
        Step("Thm 4.1 (b)", "with gamma = -1/2 and -v > 2N^2, prefixes of any z in D_2N with arbitrary depth "
             "are completed (sufficient; not necessary)",
             by=("(b) generalization for every v <= -2N^2 (union bound)", "(b) depth extrapolation: "
                                                                          "prefixes deeper than s",
                 "(b) -v > 2N^2 is the smallest |v| that works (Part D 38)")),
        Step("Thm 4.1 (c)", "if gamma > 0 and the stack sizes differ, the model fails w.h.p. even if v "
                            "gamma > N^2",
             by="(c) gamma > 0: off-path prefixes fail w.h.p. (Part D 39)"),
        Step("Thm 4.1 (c), 'required'", "the condition v gamma > N^2 (is) required for memorization",
             by="v gamma > N^2 is required for (a)"),
        Step("Thm 4.1", "exactly 2N + 3 weights", why_not="a count, not quantified; R24.L5 examines it "
                                                          "(B_2N never acts)"),
    ),
    falsifier=DyckFalsifier(),
    cost=Cost(3.5, {"samples": 0.79}, per_unit={"N": 3.88, "N_bisect": 2.72}, fixed=2.34),
)
