"""R24.L5: the lemmas and side claims of Richard 2024 around Theorem 4.1: Lemma 5.1 (one-hot memorization,
App. 5.2), Lemma 5.2 (two-token logits, App. 5.3.1), Claim 5.3 (no positional embedding), the stability
quantities mu_r (Sec. 3.2), the Catalan facts (Sec. 4), the mask and the loss of Sec. 3.1 (eqs. (2), (3)),
B_n and the weight count, and the "global optimizer" sentence.

Probabilities are mpmath intervals (proofkit.posembed.dp), logits exact rationals (proofkit.posembed.model),
algebra sympy. Where a claim holds for every v it is by monotonicity stated in its how-text.
"""

import itertools
from fractions import Fraction
from math import comb

import sympy as sp

from proofkit.params import Param, ParamSpace
from proofkit.posembed import dp, dyck
from proofkit.posembed.model import Head
from proofkit.spec import Assumption, Computed, PaperRef, SymbolicStep, Theorem, predicate
from proofkit.verdict import Verdict

x_, y_, g_, r_, n_ = sp.symbols("x y gamma r n", positive=True)
c_r, c_next, c_prev = sp.symbols("c_r c_next c_prev")
Memorizes = predicate(
    "MemorizesOneHot", "every prefix of s is completed into s w.p. >= 1 - n t e^{-v gamma/n}"
)
DYCK_E = [[1], [-1]]


def l51_bound(p):
    """P(s_:r -> s) = prod_{r'=r}^{n-1} [1 + (t-1) e^{-v gamma/r'}]^-1, failure accumulated directly, at
    v gamma = k n log(nt), k in {1, 2, 4} (at k = 1 the bound nt e^{-v gamma/n} is exactly 1: vacuous)."""
    rows = []
    with dp.ivdps(60):
        for n in range(2, p["n_max"] + 1):
            for t in (2, 3, 5, 10):
                for k in (1, 2, 4):
                    vg = k * n * dp.iv.log(dp.iv.mpf(n * t))
                    f = dp.iv.mpf(0)
                    for rr in range(n - 1, 0, -1):
                        e = (t - 1) * dp.iv.exp(-vg / rr)
                        f = e / (1 + e) + f / (1 + e)
                    bound = n * t * dp.iv.exp(-vg / n)
                    if not dp.le(f, bound):
                        return Verdict.REFUTED, f"{n},{t},{k}", f"n = {n}, t = {t}, k = {k}: {dp.text(f)}"
                    if t == 2 and k == 2:
                        rows.append(f"n={n}: {dp.text(f, 3)} vs {dp.text(bound, 3)}")
    return (
        Verdict.CERTIFIED,
        "0",
        (
            f"n = 2..{p['n_max']}, t in {{2, 3, 5, 10}}, every r < n, v gamma = k n log(nt), "
            "k in {1, 2, 4} "
            "(these points only; exact product in intervals; t = 2, k = 2 shown): " + "; ".join(rows)
        ),
    )


def l51_logits(p):
    """eq. (6) = eq. (4) with E = I_t: logits_r = (v gamma / r) delta_{s_{r+1}} for every s, r < n."""
    count, g, v = 0, Fraction(3, 7), Fraction(5)
    for t in (2, 3):
        eye = [[int(i == j) for j in range(t)] for i in range(t)]
        for n in range(2, 5):
            for s in itertools.product(range(t), repeat=n):
                h = Head.closed_form(eye, s, g, v)
                for r in range(1, n):
                    count += 1
                    if list(h.logits(s[:r])) != [v * g / r * (k == s[r]) for k in range(t)]:
                        return Verdict.REFUTED, str(s), f"s = {s}, r = {r}: {h.logits(s[:r])}"
    return Verdict.CERTIFIED, "0", f"every s in [t]^n, t in {{2, 3}}, n = 2..4, r < n ({count} logits, exact)"


def l51_step():
    """1/(1 + y) >= 1 - y for y = (t - 1) e^{-x} >= 0: the difference is y^2/(1 + y)."""
    return 1 / (1 + y_) - (1 - y_) - y_**2 / (1 + y_)


def l52_identity():
    """softmax([X, -X])_1 = 1/(1 + e^{-2X}) and 1/(1 + e^{-2X}) - (1 - e^{-2X}) = e^{-4X}/(1 + e^{-2X})."""
    s1 = sp.exp(x_) / (sp.exp(x_) + sp.exp(-x_)) - 1 / (1 + sp.exp(-2 * x_))
    return sp.simplify(s1) + sp.simplify(
        1 / (1 + sp.exp(-2 * x_)) - (1 - sp.exp(-2 * x_)) - sp.exp(-4 * x_) / (1 + sp.exp(-2 * x_))
    )


def l52_logits(p):
    """For E = [1, -1]^T the head's logits are [X, -X] on every context (exact)."""
    count = 0
    for N in range(1, 5):
        for s in dyck.dyck_words(N):
            h = Head.closed_form(DYCK_E, s, Fraction(-1, 2), -7)
            for z in itertools.chain.from_iterable(
                itertools.product((0, 1), repeat=r) for r in range(1, 2 * N)
            ):
                count += 1
                a, b = h.logits(z)
                if a != -b:
                    return Verdict.REFUTED, str(a + b), f"s = {dyck.show(s)}, z = {dyck.show(z)}"
    return Verdict.CERTIFIED, "0", f"every s in D_2N, N <= 4, every context ({count}), exact"


def _nope(N, v, a=None):
    a = Fraction(2 * N, 2 * N + 1) if a is None else a
    return dp.table(N, dp.nope_log_odds(a, v))


def c53_bound(p):
    """Claim 5.3 at v = -2N^2(2N+1) and at twice that: the exact DP (no s: the state (r, h) is the whole
    context's content), every completable state."""
    rows = []
    with dp.ivdps(60):
        for N in range(1, p["N_top"] + 1):
            for k in (1, 2):
                tab = _nope(N, Fraction(-2 * k * N * N * (2 * N + 1)))
                worst = max((tab[r][h] for r, h in dyck.prefix_states(N)), key=lambda x: x.b)
                if not dp.le(worst, dp.paper_bound(N)):
                    return Verdict.REFUTED, str(N), f"N = {N}, k = {k}: failure {dp.text(worst)}"
                if k == 1:
                    rows.append(f"N={N}: {dp.text(worst, 3)}")
    return (
        Verdict.CERTIFIED,
        "0",
        (
            f"N = 1..{p['N_top']}, every prefix state, at v = -2N^2(2N+1) and twice "
            "that (not every v), E = [2N/(2N+1), -1]: worst failure " + "; ".join(rows)
        ),
    )


def c53_strict(p):
    """'if Delta_r = 0 then sum E < -1/(2N+1)': at the prefix () the sum is a - 1 = -1/(2N+1)."""
    N = p["N_top"]
    a = Fraction(2 * N, 2 * N + 1)
    total = a - 1
    v = Verdict.REFUTED if not total < Fraction(-1, 2 * N + 1) else Verdict.CERTIFIED
    return (
        v,
        str(total + Fraction(1, 2 * N + 1)),
        f"N = {N}, prefix (): sum E = {total} = -1/(2N+1), not < (exact)",
    )


def c53_direction(p):
    """As printed: 1 - exp(v/[r(2N+1)]) <= 1 - exp(-N) for v < -2N^2(2N+1)."""
    N, r = 3, 1
    v = Fraction(-2 * N * N * (2 * N + 1) - 1)
    with dp.ivdps(60):
        lhs = 1 - dp.iv.exp(dp.ball(v / (r * (2 * N + 1))))
        rhs = 1 - dp.iv.exp(dp.iv.mpf(-N))
        if dp.gt(lhs, rhs):
            return (
                Verdict.REFUTED,
                dp.text(lhs - rhs),
                (
                    f"N = {N}, r = {r}, v = {v}: 1 - e^(v/(r(2N+1))) = "
                    f"{dp.text(lhs)} > 1 - e^-N = {dp.text(rhs)}; '>=' holds "
                    "(v/(r(2N+1)) < -2N^2/r < -N for r <= 2N - 1)"
                ),
            )
    return Verdict.CERTIFIED, "0", "holds"


def c53_no_asymmetry(p):
    """Drop the 1/(2N+1): a = 1 makes X = 0 at every balanced context (a fair coin)."""
    N = 4
    with dp.ivdps(60):
        tab = _nope(N, Fraction(-2 * N * N * (2 * N + 1)), Fraction(1))
        worst = max((tab[r][h] for r, h in dyck.prefix_states(N)), key=lambda x: x.b)
        if dp.gt(worst, dp.paper_bound(N)):
            return (
                Verdict.REFUTED,
                dp.text(worst),
                (
                    f"E = [1, -1], no B, N = {N}, v = -2N^2(2N+1): worst failure "
                    f"{dp.text(worst)} > 2N e^-N = {dp.text(dp.paper_bound(N))}"
                ),
            )
    return Verdict.CERTIFIED, "0", "holds"


def mu_derivation():
    """From sum_{i<=r} c_i = r gamma c_{r+1} (the Sec. 3.2 hypothesis, subtracted for s and z) at r and
    r - 1: r gamma c_{r+1} - (r-1) gamma c_r = c_r, so c_{r+1} = mu_r c_r,
    mu_r = (1 + (r-1) gamma)/(r gamma)."""
    sol = sp.solve(sp.Eq(r_ * g_ * c_next - (r_ - 1) * g_ * c_r, c_r), c_next)[0]
    return sp.simplify(sol - (1 + (r_ - 1) * g_) / (r_ * g_) * c_r)


def mu_eq4():
    """Under eq. (4)'s telescoping (sum = gamma E, not r gamma E): gamma c_{r+1} - gamma c_r = c_r, so
    mu = 1 + 1/gamma for r >= 2: -1 at gamma = -1/2 (|mu| = 1: no contraction), 3 at gamma = 1/2."""
    sol = sp.solve(sp.Eq(g_ * c_next - g_ * c_r, c_r), c_next)[0]
    return sp.simplify(sol - (1 + 1 / g_) * c_r)


def _mu(r, g):
    return (1 + (r - 1) * g) / (r * g)


def mu_contraction(p):
    """gamma = -1/2: mu_r = 1 - 3/r <= 1 - 3/n, but contraction needs |mu_r| < 1."""
    g = Fraction(-1, 2)
    vals = {r: _mu(r, g) for r in range(1, 6)}
    bad = [r for r, m in vals.items() if abs(m) >= 1]
    upper = all(_mu(r, g) <= 1 - Fraction(3, n) for n in range(1, 30) for r in range(1, n + 1))
    how = (
        f"mu_1..mu_5 = {', '.join(map(str, vals.values()))} (exact); mu_r <= 1 - 3/n for r <= n <= 29: "
        f"{upper}; |mu_r| >= 1 at r = {bad}"
    )
    return (Verdict.REFUTED, str(vals[1]), how) if bad else (Verdict.CERTIFIED, "0", how)


def mu_divergence(p):
    """gamma = 1/2: mu_r = 1 + 1/r, prod_{r<m} mu_r = m, so c_m = m c_1: with c_r in {0, +-2} the
    hypothesis forces c_1 = 0 (z = s); the divergence it describes cannot occur for tokens."""
    g = Fraction(1, 2)
    prod, r = Fraction(1), 1
    while abs(prod * 2) <= 2:
        prod *= _mu(r, g)
        r += 1
    ok = all(_mu(k, g) >= 1 + Fraction(1, 20) for k in range(1, 21))
    return (
        Verdict.REFUTED,
        str(prod * 2),
        (
            f"mu_r >= 1 + 1/n for r <= n = 20: {ok}; c_1 = 2 gives c_{r} = "
            f"{prod * 2} at r = {r}, outside {{0, +-2}} (exact)"
        ),
    )


def mu_hypothesis(p):
    """The hypothesis (v/r) 1_r (E_s + B) = v gamma E_{s_{r+1}} against eq. (4) on the model: the pooled
    sum is gamma E_{s_{r+1}}, so the hypothesis holds at r = 1 only."""
    s = dyck.parse("(()())")
    h = Head.closed_form(DYCK_E, s, Fraction(-1, 2), 1)
    for r in range(1, len(s)):
        lhs, rhs = h.pooled(s[:r])[0] / r, Fraction(-1, 2) * h.E[s[r]][0]
        if lhs != rhs:
            return (
                Verdict.REFUTED,
                str(lhs - rhs),
                (
                    f"s = (()()), r = {r}: (1/r) sum = {lhs}, gamma E_s_r+1 = "
                    f"{rhs} (exact); eq. (4) gives sum = gamma E, the "
                    "hypothesis needs r gamma E"
                ),
            )
    return Verdict.CERTIFIED, "0", "holds"


def catalan_values(p):
    enum = [sum(1 for _ in dyck.dyck_words(N)) for N in range(1, 11)]
    vals = [dyck.catalan(N) for N in range(1, 17)]
    ok = (
        enum == vals[:10]
        and vals[15] == 35357670
        and all(vals[N - 1] == comb(2 * N, N) - comb(2 * N, N + 1) for N in range(1, 17))
    )
    return (
        Verdict.CERTIFIED if ok else Verdict.REFUTED,
        "0",
        f"C_1..C_16 = {vals} (binom(2N,N)/(N+1) = binom(2N,N) - binom(2N,N+1); enumeration for N <= 10); "
        "C_16 = 35357670 ~ 3.5e7 as printed",
    )


def _ratio(N):
    return dp.mp.mpf(dyck.catalan(N)) / (dp.mp.mpf(4) ** N / dp.mp.sqrt(dp.mp.pi) / dp.mp.mpf(N) ** 1.5)


def catalan_asymptotic_16(p):
    """Read '~' as within 1% at N = 16 (Part D 47)."""
    with dp.mp.workdps(30):
        r16 = _ratio(16)
        return (
            Verdict.REFUTED if abs(r16 - 1) > 0.01 else Verdict.CONFIRMED,
            dp.mp.nstr(r16, 8),
            f"C_16 / (4^16 pi^-1/2 16^-3/2) = {dp.mp.nstr(r16, 8)} (30 digits): "
            f"{dp.mp.nstr((1 - r16) * 100, 3)}% "
            "below; the ratio -> 1 only as N -> oo (1 - 9/(8N) + ...)",
        )


def catalan_ratio_to_one(p):
    with dp.mp.workdps(30):
        rs = [_ratio(N) for N in (1, 5, 10, 16, 50, 1000)]
    ok = all(a < b < 1 for a, b in zip(rs, rs[1:]))
    return (
        Verdict.CONFIRMED if ok else Verdict.REFUTED,
        dp.mp.nstr(1 - rs[-1], 3),
        "ratio at N = 1, 5, 10, 16, 50, 1000: "
        + ", ".join(dp.mp.nstr(x, 6) for x in rs)
        + " (increasing, < 1)",
    )


def mask_literal(p):
    """M_ij = 0 if i <= j, -inf if i > j, row i = query: row r keeps j >= r; the proof needs r^-1 1_r^T."""
    n = 3
    keep = [[j >= i for j in range(1, n + 1)] for i in range(1, n + 1)]
    rows = [[Fraction(int(k), sum(row)) for k in row] for row in keep]
    want = [[Fraction(1, i) if j <= i else Fraction(0) for j in range(1, n + 1)] for i in range(1, n + 1)]
    transposed = [[Fraction(int(j <= i), i) for j in range(1, n + 1)] for i in range(1, n + 1)]
    assert transposed == want
    return (
        Verdict.REFUTED if rows != want else Verdict.CERTIFIED,
        str(rows[0][1]),
        f"Q = 0, n = {n}: literal mask rows {[[str(x) for x in r] for r in rows]} vs r^-1 1_r "
        f"{[[str(x) for x in r] for r in want]}; the transpose (-inf for j > i) gives r^-1 1_r exactly",
    )


def loss_r0(p):
    """Eq. (2) with r = 0 (empty context, as in the proof of Thm 3.1) predicted uniformly (log 2) on top of
    r = 1..2N-1: the loss bound 8N^2 e^-N then fails for every v once 8N^2 e^-N < log 2."""
    with dp.ivdps(60):
        for N in range(1, p["N_top"] + 1):
            b = 8 * N * N * dp.iv.exp(dp.iv.mpf(-N))
            if dp.gt(dp.iv.log(2), b):
                return (
                    Verdict.REFUTED,
                    str(N),
                    (
                        f"N = {N}: the r = 0 term alone is log 2 > 8N^2 e^-N = "
                        f"{dp.text(b)}; with uniform attention over no token the "
                        "r = 0 logits are 0/0. Thm 4.1's bound holds for r = 1..2N-1 "
                        "(R24.T41); the r = n term has no target s_{n+1}"
                    ),
                )
    return Verdict.CERTIFIED, "0", "holds"


def B_last_unused(p):
    """B_2N (built from E_{s_{2N+1}} := 0) enters only contexts of length 2N, never used: every logit at
    r <= 2N - 1 is the same whatever B_2N is; the count 2N + 3 includes it."""
    n_ctx = 0
    for N in range(1, 5):
        for s in dyck.dyck_words(N):
            h = Head.closed_form(DYCK_E, s, Fraction(-1, 2), -3)
            h2 = Head(h.E, (*h.B[:-1], (Fraction(123),)), h.v)
            assert h.weight_count == 2 * N + 3
            for z in itertools.chain.from_iterable(
                itertools.product((0, 1), repeat=r) for r in range(1, 2 * N)
            ):
                n_ctx += 1
                if h.logits(z) != h2.logits(z):
                    return Verdict.CERTIFIED, "0", f"B_2N used at {dyck.show(z)}"
    return (
        Verdict.REFUTED,
        "1",
        (
            f"weight count 2N + 3 = E (2) + B (2N) + v (1) (model.py); changing B_2N leaves "
            f"all {n_ctx} logits at r <= 2N - 1 unchanged, N <= 4 (exact): 2N + 2 weights act"
        ),
    )


def global_optimizer(p):
    """L > 0 at finite parameters (every softmax entry < 1 with t = 2 finite logits) and L -> 0 along the
    closed form (sum_r log(1 + e^{-2x/r}) -> 0 as x = v gamma -> oo): the infimum 0 is not attained."""
    Lx = sum(sp.log(1 + sp.exp(-2 * x_ / r)) for r in range(1, 4))  # N = 2
    lim = sp.limit(Lx, x_, sp.oo)
    pos = all(sp.log(1 + sp.exp(-2 * sp.Integer(k) / r)).is_positive for k in (0, 10, 10**6) for r in (1, 3))
    ok = lim == 0 and pos
    return (
        Verdict.REFUTED if ok else Verdict.INCONCLUSIVE,
        str(lim),
        "N = 2 (any s): lim_{v gamma -> oo} L = 0 (sympy), L > 0 at every finite parameter (a softmax of "
        "finite logits over t = 2 tokens is < 1); no finite global optimizer exists, with or without Q = 0",
    )


def eq3_first_order(p):
    """E = B = 0 is a stationary point of L (logits bilinear in (E + B) and E), where softmax - delta =
    (1/2, -1/2): a first-order point that violates eq. (3), which is the interpolation condition."""
    e1, e2, b1, b2, v = sp.symbols("e1 e2 b1 b2 v")
    # N = 1, s = (): one term, context '(' predicting ')': logits = v (e_s1 + b1) [e1, e2]
    pooled = e1 + b1
    l1, l2 = v * pooled * e1, v * pooled * e2
    L = -l2 + sp.log(sp.exp(l1) + sp.exp(l2))
    grad = [sp.diff(L, w).subs({e1: 0, e2: 0, b1: 0, b2: 0}) for w in (e1, e2, b1, b2, v)]
    resid = (sp.exp(l1) / (sp.exp(l1) + sp.exp(l2))).subs({e1: 0, b1: 0})
    ok = all(sp.simplify(g) == 0 for g in grad) and resid == sp.Rational(1, 2)
    return (
        Verdict.REFUTED if ok else Verdict.INCONCLUSIVE,
        str(resid),
        "N = 1, s = (): grad L = 0 at E = B = 0 for every v (sympy, exact), where softmax = (1/2, 1/2), "
        "|softmax - delta| = 1/2; with E = [1, -1] (Thm 4.1), E E^T = [[1, -1], [-1, 1]], far from I_2",
    )


def control(p):
    return (
        Verdict.REFUTED if dyck.catalan(16) != 35357671 else Verdict.CERTIFIED,
        "1",
        f"C_16 = {dyck.catalan(16)} != 35357671 (exact)",
    )


THEOREM = Theorem(
    id="R24.L5",
    title="Lemmas 5.1, 5.2, Claim 5.3, mu_r stability, Catalan facts, mask, loss range, weight count",
    paper=PaperRef(
        "Richard 2024", "Sec. 3.1-3.2, Sec. 4, App. 5.2-5.3.1", "(2), (3), (4), (6)", "richard2024depth"
    ),
    params=ParamSpace(
        (
            Param("n_max", int, 8, "Lemma 5.1 for n = 2..n_max", min=2, max=40),
            Param("N_top", int, 16, "Claim 5.3 and loss range for N = 1..N_top", min=1, max=24),
        )
    ),
    assumptions=(
        Assumption(
            "uniform",
            "Q = 0 (uniform attention)",
            predicate=predicate("UniformAttention", "Q = 0")(sp.Symbol("Q")),
        ),
        Assumption(
            "vgamma",
            "v gamma > n log(nt) (Lemma 5.1)",
            predicate=sp.StrictGreaterThan(sp.Symbol("v") * g_, n_ * sp.log(n_ * sp.Symbol("t"))),
        ),
    ),
    conclusion=Memorizes(n_),
    claims=(
        Computed(
            "L5.1 exact product >= 1 - n t e^{-v gamma/n}",
            "conclusion",
            "App. 5.2, Lemma 5.1",
            "one-hot, t >= 2",
            l51_bound,
        ),
        Computed(
            "L5.1 logits = (v gamma/r) delta_{s_{r+1}}",
            "proof-step",
            "App. 5.2",
            "eq. (6) telescopes",
            l51_logits,
        ),
        SymbolicStep("L5.1 1/(1+y) >= 1 - y", "proof-step", "App. 5.2", "y^2/(1+y) >= 0", l51_step),
        SymbolicStep(
            "L5.2 softmax([X,-X]) and 1/(1+e^-2X) >= 1 - e^-2X",
            "proof-step",
            "App. 5.3.1",
            "exact identity",
            l52_identity,
        ),
        Computed(
            "L5.2 logits = [X, -X] for E = [1, -1]", "identification", "App. 5.3.1", "exact", l52_logits
        ),
        Computed(
            "C5.3 P(valid) >= 1 - 2N e^-N (Part D 41)",
            "identification",
            "App. 5.3.1, Claim 5.3",
            "no positional embedding",
            c53_bound,
        ),
        Computed(
            "C5.3 proof: sum E < -1/(2N+1) at Delta = 0 (Part D 41)",
            "proof-step",
            "App. 5.3.1",
            "strict",
            c53_strict,
        ),
        Computed(
            "C5.3 proof as printed: 1 - e^{v/(r(2N+1))} <= 1 - e^-N (Part D 41)",
            "proof-step",
            "App. 5.3.1",
            "direction",
            c53_direction,
        ),
        Computed(
            "C5.3 without the 1/(2N+1) asymmetry", "identification", "App. 5.3.1", "a = 1", c53_no_asymmetry
        ),
        SymbolicStep(
            "mu_r = (1 + (r-1) gamma)/(r gamma) from the Sec. 3.2 hypothesis",
            "proof-step",
            "Sec. 3.2",
            "c_{r+1} = mu_r c_r",
            mu_derivation,
        ),
        SymbolicStep(
            "mu = 1 + 1/gamma under eq. (4) (Part D 34)",
            "identification",
            "derived here",
            "sum = gamma E",
            mu_eq4,
        ),
        Computed(
            "gamma = -1/2 contracts: |mu_r| < 1 (Part D 33)",
            "identification",
            "Sec. 3.2",
            "mu_r <= 1 - 3/n",
            mu_contraction,
        ),
        Computed(
            "gamma = 1/2: mu_r >= 1 + 1/n and c_r diverges (Part D 33)",
            "identification",
            "Sec. 3.2",
            "c_r in {0, +-2}",
            mu_divergence,
        ),
        Computed(
            "Sec. 3.2 hypothesis (1/r) sum = gamma E is eq. (4) (Part D 34)",
            "identification",
            "Sec. 3.2",
            "on the model",
            mu_hypothesis,
        ),
        Computed("C_N values, C_16 ~ 3.5e7", "identification", "Sec. 4, Sec. 4.2", "exact", catalan_values),
        Computed(
            "C_16 ~ 4^N pi^-1/2 N^-3/2 within 1% (Part D 47)",
            "identification",
            "Sec. 4",
            "declared reading",
            catalan_asymptotic_16,
        ),
        Computed(
            "C_N / (4^N pi^-1/2 N^-3/2) increases to 1",
            "identification",
            "Sec. 4",
            "sampled N",
            catalan_ratio_to_one,
        ),
        Computed(
            "literal mask gives att row r = r^-1 1_r (Part D 23)",
            "identification",
            "Sec. 3.1",
            "M_ij",
            mask_literal,
        ),
        Computed(
            "loss with an r = 0 term stays < 8N^2 e^-N (Part D 24)",
            "identification",
            "eq. (2), App. 5.2",
            "index range",
            loss_r0,
        ),
        Computed(
            "every one of the 2N + 3 weights acts (Part D 25)",
            "identification",
            "Thm 4.1",
            "B_2N",
            B_last_unused,
        ),
        Computed(
            "a global optimizer of L exists (Part D 26)",
            "identification",
            "Sec. 3.2",
            "finite parameters",
            global_optimizer,
        ),
        Computed(
            "eq. (3) is the first-order condition (Part D 27)",
            "identification",
            "Sec. 3.2, eq. (3)",
            "stationary points satisfy it",
            eq3_first_order,
        ),
        Computed("control: C_16 = 35357671", "control", "deliberately false", "off by one", control),
    ),
    expect={
        "L5.1 exact product >= 1 - n t e^{-v gamma/n}": Verdict.CERTIFIED,
        "L5.1 logits = (v gamma/r) delta_{s_{r+1}}": Verdict.CERTIFIED,
        "L5.1 1/(1+y) >= 1 - y": Verdict.CERTIFIED,
        "L5.2 softmax([X,-X]) and 1/(1+e^-2X) >= 1 - e^-2X": Verdict.CERTIFIED,
        "L5.2 logits = [X, -X] for E = [1, -1]": Verdict.CERTIFIED,
        "C5.3 P(valid) >= 1 - 2N e^-N (Part D 41)": Verdict.CERTIFIED,
        "C5.3 proof: sum E < -1/(2N+1) at Delta = 0 (Part D 41)": Verdict.REFUTED,
        "C5.3 proof as printed: 1 - e^{v/(r(2N+1))} <= 1 - e^-N (Part D 41)": Verdict.REFUTED,
        "C5.3 without the 1/(2N+1) asymmetry": Verdict.REFUTED,
        "mu_r = (1 + (r-1) gamma)/(r gamma) from the Sec. 3.2 hypothesis": Verdict.CERTIFIED,
        "mu = 1 + 1/gamma under eq. (4) (Part D 34)": Verdict.CERTIFIED,
        "gamma = -1/2 contracts: |mu_r| < 1 (Part D 33)": Verdict.REFUTED,
        "gamma = 1/2: mu_r >= 1 + 1/n and c_r diverges (Part D 33)": Verdict.REFUTED,
        "Sec. 3.2 hypothesis (1/r) sum = gamma E is eq. (4) (Part D 34)": Verdict.REFUTED,
        "C_N values, C_16 ~ 3.5e7": Verdict.CERTIFIED,
        "C_16 ~ 4^N pi^-1/2 N^-3/2 within 1% (Part D 47)": Verdict.REFUTED,
        "C_N / (4^N pi^-1/2 N^-3/2) increases to 1": Verdict.CONFIRMED,
        "literal mask gives att row r = r^-1 1_r (Part D 23)": Verdict.REFUTED,
        "loss with an r = 0 term stays < 8N^2 e^-N (Part D 24)": Verdict.REFUTED,
        "every one of the 2N + 3 weights acts (Part D 25)": Verdict.REFUTED,
        "a global optimizer of L exists (Part D 26)": Verdict.REFUTED,
        "eq. (3) is the first-order condition (Part D 27)": Verdict.REFUTED,
        "control: C_16 = 35357671": Verdict.REFUTED,
    },
)
