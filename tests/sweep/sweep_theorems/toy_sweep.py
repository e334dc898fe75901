"""SWEEP.TOY: a theorem that costs nothing to check, for the sweep tests (tests/sweep/test_sweep.py): its
conclusion holds from n = 3 (mode a) or n = 5 (mode b) on, its own counterexample search finds the
witness n below that, and ``delay`` seconds of sleep per check make points slow enough to interrupt."""

import time

import sympy as sp

from proofkit.language.params import Param, ParamSpace
from proofkit.language.spec import Assumption, Computed, PaperRef, Theorem, WitnessOutcome
from proofkit.language.verdict import Verdict

NEED = {"a": 3, "b": 5}


def decide(p):
    time.sleep(p["delay"])
    need = NEED[p["mode"]] + (1 if p["strict"] else 0)
    verdict = Verdict.CERTIFIED if p["n"] >= need else Verdict.REFUTED
    return verdict, str(p["n"] - need), f"exact: n = {p['n']} against {need} (scale {p['scale']})"


class Search:
    """The toy's own counterexample search: the witness is n itself when it is below the bound."""

    def search(self, p):
        need = NEED[p["mode"]] + (1 if p["strict"] else 0)
        found = p["n"] < need
        return WitnessOutcome(found, "1 candidate", {"n": str(p["n"])} if found else None,
                              f"n = {p['n']} {'<' if found else '>='} {need}", True, "n is large enough")


THEOREM = Theorem(
    id="SWEEP.TOY",
    title="Toy: n is large enough",
    paper=PaperRef("proofkit tests", "sweep toy"),
    statement=sp.Symbol("n", integer=True) >= 3,
    params=ParamSpace((
        Param("n", int, 3, "size", min=1, max=9),
        Param("mode", str, "a", "which bound", choices=("a", "b")),
        Param("scale", float, 1.0, "a float that changes nothing", min=0.0, max=10.0),
        Param("strict", bool, False, "one more than the bound"),
        Param("delay", float, 0.0, "seconds of sleep per check", min=0.0, max=5.0),
    )),
    assumptions=(Assumption("n>=3", "n at least 3", lambda p: p["n"] >= 3, {"n": 1}),),
    claims=(Computed("n is large enough", "conclusion", "toy", text="n >= bound(mode)", run=decide),),
    falsifier=Search(),
)
