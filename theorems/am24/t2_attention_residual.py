"""AM24.T2: an attention-like model with a residual, sigma(A (sum_{j<=i} psi(x_i, x_j) + x_i))
(Assumption 3), trained on lengths <= T (the paper asks T >= 3), length- and compositionally generalizes;
the proof identifies A = B and psi = phi on [0,1]^{2n} (Ahuja & Mansouri, Theorem 2 and its proof,
eqs. 23-36; the no-residual paragraph, eq. 35; "Discussion on Assumption 3", eq. 59).

The learned and true pair maps are polynomial pair maps psi(a, b) = W p(a, b), p every monomial of degree
<= D in the 2n coordinates of (query a, key b) (proofkit.families.pairwise). With the features fixed the
logit is linear in (A, G = A W), so zero training risk is an exact linear system in integers (monomial
coefficients of h - f, a polynomial in the tokens vanishing on a set with interior), and "every zero-risk
learner of this class generalizes" is decided exactly (proofkit.families.pairwise_columns): the claim
'every zero-risk learner generalizes (exact)'. Identification relations are then parameter identities:
psi = phi on [0,1]^{2n} iff W = V (monomials are linearly independent functions).

``family=hinge`` adds key hinges max(b_i - kappa, 0)^2 at the knots 2T/(2T+1) and 1 to the pair map (the
search family for the ReLU readout and for test tokens past the box, as for Theorem 1), with the true model
B[r, r mod n] = 1, phi_i(a, b) = 1 - (T + 3/2) b_i: every training sequence whose coordinate i = r mod n
passes 2T/(2T+1) at some token has logit_f,r <= t - T <= 0. ``readout_bias``: sigma(A (sum psi + x_i) + a),
the true model with a bias too. Counterexamples of this class are certified exactly
(proofkit.families.pairwise_zero_risk).
"""

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp
from sympy import Eq, MatrixSymbol, Symbol

from proofkit import (
    R_ALL,
    SUPPORTS,
    Assumption,
    Computed,
    Cost,
    Evidence,
    Generalization,
    Injective,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Proof,
    Realizable,
    RegularClosed,
    Relation,
    Setup,
    Step,
    Support,
    SymbolicStep,
    T_len,
    Theorem,
    Verdict,
    fails,
    h_model,
    holds,
    param_activation,
    param_supervision,
    param_T,
    supp,
    undecided,
)
from proofkit.families import PairwiseSum, is_injective, pair_sum_true_params
from proofkit.families import pairwise_columns as cp

m, n, kt, F = Symbol("m"), Symbol("n"), Symbol("kt"), Symbol("F")
a_bias = MatrixSymbol("a", m, 1)
omega, rho_act = sp.Function("omega"), Symbol("rho")  # the statement's symbols, with the 2 lines below
i_pos, j_pos = Symbol("i", integer=True, positive=True), Symbol("j", integer=True, positive=True)
x_i_sym, X_le_i, pair_cube = Symbol("x_i"), Symbol("X_{1:i}"), Symbol("[0,1]^{2n}")
A = MatrixSymbol("A", m, kt)  # learned readout
B = MatrixSymbol("B", m, n)  # true readout
W = MatrixSymbol("W", kt, F)  # learned pair map psi = W p (coefficients on the monomials p)
V = MatrixSymbol("V", n, F)  # true pair map phi = V p
Vs = MatrixSymbol("Vswap", n, F)  # phi(b, a): query and key exchanged

HINGE = {"family": "hinge", "n": 1, "m": 1, "learned_dim": 1}  # the structured search family, smallest


def knots(p):
    """Key-hinge knots of the hinge family: 2T/(2T+1) (past it every training logit of the true hinge
    instance is <= 0) and 1 (the training token box's upper end); none for the polynomial family."""
    return (Fraction(2 * p["T"], 2 * p["T"] + 1), Fraction(1)) if p["family"] == "hinge" else ()


def true_params(p):
    """The true model (proofkit.families.instances.PAIR_SUM; with the hinge family B[r, r mod n] = 1,
    phi_i(a, b) = 1 - (T + 3/2) b_i, hinges 0)."""
    return pair_sum_true_params(true_family(p), p["T"], p["family"] == "hinge")


def _family(p, dim, degree):  # a pair-sum family on the monomial basis of max(degree, true_degree)
    return PairwiseSum(p["n"], dim, p["m"], degree, p["residual"], max(p["degree"], p["true_degree"]),
                       knots(p), p["readout_bias"])


def learned_family(p):
    return _family(p, p["learned_dim"], p["degree"])


def true_family(p):
    return _family(p, p["n"], p["true_degree"])


def _pinned(p):
    """Token coordinates the support fixes to 0 (the subspace support varies the first one only)."""
    return list(range(1, p["n"])) if p["support"] == "subspace" else []


# ----------------------------------------------------------------------------- exact claim
def every_zero_risk_learner(p: Mapping[str, Any]) -> Evidence:
    """Evidence: every zero-risk learner of the class (polynomial pair maps of degree <= D, with the
    hinge family also key hinges) generalizes: the kernel of the exact system of zero training risk (per
    output row, in the linear coordinates (G, R, a) = (A W, A E, a)) is annihilated by the equations of
    each checked length, in rational arithmetic. Zero risk is equality of the logits, so only for an
    injective readout."""
    fam_h, fam_f = learned_family(p), true_family(p)
    T = p["T"]
    train = list(range(1, T + 1)) if p["supervision"] == "ALL" else [T]
    extra = ([f"{len(fam_h.hinges)} key hinges"] if fam_h.hinges else []) + \
        ([f"R = A E on {p['n']} residual entries"] if p["residual"] else []) + \
        (["the bias a"] if p["readout_bias"] else [])
    cls = (f"every (A, psi), psi a pair map on the {len(fam_h.exponents)} monomials of degree <= "
           f"{p['degree']}" + "".join(", " + e for e in extra)
           + f", with zero risk at the supervised lengths {train}")
    if not is_injective(p["activation"]):
        return undecided(f"the {p['activation']} readout is not injective: zero risk does not make the "
                         "logits equal where both are dead, so the exact linear system does not describe the "
                         "zero-risk set (falsify searches this variant)", method=Method.EXACT,
                         domain=f"{cls}: nothing computed")
    ch, cf = cp.Columns.of(fam_h), cp.Columns.of(fam_f)
    rows = [[v for v in row] for row in _true_rows(p, fam_f)]
    hi = [Fraction(0) if i in _pinned(p) else Fraction(1) for i in range(p["n"])]
    test_hi = [v * Fraction(str(p["test_scale"])) for v in hi]
    an = cp.analyse(ch, cf, [[row] for row in rows], p["n"], train_lengths=train, pinned=_pinned(p), hi=hi,
                    test_hi=test_hi)
    system = f"{an.equations} equations in {an.unknowns} unknowns per output row"
    if not an.feasible:
        return undecided(f"no learner of the class has zero risk ({system}): f is not realizable here",
                         method=Method.EXACT, domain=f"{cls}: empty")
    box = "the token box" + (f" (test tokens past T in [0, {p['test_scale']:g}]^n)"
                             if p["test_scale"] != 1.0 else "")
    domain = (f"{cls} (a zero-risk set of dimension {p['m']} x {an.dim}), lengths 1..{an.lengths[-1]}, every "
              f"token sequence in {box}")
    if an.failures:
        t, v = an.failures[0]
        lengths = sorted({t for t, _ in an.failures})
        return fails(Method.EXACT,
                     f"the direction dG, dR, da = {cp.describe_direction(v, ch, p['n'])} (added to any "
                     "output row of the true (G, R, a)) keeps zero training risk and changes the logit at "
                     f"lengths {lengths} on every open set of test tokens; realized in the class by "
                     "W = A^-1 G for A = B + (a small multiple of dR) invertible", domain=domain,
                     residual=f"zero-risk set dim {p['m'] * an.dim}",
                     detail=f"zero-risk set of dimension {p['m']} x {an.dim} ({cls}; {system})")
    return holds(Method.EXACT, domain, count=len(an.lengths),
                 residual=f"zero-risk set dim {p['m'] * an.dim}",
                 detail=f"zero-risk set of dimension {p['m']} x {an.dim} ({cls}; {system}); every zero-risk "
                        f"direction leaves the logit unchanged at lengths 1..{an.lengths[-1]}, and the "
                        "length-t equations are affine in t (key-token rows fixed, x_t-only rows = diagonal "
                        "+ (t - 1) key-free + residual + bias), so this covers every length t >= 1 (argued "
                        "from that structure); so every zero-risk learner of this class equals f on every "
                        f"sequence with tokens in {box} (length and compositional generalization)")


def _true_rows(p, fam_f):
    """Per output row, the true unknowns (G, R, a) in the order of pairwise_columns.Columns, exactly."""
    theta = np.asarray([sp.Rational(v) for v in true_params(p)], dtype=object)
    parts = fam_f.linear_parts(theta)
    return [list(parts["G"][r]) + (list(parts["R"][r]) if p["residual"] else [])
            + ([parts["a"][r]] if p["readout_bias"] else []) for r in range(p["m"])]


# ----------------------------------------------------------------------------- sympy steps
u, x1, x2, x3 = sp.symbols("u x1 x2 x3", real=True)
a_, b_, c_ = sp.symbols("a b c", real=True)
i_ = sp.Symbol("i", integer=True, positive=True)
psi_f, phi_f = sp.Function("psi"), sp.Function("phi")


def _sigmoid(z):
    return 1 / (1 + sp.exp(-z))


def sigmoid_monotone():
    """S1 (25): sigma' = sigma (1 - sigma) > 0, so sigma is injective and the pre-activations agree."""
    s = _sigmoid(u)
    return sp.diff(s, u) - s * (1 - s)


def derivative_wrt_key(printed=False):
    """S2 (26): d/dx_j [A sum_{k<=i} psi(x_i, x_k) + A x_i] = A d psi(x_i, x_j)/dx_j for j < i (scalar
    tokens, i = 3, j = 1). As printed ('derivative w.r.t. x_i', and (27) d psi/dx_i^k): with the concrete
    pair map psi(a, b) = a b + b^2 and A = 2 the x_i-derivative is not A d psi/dx_j."""
    if printed:
        def pm(a, b):
            return a * b + b**2
        total = 2 * (pm(x3, x1) + pm(x3, x2) + pm(x3, x3)) + 2 * x3
        return sp.diff(total, x3) - 2 * sp.diff(pm(x3, x1), x1)
    total = a_ * (psi_f(x3, x1) + psi_f(x3, x2) + psi_f(x3, x3)) + a_ * x3
    return sp.diff(total, x1) - a_ * sp.diff(psi_f(x3, x1), x1)


def constant_of_query_only():
    """S3 (27)-(31): a pair function g(a, b) = A psi - B phi with dg/db = 0 on a box is C(a): here for
    g = c(a) + (b-free part), the b-derivative of g - g(a, 0) vanishes (n = 1, with generic c(a))."""
    cfun = sp.Function("C")
    g = cfun(a_) + 0 * b_
    return [sp.diff(g, b_), g - g.subs(b_, 0)]


def two_lengths(first=None):
    """S4 (32)-(33): with A psi = B phi + C, length i gives i C + A x = B x (scalar form c, a, b); two
    lengths i and i + 1 give C = 0 and A = B. ``first=1``: lengths 1 and 2 (T = 2 under ALL, derived here:
    (31) holds at i = 2 and extends to the diagonal, and length 1 is supervised)."""
    i = i_ if first is None else first
    sol = sp.solve([i * c_ + a_ - b_, (i + 1) * c_ + a_ - b_], [c_, a_], dict=True)
    return sp.Eq(sp.Tuple(sol[0][c_], sol[0][a_] - b_), sp.Tuple(0, 0))


def one_length_control():
    """Control: a single supervised length i fixes C (false: {i C + A x = B x} leaves A free, C =
    (B - A) x / i)."""
    sol = sp.solve([i_ * c_ + a_ - b_], [c_, a_], dict=True)
    return sol[0].get(c_, c_)


def substitution_any_length():
    """S5 (34)-(36): with A = B and psi = phi, A (sum_{j<=t} psi + x_t) - B (sum_{j<=t} phi + x_t) = 0
    at every symbolic length t."""
    t, j = sp.symbols("t j", integer=True, positive=True)
    ps, ph, xt = sp.IndexedBase("psi"), sp.IndexedBase("phi"), sp.Symbol("x_t")
    expr = b_ * (sp.Sum(ps[j], (j, 1, t)) + xt) - b_ * (sp.Sum(ph[j], (j, 1, t)) + xt)
    return expr.subs(ps, ph).doit()


def no_residual_constant():
    """S6 (35): without the residual, length i gives i C(x) = 0, so C = 0 and A psi = B phi."""
    return sp.Eq(sp.Tuple(*sp.solve(sp.Eq(i_ * c_, 0), c_)), sp.Tuple(0))


def attention_form():
    """S7 (59): sum_{j<=i} theta(q_i k_j) v_j + x_i = sum_{j<=i} phi(x_i, x_j) + x_i with phi(x_i, x_j) :=
    theta(q_i^T k_j) v_j (scalar keys/queries/values, i = 3, generic theta, affine q, k, v)."""
    theta = sp.Function("theta")
    wq, bq, wk, bk, wv, bv = sp.symbols("wq bq wk bk wv bv", real=True)
    xs = (x1, x2, x3)

    def phi(xi, xj):
        return theta((wq * xi + bq) * (wk * xj + bk)) * (wv * xj + bv)

    att = sum(theta((wq * x3 + bq) * (wk * xj + bk)) * (wv * xj + bv) for xj in xs) + x3
    return att - (sum(phi(x3, xj) for xj in xs) + x3)


def printed_sum_index():
    """(24)-(26) as printed: sum_{k<=i} psi(x_i, x_j) (summand in x_j, index k) for sum_{k<=i}
    psi(x_i, x_k); with psi(a, b) = a b^2 at i = 2, j = 1 the printed sum 2 psi(x_2, x_1) is not
    psi(x_2, x_1) + psi(x_2, x_2)."""
    def pm(a, b):
        return a * b**2
    return 2 * pm(x2, x1) - (pm(x2, x1) + pm(x2, x2))


def printed_30_prose():
    """(30)'s sentence as printed: d C_k(x_i, x_j^{-k}) / d x_i^q = 0; C_k(a, b) = a (n = 1) has d/da = 1
    (the displayed (30) differentiates in x_j^q)."""
    return sp.diff(a_ + 0 * b_, a_)


def constants_free_of_other_keys():
    """S8 (29)-(30), n = 2, k = 2, q = 1: C_q(x_i, x_j^{-q}) has no x_j^q, so C_k = C_q has none either."""
    c_q, c_k = sp.Function("Cq")(a_, x2), sp.Function("Ck")(a_, x1)
    return [sp.diff(c_q, x1), sp.diff(c_k, x1).subs(c_k, c_q).doit()]


def no_residual_gauge():
    """No residual: A = 2, psi = phi/2 against B = 1 gives A sum psi = B sum phi (n = 1, i = 3), A != B."""
    ph = sp.Function("phi")
    pairs = [ph(x3, xj) for xj in (x1, x2, x3)]
    return [2 * sum(p / 2 for p in pairs) - sum(pairs), sp.Ne(2, 1)]


def printed_36():
    """(36) as printed: h(x_{<=T~}) = sigma(A sum_j psi(x_T~, x_j)), the residual x_T~ left out; under
    Assumption 3 h carries + x_T~ inside sigma (n = 1, A = 1, psi(a, b) = a b, T~ = 2)."""
    h = _sigmoid(x2 * x1 + x2 * x2 + x2)
    return h - _sigmoid(x2 * x1 + x2 * x2)


THEOREM = Theorem(
    id="AM24.T2",
    title="Attention-like model with residual (Assumption 3) generalizes; A = B, psi = phi",
    paper=PaperRef("Ahuja & Mansouri 2024 (arXiv 2402.04875v1)",
                   "Sec. 2.2 / App. A, Theorem 2, Assumption 3", "(23)-(36), (59)", "ahuja2024provable"),
    latex_names={kt: r"\tilde{k}", X_le_i: r"X_{\leq i}", pair_cube: r"[0,1]^{2n}"},
    # the ball example (Sec. 2) satisfies Theorem 2's other hypotheses; its pair marginal is a disc
    refuted_by=(("AM24.EX1", ("H1.pair-support",)),),
    params=ParamSpace((
        param_T(3), param_supervision(), param_activation(),
        Param("n", int, 2, "token dimension", min=1, max=3),
        Param("m", int, 2, "output dimension", min=1, max=3),
        Param("degree", int, 2, "feature degree D of the learned pair map psi (monomials of degree <= D "
              "in the 2n coordinates of (query, key))", min=1, max=3),
        Param("true_degree", int, 2, "feature degree of the true pair map phi", min=1, max=3),
        Param("learned_dim", int, 2, "output dimension k~ of the learned psi (the residual needs k~ = n; "
              "otherwise it enters through the k~ x n identity)", min=1, max=4, follows="n"),
        Param("residual", bool, True, "the residual + x_i inside the readout (Assumption 3); false: the "
              "no-residual model of the paragraph after eq. (34)"),
        Param("support", str, "iid", "training support: iid U[0,1]^n tokens (every pair support is "
              "[0,1]^{2n}), cut cube (sum <= cut_frac*n*T) or subspace (tokens (s, 0, ..., 0))",
              choices=SUPPORTS),
        Param("cut_frac", float, 0.5, "cut-cube support: sum <= cut_frac*n*T", min=0.0, max=1.0),
        Param("family", str, "poly", "pair maps: poly (every monomial of degree <= D) or hinge (also the "
              "key hinges max(b_i - kappa, 0)^2 at the knots 2T/(2T+1) and 1; the true model "
              "B[r, r mod n] = 1, phi_i(a, b) = 1 - (T + 3/2) b_i)", choices=("poly", "hinge")),
        Param("readout_bias", bool, False, "readout sigma(A (sum psi + x_i) + a) with a bias (the true "
              "model gets one too)"),
        Param("test_scale", float, 1.0, "test tokens past T drawn from [0, test_scale]^n",
              min=0.0, max=100.0),
    )),
    assumptions=(
        Assumption("A3.injective", "omega, rho are perceptrons with a bijective (injective) activation",
                   lambda p: p["activation"] != "relu", {"activation": "relu", **HINGE},
                   note="searched in the hinge family: a key hinge past 2T/(2T+1), where every training "
                        "logit of the true hinge instance is <= 0 (derived here, not in the paper)",
                   predicate=sp.And(Injective(Symbol("omega")), Injective(rho_act))),
        Assumption("A3.bias-free", "omega is a bias-free perceptron sigma(A .), as substituted in (25)",
                   lambda p: not p["readout_bias"], {"readout_bias": True},
                   predicate=Eq(a_bias, sp.ZeroMatrix(m, 1), evaluate=False)),
        Assumption("A3.residual", "the residual x_i enters inside the readout (Assumption 3)",
                   lambda p: p["residual"], {"residual": False},
                   note="the paper's paragraph after eq. (34): without it, A psi = B phi (linear "
                        "identification) and generalization still hold",
                   predicate=Eq(h_model(Symbol("x_{1:i}")),
                                omega(x_i_sym + Symbol("sum_{j<=i} psi(x_i, x_j)")), evaluate=False)),
        Assumption("A3.dims", "psi maps to R^n (k~ = n), so that psi + x_i is defined",
                   lambda p: p["learned_dim"] == p["n"], {"learned_dim": 3}, predicate=Eq(kt, n)),
        Assumption("H0.realizable", "f is in the learner's class (psi's feature degree >= phi's)",
                   lambda p: p["degree"] >= p["true_degree"], {"degree": 1},
                   predicate=Realizable(Symbol("f"), Symbol("H"))),
        Assumption("H1.pair-support", "supp(X_i, X_j) = [0,1]^{2n} for all i != j",
                   lambda p: p["support"] == "iid", {"support": "cut"},
                   note="the cut cube keeps a joint support with interior but no full pair support",
                   predicate=sp.Implies(sp.Ne(i_pos, j_pos), Eq(supp(Symbol("(X_i, X_j)")), pair_cube,
                                                                evaluate=False))),
        Assumption("H1.test-support", "supp(X_i, X_j) = [0,1]^{2n} also at positions beyond T (the "
                   "theorem's i != j in {1, ..., infinity}): test tokens in [0,1]^n",
                   lambda p: p["test_scale"] == 1.0, {"test_scale": 2.0, **HINGE},
                   note="searched in the hinge family: a key hinge max(b - 1, 0)^2 past the training box",
                   predicate=sp.Implies(sp.Gt(i_pos, T_len), Eq(supp(Symbol("(X_i, X_j)")), pair_cube,
                                                               evaluate=False))),
        Assumption("A2", "supp(X_{<=i}) is regular closed for every i <= T",
                   lambda p: p["support"] != "subspace", {"support": "subspace"},
                   note="the subspace support (s, 0, ..., 0) has no interior; its test tokens stay on the "
                        "subspace",
                   predicate=sp.Implies(sp.Le(i_pos, T_len), RegularClosed(supp(X_le_i)))),
        Assumption("ALL", "labels at every length 1..T (objective eq. 1)",
                   lambda p: p["supervision"] == "ALL", {"supervision": "ONLY"},
                   predicate=Eq(R_ALL(T_len), 0)),
        Assumption("T>=3", "labels up to length T >= 3 (Theorem 2)", lambda p: p["T"] >= 3, {"T": 2},
                   note="dropped to T = 2, the largest T it excludes; T = 1 is `--set T=1`",
                   predicate=sp.Ge(T_len, 3)),
    ),
    setup=Setup(
        learned=learned_family,
        true=true_family,
        true_params=true_params,
        support=lambda p: Support(p["support"], p["n"], p["T"], p["cut_frac"], p["test_scale"]),
        learned_symbols={"A": A, "W": W},
        true_symbols={"A": B, "W": V, "Wswap": Vs},
    ),
    dims=(("n", "learned_dim"), ("m",)),
    claims=(
        Generalization("length generalization", kind="length", source="Theorem 2"),
        Generalization("compositional generalization", kind="compositional", source="Theorem 2"),
        Computed("every zero-risk learner generalizes (exact)", "conclusion",
                 "Theorem 2 over the class of polynomial pair maps of degree <= D",
                 "every (A, psi), psi a polynomial pair map of degree <= D (the learner's class, not every "
                 "pair map the theorem allows), with zero risk at the supervised lengths has h = f at every "
                 "length t >= 1 on the token box (exact integer linear algebra on monomial coefficients)",
                 every_zero_risk_learner, reading="proxy"),
        Relation("A = B", "identification", "(33)", A, B),
        Relation("A W = B V (A psi = B phi on [0,1]^{2n})", "identification", "(31) with C = 0",
                 A * W, B * V),
        Relation("W = V (psi = phi on [0,1]^{2n}, exact identification)", "identification", "(34)",
                 W, V),
        Relation("W = A^-1 B V (psi = A^-1 B phi, linear identification)", "identification", "(35)",
                 W, A.inv() * B * V),
        Relation("control: W = Vswap (psi(a, b) = phi(b, a))", "control", "deliberately false", W, Vs,
                 reading="proxy"),
        SymbolicStep("S1 sigma strictly increasing", "proof-step", "(25)",
                     "sigma' = sigma (1 - sigma) > 0 => sigma injective", sigmoid_monotone),
        SymbolicStep("S2 derivative w.r.t. a key token", "proof-step", "(26)",
                     "d/dx_j [A sum_k psi(x_i, x_k) + A x_i] = A d psi(x_i, x_j)/dx_j, j < i",
                     derivative_wrt_key),
        SymbolicStep("S3 integration constant depends on the query only", "proof-step", "(27)-(31)",
                     "dg/db = 0 => g(a, b) = C(a)", constant_of_query_only),
        SymbolicStep("S4 two lengths i, i+1 give C = 0, A = B", "proof-step", "(32)-(33)",
                     "{i C + A x = B x, (i+1) C + A x = B x} => C = 0, A = B", two_lengths),
        SymbolicStep("S4' lengths 1 and 2 suffice under ALL", "identification",
                     "(31)-(33) with i = 1 (derived here, not in the paper)",
                     "{C + A x = B x, 2 C + A x = B x} => C = 0, A = B", lambda: two_lengths(1),
                     reading="our reading"),
        SymbolicStep("S5 substitution at every length", "proof-step", "(34)-(36)",
                     "A = B, psi = phi => h = f at every symbolic length t", substitution_any_length),
        SymbolicStep("S6 no residual: i C = 0", "proof-step", "(35)",
                     "without the residual, i C(x) = 0 => C = 0, A psi = B phi", no_residual_constant),
        SymbolicStep("S7 attention as a pair sum", "proof-step", "(59)",
                     "sum_j theta(q_i^T k_j) v_j + x_i = sum_j phi(x_i, x_j) + x_i", attention_form),
        SymbolicStep("control: one length fixes C", "control", "deliberately false",
                     "{i C + A x = B x} => C = 0", one_length_control, reading="proxy"),
        SymbolicStep("(26)-(27) as printed: derivative w.r.t. x_i", "identification", "(26)-(27)",
                     "d/dx_i [A sum_k psi(x_i, x_k) + A x_i] = A d psi(x_i, x_j)/dx_j",
                     lambda: derivative_wrt_key(printed=True)),
        SymbolicStep("S8 C_k = C_q has no x_j^q-dependence", "proof-step", "(29)-(30)",
                     "d C_q / d x_j^q = 0, hence d C_k / d x_j^q = 0", constants_free_of_other_keys),
        SymbolicStep("S9 no residual: a zero-risk learner with A != B", "identification", "after (35)",
                     "A = 2, psi = phi / 2, B = 1: A sum psi = B sum phi (i = 3), A != B",
                     no_residual_gauge, reading="our reading"),
        SymbolicStep("(24)-(26) as printed: sum over k of psi(x_i, x_j)", "identification", "(24)-(26)",
                     "sum_{k<=i} psi(x_i, x_j) = sum_{k<=i} psi(x_i, x_k)", printed_sum_index),
        SymbolicStep("(30) prose as printed: derivative w.r.t. x_i^q", "identification", "(30), the sentence",
                     "d C_k(x_i, x_j^{-k}) / d x_i^q = 0", printed_30_prose),
        SymbolicStep("(36) as printed: residual omitted", "identification", "(36)",
                     "h(x_{<=T~}) = sigma(A sum_j psi(x_T~, x_j))", printed_36),
    ),
    expect={
        "length generalization": Verdict.CERTIFIED,  # for t <= 1000 (the bound grows with t)
        "compositional generalization": Verdict.CERTIFIED,
        "every zero-risk learner generalizes (exact)": Verdict.CERTIFIED,
        "A = B": Verdict.CERTIFIED,
        "A W = B V (A psi = B phi on [0,1]^{2n})": Verdict.CERTIFIED,
        "W = V (psi = phi on [0,1]^{2n}, exact identification)": Verdict.CERTIFIED,
        "W = A^-1 B V (psi = A^-1 B phi, linear identification)": Verdict.CERTIFIED,
        "control: W = Vswap (psi(a, b) = phi(b, a))": Verdict.REFUTED,
        "S1 sigma strictly increasing": Verdict.CERTIFIED,
        "S2 derivative w.r.t. a key token": Verdict.CERTIFIED,
        "S3 integration constant depends on the query only": Verdict.CERTIFIED,
        "S4 two lengths i, i+1 give C = 0, A = B": Verdict.CERTIFIED,
        "S4' lengths 1 and 2 suffice under ALL": Verdict.CERTIFIED,
        "S5 substitution at every length": Verdict.CERTIFIED,
        "S6 no residual: i C = 0": Verdict.CERTIFIED,
        "S7 attention as a pair sum": Verdict.CERTIFIED,
        "control: one length fixes C": Verdict.REFUTED,
        "(26)-(27) as printed: derivative w.r.t. x_i": Verdict.REFUTED,
        "S8 C_k = C_q has no x_j^q-dependence": Verdict.CERTIFIED,
        "S9 no residual: a zero-risk learner with A != B": Verdict.CERTIFIED,
        "(24)-(26) as printed: sum over k of psi(x_i, x_j)": Verdict.REFUTED,
        "(30) prose as printed: derivative w.r.t. x_i^q": Verdict.REFUTED,
        "(36) as printed: residual omitted": Verdict.REFUTED,
    },
    proofs=(Proof("Theorem 2", "App. A.2", (
        Step("(23)", "h = f almost everywhere on supp(X_{<=i})",
             why_not="zero l2 risk => equality a.e. (Ash & Doleans-Dade, Thm 1.6.6): measure theory"),
        Step("(24)", "omega(sum_k psi(x_i, x_k) + x_i) = rho(sum_k phi(x_i, x_k) + x_i) (printed sum "
             "index j, summand in x_k)", by="(24)-(26) as printed: sum over k of psi(x_i, x_j)"),
        Step("(25)", "sigma bijective: A sum_k psi + A x_i = B sum_k phi + B x_i (printed summand "
             "psi(x_i, x_j))",
             by=("S1 sigma strictly increasing", "(24)-(26) as printed: sum over k of psi(x_i, x_j)")),
        Step("(26)", "d/dx_j of (25): A d psi(x_i, x_j)/dx_j = B d phi(x_i, x_j)/dx_j, j < i",
             by=("S2 derivative w.r.t. a key token", "(26)-(27) as printed: derivative w.r.t. x_i")),
        Step("(27)", "A d psi/dx_j^k = B d phi/dx_j^k (printed d psi/dx_i^k on the left)",
             by="(26)-(27) as printed: derivative w.r.t. x_i"),
        Step("(28)", "integrating in x_j^k: A psi = B phi + C_k(x_i, x_j^{-k})",
             why_not="the fundamental theorem of calculus for arbitrary psi, phi (S3 only restates it)"),
        Step("(29)", "C_k(x_i, x_j^{-k}) = C_q(x_i, x_j^{-q}), k != q (printed q, k in {1..d}: d is n)",
             by="S8 C_k = C_q has no x_j^q-dependence"),
        Step("(30)", "d C_k / d x_j^q = d C_q / d x_j^q = 0 (the sentence before it says x_i^q)",
             by=("S8 C_k = C_q has no x_j^q-dependence", "(30) prose as printed: derivative w.r.t. x_i^q")),
        Step("(31)", "A psi(x_i, x_j) = B phi(x_i, x_j) + C(x_i)",
             by="S8 C_k = C_q has no x_j^q-dependence"),
        Step("(32)", "length i: i C(x_i) + A x_i = B x_i, so C(x_i) = (B - A) x_i / i",
             by="S4 two lengths i, i+1 give C = 0, A = B"),
        Step("(33)", "length i + 1: C = (B - A) x / (i + 1), hence C = 0 and A = B",
             by=("S4 two lengths i, i+1 give C = 0, A = B", "A = B")),
        Step("(34)", "psi = phi on [0,1]^{2n}", by=("W = V (psi = phi on [0,1]^{2n}, exact identification)",
                                                  "S5 substitution at every length")),
        Step("(35)", "no residual: A psi = B phi, A and B need not be equal",
             by=("S6 no residual: i C = 0", "W = A^-1 B V (psi = A^-1 B phi, linear identification)")),
        Step("(36)", "h = f at every test length (printed without the residual)",
             by=("(36) as printed: residual omitted", "S5 substitution at every length",
                 "length generalization", "compositional generalization")),
        Step("(59)", "causal attention with a residual is Assumption 3's pair sum, phi = theta(q_i k_j) v_j "
             "(theta elementwise; a softmax over j is no pair sum)",
             by="S7 attention as a pair sum"),
    )),),
    sentences=(
        Step("Sec. 3 after Thm 2", "with the residual, exact identification (omega = rho, psi = phi) is "
             "necessary (and sufficient) for length and compositional generalization",
             by=("A = B", "W = V (psi = phi on [0,1]^{2n}, exact identification)",
                 "S5 substitution at every length")),
        Step("Sec. 3 after Thm 2", "without the residual, linear identification of the attention head is "
             "necessary", by="S6 no residual: i C = 0"),
        Step("after (35)", "without the residual, A and B need not be equal",
             by="S9 no residual: a zero-risk learner with A != B"),
        Step("Theorem 2", "T >= 3 labels suffice",
             by=("S4 two lengths i, i+1 give C = 0, A = B", "S4' lengths 1 and 2 suffice under ALL")),
    ),
    cost=Cost(4.84, {"T": 0.71, "degree": 0.91, "learned_dim": 0.92, "m": 0.26, "n": 3.92}),
)
