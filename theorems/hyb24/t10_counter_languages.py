"""HYB24.T10: MAJORITY, DYCK-1 and a^n b^n c^n are definable in C-RASP[] (Huang et al. 2024, Thm 10)."""

from pathlib import Path

import sympy as sp

from proofkit import (
    CRASP_PLAIN,
    Assumption,
    Computed,
    Cost,
    InCRASP,
    PaperRef,
    Param,
    ParamSpace,
    Theorem,
    Verdict,
    function,
)
from proofkit.crasp.tasks import agreement, rows_match

depth = function("depth", "largest nesting depth of counts a program of the fragment may use (a count of a "
                          "counted predicate has depth 2)")

PROGRAMS = Path(__file__).parent / "programs"


def member(file, fragment="[]"):
    """Evidence: the program agrees with its ground truth on every string up to the exhaustive length
    and lies in the fragment (a bounded proxy of membership, which is about every length)."""
    return lambda p: agreement(PROGRAMS, file, p["binary_len"], fragment)


def mutant_rejected(p):
    """Control: DYCK-1 without the depth-2 violation count is claimed to be DYCK-1 (false)."""
    return agreement(PROGRAMS, "dyck1_mutant.crasp", p["binary_len"])


THEOREM = Theorem(
    id="HYB24.T10",
    title="MAJORITY, DYCK-1 and a^n b^n c^n are in C-RASP[] (so NoPE transformers length-generalize)",
    paper=PaperRef("Huang et al. 2024 (arXiv 2410.02140)", "Sec. 4, Theorem 10; App. C.1", "",
                   "huang2024formal"),
    params=ParamSpace((
        Param("binary_len", int, 20, "exhaustive length for binary alphabets (others: same string count)",
              min=1, max=24),
        Param("N", int, 8, "largest split N for the communication rows", min=1, max=12),
    )),
    assumptions=(
        Assumption("nested-counts", "programs may count a counted predicate (depth 2)",
                   note="the control claim shows depth 1 does not suffice for DYCK-1 (')(' accepted)",
                   predicate=sp.Ge(depth(CRASP_PLAIN), 2)),
    ),
    claims=(
        Computed("MAJORITY in C-RASP[]", "conclusion", "Thm 10 (1)",
                 "M := #Q(b) <= #Q(a) decides #a >= #b", member("majority.crasp"), reading="proxy",
                 predicate=InCRASP(sp.Symbol("MAJORITY"), CRASP_PLAIN)),
        Computed("DYCK-1 in C-RASP[]", "conclusion", "Thm 10 (2); App. C.1.2",
                 "V := #Q(() < #Q()); D := #V == 0 and #Q(() == #Q()) decides DYCK-1", member("dyck1.crasp"),
                 reading="proxy",
                 predicate=InCRASP(sp.Symbol("DYCK-1"), CRASP_PLAIN)),
        Computed("a^n b^n c^n in C-RASP[]", "conclusion",
                 "Thm 10 (3); App. C.1.3 (item (3) read as a^n b^n c^n: a reconstruction)",
                 "no a after b/c, no b after c, equal counts", member("anbncn.crasp"), reading="proxy",
                 predicate=InCRASP(sp.Symbol("a^n b^n c^n"), CRASP_PLAIN)),
        Computed("a^n b^n in C-RASP[]", "identification", "robustness variant",
                 "analogous program without c", member("anbn.crasp"), reading="proxy"),
        Computed("a^n b^n c^n d^n in C-RASP[]", "identification", "robustness variant",
                 "analogous program with d", member("anbncndn.crasp"), reading="proxy"),
        Computed("MAJORITY rows = N + 1", "identification",
                 "Sec. 4.3 one-way rows of Thm 10 (1): reference values computed here, not in the paper",
                 "one-way rows of MAJORITY at split N equal N + 1 (and obey the T12 bound)",
                 lambda p: rows_match(PROGRAMS, "majority.crasp", range(1, p["N"] + 1), lambda N: N + 1),
                 reading="proxy"),
        Computed("DYCK-1 rows = floor(N/2) + 2", "identification",
                 "Sec. 4.3 one-way rows of Thm 10 (2): reference values computed here, not in the paper",
                 "one-way rows of DYCK-1 at split N equal floor(N/2) + 2",
                 lambda p: rows_match(PROGRAMS, "dyck1.crasp", range(1, p["N"] + 1), lambda N: N // 2 + 2),
                 reading="proxy"),
        Computed("control: depth-1 program decides DYCK-1", "control", "deliberately false",
                 "D := #Q(() == #Q()) decides DYCK-1", mutant_rejected, reading="proxy"),
    ),
    expect={
        "MAJORITY in C-RASP[]": Verdict.CERTIFIED,
        "DYCK-1 in C-RASP[]": Verdict.CERTIFIED,
        "a^n b^n c^n in C-RASP[]": Verdict.CERTIFIED,
        "a^n b^n in C-RASP[]": Verdict.CERTIFIED,
        "a^n b^n c^n d^n in C-RASP[]": Verdict.CERTIFIED,
        "MAJORITY rows = N + 1": Verdict.CERTIFIED,
        "DYCK-1 rows = floor(N/2) + 2": Verdict.CERTIFIED,
        "control: depth-1 program decides DYCK-1": Verdict.REFUTED,
    },
    cost=Cost(3.6, per_unit={"binary_len": 2.1, "N": 1.25}),
)
