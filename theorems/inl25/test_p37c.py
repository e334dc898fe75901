"""INL25.P37c, the hardmax proposition as corrected here: its verdicts, its false variant, and the drop
search run against it (issue 26, item 3)."""

from pathlib import Path

import pytest

from proofkit import Verdict, checked, falsified, replay

TID = "INL25.P37c"
RECORDS = Path(__file__).resolve().parents[2] / "counterexamples"


def test_verdicts_at_the_defaults_are_the_expected_ones():
    r = checked(TID)
    assert r.as_expected(), [(c.name, c.verdict, c.expected) for c in r.claims]
    assert not r.errata


def test_the_correction_survives_its_own_search():
    f = falsified(TID, [])
    assert not f.found and "12 models" in f.effort and "p = 1..4" in f.effort


@pytest.mark.parametrize("drop", ["gamma-visible", "gamma-all-pairs", "flush-inclusive", "N-threshold"])
def test_each_needed_assumption_dropped_gives_a_certified_counterexample(drop):
    f = falsified(TID, [drop])
    assert f.found and f.certified and "exact" in f.how, f.effort


@pytest.mark.parametrize("drop", ["tau-local", "Delta-periodic", "translation-invariant"])
def test_drops_the_search_cannot_break_say_so(drop):
    f = falsified(TID, [drop])
    assert not f.found and "no search" in f.effort


def test_the_control_is_refuted():
    r = checked(TID)
    control = next(c for c in r.claims if c.name.startswith("control"))
    assert control.verdict == Verdict.REFUTED


@pytest.mark.parametrize("path", sorted(RECORDS.glob("INL25.P37c_*.json")), ids=lambda p: p.name)
def test_stored_records_replay(path):
    res = replay(path)
    assert res.reproduces and res.certified, res.how
