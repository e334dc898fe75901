"""AM24v2.C3: deep sets with MEAN pooling, sigma(A (1/t) sum_j psi(x_j)), trained on lengths <= T.

Source: the later version's summary (seeds/ahuja_mansouri_2024_later_version_summary.txt) names "deep
sets with sum/mean pooling" among the architectures that generalize; it gives no statement for mean
pooling. The claim encoded here (derived, not the paper's wording): the conclusions of AM24 Theorem 1
carry over, with the same relation A psi = B phi. Reason (derived): sigma injective, so
A (1/t) sum psi = B (1/t) sum phi; multiplying by t gives T1's equations, so T = 1 already suffices for
a bias-free readout. With a readout bias T = 1 suffices too (derived, S3): the length-1 labels give
A psi + a_h = B phi + a_f, and the mean of the constant a_f - a_h is that constant at every length, so
h = f on every box sequence (a constant shift is a gauge; A psi = B phi itself then fails by that
constant). The checks below decide it on a fitted mean-pooled learner.
"""


import sympy as sp
from sympy import Eq, MatrixSymbol, Symbol

from proofkit import (
    R_ALL,
    SUPPORTS,
    Assumption,
    Cost,
    Generalization,
    GroupElement,
    Injective,
    PaperRef,
    Param,
    ParamSpace,
    Realizable,
    Relation,
    Setup,
    Step,
    Support,
    SymbolicStep,
    T_len,
    Theorem,
    Verdict,
    param_activation,
    param_supervision,
    param_T,
    supp,
)
from proofkit.families import MeanPoolDeepSets, MeanPoolHingeDeepSets, deep_sets_true_params, hinge_knots

m, k, kt = Symbol("m"), Symbol("k"), Symbol("kt")
A = MatrixSymbol("A", m, kt)
B = MatrixSymbol("B", m, k)
psi, phi = MatrixSymbol("psi", kt, 1), MatrixSymbol("phi", k, 1)
M = MatrixSymbol("M", kt, k)
sigma, f_true, H = Symbol("sigma"), Symbol("f"), Symbol("H")


def knots(p):
    """Hinge knots of the structured family (proofkit.families.instances.hinge_knots)."""
    return hinge_knots(p["T"])


def learned_model(p):
    if p["family"] == "hinge":
        return MeanPoolHingeDeepSets(p["n"], p["learned_dim"], p["m"], knots(p), p["readout_bias"])
    return MeanPoolDeepSets(p["n"], p["learned_dim"], p["m"], 3, p["readout_bias"])


def true_model(p):
    if p["family"] == "hinge":
        return MeanPoolHingeDeepSets(p["n"], 1, p["m"], knots(p), p["readout_bias"])
    return MeanPoolDeepSets(p["n"], 2, p["m"], 3, p["readout_bias"])


def true_params(p):
    """The default deep-sets true model (proofkit.families.instances.DEEP_SETS; the hinge model for the hinge
    family)."""
    F = true_model(p).F if p["family"] == "hinge" else None
    return deep_sets_true_params(p["n"], p["m"], p["T"], F, p["readout_bias"])


def mean_times_t_is_sum():
    """S1 (derived): t * A (1/t) sum_{j<=t} psi_j = A sum_{j<=t} psi_j for symbolic t."""
    t, j = sp.symbols("t j", integer=True, positive=True)
    a = sp.IndexedBase("Apsi")
    return sp.simplify(t * (sp.Sum(a[j], (j, 1, t)) / t) - sp.Sum(a[j], (j, 1, t)))


def jensen_affine():
    """S2 (derived, general readout): an affine a(u) = c u + d satisfies Jensen's equation
    a((alpha + beta)/2) = (a(alpha) + a(beta))/2, the length-2 mean-pooling condition."""
    c, d, al, be = sp.symbols("c d alpha beta")
    a = sp.Lambda(sp.Symbol("u"), c * sp.Symbol("u") + d)
    return sp.expand(a((al + be) / 2) - (a(al) + a(be)) / 2)


def jensen_nonaffine_control():
    """Control: a(u) = u^2 satisfies Jensen's equation (false: it fails at alpha = 0, beta = 1)."""
    al, be = sp.symbols("alpha beta")
    return sp.expand(((al + be) / 2) ** 2 - (al**2 + be**2) / 2)


def bias_gauge_every_length():
    """S3 (derived): A psi = B phi + C on the tokens and a_h = a_f - C (the length-1 labels) give
    (1/t) sum_{j<=t} A psi_j + a_h = (1/t) sum_{j<=t} B phi_j + a_f for symbolic t: one length suffices."""
    t, j = sp.symbols("t j", integer=True, positive=True)
    C, a_f = sp.symbols("C a_f")
    b = sp.IndexedBase("Bphi")
    h = sp.Sum(b[j] + C, (j, 1, t)).doit() / t + a_f - C
    return sp.simplify(h - (sp.Sum(b[j], (j, 1, t)).doit() / t + a_f))


HINGE = {"family": "hinge", "n": 1, "m": 1, "learned_dim": 1}  # the structured search family, smallest


THEOREM = Theorem(
    id="AM24v2.C3",
    title="Deep sets with mean pooling generalize; A psi = B phi (derived reading of the later version)",
    paper=PaperRef("Ahuja & Mansouri, later version (arXiv 2402.04875), via its summary",
                   "architectures list: 'deep sets with sum/mean pooling' (no statement given)",
                   "-", "ahuja2024provable"),
    params=ParamSpace((
        param_T(3), param_activation(), param_supervision(),
        Param("n", int, 2, "token dimension", min=1, max=4),
        Param("m", int, 2, "output dimension", min=1, max=4),
        Param("learned_dim", int, 2, "output dimension k~ of the learned psi", min=1, max=6),
        Param("readout_bias", bool, False, "readout sigma(A . + a) with a bias"),
        Param("support", str, "cut", "training support (as AM24.T1)", choices=SUPPORTS),
        Param("family", str, "tanh", "token maps: tanh (psi = W2 tanh(W1 x + b1) + b2, width 3) or hinge "
              "(psi = W p(x), p = (1, x, max(x_i - kappa, 0)^2 at the knots 2T/(2T+1) and 1); the true "
              "phi(x) = 1 - (T + 1/2) x_1, readout (1, ..., 1)^T), both mean-pooled",
              choices=("tanh", "hinge")),
        Param("cut_frac", float, 0.5, "cut-cube support: sum <= cut_frac*n*T", min=0.0, max=1.0),
        Param("test_scale", float, 1.0, "test tokens past T drawn from [0, test_scale]^n",
              min=0.0, max=100.0),
    )),
    assumptions=(
        Assumption("injective", "the readout activation is injective (sigmoid)",
                   lambda p: p["activation"] != "relu", {"activation": "relu", **HINGE, "support": "iid"},
                   note="searched in the hinge family on the cube: a bump where the ReLU is dead on every "
                        "training sequence (derived here)",
                   predicate=Injective(sigma)),
        Assumption("realizable", "f is in the learner's class", lambda p: p["learned_dim"] >= min(2, p["m"]),
                   {"learned_dim": 1}, predicate=Realizable(f_true, H),
                   note="no zero-risk learner to search: with an injective readout the length-1 labels force "
                        "A psi = B phi of rank 2 > k~ = 1 on the token box"),
        Assumption("token-support", "test tokens in the training token box",
                   lambda p: p["test_scale"] == 1.0, {"test_scale": 2.0, **HINGE},
                   note="searched in the hinge family: a bump max(x - 1, 0)^2 past the training box",
                   predicate=sp.Implies(sp.Symbol("j", integer=True, positive=True) >= 1,
                                        Eq(supp(sp.Symbol("X_j")), sp.Symbol("[0,1]^n"), evaluate=False))),
        Assumption("ALL", "labels at every length 1..T", lambda p: p["supervision"] == "ALL",
                   {"supervision": "ONLY"}, predicate=Eq(R_ALL(T_len), 0)),
    ),
    setup=Setup(
        learned=learned_model, true=true_model,
        true_params=true_params,
        support=lambda p: Support(p["support"], p["n"], p["T"], p["cut_frac"], p["test_scale"]),
        learned_symbols={"A": A}, true_symbols={"A": B}, token_symbols=(psi, phi),
    ),
    dims=(("n",), ("m", "learned_dim")),
    groups=(GroupElement(M, "GL", equations=((psi, M * phi, "tokens"),)),),
    claims=(
        # the summary names mean pooling and gives no statement: every claim is proofkit's reading of
        # "deep sets with sum/mean pooling" generalize (the conclusions of AM24 Theorem 1 carry over)
        Generalization("length generalization", kind="length", source="summary: sum/mean pooling",
                       reading="our reading"),
        Generalization("compositional generalization", kind="compositional",
                       source="summary: sum/mean pooling", reading="our reading"),
        Relation("A psi = B phi on [0,1]^n (mean pooling)", "identification", "derived: T1 eq. (21) x t",
                 A * psi, B * phi, over="tokens", reading="our reading"),
        Relation("psi = M phi, M linear", "identification", "summary: linear identification",
                 psi, M * phi, over="tokens", reading="our reading"),
        Relation("control: psi = phi (wrong group: identity)", "control", "deliberately false",
                 psi, phi, over="tokens", reading="proxy"),
        SymbolicStep("S1 mean times t is the sum", "proof-step", "derived",
                     "t A (1/t) sum psi = A sum psi: mean pooling reduces to AM24.T1", mean_times_t_is_sum,
                     reading="our reading"),
        SymbolicStep("S2 affine maps solve Jensen's equation", "proof-step", "derived (general readout)",
                     "a((alpha+beta)/2) = (a(alpha)+a(beta))/2 for affine a", jensen_affine,
                     reading="our reading"),
        SymbolicStep("S3 a constant shift is a gauge under a bias", "proof-step", "derived (readout bias)",
                     "A psi = B phi + C, a_h = a_f - C => (1/t) sum A psi + a_h = (1/t) sum B phi + a_f "
                     "for every t", bias_gauge_every_length, reading="our reading"),
        SymbolicStep("control: u^2 solves Jensen's equation", "control", "deliberately false",
                     "((alpha+beta)/2)^2 = (alpha^2+beta^2)/2", jensen_nonaffine_control, reading="proxy"),
    ),
    expect={
        "length generalization": Verdict.CERTIFIED,
        "compositional generalization": Verdict.CERTIFIED,
        "A psi = B phi on [0,1]^n (mean pooling)": Verdict.CERTIFIED,
        "psi = M phi, M linear": Verdict.CERTIFIED,
        "control: psi = phi (wrong group: identity)": Verdict.REFUTED,
        "S1 mean times t is the sum": Verdict.CERTIFIED,
        "S2 affine maps solve Jensen's equation": Verdict.CERTIFIED,
        "S3 a constant shift is a gauge under a bias": Verdict.CERTIFIED,
        "control: u^2 solves Jensen's equation": Verdict.REFUTED,
    },
    sentences=(
        Step("abstract", "limited capacity architectures achieve length and compositional generalization "
             "provided the training distribution is sufficiently diverse (here: mean-pooled deep sets)",
             by=("length generalization", "compositional generalization")),
        Step("Mechanism 1, from eq. (11)", "the learned representation is a linear transform of the true "
             "one (linear identification psi = A^-1 B phi)", by="psi = M phi, M linear"),
    ),
    notes="Mean pooling is only named in the summary; the statement and T = 1 sufficiency are derived "
          "here. Length bounds use t sup_x |A_h psi - A_f phi| (valid but loose for the mean). With a "
          "readout bias T = 1 still suffices (S3), but A psi = B phi holds only up to a_f - a_h.",
    cost=Cost(3.0, {"T": 1.15, "n": 0.4, "m": 0.3, "learned_dim": 0.4}, fixed=1.0),
)
