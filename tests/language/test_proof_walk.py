"""Proof walks (issue 26): a step is checked by claims of its own theorem or says why not; coverage counts
checked steps over checkable ones, definitions apart; the coverage table comes from the theorem files."""

from __future__ import annotations

import pytest
import sympy as sp

from proofkit import PaperRef, ParamSpace, Proof, Step, SymbolicStep, Theorem, Verdict
from proofkit.publish import coverage


def _theorem(*steps: Step) -> Theorem:
    claim = SymbolicStep("S1", "proof-step", "(1)", "x - x = 0", lambda: sp.S.Zero)
    return Theorem(id="USER.P", title="t", paper=PaperRef("p", "s"), assumptions=(), claims=(claim,),
                   params=ParamSpace(()), expect={"S1": Verdict.CERTIFIED},
                   proofs=(Proof("Theorem 1", "App. A", steps),))


def test_coverage_counts_checked_over_checkable():
    thm = _theorem(Step("(1)", "x - x = 0", by="S1"),
                   Step("(2)", "h := f", why_not="defines h", kind="definition"),
                   Step("(3)", "a limit", why_not="analysis of arbitrary f"))
    c = thm.proofs[0].coverage()
    assert (c.total, c.checked, c.definitions, c.checkable) == (3, 1, 1, 2)
    assert c.gaps == (("(3)", "analysis of arbitrary f"),) and c.percent == 50.0


@pytest.mark.parametrize("kwargs, needle", [
    ({"by": "S1", "why_not": "both"}, "exactly one"),
    ({}, "exactly one"),
    ({"why_not": "r", "kind": "lemma"}, "kind"),
])
def test_a_step_is_checked_or_says_why(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        Step("(1)", "x", **kwargs)


def test_by_must_name_a_claim_of_the_theorem():
    with pytest.raises(ValueError, match="no claim"):
        _theorem(Step("(1)", "x", by="S9"))


def test_labels_are_unique_within_a_proof():
    with pytest.raises(ValueError, match="twice"):
        Proof("Theorem 1", "A", (Step("(1)", "x", why_not="r"), Step("(1)", "y", why_not="r")))


def test_table_lists_every_step_with_its_verdict_or_reason():
    thm = _theorem(Step("(1)", "x - x = 0", by="S1"), Step("(2)", "a | b", why_not="prose"))
    text = coverage.block([thm])
    assert "| USER.P | Theorem 1 (App. A) | 2 | 1 | 0 | 1 | 1/2 = 50 % |" in text
    assert "| (1) | x - x = 0 | S1: certified (as printed) |" in text
    assert "| (2) | a \\| b | *step*: prose |" in text
    assert coverage.current_block("x\n" + text + "\ny") == text
    with pytest.raises(ValueError, match="markers"):
        coverage.replace_block("no markers", text)


def test_quantified_sentences_are_validated_and_tabled():
    claim = SymbolicStep("S1", "proof-step", "(1)", "x - x = 0", lambda: sp.S.Zero)
    base = dict(id="USER.Q", title="t", paper=PaperRef("p", "s"), assumptions=(), claims=(claim,),
                params=ParamSpace(()), expect={"S1": Verdict.CERTIFIED})
    with pytest.raises(ValueError, match="quantified sentence at Sec. 2"):
        Theorem(**base, sentences=(Step("Sec. 2", "X is necessary", by="nope"),))
    thm = Theorem(**base, sentences=(Step("Sec. 2", "X is necessary", by="S1"),
                                     Step("Sec. 3", "Y suffices", why_not="no model of Y here")))
    text = coverage.block([thm])
    assert "| USER.Q | Sec. 2 | X is necessary | S1: certified (as printed) |" in text
    assert "| USER.Q | Sec. 3 | Y suffices | *unexamined*: no model of Y here |" in text


def test_a_correction_reads_corrected():
    from proofkit import Generalization

    base = dict(id="USER.C", title="t", paper=PaperRef("p", "s"), assumptions=(), params=ParamSpace(()),
                corrects="USER.P")
    with pytest.raises(ValueError, match="must read 'corrected'"):
        Theorem(**base, claims=(Generalization("g", kind="length"),))
    thm = Theorem(**base, claims=(Generalization("g", kind="length", reading="corrected"),))
    assert thm.corrects == "USER.P"
