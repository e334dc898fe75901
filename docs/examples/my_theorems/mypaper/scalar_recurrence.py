"""MY.T1: a scalar linear recurrence with a sigmoid readout, trained on every length 1..T (T >= 2),
generalizes to every length; its transition is identified (lam~ = lam) but its input weight is not
(only the product a b is): a worked example of a user's theorem file (docs/user_theorems.md)."""

import sympy as sp
from sympy import MatrixSymbol

from proofkit import (
    Assumption,
    Generalization,
    PaperRef,
    ParamSpace,
    Relation,
    Setup,
    Support,
    SymbolicStep,
    Theorem,
    Verdict,
    param_T,
)
from proofkit.families import LinearRecurrence

# learned (a~, lam~, b~) and true (a, lam, b), as 1x1 matrices: the relations are matrix expressions
At, Lt, Bt = MatrixSymbol("At", 1, 1), MatrixSymbol("Lt", 1, 1), MatrixSymbol("Bt", 1, 1)
A, L, B = MatrixSymbol("A", 1, 1), MatrixSymbol("L", 1, 1), MatrixSymbol("B", 1, 1)


def sigmoid_via_tanh():
    """The readout sigma(u) = 1/(1 + e^-u) equals (1 + tanh(u/2))/2: a step sympy only settles after
    rewriting tanh in exp (proofkit tries that before it gives up)."""
    u = sp.Symbol("u", real=True)
    return 1 / (1 + sp.exp(-u)) - (1 + sp.tanh(u / 2)) / 2


def lam_from_two_markov_parameters():
    """a~ b~ = a b and a~ lam~ b~ = a lam b with a b != 0 give lam~ = lam."""
    a, b, lam, at, bt, lt = sp.symbols("a b lam at bt lt", nonzero=True)
    sol = sp.solve([at * bt - a * b, at * lt * bt - a * lam * b], [lt, bt], dict=True)
    return [s[lt] - lam for s in sol]


THEOREM = Theorem(
    id="MY.T1",
    title="Scalar linear recurrence: length generalization, lam~ = lam",
    paper=PaperRef("my notes", "Example 1"),
    statement=sp.Implies(sp.Eq(sp.Function("R")(sp.Symbol("T")), 0),
                         sp.Eq(sp.Function("h")(sp.Symbol("t")), sp.Function("f")(sp.Symbol("t")))),
    params=ParamSpace((param_T(2),)),
    assumptions=(
        Assumption("T>=2", "labels up to length T >= 2", lambda p: p["T"] >= 2, {"T": 1}),
    ),
    setup=Setup(
        learned=lambda p: LinearRecurrence(1, 1, 1),
        true=lambda p: LinearRecurrence(1, 1, 1),
        true_params=lambda p: ["1.5", "0.5", "0.8"],  # a, lam, b as exact decimal strings
        support=lambda p: Support("iid", 1, p["T"]),
        learned_symbols={"A": At, "Lam": Lt, "B": Bt},
        true_symbols={"A": A, "Lam": L, "B": B},
    ),
    claims=(
        Generalization("length generalization", kind="length", source="Example 1"),
        Relation("a~ b~ = a b", "identification", "Markov parameter j = 0", At * Bt, A * B),
        Relation("lam~ = lam", "identification", "Markov parameters j = 0, 1", Lt, L),
        Relation("claimed: b~ = b", "identification", "a claim to test (false: a~, b~ trade scale)",
                 Bt, B),
        SymbolicStep("sigma(u) = (1 + tanh(u/2))/2", "proof-step", "readout",
                     "1/(1 + e^-u) = (1 + tanh(u/2))/2", sigmoid_via_tanh),
        SymbolicStep("lam~ = lam from two Markov parameters", "proof-step", "Example 1",
                     "a~b~ = ab, a~ lam~ b~ = a lam b, ab != 0 => lam~ = lam",
                     lam_from_two_markov_parameters),
    ),
    expect={
        "length generalization": Verdict.CERTIFIED,
        "a~ b~ = a b": Verdict.CERTIFIED,
        "lam~ = lam": Verdict.CERTIFIED,
        "claimed: b~ = b": Verdict.REFUTED,
        "sigma(u) = (1 + tanh(u/2))/2": Verdict.CERTIFIED,
        "lam~ = lam from two Markov parameters": Verdict.CERTIFIED,
    },
)
