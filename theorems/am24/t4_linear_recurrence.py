"""AM24.T4: a linear recurrence with an injective readout, trained on lengths <= T (T >= 2), length- and
compositionally generalizes, with h~_t = C h_t (Ahuja & Mansouri, Theorem 4 and its proof, eqs. 43-45)."""

import numpy as np
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
    Proof,
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
    predicate,
)
from proofkit.families import (
    INVERTIBLE_KINDS,
    SINGULAR_KINDS,
    LinearRecurrence,
    seeded_matrix,
    spectral_shrink,
    transition,
    with_rank_drop,
    with_readout_bias,
)

n = Symbol("n")
j = Symbol("j", integer=True, nonnegative=True)
# learned (A~, Lam~, B~) and true (A, Lam, B); C the similarity the proof names
At, Lt, Bt = MatrixSymbol("At", n, n), MatrixSymbol("Lt", n, n), MatrixSymbol("Bt", n, n)
A, L, B = MatrixSymbol("A", n, n), MatrixSymbol("L", n, n), MatrixSymbol("B", n, n)
C = MatrixSymbol("C", n, n)
ht, h = MatrixSymbol("ht", n, 1), MatrixSymbol("h", n, 1)
# the statement's own symbols: the readout activation, the learned state dimension k~, the risk of eq. 1
sigma, kt = Symbol("sigma"), Symbol("ktilde")
SpanningSupport = predicate("SpanningSupport", "Assumption 8 (rank part): for some length 2 <= i <= T "
                            "the training support supp(X_{<=i}) holds sequences x_{<=i} whose concatenation "
                            "is an n i x n i matrix of rank n i (args: n, T)")

# the default 2x2 true model (parameter value "INST-SSM-1"); "nonpositive": A = -I, B = I, Lam = I/2, whose
# logits are <= 0 on [0,1]^n, where a ReLU readout is not injective
INST = {"A": [[1.5, -0.7], [0.4, 1.2]], "Lam": [[0.6, -0.3], [0.2, 0.5]], "B": [[1.0, 0.5], [-0.3, 0.8]]}
# the true readout bias of the readout_bias variant (first n entries)
BIAS = [0.3, -0.2, 0.1, -0.4]


def true_params(p):
    size = p["n"]
    if p["true_instance"] == "nonpositive":
        mats = {"A": -np.eye(size), "Lam": np.eye(size) / 2, "B": np.eye(size)}
    elif size == 2:
        mats = {k: np.array(v) for k, v in INST.items()}
    else:
        mats = {"A": seeded_matrix(10 + size, (size, size), 1.5),
                "Lam": spectral_shrink(seeded_matrix(20 + size, (size, size))),
                "B": seeded_matrix(30 + size, (size, size), 1.0)}
    if p["true_A"] == "singular":
        mats["A"] = with_rank_drop(mats["A"], axis=1)
    if p["true_Lam"] == "singular":
        mats["Lam"] = with_rank_drop(mats["Lam"], axis=1)
    elif p["true_Lam"] != "invertible":  # a structured transition (proofkit.families.instances.transition)
        mats["Lam"] = transition(p["true_Lam"], size, seed=40 + size)
    if p["true_B"] == "singular":
        mats["B"] = with_rank_drop(mats["B"], axis=0)
    bias = BIAS[:size] if p["readout_bias"] else []
    return [repr(float(v)) for key in ("A", "Lam", "B") for v in np.ravel(mats[key])] + list(map(repr, bias))


def family(p, k):
    """The linear recurrence of state dimension k, with a readout bias in the readout_bias variant."""
    fam = LinearRecurrence(p["n"], k, p["n"])
    return with_readout_bias(fam) if p["readout_bias"] else fam


def _sym(name):
    return sp.Matrix(2, 2, lambda r, c: sp.Symbol(f"{name}{r}{c}"))


def markov_under_relations():
    """S4: with Lam~ = C Lam C^-1, B~ = C B, A~ = A C^-1, A~ Lam~^j B~ = A Lam^j B (j = 0..2).
    Written with C^-1 = adj(C)/det(C) and cleared of det(C)^(j+1): a polynomial identity (left unexpanded:
    the engine decides it in exact polynomial arithmetic)."""
    Ag, Lg, Bg, Cg = _sym("a"), _sym("l"), _sym("b"), _sym("c")
    adj, det = Cg.adjugate(), Cg.det()
    Ah, Lh, Bh = Ag * adj, Cg * Lg * adj, Cg * Bg
    return [Ah * Lh**k * Bh - det ** (k + 1) * Ag * Lg**k * Bg for k in range(3)]


def induction_step():
    """S5: h~_{t-1} = C h_{t-1} implies h~_t = Lam~ h~_{t-1} + B~ x_t = C (Lam h_{t-1} + B x_t)."""
    Lg, Bg, Cg = _sym("l"), _sym("b"), _sym("c")
    hprev, x = sp.Matrix(sp.symbols("h0 h1")), sp.Matrix(sp.symbols("x0 x1"))
    return Cg * Lg * Cg.inv() * (Cg * hprev) + Cg * Bg * x - Cg * (Lg * hprev + Bg * x)


def stacked_form(printed=False):
    """(43), scalar tokens, i = 3: sum_j (A Lam^j B - A~ Lam~^j B~) x_{i-j} = R X with X = [x_3; x_2; x_1].
    ``printed``: the printed stack X = [x_i; x_{i-2}; ...; x_1] puts x_{i-2} = x_1 where x_{i-1} = x_2 must
    be; the residual is then D_1 (x_2 - x_1) with D_1 = A Lam B - A~ Lam~ B~ (non-zero unless D_1 = 0)."""
    d = sp.symbols("d0 d1 d2")
    xs = sp.symbols("x1 x2 x3")
    X = [xs[2], xs[0], xs[0]] if printed else [xs[2], xs[1], xs[0]]
    return sum(d[j] * xs[2 - j] for j in range(3)) - sum(d[j] * X[j] for j in range(3))


def full_rank_kills_R():
    """R X+ = 0 with X+ square and det X+ != 0 gives R = 0 (a 1 x 3 R, a generic 3 x 3 X+)."""
    R, Xp = sp.Matrix(1, 3, sp.symbols("r0:3")), sp.Matrix(3, 3, sp.symbols("p0:9"))
    return sp.Eq(sp.Tuple(*(R * Xp.adjugate() * Xp / Xp.det()).applyfunc(sp.cancel)), sp.Tuple(*R))


def printed_input_relation():
    """The proof's B~ = B C with C = A~^-1 A, substituted into A B = A~ B~ (first equality of (44))."""
    Ag, Bg, Ah = _sym("a"), _sym("b"), _sym("t")
    return Ah * (Bg * (Ah.inv() * Ag)) - Ag * Bg


def solve_first_two():
    """S3: {A B = A~ B~, A Lam B = A~ Lam~ B~} solved for (B~, Lam~) gives C B and C Lam C^-1."""
    Ag, Lg, Bg, Ah = _sym("a"), _sym("l"), _sym("b"), _sym("t")
    Bh = Ah.inv() * Ag * Bg
    Lh = Ah.inv() * Ag * Lg * Bg * Bh.inv()
    Cg = Ah.inv() * Ag
    return [Bh - Cg * Bg, Lh - Cg * Lg * Cg.inv()]


# ----------------------------------------------------------------------------- tightness of T* = k~ - n + 2
# Derived here, not in the paper (paper_refs.md): with A, B invertible an over-parametrized learner (state
# dimension k~ > n) is identified by the Markov parameters j <= k~ - n + 1 (T >= k~ - n + 2, a hand
# derivation). The two constructions below show that no fewer suffice for k~ = n + 1 and k~ = n + 2: learners
# with D_j = A Lam^j B - A~ Lam~^j B~ = 0 for j <= k~ - n but D_{k~ - n + 1} != 0, written at n = 2 with
# generic symbolic 2x2 A, Lam, B and symbolic vectors v, w.
def _column(name):
    return sp.Matrix(sp.symbols(f"{name}0 {name}1"))


def _row(name):
    return sp.Matrix([sp.symbols(f"{name}0 {name}1")])


def markov_gaps(true, learned, count):
    """D_j = A Lam^j B - A~ Lam~^j B~ for j < count; ``true``, ``learned``: explicit (A, Lam, B)."""
    (Ag, Lg, Bg), (Ah, Lh, Bh) = true, learned
    gaps, right, right_h = [], Bg, Bh
    for _ in range(count):
        gaps.append(Ag * right - Ah * right_h)
        right, right_h = Lg * right, Lh * right_h
    return gaps


def one_extra_mode(e0_sign=-1):
    """k~ = n + 1: Lam~ = [[Lam + E0, v], [0, 0]], B~ = [B; w], A~ = [A, 0], E0 = e0_sign v w B^-1
    (e0_sign = -1 is the construction). Returns ((A, Lam, B), (A~, Lam~, B~), v, w)."""
    Ag, Lg, Bg = _sym("a"), _sym("l"), _sym("b")
    v, w = _column("v"), _row("w")
    E0 = e0_sign * v * w * Bg.inv()
    Lh = sp.Matrix(sp.BlockMatrix([[Lg + E0, v], [sp.zeros(1, 2), sp.zeros(1, 1)]]))
    return (Ag, Lg, Bg), (sp.Matrix.hstack(Ag, sp.zeros(2, 1)), Lh, sp.Matrix.vstack(Bg, w)), v, w


def two_extra_modes(w2=None):
    """k~ = n + 2 (nilpotent chain): Lam~ = [[Lam + E, v, 0], [0, 0, 1], [0, 0, 0]] (v a column, the
    lower-right 2x2 block the shift N), B~ = [B; w1; w2], A~ = [A, 0, 0], E = -v w1 B^-1 and
    w2 = w1 B^-1 Lam B unless given. Returns ((A, Lam, B), (A~, Lam~, B~), v, w1)."""
    Ag, Lg, Bg = _sym("a"), _sym("l"), _sym("b")
    v, w1 = _column("v"), _row("w")
    w2 = w1 * Bg.inv() * Lg * Bg if w2 is None else w2
    z = sp.zeros
    Lh = sp.Matrix(sp.BlockMatrix([[Lg - v * w1 * Bg.inv(), v, z(2, 1)],
                                   [z(1, 2), z(1, 1), sp.ones(1, 1)],
                                   [z(1, 2), z(1, 1), z(1, 1)]]))
    return (Ag, Lg, Bg), (sp.Matrix.hstack(Ag, z(2, 2)), Lh, sp.Matrix.vstack(Bg, w1, w2)), v, w1


def tightness_one_extra_mode():
    """D0 = D1 = 0 and D2 = A v w B^-1 Lam B for the k~ = n + 1 construction."""
    true, learned, v, w = one_extra_mode()
    Ag, Lg, Bg = true
    D = markov_gaps(true, learned, 3)
    return [D[0], D[1], D[2] - Ag * v * w * Bg.inv() * Lg * Bg]


def tightness_two_extra_modes():
    """D0 = D1 = D2 = 0 and D3 = A v w1 B^-1 Lam^2 B for the k~ = n + 2 construction."""
    true, learned, v, w1 = two_extra_modes()
    Ag, Lg, Bg = true
    D = markov_gaps(true, learned, 4)
    return [D[0], D[1], D[2], D[3] - Ag * v * w1 * Bg.inv() * Lg**2 * Bg]


THEOREM = Theorem(
    id="AM24.T4",
    title="Linear recurrence (SSM) with injective readout generalizes; h~_t = C h_t",
    paper=PaperRef("Ahuja & Mansouri 2024 (arXiv 2402.04875v1)", "Sec. 3 / App. A.2, Theorem 4",
                   "(43)-(45)", "ahuja2024provable"),
    latex_names={At: r"\tilde{A}", Lt: r"\tilde{\Lambda}", Bt: r"\tilde{B}", L: r"\Lambda"},
    params=ParamSpace((
        param_T(2), param_activation(), param_supervision(),
        Param("n", int, 2, "token = state = output dimension", min=1, max=4),
        Param("learned_dim", int, 2, "state dimension of the learned model", min=1, max=6, follows="n"),
        Param("true_A", str, "invertible", "true readout", choices=("invertible", "singular")),
        Param("true_Lam", str, "invertible", "true transition: the instance's (invertible), its last column "
              "zeroed (singular), or a structured one: rotation, orthogonal, nonnormal, sign-pattern "
              "(invertible), nilpotent (singular)",
              choices=("invertible", "singular") + INVERTIBLE_KINDS + SINGULAR_KINDS),
        Param("true_B", str, "invertible", "true input map", choices=("invertible", "singular")),
        Param("true_instance", str, "INST-SSM-1", "true model: INST-SSM-1 = (A, Lam, B) = ([[1.5, -0.7], "
              "[0.4, 1.2]], [[0.6, -0.3], [0.2, 0.5]], [[1.0, 0.5], [-0.3, 0.8]]) (seeded for n != 2) "
              "or nonpositive (A = -I, B = I, Lam = I/2)", choices=("INST-SSM-1", "nonpositive")),
        Param("support", str, "iid", "training support: iid U[0,1]^n tokens, cut cube (sum <= cut_frac*n*T) "
              "or subspace (tokens (s, 0, ..., 0))", choices=SUPPORTS),
        Param("cut_frac", float, 0.5, "cut-cube support: sum <= cut_frac*n*T", min=0.0, max=1.0),
        Param("readout_bias", bool, False, "readout sigma(A h_t + a) with a bias, true model too (a variant "
              "not in the paper; true a = (0.3, -0.2, 0.1, -0.4)[:n])"),
    )),
    assumptions=(
        Assumption("A5.injective", "the readout activation is injective (sigmoid)",
                   lambda p: p["activation"] != "relu",
                   {"activation": "relu", "true_instance": "nonpositive"}, predicate=Injective(sigma),
                   note="on the default true model the logits are positive on the support, so ReLU is "
                        "injective where the data reach; the drop uses a true model with logits <= 0"),
        Assumption("A5.square", "learned state dimension equals n (k~ = k = m = n)",
                   lambda p: p["learned_dim"] == p["n"], {"learned_dim": 3}, predicate=Eq(kt, n)),
        Assumption("A5.A-invertible", "the true readout A is invertible",
                   lambda p: p["true_A"] == "invertible", {"true_A": "singular"},
                   predicate=sp.Q.invertible(A)),
        Assumption("A5.Lam-invertible", "the true transition Lam is invertible",
                   lambda p: p["true_Lam"] not in ("singular",) + SINGULAR_KINDS, {"true_Lam": "singular"},
                   predicate=sp.Q.invertible(L)),
        Assumption("A5.B-invertible", "the true input map B is invertible",
                   lambda p: p["true_B"] == "invertible", {"true_B": "singular"},
                   predicate=sp.Q.invertible(B)),
        Assumption("A8", "some length-i training support (2 <= i <= T) spans R^{ni}",
                   lambda p: p["support"] != "subspace", {"support": "subspace"},
                   predicate=SpanningSupport(n, T_len)),
        Assumption("A5.bias-free", "the readout has no bias: sigma(A h_t), as in (43)",
                   lambda p: not p["readout_bias"], {"readout_bias": True},
                   note="with a bias (true model too) lengths 1 and 2 still identify: T* = 2 "
                        "(`scan --param T --set readout_bias=true`); the drop at T = 2 finds none",
                   predicate=Eq(sp.MatrixSymbol("a", sp.Symbol("n"), 1), sp.ZeroMatrix(sp.Symbol("n"), 1),
                                evaluate=False)),
        Assumption("T>=2", "labels up to length T >= 2", lambda p: p["T"] >= 2, {"T": 1},
                   predicate=sp.Ge(T_len, 2)),
        Assumption("ALL", "labels at every length 1..T (objective eq. 1)",
                   lambda p: p["supervision"] == "ALL", {"supervision": "ONLY", "T": 2},
                   predicate=Eq(R_ALL(T_len), 0)),
    ),
    setup=Setup(
        learned=lambda p: family(p, p["learned_dim"]),
        true=lambda p: family(p, p["n"]),
        true_params=true_params,
        support=lambda p: Support(p["support"], p["n"], p["T"], p["cut_frac"]),
        learned_symbols={"A": At, "Lam": Lt, "B": Bt},
        true_symbols={"A": A, "Lam": L, "B": B},
        state_symbols=(ht, h),
    ),
    dims=(("n", "learned_dim"),),
    groups=(GroupElement(C, "GL", definition=At.inv() * A),),
    claims=(
        Generalization("length generalization", kind="length", source="Theorem 4"),
        Generalization("compositional generalization", kind="compositional", source="Theorem 4"),
        Relation("A~^-1 A = B~ B^-1", "identification", "proof of Thm 4, after (44)",
                 At.inv() * A, Bt * B.inv()),
        Relation("B~ = B C (as printed)", "identification", "proof of Thm 4, after (44)", Bt, B * C),
        Relation("Lam~ = C Lam C^-1", "identification", "proof of Thm 4, after (44)",
                 Lt, C * L * C.inv()),
        Relation("A~ = A C^-1", "identification", "C := A~^-1 A", At, A * C.inv()),
        Relation("h~_t = C h_t", "identification", "main text after Thm 4 ('bear a linear relationship')",
                 ht, C * h, over="states", reading="our reading"),
        Relation("Markov A~ Lam~^j B~ = A Lam^j B", "identification", "(44)-(45)",
                 At * Lt**j * Bt, A * L**j * B, over="powers"),
        Relation("control: Lam~ = Lam (wrong group: identity)", "control", "deliberately false",
                 Lt, L, reading="proxy"),
        SymbolicStep("S3 solve first two equalities of (44)", "proof-step", "(44)",
                     "{AB = A~B~, A Lam B = A~ Lam~ B~} => B~ = CB, Lam~ = C Lam C^-1",
                     solve_first_two, reading="corrected"),
        SymbolicStep("S4 Markov parameters under the relations", "proof-step", "(45)",
                     "A~ Lam~^j B~ = A Lam^j B, j = 0..2, for generic 2x2 matrices",
                     markov_under_relations, reading="corrected"),
        SymbolicStep("S5 induction h~_t = C h_t", "identification", "main text",
                     "h~_{t-1} = C h_{t-1} => h~_t = C h_t", induction_step, reading="our reading"),
        SymbolicStep("S3-printed: B~ = B C satisfies A B = A~ B~", "identification",
                     "proof of Thm 4, after (44)", "A~ (B C) - A B = 0 with C = A~^-1 A",
                     printed_input_relation),
        SymbolicStep("S6 (43): the Markov block times the stacked inputs", "proof-step", "(43)",
                     "sum_j (A Lam^j B - A~ Lam~^j B~) x_{i-j} = R [x_i; x_{i-1}; ...; x_1] (i = 3)",
                     stacked_form, reading="corrected"),
        SymbolicStep("(43) as printed: X = [x_i; x_{i-2}; ...; x_1]", "identification",
                     "(43), its 'where' clause (the display itself is lost in our copy of the text)",
                     "sum_j (A Lam^j B - A~ Lam~^j B~) x_{i-j} = R [x_i; x_{i-2}; ...; x_1] (i = 3)",
                     lambda: stacked_form(printed=True)),
        SymbolicStep("S7 R X+ = 0 with X+ of full rank gives R = 0", "proof-step", "display after (43)",
                     "R X+ = 0, det X+ != 0 => R = R X+ adj(X+) / det(X+) = 0", full_rank_kills_R),
        SymbolicStep("T* tight at k~ = n + 1", "identification",
                     "tightness of T* = k~ - n + 2 (derived here, not in the paper)",
                     "k~ = n + 1: Lam~ = [[Lam + E0, v], [0, 0]], B~ = [B; w], A~ = [A, 0], "
                     "E0 = -v w B^-1 give D_j = A Lam^j B - A~ Lam~^j B~ = 0 for j = 0, 1 and "
                     "D_2 = A v w B^-1 Lam B (generic 2x2 A, Lam, B, symbolic v, w); "
                     "D_2 = (A v)(w B^-1 Lam B) is non-zero for invertible A, Lam, B and non-zero v, w, "
                     "so training on lengths <= 2 "
                     "does not identify a learner of dimension n + 1 (T* = 3)",
                     tightness_one_extra_mode, reading="our reading"),
        SymbolicStep("T* tight at k~ = n + 2", "identification",
                     "tightness of T* = k~ - n + 2 (derived here, not in the paper)",
                     "k~ = n + 2 (nilpotent chain): Lam~ = [[Lam + E, v, 0], [0, 0, 1], [0, 0, 0]], "
                     "B~ = [B; w1; w2], A~ = [A, 0, 0], E = -v w1 B^-1, w2 = w1 B^-1 Lam B give D_j = 0 "
                     "for j = 0, 1, 2 and D_3 = A v w1 B^-1 Lam^2 B (generic 2x2 A, Lam, B, symbolic v, w1); "
                     "D_3 = (A v)(w1 B^-1 Lam^2 B) is non-zero for invertible A, Lam, B and non-zero v, w1, "
                     "so training on lengths <= 3 does not identify a learner of dimension n + 2 (T* = 4)",
                     tightness_two_extra_modes, reading="our reading"),
    ),
    expect={
        "length generalization": Verdict.CERTIFIED,
        "compositional generalization": Verdict.CERTIFIED,
        "A~^-1 A = B~ B^-1": Verdict.CERTIFIED,
        "B~ = B C (as printed)": Verdict.REFUTED,
        "Lam~ = C Lam C^-1": Verdict.CERTIFIED,
        "A~ = A C^-1": Verdict.CERTIFIED,
        "h~_t = C h_t": Verdict.CERTIFIED,  # every length t >= 1: state Markov parameters plus tails
        "Markov A~ Lam~^j B~ = A Lam^j B": Verdict.CERTIFIED,
        "control: Lam~ = Lam (wrong group: identity)": Verdict.REFUTED,
        "S3 solve first two equalities of (44)": Verdict.CERTIFIED,
        "S4 Markov parameters under the relations": Verdict.CERTIFIED,
        "S5 induction h~_t = C h_t": Verdict.CERTIFIED,
        "S3-printed: B~ = B C satisfies A B = A~ B~": Verdict.REFUTED,
        "T* tight at k~ = n + 1": Verdict.CERTIFIED,
        "T* tight at k~ = n + 2": Verdict.CERTIFIED,
        "S6 (43): the Markov block times the stacked inputs": Verdict.CERTIFIED,
        "(43) as printed: X = [x_i; x_{i-2}; ...; x_1]": Verdict.REFUTED,
        "S7 R X+ = 0 with X+ of full rank gives R = 0": Verdict.CERTIFIED,
    },
    proofs=(Proof("Theorem 4", "App. A.2", (
        Step("h = f", "h = f on supp(X_{<=i}), from zero risk and Lemma 1's first part",
             why_not="zero l2 risk => equality a.e., made pointwise by Lemma 1 (AM24.L1): measure theory"),
        Step("(43)", "sigma bijective: [A B, A Lam B, ..., A Lam^{i-1} B] X = [A~ B~, ...] X (the display is "
             "lost in our copy of the text; its 'where' clause prints X = [x_i; x_{i-2}; ...; x_1])",
             by=("S6 (43): the Markov block times the stacked inputs",
                 "(43) as printed: X = [x_i; x_{i-2}; ...; x_1]")),
        Step("display after (43)", "R X+ = 0 with rank X+ = n i (Assumption 8) => R = 0",
             by="S7 R X+ = 0 with X+ of full rank gives R = 0"),
        Step("(44)", "A Lam^j B = A~ Lam~^j B~ (printed up to j = i; R = 0 gives j <= i - 1, the j = i term "
             "follows from the identification below)", by="Markov A~ Lam~^j B~ = A Lam^j B"),
        Step("after (44), first", "A~^-1 A = B~ B^-1 =: C", by="A~^-1 A = B~ B^-1"),
        Step("after (44), second", "B~ = B C (as printed; the first equality gives B~ = C B)",
             by=("B~ = B C (as printed)", "S3-printed: B~ = B C satisfies A B = A~ B~",
                 "S3 solve first two equalities of (44)")),
        Step("after (44), third", "Lam~ = C Lam C^-1",
             by=("Lam~ = C Lam C^-1", "S3 solve first two equalities of (44)")),
        Step("after (44), solution set", "every solution: A~ invertible, Lam~ = C Lam C^-1, B~ = B C "
             "(printed), C = A~^-1 A", by=("S3 solve first two equalities of (44)", "A~ = A C^-1")),
        Step("display before (45)", "A~ Lam~^i B~ = A~ C Lam^i C^-1 B~ = A Lam^i B ('for all k': for all i)",
             by="S4 Markov parameters under the relations"),
        Step("(45)", "h(x_{<=i}) = f(x_{<=i}) for every i >= 1",
             by=("S4 Markov parameters under the relations", "length generalization",
                 "compositional generalization")),
    )),),
    sentences=(
        Step("after (45)", "equating the predictions up to length 2 suffices",
             by=("length generalization", "S3 solve first two equalities of (44)")),
        Step("Sec. 3 after Thm 4", "linear identification (h~_t and h_t related by a linear map) is "
             "necessary",
             by=("h~_t = C h_t", "S5 induction h~_t = C h_t")),
    ),
    cost=Cost(2.72, {"T": 0.77, "learned_dim": 1.36, "n": 0.75}),
)
