"""AM24.T3c, Theorem 3 as corrected here: its verdicts, its false variant, and the drop search run against
it as against the printed statement (issue 26, item 3)."""

import pytest

from proofkit import Verdict, checked, falsified, registry

TID = "AM24.T3c"


def test_verdicts_at_the_defaults_are_the_expected_ones():
    r = checked(TID)
    assert r.as_expected(), [(c.name, c.verdict, c.expected) for c in r.claims]
    assert r.verdict == Verdict.CONFIRMED and not r.errata


def test_the_correction_survives_its_own_search():
    f = falsified(TID, [])
    assert not f.found and "7 closed-form witness families" in f.effort


@pytest.mark.parametrize("drop", ["A4.analytic", "T>=3", "ALL", "H0.realizable", "H1.pair-support"])
def test_each_needed_assumption_dropped_gives_a_certified_counterexample(drop):
    f = falsified(TID, [drop])
    assert f.found and f.certified, f.effort


@pytest.mark.parametrize("drop", ["A4.causal", "A7.regular-closed"])
def test_drops_the_search_cannot_break_say_so(drop):
    f = falsified(TID, [drop])
    assert not f.found


def test_corrected_statements_name_what_they_correct():
    for thm in registry.load_all().values():
        if thm.corrects:
            assert thm.corrects in registry.load_all(), thm.id
            controls = [c.name for c in thm.claims if c.role == "control"]
            assert controls and all(thm.expect[c] == Verdict.REFUTED for c in controls), thm.id
