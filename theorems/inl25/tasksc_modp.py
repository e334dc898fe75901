"""INL25.TASKSc: the ModPTask construction of App. A.2 as corrected here (derived here, not in the paper;
see INL25.TASKS's claim "ModPTask construction with p_i = q_j, i = j (mod p)").

As printed, the construction's position vectors are "p_i = q_j where i != j (mod p)", and INL25.TASKS
finds readings of that rule (the complement sum with the construction's K, the smallest j != i) under which
the construction does not compute the target. The correction: p_i = q_(i mod p) with K reading +c q_k
(a finite gap c in place of the appendix's infinite logit), the inclusive flush, and strings of length
N >= 2^(bits/c) with a defined target. It is put to the tests of the printed statement: the exact forward
pass on every defined string (INL25.TASKS's check), an exact search over every precision 1..bits, period
1..period_max, index k and string (proofkit.limit.modp_search), each assumption dropped by the drop
search, and a false variant (the printed "i != j" read as the smallest j != i) that the suite must refute.
"""

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import sympy as sp

from proofkit import (
    Assumption,
    Computed,
    Cost,
    Evidence,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Theorem,
    Verdict,
    fails,
    holds,
    predicate,
)
from proofkit.limit import ModPFalsifier

from .tasks_constructions import THEOREM as PRINTED

PositionsEquiv = predicate("PositionsEquiv", "the construction's positions p_i equal q_(i mod p) and its key "
                           "matrix reads +c q_k")
FlushInclusive = predicate("FlushInclusive", "every softmax term <= 2^-bits after the maximum is subtracted "
                           "is set to 0 (inclusive)")
TargetDefined = predicate("TargetDefined", "the string has a position t <= N with t = k (mod p)")

_CLAIMS = {c.name: c for c in PRINTED.claims}
CORRECTED = "ModPTask construction with p_i = q_j, i = j (mod p)"
NORM = "ModPTask construction's L"
SEARCH = "corrected ModPTask construction at every precision, period, k and string (exact search)"
CONTROL = "control: the correction with the printed i != j (smallest j != i)"
FALSIFIER = ModPFalsifier()
READINGS = ("equiv", "shift", "complement", "complement-adapted", "first")


def _search(p: Mapping[str, Any], **change: Any) -> Evidence:
    """The falsifier's exact search at ``p`` (with ``change``): holds iff no string is computed wrong."""
    out = FALSIFIER.search({**p, **change})
    if out.found:
        w = out.witness
        return fails(Method.EXACT, out.how, domain=out.effort, count=1,
                     residual=f"{w['output']} vs {w['target']}")
    return holds(Method.EXACT, out.effort, count=1, detail=out.how)


def corrected_search(p: Mapping[str, Any]) -> Evidence:
    return _search(p)


def control_first(p: Mapping[str, Any]) -> Evidence:
    """Control: the printed 'p_i = q_j where i != j' read as the smallest such j, the construction's K."""
    return _search(p, reading="first")


THEOREM = Theorem(
    id="INL25.TASKSc",
    title="ModPTask construction corrected: p_i = q_(i mod p), finite gap c, N >= 2^(bits/c)",
    paper=PaperRef(PRINTED.paper.paper, "App. A.2 (ModPTask construction); corrected here",
                   PRINTED.paper.equation, PRINTED.paper.bibkey),
    corrects="INL25.TASKS",
    conclusion=PRINTED.conclusion,
    params=ParamSpace((
        Param("reading", str, "equiv", "the position rule (equiv: p_i = q_(i mod p), the correction; the "
              "others are readings of the printed i != j, INL25.TASKS)", choices=READINGS),
        Param("c", int, 2, "logit gap replacing the appendix's infinite logit", min=1, max=8),
        Param("bits", int, 4, "precision in bits: the search covers every precision 1..bits", min=1, max=8),
        Param("period_max", int, 4, "the search covers periods 1..period_max, every k = 0..p-1",
              min=1, max=6),
        Param("n_max", int, 7, "the search covers every string up to this length", min=2, max=10),
        Param("start", str, "threshold", "the shortest length searched: the hardmax threshold 2^(bits/c) or "
              "1", choices=("threshold", "1")),
        Param("rule", str, "inclusive", "flush rule: inclusive (<= 2^-bits) or strict (< 2^-bits)",
              choices=("inclusive", "strict")),
        Param("period", int, 5, "INL25.TASKS's check: the period p (= Delta)", min=1, max=8),
        Param("k", int, 1, "INL25.TASKS's check: the index k", min=0, max=8),
        Param("n_enum_modp", int, 9, "INL25.TASKS's check: every string up to this length", min=2, max=13),
    )),
    assumptions=(
        Assumption("positions-equiv", "p_i = q_(i mod p), K reads +c q_k (replaces the printed i != j)",
                   lambda p: p["reading"] == "equiv", {"reading": "complement"},
                   search=({"reading": "first"},), predicate=PositionsEquiv(sp.Symbol("p")),
                   note="the 'shift' (a bijection j = i + 1 with K reading q_(k+1)) and 'complement-adapted' "
                        "(K reading -q_k) rules also compute f* (INL25.TASKS): a rule other than '=' can "
                        "work with its own K, so settings of those readings find no counterexample"),
        Assumption("N-threshold", "N >= 2^(bits/c) (the hardmax regime of the finite gap c)",
                   lambda p: p["start"] == "threshold", {"start": "1"},
                   predicate=sp.Ge(sp.Symbol("N", positive=True),
                                   2 ** (sp.Symbol("bits", positive=True) / sp.Symbol("c", positive=True)))),
        Assumption("flush-inclusive", "terms <= 2^-bits (inclusive) are flushed after the max is subtracted",
                   lambda p: p["rule"] == "inclusive", {"rule": "strict"},
                   predicate=FlushInclusive(sp.Symbol("bits"))),
        Assumption("target-defined", "the string has a position t <= N with t = k (mod p)", drop={},
                   predicate=TargetDefined(sp.Symbol("x")),
                   note="no setting: the statement is about defined targets; an undefined one (None, dropped "
                        "from the loss by the stated convention) has no value to compute"),
    ),
    claims=(
        replace(_CLAIMS[CORRECTED], source="App. A.2 as corrected here"),
        Computed(SEARCH, "conclusion", "App. A.2 as corrected here",
                 "output = f* exactly on every defined string of length 2^(bits/c)..n_max, every precision "
                 "1..bits, period 1..period_max and k (exact rational forward pass)", corrected_search,
                 reading="corrected"),
        _CLAIMS[NORM],
        Computed(CONTROL, "control", "deliberately false: the correction with the printed i != j",
                 "p_i = q_(min j != i) with K reading +c q_k computes f*", control_first, reading="proxy"),
    ),
    falsifier=FALSIFIER,
    expect={
        CORRECTED: Verdict.CERTIFIED,
        SEARCH: Verdict.CERTIFIED,
        NORM: Verdict.CERTIFIED,
        CONTROL: Verdict.REFUTED,
    },
    notes="Derived here, not in the paper. Exact over the stated finite domain. The search at the defaults "
          "finds no string computed wrong; dropping positions-equiv, N-threshold or flush-inclusive finds "
          "one (certified, exact). target-defined has no setting.",
    cost=Cost(6.52, per_unit={"bits": 1.084, "c": 1.055, "k": 1.047, "n_enum_modp": 1.145, "n_max": 1.627}),
)
