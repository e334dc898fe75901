"""Mutation testing of the encoded relations (issue 10): every single-site mutant of a relation the
suite certifies must be refuted by the same check, one fit for all of them."""

import sympy as sp
from sympy.matrices.expressions import Identity

from proofkit.engine import mutants
from proofkit.language import registry
from proofkit.language.verdict import Verdict


def test_mutation_operators_preserve_shape_and_skip_no_ops():
    n = sp.Symbol("n")
    C, L = sp.MatrixSymbol("C", n, n), sp.MatrixSymbol("L", n, n)
    ops = list(mutants.mutations(C * L * C.inv(), frozenset({"C"})))
    assert ("reverse product order", C.inv() * L * C) in ops
    assert ("invert group element C", C.inv() * L * C.inv()) in ops
    assert ("drop group element C", L * C.inv()) in ops
    assert all(v.shape == (n, n) and not isinstance(v, Identity) for _, v in ops)


def test_am24_relations_kill_rate_is_total():
    for tid in ("AM24.T4", "AM24.T1"):
        outcomes = mutants.run(registry.get(tid))
        assert outcomes, tid
        report = mutants.kill_report(outcomes)
        assert all(o.killed for o in outcomes), report
        assert report.startswith(f"{len(outcomes)}/{len(outcomes)} mutants refuted")


def test_errata_and_controls_are_not_mutated():
    # a mutant of the printed B~ = B C is the corrected C B: mutating a false relation proves nothing
    names = {m.origin for m in mutants.mutants(registry.get("AM24.T4"))}
    assert "B~ = B C (as printed)" not in names
    assert not any(n.startswith("control") for n in names)
    assert all(registry.get("AM24.T4").expect[n] != Verdict.REFUTED for n in names)
