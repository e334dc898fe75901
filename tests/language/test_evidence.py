"""The engine decides verdicts from evidence (proofkit/language/evidence.py, docs/verdicts.md): an empty
domain or
zero samples decide nothing, a failure refutes (certified only by a rigorous method), a claim whose code
raises is an internal error (exit 4, check --all fails), and a refuted reading is never an erratum."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from proofkit.engine.check import check
from proofkit.interface.testing import run_cli
from proofkit.language import evidence as ev
from proofkit.language.params import Param, ParamSpace
from proofkit.language.spec import Computed, PaperRef, Theorem
from proofkit.language.verdict import Verdict

ROOT = Path(__file__).resolve().parents[2]
RIGOROUS = [m for m in ev.Method if m.rigorous]
#: the methods evidence that holds or fails can name (NONE is for undecided evidence only)
COMPUTED = [m for m in ev.Method if m != ev.Method.NONE]
SAMPLED = [ev.Method.SAMPLED, ev.Method.SEARCH]


@given(st.sampled_from(COMPUTED), st.sampled_from([r.value for r in ev.Reading]))
@settings(max_examples=60, deadline=None)
def test_an_empty_domain_decides_nothing(method, reading):
    d = ev.decide(ev.forall([], lambda _: None, method=method, domain="N = 2..1"), reading)
    assert d.verdict == Verdict.INCONCLUSIVE and d.scope.count == 0
    assert ev.decide(ev.holds(method, "no samples", count=0), reading).verdict == Verdict.INCONCLUSIVE


@pytest.mark.parametrize("method", RIGOROUS)
def test_rigorous_evidence_certifies_its_domain_and_names_it(method):
    d = ev.decide(ev.forall(range(2, 8), lambda n: None, method=method, domain="N = 2..7"), "as printed")
    assert d.verdict == Verdict.CERTIFIED and d.scope.count == 6 and d.scope.domain == "N = 2..7"
    assert ev.render(d.scope) == f"reading: as printed; over N = 2..7 (6 cases); evidence: {method}"


@pytest.mark.parametrize("method", SAMPLED)
def test_samples_confirm_only_when_there_are_some_and_they_are_counted(method):
    assert ev.decide(ev.holds(method, "8 seeded draws", count=8), "proxy").verdict == Verdict.CONFIRMED
    assert ev.decide(ev.holds(method, "seeded draws"), "proxy").verdict == Verdict.INCONCLUSIVE


def test_floating_point_never_certifies():
    d = ev.decide(ev.holds(ev.Method.FLOAT, "3 training runs", count=3), "experiment")
    assert d.verdict == Verdict.CONFIRMED and "not proven" in d.how


@pytest.mark.parametrize("method", COMPUTED)
def test_a_failure_refutes_and_says_whether_it_is_proven(method):
    d = ev.decide(ev.forall(range(1, 10), lambda n: f"N = {n}" if n == 4 else None, method=method,
                            domain="N = 1..9"), "as printed")
    assert d.verdict == Verdict.REFUTED and "N = 4" in d.how
    assert d.how.startswith("certified counterexample" if method.rigorous else "uncertified counterexample")


def test_evidence_fields_are_checked():
    with pytest.raises(ValueError, match="Domain.count"):
        ev.Domain("x", -1)
    with pytest.raises(ValueError, match="Domain.text"):
        ev.Domain(" ")
    with pytest.raises(ValueError, match="Evidence.witness"):
        ev.Evidence("fails", ev.Method.EXACT, ev.Domain("x"))
    with pytest.raises(ValueError, match="reading"):
        Computed("c", "conclusion", "s", text="t", reading="as stated")


def _theorem(run, reading="as printed", tid="EV.T1"):
    return Theorem(id=tid, title="evidence", paper=PaperRef("user", "s"), statement=sp.true,
                   params=ParamSpace((Param("N", int, 3, "size", min=1, max=9),)), assumptions=(),
                   claims=(Computed("c", "conclusion", "s", text="for every n <= N", run=run,
                                    reading=reading),),
                   expect={"c": Verdict.CERTIFIED})


def test_check_decides_from_evidence_and_an_empty_range_is_not_certified():
    def run(p):
        return ev.forall(range(2, p["N"] + 1), lambda n: None, method=ev.Method.EXACT,
                         domain=f"n = 2..{p['N']}")
    assert check(_theorem(run)).claims[0].verdict == Verdict.CERTIFIED
    c = check(_theorem(run), {"N": 1}).claims[0]
    assert c.verdict == Verdict.INCONCLUSIVE and "empty domain" in c.how and c.scope.count == 0


def test_a_refuted_reading_is_no_erratum_and_a_refuted_printed_statement_is():
    def run(p):
        return ev.fails(ev.Method.EXACT, "n = 2", domain="n = 2..3", count=2)
    printed = check(_theorem(run)).claims[0]
    ours = check(_theorem(run, reading="our reading")).claims[0]
    assert printed.erratum and not ours.erratum
    assert printed.verdict == ours.verdict == Verdict.REFUTED


def test_a_legacy_tuple_is_labelled_as_the_files_own_verdict():
    c = check(_theorem(lambda p: (Verdict.CERTIFIED, "0", "trust me"))).claims[0]
    assert c.verdict == Verdict.CERTIFIED and "not re-derived by the engine" in c.scope.evidence


def test_a_claim_that_returns_nonsense_is_an_error():
    c = check(_theorem(lambda p: 42)).claims[0]
    assert c.label == "error" and "Evidence" in c.error


RAISES = '''
import sympy as sp
from proofkit.language.params import Param, ParamSpace
from proofkit.language.spec import Computed, PaperRef, Theorem
from proofkit.language.verdict import Verdict

def run(p):
    return p["no such parameter"]  # a bug in the claim's own code

THEOREM = Theorem(id="EV.RAISES", title="a claim that raises", paper=PaperRef("user", "s"),
                  statement=sp.true, params=ParamSpace((Param("N", int, 1, "n", min=1, max=2),)),
                  assumptions=(), claims=(Computed("c", "conclusion", "s", text="t", run=run),),
                  expect={"c": Verdict.INCONCLUSIVE})
'''


def test_a_claim_that_raises_fails_check(capsys, tmp_path):
    """Exit 4 and the label ``error`` (check --all fails on it too: ``as_expected`` is false and any
    error makes its exit 4)."""
    (tmp_path / "raises.py").write_text(RAISES)
    code, out, _ = run_cli(capsys, "--theorems", str(tmp_path), "check", "EV.RAISES")
    assert code == 4 and out.startswith("EV.RAISES: ERROR") and "KeyError" in out
    code, out, _ = run_cli(capsys, "--theorems", str(tmp_path), "check", "EV.RAISES", "--json")
    obj = json.loads(out)
    assert code == 4 and obj["verdict"] == "error" and obj["claims"][0]["verdict"] == "error"
    assert obj["as_expected"] is False and obj["claims"][0]["error"].startswith("KeyError")


def _returns_a_verdict(node: ast.AST) -> bool:
    """``return Verdict.X, ...`` or ``return (Verdict.X if ... else ...), ...``."""
    if not isinstance(node, ast.Return) or not isinstance(node.value, ast.Tuple) or not node.value.elts:
        return False
    first = node.value.elts[0]
    return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "Verdict"
               for n in ast.walk(first))


def test_no_built_in_theorem_decides_its_own_verdict():
    """Theorem files (and the model-package checks they call) supply evidence; only the engine turns
    evidence into verdicts. Falsifier outcomes are no claim verdicts and are not scanned."""
    files = [p for p in (ROOT / "theorems").rglob("*.py") if not p.name.startswith("test_")]
    files += [ROOT / "proofkit" / "crasp" / "tasks" / "checks.py"]
    offenders = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if _returns_a_verdict(node):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == [], f"{len(offenders)} returns of a verdict tuple: " + ", ".join(offenders[:20])


@pytest.mark.parametrize("reading", ["proxy", "experiment", "our reading"])
def test_a_reading_that_is_not_the_statement_bounds_the_theorem_verdict(reading):
    """Certified over a bounded proxy is confirmed for the theorem; a refuted reading is no refutation
    of the theorem (inconclusive); the claims keep their own verdicts."""
    holds = check(_theorem(lambda p: ev.holds(ev.Method.EXACT, "n = 1..3", count=3), reading=reading))
    assert holds.claims[0].verdict == Verdict.CERTIFIED and holds.verdict == Verdict.CONFIRMED
    assert any("bounded by claims" in f for f in holds.flags)
    fails = check(_theorem(lambda p: ev.fails(ev.Method.EXACT, "n = 2", domain="n = 1..3"), reading=reading))
    assert fails.claims[0].verdict == Verdict.REFUTED and fails.verdict == Verdict.INCONCLUSIVE
    printed = check(_theorem(lambda p: ev.fails(ev.Method.EXACT, "n = 2", domain="n = 1..3")))
    assert printed.verdict == Verdict.REFUTED and not printed.flags


def test_a_refutation_outside_the_assumptions_is_no_erratum():
    from dataclasses import replace

    from proofkit.language.spec import Assumption

    thm = _theorem(lambda p: ev.fails(ev.Method.EXACT, "n = 2", domain="n = 1..3"))
    thm = replace(thm, assumptions=(Assumption("N>=2", "N is at least 2", lambda p: p["N"] >= 2),))
    inside, outside = check(thm).claims[0], check(thm, {"N": 1}).claims[0]
    assert inside.erratum and not inside.outside
    assert outside.verdict == Verdict.REFUTED and outside.outside and not outside.erratum


def test_undecided_names_no_method_unless_one_was_tried():
    assert ev.undecided("the summary states no result").method == ev.Method.NONE
    with pytest.raises(ValueError, match="Evidence.method"):
        ev.holds(ev.Method.NONE, "x", count=1)
