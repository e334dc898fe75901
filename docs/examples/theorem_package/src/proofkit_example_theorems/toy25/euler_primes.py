"""TOY25.L2: n^2 + n + 41 is prime for 0 <= n <= N when N <= 39 (Lemma 2 of the note, Euler's
polynomial). The assumption is tight: at N = 40 the value is 41^2, so `proofkit check TOY25.L2 --set N=40`
is refuted (exit 1), naming the violated assumption and the witness."""

import sympy as sp

from proofkit import (
    Assumption,
    Computed,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Theorem,
    Verdict,
    forall,
    predicate,
)

N = sp.Symbol("N", integer=True, nonnegative=True)
AllPrime = predicate("AllPrime", "n^2 + n + 41 is prime for every integer 0 <= n <= N")


def composite(m):
    """None if m^2 + m + 41 is prime (sympy.isprime, deterministic below 2^64), else the witness."""
    value = m * m + m + 41
    if sp.isprime(value):
        return None
    return f"n = {m}: {value} is divisible by {min(sp.factorint(value))}"


def all_prime(p):
    """Evidence: exact primality of n^2 + n + 41 at every n = 0..N (the engine decides the verdict)."""
    return forall(range(p["N"] + 1), composite, method=Method.ENUMERATION, domain=f"n = 0..{p['N']}")


THEOREM = Theorem(
    id="TOY25.L2",
    title="Euler's polynomial n^2 + n + 41 is prime for n <= 39",
    paper=PaperRef("Two Small Facts About Integers (2025)", "Lemma 2", bibkey="toy25notes"),
    params=ParamSpace((Param("N", int, 39, "largest n", min=0, max=10_000),)),
    assumptions=(
        Assumption("N<=39", "n ranges up to N <= 39", lambda p: p["N"] <= 39, {"N": 40},
                   predicate=sp.Le(N, 39)),
    ),
    claims=(
        Computed("prime for n <= N", "conclusion", "Lemma 2", text="n^2 + n + 41 is prime, n = 0..N",
                 run=all_prime, predicate=AllPrime(N)),
    ),
    expect={"prime for n <= N": Verdict.CERTIFIED},
)
