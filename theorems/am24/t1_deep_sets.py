"""AM24.T1: deep sets sigma(A sum_j psi(x_j)) trained on lengths <= T length- and compositionally
generalize, with A psi = B phi on [0,1]^n (Ahuja & Mansouri, Theorem 1, eqs. 10-22 and the remarks)."""


import sympy as sp
from sympy import Eq, MatrixSymbol, Symbol

from proofkit import (
    ALL_SUPPORTS,
    R_ALL,
    Assumption,
    Cost,
    Generalization,
    GroupElement,
    Injective,
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
    param_activation,
    param_supervision,
    param_T,
    supp,
)
from proofkit.families import DeepSets, HingeDeepSets, deep_sets_true_params, hinge_knots

m, k, kt = Symbol("m"), Symbol("k"), Symbol("kt")
A = MatrixSymbol("A", m, kt)  # learned readout
B = MatrixSymbol("B", m, k)  # true readout
psi, phi = MatrixSymbol("psi", kt, 1), MatrixSymbol("phi", k, 1)  # token maps at a point x
M = MatrixSymbol("M", kt, k)  # the linear map of linear representation identification
# the statement's own symbols: activation, readout bias, hypothesis class, token / prefix random variables
sigma, f_true, H = Symbol("sigma"), Symbol("f"), Symbol("H")
a_bias = MatrixSymbol("a", m, 1)
X_j, X_le_i, cube = Symbol("X_j"), Symbol("X_{1:i}"), Symbol("[0,1]^n")
j_pos, i_len = Symbol("j", integer=True, positive=True), Symbol("i", integer=True, positive=True)


def knots(p):
    """Hinge knots of the structured family (proofkit.families.instances.hinge_knots)."""
    return hinge_knots(p["T"])


def learned_model(p):
    if p["family"] == "hinge":
        return HingeDeepSets(p["n"], p["learned_dim"], p["m"], knots(p), p["readout_bias"])
    return DeepSets(p["n"], p["learned_dim"], p["m"], 3, p["readout_bias"])


def true_model(p):
    if p["family"] == "hinge":
        return HingeDeepSets(p["n"], 1, p["m"], knots(p), p["readout_bias"])
    return DeepSets(p["n"], 2, p["m"], 3, p["readout_bias"])


def true_params(p):
    """The default deep-sets true model (proofkit.families.instances.DEEP_SETS; the hinge model for the hinge
    family)."""
    F = true_model(p).F if p["family"] == "hinge" else None
    return deep_sets_true_params(p["n"], p["m"], p["T"], F, p["readout_bias"])


def sigmoid_monotone():
    """S1: sigma' = sigma (1 - sigma) > 0, so sigma is strictly increasing, hence injective."""
    u = Symbol("u", real=True)
    s = 1 / (1 + sp.exp(-u))
    return sp.diff(s, u) - s * (1 - s)


def derivative_of_sum():
    """S2 (eq. 13-14): d/dx_r [A sum_j psi(x_j)] = A psi'(x_r), scalar tokens, three positions."""
    a, x1, x2, x3 = sp.symbols("a x1 x2 x3")
    f = sp.Function("psi")
    return sp.diff(a * (f(x1) + f(x2) + f(x3)), x2) - a * sp.diff(f(x2), x2)


def constant_vanishes():
    """S3 (eqs. 19-20): A psi = B phi + C summed over T >= 1 tokens gives T C = 0, so C = 0."""
    T, c = sp.symbols("T c")
    return sp.Eq(sp.Tuple(*sp.solve(sp.Eq(T * c, 0), c)), sp.Tuple(0))


def one_length_label():
    """S4: the sigmoid is one-to-one on the reals, so a length-1 label determines the logit."""
    u, v = sp.symbols("u v", real=True)
    sol = sp.solve(sp.Eq(1 / (1 + sp.exp(-u)), 1 / (1 + sp.exp(-v))), u)
    return sp.Eq(sp.Tuple(*sol), sp.Tuple(v))


def substitution_any_length():
    """S5 (eq. 22): with A psi(x_j) = B phi(x_j), A sum_{j<=t} psi(x_j) - B sum phi(x_j) = 0 for all t."""
    t, j = sp.symbols("t j", integer=True, positive=True)
    a, b = sp.IndexedBase("Apsi"), sp.IndexedBase("Bphi")
    return sp.Sum(a[j] - b[j], (j, 1, t)).subs(a, b).doit()


def column_then_integrate():
    """S7 (eqs. 15-16): the k-th column of the Jacobian in (14) is the k-th partial (15), and integrating
    a zero k-th partial of F = A psi - B phi over [0, x^k] leaves F(0, x^{-k}) =: C_k(x^{-k}) (16), n = 2."""
    x1, x2, t = sp.symbols("x1 x2 t", real=True)
    f = [sp.Function(f"psi{i}")(x1, x2) for i in (1, 2)]
    F = sp.Function("F")
    jac = sp.Matrix(f).jacobian([x1, x2])
    return [*(jac[:, 0] - sp.diff(sp.Matrix(f), x1)),
            sp.integrate(sp.diff(F(x1, x2), x1), (x1, 0, t)) - (F(t, x2) - F(0, x2))]


def constants_do_not_move():
    """S8 (eqs. 17-18), n = 3, j = 1, k = 2: C_j(x^{-j}) has no x^j, so d C_j / d x^j = 0, and C_k = C_j
    gives d C_k / d x^j = 0."""
    x1, x2, x3 = sp.symbols("x1 x2 x3", real=True)
    c_j, c_k = sp.Function("C1")(x2, x3), sp.Function("C2")(x1, x3)
    return [sp.diff(c_j, x1), sp.diff(c_k, x1).subs(c_k, c_j).doit()]


def bias_two_lengths():
    """S6: with a readout bias, lengths 1 and 2 give {C + a - b = 0, 2C + a - b = 0} => C = 0, a = b."""
    C, a, b = sp.symbols("C a b")
    sol = sp.solve([C + a - b, 2 * C + a - b], [C, a], dict=True)
    return sp.Eq(sp.Tuple(sol[0][C], sol[0][a] - b), sp.Tuple(0, 0))


def bias_one_length_control():
    """Control: with a bias and only length 1, {C + a - b = 0} forces C = 0 (false: a family remains)."""
    C, a, b = sp.symbols("C a b")
    sol = sp.solve([C + a - b], [C, a], dict=True)
    return sol[0].get(C, C)


HINGE = {"family": "hinge", "n": 1, "m": 1, "learned_dim": 1}  # the structured search family, smallest

def _support(p):
    return Support(p["support"], p["n"], p["T"], p["cut_frac"], p["test_scale"])


THEOREM = Theorem(
    id="AM24.T1",
    title="Deep sets with an injective bias-free readout generalize; A psi = B phi",
    paper=PaperRef("Ahuja & Mansouri 2024 (arXiv 2402.04875v1)", "Sec. 3 / App. A.2, Theorem 1",
                   "(10)-(22), remarks", "ahuja2024provable"),
    latex_names={kt: r"\tilde{k}", X_le_i: r"X_{\leq i}", cube: r"[0,1]^{n}"},
    params=ParamSpace((
        param_T(3), param_activation(), param_supervision(),
        Param("n", int, 2, "token dimension", min=1, max=4),
        Param("m", int, 2, "output dimension", min=1, max=4),
        Param("learned_dim", int, 2, "output dimension k~ of the learned psi", min=1, max=6),
        Param("readout_bias", bool, False, "readout sigma(A . + a) with a bias"),
        Param("support", str, "cut", "training support: iid U[0,1]^n tokens, cut cube (sum <= cut_frac*n*T), "
              "subspace (tokens (s, 0, ..., 0)) or antidiag (length-T tokens summing to T/2 per "
              "coordinate, prefixes below T: marginals [0,1]^n, not regular closed)",
              choices=ALL_SUPPORTS),
        Param("family", str, "tanh", "token maps: tanh (psi = W2 tanh(W1 x + b1) + b2, width 3) or hinge "
              "(psi = W p(x), p = (1, x, max(x_i - kappa, 0)^2 at the knots 2T/(2T+1) and 1); the true "
              "phi(x) = 1 - (T + 1/2) x_1, readout (1, ..., 1)^T)", choices=("tanh", "hinge")),
        Param("cut_frac", float, 0.5, "cut-cube support: sum <= cut_frac*n*T", min=0.0, max=1.0),
        Param("test_scale", float, 1.0, "test tokens past T drawn from [0, test_scale]^n",
              min=0.0, max=100.0),
    )),
    assumptions=(
        Assumption("A1.injective", "the readout activation is injective (sigmoid)",
                   lambda p: p["activation"] != "relu", {"activation": "relu", **HINGE, "support": "iid"},
                   note="searched in the hinge family on the cube: a bump where the ReLU is dead on "
                        "every training sequence (derived here, not in the paper)",
                   predicate=Injective(sigma)),
        Assumption("A1.bias-free", "the readout is a bias-free perceptron sigma(A .)",
                   lambda p: not p["readout_bias"], {"readout_bias": True},
                   predicate=Eq(a_bias, sp.ZeroMatrix(m, 1), evaluate=False)),
        Assumption("H0.realizable", "f is in the learner's class (k~ large enough for B phi)",
                   lambda p: p["learned_dim"] >= min(2, p["m"]), {"learned_dim": 1},
                   predicate=Realizable(f_true, H)),
        Assumption("H1.token-support", "supp(X_j) = [0,1]^n at every position, also beyond T",
                   lambda p: p["test_scale"] == 1.0 and _support(p).full_marginals(),
                   {"test_scale": 2.0, **HINGE},
                   note="searched in the hinge family: a bump max(x - 1, 0)^2 past the training box",
                   predicate=sp.Implies(j_pos >= 1, Eq(supp(X_j), cube, evaluate=False))),
        Assumption("ALL", "labels at every length 1..T (objective eq. 1)",
                   lambda p: p["supervision"] == "ALL", {"supervision": "ONLY"},
                   predicate=Eq(R_ALL(T_len), 0)),
        Assumption("A2", "supp(X_{<=i}) is regular closed for every i <= T",
                   lambda p: p["support"] != "antidiag", {"support": "antidiag", **HINGE},
                   note="under ALL(T) the length-1 labels give A psi = B phi without A2 (S4); with "
                        "--drop ALL too, the antidiagonal support (tokens summing to T/2) admits "
                        "psi = phi + c (x - 1/2) (derived here, not in the paper)",
                   predicate=sp.Implies(sp.Le(i_len, T_len), RegularClosed(supp(X_le_i))),
                   unneeded="S4 one length-1 label fixes A psi"),
    ),
    setup=Setup(
        learned=learned_model, true=true_model,
        true_params=true_params,
        support=_support,
        learned_symbols={"A": A}, true_symbols={"A": B}, token_symbols=(psi, phi),
    ),
    dims=(("n",), ("m", "learned_dim")),
    groups=(GroupElement(M, "GL", equations=((psi, M * phi, "tokens"),)),),
    claims=(
        Generalization("length generalization", kind="length", source="Theorem 1"),
        Generalization("compositional generalization", kind="compositional", source="Theorem 1"),
        Relation("A psi = B phi on [0,1]^n", "identification", "eq. (21)", A * psi, B * phi,
                 over="tokens"),
        Relation("psi = A^-1 B phi (as printed)", "identification", "remark after Thm 1",
                 psi, A.inv() * B * phi, over="tokens"),
        Relation("psi = M phi, M linear (linear representation identification)", "identification",
                 "remark after Thm 1", psi, M * phi, over="tokens"),
        Relation("control: psi = phi (wrong group: identity)", "control", "deliberately false",
                 psi, phi, over="tokens", reading="proxy"),
        SymbolicStep("S1 sigma strictly increasing", "proof-step", "(12)",
                     "sigma' = sigma (1 - sigma) > 0 => sigma injective", sigmoid_monotone),
        SymbolicStep("S2 derivative of the pooled sum", "proof-step", "(13)-(14)",
                     "d/dx_r A sum_j psi(x_j) = A psi'(x_r)", derivative_of_sum),
        SymbolicStep("S3 integration constant vanishes", "proof-step", "(19)-(20)",
                     "T C = 0 => C = 0", constant_vanishes),
        SymbolicStep("S7 (15) is a column of (14); (16) by the fundamental theorem of calculus", "proof-step",
                     "(15)-(16)", "d/dx^k is the k-th Jacobian column; int_0^t dF/dx^k = F(t, .) - F(0, .)",
                     column_then_integrate),
        SymbolicStep("S8 C_k = C_j has no x^j-dependence", "proof-step", "(17)-(18)",
                     "d C_j(x^{-j}) / d x^j = 0, hence d C_k / d x^j = 0", constants_do_not_move),
        SymbolicStep("S4 one length-1 label fixes A psi", "proof-step",
                     "remark (d) after Theorem 1 (A2 is not needed when t = 1 is observed)",
                     "sigma(u) = sigma(v) => u = v, so sigma(A psi(x)) = sigma(B phi(x)) on supp(X_1) "
                     "gives A psi = B phi there", one_length_label),
        SymbolicStep("S5 substitution at every length", "proof-step", "(22)",
                     "A psi = B phi => A sum_{j<=t} psi = B sum_{j<=t} phi for symbolic t",
                     substitution_any_length),
        SymbolicStep("S6 bias variant needs two lengths", "identification",
                     "Theorem 1 with a readout bias (a variant derived here, not in the paper)",
                     "{C + a - b = 0, 2C + a - b = 0} => C = 0, a = b", bias_two_lengths,
                     reading="our reading"),
        SymbolicStep("control: one length fixes C under a bias", "control", "deliberately false",
                     "{C + a - b = 0} => C = 0", bias_one_length_control, reading="proxy"),
    ),
    expect={
        "length generalization": Verdict.CERTIFIED,  # for t <= 1000 (the bound grows with t)
        "compositional generalization": Verdict.CERTIFIED,
        "A psi = B phi on [0,1]^n": Verdict.CERTIFIED,
        "psi = A^-1 B phi (as printed)": Verdict.CERTIFIED,
        "psi = M phi, M linear (linear representation identification)": Verdict.CERTIFIED,
        "control: psi = phi (wrong group: identity)": Verdict.REFUTED,
        "S1 sigma strictly increasing": Verdict.CERTIFIED,
        "S2 derivative of the pooled sum": Verdict.CERTIFIED,
        "S3 integration constant vanishes": Verdict.CERTIFIED,
        "S7 (15) is a column of (14); (16) by the fundamental theorem of calculus": Verdict.CERTIFIED,
        "S8 C_k = C_j has no x^j-dependence": Verdict.CERTIFIED,
        "S4 one length-1 label fixes A psi": Verdict.CERTIFIED,
        "S5 substitution at every length": Verdict.CERTIFIED,
        "S6 bias variant needs two lengths": Verdict.CERTIFIED,
        "control: one length fixes C under a bias": Verdict.REFUTED,
    },
    proofs=(Proof("Theorem 1", "App. A.2", (
        Step("(10)", "h = f almost everywhere on supp(X_{<=T})",
             why_not="zero l2 risk => equality a.e. (Ash & Doleans-Dade, Thm 1.6.6): measure theory"),
        Step("(11)", "omega(sum psi(x_j)) = rho(sum phi(x_j)) on supp(X_{<=T})",
             why_not="(10) made pointwise by Lemma 1 (AM24.L1) and written in Assumption 1's forms: no "
                     "computation of its own"),
        Step("(12)", "sigma bijective: A sum psi(x_j) = B sum phi(x_j)", by="S1 sigma strictly increasing"),
        Step("(13)", "d/dx_r of both sides of (12)", by="S2 derivative of the pooled sum"),
        Step("(14)", "A grad psi(x) = B grad phi(x) on [0,1]^n", by="S2 derivative of the pooled sum"),
        Step("(15)", "A d psi/dx^k = B d phi/dx^k",
             by="S7 (15) is a column of (14); (16) by the fundamental theorem of calculus"),
        Step("(16)", "A psi(x) - B phi(x) = C_k(x^{-k}) (printed 'x in [0,1]^d': d is n)",
             by="S7 (15) is a column of (14); (16) by the fundamental theorem of calculus"),
        Step("(17)", "C_k(x^{-k}) = C_j(x^{-j}) for k != j", by="S8 C_k = C_j has no x^j-dependence"),
        Step("(18)", "d C_k / d x^j = d C_j / d x^j = 0", by="S8 C_k = C_j has no x^j-dependence"),
        Step("(19)", "A psi(x) = B phi(x) + C, C constant",
             why_not="zero partials in every other coordinate on the connected cube => constant: the "
                     "mean value theorem, no computation"),
        Step("(20)", "summing (19) over T tokens gives T C = 0, so C = 0",
             by="S3 integration constant vanishes"),
        Step("(21)", "A psi = B phi on [0,1]^n", by="A psi = B phi on [0,1]^n"),
        Step("(22)", "h = f at every test length",
             by=("S5 substitution at every length", "length generalization", "compositional generalization")),
    )),),
    sentences=(
        Step("remark after Thm 1", "phi and psi need not have the same output dimension",
             why_not="a parameter, not a claim at the defaults (learned_dim = k): checked by "
                     "theorems/am24/test_t1_drops.py at learned_dim 3"),
        Step("remark after Thm 1", "if A has a left inverse, psi = A^-1 B phi for all x in (0,1)^d (d is n)",
             by="psi = A^-1 B phi (as printed)"),
        Step("Sec. 3 after Thm 1; remark after Thm 1",
             "linear representation identification (psi = A^-1 B phi) is necessary: implied by zero "
             "error at one length", by=("psi = M phi, M linear (linear representation identification)",
                                        "S3 integration constant vanishes")),
        Step("remark after Thm 1", "Assumption 2 is not needed when the length-1 label is observed",
             by="S4 one length-1 label fixes A psi"),
    ),
    cost=Cost(3.3, {"T": 1.27, "learned_dim": 0.37, "n": 0.39}, fixed=2.11),
)
