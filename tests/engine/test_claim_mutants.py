"""Mutation testing of claims carried by code (tests/engine/claim_mutation.py, issue 10): the mechanism, and
that the checks refute mutants of printed formulas and thresholds. The full run over every theorem is a
command (``python tests/engine/claim_mutation.py``); its figures are in docs/mutation.md."""

from __future__ import annotations

import claim_mutation as cm
import pytest

from proofkit.language import registry
from proofkit.language.evidence import decide
from proofkit.language.spec import Computed


def _claim(theorem_id: str, name: str):
    return next(c for c in registry.get(theorem_id).claims if c.name == name)


def test_a_printed_formula_in_a_lambda_is_mutated_and_every_mutant_refuted():
    """DYCK-1 rows = floor(N/2) + 2: the formula's constants and its + are statement mutants, the
    enumeration range(1, N + 1) is scope; at N = 4 every statement mutant changes the verdict."""
    thm = registry.get("HYB24.T10")
    out = cm.run(thm, {"N": 4}, timeout_s=60, claims=lambda c: c.name == "DYCK-1 rows = floor(N/2) + 2")
    statement = [o for o in out if not o.site.scope]
    assert {o.site.operator for o in statement} >= {"constant 2 -> 3", "constant 2 -> 1", "Add -> Sub"}
    assert {o.original for o in out} == {"certified"}
    assert all(o.status == "killed" for o in statement), cm.report(out)
    assert any(o.site.scope for o in out)


def test_text_is_never_mutated_and_sizes_are_scope():
    def claim(p):
        """A docstring with 1 + 2."""
        size = p["N"] + 1
        total = sum(range(1, size))
        return ("certified" if total == size * (size - 1) // 2 else "refuted"), "", f"{total + 1} sums"

    sites = cm.sites(claim)
    ops = [(s.operator, s.scope) for s in sites]
    assert ("constant 1 -> 2", True) in ops            # p["N"] + 1 and range(1, ...): scope
    assert ("Eq -> NotEq", False) in ops and ("constant 2 -> 3", False) in ops
    assert all(s.line != claim.__code__.co_firstlineno + 1 for s in sites)  # the docstring line
    assert sum(op == "Add -> Sub" for op, _ in ops) == 1                  # not the f-string's total + 1


def test_a_mutant_is_the_same_function_with_one_change():
    """MAJORITY rows = N + 1: the unmutated lambda certifies; shifting the formula's constant refutes;
    shifting only the enumerated range leaves a claim that still holds."""
    claim = _claim("HYB24.T10", "MAJORITY rows = N + 1")
    assert isinstance(claim, Computed)
    params = registry.get("HYB24.T10").params.resolve({"N": 3})

    def verdict(run):  # the claim returns evidence; the engine decides
        return str(decide(run(params), claim.reading).verdict)

    assert verdict(claim.run) == "certified"
    sites = cm.sites(claim.run)
    formula = [s for s in sites if not s.scope and s.operator == "constant 1 -> 2"]
    scope = [s for s in sites if s.scope and s.operator == "constant 1 -> 2"]
    assert len(formula) == 1 and scope
    assert verdict(cm.mutant_function(claim.run, formula[0])) == "refuted"
    assert verdict(cm.mutant_function(claim.run, scope[0])) == "certified"


@pytest.mark.parametrize("verdict,reached,change,status", [
    ("refuted", True, "", "killed"), ("certified", True, "", "survived"), ("timeout", True, "", "timeout"),
    ("error (N)", True, "", "killed"), ("certified", False, "", "unreached"),
    ("certified", True, "text", "text-only"), ("certified", True, "residual", "residual-only"),
    ("refuted", False, "", "killed")])
def test_status(verdict, reached, change, status):
    o = cm.Outcome("X", "c", cm.Site(0, "op", 1), verdict, "certified", reached, change)
    assert o.status == status


def test_unreached_lines_and_text_only_changes_are_told_apart():
    """A branch the parameters never take is 'unreached'; a value that only feeds the explanation is
    'text-only' (the C13 bound (N + 1)^4 is printed, not decided)."""
    thm = registry.get("HYB24.C13")
    out = cm.run(thm, {"N": 3}, timeout_s=60, claims=lambda c: c.name == "copy x#y has 2^N rows")
    by_status = {o.status for o in out if not o.site.scope}
    assert "killed" in by_status and "text-only" in by_status
