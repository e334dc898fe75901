"""R24.L5: the lemmas and side claims of Richard 2024 around Theorem 4.1: Lemma 5.1 (one-hot memorization,
App. 5.2), Lemma 5.2 (two-token logits, App. 5.3.1), Claim 5.3 (no positional embedding), the stability
quantities mu_r (Sec. 3.2), the Catalan facts (Sec. 4), the mask and the loss of Sec. 3.1 (eqs. (2), (3)),
B_n and the weight count, and the "global optimizer" sentence.

Probabilities are mpmath intervals, logits exact rationals (proofkit.posembed), algebra sympy. Where a
claim holds for every v it is by monotonicity stated in its how-text."""

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
    Proof,
    Step,
    SymbolicStep,
    Theorem,
    Verdict,
    fails,
    holds,
    predicate,
    undecided,
)
from proofkit.posembed import bounds, dp, dyck, model, remarks, sweep
from proofkit.posembed import proof_steps as ps

x_, y_, g_, r_, n_ = sp.symbols("x y gamma r n", positive=True)
c_r, c_next, c_prev = sp.symbols("c_r c_next c_prev")
Memorizes = predicate("MemorizesOneHot",
                      "every prefix of s is completed into s w.p. >= 1 - n t e^{-v gamma/n}")


def l51_bound(p) -> Evidence:
    """P(s_:r -> s) = prod_{r'=r}^{n-1} [1 + (t-1) e^{-v gamma/r'}]^-1, failure accumulated directly, at
    v gamma = k n log(nt), k in {1, 2, 4} (at k = 1 the bound nt e^{-v gamma/n} is exactly 1: vacuous)."""
    rows = []

    def case(ntk):
        n, t, k = ntk
        f, bound = bounds.onehot_failure(n, t, k)
        if t == 2 and k == 2:
            rows.append(f"n={n}: {dp.text(f, 3)} vs {dp.text(bound, 3)}")
        return sweep.at_most(f, bound, f"n = {n}, t = {t}, k = {k}: failure {dp.text(f)} > {dp.text(bound)}",
                       f"{n},{t},{k}")

    return sweep.over(((n, t, k) for n in range(2, p["n_max"] + 1) for t in (2, 3, 5, 10) for k in (1, 2, 4)),
                case, method=Method.INTERVAL,
                domain=(f"n = 2..{p['n_max']}, t in {{2, 3, 5, 10}}, every prefix r < n, at the points "
                        "v gamma = k n log(nt), k in {1, 2, 4}"),
                detail=lambda c: ("exact product in intervals (t = 2, k = 2 shown): " + "; ".join(rows)))


def l51_logits(p) -> Evidence:
    """eq. (6) = eq. (4) with E = I_t: logits_r = (v gamma / r) delta_{s_{r+1}} for every s, r < n."""
    g, v = Fraction(3, 7), Fraction(5)
    eyes = {t: [[int(i == j) for j in range(t)] for i in range(t)] for t in (2, 3)}
    cases = ((t, s, h, r) for t in (2, 3) for s, h in model.word_heads(eyes[t], range(2, 5), g, v)
             for r in range(1, len(s)))

    def case(c):
        t, s, h, r = c
        ok = list(h.logits(s[:r])) == [v * g / r * (k == s[r]) for k in range(t)]
        return None if ok else sweep.Fail(f"s = {s}, r = {r}: {h.logits(s[:r])}", str(s))

    return sweep.over(cases, case, method=Method.ENUMERATION, detail="exact rational logits",
                      domain="every s in [t]^n, t in {2, 3}, n = 2..4, every r < n, at gamma = 3/7, v = 5 "
                             "(logit rows)")


def l51_step():
    """1/(1 + y) >= 1 - y for y = (t - 1) e^{-x} >= 0: the difference is y^2/(1 + y)."""
    return 1 / (1 + y_) - (1 - y_) - y_**2 / (1 + y_)


def l52_identity():
    """softmax([X, -X])_1 = 1/(1 + e^{-2X}) and 1/(1 + e^{-2X}) - (1 - e^{-2X}) = e^{-4X}/(1 + e^{-2X})."""
    s1 = sp.exp(x_) / (sp.exp(x_) + sp.exp(-x_)) - 1 / (1 + sp.exp(-2 * x_))
    return sp.simplify(s1) + sp.simplify(
        1 / (1 + sp.exp(-2 * x_)) - (1 - sp.exp(-2 * x_)) - sp.exp(-4 * x_) / (1 + sp.exp(-2 * x_))
    )


def l52_logits(p) -> Evidence:
    """For E = [1, -1]^T the head's logits are [X, -X] on every context (exact)."""
    cases = ((s, h, z) for N, s, h in model.dyck_heads(4, Fraction(-1, 2), -7)
             for z in model.binary_contexts(2 * N - 1))

    def case(c):
        s, h, z = c
        a, b = h.logits(z)
        return None if a == -b else sweep.Fail(f"s = {dyck.show(s)}, z = {dyck.show(z)}: logits {a}, {b}",
                                         str(a + b))

    return sweep.over(cases, case, method=Method.ENUMERATION, detail="exact rational logits",
                      domain=("every s in D_2N, N = 1..4, every context z in {(, )}^r, r = 1..2N-1, at "
                              "gamma = -1/2, v = -7"))


def c53_bound(p) -> Evidence:
    """Claim 5.3 at v = -2N^2(2N+1) and at twice that: the exact DP (no s: the state (r, h) is the whole
    context's content), every completable state."""
    rows = []

    def case(Nk):
        N, k = Nk
        worst, bound = bounds.nope_worst(N, Fraction(-2 * k * N * N * (2 * N + 1)))
        if k == 1:
            rows.append(f"N={N}: {dp.text(worst, 3)}")
        return sweep.at_most(worst, bound, f"N = {N}, k = {k}: failure {dp.text(worst)} > 2N e^-N", str(N))

    return sweep.over(((N, k) for N in range(1, p["N_top"] + 1) for k in (1, 2)), case,
                      method=Method.INTERVAL,
                domain=(f"N = 1..{p['N_top']}, every prefix state, at v = -2N^2(2N+1) and twice that "
                        "(not every v), E = [2N/(2N+1), -1]"),
                detail=lambda c: "worst failure " + "; ".join(rows))


def c53_strict(p) -> Evidence:
    """'if Delta_r = 0 then sum E < -1/(2N+1)': at the balanced prefix () the sum is a - 1 = -1/(2N+1)."""
    N = p["N_top"]
    total = Fraction(2 * N, 2 * N + 1) - 1  # a - 1
    domain = f"N = {N}, the balanced prefix () (Delta_2 = 0)"
    res = str(total + Fraction(1, 2 * N + 1))
    if not total < Fraction(-1, 2 * N + 1):
        return fails(Method.EXACT, f"sum E = {total} = -1/(2N+1), not < -1/(2N+1) (exact)", domain=domain,
                     count=1, residual=res)
    return holds(Method.EXACT, domain, count=1, residual=res, detail=f"sum E = {total} < -1/(2N+1) (exact)")


def c53_direction(p) -> Evidence:
    """As printed: 1 - exp(v/[r(2N+1)]) <= 1 - exp(-N) for v < -2N^2(2N+1); tried at one point."""
    N, r = 3, 1
    v = Fraction(-2 * N * N * (2 * N + 1) - 1)
    domain = f"N = {N}, r = {r}, v = {v} (one point of the range)"
    lhs, rhs, diff = bounds.nope_exp_step(N, r, v)
    if dp.gt(lhs, rhs):
        return fails(Method.INTERVAL, f"1 - e^(v/(r(2N+1))) = {dp.text(lhs)} > 1 - e^-N = {dp.text(rhs)}",
                     domain=domain, count=1, residual=dp.text(diff),
                     detail="'>=' holds (v/(r(2N+1)) < -2N^2/r < -N for r <= 2N - 1)")
    if dp.le(lhs, rhs):
        return holds(Method.SEARCH, domain, count=1, detail="no counterexample at the one point tried")
    return undecided("the intervals overlap", method=Method.INTERVAL, domain=domain)


def c53_no_asymmetry(p) -> Evidence:
    """Drop the 1/(2N+1): a = 1 makes X = 0 at every balanced context (a fair coin)."""
    N = 4
    v = Fraction(-2 * N * N * (2 * N + 1))
    states, bound = bounds.nope_failures(N, v, Fraction(1))
    return sweep.over(states, lambda c: sweep.at_most(c[1], bound, (
        f"E = [1, -1], no B, N = {N}, v = -2N^2(2N+1), prefix state (r, h) = {c[0]}: failure "
        f"{dp.text(c[1])} > 2N e^-N = {dp.text(bound)}"), dp.text(c[1])), method=Method.INTERVAL,
        domain=f"E = [1, -1], no positional embedding, N = {N}, v = {v}: every prefix state",
        detail="every prefix state below 2N e^-N (intervals)")


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


THEOREM = Theorem(
    id="R24.L5",
    title="Lemmas 5.1, 5.2, Claim 5.3, mu_r stability, Catalan facts, mask, loss range, weight count",
    paper=PaperRef("Richard 2024", "Sec. 3.1-3.2, Sec. 4, App. 5.2-5.3.1", "(2), (3), (4), (6)",
                   "richard2024depth"),
    params=ParamSpace((
        Param("n_max", int, 8, "Lemma 5.1 for n = 2..n_max", min=2, max=40),
        Param("N_top", int, 16, "Claim 5.3 and loss range for N = 1..N_top", min=1, max=24),
    )),
    assumptions=(
        Assumption("uniform", "Q = 0 (uniform attention)",
                   predicate=predicate("UniformAttention", "Q = 0")(sp.Symbol("Q"))),
        Assumption("vgamma", "v gamma > n log(nt) (Lemma 5.1)",
                   predicate=sp.StrictGreaterThan(sp.Symbol("v") * g_, n_ * sp.log(n_ * sp.Symbol("t")))),
    ),
    conclusion=Memorizes(n_),
    claims=(
        Computed("L5.1 exact product >= 1 - n t e^{-v gamma/n}", "conclusion", "App. 5.2, Lemma 5.1",
                 "one-hot, t >= 2", l51_bound),
        Computed("L5.1 logits = (v gamma/r) delta_{s_{r+1}}", "proof-step", "App. 5.2", "eq. (6) telescopes",
                 l51_logits),
        SymbolicStep("L5.1 1/(1+y) >= 1 - y", "proof-step", "App. 5.2", "y^2/(1+y) >= 0", l51_step),
        SymbolicStep("L5.2 softmax([X,-X]) and 1/(1+e^-2X) >= 1 - e^-2X", "proof-step", "App. 5.3.1",
                     "exact identity", l52_identity),
        Computed("L5.2 logits = [X, -X] for E = [1, -1]", "identification", "App. 5.3.1", "exact",
                 l52_logits),
        Computed("C5.3 P(valid) >= 1 - 2N e^-N (Part D 41)", "identification", "App. 5.3.1, Claim 5.3",
                 "no positional embedding", c53_bound),
        Computed("C5.3 proof: sum E < -1/(2N+1) at Delta = 0 (Part D 41)", "proof-step", "App. 5.3.1",
                 "strict", c53_strict),
        Computed("C5.3 proof as printed: 1 - e^{v/(r(2N+1))} <= 1 - e^-N (Part D 41)", "proof-step",
                 "App. 5.3.1", "direction", c53_direction),
        Computed("C5.3 without the 1/(2N+1) asymmetry", "identification",
                 "derived here (Claim 5.3 with a = 1)", "a = 1", c53_no_asymmetry, reading="our reading"),
        SymbolicStep("mu_r = (1 + (r-1) gamma)/(r gamma) from the Sec. 3.2 hypothesis", "proof-step",
                     "Sec. 3.2", "c_{r+1} = mu_r c_r", mu_derivation),
        SymbolicStep("mu = 1 + 1/gamma under eq. (4) (Part D 34)", "identification", "derived here",
                     "sum = gamma E", mu_eq4, reading="our reading"),
        Computed("gamma = -1/2: mu_r <= 1 - 3/n < 1 (Part D 33)", "identification", "Sec. 3.2, Stability",
                 "mu_r = 1 - 3/r for r <= n", remarks.mu_upper),
        Computed("gamma = -1/2 contracts: |mu_r| < 1 (Part D 33)", "identification",
                 "Sec. 3.2, Stability ('contractive', read as |mu_r| < 1 at every step)", "mu_r <= 1 - 3/n",
                 remarks.mu_contraction, reading="our reading"),
        Computed("gamma = 1/2: mu_r >= 1 + 1/n and c_r diverges (Part D 33)", "identification",
                 "Sec. 3.2, Stability", "under the printed hypothesis: c_m = m c_1", remarks.mu_divergence),
        Computed("gamma = 1/2: c_r diverges for a token pair z != s (Part D 33)", "identification",
                 "Sec. 3.2, Stability (the divergence read as one of token sequences)",
                 "some z != s with c_r in {0, +-2} obeys c_(r+1) = mu_r c_r", remarks.mu_tokens,
                 reading="our reading"),
        Computed("Sec. 3.2 hypothesis (1/r) sum = gamma E is eq. (4) (Part D 34)", "identification",
                 "Sec. 3.2 ('the same model', read as eq. (4)'s)", "on the model", remarks.mu_hypothesis,
                 reading="our reading"),
        Computed("C_N values, C_16 ~ 3.5e7", "identification", "Sec. 4, Sec. 4.2", "exact",
                 remarks.catalan_values, reading="our reading"),
        Computed("C_16 ~ 4^N pi^-1/2 N^-3/2 within 1% (Part D 47)", "identification", "Sec. 4 (printed with "
                 "the asymptotic sign, read as within 1%)", "declared reading", remarks.catalan_asymptotic_16,
                 reading="our reading"),
        Computed("C_N / (4^N pi^-1/2 N^-3/2) increases to 1", "identification", "Sec. 4", "sampled N",
                 remarks.catalan_ratio_to_one, reading="our reading"),
        Computed("literal mask gives att row r = r^-1 1_r (Part D 23)", "identification", "Sec. 3.1", "M_ij",
                 remarks.mask_literal),
        Computed("loss with an r = 0 term stays < 8N^2 e^-N (Part D 24)", "identification",
                 "eq. (2), App. 5.2", "index range", remarks.loss_r0, reading="our reading"),
        Computed("every one of the 2N + 3 weights acts (Part D 25)", "identification", "Thm 4.1", "B_2N",
                 remarks.B_last_unused, reading="our reading"),
        Computed("a global optimizer of L exists (Part D 26)", "identification", "Sec. 3.2",
                 "finite parameters", remarks.global_optimizer),
        Computed("eq. (3) is the first-order condition (Part D 27)", "identification", "Sec. 3.2, eq. (3)",
                 "stationary points satisfy it", remarks.eq3_first_order, reading="our reading"),
        SymbolicStep("L5.1 display: sum_{i<=r} R_i = -(1^T delta_s:r)^T + gamma delta_s(r+1)",
                     "proof-step", "App. 5.2, proof of Lemma 5.1",
                     "R of eq. (6) as printed, every s in {0,1,2}^5, r = 1..4",
                     ps.l51_telescoping),
        SymbolicStep("L5.1 display, third row as printed", "proof-step", "App. 5.2, proof of Lemma 5.1",
                     "-delta_s3 - gamma delta_s3 + gamma delta_s3 = R_3 (s = (0, 1, 2, 0))",
                     ps.l51_third_row),
        SymbolicStep("L5.1 softmax at the target = [1 + (t-1) e^(-v gamma/r)]^-1", "proof-step",
                     "App. 5.2, proof of Lemma 5.1", "e^a/(e^a + t - 1), a = v gamma/r", ps.l51_softmax),
        SymbolicStep("L5.1 v gamma > n log(nt) gives (n-1)(t-1) e^(-v gamma/n) < nt e^(-v gamma/n) < 1",
                     "proof-step", "App. 5.2, proof of Lemma 5.1", "nt e^(-log(nt)) = 1; nt - (n-1)(t-1) > 0",
                     ps.l51_union),
        Computed("C5.3 proof: Delta_r > 0 gives sum E > 1/(2N+1)", "proof-step", "App. 5.3.1, Claim 5.3",
                 "every prefix state, E = [2N/(2N+1), -1]", lambda p: ps.c53_steps(p, "sum")),
        Computed("C5.3 per-step log-odds of the valid token >= N", "identification",
                 "derived here (the steps of Claim 5.3's proof with logits [aX, -X])",
                 "at v = -2N^2(2N+1), every prefix state", lambda p: ps.c53_steps(p, "odds"),
                 reading="corrected"),
        Computed("control: C_16 = 35357671", "control", "deliberately false", "off by one",
                 remarks.catalan_control, reading="our reading"),
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
        "gamma = -1/2: mu_r <= 1 - 3/n < 1 (Part D 33)": Verdict.CERTIFIED,
        "gamma = -1/2 contracts: |mu_r| < 1 (Part D 33)": Verdict.REFUTED,
        "gamma = 1/2: mu_r >= 1 + 1/n and c_r diverges (Part D 33)": Verdict.CERTIFIED,
        "gamma = 1/2: c_r diverges for a token pair z != s (Part D 33)": Verdict.REFUTED,
        "Sec. 3.2 hypothesis (1/r) sum = gamma E is eq. (4) (Part D 34)": Verdict.REFUTED,
        "C_N values, C_16 ~ 3.5e7": Verdict.CERTIFIED,
        "C_16 ~ 4^N pi^-1/2 N^-3/2 within 1% (Part D 47)": Verdict.REFUTED,
        "C_N / (4^N pi^-1/2 N^-3/2) increases to 1": Verdict.CONFIRMED,
        "literal mask gives att row r = r^-1 1_r (Part D 23)": Verdict.REFUTED,
        "loss with an r = 0 term stays < 8N^2 e^-N (Part D 24)": Verdict.REFUTED,
        "every one of the 2N + 3 weights acts (Part D 25)": Verdict.REFUTED,
        "a global optimizer of L exists (Part D 26)": Verdict.REFUTED,
        "eq. (3) is the first-order condition (Part D 27)": Verdict.REFUTED,
        "L5.1 display: sum_{i<=r} R_i = -(1^T delta_s:r)^T + gamma delta_s(r+1)": Verdict.CERTIFIED,
        "L5.1 display, third row as printed": Verdict.REFUTED,
        "L5.1 softmax at the target = [1 + (t-1) e^(-v gamma/r)]^-1": Verdict.CERTIFIED,
        "L5.1 v gamma > n log(nt) gives (n-1)(t-1) e^(-v gamma/n) < nt e^(-v gamma/n) < 1": Verdict.CERTIFIED,
        "C5.3 proof: Delta_r > 0 gives sum E > 1/(2N+1)": Verdict.CERTIFIED,
        "C5.3 per-step log-odds of the valid token >= N": Verdict.CERTIFIED,
        "control: C_16 = 35357671": Verdict.REFUTED,
    },
    proofs=(
        Proof("Lemma 5.1", "App. 5.2", (
            Step("text before the display", "with uniform attention (Q = 0) row r of att is r^-1 1_r^T",
                 by="literal mask gives att row r = r^-1 1_r (Part D 23)"),
            Step("(6)", "R_1 = -delta_s1 + gamma delta_s2, R_i = -(1 + gamma) delta_si + gamma delta_s(i+1)",
                 kind="definition", why_not="a definition (eq. (6)); the display's claims use it as printed"),
            Step("display, rows 1-2 and the result", "sum_{i<=r} R_i = -(1_r^T delta_s:r)^T + gamma "
                 "delta_s(r+1)", by="L5.1 display: sum_{i<=r} R_i = -(1^T delta_s:r)^T + gamma delta_s(r+1)"),
            Step("display, row 3", "R_3 printed as -delta_s3 - gamma delta_s3 + gamma delta_s3 (typo: R_3 "
                 "ends in + gamma delta_s4)", by="L5.1 display, third row as printed"),
            Step("text after the display", "1_r^T (delta_s + R) = gamma delta_s(r+1)^T",
                 by=("L5.1 display: sum_{i<=r} R_i = -(1^T delta_s:r)^T + gamma delta_s(r+1)",
                     "L5.1 logits = (v gamma/r) delta_{s_{r+1}}")),
            Step("display: logits", "logits_r = (v/r) 1_r^T (delta_s + R_:r) I_t^T = (v gamma/r) "
                 "delta_s(r+1)^T",
                 by="L5.1 logits = (v gamma/r) delta_{s_{r+1}}"),
            Step("text: next-token probability", "P(s_(r+1)) = [1 + (t-1) e^(-v gamma/r)]^-1 >= 1 - (t-1) "
                 "e^(-v gamma/n)",
                 by=("L5.1 softmax at the target = [1 + (t-1) e^(-v gamma/r)]^-1", "L5.1 1/(1+y) >= 1 - y")),
            Step("text: the assumption", "v gamma > n log(nt) gives (n-1)(t-1) e^(-v gamma/n) < nt "
                 "e^(-v gamma/n) < 1",
                 by="L5.1 v gamma > n log(nt) gives (n-1)(t-1) e^(-v gamma/n) < nt e^(-v gamma/n) < 1"),
            Step("text: union bound", "P(every prefix completed into s) >= 1 - nt e^(-v gamma/n)",
                 by="L5.1 exact product >= 1 - n t e^{-v gamma/n}"),
        )),
        Proof("Lemma 5.2", "App. 5.3.1", (
            Step("text before the display", "logits = X E^T = [X, -X]",
                 by="L5.2 logits = [X, -X] for E = [1, -1]"),
            Step("display", "softmax([X, -X]) = [e^X/(e^X + e^-X), e^-X/(e^-X + e^X)]",
                 by="L5.2 softmax([X,-X]) and 1/(1+e^-2X) >= 1 - e^-2X"),
            Step("text after the display", "X > 0: 1/(1 + e^-2X) >= 1 - e^-2X (the case X < 0 is not "
                 "printed)", by="L5.2 softmax([X,-X]) and 1/(1+e^-2X) >= 1 - e^-2X"),
        )),
        Proof("Claim 5.3", "App. 5.3.1", (
            Step("sentence 1", "Delta_r = 0 gives sum_{i<=r} E_si < -1/(2N+1)",
                 by="C5.3 proof: sum E < -1/(2N+1) at Delta = 0 (Part D 41)"),
            Step("sentence 1, Lemma 5.2", "v < -2N^2(2N+1): '(' with probability >= 1 - exp(v/[r(2N+1)]) "
                 "'<=' 1 - exp(-N)", by=("C5.3 proof as printed: 1 - e^{v/(r(2N+1))} <= 1 - e^-N (Part D 41)",
                                         "C5.3 per-step log-odds of the valid token >= N")),
            Step("sentence 2", "Delta_r > 0 gives sum_{i<=r} E_si > 1/(2N+1)",
                 by="C5.3 proof: Delta_r > 0 gives sum E > 1/(2N+1)"),
            Step("sentence 2, probability", "')' with probability >= 1 - exp(-N)",
                 by="C5.3 per-step log-odds of the valid token >= N"),
            Step("sentence 3", "union bound: every prefix completed into D_2N w.p. >= 1 - 2N e^-N",
                 by="C5.3 P(valid) >= 1 - 2N e^-N (Part D 41)"),
        )),
    ),
    sentences=(
        Step("Lemma 5.1", "for r < n, any prefix s_:r of s is completed into s w.p. >= 1 - nt e^(-v gamma/n)",
             by="L5.1 exact product >= 1 - n t e^{-v gamma/n}"),
        Step("Claim 5.3", "the NoPE model completes any prefix into a word of D_2N w.p. >= 1 - 2N e^-N",
             by="C5.3 P(valid) >= 1 - 2N e^-N (Part D 41)"),
        Step("Sec. 3.2, Stability", "assuming for all r = 1..n (v/r) 1_r (E_s:r + B_:r) = v gamma E_s(r+1) "
             "(and for z), c_(r+1) = mu_r c_r",
             by=("mu_r = (1 + (r-1) gamma)/(r gamma) from the Sec. 3.2 hypothesis",
                 "Sec. 3.2 hypothesis (1/r) sum = gamma E is eq. (4) (Part D 34)")),
        Step("Sec. 3.2, eq. (3)", "for each r in [n] the first-order condition of L is eq. (3)",
             by="eq. (3) is the first-order condition (Part D 27)"),
        Step("Sec. 3.2, global optimizer", "a global optimizer of L with a single term s belongs to the "
             "subset Q = 0, V = v I", by="a global optimizer of L exists (Part D 26)"),
    ),
)
