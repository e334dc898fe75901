"""proofkit.engine.scan: per-value status from the check and the counterexample search, the threshold, and
the monotonicity warning (pure logic on synthetic rows; one cheap real scan)."""

from __future__ import annotations

import pytest

from proofkit.engine.identify import Undefined
from proofkit.engine.scan import (
    HOLDS,
    INCONCLUSIVE,
    REFUTED,
    SearchSummary,
    classify,
    monotonicity_warnings,
    scan,
    threshold,
)
from proofkit.language import registry
from proofkit.language.verdict import ClaimResult, Verdict

H, R, U = HOLDS, REFUTED, INCONCLUSIVE


# ----------------------------------------------------------------------------- threshold, monotonicity
@pytest.mark.parametrize("statuses,expected", [
    ([(1, R), (2, H), (3, H)], 2),
    ([(1, H), (2, H)], 1),
    ([(1, R), (2, R)], None),
    ([(1, H), (2, R)], None),               # the largest value fails: no threshold
    ([(1, H), (2, R), (3, H), (4, H)], 3),  # not monotone: the threshold is after the last failure
    ([(1, R), (2, U), (3, H)], 3),          # inconclusive is not "holds"
    ([(1, R), (2, H), (3, U)], None),
    ([], None),
])
def test_threshold(statuses, expected):
    assert threshold(statuses) == expected


def test_monotonicity_warnings():
    assert monotonicity_warnings("T", [(1, R), (2, H), (3, H)]) == []
    assert monotonicity_warnings("T", [(1, U), (2, R)]) == []
    assert monotonicity_warnings("T", [(1, H), (2, R), (3, H), (4, U)]) == [
        "not monotone in T: T=1 holds but T=2 is refuted",
        "not monotone in T: T=3 holds but T=4 is inconclusive",
    ]


# ----------------------------------------------------------------------------- classify
def _claim(verdict: Verdict, name: str = "length generalization") -> ClaimResult:
    return ClaimResult(name, "h = f", "conclusion", verdict, how=f"{verdict} because")


NOTHING = SearchSummary("confirmed", False, False, "no counterexample found", "4 fits")
FOUND = SearchSummary("refuted", True, False, "gap 0.5 at length 3", "4 fits")
FAILED = SearchSummary("inconclusive", False, False, "no fit reached zero training risk", "4 fits")
UNSURE = SearchSummary("inconclusive", True, False, "candidate does not survive the fit error", "4 fits")


def test_classify():
    assert classify([_claim(Verdict.CERTIFIED)], None, NOTHING)[0] == H
    assert classify([_claim(Verdict.CONFIRMED)], None, None)[0] == H
    status, reason = classify([_claim(Verdict.CERTIFIED)], None, FOUND)
    assert status == R and "NOT certified" in reason and "gap 0.5" in reason
    status, reason = classify([_claim(Verdict.REFUTED)], None, NOTHING)
    assert status == R and "length generalization refuted" in reason
    for search in (FAILED, UNSURE):
        status, reason = classify([_claim(Verdict.CERTIFIED)], None, search)
        assert status == U and search.how in reason
    assert classify([_claim(Verdict.INCONCLUSIVE)], None, NOTHING)[0] == U
    status, reason = classify([], "Undefined: inverse of a 2x3 matrix is undefined", NOTHING)
    assert status == U and "2x3" in reason
    assert classify([], None, None)[0] == U  # nothing decides it: never "holds" by default
    # a refutation wins over an undecided part
    assert classify([_claim(Verdict.INCONCLUSIVE)], None, FOUND)[0] == R


# ----------------------------------------------------------------------------- real scans
def test_scan_am24_t4_T():
    """T=1 is refuted (the search finds a certified counterexample), T=2 holds: threshold 2."""
    res = scan(registry.get("AM24.T4"), "T", [2, 1], {}, dps=60, seed=0)
    assert [r.value for r in res.rows] == [1, 2]  # sorted
    assert [r.status for r in res.rows] == [R, H]
    first, second = res.rows
    assert first.search is not None and first.search.found and first.search.certified
    assert "T>=2" in first.violated_assumptions
    assert second.search is not None and not second.search.found
    assert res.threshold == 2 and res.warnings == [] and res.searched
    d = res.as_dict()
    assert d["threshold"] == 2 and d["monotone"] is True and d["rows"][0]["search"]["certified"] is True


def test_scan_engine_undefined_is_inconclusive(monkeypatch):
    import proofkit.engine.check

    def undefined(*args, **kwargs):
        raise Undefined("inverse of a 2x3 matrix is undefined")

    monkeypatch.setattr(proofkit.engine.check, "check", undefined)
    res = scan(registry.get("AM24.T4"), "T", [2], {}, dps=60, seed=0, search=False)
    (row,) = res.rows
    assert row.status == U and "2x3" in row.reason and row.search is None
    assert res.threshold is None and not res.searched


@pytest.mark.parametrize("out", ["/dev/null", "{tmp}/file", "{tmp}/file/sub"])
def test_scan_out_is_checked_before_the_scan(capsys, tmp_path, monkeypatch, out):
    """A bad --out is exit 2 before any work (issue 10): the scan itself must never start."""
    from proofkit.engine import scan as scan_module
    from proofkit.interface.testing import run_cli

    (tmp_path / "file").write_text("x")

    def boom(*args, **kwargs):
        raise AssertionError("the scan ran before --out was checked")

    monkeypatch.setattr(scan_module, "scan", boom)
    code, out_text, err = run_cli(capsys, "scan", "AM24.T4", "--param", "T", "--values", "1",
                                  "--out", out.format(tmp=tmp_path))
    assert code == 2 and out_text == "" and err.startswith("proofkit: bad input: --out: ")


@pytest.mark.parametrize("values,dup", [("3,2,3", "3"), ("1, 1", "1"), ("2,2.0", None)])
def test_a_value_given_twice_is_refused_as_a_sweep_refuses_it(capsys, values, dup):
    """Issue 27, item 6: ``scan --values 3,3`` computed the duplicate; a sweep's grid refuses it."""
    from proofkit.interface.testing import run_cli

    code, out, err = run_cli(capsys, "scan", "AM24.T4", "--param", "T", "--values", values)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert (f"each value once (as a sweep's grid), got '{dup}'" in err) if dup else "--values" in err
