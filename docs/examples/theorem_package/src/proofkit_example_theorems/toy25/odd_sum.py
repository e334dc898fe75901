"""TOY25.T1: the sum of the first n odd numbers is n^2 (Lemma 1 of the note), checked exactly for every
n <= N and symbolically for every n; a control with an off-by-one closed form must be refuted."""

import sympy as sp

from proofkit import (
    Computed,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    SymbolicStep,
    Theorem,
    Verdict,
    fails,
    holds,
)

k = sp.Symbol("k", integer=True, nonnegative=True)
n = sp.Symbol("n", integer=True, positive=True)


def every_n_up_to_N(p):
    """Evidence: 1 + 3 + ... + (2n - 1) = n^2 in exact integers for n = 1..N (running sums)."""
    total, domain = 0, f"n = 1..{p['N']}"
    for m in range(1, p["N"] + 1):
        total += 2 * m - 1
        if total != m * m:
            return fails(Method.EXACT, f"n = {m}: the sum is {total}, not {m * m}", domain=domain,
                         residual=str(total - m * m))
    return holds(Method.ENUMERATION, domain, count=p["N"])


THEOREM = Theorem(
    id="TOY25.T1",
    title="The first n odd numbers sum to n^2",
    paper=PaperRef("Two Small Facts About Integers (2025)", "Lemma 1", bibkey="toy25notes"),
    statement=sp.Eq(sp.Sum(2 * k + 1, (k, 0, n - 1)), n**2),
    params=ParamSpace((Param("N", int, 100, "largest n checked exactly", min=1, max=100_000),)),
    assumptions=(),
    claims=(
        Computed("sum = n^2 for n <= N", "conclusion", "Lemma 1", text="sum_{k<n} (2k + 1) = n^2, n = 1..N",
                 run=every_n_up_to_N, reading="proxy"),
        SymbolicStep("sum = n^2 for every n", "proof-step", "Lemma 1, proof",
                     "sum_{k<n} (2k + 1) = n^2", lambda: sp.summation(2 * k + 1, (k, 0, n - 1)) - n**2),
        SymbolicStep("control: sum = (n + 1)^2", "control", "an off-by-one closed form (false)",
                     "sum_{k<n} (2k + 1) = (n + 1)^2",
                     lambda: sp.summation(2 * k + 1, (k, 0, n - 1)) - (n + 1) ** 2),
    ),
    expect={
        "sum = n^2 for n <= N": Verdict.CERTIFIED,
        "sum = n^2 for every n": Verdict.CERTIFIED,
        "control: sum = (n + 1)^2": Verdict.REFUTED,
    },
)
