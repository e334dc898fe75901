"""INL25.T41: Theorem 4.1 of Izzo, Nichani & Lee 2025 (Sec. 4, proof in App. A.1): for one-layer limit
transformers f, g (tau-local, Delta-periodic, translation-invariant, p bits) there is an
N = O(max{2^(p/gamma), tau Delta L^2/eps^2}) such that |f - g| <= delta on every string of length <= N
implies |f(x) - g(x)| = O(delta + eps) for every x.

An O(.) statement with hidden constants is never verified here. What is checked: the proof's floor
inequalities with the constants printed in App. A.1 (exact Fractions on seeded random instances with
integer logit tables, strings up to 10^6 by token counts), the symbolic steps behind eq. (1), declared
explicit-constant readings of the O(eps) steps (refutable only in that declared form), the construction's
implicit assumptions (z in the hardmax regime, a non-empty f-prefix, the suffix length, the Delta reduction,
the Lipschitz step), and, for the conclusion, the declared reading "|f - g| <= delta + sqrt(tau Delta L'^2/N)"
(constants 1) on concrete pairs, each assumption dropped by its own pair (``variant``).

Notation: p is the bits of precision only; A_f, A_g are attended position sets (the MLP matrix is A);
"tau-suffix" is the last tau + 1 positions (offsets 0..tau) unless a claim says otherwise.
"""

from fractions import Fraction
from functools import lru_cache
from itertools import product

import numpy as np
import sympy as sp

from proofkit.limit import auxiliary as cz
from proofkit.limit.counts import count_string, evaluate_counts, from_string
from proofkit.limit.model import evaluate
from proofkit.limit.survey import C_G, run_survey, table_model
from proofkit.limit.variants import VARIANTS, BoundFalsifier, decide
from proofkit.limit.zoo import MODELS
from proofkit.params import Param, ParamSpace
from proofkit.predicates import DeltaPeriodic, FinitePrecision, TauLocal, TranslationInvariant
from proofkit.spec import Assumption, Computed, PaperRef, SymbolicStep, Theorem, function, predicate
from proofkit.verdict import Verdict

tau_, Delta_, L_, eps_, delta_ = (sp.Symbol(s, positive=True) for s in ("tau", "Delta", "L", "epsilon",
                                                                        "delta"))
r_, u_ = sp.Symbol("r", nonnegative=True), sp.Symbol("u", positive=True)
Close = predicate("CloseEverywhere", "|f(x) - g(x)| = O(delta + eps) for every string x")
AgreeUpTo = function("N_T41", "a training length N = O(max{2^(p/gamma), tau Delta L^2/eps^2})")
Lipschitz = predicate("LipschitzActivation", "psi is 1-Lipschitz, so Lip(MLP) <= ||B||_F ||A||_F")
NonDegenerate = predicate("NonDegenerate", "tau >= 1 (the suffix read as tau + 1 positions): the "
                                           "bound keeps eps")


@lru_cache(maxsize=8)
def _survey(seed, instances, p):
    return run_survey(seed, instances, p)


def _s(p):
    return _survey(p["seed"], p["instances"], p["p"])


def _scope(s):
    return (f"{s.instances} seeded instances (numpy default_rng({s.seed})), cases "
            f"{dict(sorted(s.cases.items()))}, |x| up to 10^6 by token counts, exact Fractions")


def _floor_claim(*names):
    def run(p):
        s = _s(p)
        bad = [n for n in names if n in s.failures]
        counts = ", ".join(f"{n} decided on {s.decided.get(n, 0)}" for n in names)
        if bad:
            return Verdict.REFUTED, bad[0], f"{bad[0]} fails at {s.failures[bad[0]]}; {counts}"
        return Verdict.CONFIRMED, "0", f"{counts}, every one holds (constants as printed); {_scope(s)}"
    return run


S3_TEXT = "(2|Sigma|^2/tau + 4(tau+1)/tau) eps"


def _measured(claim, key, const_text):
    def run(p):
        s = _s(p)
        if claim in s.failures:
            return (Verdict.REFUTED, claim, f"declared explicit-constant version ({const_text}) fails at "
                    f"{s.failures[claim]}; the O(.) claim itself is not refuted by this")
        per = {k[1]: round(v, 3) for k, v in sorted(s.by_sigma.items()) if k[0] == key}
        return (Verdict.CONFIRMED, f"{s.maxima.get(key, 0):.4g}",
                f"declared {const_text} holds on {s.decided.get(claim, 0)} instances; empirical max {key} = "
                f"{s.maxima.get(key, 0):.4g} (per |Sigma|: {per}); output ratios |f(x)-f(z)|/eps max "
                f"{s.maxima['|f(x)-f(z)|/eps']:.4g}, |g(x)-g(z)|/eps max {s.maxima['|g(x)-g(z)|/eps']:.4g}; "
                f"{_scope(s)}")
    return run


def counts_equal_forward(p):
    """evaluate_counts equals the exact forward pass on every string up to length 6."""
    rng = np.random.default_rng(p["seed"])
    models = [m() for m in MODELS.values() if m().Delta == 1]
    for i in range(4):
        ints = (lambda lo, hi, sh: rng.integers(lo, hi + 1, sh).tolist())  # noqa: E731
        models.append(table_model(ints(0, 2, (3, 3)), ints(-1, 1, 3), ints(-1, 1, (3, 3)), ints(-1, 1, (2,
                                                                                                        3)),
                                  ints(-1, 1, 2), ints(-1, 1, (3, 2)), ints(-2, 2, (1, 3)), f"random{i}"))
    n = 0
    for m in models:
        for length in range(1, 6):
            for x in product(m.alphabet, repeat=length):
                for bits in (1, None):
                    a, b = evaluate(m, x, bits), evaluate_counts(m, from_string(m, x), bits)
                    same = a.out == b.out if a.arithmetic == "exact" == b.arithmetic else \
                        all(abs(u - v) < 1e-40 for u, v in zip(a.out, b.out))
                    if not same:
                        return (Verdict.REFUTED, "".join(x),
                                f"{m.name}: {''.join(x)} at p = {bits}: {a.out} vs {b.out}")
                    n += 1
    return (Verdict.CONFIRMED, "0", f"{n} evaluations (every string of length <= 5, p in {{1, inf}}) on "
            f"{len(models)} Delta = 1 models (zoo + 4 random integer-table models, seed {p['seed']}): "
            f"counts-based output equals the forward pass (exact; mpmath within 1e-40 where terms "
            f"are irrational)")


def floor_step():
    """r - 1 < floor(r) <= r, the step used 'repeatedly throughout the proof': floor(r) = r - frac(r) with
    0 <= frac(r) < 1."""
    r = sp.Symbol("r", real=True)
    return [sp.frac(r) >= 0, sp.frac(r) < 1, sp.frac(r).rewrite(sp.floor) - (r - sp.floor(r))]


def eq1_lower():
    """((n/|A_f|) tau/eps - 1)/(tau/eps) = n/|A_f| - eps/tau (eq. (1), left)."""
    return sp.simplify((r_ * tau_ / eps_ - 1) / (tau_ / eps_) - (r_ - eps_ / tau_))


def eq1_upper():
    """r/(1 - u) <= r + 2u for r <= 1, u = |S_f| eps/tau <= 1/2: (r + 2u)(1 - u) - r = u (2 - r - 2u) >= 0."""
    return sp.expand((r_ + 2 * u_) * (1 - u_) - r_ - u_ * (2 - r_ - 2 * u_))


def _s5_instance():
    """|Sigma| = 2, tau = 2, eps = 1/4: f attends a, g attends a and b; n_a = 240, n_b = 760 (case C2)."""
    f = table_model([[1, 0], [1, 0]], [0, 0, 0], [[1, 0], [0, 1]], [], [], [], [[1, 0]], "f")
    g = table_model([[1, 1], [1, 1]], [0, 0, 0], [[1, 0], [0, 1]], [], [], [], [[1, 0]], "g")
    x = count_string({"a": 240, "b": 760}, "bbb")
    return f, g, x, 2, Fraction(1, 4)


def s5_printed(p):
    """S5 against n_s/|A_g| with the constant of eq. (1) at the eps^2 scale (2|Sigma| eps^2/tau)."""
    f, g, x, tau, eps = _s5_instance()
    c = cz.build_z(f, g, x, tau, eps)
    fc = cz.floor_claims(c, x, tau, eps, 2)
    s = _s(p)
    G = sum(c.g_part.values())
    dev = max(abs(Fraction(m, G) - Fraction(x.counts()[t], c.Ag.size)) for t, m in c.g_part.items())
    how = (f"|Sigma| = 2, tau = 2, eps = 1/4, n = (a: 240, b: 760), f attends a, g attends a, b: "
           f"case {c.case}, "
           f"m_b/sum m = 1 vs n_b/|A_g| = 19/25, deviation {dev} > 2|Sigma| eps^2/tau = 1/8 (the shares of "
           f"S_g \\ S_f sum to 1 - |A_f cap A_g|/|A_g|, off by up to eps); random instances: "
           f"{s.decided.get('S5', 0)} decided, failure {s.failures.get('S5', 'none')}")
    return (Verdict.REFUTED if fc["S5"] is False else Verdict.CONFIRMED), str(dev), how


def s5_corrected(p):
    """S5 against n_s/|A_g \\ A_f| (the shares S_g \\ S_f renormalized): O(eps^2/tau), constant 2|Sigma|."""
    f, g, x, tau, eps = _s5_instance()
    rows = []
    for inst in [(f, g, x, tau, eps)] + _c2_instances(p):
        f_, g_, x_, tau_i, eps_i = inst
        c = cz.build_z(f_, g_, x_, tau_i, eps_i)
        G, n = sum(c.g_part.values()), x_.counts()
        if c.case != "C2" or not G:
            continue
        rest = sum(n[t] for t in c.g_part)
        sig = len(f_.alphabet)
        dev = max(abs(Fraction(m, G) - Fraction(n[t], rest)) for t, m in c.g_part.items())
        if dev > 2 * sig * eps_i**2 / tau_i and len(c.Ag.tokens) * eps_i**2 / tau_i <= Fraction(1, 2):
            return Verdict.REFUTED, str(dev), f"fails at |Sigma| = {sig}, tau = {tau_i}, eps = {eps_i}: {dev}"
        rows.append(dev)
    return (Verdict.CONFIRMED, "0", f"{len(rows)} C2 instances (the printed one plus seeded random "
                                    f"ones, seed "
            f"{p['seed']}): |m_s/sum m - n_s/|A_g \\ A_f|| <= 2|Sigma| eps^2/tau on each (max {max(rows)})")


def _c2_instances(p):
    """Seeded C2 instances with rho = |A_f cap A_g|/|A_g| close to eps (S5's worst case)."""
    rng = np.random.default_rng(p["seed"] + 1)
    out = []
    for _ in range(40):
        tau, eps = int(rng.integers(1, 3)), Fraction(1, int(rng.integers(3, 9)))
        na = int(rng.integers(200, 2000))
        nb = int(na * (1 / float(eps) - 1)) + int(rng.integers(0, 50))
        f = table_model([[1, 0], [1, 0]], [0] * (tau + 1), [[1, 0], [0, 1]], [], [], [], [[1, 0]], "f")
        g = table_model([[1, 1], [1, 1]], [0] * (tau + 1), [[1, 0], [0, 1]], [], [], [], [[1, 0]], "g")
        out.append((f, g, count_string({"a": na, "b": nb}, "b" * (tau + 1)), tau, eps))
    return out


def z_hardmax(p):
    """Part D item 11: is z (|z| = O(tau/eps^2)) in the hardmax regime, as the proof's g(z), f(z) assume?"""
    s = _s(p)
    v = Verdict.REFUTED if s.z_output_changed else Verdict.CONFIRMED
    return v, str(s.z_output_changed), (
        f"p = {p['p']}: |z| < 2^(p/gamma) on {s.z_below_threshold} of {sum(s.cases.values())} instances; the "
        f"flushed forward pass of z is not a hardmax on {s.z_not_hardmax} of them and its output "
        f"differs from "
        f"the hardmax value the proof uses on {s.z_output_changed}; e.g. {s.z_example}")


def f_prefix_nonempty(p):
    """Part D item 13: the f-prefix of z is non-empty whenever A_f is."""
    f = table_model([[0] * 6] * 6, [0, 0], [[int(i == j) for j in range(6)] for i in range(6)], [], [], [],
                    [[1, 0, 0, 0, 0, 0]], "uniform6")
    x = count_string({t: 100 for t in "abcdef"}, "bb")
    c = cz.build_z(f, f, x, 1, Fraction(1, 2))
    fx, fz = cz.hard_out(f, x)[0], cz.hard_out(f, c.z)[0]
    s = _s(p)
    empty = sum(c.f_part.values()) == 0
    return (Verdict.REFUTED if empty else Verdict.CONFIRMED, f"{fx - fz}",
            f"|Sigma| = 6 tokens all attended, tau = 1, eps = 1/2 (|S_f| eps/tau = 3 > 1/2: outside "
            f"'eps small "
            f"enough'), n_s = 100 each: every m_s = floor(100/600 * 2) = 0, z = its suffix 'bb' ({c.case}); "
            f"f(x) = {fx}, f(z) = {fz}; inside the condition S1 gives sum m >= tau/(2 eps) > 0 (S1 held on "
            f"{s.decided.get('S1', 0)} instances): the condition is a hidden eps <= tau/(2|Sigma|)")


def suffix_tau(p):
    """Part D item 9: do tau-prefix counts and a tau-suffix of tau positions determine f(x)?"""
    m = table_model([[0, 0], [0, 0]], [0, 1], [[1, 0], [0, 1]], [], [], [], [[1, 0]], "offset-bias")
    x1, x2 = ("a", "b", "a"), ("b", "a", "a")
    o1, o2 = evaluate(m, x1, 1).out[0], evaluate(m, x2, 1).out[0]
    return (Verdict.REFUTED if o1 != o2 else Verdict.CONFIRMED, f"{o1} vs {o2}",
            f"tau = 1, phi = (0, 1), p = 1: x = aba and baa have equal counts before their last tau "
            f"= 1 position "
            f"and equal last position, yet f = {o1} vs {o2} (exact): the key at offset tau carries "
            f"phi(tau), so "
            f"the suffix must hold tau + 1 positions (offsets 0..tau); with tau + 1 the counts are lossless "
            f"(claim 'counts-based evaluation')")


def lipschitz_step(p):
    """Part D item 8: ||g(x) - g(z)|| <= Lip(MLP_g) ||avg_x - avg_z|| + O(L eps) with L of the MLP only."""
    f, g, x, tau, eps = _s5_instance()
    c = cz.build_z(f, g, x, tau, eps)
    gx, gz = cz.hard_out(g, x)[0], cz.hard_out(g, c.z)[0]
    s = _s(p)
    return (Verdict.REFUTED if gx != gz else Verdict.CONFIRMED, str(gx - gz),
            f"g without an MLP (Lip(MLP_g) = 0, L = 0): g(x) = {gx}, g(z) = {gz} on the S5 instance: "
            f"the residual "
            f"path Y and U carry the attention average, so the step needs ||U|| (1 + ||B||_F "
            f"||A||_F); random "
            f"instances: the MLP-only bound fails on {s.lip_mlp_only_fails}, "
            f"||U||_F (1 + ||A||_F ||B||_F) on "
            f"{s.lip_full_fails} (float64 with 1e-9 slack)")


def case3_literal(p):
    """Part D item 10: the printed premise of case 3, '|A_f| >= tau/eps and |A_f| <= |Sigma|'."""
    s = _s(p)
    n3 = s.cases.get("C3", 0)
    return (Verdict.REFUTED if s.c3_literal_premise < n3 else Verdict.CONFIRMED,
            f"{s.c3_literal_premise}/{n3}",
            f"|A_f| <= |Sigma| holds on {s.c3_literal_premise} of {n3} C3 instances (incompatible with "
            f"|A_f| > tau/eps once tau/eps >= |Sigma|); read as |S_f| <= |Sigma| the bound "
            f"n_s* >= tau/(|Sigma| eps) "
            f"is S7, which holds on {s.decided.get('S7', 0)} instances; 's in A_f', "
            f"'s in A_g \\ A_f' read as S_f, "
            f"S_g \\ S_f (positions have no counts n_s)")


def delta_reduction(p):
    """Part D item 14: after the (token, position mod Delta) reduction, is z realizable without a filler?"""
    rng = np.random.default_rng(p["seed"] + 2)
    for trial in range(200):
        half = int(rng.integers(300, 3000))
        share = rng.dirichlet(np.ones(6))
        n = {}
        for r in (0, 1):
            c = rng.multinomial(half, share)
            n.update({(t, r): int(v) for t, v in zip("abcdef", c)})
        tau, eps = int(rng.integers(1, 4)), Fraction(1, int(rng.integers(10, 60)))
        A = sum(n.values())
        m = {k: int(Fraction(v, A) * tau / eps) for k, v in n.items()}
        s0, s1 = (sum(m[(t, r)] for t in "abcdef") for r in (0, 1))
        if abs(s0 - s1) > 1:
            return (Verdict.REFUTED, f"{s0} vs {s1}", f"Delta = 2, uniform attention (every (token, residue) "
                    f"attended: no filler), seed {p['seed'] + 2}, trial {trial}: reduced counts {n}, "
                    f"tau = {tau}, eps = {eps}: "
                    f"floors give {s0} tokens of residue 0 and {s1} of residue 1, so no string realizes z's "
                    f"prefix (residues alternate); the reduced alphabet has Delta |Sigma| = 12 tokens, which "
                    f"enter eq. (1)'s constant 2|Sigma| eps/tau")
    return Verdict.CONFIRMED, "0", "200 seeded Delta = 2 instances: residue counts balanced within 1"


def monotone_in_eps():
    """Sec. 5 (ii): 'the value of this N increases monotonically as eps increases': the sign of
    d/deps (tau Delta L^2/eps^2)."""
    return sp.diff(tau_ * Delta_ * L_**2 / eps_**2, eps_) > 0


def conclusion(p):
    """The declared reading on the variant's concrete pair (agreement up to N exactly, search beyond)."""
    out = decide(p["variant"], p["N"], p["seed"])
    return (Verdict.REFUTED if out.found else Verdict.CONFIRMED,
            out.witness["gap_lower"] if out.found else "0", f"{out.how}; searched {out.effort}")


def control_z_short(p):
    """Control: |z| <= tau + 1 + tau/eps (S11 with eps^2 replaced by eps)."""
    s = _s(p)
    worst = s.maxima["|z| eps^2/tau"]
    bad = worst > 1.5
    return (Verdict.REFUTED if bad else Verdict.CONFIRMED, f"{worst:.4g}",
            f"max |z| eps^2/tau = {worst:.4g} over {_scope(s)}; C2 adds about tau/eps^2 tokens, beyond "
            f"tau + 1 + tau/eps")


_VARIANT = (lambda v: (lambda p: p["variant"] != v))  # noqa: E731

THEOREM = Theorem(
    id="INL25.T41",
    title="Length generalization bound N = O(max{2^(p/gamma), tau Delta L^2/eps^2}) for one-layer limit "
          "transformers (honest finite proxies)",
    paper=PaperRef("Izzo, Nichani & Lee 2025", "Sec. 4 (Theorem 4.1), App. A.1 (proof)", "(1)",
                   "izzo2025quantitative"),
    params=ParamSpace((
        Param("variant", str, "none", "the concrete pair: none, or an assumption dropped", choices=VARIANTS),
        Param("N", int, 32, "agreement length of the concrete pair", min=2, max=256),
        Param("instances", int, 120, "seeded random instances of the construction", min=10, max=2000),
        Param("p", int, 8, "bits of precision of the random instances", min=1, max=20),
        Param("seed", int, 0, "seed of every random choice", min=0, max=2**31),
    )),
    assumptions=(
        Assumption("periodic", "p_i = p_{i + Delta}", _VARIANT("non-periodic"), {"variant": "non-periodic"},
                   predicate=DeltaPeriodic(sp.Symbol("p_i"))),
        Assumption("local", "phi(j, i) = 0 for i > j + tau", _VARIANT("non-local"), {"variant": "non-local"},
                   predicate=TauLocal(sp.Symbol("phi"))),
        Assumption("translation-invariant", "phi(j, i) = phi(j + t, i + t)",
                   _VARIANT("non-translation-invariant"),
                   {"variant": "non-translation-invariant"},
                   predicate=TranslationInvariant(sp.Symbol("phi"))),
        Assumption("finite-precision", "softmax terms <= 2^-p flushed, p finite",
                   _VARIANT("infinite-precision"),
                   {"variant": "infinite-precision"}, predicate=FinitePrecision(sp.Symbol("p"))),
        Assumption("lipschitz", "psi 1-Lipschitz (Lip(MLP) <= ||B||_F ||A||_F; implicit in App. A.1)",
                   _VARIANT("heaviside"), {"variant": "heaviside"}, predicate=Lipschitz(sp.Symbol("psi"))),
        Assumption("nondegenerate", "tau >= 1 (degenerate tau = 0, gamma = +inf leaves no eps in the bound)",
                   _VARIANT("degenerate"), {"variant": "degenerate"}, predicate=NonDegenerate(tau_)),
    ),
    conclusion=sp.Implies(sp.Symbol("AgreeWithinDeltaUpTo_N"), Close(delta_, eps_)),
    claims=(
        Computed("declared reading: |f - g| <= delta + sqrt(tau Delta L'^2/N) beyond N", "conclusion",
                 "Thm 4.1 (constants set to 1, L' with the residual path)",
                 "agreement within delta on every string <= N implies |f - g| <= delta + eps_N on every "
                 "longer "
                 "string searched", conclusion),
        Computed("counts-based evaluation equals the forward pass", "identification", "Sec. 3.1 (Delta = 1)",
                 "prefix counts plus the last tau + 1 tokens determine the output", counts_equal_forward),
        Computed("S1, S2 = eq. (1): f-part floor inequalities", "proof-step", "App. A.1, eq. (1)",
                 "tau/eps - |S_f| <= sum m <= tau/eps; n_s/|A_f| - eps/tau <= m_s/sum m <= n_s/|A_f| + "
                 "2|S_f| eps/tau", _floor_claim("S1", "S2")),
        Computed("S4, S8: case 2/3 totals", "proof-step", "App. A.1, cases 2 and 3",
                 "C2: sum m >= (|A_g \\ A_f|/|A_g|) tau/eps^2 - |S_g \\ S_f| and <= tau/eps^2; "
                 "C3: <= tau/eps^2",
                 _floor_claim("S4", "S8")),
        Computed("S7, S9: case 3 ratio bounds", "proof-step", "App. A.1, case 3",
                 "n_s* >= tau/(|Sigma| eps), m_s*/n_s* bounds, m_s/m_s* vs n_s/n_s*", _floor_claim("S7",
                                                                                                   "S9")),
        Computed("S11: |z| <= tau + 1 + tau/eps + tau/eps^2 (C0: 2 tau/eps + tau + 1)", "proof-step",
                 "App. A.1, 'the length of z is O(tau/eps^2)'", "explicit length bound",
                 _floor_claim("S11", "C0")),
        Computed("S5 as printed: |m_s/sum m - n_s/|A_g|| <= 2|Sigma| eps^2/tau", "proof-step",
                 "App. A.1, case 2 ('by roughly the same logic')", "O(eps^2/tau) with eq. (1)'s constant",
                 s5_printed),
        Computed("S5 against n_s/|A_g \\ A_f|", "corrected", "derived here",
                 "the shares renormalized over S_g \\ S_f are within 2|Sigma| eps^2/tau", s5_corrected),
        Computed("S3: ||prop_f(x) - prop_f(z)||_1 <= (2|Sigma|^2/tau + 4(tau+1)/tau) eps", "proof-step",
                 "App. A.1, f-part (declared constant)", "measured", _measured("S3", "prop_f/eps", S3_TEXT)),
        Computed(f"S6/S10: ||prop_g(x) - prop_g(z)||_1 <= {C_G} eps", "proof-step",
                 "App. A.1, cases 2 and 3 (declared constant)", "measured",
                 lambda p: _merge(_measured("S6", "prop_g/eps (C2)", f"{C_G} eps")(p),
                                  _measured("S10", "prop_g/eps (C3)", f"{C_G} eps")(p))),
        SymbolicStep("floor step r - 1 < floor(r) <= r", "proof-step", "App. A.1", "used throughout",
                     floor_step),
        SymbolicStep("eq. (1) lower: ((r tau/eps) - 1)/(tau/eps) = r - eps/tau", "proof-step",
                     "App. A.1, eq. (1)",
                     "identity", eq1_lower),
        SymbolicStep("eq. (1) upper: (r + 2u)(1 - u) - r = u(2 - r - 2u)", "proof-step", "App. A.1, eq. (1)",
                     "r/(1-u) <= r + 2u for r <= 1, u <= 1/2", eq1_upper),
        Computed("z is in the hardmax regime (Part D item 11)", "identification", "App. A.1 (implicit)",
                 "f(z), g(z) are hardmax values", z_hardmax),
        Computed("the f-prefix of z is non-empty (Part D item 13)", "identification", "App. A.1, f-part",
                 "m_s = floor(n_s tau/(|A_f| eps)) leaves some token", f_prefix_nonempty),
        Computed("a tau-suffix of tau positions suffices (Part D item 9)", "identification", "App. A.1",
                 "tau-prefix counts and the last tau tokens determine f", suffix_tau),
        Computed("Lipschitz step with the MLP's constant only (Part D item 8)", "identification", "App. A.1",
                 "||f(x) - f(z)|| <= Lip(MLP_f) ||avg_x - avg_z|| + O(L eps)", lipschitz_step),
        Computed("case 3 premise as printed: |A_f| >= tau/eps and |A_f| <= |Sigma| (Part D item 10)",
                 "identification", "App. A.1, case 3", "literal", case3_literal),
        Computed("Delta reduction realizable without a filler (Part D item 14)", "identification",
                 "App. A.1, 'Including positional embedding vectors'", "reduced z spelled as a string",
                 delta_reduction),
        SymbolicStep("Sec. 5 (ii): N increases as eps increases (Part D item 16)", "identification", "Sec. 5",
                     "d/deps (tau Delta L^2/eps^2) > 0", monotone_in_eps),
        Computed("control: |z| <= tau + 1 + tau/eps", "control", "deliberately false",
                 "S11 with eps^2 -> eps",
                 control_z_short),
    ),
    expect={
        "declared reading: |f - g| <= delta + sqrt(tau Delta L'^2/N) beyond N": Verdict.CONFIRMED,
        "counts-based evaluation equals the forward pass": Verdict.CONFIRMED,
        "S1, S2 = eq. (1): f-part floor inequalities": Verdict.CONFIRMED,
        "S4, S8: case 2/3 totals": Verdict.CONFIRMED,
        "S7, S9: case 3 ratio bounds": Verdict.CONFIRMED,
        "S11: |z| <= tau + 1 + tau/eps + tau/eps^2 (C0: 2 tau/eps + tau + 1)": Verdict.CONFIRMED,
        "S5 as printed: |m_s/sum m - n_s/|A_g|| <= 2|Sigma| eps^2/tau": Verdict.REFUTED,
        "S5 against n_s/|A_g \\ A_f|": Verdict.CONFIRMED,
        "S3: ||prop_f(x) - prop_f(z)||_1 <= (2|Sigma|^2/tau + 4(tau+1)/tau) eps": Verdict.CONFIRMED,
        f"S6/S10: ||prop_g(x) - prop_g(z)||_1 <= {C_G} eps": Verdict.CONFIRMED,
        "floor step r - 1 < floor(r) <= r": Verdict.CERTIFIED,
        "eq. (1) lower: ((r tau/eps) - 1)/(tau/eps) = r - eps/tau": Verdict.CERTIFIED,
        "eq. (1) upper: (r + 2u)(1 - u) - r = u(2 - r - 2u)": Verdict.CERTIFIED,
        "z is in the hardmax regime (Part D item 11)": Verdict.REFUTED,
        "the f-prefix of z is non-empty (Part D item 13)": Verdict.REFUTED,
        "a tau-suffix of tau positions suffices (Part D item 9)": Verdict.REFUTED,
        "Lipschitz step with the MLP's constant only (Part D item 8)": Verdict.REFUTED,
        "case 3 premise as printed: |A_f| >= tau/eps and |A_f| <= |Sigma| (Part D item 10)": Verdict.REFUTED,
        "Delta reduction realizable without a filler (Part D item 14)": Verdict.REFUTED,
        "Sec. 5 (ii): N increases as eps increases (Part D item 16)": Verdict.REFUTED,
        "control: |z| <= tau + 1 + tau/eps": Verdict.REFUTED,
    },
    falsifier=BoundFalsifier(),
)


def _merge(a, b):
    """Two measured claims as one: refuted if either is."""
    if Verdict.REFUTED in (a[0], b[0]):
        return (Verdict.REFUTED, a[1] if a[0] == Verdict.REFUTED else b[1], f"C2: {a[2]} | C3: {b[2]}")
    return Verdict.CONFIRMED, f"{a[1]}, {b[1]}", f"C2: {a[2]} | C3: {b[2]}"
