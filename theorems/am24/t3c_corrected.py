"""AM24.T3c: Theorem 3 as corrected here (derived here, not in the paper; see AM24.T3's notes).

As printed, Theorem 3 asks for Assumption 7 (the pairs [phi(X_1, X_2), phi(X_1, X_3)] fill R^{2k}), which no
phi continuous on the compact pair support meets, and for C^1 diffeomorphic omega, rho, under which AM24.T3
finds zero-risk learners that fail to generalize. The correction: omega, rho real-analytic, pairs
(phi(x_3, x_1), phi(x_3, x_2)) with non-empty interior in R^{2k} (a compact pair map such as phi(a, b) = b
qualifies), T >= 3 with every length supervised, causal keys. It is put to the same tests as the printed
statement: the exact witness search of AM24.T3 at its own defaults, each assumption dropped by the drop
search, and a false variant (the correction at T = 2) that the suite must refute.
"""

from dataclasses import replace

import sympy as sp

from proofkit import Assumption, PaperRef, Theorem, Verdict, predicate
from proofkit.families import CONCLUSION

from .t3_general_readout import CORRECTED, VECTOR
from .t3_general_readout import THEOREM as PRINTED

Analytic = predicate("Analytic", "omega and rho are real-analytic diffeomorphisms")
InteriorNonEmpty = predicate("InteriorNonEmpty", "the pairs {(phi(x_3, x_1), phi(x_3, x_2))} have "
                             "non-empty interior")
#: the printed theorem's claims this correction is checked by, by name
_CLAIMS = {c.name: c for c in PRINTED.claims}
_KEPT = ("H0.realizable", "H1.pair-support", "A7.regular-closed", "ALL", "T>=3", "A4.causal")
SEARCH = "corrected T3: every zero-risk learner generalizes (exact witness search)"
CONTROL = "control: the correction at T = 2 generalizes"
DERIVATIVE = "S8 derivative of Cauchy's equation"

THEOREM = Theorem(
    id="AM24.T3c",
    title="Theorem 3 corrected: real-analytic omega, rho, pairs of pair-map values with interior, T >= 3",
    paper=PaperRef(PRINTED.paper.paper, PRINTED.paper.section + "; corrected here", PRINTED.paper.equation,
                   PRINTED.paper.bibkey),
    corrects="AM24.T3",
    conclusion=PRINTED.conclusion,
    params=PRINTED.params.with_defaults(readout="analytic", pair_map="bounded"),
    assumptions=(
        Assumption("A4.analytic", "omega, rho are real-analytic diffeomorphisms (replaces C^1)",
                   lambda p: p["readout"] == "analytic", {"readout": "C1"},
                   predicate=Analytic(sp.Symbol("omega"), sp.Symbol("rho"))),
        Assumption("A7'.interior", "the pairs {(phi(x_3, x_1), phi(x_3, x_2))} have non-empty interior "
                   "(replaces Assumption 7's R^{2k})", drop={},
                   note="not droppable by this search: both pair maps of the family (logit and phi = b) have "
                        "pairs with interior",
                   predicate=InteriorNonEmpty(sp.Symbol("phi"))),
        *(a for a in PRINTED.assumptions if a.id in _KEPT),
    ),
    claims=(
        replace(_CLAIMS[CONCLUSION], name=SEARCH, source="Theorem 3 as corrected here",
                reading="corrected"),
        _CLAIMS[CORRECTED],
        _CLAIMS[VECTOR],
        _CLAIMS[DERIVATIVE],
        replace(_CLAIMS["T3 at T = 2 (ALL), analytic omega: generalizes"], name=CONTROL, role="control",
                source="deliberately false: the correction without T >= 3", reading="proxy"),
    ),
    falsifier=PRINTED.falsifier,
    expect={
        SEARCH: Verdict.CONFIRMED,
        CORRECTED: Verdict.CERTIFIED,
        VECTOR: Verdict.CERTIFIED,
        DERIVATIVE: Verdict.CERTIFIED,
        CONTROL: Verdict.REFUTED,
    },
    notes="Derived here, not in the paper. Certified for polynomial a = omega^-1 o rho of degree <= D "
          "(exact); the real-analytic case rests on S8 (a C^1 additive a has constant derivative) and the "
          "identity theorem. The witness search finds no zero-risk learner that fails to generalize at the "
          "defaults; dropping A4.analytic, T>=3, ALL, H0.realizable or H1.pair-support finds one.",
)
