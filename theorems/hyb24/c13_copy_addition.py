"""HYB24.C13: no Periodic, Local Limit Transformer expresses copying with repetitions, binary addition,
multiplication or Dyck-2 (Huang et al. 2024, Cor. 13 = Cor. 20, Remark 21): exponential one-way rows."""

import sympy as sp

from proofkit import Computed, Cost, Method, PaperRef, Param, ParamSpace, Theorem, Verdict, fails, holds, rows
from proofkit.crasp.communication import comm

N = sp.Symbol("N", integer=True, positive=True)


def _domain(label, top):
    return f"the {label} family at N = 1..{top}, every binary string of length 2N"


def exponential(family, label):
    """Evidence: exact one-way rows of the family equal 2^N at every N = 1..N (a finite proxy of the
    exponential lower bound behind Corollary 13; larger N are not covered)."""
    def run(p):
        Ns = range(1, p["N"] + 1)
        got = [comm.rows(family, 2, N) for N in Ns]
        bound = [(N + 1) ** 4 for N in Ns]  # a C-RASP program with 4 plain counts (text only)
        domain = _domain(label, p["N"])
        off = next(((N, r) for N, r in zip(Ns, got) if r != 2**N), None)
        if off is not None:
            return fails(Method.ENUMERATION, f"N = {off[0]}: {off[1]} rows, not 2^N = {2 ** off[0]}",
                         domain=domain, count=len(Ns), residual=str(got), detail=f"rows {got}")
        return holds(Method.ENUMERATION, domain, count=len(Ns), residual=str(got),
                     detail=f"exact rows of the {label} family for N = 1..{p['N']}: {got} (= 2^N); a C-RASP "
                            f"program with 4 plain counts would allow at most {bound[-1]} at "
                            f"N = {p['N']}; consistent with Corollary 13, not a proof (finite N)")
    return run


def polynomial_control(p):
    """Control: 'copying has at most (N+1)^2 rows' (a small program's bound) is false."""
    Ns = range(1, p["N"] + 1)
    got = [comm.rows(comm.copy_marked_family, 2, N) for N in Ns]
    domain = _domain("marked copy x#y", p["N"])
    bad = [N for N, r in zip(Ns, got) if r > (N + 1) ** 2]
    if bad:
        return fails(Method.ENUMERATION, f"N = {bad[0]}: {got[bad[0] - 1]} rows > (N+1)^2 = "
                     f"{(bad[0] + 1) ** 2}", domain=domain, count=len(Ns), residual=str(got),
                     detail=f"rows {got}")
    return holds(Method.ENUMERATION, domain, count=len(Ns), residual=str(got),
                 detail=f"rows {got} stay at most (N+1)^2")


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
                 exponential(comm.copy_marked_family, "marked copy x#y"), reading="proxy",
                 predicate=sp.Eq(rows(sp.Symbol("x#y, y = x"), N), 2**N)),
        Computed("addition a+0=c has 2^N rows", "conclusion", "Cor. 13 (2)",
                 "one-way rows of the a + 0 = c sub-family grow as 2^N",
                 exponential(comm.addition_zero_family, "addition a+0=c"), reading="proxy",
                 predicate=sp.Eq(rows(sp.Symbol("a+0=c"), N), 2**N)),
        Computed("Dyck-2 u.v has 2^N rows", "conclusion", "Remark 21",
                 "one-way rows of the Dyck-2 family u in {(,[}^N, v in {),]}^N grow as 2^N",
                 exponential(comm.dyck2_family, "Dyck-2"), reading="proxy",
                 predicate=sp.Eq(rows(sp.Symbol("Dyck-2"), N), 2**N)),
        Computed("control: copying has at most (N+1)^2 rows", "control", "deliberately false",
                 "rows(copy, N) <= (N+1)^2", polynomial_control, reading="proxy"),
    ),
    expect={
        "copy x#y has 2^N rows": Verdict.CERTIFIED,
        "addition a+0=c has 2^N rows": Verdict.CERTIFIED,
        "Dyck-2 u.v has 2^N rows": Verdict.CERTIFIED,
        "control: copying has at most (N+1)^2 rows": Verdict.REFUTED,
    },
    cost=Cost(5.8, per_unit={"N": 4.2}),
)
