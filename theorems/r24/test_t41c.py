"""R24.T41c, Theorem 4.1 (a) as corrected here: its verdicts, its false variant, and the drop search run
against it (issue 26, item 3)."""

from fractions import Fraction
from pathlib import Path

import pytest

from proofkit import Verdict, checked, falsified, replay
from proofkit.posembed import dp, dyck, memorization_search

TID = "R24.T41c"
RECORDS = Path(__file__).resolve().parents[2] / "counterexamples"


def test_verdicts_at_the_defaults_are_the_expected_ones():
    r = checked(TID)
    assert r.as_expected(), [(c.name, c.verdict, c.expected) for c in r.claims]
    # confirmed, not certified: the every-N argument's 2N^2/(2N - 1) - N = N/(2N - 1) is our reading
    assert r.verdict == Verdict.CONFIRMED and not r.errata


def test_the_correction_survives_its_own_search():
    f = falsified(TID, [])
    assert not f.found and "N = 1..7, every s in D_2N, every prefix" in f.effort


@pytest.mark.parametrize("drop", ["uniform", "E-exact", "v-memorization"])
def test_each_needed_assumption_dropped_gives_a_certified_counterexample(drop):
    f = falsified(TID, [drop])
    assert f.found and f.certified, f.effort


@pytest.mark.parametrize("drop", ["balanced", "stochastic"])
def test_drops_the_search_cannot_break_say_so(drop):
    f = falsified(TID, [drop])
    assert not f.found


def test_the_control_is_refuted():
    r = checked(TID)
    control = next(c for c in r.claims if c.name.startswith("control"))
    assert control.verdict == Verdict.REFUTED


def test_path_failure_is_the_closed_form_product():
    """The search's failure along s's path equals R24.T41's closed form 1 - prod (1 + e^(-2 v gamma/r'))^-1
    at every prefix (the head's log-odds at s_:r is 2 v gamma E/r, whatever s and gamma)."""
    N, vg = 3, Fraction(10)
    with dp.ivdps(60):
        for s in dyck.dyck_words(N):
            for g in memorization_search.MEMO_GAMMAS:
                hs = [0, *dyck.heights(s)]
                lo = memorization_search._dp_correct(s, hs, dp.head_log_odds(s, g, vg / g))
                fs = memorization_search.path_failures(s, lo, {})
                for r, f in enumerate(fs, start=1):
                    ref = dp.memorization_failure(N, vg, r)
                    assert abs(f - ref).b < 1e-50, (s, g, r)


@pytest.mark.parametrize("path", sorted(RECORDS.glob("R24.T41c_*.json")), ids=lambda p: p.name)
def test_stored_records_replay(path):
    res = replay(path)
    assert res.reproduces and res.certified, res.how
