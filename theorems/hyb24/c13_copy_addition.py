"""HYB24.C13: no Periodic, Local Limit Transformer expresses copying with repetitions, binary addition,
multiplication or Dyck-2 (Huang et al. 2024, Cor. 13 = Cor. 20, Remark 21): exponential one-way rows."""

import sympy as sp

from proofkit.crasp import comm
from proofkit.params import Param, ParamSpace
from proofkit.predicates import rows
from proofkit.spec import Computed, PaperRef, Theorem
from proofkit.verdict import Verdict

N = sp.Symbol("N", integer=True, positive=True)


def exponential(family, label):
    def run(p):
        Ns = range(1, p["N"] + 1)
        got = [comm.rows(family, 2, N) for N in Ns]
        full = all(r == 2**N for r, N in zip(got, Ns))
        bound = [(N + 1) ** 4 for N in Ns]
        return (Verdict.CONFIRMED if full else Verdict.REFUTED, str(got),
                f"exact rows of the {label} family for N = 1..{p['N']}: {got} (= 2^N: {full}); a C-RASP "
                f"program with 4 plain counts would allow at most {bound[-1]} at N = {p['N']}; evidence "
                f"consistent with Corollary 13, not a proof (finite N)")
    return run


def polynomial_control(p):
    """Control: 'copying has at most (N+1)^2 rows' (a small program's bound) is false."""
    Ns = range(1, p["N"] + 1)
    got = [comm.rows(comm.copy_marked_family, 2, N) for N in Ns]
    bad = [N for N, r in zip(Ns, got) if r > (N + 1) ** 2]
    if bad:
        return Verdict.REFUTED, str(got), f"rows exceed (N+1)^2 first at N = {bad[0]}: {got}"
    return Verdict.CONFIRMED, str(got), f"rows {got} stay below (N+1)^2"


THEOREM = Theorem(
    id="HYB24.C13",
    title="Copying with repetition, addition, multiplication and Dyck-2 are not expressible "
          "(exponential rows)",
    paper=PaperRef("Huang et al. 2024 (arXiv 2410.02140)",
                   "Sec. 4.3, Corollary 13; App. B.3 (Cor. 20, Remark 21)", "", "huang2024formal"),
    params=ParamSpace((Param("N", int, 10, "largest split N (binary)", min=1, max=12),)),
    assumptions=(),
    claims=(
        Computed("copy x#y has 2^N rows", "conclusion", "Cor. 13 (1)", "one-way rows of w#w grow as 2^N",
                 exponential(comm.copy_marked_family, "marked copy x#y"),
                 predicate=sp.Eq(rows(sp.Symbol("x#y, y = x"), N), 2**N)),
        Computed("addition a+0=c has 2^N rows", "conclusion", "Cor. 13 (2)",
                 "one-way rows of the a + 0 = c sub-family grow as 2^N",
                 exponential(comm.addition_zero_family, "addition a+0=c"),
                 predicate=sp.Eq(rows(sp.Symbol("a+0=c"), N), 2**N)),
        Computed("Dyck-2 u.v has 2^N rows", "conclusion", "Remark 21",
                 "one-way rows of the Dyck-2 family u in {(,[}^N, v in {),]}^N grow as 2^N",
                 exponential(comm.dyck2_family, "Dyck-2"),
                 predicate=sp.Eq(rows(sp.Symbol("Dyck-2"), N), 2**N)),
        Computed("control: copying has at most (N+1)^2 rows", "control", "deliberately false",
                 "rows(copy, N) <= (N+1)^2", polynomial_control),
    ),
    expect={
        "copy x#y has 2^N rows": Verdict.CONFIRMED,
        "addition a+0=c has 2^N rows": Verdict.CONFIRMED,
        "Dyck-2 u.v has 2^N rows": Verdict.CONFIRMED,
        "control: copying has at most (N+1)^2 rows": Verdict.REFUTED,
    },
)
