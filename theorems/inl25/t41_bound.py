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

Every computed claim returns evidence (proofkit.language.evidence): the seeded random instances are samples
(exact Fractions at each, so a failing instance is an exact counterexample, while holding on them proves
nothing beyond them); the single constructed instances are exact; the conclusion's search beyond N is a
search, with its candidate count.
"""

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import sympy as sp

from proofkit import (
    Assumption,
    Computed,
    DeltaPeriodic,
    Evidence,
    FinitePrecision,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    SymbolicStep,
    TauLocal,
    Theorem,
    TranslationInvariant,
    Verdict,
    fails,
    function,
    holds,
    predicate,
    undecided,
)
from proofkit.limit import (
    C_G,
    VARIANTS,
    BoundFalsifier,
    Survey,
    build_pair,
    cached_survey,
    comparison_models,
    count_string,
    counts_against_forward,
    decide,
    evaluate,
    near_eps_instances,
    renormalized_shares,
    residue_imbalance,
    share_deviation,
    table_model,
)
from proofkit.limit import auxiliary as cz
from proofkit.limit import share_instance as _s5_instance

from ._t41_walk import PROOFS, SENTENCES, WALK_CLAIMS, WALK_EXPECT

tau_, Delta_, L_, eps_, delta_ = (sp.Symbol(s, positive=True) for s in ("tau", "Delta", "L", "epsilon",
                                                                        "delta"))
r_, u_ = sp.Symbol("r", nonnegative=True), sp.Symbol("u", positive=True)
Close = predicate("CloseEverywhere", "|f(x) - g(x)| = O(delta + eps) for every string x")
AgreeUpTo = function("N_T41", "a training length N = O(max{2^(p/gamma), tau Delta L^2/eps^2})")
Lipschitz = predicate("LipschitzActivation", "psi is 1-Lipschitz, so Lip(MLP) <= ||B||_F ||A||_F")
NonDegenerate = predicate("NonDegenerate", "tau >= 1 (the suffix read as tau + 1 positions): the "
                                           "bound keeps eps")


def _s(p: Mapping[str, Any]) -> Survey:
    return cached_survey(p["seed"], p["instances"], p["p"])


def _scope(s: Survey) -> str:
    return (f"{s.instances} seeded instances (numpy default_rng({s.seed})), cases "
            f"{dict(sorted(s.cases.items()))}, |x| up to 10^6 by token counts, exact Fractions")


def _survey_claim(s: Survey, names: tuple[str, ...], what: str, detail: str) -> Evidence:
    """The survey's decisions on ``names`` as evidence: a failing instance is an exact counterexample;
    holding on every instance that decided a name is evidence at those instances only (sampled, exact
    Fractions at each); a name no instance decided leaves the claim undecided."""
    counts = ", ".join(f"{n} decided on {s.decided.get(n, 0)}" for n in names)
    domain = f"the instances deciding {'/'.join(names)} ({counts}) among {_scope(s)}"
    bad = [n for n in names if n in s.failures]
    if bad:
        return fails(Method.EXACT, f"{bad[0]} ({what}) fails at {s.failures[bad[0]]}", domain=domain,
                     residual=bad[0], detail=detail)
    empty = [n for n in names if not s.decided.get(n, 0)]
    if empty:
        return undecided(f"no instance decided {', '.join(empty)} ({counts})", method=Method.SAMPLED,
                         domain=domain, count=0)
    return holds(Method.SAMPLED, domain, count=sum(s.decided[n] for n in names), detail=detail)


def _floor_claim(*names: str) -> Callable[[Mapping[str, Any]], Evidence]:
    def run(p: Mapping[str, Any]) -> Evidence:
        return _survey_claim(_s(p), names, "constants as printed", "every decided instance holds with the "
                             "constants as printed")
    return run


S3_TEXT = "(2|Sigma|^2/tau + 4(tau+1)/tau) eps"


def _measured(claim: str, key: str, const_text: str) -> Callable[[Mapping[str, Any]], Evidence]:
    def run(p: Mapping[str, Any]) -> Evidence:
        s = _s(p)
        per = s.per_sigma(key)
        detail = (f"declared {const_text}; empirical max {key} = {s.maxima.get(key, 0):.4g} (per |Sigma|: "
                  f"{per}); output ratios |f(x)-f(z)|/eps max {s.maxima['|f(x)-f(z)|/eps']:.4g}, "
                  f"|g(x)-g(z)|/eps max {s.maxima['|g(x)-g(z)|/eps']:.4g}; a failure refutes the declared "
                  "explicit-constant version, never the O(.) claim itself")
        ev = _survey_claim(s, (claim,), f"declared explicit-constant version {const_text}", detail)
        return ev if ev.outcome != "holds" else holds(ev.method, ev.domain, detail=detail,
                                                      residual=f"{s.maxima.get(key, 0):.4g}")
    return run


def counts_equal_forward(p: Mapping[str, Any]) -> Evidence:
    """evaluate_counts equals the exact forward pass on every string up to length 5 (exhaustive; where a
    surviving softmax term is irrational both sides are mpmath values compared within 1e-40, so the
    evidence is then high-precision sampling, not exact)."""
    models = comparison_models(p["seed"])
    domain = (f"every string of length <= 5 at p in {{1, inf}} on {len(models)} Delta = 1 models (zoo + 4 "
              f"random integer-table models, seed {p['seed']})")
    out = counts_against_forward(models, 5)
    if (bad := out.mismatch) is not None:
        return fails(Method.EXACT if bad.exact else Method.SAMPLED,
                     f"{bad.model}: {''.join(bad.string)} at p = {bad.bits}: {bad.forward} vs {bad.counts}",
                     domain=domain, residual="".join(bad.string))
    method = Method.SAMPLED if out.rounded else Method.ENUMERATION
    return holds(method, domain, count=out.cases,
                 detail="counts-based output equals the forward pass (exact; mpmath at 60 digits within "
                        "1e-40 where terms are irrational)")


def floor_step() -> list[Any]:
    """r - 1 < floor(r) <= r, the step used 'repeatedly throughout the proof': floor(r) = r - frac(r) with
    0 <= frac(r) < 1."""
    r = sp.Symbol("r", real=True)
    return [sp.frac(r) >= 0, sp.frac(r) < 1, sp.frac(r).rewrite(sp.floor) - (r - sp.floor(r))]


def eq1_lower() -> sp.Expr:
    """((n/|A_f|) tau/eps - 1)/(tau/eps) = n/|A_f| - eps/tau (eq. (1), left)."""
    return sp.simplify((r_ * tau_ / eps_ - 1) / (tau_ / eps_) - (r_ - eps_ / tau_))


def eq1_upper() -> sp.Expr:
    """r/(1 - u) <= r + 2u for r <= 1, u = |S_f| eps/tau <= 1/2: (r + 2u)(1 - u) - r = u (2 - r - 2u) >= 0."""
    return sp.expand((r_ + 2 * u_) * (1 - u_) - r_ - u_ * (2 - r_ - 2 * u_))


def s5_printed(p: Mapping[str, Any]) -> Evidence:
    """S5 against n_s/|A_g| with the constant of eq. (1) at the eps^2 scale (2|Sigma| eps^2/tau): the
    paper prints O(eps^2/tau) 'by roughly the same logic which we used to deduce (1)', no constant."""
    f, g, x, tau, eps = _s5_instance()
    c = cz.build_z(f, g, x, tau, eps)
    fc = cz.floor_claims(c, x, tau, eps, 2)
    s = _s(p)
    dev = share_deviation(c, x.counts(), c.Ag.size)
    domain = "|Sigma| = 2, tau = 2, eps = 1/4, n = (a: 240, b: 760), f attends a, g attends a, b"
    detail = (f"case {c.case}; the shares of S_g \\ S_f sum to 1 - |A_f cap A_g|/|A_g|, off by up to eps; "
              f"random instances: {s.decided.get('S5', 0)} decided, failure {s.failures.get('S5', 'none')}")
    if fc["S5"] is None:
        return undecided(f"S5 not decided on the instance (case {c.case})", method=Method.EXACT,
                         domain=domain, count=1)
    if fc["S5"] is False:
        return fails(Method.EXACT, f"m_b/sum m = 1 vs n_b/|A_g| = 19/25, deviation {dev} > 2|Sigma| "
                     "eps^2/tau = 1/8", domain=domain, count=1, residual=str(dev), detail=detail)
    return holds(Method.EXACT, domain, count=1, residual=str(dev), detail=detail)


def s5_corrected(p: Mapping[str, Any]) -> Evidence:
    """S5 against n_s/|A_g \\ A_f| (the shares S_g \\ S_f renormalized): O(eps^2/tau), constant 2|Sigma|."""
    domain = (f"the C2 instances among the printed one and 40 seeded ones (seed {p['seed'] + 1}), rho = "
              "|A_f cap A_g|/|A_g| near eps; exact Fractions")
    out = renormalized_shares([_s5_instance()] + near_eps_instances(p["seed"] + 1))
    rows = out.deviations
    if out.failure is not None:
        sig, tau_i, eps_i, dev = out.failure
        return fails(Method.EXACT, f"|Sigma| = {sig}, tau = {tau_i}, eps = {eps_i}: deviation {dev}",
                     domain=domain, residual=str(dev))
    if not rows:
        return undecided("no C2 instance", method=Method.SAMPLED, domain=domain, count=0)
    return holds(Method.SAMPLED, domain, count=len(rows), residual="0",
                 detail=f"|m_s/sum m - n_s/|A_g \\ A_f|| <= 2|Sigma| eps^2/tau on each (max {max(rows)})")


def z_hardmax(p: Mapping[str, Any]) -> Evidence:
    """Part D item 11: is z (|z| = O(tau/eps^2)) in the hardmax regime, as the proof's g(z), f(z) assume?
    The flush decisions are exact; the flushed outputs of z are mpmath values at 60 digits."""
    s = _s(p)
    n = sum(s.cases.values())
    domain = f"the z of every instance: {_scope(s)}, p = {p['p']}"
    detail = (f"|z| < 2^(p/gamma) on {s.z_below_threshold} of {n} instances; the flushed forward pass of z "
              f"is not a hardmax on {s.z_not_hardmax} of them and its output differs from the hardmax value "
              f"the proof uses on {s.z_output_changed}")
    if s.z_output_changed:
        return fails(Method.SAMPLED, s.z_example, domain=domain, residual=str(s.z_output_changed),
                     detail=detail)
    return holds(Method.SAMPLED, domain, count=n, residual="0", detail=detail)


def f_prefix_nonempty(p: Mapping[str, Any]) -> Evidence:
    """Part D item 13: the f-prefix of z is non-empty whenever A_f is (outside the printed condition
    |S_f| eps/tau <= 1/2)."""
    f = table_model([[0] * 6] * 6, [0, 0], [[int(i == j) for j in range(6)] for i in range(6)], [], [], [],
                    [[1, 0, 0, 0, 0, 0]], "uniform6")
    x = count_string({t: 100 for t in "abcdef"}, "bb")
    c = cz.build_z(f, f, x, 1, Fraction(1, 2))
    fx, fz = cz.hard_out(f, x)[0], cz.hard_out(f, c.z)[0]
    s = _s(p)
    domain = ("|Sigma| = 6 tokens all attended, tau = 1, eps = 1/2 (|S_f| eps/tau = 3 > 1/2: outside 'eps "
              "small enough'), n_s = 100 each")
    detail = (f"f(x) = {fx}, f(z) = {fz}; inside the condition S1 gives sum m >= tau/(2 eps) > 0 (S1 held "
              f"on {s.decided.get('S1', 0)} instances): the condition is a hidden eps <= tau/(2|Sigma|)")
    if sum(c.f_part.values()) == 0:
        return fails(Method.EXACT, f"every m_s = floor(100/600 * 2) = 0, z = its suffix 'bb' ({c.case})",
                     domain=domain, count=1, residual=f"{fx - fz}", detail=detail)
    return holds(Method.EXACT, domain, count=1, residual=f"{fx - fz}", detail=detail)


def suffix_tau(p: Mapping[str, Any]) -> Evidence:
    """Part D item 9: do tau-prefix counts and a tau-suffix of tau positions determine f(x)?"""
    m = table_model([[0, 0], [0, 0]], [0, 1], [[1, 0], [0, 1]], [], [], [], [[1, 0]], "offset-bias")
    x1, x2 = ("a", "b", "a"), ("b", "a", "a")
    o1, o2 = evaluate(m, x1, 1).out[0], evaluate(m, x2, 1).out[0]
    domain = "tau = 1, phi = (0, 1), p = 1: the strings aba and baa (equal counts before their last position)"
    detail = ("the key at offset tau carries phi(tau), so the suffix must hold tau + 1 positions (offsets "
              "0..tau); with tau + 1 the counts are lossless (claim 'counts-based evaluation')")
    if o1 != o2:
        return fails(Method.EXACT, f"equal counts before the last tau = 1 position and equal last position, "
                     f"yet f = {o1} vs {o2}", domain=domain, count=1, residual=f"{o1} vs {o2}", detail=detail)
    return holds(Method.EXACT, domain, count=1, residual="0", detail=detail)


def lipschitz_step(p: Mapping[str, Any]) -> Evidence:
    """Part D item 8: ||g(x) - g(z)|| <= Lip(MLP_g) ||avg_x - avg_z|| + O(L eps) with L of the MLP only."""
    f, g, x, tau, eps = _s5_instance()
    c = cz.build_z(f, g, x, tau, eps)
    gx, gz = cz.hard_out(g, x)[0], cz.hard_out(g, c.z)[0]
    s = _s(p)
    domain = "the S5 instance (|Sigma| = 2, tau = 2, eps = 1/4) with g without an MLP (Lip(MLP_g) = 0, L = 0)"
    detail = (f"the residual path Y and U carry the attention average, so the step needs ||U|| (1 + ||B||_F "
              f"||A||_F); random instances: the MLP-only bound fails on {s.lip_mlp_only_fails}, "
              f"||U||_F (1 + ||A||_F ||B||_F) on {s.lip_full_fails} (float64 with 1e-9 slack)")
    if gx != gz:
        return fails(Method.EXACT, f"g(x) = {gx}, g(z) = {gz} while the printed bound is 0", domain=domain,
                     count=1, residual=str(gx - gz), detail=detail)
    return holds(Method.EXACT, domain, count=1, residual="0", detail=detail)


def case3_literal(p: Mapping[str, Any]) -> Evidence:
    """Part D item 10: the printed premise of case 3, '|A_f| >= tau/eps and |A_f| <= |Sigma|'."""
    s = _s(p)
    n3 = s.cases.get("C3", 0)
    domain = f"the C3 instances among {_scope(s)}"
    detail = (f"|A_f| <= |Sigma| holds on {s.c3_literal_premise} of {n3} C3 instances (incompatible with "
              f"|A_f| > tau/eps once tau/eps >= |Sigma|); read as |S_f| <= |Sigma| the bound n_s* >= "
              f"tau/(|Sigma| eps) is S7, which holds on {s.decided.get('S7', 0)} instances; 's in A_f', "
              "'s in A_g \\ A_f' read as S_f, S_g \\ S_f (positions have no counts n_s)")
    if not n3:
        return undecided("no C3 instance", method=Method.SAMPLED, domain=domain, count=0)
    if s.c3_literal_premise < n3:
        return fails(Method.EXACT, f"|A_f| > |Sigma| on {n3 - s.c3_literal_premise} of {n3} C3 instances",
                     domain=domain, count=n3, residual=f"{s.c3_literal_premise}/{n3}", detail=detail)
    return holds(Method.SAMPLED, domain, count=n3, residual=f"{s.c3_literal_premise}/{n3}", detail=detail)


def delta_reduction(p: Mapping[str, Any]) -> Evidence:
    """Part D item 14: after the (token, position mod Delta) reduction, is z realizable without a filler?"""
    trials = 200
    domain = (f"{trials} seeded Delta = 2 instances (seed {p['seed'] + 2}): uniform attention over 6 tokens "
              "(every (token, residue) attended: no filler), tau in 1..3, eps = 1/k for k in 10..59")
    bad = residue_imbalance(p["seed"] + 2, trials)
    if bad is not None:
        s0, s1 = bad.residue0, bad.residue1
        return fails(Method.EXACT, f"trial {bad.trial}: reduced counts {bad.counts}, tau = {bad.tau}, eps = "
                     f"{bad.eps}: floors give {s0} tokens of residue 0 and {s1} of residue 1, so no string "
                     "realizes z's prefix (residues alternate)", domain=domain, residual=f"{s0} vs {s1}",
                     detail="the reduced alphabet has Delta |Sigma| = 12 tokens, which enter eq. (1)'s "
                            "constant 2|Sigma| eps/tau")
    return holds(Method.SAMPLED, domain, count=trials, residual="0",
                 detail="residue counts balanced within 1 on every instance")


def monotone_in_eps() -> sp.Expr:
    """Sec. 5 (ii): 'the value of this N increases monotonically as eps increases': the sign of
    d/deps (tau Delta L^2/eps^2)."""
    return sp.diff(tau_ * Delta_ * L_**2 / eps_**2, eps_) > 0


def conclusion(p: Mapping[str, Any]) -> Evidence:
    """The declared reading on the variant's concrete pair (agreement up to N exactly, search beyond)."""
    out = decide(p["variant"], p["N"], p["seed"])
    tried = int(out.effort.split(" ", 1)[0])  # variants.decide: "<candidates> longer strings ..."
    domain = f"the pair of variant '{p['variant']}' at N = {p['N']}: {out.effort}"
    if out.found:
        _, _, bits = build_pair(p["variant"], p["N"])
        return fails(Method.INTERVAL if bits is None else Method.EXACT, out.how, domain=domain,
                     residual=out.witness["gap_lower"])
    return holds(Method.SEARCH, domain, count=tried, residual="0", detail=out.how)


def control_z_short(p: Mapping[str, Any]) -> Evidence:
    """Control: |z| <= tau + 1 + tau/eps (S11 with eps^2 replaced by eps)."""
    s = _s(p)
    worst = s.maxima["|z| eps^2/tau"]
    n = sum(s.cases.values())
    domain = f"the z of every instance: {_scope(s)}"
    detail = "C2 adds about tau/eps^2 tokens, beyond tau + 1 + tau/eps"
    if worst > 1.5:
        return fails(Method.SAMPLED, f"max |z| eps^2/tau = {worst:.4g}", domain=domain,
                     residual=f"{worst:.4g}", detail=detail)
    return holds(Method.SAMPLED, domain, count=n, residual=f"{worst:.4g}", detail=detail)


#: S5 checked with an explicit constant (proofkit's reading; the paper prints O(eps^2/tau) only)
S5_NAME = "S5 with eq. (1)'s constant: |m_s/sum m - n_s/|A_g|| <= 2|Sigma| eps^2/tau"

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
                 "longer string searched", conclusion, reading="our reading"),
        Computed("counts-based evaluation equals the forward pass", "identification", "Sec. 3.1 (Delta = 1)",
                 "prefix counts plus the last tau + 1 tokens determine the output", counts_equal_forward,
                 reading="our reading"),
        Computed("S1, S2 = eq. (1): f-part floor inequalities", "proof-step", "App. A.1, eq. (1)",
                 "tau/eps - |S_f| <= sum m <= tau/eps; n_s/|A_f| - eps/tau <= m_s/sum m <= n_s/|A_f| + "
                 "2|S_f| eps/tau", _floor_claim("S1", "S2"), reading="as printed"),
        Computed("S4, S8: case 2/3 totals", "proof-step", "App. A.1, cases 2 and 3",
                 "C2: sum m >= (|A_g \\ A_f|/|A_g|) tau/eps^2 - |S_g \\ S_f| and <= tau/eps^2; "
                 "C3: <= tau/eps^2",
                 _floor_claim("S4", "S8"), reading="as printed"),
        Computed("S7, S9: case 3 ratio bounds", "proof-step", "App. A.1, case 3",
                 "n_s* >= tau/(|Sigma| eps), m_s*/n_s* bounds, m_s/m_s* vs n_s/n_s* (case 3's position "
                 "sets A_f, A_g read as the token sets S_f, S_g)", _floor_claim("S7", "S9"),
                 reading="our reading"),
        Computed("S11: |z| <= tau + 1 + tau/eps + tau/eps^2 (C0: 2 tau/eps + tau + 1)", "proof-step",
                 "App. A.1, 'the length of z is O(tau/eps^2)'", "explicit length bound assembled from the "
                 "printed pieces (suffix of tau + 1 positions)", _floor_claim("S11", "C0"),
                 reading="our reading"),
        Computed(S5_NAME, "proof-step", "App. A.1, case 2 ('by roughly the same logic')",
                 "the printed O(eps^2/tau) read with eq. (1)'s constant 2|Sigma| at the eps^2 scale",
                 s5_printed, reading="our reading"),
        Computed("S5 against n_s/|A_g \\ A_f|", "corrected", "derived here",
                 "the shares renormalized over S_g \\ S_f are within 2|Sigma| eps^2/tau", s5_corrected,
                 reading="corrected"),
        Computed("S3: ||prop_f(x) - prop_f(z)||_1 <= (2|Sigma|^2/tau + 4(tau+1)/tau) eps", "proof-step",
                 "App. A.1, f-part (declared constant)", "measured", _measured("S3", "prop_f/eps", S3_TEXT),
                 reading="our reading"),
        Computed(f"S6/S10: ||prop_g(x) - prop_g(z)||_1 <= {C_G} eps", "proof-step",
                 "App. A.1, cases 2 and 3 (declared constant)", "measured",
                 lambda p: _merge(_measured("S6", "prop_g/eps (C2)", f"{C_G} eps")(p),
                                  _measured("S10", "prop_g/eps (C3)", f"{C_G} eps")(p)),
                 reading="our reading"),
        SymbolicStep("floor step r - 1 < floor(r) <= r", "proof-step", "App. A.1", "used throughout",
                     floor_step, reading="as printed"),
        SymbolicStep("eq. (1) lower: ((r tau/eps) - 1)/(tau/eps) = r - eps/tau", "proof-step",
                     "App. A.1, eq. (1)",
                     "identity", eq1_lower, reading="as printed"),
        SymbolicStep("eq. (1) upper: (r + 2u)(1 - u) - r = u(2 - r - 2u)", "proof-step", "App. A.1, eq. (1)",
                     "r/(1-u) <= r + 2u for r <= 1, u <= 1/2", eq1_upper, reading="as printed"),
        Computed("z is in the hardmax regime (Part D item 11)", "identification", "App. A.1 (implicit)",
                 "f(z), g(z) are hardmax values (what the proof's averages for f(z), g(z) assume; not "
                 "stated in the paper)", z_hardmax, reading="our reading"),
        Computed("the f-prefix of z is non-empty (Part D item 13)", "identification", "App. A.1, f-part",
                 "m_s = floor(n_s tau/(|A_f| eps)) leaves some token, without the printed proviso "
                 "|S_f| eps/tau <= 1/2", f_prefix_nonempty, reading="our reading"),
        Computed("a tau-suffix of tau positions suffices (Part D item 9)", "identification", "App. A.1",
                 "tau-prefix counts and the last tau tokens determine f (the undefined 'tau-suffix' read "
                 "as tau positions)", suffix_tau, reading="our reading"),
        Computed("Lipschitz step with the MLP's constant only (Part D item 8)", "identification", "App. A.1",
                 "||f(x) - f(z)|| <= Lip(MLP_f) ||avg_x - avg_z|| + O(L eps)", lipschitz_step,
                 reading="as printed"),
        Computed("case 3 premise as printed: |A_f| >= tau/eps and |A_f| <= |Sigma| (Part D item 10)",
                 "identification", "App. A.1, case 3", "literal", case3_literal, reading="as printed"),
        Computed("Delta reduction realizable without a filler (Part D item 14)", "identification",
                 "App. A.1, 'Including positional embedding vectors'", "reduced z spelled as a string "
                 "(the printed reduction read as needing no filler token)", delta_reduction,
                 reading="our reading"),
        SymbolicStep("Sec. 5 (ii): N increases as eps increases (Part D item 16)", "identification", "Sec. 5",
                     "d/deps (tau Delta L^2/eps^2) > 0", monotone_in_eps, reading="as printed"),
        Computed("control: |z| <= tau + 1 + tau/eps", "control", "deliberately false",
                 "S11 with eps^2 -> eps", control_z_short, reading="proxy"),
        *WALK_CLAIMS,
    ),
    expect={
        "declared reading: |f - g| <= delta + sqrt(tau Delta L'^2/N) beyond N": Verdict.CONFIRMED,
        "counts-based evaluation equals the forward pass": Verdict.CONFIRMED,
        "S1, S2 = eq. (1): f-part floor inequalities": Verdict.CONFIRMED,
        "S4, S8: case 2/3 totals": Verdict.CONFIRMED,
        "S7, S9: case 3 ratio bounds": Verdict.CONFIRMED,
        "S11: |z| <= tau + 1 + tau/eps + tau/eps^2 (C0: 2 tau/eps + tau + 1)": Verdict.CONFIRMED,
        S5_NAME: Verdict.REFUTED,
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
        **WALK_EXPECT,
    },
    falsifier=BoundFalsifier(),
    proofs=PROOFS,
    sentences=SENTENCES,
)


def _merge(a: Evidence, b: Evidence) -> Evidence:
    """Two measured claims (C2: S6, C3: S10) as one: a failure of either refutes, an undecided one leaves
    the pair undecided, else both hold on their instances."""
    for ev in (a, b):
        if ev.outcome == "fails":
            return ev
    for ev in (a, b):
        if ev.outcome == "undecided":
            return ev
    return holds(Method.SAMPLED, f"C2: {a.domain.text} | C3: {b.domain.text}",
                 count=(a.domain.count or 0) + (b.domain.count or 0), residual=f"{a.residual}, {b.residual}",
                 detail=f"C2: {a.detail} | C3: {b.detail}")
