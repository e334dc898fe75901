"""HYB24.G1c, App. G.1 / Prop. 54 as corrected here (width d ~ c N^2): its verdicts, its false variants, and
the drop search run against it (issue 26, item 3)."""

from pathlib import Path

import pytest
import sympy as sp

from proofkit import Verdict, checked, falsified, registry, replay
from proofkit.crasp.theory import init_width as iw
from proofkit.crasp.theory import init_width_search as iws

TID = "HYB24.G1c"
RECORDS = Path(__file__).resolve().parents[2] / "counterexamples"
DEFAULTS = {"width_exp": "2", "width_c": "1", "var_exp": "1", "law": "gaussian", "heads_exp": "0",
            "keys": "independent"}


def test_verdicts_at_the_defaults_are_the_expected_ones():
    r = checked(TID)
    assert r.as_expected(), [(c.name, c.verdict, c.expected) for c in r.claims]
    assert r.verdict == Verdict.CERTIFIED and not r.errata


def test_the_correction_survives_its_own_search():
    f = falsified(TID, [])
    assert not f.found and "5 schedules d = c N^2" in f.effort


DROPS = [("quadratic-width", "width_exp=1"), ("variance-scale", "var_exp=1/2"),
         ("fourth-moment", "law=student-t3"), ("constant-LH", "heads_exp=1"), ("independent", "keys=tied")]


@pytest.mark.parametrize(("drop", "change"), DROPS)
def test_each_needed_assumption_dropped_gives_a_certified_counterexample(drop, change):
    f = falsified(TID, [drop])
    assert f.found and f.certified, f.effort
    assert f.record["witness"]["limit"] == "oo" and change.split("=")[1] in f.record["params"].values()


def test_the_drop_the_search_cannot_break_says_so():
    f = falsified(TID, ["c-positive"])
    assert not f.found and "no setting of" in f.how and "not droppable" in f.how


def test_stored_records_replay_certified():
    paths = sorted(RECORDS.glob(f"{TID}_drop-*.json"))
    assert len(paths) == 5
    for path in paths:
        out = replay(path)
        assert out.reproduces and out.certified, (path.name, out.how)


def test_the_falsifier_rejects_a_doctored_witness():
    w = dict(iws.search_setting({**DEFAULTS, "width_exp": "1"}).witness)
    assert iws.WidthFalsifier().replay(w).found
    w["leading_coefficient"] = "1"
    assert not iws.WidthFalsifier().replay(w).found


def test_exact_forms_agree_with_t7_and_with_sympy_limits():
    off, diag = iws.moment_forms(False)
    d, k = iws.d_sym, iws.kappa
    assert sp.expand(off - d**3) == 0 and sp.expand(diag - d**2 * (d + k - 1)) == 0
    e = iws.expectation67(iws.Setting.of(DEFAULTS))
    assert sp.simplify(e - iw.E67.subs(iw.d, iw.N**2).subs(iw.N, iws.N)) == 0
    assert iws.asymptotics(e).limit == "1/2"


def test_boundedness_is_exactly_a_times_4v_minus_3_at_least_2():
    for a in ("1", "3/2", "2", "3"):
        for v in ("3/4", "1", "5/4"):
            s = iws.Setting(a, "1", v, "rademacher", "0")
            bounded = iws.rational(a) * (4 * iws.rational(v) - 3) >= 2
            assert iws.asymptotics(iws.expectation67(s)).bounded == bounded, (a, v)


def test_corrected_statement_names_what_it_corrects():
    thm = registry.get(TID)
    assert thm.corrects == "HYB24.T7" and thm.corrects in registry.load_all()
    controls = [c.name for c in thm.claims if c.role == "control"]
    assert len(controls) == 2 and all(thm.expect[c] == Verdict.REFUTED for c in controls)
