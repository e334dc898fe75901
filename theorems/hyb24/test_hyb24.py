"""Regression suite for Huang et al. 2024: every claim's verdict at reduced enumeration sizes (the full
sizes run in `proofkit check --all`), the library against its ground truths, and the controls."""

import pytest

from proofkit import checked, falsified, registry

FAST = {
    "HYB24.T10": {"binary_len": 12, "N": 6},
    "HYB24.L11": {"binary_len": 12, "N": 6, "fuzz": 50},
    "HYB24.T12": {"N": 6, "protocol_N": 3},
    "HYB24.C13": {"N": 8},
    "HYB24.TAB2": {"binary_len": 12, "N": 4},
    "HYB24.TAB3": {"binary_len": 12, "N": 6, "search_size": 8},
    "HYB24.T9": {"compile_len": 6},
}


@pytest.mark.parametrize("tid,claim", [(t, c) for t in FAST for c in registry.get(t).expect])
def test_claim_verdict_matches_expectation(tid, claim):
    r = checked(tid, FAST[tid])
    c = next(c for c in r.claims if c.name == claim)
    want = registry.get(tid).expect[claim]
    assert c.verdict == want, f"{tid} / {claim}: {c.verdict} ({c.how})"


def test_library_programs_all_agree_with_their_ground_truths():
    from pathlib import Path

    from proofkit.crasp.tasks import check_entry, load_index

    programs, controls = load_index(Path(__file__).parent / "programs")
    assert len(programs) >= 25
    for e in programs:
        r = check_entry(e, max_len=min(e.max_len, 10), samples=4)
        assert r.agrees and r.sample_agrees, f"{e.file} vs {e.truth}: {r.disagreement}"
    for e in controls:
        r = check_entry(e, max_len=min(e.max_len, 10), samples=0)
        assert not r.agrees, f"control {e.file} should disagree with {e.truth}"


@pytest.mark.slow
@pytest.mark.parametrize("tid", sorted(FAST))
def test_full_size_verdicts_as_expected(tid):
    r = checked(tid)
    assert r.as_expected(), [(c.name, str(c.verdict)) for c in r.claims if c.verdict != c.expected]


DROPS = [pytest.param("log-scaling", "tomita4.crasp", marks=pytest.mark.slow),
         ("heaviside", "majority.crasp"), ("exact", "sum_eq_total.crasp"),
         ("sos-mask", "sum_eq_total.crasp"), ("offset-0", "aa_star.crasp")]


@pytest.mark.parametrize("drop,program", DROPS)
def test_t9_each_dropped_assumption_finds_a_failing_string(drop, program):
    f = falsified("HYB24.T9", [drop])
    assert f.found and f.certified and f.record["witness"]["program_name"] == program, f.how


@pytest.mark.slow
def test_t9_nothing_dropped_search_is_empty():
    f = falsified("HYB24.T9", [])
    assert not f.found and "pumping families" in f.effort


def test_stored_hyb24_counterexamples_replay():
    from pathlib import Path

    from proofkit import replay

    files = sorted((Path(__file__).resolve().parents[2] / "counterexamples").glob("HYB24.*.json"))
    assert len(files) >= 5
    for path in files:
        res = replay(path)
        assert res.reproduces and res.certified, f"{path.name}: {res.how}"
