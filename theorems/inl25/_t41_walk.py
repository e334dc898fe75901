"""The proof walk of INL25.T41 (Theorem 4.1, App. A.1): the algebraic steps of App. A.1 that no survey claim
checks, as symbolic claims, and the walk itself (every displayed step of the proof in the paper's order, each
with the claims of INL25.T41 that check it or the reason none does), plus the quantified sentences.

A helper module (the leading underscore keeps the registry from reading it as a theorem file): t41_bound
adds WALK_CLAIMS to its claims, WALK_EXPECT to its expectations and passes PROOFS and SENTENCES on. Each
symbolic step returns residuals that must be 0 and relations that sympy must decide True, with the
premises of the step written into the symbols (d >= 0 the slack of a premise "a <= b" as b = a + d).
"""

from collections.abc import Mapping
from typing import Any

import sympy as sp

from proofkit import Computed, Evidence, Method, Proof, Step, SymbolicStep, Verdict, fails, holds
from proofkit.limit import C_G, mlp_lipschitz

tau, eps, L, sig, A, n, ns, c, k = (sp.Symbol(s, positive=True) for s in
                                    ("tau", "epsilon", "L", "Sigma", "A_f", "n_star", "n_s", "c", "k"))
d = sp.Symbol("d", nonnegative=True)


def c2_lower_last() -> list:
    """Case 2, last line of the lower display: (1 - rho) tau/eps^2 - k = tau/eps^2 - O(1/eps) for
    rho = |A_f cap A_g|/|A_g| <= eps (rho = eps - d), read with the O(1/eps) term <= tau/eps + k."""
    rho = eps - d
    low = (1 - rho) * tau / eps**2 - k
    gap = sp.factor(low - (tau / eps**2 - tau / eps - k))
    return [sp.simplify(gap - tau * d / eps**2), gap >= 0]


def c3_ag_bound() -> list:
    """Case 3: |A_f cap A_g|/|A_g| > eps gives |A_g| < |A_f cap A_g|/eps <= |A_f|/eps (I = (eps + e)|A_g|,
    e > 0; |A_f| = I + d)."""
    e, ag = sp.Symbol("e", positive=True), sp.Symbol("A_g", positive=True)
    inter = (eps + e) * ag
    return [sp.factor(inter / eps - ag) > 0, sp.factor((inter + d) / eps - inter / eps) >= 0]


def c3_scale_left() -> list:
    """Case 3, first display: ((n*/|A_f|) tau/eps - 1)/n* = (tau/eps)/|A_f| - 1/n*, and 1/n* <= eps|Sigma|/tau
    once n* >= tau/(|Sigma| eps) (n* = tau/(|Sigma| eps) + d)."""
    ident = ((n / A) * tau / eps - 1) / n - ((tau / eps) / A - 1 / n)
    nstar = tau / (sig * eps) + d
    return [sp.simplify(ident), sp.factor(sp.together(eps * sig / tau - 1 / nstar)) >= 0]


def c3_new_tokens() -> list:
    """Case 3, s in S_g \\ S_f: floor(m* n_s/n*)/m* >= (m* n_s/n* - 1)/m* = n_s/n* - 1/m*, and with
    c = tau/(|Sigma| eps): 1/(c - 1) = |Sigma| eps/(tau - |Sigma| eps), the bound of 1/m* for m* >= c - 1."""
    m = sp.Symbol("m_star", positive=True)
    cc = tau / (sig * eps)
    return [sp.simplify((m * ns / n - 1) / m - (ns / n - 1 / m)),
            sp.simplify(1 / (cc - 1) - sig * eps / (tau - sig * eps))]


def c3_shared_lower() -> list:
    """Case 3, s in S_g cap S_f, lower display: ((n_s/|A_f|) tau/eps - 1)/((n*/|A_f|) tau/eps) = n_s/n* -
    |A_f| eps/(n* tau) >= n_s/n* - |Sigma| eps/tau, as |A_f| <= |Sigma| n* (s* the largest of <= |Sigma|
    counts summing to |A_f|; |A_f| = |Sigma| n* - d)."""
    ident = ((ns / A) * tau / eps - 1) / ((n / A) * tau / eps) - (ns / n - A * eps / (n * tau))
    af = sig * n - d
    gap = sp.factor((ns / n - af * eps / (n * tau)) - (ns / n - sig * eps / tau))
    return [sp.simplify(ident), gap >= 0]


def c3_shared_upper() -> list:
    """Case 3, s in S_g cap S_f, upper display: a/(b - 1) = (a/b)(1 + 1/(b - 1)) with a/b = n_s/n*, and
    (n_s/n*)/(b - 1) <= 2|Sigma| eps/tau for n_s <= n* and b >= c = tau/(|Sigma| eps) >= 2
    (c = 2 + d, b = c + e): 1/(b - 1) <= 1/(c - 1) <= 2/c."""
    b, e = sp.Symbol("b", positive=True), sp.Symbol("e", nonnegative=True)
    a = ns / n * b
    cc = 2 + d
    return [sp.simplify(a / (b - 1) - (ns / n) * (1 + 1 / (b - 1))),
            sp.factor(sp.together(1 / (cc - 1) - 1 / (cc + e - 1))) >= 0,
            sp.factor(sp.together(2 / cc - 1 / (cc - 1))) >= 0]


def substitution() -> list:
    """Last step: eps -> eps/L turns N_0 = tau/eps^2 into tau L^2/eps^2 and delta + L eps into delta + eps."""
    e2 = eps / L
    return [tau / e2**2 - tau * L**2 / eps**2, (sp.Symbol("delta") + L * e2) - (sp.Symbol("delta") + eps)]


def lipschitz_bound(p: Mapping[str, Any]) -> Evidence:
    """Lip(v -> B psi(A v + b)) <= ||B||_F ||A||_F psi = ReLU: exact on sampled integer pairs."""
    out = mlp_lipschitz(p["seed"] + 3)
    domain = (f"{out.pairs} input pairs over {out.models} random ReLU MLPs (3 -> 5 -> 2, integer entries in "
              f"[-3, 3], seed {p['seed'] + 3}); exact squared norms")
    if out.failure is not None:
        return fails(Method.EXACT, out.failure, domain=domain, residual=str(out.worst))
    return holds(Method.SAMPLED, domain, count=out.pairs, residual=f"{float(out.worst):.4g}",
                 detail=f"largest squared ratio {float(out.worst):.4g} <= 1")


W_LIPB = "Lip(MLP) <= ||B||_F ||A||_F for psi = ReLU"
W_C2 = "C2 last line: (1 - rho) tau/eps^2 - k >= tau/eps^2 - tau/eps - k for rho <= eps"
W_AG = "C3: |A_g| < |A_f cap A_g|/eps <= |A_f|/eps"
W_SCALE = "C3 m*/n* lower: ((n*/|A_f|) tau/eps - 1)/n* >= (tau/eps)/|A_f| - eps|Sigma|/tau"
W_NEW = "C3 s in S_g \\ S_f: n_s/n* - 1/m* and 1/(tau/(|Sigma| eps) - 1) = |Sigma| eps/(tau - |Sigma| eps)"
W_LOW = "C3 s in S_g cap S_f lower: ratio of floors >= n_s/n* - |Sigma| eps/tau"
W_UP = "C3 s in S_g cap S_f upper: a/(b - 1) = (a/b)(1 + 1/(b - 1)) <= n_s/n* + 2|Sigma| eps/tau"
W_SUB = "substitution eps -> eps/L: N_0 = tau L^2/eps^2, error delta + eps"

WALK_CLAIMS = (
    Computed(W_LIPB, "proof-step", "App. A.1, first paragraph",
             "the MLP v -> B psi(A v + b) with the ReLU as the 1-Lipschitz psi (the paper names no psi)",
             lipschitz_bound, reading="our reading"),
    SymbolicStep(W_C2, "proof-step", "App. A.1, case 2, lower display (last line)",
                 "the O(1/eps) term read as rho tau/eps^2 + |S_g \\ S_f| <= tau/eps + k", c2_lower_last,
                 reading="our reading"),
    SymbolicStep(W_AG, "proof-step", "App. A.1, case 3 (first sentence)", "rearranged premise", c3_ag_bound,
                 reading="as printed"),
    SymbolicStep(W_SCALE, "proof-step", "App. A.1, case 3, display bounding m*/n*",
                 "identity and the leftmost inequality, given n* >= tau/(|Sigma| eps)", c3_scale_left,
                 reading="as printed"),
    SymbolicStep(W_NEW, "proof-step", "App. A.1, case 3, display bounding m_s/m* (s in S_g \\ S_f)",
                 "the middle and leftmost inequalities, given m* >= tau/(|Sigma| eps) - 1", c3_new_tokens,
                 reading="as printed"),
    SymbolicStep(W_LOW, "proof-step", "App. A.1, case 3, lower display for s in S_g cap S_f",
                 "identity and |A_f| <= |Sigma| n*", c3_shared_lower, reading="as printed"),
    SymbolicStep(W_UP, "proof-step", "App. A.1, case 3, upper display for s in S_g cap S_f",
                 "identity and 1/(b - 1) <= 2/c for b >= c >= 2", c3_shared_upper, reading="as printed"),
    SymbolicStep(W_SUB, "proof-step", "App. A.1, last paragraph", "substitution", substitution,
                 reading="as printed"),
)
WALK_EXPECT = {w.name: Verdict.CONFIRMED if w.name == W_LIPB else Verdict.CERTIFIED for w in WALK_CLAIMS}

# the names of t41_bound's claims the walk cites (validated against the theorem at import)
CONC = "declared reading: |f - g| <= delta + sqrt(tau Delta L'^2/N) beyond N"
COUNTS = "counts-based evaluation equals the forward pass"
S12 = "S1, S2 = eq. (1): f-part floor inequalities"
S48 = "S4, S8: case 2/3 totals"
S79 = "S7, S9: case 3 ratio bounds"
S11 = "S11: |z| <= tau + 1 + tau/eps + tau/eps^2 (C0: 2 tau/eps + tau + 1)"
S5P = "S5 with eq. (1)'s constant: |m_s/sum m - n_s/|A_g|| <= 2|Sigma| eps^2/tau"
S5C = "S5 against n_s/|A_g \\ A_f|"
S3 = "S3: ||prop_f(x) - prop_f(z)||_1 <= (2|Sigma|^2/tau + 4(tau+1)/tau) eps"
FLOOR = "floor step r - 1 < floor(r) <= r"
EQ1L = "eq. (1) lower: ((r tau/eps) - 1)/(tau/eps) = r - eps/tau"
EQ1U = "eq. (1) upper: (r + 2u)(1 - u) - r = u(2 - r - 2u)"
HARD = "z is in the hardmax regime (Part D item 11)"
PREFIX = "the f-prefix of z is non-empty (Part D item 13)"
SUFFIX = "a tau-suffix of tau positions suffices (Part D item 9)"
LIP = "Lipschitz step with the MLP's constant only (Part D item 8)"
C3LIT = "case 3 premise as printed: |A_f| >= tau/eps and |A_f| <= |Sigma| (Part D item 10)"
DRED = "Delta reduction realizable without a filler (Part D item 14)"
MONO = "Sec. 5 (ii): N increases as eps increases (Part D item 16)"
S610 = f"S6/S10: ||prop_g(x) - prop_g(z)||_1 <= {C_G} eps"
DEF = "a definition of the construction (no truth value); encoded in proofkit.limit.auxiliary.build_z"
OH = "an O(.) bound with unstated constants: no finite check refutes it"


PROOFS = (Proof("Theorem 4.1", "App. A.1", (
        Step("Lip(MLP)", "Lip(MLP_f) <= ||B_f||_F ||A_f||_F (psi 1-Lipschitz is unstated: the 'lipschitz' "
             "assumption, dropped by variant 'heaviside')", by=W_LIPB),
        Step("notation A_f, A_g, S_f, S_g, n_s", "attended positions and tokens of the tau-prefix, the "
             "prefix counts n_s (WLOG |A_f| <= |A_g|)", why_not="notation", kind="definition"),
        Step("tau-suffix of z", "z keeps the tau-suffix of x; f, g read the prefix through counts only",
             by=(SUFFIX, COUNTS), kind="definition"),
        Step("case 0", "|A_f|, |A_g| <= tau/eps: copying the union (<= 2 tau/eps tokens) reproduces both "
             "attention patterns, so |f(x) - g(x)| = |f(z) - g(z)| <= delta", by=S11),
        Step("f-prefix, |A_f| <= tau/eps", "z_{1:|A_f|} = x_{A_f}; later tokens are outside A_f, so f(x) = "
             "f(z)", why_not="no claim isolates this branch (S3 covers it only through its declared-constant "
                             "l1 bound, not the printed equality)"),
        Step("m_s (f-part)", "m_s = floor(n_s tau/(|A_f| eps)) for s in S_f", why_not=DEF, kind="definition"),
        Step("floor bounds of m_s", "n_s tau/(|A_f| eps) - 1 <= m_s <= n_s tau/(|A_f| eps)", by=FLOOR),
        Step("display sum m_s", "tau/eps - |S_f| <= sum_{S_f} m_s <= tau/eps", by=S12),
        Step("r - 1 <= floor(r) <= r", "the floor step used throughout", by=FLOOR),
        Step("display before (1)", "n_s/|A_f| - eps/tau = ... <= m_s/sum m <= ... <= n_s/|A_f| + 2|S_f| "
             "eps/tau", by=(EQ1L, EQ1U, S12)),
        Step("proviso |S_f| eps/tau <= 1/2", "'which will hold for small enough eps' (a hypothesis the "
             "theorem does not state)", by=PREFIX),
        Step("(1)", "|m_s/sum m - n_s/|A_f|| <= 2|Sigma| eps/tau", by=S12),
        Step("suffix terms O(L eps)", "the tau-suffix adds O(L eps) to f(x), f(z) as |A_f|, sum m are "
             "Omega(tau/eps)", by=S3),
        Step("f(z), g(z) hardmax", "every display below evaluates f(z), g(z) as hardmax averages (implicit; "
             "|z| = O(tau/eps^2) may be below 2^(p/gamma))", by=HARD),
        Step("f display, line 1", "||f(x) - f(z)|| <= Lip(MLP_f) ||avg_x - avg_z|| + O(L eps)", by=LIP),
        Step("f display, line 2", "<= ||B_f||_F ||A_f||_F sum_s |n_s/|A_f| - m_s/sum m| ||V E_s|| + O(L eps)",
             why_not="the triangle inequality for an arbitrary norm and vectors V E_s: no finite "
                     "computation"),
        Step("f display, line 3", "= O(L|Sigma| eps/tau) + O(L eps): the share sum is O(|Sigma| eps/tau)",
             by=S3),
        Step("m_s (case 2)", "rho <= eps: m_s = floor(n_s tau/(|A_g| eps^2)) for s in S_g \\ S_f",
             why_not=DEF, kind="definition"),
        Step("case 2 lower display, lines 1-4", "sum m_s >= (|A_g \\ A_f|/|A_g|) tau/eps^2 - |S_g \\ S_f|",
             by=S48),
        Step("case 2 lower display, line 5", "= tau/eps^2 - O(1/eps)", by=W_C2),
        Step("case 2 upper display", "sum_{S_g \\ S_f} m_s <= sum_{S_g} n_s tau/(|A_g| eps^2) = tau/eps^2",
             by=S48),
        Step("case 2 shares", "|m_s/sum m - n_s/|A_g|| = O(eps^2/tau) 'by roughly the same logic as (1)'",
             by=(S5P, S5C)),
        Step("case 2 small terms", "suffix and f-prefix (<= tau + tau/eps tokens) add O(L eps) to g(z); A_f "
             "cap A_g and the suffix add O(L eps) to g(x)", by=S610),
        Step("case 2 g display", "||g(x) - g(z)|| <= Lip(MLP_g) sum |...| ||V E_s|| + O(eps) = O(L eps)",
             by=LIP),
        Step("case 3 premise", "rho > eps: |A_g| < |A_f cap A_g|/eps <= |A_f|/eps", by=W_AG),
        Step("s*, m_s (case 3)", "s* = argmax_{s in A_f} n_s; m_s = floor(m_s* n_s/n_s*) for s in A_g \\ A_f",
             why_not=DEF + " (A_f, A_g read as the token sets S_f, S_g)", kind="definition"),
        Step("n_s* >= tau/(|Sigma| eps)", "from '|A_f| >= tau/eps and |A_f| <= |Sigma|'", by=(C3LIT, S79)),
        Step("case 3 display m*/n*", "(tau/eps)/|A_f| - eps|Sigma|/tau <= ... <= m*/n* <= (tau/eps)/|A_f|",
             by=(W_SCALE, S79)),
        Step("case 3 display sum m", "sum_{S_g \\ S_f} m_s <= (m*/n*)|A_g| <= tau/eps^2", by=S48),
        Step("|z| = O(tau/eps^2)", "the construction adds at most tau/eps^2 tokens in every case", by=S11),
        Step("case 3 display m_s/m*, S_g \\ S_f", "n_s/n* - |Sigma| eps/(tau - |Sigma| eps) <= n_s/n* - 1/m* "
             "<= floor(m* n_s/n*)/m* <= n_s/n*", by=(W_NEW, S79)),
        Step("m* >= tau/(|Sigma| eps) - 1", "m* = floor(n* tau/(|A_f| eps)) >= floor(tau/(|Sigma| eps))",
             why_not="floor monotonicity with n*/|A_f| >= 1/|Sigma| over arbitrary counts (pigeonhole); the "
                     "bound it feeds is checked through S9 and the symbolic step on 1/(c - 1)"),
        Step("case 3 lower display, S_g cap S_f", "floor/floor >= (a - 1)/b >= n_s/n* - |Sigma| eps/tau",
             by=(W_LOW, S79)),
        Step("case 3 upper display, S_g cap S_f", "floor/floor <= a/(b - 1) = (n_s/n*)(1 + 1/(b - 1)) <= "
             "n_s/n* + 2|Sigma| eps/tau for tau/(|Sigma| eps) >= 2", by=(W_UP, S79)),
        Step("case 3 shares display", "|m_s/sum_{S_g} m - n_s/sum_{S_g} n| = O(eps) for any s in S_g (the "
             "first line prints the difference without |.|)", by=S610),
        Step("case 3 g display", "||g(x) - g(z)|| <= Lip(MLP_g) sum |...| ||V E_s|| + O(L eps) = O(L eps)",
             by=LIP),
        Step("triangle display", "||f(x) - g(x)|| <= ||f(z) - g(z)|| + ||f(x) - f(z)|| + ||g(x) - g(z)|| <= "
             "delta + O(L eps), given |z| <= N_0", why_not="the triangle inequality for arbitrary outputs "
             "and " + OH + "; the theorem it yields is the claim '" + CONC + "'"),
        Step("eps -> eps/L", "error O(delta + eps) with N_0 = O(tau L^2/eps^2)", by=W_SUB),
        Step("Delta reduction", "(token, position mod Delta) as tokens: a factor Delta", by=DRED),
    )),)


SENTENCES = (
    Step("Thm 4.1", "there exists N such that |f - g| <= delta for all |x| <= N implies |f(x) - g(x)| = "
         "O(delta + eps) for any sequence x", by=CONC),
    Step("App. A.1, floor", "r - 1 <= floor(r) <= r for any real number r", by=FLOOR),
    Step("App. A.1, case 3", "|m_s/sum m - n_s/sum n| = O(eps) for any s in S_g",
         by=S610),
    Step("Remarks after Thm 4.1", "if hardmax occurs at smaller lengths, N need only scale with tau Delta "
         "L^2/eps^2", why_not="conditional on an unstated event ('it is possible for this hardmax behavior "
         "to occur'); the claim '" + HARD + "' shows z of that length need not be hardmax"),
    Step("Sec. 1", "finite precision is necessary for identifiability from finite inputs",
         why_not="a cited result of Huang et al. (2024), not INL25's; dropping finite precision here is the "
                 "variant 'infinite-precision' of the conclusion claim"),
    Step("Sec. 5 (i)", "a model fitting the task up to some finite N achieves eps error on all lengths",
         why_not="an empirical reading of trained models (Figures 1, 2), no statement on given f, g"),
    Step("Sec. 5 (ii)", "the value of this N increases monotonically as eps increases", by=MONO),
)

