"""AM24.T3: a pair-sum model with a general position-wise readout, omega(sum_{j<i} psi(x_i, x_j)) with
omega a C^1 diffeomorphism (Assumption 4), trained on lengths <= T >= 3 with pair supports [0,1]^{2n}
and Assumption 7, length- and compositionally generalizes (Ahuja & Mansouri, Theorem 3 and its proof,
eqs. 37-41; the remark after it: no residual / no phi(x, x) term, multiple heads, eq. 42; "the same
technique extends Theorem 1 to position-wise non-linearities").

Everything here is exact (sympy): scalar tokens and pair maps (n = k = 1), rho = id (a gauge: only
a = omega^-1 o rho matters), learners built in closed form (proofkit.families.readout):

* witness search (proofkit.families.readout_search): seven closed-form learner families (offset,
  analytic sinh, hinge and plateau readouts beyond the training sums, a compositional hinge on a cut
  support, a pair-map bump off a triangular pair support, the pair part of a truth outside the class);
  zero training risk is proved exactly on the whole support and the gap is an exact number.
* corrected statement: a = omega^-1 o rho a polynomial of degree <= D; zero risk at lengths 1..3 is a
  polynomial identity on a set with interior, solved in rationals; every solution is linear (affine with
  the diagonal) and exact at further lengths.

Assumption 7 as printed (supp[phi(X_1, X_2), phi(X_1, X_3)] = R^2) holds here only for the unbounded
pair map phi(a, b) = (1 + a) logit(b) on (0,1)^2 (the default): there Cauchy's equation holds on all of
R^2 and the paper's proof goes through.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp
from sympy import Eq, Symbol

from proofkit import (
    R_ALL,
    Assumption,
    Computed,
    Evidence,
    Injective,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Proof,
    Realizable,
    RegularClosed,
    Step,
    SymbolicStep,
    T_len,
    Theorem,
    Verdict,
    fails,
    forall,
    holds,
    param_supervision,
    param_T,
    predicate,
    supp,
    undecided,
)
from proofkit.families import (
    CONCLUSION,
    FAMILY_COUNT,
    ReadoutFalsifier,
    cauchy_derivative,
    cauchy_integers,
    cauchy_odd,
    cauchy_rationals,
    cauchy_zero,
    generalizes_at,
    head_not_identified,
    hinge_derivative_residual,
    polynomial_kernel,
    search,
    searched,
    set_hinge_witness,
    square_is_additive,
    supervised,
    two_heads_sum_only,
    vector_generalizes_at,
    vector_polynomial_kernel,
)

i_pos, j_pos = Symbol("i", integer=True, positive=True), Symbol("j", integer=True, positive=True)
X_le_i, pair_cube = Symbol("X_{1:i}"), Symbol("[0,1]^{2n}")
omega_s, rho_s = Symbol("omega"), Symbol("rho")
C1Diffeo = predicate("C1Diffeo", "a continuously differentiable bijection with a continuously "
                     "differentiable inverse (Assumption 4)")
PairSumSupportIsR2k = predicate("PairSumSupportIsR2k", "the support of [phi(X_1, X_2), phi(X_1, X_3)] "
                                "is R^{2k} (Assumption 7, second sentence)")
Generalizes = predicate("Generalizes", "every zero-risk learner has h = f at every length t >= 1 with "
                        "tokens in the token support (length and compositional generalization)")


#: the corrected and remark claims decide polynomial a = omega^-1 o rho of degree <= D only (the parameter
#: ``degree``): their names say so, and their domain names the value of D
CORRECTED = "corrected T3: polynomial a = omega^-1 o rho of degree <= D, causal keys, T >= 3 (exact)"
VECTOR = "corrected T3, vector pair maps k = 2: polynomial a: R^2 -> R^2 of degree <= D (exact)"
REMARK_DIAG = "remark: diagonal j <= i, polynomial a of degree <= D (exact)"
REMARK_DIAG_RES = "remark: diagonal j <= i and residual, polynomial a of degree <= D (exact)"
REMARK_RES = "remark: residual without diagonal, polynomial a of degree <= D (exact)"
EXT_POLY = ("extension of Theorem 1: deep sets omega(sum psi(x_j)), polynomial a of degree <= D, T >= 2 "
            "(exact)")


# ----------------------------------------------------------------------------- computed claims
def _decide_search(p: Mapping[str, Any]) -> Evidence:
    """Evidence from the exact witness search: a witness (zero risk proved exactly on the whole training
    support, an exact non-zero gap) refutes, described without the search's method prefix (the engine words
    the proof); an empty search is a search, never a proof."""
    out, domain = search(p), searched(p)
    if out.found:
        witness = out.how.removeprefix("exact: ")
        return fails(Method.EXACT, witness, domain=domain, residual=out.witness["gap"])
    proof = ""
    if p["pair_map"] == "logit" and p["supervision"] == "ALL" and p["T"] >= 3 and p["keys"] == "causal":
        proof = ("; and the paper's proof applies: phi = (1 + a) logit(b) makes [phi(x, y), phi(x, z)] "
                 "cover R^2, so a = omega^-1 o rho is additive on R^2 and continuous, hence linear "
                 "(steps S1-S6; the continuity step is not machine-checked)")
    return holds(Method.SEARCH, domain, count=FAMILY_COUNT, residual="no witness", detail=out.how + proof)


def polynomial_claim(keys: str, residual: bool, min_T: int) -> Callable[[Mapping[str, Any]], Evidence]:
    """Evidence for a corrected statement restricted to polynomial a = omega^-1 o rho of degree <= D
    (the parameter ``degree``): the zero-risk identities at lengths 1..3 solved exactly for every such
    a, then h = f checked exactly (symbolic tokens) at lengths 1..T + 5 for every solution."""
    def run(p: Mapping[str, Any]) -> Evidence:
        L, D = supervised(p), p["degree"]
        need = set(range(1, min_T + 1))
        if not need <= set(L):
            return undecided("not applicable: the corrected statement needs labels at lengths "
                             f"{sorted(need)}; supervised {L}", method=Method.EXACT,
                             domain=f"polynomial a of degree <= {D}: nothing computed")
        used = [t for t in L if t <= 3]
        k = polynomial_kernel(D, keys, residual, used)
        top = p["T"] + 5
        domain = (f"every polynomial a = omega^-1 o rho of degree <= {D} with zero risk at lengths {used} "
                  f"(the rational solutions of {k.equations} coefficient equations), lengths 1..{top}, "
                  "symbolic tokens")

        def exact_at(t: int) -> str | None:
            gap = generalizes_at(k, keys, residual, t)
            return None if gap == 0 else (
                f"length {t}: the zero-risk polynomials a(s) = {k.general} of degree <= {D} give a learned "
                f"minus true pre-activation {sp.sstr(gap)}")

        return forall(range(1, top + 1), exact_at, method=Method.EXACT, domain=domain,
                      residual=f"a(s) = {k.general}",
                      detail=f"the zero-risk polynomials a of degree <= {D} are a(s) = {k.general} "
                             f"(dimension {k.dimension}); every such learner has h = f exactly at lengths "
                             f"1..{top} (the residual polynomial is 0) and, being affine, at every length "
                             f"(sum of affine terms; argued, not computed). Covers polynomial a of degree "
                             f"<= {D} only; for real-analytic a: step S8 plus the identity theorem")
    return run


def vector_claim(p: Mapping[str, Any]) -> Evidence:
    """Corrected statement for vector pair maps (k = 2): every polynomial a: R^2 -> R^2 of degree <= D
    with zero risk at lengths 1..3 is linear, a(s) = M s, and exact at lengths 1..T + 5."""
    D = p["degree"]
    if not {1, 2, 3} <= set(supervised(p)):
        return undecided("not applicable: the corrected statement needs labels at lengths [1, 2, 3]; "
                         f"supervised {supervised(p)}", method=Method.EXACT,
                         domain=f"polynomial a: R^2 -> R^2 of degree <= {D}: nothing computed")
    k = vector_polynomial_kernel(D, 2)
    top = p["T"] + 5
    general = sp.sstr(list(k.general))
    domain = (f"every a: R^2 -> R^2 with components polynomials of total degree <= {D} in (s1, s2), with "
              f"a(0) = 0 and Cauchy's equation in R^2 on an open set (the rational solutions of "
              f"{k.equations} coefficient equations), lengths 1..{top}, symbolic tokens")

    def exact_at(t: int) -> str | None:
        gap = vector_generalizes_at(k, t)
        return None if gap == sp.zeros(2, 1) else (
            f"length {t}: the zero-risk maps a(s) = {general} give sum_j a(alpha_j) - a(sum_j alpha_j) "
            f"= {sp.sstr(list(gap))}")

    return forall(range(1, top + 1), exact_at, method=Method.EXACT, domain=domain, residual=general,
                  detail=f"the zero-risk maps of degree <= {D} are a(s) = {general} ({len(k.free)} free "
                         f"coefficients: a linear map M); every such learner has sum_j a(alpha_j) = "
                         f"a(sum_j alpha_j) exactly at lengths 1..{top} and, being linear, at every length "
                         f"(argued, not computed). Covers polynomial a of degree <= {D} only")


def _deep_sets_hinge(p: Mapping[str, Any]) -> Evidence:
    """Deep sets omega(sum_{j<=t} psi(x_j)), phi(x) = x on [0,1], rho = id: the hinge at s0 = T."""
    L = supervised(p)
    w = set_hinge_witness(L)
    s0, t, gap = w.s0, len(w.tokens), sp.sstr(w.gap)
    domain = (f"the hinge learner omega(s) = s + max(s - {s0}, 0)^3, psi = phi = x, supervised lengths {L}, "
              f"at length {t} with every token 1")
    if not w.nonzero:
        return undecided("the hinge learner gives no certified gap", method=Method.EXACT, domain=domain)
    return fails(Method.EXACT,
                 f"omega(s) = s + max(s - {s0}, 0)^3 (a C^2 diffeomorphism, S9), psi = phi = x: zero risk at "
                 f"lengths {L} (every training sum is <= {s0}, where the hinge is 0); at length {t} with "
                 f"every token 1: h - f = {gap}", domain=domain, residual=gap)


# ----------------------------------------------------------------------------- sympy steps
al, z, y = sp.symbols("alpha z y", real=True)
rho_f, om_f = sp.Function("rho"), sp.Function("omega")
A_c = Symbol("A", nonzero=True)


def substitution():
    """S6 (41): psi = A phi and omega(z) = rho(z / A) give omega(sum psi) = rho(sum phi) (3 terms)."""
    ph = sp.symbols("phi1:4", real=True)
    return om_f(A_c * sum(ph)).subs(om_f(A_c * sum(ph)), rho_f(A_c * sum(ph) / A_c)) - rho_f(sum(ph))


def sinh_closed_form():
    """S7: sinh(asinh y + asinh z) = y sqrt(1 + z^2) + z sqrt(1 + y^2): omega = sinh, psi = asinh phi is
    not additive at length 3."""
    return sp.simplify(sp.expand_trig(sp.sinh(sp.asinh(y) + sp.asinh(z)))
                       - (y * sp.sqrt(1 + z**2) + z * sp.sqrt(1 + y**2)))


def hinge_diffeo():
    """S9: omega(s) = s + max(s - 2, 0)^3 has omega'(s) = 1 + 3 max(s - 2, 0)^2 (>= 1) for every s."""
    return hinge_derivative_residual(sp.Integer(2))


def logit_key_increasing():
    """S11: d/db (1 + a) log(b / (1 - b)) = (1 + a) / (b (1 - b)) (> 0 on [0,1] x (0,1)): phi(q, .) is a
    strictly increasing bijection of (0,1) onto R."""
    a, b = sp.symbols("a b", positive=True)
    return sp.simplify(sp.diff((1 + a) * sp.log(b / (1 - b)), b) - (1 + a) / (b * (1 - b)))


def a7_literal_holds_for_logit():
    """S10: phi(0, sigma(alpha)) = logit(sigma(alpha)) = alpha for every real alpha: the logit pair map
    reaches every (alpha, beta) with query 0, so Assumption 7 as printed holds for it."""
    sig = 1 / (1 + sp.exp(-al))
    return sp.simplify(sp.expand_log(sp.log(sp.simplify(sig / (1 - sig))), force=True) - al)


# ----------------------------------------------------------------------------- theorem
def _variant(**kw: Any) -> Callable[[Mapping[str, Any]], Evidence]:
    """The witness search at these parameters with ``kw`` fixed (a variant of the theorem)."""
    return lambda p: _decide_search({**p, **kw})


THEOREM = Theorem(
    id="AM24.T3",
    title="General position-wise readout omega(sum_{j<i} psi(x_i, x_j)), omega a C^1 diffeomorphism "
          "(Assumption 4): generalizes as printed (A7 literal); fails for bounded pair maps; corrected "
          "with a real-analytic (here: polynomial) omega^-1 o rho",
    paper=PaperRef("Ahuja & Mansouri 2024 (arXiv 2402.04875v1)",
                   "Sec. 2.2 / App. A, Theorem 3, Assumptions 4 and 7, remark after the proof",
                   "(37)-(42)", "ahuja2024provable"),
    latex_names={X_le_i: r"X_{\leq i}", pair_cube: r"[0,1]^{2n}"},
    conclusion=Generalizes(Symbol("h"), Symbol("f")),
    params=ParamSpace((
        param_T(3), param_supervision(),
        Param("pair_map", str, "logit", "true pair map phi (scalar tokens): logit = (1 + a) log(b/(1-b)) "
              "on (0,1)^2 (unbounded: Assumption 7 as printed holds); bounded = b on [0,1]^2 (every "
              "continuous phi on the compact cube is bounded: Assumption 7 fails)",
              choices=("logit", "bounded")),
        Param("readout", str, "C1", "class of omega: C1 (any C^1 diffeomorphism, as printed), analytic "
              "(real-analytic omega, rho: the correction) or continuous (any continuous omega, not "
              "necessarily injective: Assumption 4 dropped)", choices=("C1", "analytic", "continuous")),
        Param("support", str, "cube", "training support (scalar tokens): cube (iid), cut (positions "
              "1..T-1 in {sum <= T - 3/2}, later ones iid; every pair marginal [0,1]^2 for T >= 4), sorted "
              "(non-decreasing sequences: pair support the triangle {key <= query}), cutseg (cut plus the "
              "segment {(s, ..., s)} to the corner: not regular closed)",
              choices=("cube", "cut", "sorted", "cutseg")),
        Param("truth", str, "pair", "true model: pair (rho(sum phi), in the class) or T-key (plus "
              "e_T(x_1, ..., x_(t-1)), a T-key interaction: outside the class)", choices=("pair", "T-key")),
        Param("keys", str, "causal", "pair terms: causal (j < i, Assumption 4) or diagonal (j <= i, the "
              "remark)", choices=("causal", "diagonal")),
        Param("residual", bool, False, "a residual + x_i inside omega (the remark)"),
        Param("degree", int, 5, "degree D of the polynomial a = omega^-1 o rho in the corrected claims",
              min=1, max=8),
    )),
    assumptions=(
        Assumption("A4.diffeo", "omega, rho are C^1 bijections with C^1 inverses",
                   lambda p: p["readout"] != "continuous", {"readout": "continuous"},
                   note="dropped to any continuous omega; with the logit map zero risk at length 2 "
                        "already makes omega a homeomorphism (no counterexample); with phi = b the "
                        "plateau omega = min(s, s0) fails",
                   predicate=sp.And(C1Diffeo(omega_s), C1Diffeo(rho_s), Injective(omega_s))),
        Assumption("A4.causal", "the pair sum runs over j < i (no phi(x_i, x_i) term, no residual)",
                   lambda p: p["keys"] == "causal" and not p["residual"], {"keys": "diagonal"},
                   note="the remark after the proof: the authors believe the result extends",
                   predicate=Eq(Symbol("J(i)"), Symbol("{j < i}"), evaluate=False)),
        Assumption("H0.realizable", "f = rho(sum_{j<i} phi(x_i, x_j)) is in the class",
                   lambda p: p["truth"] == "pair", {"truth": "T-key"},
                   note="the statement omits 'f in H'; dropped to f + e_T(keys), a T-key interaction "
                        "(outside the class, shown exactly), whose pair part has zero risk",
                   predicate=Realizable(Symbol("f"), Symbol("H"))),
        Assumption("H1.pair-support", "supp(X_i, X_j) = [0,1]^{2n} for all i != j",
                   lambda p: p["support"] != "sorted" and not (p["support"] in ("cut", "cutseg")
                                                               and p["T"] < 4),
                   {"support": "sorted"},
                   note="dropped to non-decreasing sequences (pair support {key <= query}); the cut "
                        "supports keep every pair marginal [0,1]^2 for T >= 4",
                   predicate=sp.Implies(sp.Ne(i_pos, j_pos), Eq(supp(Symbol("(X_i, X_j)")), pair_cube,
                                                                evaluate=False))),
        Assumption("A7.regular-closed", "supp(X_{<=i}) is regular closed for i <= T",
                   lambda p: p["support"] != "cutseg", {"support": "cutseg", "T": 4},
                   note="dropped to the cut support plus a segment to the corner (T = 4, pair marginals "
                        "still [0,1]^2): the proof uses values only, no counterexample",
                   predicate=sp.Implies(sp.Le(i_pos, T_len), RegularClosed(supp(X_le_i)))),
        Assumption("A7.pair-sums", "the support of [phi(X_1, X_2), phi(X_1, X_3)] is R^{2k}",
                   lambda p: p["pair_map"] == "logit", {"pair_map": "bounded"},
                   note="bounded = phi(a, b) = b: the pair-sum support is [0,1]^2 (interior, compact), "
                        "which is all any phi continuous on the cube can give",
                   predicate=PairSumSupportIsR2k(Symbol("phi"))),
        Assumption("ALL", "labels at every length 1..T (objective eq. 1)",
                   lambda p: p["supervision"] == "ALL", {"supervision": "ONLY"},
                   predicate=Eq(R_ALL(T_len), 0)),
        Assumption("T>=3", "labels up to length T >= 3 (Theorem 3)", lambda p: p["T"] >= 3, {"T": 2},
                   note="dropped to T = 2, the largest T it excludes", predicate=sp.Ge(T_len, 3)),
    ),
    setup=None,
    falsifier=ReadoutFalsifier(),
    claims=(
        Computed(CONCLUSION, "conclusion", "Theorem 3 (as printed, at these parameters)",
                 "every (omega, psi) of the class with zero risk at the supervised lengths has h = f at "
                 "length T + 1 (seven closed-form witness families, exact)", _decide_search),
        Computed(CORRECTED, "conclusion",
                 "Theorem 3 with A7 replaced by 'pair-sum support has interior' and omega^-1 o rho "
                 "polynomial (derived here, not in the paper)",
                 "a = omega^-1 o rho a polynomial of degree <= D (the parameter degree): zero risk at "
                 "lengths 1..3 gives a(alpha) + a(beta) = a(alpha + beta) on an open set => a linear => "
                 "h = f at every length", polynomial_claim("causal", False, 3), reading="corrected"),
        Computed("T3 with A7 replaced by a compact pair support (phi = b), C^1 omega: generalizes",
                 "identification", "Theorem 3 as intended (A7 is unsatisfiable for continuous phi)",
                 "every zero-risk learner generalizes when phi is bounded",
                 _variant(pair_map="bounded", readout="C1"), reading="our reading"),
        Computed("T3 compositional at fixed length: cut support (T = 4), phi = b, C^1 omega: generalizes",
                 "identification", "Theorem 3 (compositional generalization, Definition 2), A7 replaced by "
                 "a compact pair support",
                 "every zero-risk learner has h = f at length 4 on the product of token marginals",
                 _variant(support="cut", T=4, pair_map="bounded", readout="C1", truth="pair",
                          supervision="ALL", keys="causal", residual=False), reading="our reading"),
        Computed("T3 without the pair-support hypothesis (sorted sequences): generalizes",
                 "identification", "Theorem 3, hypothesis supp(X_i, X_j) = [0,1]^{2n} dropped (the paper "
                 "makes no claim without it)",
                 "every zero-risk learner generalizes on non-decreasing training sequences",
                 _variant(support="sorted", truth="pair"), reading="our reading"),
        Computed("T3 with any continuous omega (Assumption 4 dropped), logit map: generalizes",
                 "identification", "Theorem 3, Assumption 4 dropped",
                 "every zero-risk learner with a continuous (not necessarily injective) omega generalizes",
                 _variant(readout="continuous", pair_map="logit", support="cube", truth="pair",
                          supervision="ALL", keys="causal", residual=False, T=3), reading="our reading"),
        Computed(VECTOR, "identification", "Theorem 3 with k > 1 (derived here, not in the paper)",
                 "a: R^2 -> R^2 with polynomial components of degree <= D (the parameter degree): Cauchy's "
                 "equation in R^2 forces a linear => h = f at every length", vector_claim,
                 reading="corrected"),
        Computed("T3 at T = 2 (ALL), analytic omega: generalizes", "identification",
                 "Theorem 3 below its threshold T >= 3 (the paper makes no claim at T = 2)",
                 "every zero-risk learner generalizes at T = 2",
                 _variant(T=2, supervision="ALL", keys="causal", residual=False, readout="analytic"),
                 reading="our reading"),
        Computed(REMARK_DIAG, "identification",
                 "remark after the proof of Theorem 3 ('we believe the result continues to hold')",
                 "with the phi(x_i, x_i) term, every zero-risk polynomial a of degree <= D is affine and "
                 "generalizes", polynomial_claim("diagonal", False, 3), reading="our reading"),
        Computed(REMARK_DIAG_RES, "identification",
                 "remark after the proof of Theorem 3", "with phi(x_i, x_i) and + x_i, every zero-risk "
                 "polynomial a of degree <= D is affine and generalizes",
                 polynomial_claim("diagonal", True, 3), reading="our reading"),
        Computed(REMARK_RES, "identification",
                 "remark after the proof of Theorem 3", "with + x_i (j < i), length 1 forces a = id for "
                 "polynomial a of degree <= D: exact identification", polynomial_claim("causal", True, 3),
                 reading="our reading"),
        Computed("remark: diagonal j <= i, C^1 omega, bounded phi: generalizes", "identification",
                 "remark after the proof of Theorem 3 ('we believe the result continues to hold'), A7 "
                 "replaced by a compact pair support", "with the phi(x_i, x_i) term and a compact pair "
                 "support every zero-risk learner generalizes",
                 _variant(keys="diagonal", pair_map="bounded", readout="C1"), reading="our reading"),
        Computed(EXT_POLY,
                 "identification", "Sec. 2.2, 'the same proof technique extends Theorem 1'",
                 "Cauchy at length 2 => a linear => generalization (polynomial a of degree <= D)",
                 polynomial_claim("set", False, 2), reading="our reading"),
        Computed("extension of Theorem 1: deep sets, C^1 omega, bounded phi: generalizes", "identification",
                 "Sec. 2.2, 'the same proof technique extends Theorem 1'",
                 "every zero-risk deep-sets learner with a C^1 diffeomorphic readout generalizes",
                 _deep_sets_hinge, reading="our reading"),
        SymbolicStep("S1 a(0) = 0", "proof-step", "(40)", "a(0) + a(0) = a(0) => a(0) = 0", cauchy_zero),
        SymbolicStep("S2 a odd", "proof-step", "(40)", "a(alpha) + a(-alpha) = 0", cauchy_odd),
        SymbolicStep("S3 integer homogeneity", "proof-step", "after (40)", "a(p alpha) = p a(alpha)",
                     cauchy_integers),
        SymbolicStep("S4 rational homogeneity", "proof-step", "after (40)",
                     "a((p/q) alpha) = (p/q) a(alpha)", cauchy_rationals),
        SymbolicStep("S6 substitution at every length", "proof-step", "(41)",
                     "psi = A phi, omega(z) = rho(z/A) => omega(sum psi) = rho(sum phi)", substitution),
        SymbolicStep("S7 sinh(asinh y + asinh z) closed form", "identification", "T = 2 counterexample "
                     "(derived here)", "sinh(asinh y + asinh z) = y sqrt(1+z^2) + z sqrt(1+y^2)",
                     sinh_closed_form, reading="our reading"),
        SymbolicStep("S8 derivative of Cauchy's equation", "proof-step", "corrected statement (derived "
                     "here)", "a'(alpha) = a'(alpha + beta) = a'(beta) on the open set",
                     cauchy_derivative, reading="corrected"),
        SymbolicStep("S9 hinge readout is a diffeomorphism", "identification",
                     "counterexample (derived here)", "omega'(s) = 1 + 3 max(s - s0, 0)^2", hinge_diffeo,
                     reading="our reading"),
        SymbolicStep("S11 the logit pair map is strictly increasing in the key", "identification",
                     "Assumption 4 dropped (derived here)", "d/db (1 + a) log(b/(1-b)) = (1 + a)/(b (1 - b))",
                     logit_key_increasing, reading="our reading"),
        SymbolicStep("S10 A7 as printed holds for the logit pair map", "identification", "Assumption 7 "
                     "(derived here: the printed assumption is satisfiable)",
                     "logit(sigma(alpha)) = alpha", a7_literal_holds_for_logit, reading="our reading"),
        SymbolicStep("multi-head: h depends on psi1 + psi2 only (generalization carries over)",
                     "identification", "(42) and the prose around it",
                     "psi1 = A phi1 + g, psi2 = A phi2 - g => h = f", two_heads_sum_only,
                     reading="our reading"),
        SymbolicStep("multi-head: a zero-risk learner with psi1 != A phi1 exists", "identification",
                     "(42) and the prose around it", "per-head linear identification is not forced",
                     head_not_identified, reading="our reading"),
        SymbolicStep("control: a(s) = s^2 solves Cauchy's equation", "control", "deliberately false",
                     "alpha^2 + beta^2 = (alpha + beta)^2", square_is_additive, reading="proxy"),
    ),
    expect={
        CONCLUSION: Verdict.CONFIRMED,
        CORRECTED: Verdict.CERTIFIED,
        "T3 with A7 replaced by a compact pair support (phi = b), C^1 omega: generalizes": Verdict.REFUTED,
        "T3 compositional at fixed length: cut support (T = 4), phi = b, C^1 omega: generalizes":
            Verdict.REFUTED,
        "T3 without the pair-support hypothesis (sorted sequences): generalizes": Verdict.REFUTED,
        "T3 with any continuous omega (Assumption 4 dropped), logit map: generalizes": Verdict.CONFIRMED,
        VECTOR: Verdict.CERTIFIED,
        "T3 at T = 2 (ALL), analytic omega: generalizes": Verdict.REFUTED,
        REMARK_DIAG: Verdict.CERTIFIED,
        REMARK_DIAG_RES: Verdict.CERTIFIED,
        REMARK_RES: Verdict.CERTIFIED,
        "remark: diagonal j <= i, C^1 omega, bounded phi: generalizes": Verdict.REFUTED,
        EXT_POLY: Verdict.CERTIFIED,
        "extension of Theorem 1: deep sets, C^1 omega, bounded phi: generalizes": Verdict.REFUTED,
        "S1 a(0) = 0": Verdict.CERTIFIED,
        "S2 a odd": Verdict.CERTIFIED,
        "S3 integer homogeneity": Verdict.CERTIFIED,
        "S4 rational homogeneity": Verdict.CERTIFIED,
        "S6 substitution at every length": Verdict.CERTIFIED,
        "S7 sinh(asinh y + asinh z) closed form": Verdict.CERTIFIED,
        "S8 derivative of Cauchy's equation": Verdict.CERTIFIED,
        "S9 hinge readout is a diffeomorphism": Verdict.CERTIFIED,
        "S10 A7 as printed holds for the logit pair map": Verdict.CERTIFIED,
        "S11 the logit pair map is strictly increasing in the key": Verdict.CERTIFIED,
        "multi-head: h depends on psi1 + psi2 only (generalization carries over)": Verdict.CERTIFIED,
        "multi-head: a zero-risk learner with psi1 != A phi1 exists": Verdict.CERTIFIED,
        "control: a(s) = s^2 solves Cauchy's equation": Verdict.REFUTED,
    },
    proofs=(Proof("Theorem 3", "App. A.2", (
        Step("(37)", "omega(sum psi) = rho(sum phi), so sum psi = omega^-1 o rho (sum phi) =: a(sum phi)",
             why_not="zero risk made pointwise (Lemma 1) and the definition of a; the prose credits 'the "
                     "invertibility of rho' where omega^-1 is applied"),
        Step("(38)", "i = 2: psi(x, y) = a(phi(x, y))",
             why_not="(37) at i = 2, one term: a substitution, nothing to compute"),
        Step("(39)", "i = 3: a(phi(x, y)) + a(phi(x, z)) = a(phi(x, y) + phi(x, z))",
             why_not="(38) substituted into (37) at i = 3: a substitution, nothing to compute"),
        Step("(40)", "a(alpha) + a(beta) = a(alpha + beta) on R^k: needs Assumption 7's support R^{2k}, "
                     "which "
             "no phi continuous on the compact pair support has", by=("S10 A7 as printed holds for the logit "
             "pair map", "T3 with A7 replaced by a compact pair support (phi = b), C^1 omega: generalizes")),
        Step("after (40), a(0)", "a(0) = 0", by="S1 a(0) = 0"),
        Step("after (40), integers", "a(p alpha) = p a(alpha) (negative p need a odd)",
             by=("S3 integer homogeneity", "S2 a odd")),
        Step("after (40), 1/q", "a(alpha / q) = a(alpha) / q", by="S4 rational homogeneity"),
        Step("after (40), p/q", "a((p/q) alpha) = (p/q) a(alpha)", by="S4 rational homogeneity"),
        Step("after (40), irrational c", "a(c alpha) = lim a(q_n alpha) = c a(alpha), q_n -> c rational",
             why_not="continuity of a and density of the rationals: a limit argument (S8 gives linearity "
                     "of a C^1 additive a by differentiation instead)"),
        Step("(41)", "psi = A phi and phi = C psi: a is linear",
             by=(VECTOR, CORRECTED, "S8 derivative of Cauchy's equation")),
        Step("after (41)", "rho^-1 o omega(z) = C z, so omega(z) = rho(C z)", by="S6 substitution at every "
                                                                                 "length"),
        Step("end of proof", "omega(sum psi) = rho(C sum psi) = rho(sum phi) at every i",
             by=("S6 substitution at every length", CONCLUSION)),
        Step("(42)", "two heads: sum (psi1 + psi2) = a(sum (phi1 + phi2)); only the sum is identified",
             by=("multi-head: h depends on psi1 + psi2 only (generalization carries over)",
                 "multi-head: a zero-risk learner with psi1 != A phi1 exists")),
    )),),
    sentences=(
        Step("Sec. 3 after Thm 3", "linear representation identification is necessary",
             by=(VECTOR, CORRECTED)),
        Step("Theorem 3", "T >= 3 suffices (and the proof uses i = 3)",
             by=(CONCLUSION, "T3 at T = 2 (ALL), analytic omega: generalizes")),
        Step("remark after the proof", "the result should continue to hold with a residual or the term "
             "phi(x, x)", by=(REMARK_DIAG, REMARK_DIAG_RES, REMARK_RES,
                               "remark: diagonal j <= i, C^1 omega, bounded phi: generalizes")),
        Step("remark after the proof", "with multiple heads the same guarantees hold; linear identification "
             "is not required per head", by=("multi-head: h depends on psi1 + psi2 only (generalization "
             "carries over)", "multi-head: a zero-risk learner with psi1 != A phi1 exists")),
        Step("Sec. 3 after Thm 3", "the same proof technique extends Theorem 1 to position-wise "
             "non-linearities", by=(EXT_POLY, "extension of Theorem 1: deep sets, C^1 omega, bounded phi: "
             "generalizes")),
    ),
    notes="Corrected statement (derived here, not in the paper): with omega, rho real-analytic "
          "diffeomorphisms, psi, phi continuous, T >= 3 under ALL, and {(phi(x_3, x_1), phi(x_3, x_2))} "
          "with non-empty interior, a = omega^-1 o rho is linear, psi = A phi and omega = rho o A^-1, so "
          "h = f at every length. Certified here for polynomial a of degree <= D; the analytic case rests "
          "on S8 and the identity theorem. Assumption 7 as printed (support R^{2k}) cannot hold for any "
          "phi continuous on [0,1]^{2n}; the proof needs the shared query x_3, not x_1.",
)
