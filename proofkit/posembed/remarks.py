"""The checks of R24.L5's side claims (Richard 2024): the stability ratios mu_r of Sec. 3.2, the Catalan
facts of Sec. 4, the attention mask and the loss's index range of Sec. 3.1, the weight count of Theorem 4.1,
the "global optimizer" sentence and eq. (3) as a first-order condition, and the Catalan control. Each
returns the Evidence of one claim; the engine decides the verdict.

Moved out of theorems/r24/lemmas.py (which keeps Lemma 5.1, Lemma 5.2, Claim 5.3 and their proof walks) so
that the theorem file stays under its line budget; the functions are unchanged.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..language.evidence import Evidence, Method, fails, holds, undecided
from . import bounds, dp, dyck, model, stability, sweep

x_ = sp.Symbol("x", positive=True)


#: the mu_r claims run over every r <= n <= MU_N (exact rationals)
MU_N = 40


def mu_upper(p) -> Evidence:
    """As printed: gamma = -1/2 gives mu_r = 1 - 3/r <= 1 - 3/n < 1 for every r <= n."""
    g = Fraction(-1, 2)

    def case(rn):
        r, n = rn
        m = stability.mu(r, g)
        return None if m <= 1 - Fraction(3, n) < 1 else sweep.Fail(f"r = {r}, n = {n}: mu_r = {m}", str(m))

    cases = ((r, n) for n in range(1, MU_N + 1) for r in range(1, n + 1))
    return sweep.over(cases, case, method=Method.ENUMERATION, domain=f"every r <= n, n = 1..{MU_N} (exact)",
                detail=f"mu_r = 1 - 3/r <= 1 - 3/n < 1; mu_1..mu_5 = "
                       f"{', '.join(str(stability.mu(r, g)) for r in range(1, 6))}")


def mu_contraction(p) -> Evidence:
    """Read 'contractive' as |mu_r| < 1 at every step r: false at r = 1 (mu_1 = -2), though mu_r <= 1 - 3/n
    holds and mu_3 = 0 makes c_r = 0 from r = 4 on."""
    g = Fraction(-1, 2)

    def case(r):
        m = stability.mu(r, g)
        return None if abs(m) < 1 else sweep.Fail(
            f"|mu_{r}| = |{m}| >= 1 (exact): |c_{r + 1}| = {abs(m)} |c_{r}|", str(m))

    return sweep.over(range(1, MU_N + 1), case, method=Method.EXACT,
                      domain=f"every step r = 1..{MU_N} (exact)",
                      context=f"mu_3 = {stability.mu(3, g)}, so c_r = 0 from r = 4 on: the differences "
                              "vanish after one expanding step")


def mu_divergence(p) -> Evidence:
    """As printed: gamma = 1/2 gives mu_r = 1 + 1/r >= 1 + 1/n > 1 for r <= n, and prod_{r<m} mu_r = m, so
    c_m = m c_1 grows without bound (c_1 != 0), under the Sec. 3.2 hypothesis."""
    g = Fraction(1, 2)

    def case(c):
        n, prod = c  # prod_(r < n) mu_r
        low = [r for r in range(1, n + 1) if not stability.mu(r, g) >= 1 + Fraction(1, n)]
        if low:
            return sweep.Fail(f"n = {n}, r = {low[0]}: mu_r = {stability.mu(low[0], g)} < 1 + 1/n",
                              str(low[0]))
        return None if prod == n else sweep.Fail(f"prod_(r < {n}) mu_r = {prod} != {n}", str(prod))

    return sweep.over(stability.products(g, MU_N), case, method=Method.ENUMERATION,
                domain=f"every r <= n and every product prod_(r < m) mu_r, n, m = 1..{MU_N} (exact)",
                detail="mu_r = 1 + 1/r >= 1 + 1/n > 1 and prod_(r < m) mu_r = m (telescoping (r + 1)/r), so "
                       "c_m = m c_1 diverges for c_1 != 0")


def mu_tokens(p) -> Evidence:
    """Read the divergence as one of token pairs: with E = [1, -1], c_r = E_(s_r) - E_(z_r) is in {0, +-2}.
    Under c_(r+1) = mu_r c_r (gamma = 1/2), c_1 = 0 forces c = 0 (z = s), so a pair z != s starts at
    c_1 = +-2; every such start leaves {0, +-2} (c_2 = 2 c_1): no token pair z != s obeys the hypothesis."""
    g = Fraction(1, 2)
    escapes = {c1: stability.escape(c1, g, MU_N, (0, 2, -2)) for c1 in (2, -2)}
    out = {c1: e and f"c_1 = {c1} gives c_{e[0]} = {e[1]}" for c1, e in escapes.items()}
    domain = f"c_1 in {{2, -2}} (every start with z_1 != s_1), r = 1..{MU_N}, gamma = 1/2 (exact)"
    if all(out.values()):
        return fails(Method.ENUMERATION, "; ".join(out.values()) + ", outside the token differences "
                     "{0, +-2}; c_1 = 0 gives c = 0 (z = s): the hypothesis admits no token pair z != s",
                     domain=domain, count=2, residual=str(stability.mu(1, g) * 2))
    c1 = next(c for c, e in out.items() if e is None)
    return holds(Method.ENUMERATION, domain, count=2, detail=f"c_1 = {c1} stays in {{0, +-2}}")


def mu_hypothesis(p) -> Evidence:
    """The hypothesis (v/r) 1_r (E_s + B) = v gamma E_{s_{r+1}} against eq. (4) on the model: the pooled
    sum is gamma E_{s_{r+1}}, so the hypothesis holds at r = 1 only."""
    s = dyck.parse("(()())")
    h = model.Head.closed_form(model.DYCK_E, s, Fraction(-1, 2), 1)

    def case(r):
        lhs, rhs = h.pooled(s[:r])[0] / r, Fraction(-1, 2) * h.E[s[r]][0]
        return None if lhs == rhs else sweep.Fail(
            f"s = (()()), r = {r}: (1/r) sum = {lhs}, gamma E_s_r+1 = {rhs} (exact); eq. (4) gives "
            "sum = gamma E, the hypothesis needs r gamma E", str(lhs - rhs))

    return sweep.over(range(1, len(s)), case, method=Method.EXACT,
                domain="s = (()()), gamma = -1/2, v = 1, E = [1, -1]: every context length r = 1..5",
                detail="the hypothesis holds on the model at every r")


def catalan_values(p) -> Evidence:
    """C_N = binom(2N, N)/(N + 1) = binom(2N, N) - binom(2N, N + 1), N = 1..16 (enumeration of D_2N for
    N <= 10), and 'C_16 ~ 3.5e7' read as C_16 rounded to two significant digits."""
    enum = [sum(1 for _ in dyck.dyck_words(N)) for N in range(1, 11)]
    vals = [dyck.catalan(N) for N in range(1, 17)]
    domain = "C_1..C_16 (enumeration of D_2N for N <= 10, both closed forms for N <= 16) and C_16's rounding"
    bad = dyck.catalan_form_mismatches(16)
    if enum != vals[:10] or bad:
        return fails(Method.EXACT, "the closed forms or the enumeration disagree "
                     f"(N = {bad or 'enumerated'})", domain=domain, count=17)
    if round(vals[15], -6) != 35 * 10**6:
        return fails(Method.EXACT, f"C_16 = {vals[15]} does not round to 3.5e7", domain=domain, count=17)
    return holds(Method.EXACT, domain, count=17,
                 detail=f"C_1..C_16 = {vals} (binom(2N,N)/(N+1) = binom(2N,N) - binom(2N,N+1); enumeration "
                        f"for N <= 10); C_16 = {vals[15]} rounds to 3.5e7")


def catalan_asymptotic_16(p) -> Evidence:
    """Read '~' as within 1% at N = 16 (Part D 47)."""
    c = bounds.catalan_deviation(16, "0.01")
    text = f"C_16 / (4^16 pi^-1/2 16^-3/2) = {dp.text(c.ratio, 8)}"
    domain = "N = 16 (the paper's size), the ratio C_16 / (4^16 pi^-1/2 16^-3/2) in intervals"
    if dp.gt(c.deviation, c.tolerance):
        return fails(Method.INTERVAL, f"{text}: {dp.text(c.percent, 3)}% below 1, not within 1%",
                     domain=domain, count=1, residual=dp.text(c.ratio, 8),
                     detail="the ratio -> 1 only as N -> oo (1 - 9/(8N) + ...)")
    if dp.le(c.deviation, c.tolerance):
        return holds(Method.INTERVAL, domain, count=1, residual=dp.text(c.ratio, 8), detail=text)
    return undecided(f"{text}: the deviation overlaps 1%", method=Method.INTERVAL, domain=domain)


def catalan_ratio_to_one(p) -> Evidence:
    """The ratio C_N / (4^N pi^-1/2 N^-3/2) increases towards 1: sampled at six N (intervals at each; the
    monotone limit itself is not proven by samples)."""
    Ns = (1, 5, 10, 16, 50, 1000)
    steps = bounds.catalan_ratio_steps(Ns)
    shown = ", ".join(dp.text(r, 6) for _, r, _ in steps)
    return sweep.over(steps, lambda c: sweep.at_most(
        c[1], c[2], f"the ratio at N = {c[0]} is not below the next value (or 1): {shown}", str(c[0])),
                method=Method.SAMPLED, fail_method=Method.INTERVAL,
                domain=f"N in {{{', '.join(map(str, Ns))}}} (increasing and < 1 there)", residual=shown,
                detail=f"ratio at N = {', '.join(map(str, Ns))}: {shown} (increasing, < 1)")


def mask_literal(p) -> Evidence:
    """M_ij = 0 if i <= j, -inf if i > j, row i = query: row r keeps j >= r; the proof needs r^-1 1_r^T."""
    n = 3
    keep = [[j >= i for j in range(1, n + 1)] for i in range(1, n + 1)]
    rows = [[Fraction(int(k), sum(row)) for k in row] for row in keep]
    want = [[Fraction(1, i) if j <= i else Fraction(0) for j in range(1, n + 1)] for i in range(1, n + 1)]
    transposed = [[Fraction(int(j <= i), i) for j in range(1, n + 1)] for i in range(1, n + 1)]
    show = (f"literal mask rows {[[str(x) for x in r] for r in rows]} vs r^-1 1_r "
            f"{[[str(x) for x in r] for r in want]}; the transpose (-inf for j > i) gives r^-1 1_r "
            f"{'exactly' if transposed == want else 'not either'}")
    return sweep.over(range(n), lambda i: None if rows[i] == want[i] else sweep.Fail(f"row {i + 1}: {show}",
                                                                          str(rows[0][1])),
                method=Method.EXACT, domain=f"Q = 0, n = {n}: rows r = 1..{n} of att", detail=show)


def loss_r0(p) -> Evidence:
    """Eq. (2) with r = 0 (empty context, as in the proof of Thm 3.1) predicted uniformly (log 2) on top of
    r = 1..2N-1: the loss bound 8N^2 e^-N then fails for every v once 8N^2 e^-N < log 2. This decides only
    where the r = 0 term alone exceeds the bound."""
    domain = f"N = 1..{p['N_top']}, every v (the r = 0 term alone, log 2)"
    first = bounds.first_loss_bound_below_log2(p["N_top"])
    if first:
        N, b = first
        return fails(Method.INTERVAL, (
            f"N = {N}: the r = 0 term alone is log 2 > 8N^2 e^-N = {dp.text(b)}; with uniform "
            "attention over no token the r = 0 logits are 0/0"), domain=domain, residual=str(N),
            detail="Thm 4.1's bound holds for r = 1..2N-1 (R24.T41); the r = n term has no target s_{n+1}")
    return undecided(f"log 2 <= 8N^2 e^-N for every N = 1..{p['N_top']}: the r = 0 term alone does not "
                     "exceed the bound there, and the rest of the loss is not examined",
                     method=Method.INTERVAL, domain=domain)


def B_last_unused(p) -> Evidence:
    """B_2N (built from E_{s_{2N+1}} := 0) enters only contexts of length 2N, never used: every logit at
    r <= 2N - 1 is the same whatever B_2N is; the count 2N + 3 includes it."""
    cases = ((N, h, model.Head(h.E, (*h.B[:-1], (Fraction(123),)), h.v), z)
             for N, _, h in model.dyck_heads(4, Fraction(-1, 2), -3)
             for z in model.binary_contexts(2 * N - 1))
    counts = {N: model.Head.closed_form(model.DYCK_E, next(iter(dyck.dyck_words(N))), Fraction(-1, 2),
                                        -3).weight_count
              for N in range(1, 5)}
    domain = "every s in D_2N, N = 1..4, every context of length r <= 2N - 1, B_2N replaced by 123"
    if any(c != 2 * N + 3 for N, c in counts.items()):
        return undecided(f"the model's weight count is {counts}, not 2N + 3", method=Method.ENUMERATION,
                         domain=domain)
    n_ctx, acts = model.first_logit_change(cases)
    if acts:
        return undecided(f"B_2N acts at {dyck.show(acts[3])} (N = {acts[0]}); the other weights were not "
                         "examined", method=Method.ENUMERATION, domain=domain)
    return fails(Method.ENUMERATION, (
        f"B_2N: changing it leaves all {n_ctx} logits at r <= 2N - 1 unchanged (exact): 2N + 2 of the 2N + 3 "
        "weights act"), domain=domain, count=n_ctx, residual="1",
        detail="weight count 2N + 3 = E (2) + B (2N) + v (1) (model.py)")


def global_optimizer(p) -> Evidence:
    """L > 0 at finite parameters (every softmax entry < 1 with t = 2 finite logits) and L -> 0 along the
    closed form (sum_r log(1 + e^{-2x/r}) -> 0 as x = v gamma -> oo): the infimum 0 is not attained."""
    Lx = sum(sp.log(1 + sp.exp(-2 * x_ / r)) for r in range(1, 4))  # N = 2
    lim = sp.limit(Lx, x_, sp.oo)
    domain = "N = 2 (any s): the loss along the closed form, v gamma -> oo, and at every finite parameter"
    if lim != 0:
        return undecided(f"sympy gives lim L = {lim}", method=Method.IDENTITY, domain=domain)
    return fails(Method.IDENTITY, (
        "lim_{v gamma -> oo} L = 0 (sympy) while L > 0 at every finite parameter (a softmax of finite logits "
        "over t = 2 tokens is < 1): the infimum 0 is not attained, so no finite global optimizer exists, "
        "with or without Q = 0"), domain=domain, residual=str(lim))


def eq3_first_order(p) -> Evidence:
    """E = B = 0 is a stationary point of L (logits bilinear in (E + B) and E), where softmax - delta =
    (1/2, -1/2): a first-order point that violates eq. (3), which is the interpolation condition."""
    e1, e2, b1, b2, v = sp.symbols("e1 e2 b1 b2 v")
    # N = 1, s = (): one term, context '(' predicting ')': logits = v (e_s1 + b1) [e1, e2]
    l1, l2 = v * (e1 + b1) * e1, v * (e1 + b1) * e2
    L = -l2 + sp.log(sp.exp(l1) + sp.exp(l2))
    grad = [sp.diff(L, w).subs({e1: 0, e2: 0, b1: 0, b2: 0}) for w in (e1, e2, b1, b2, v)]
    resid = (sp.exp(l1) / (sp.exp(l1) + sp.exp(l2))).subs({e1: 0, b1: 0})
    domain = "N = 1, s = (), E = B = 0, every v (sympy, exact)"
    if not (all(sp.simplify(g) == 0 for g in grad) and resid == sp.Rational(1, 2)):
        return undecided(f"gradient {grad}, softmax {resid}", method=Method.IDENTITY, domain=domain)
    return fails(Method.IDENTITY, (
        "grad L = 0 at E = B = 0 for every v, where softmax = (1/2, 1/2), |softmax - delta| = 1/2"),
        domain=domain, residual=str(resid),
        detail="E E^T = 0 there; with E = [1, -1] (Thm 4.1), E E^T = [[1, -1], [-1, 1]], far from I_2 too")


def catalan_control(p) -> Evidence:
    c16, domain = dyck.catalan(16), "C_16 (exact)"
    if c16 != 35357671:
        return fails(Method.EXACT, f"C_16 = {c16} != 35357671 (exact)", domain=domain, count=1, residual="1")
    return holds(Method.EXACT, domain, count=1, residual="0")
