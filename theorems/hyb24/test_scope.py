"""What the HYB24 verdicts cover (issue 22): every Computed claim returns evidence whose domain names the
lengths, N ranges and sizes actually enumerated, with the engine's count; at the minimum parameters the
domain shrinks to exactly that minimum, and an empty domain certifies and confirms nothing."""

from pathlib import Path

import pytest

from proofkit import Computed, Evidence, Verdict, check, decide, registry
from proofkit.crasp.tasks import agreement, rows_match

PROGRAMS = Path(__file__).parent / "programs"
HYB24 = sorted(t for t in registry.load_all() if t.startswith("HYB24."))


def _claim(result, name):
    return next(c for c in result.claims if c.name == name)


def _cheapest(tid):
    """Every numeric parameter at its minimum."""
    return {p.name: p.type(p.min) for p in registry.get(tid).params.params
            if p.type in (int, float) and p.min is not None}


def test_agreement_names_the_exhaustive_length_and_counts_its_strings():
    ev = agreement(PROGRAMS, "majority.crasp", 3, "[]")
    assert isinstance(ev, Evidence) and ev.outcome == "holds"
    assert ev.domain.text.startswith("every string over {a, b} of length <= 3")
    assert ev.domain.count == (1 + 2 + 4 + 8) + 32   # the strings of length <= 3 and the seeded samples
    d = decide(ev, "proxy")
    assert d.verdict == Verdict.CERTIFIED and d.scope.reading == "proxy"
    assert "certified for" not in ev.detail          # the engine words the verdict


def test_agreement_refutes_a_control_by_its_shortest_string():
    ev = agreement(PROGRAMS, "aa_star_no_period.crasp", 4)
    d = decide(ev, "proxy")
    assert d.verdict == Verdict.REFUTED and ev.residual == "'a'" and "certified counterexample" in d.how


def test_rows_match_over_no_split_decides_nothing():
    """An empty N range is an empty domain: inconclusive, never certified."""
    d = decide(rows_match(PROGRAMS, "majority.crasp", range(1, 1), lambda N: N + 1), "proxy")
    assert d.verdict == Verdict.INCONCLUSIVE and "empty domain" in d.how
    d = decide(rows_match(PROGRAMS, "majority.crasp", range(1, 3), lambda N: N + 1), "proxy")
    assert d.verdict == Verdict.CERTIFIED and d.scope.count == 2 and "N = 1..2" in d.scope.domain


@pytest.mark.parametrize("tid", HYB24)
def test_every_claim_has_a_reading_and_computed_claims_return_evidence(tid):
    thm = registry.get(tid)
    r = check(thm, _cheapest(tid))
    assert not [c.name for c in r.claims if c.error]
    for claim in thm.claims:
        res = _claim(r, claim.name)
        assert res.scope.reading == claim.reading
        if isinstance(claim, Computed):
            assert "own verdict" not in res.scope.evidence, claim.name
            if res.verdict in (Verdict.CERTIFIED, Verdict.CONFIRMED):
                assert res.scope.domain and res.scope.count and res.scope.count >= 1, claim.name


def test_c13_minimum_split_certifies_exactly_n_equal_1():
    r = check(registry.get("HYB24.C13"), {"N": 1})
    c = _claim(r, "copy x#y has 2^N rows")
    assert c.verdict == Verdict.CERTIFIED and c.scope.count == 1 and "N = 1..1" in c.scope.domain
    assert c.scope.reading == "proxy"
    assert _claim(r, "control: copying has at most (N+1)^2 rows").verdict != Verdict.REFUTED  # 2 <= 4


def test_t10_minimum_length_names_length_1():
    r = check(registry.get("HYB24.T10"), {"binary_len": 1, "N": 1})
    c = _claim(r, "MAJORITY in C-RASP[]")
    assert c.verdict == Verdict.CERTIFIED and c.scope.count == 3 + 32
    assert "length <= 1" in c.scope.domain
    rows = _claim(r, "DYCK-1 rows = floor(N/2) + 2")
    assert rows.scope.count == 1 and "N = 1..1" in rows.scope.domain


def test_l11_negatives_stay_undecided_and_lemma37_counts_programs():
    r = check(registry.get("HYB24.L11"), {"binary_len": 1, "N": 1, "fuzz": 0})
    parity = _claim(r, "PARITY not in C-RASP[periodic,local]")
    assert parity.verdict == Verdict.INCONCLUSIVE and parity.scope.reading == "as printed"
    assert parity.scope.count == 1 and "N = 1..1" in parity.scope.domain
    cert = _claim(r, "no library C-RASP[] program recognizes (aa)* (Lemma 37 certificates)")
    assert cert.verdict == Verdict.CERTIFIED and cert.scope.count == 15


def test_t12_minimum_split_and_protocol_size():
    r = check(registry.get("HYB24.T12"), {"N": 1, "protocol_N": 1})
    half = _claim(r, "dropping locality: L_half rows = 2^ceil(N/2) + 1")
    assert half.scope.count == 1 and "N = 1..1" in half.scope.domain
    proto = _claim(r, "protocol: Alice's message reconstructs Bob's activations exactly")
    assert proto.verdict == Verdict.CERTIFIED and proto.scope.count == 5 * 4   # 5 programs x 2 x 2 halves
    prec = _claim(r, "without the precision hypothesis: infinite precision gives 2^N rows")
    assert prec.verdict == Verdict.INCONCLUSIVE


def test_t7_minimum_sizes_name_their_ranges():
    r = check(registry.get("HYB24.T7"), _cheapest("HYB24.T7"))
    g = _claim(r, "drop Periodic: g_n0 = MAJORITY below n0, differs at n0")
    assert g.verdict == Verdict.CERTIFIED and g.scope.count == 1 and "n0 = 1..1" in g.scope.domain
    p31 = _claim(r, "P31 instance: MAJORITY in MAJ2")
    assert p31.verdict == Verdict.CERTIFIED and p31.scope.count == 1     # the empty string only
    assert _claim(r, "L48 drop families cos(delta), delta, [delta = 0]").verdict == Verdict.CONFIRMED


def test_t9_float64_claim_is_never_certified():
    r = check(registry.get("HYB24.T9"), {"compile_len": 1})
    c = _claim(r, "float64 with half-gap comparisons at length 1000")
    assert c.verdict == Verdict.CONFIRMED and "floating point" in c.scope.evidence and c.scope.count == 6
    lib = _claim(r, "compiled networks equal the library programs")
    assert lib.verdict == Verdict.CERTIFIED and "binary n = 1" in lib.scope.domain


def test_tab2_no_rows_are_undecided_searches():
    r = check(registry.get("HYB24.TAB2"), {"binary_len": 1, "N": 1, "search_size": 1})
    row3 = _claim(r, "row 3: Tomita3")
    assert row3.verdict == Verdict.INCONCLUSIVE and row3.scope.evidence == "search"
    assert "size <= 1" in row3.scope.domain and row3.scope.count >= 1
    row1 = _claim(r, "row 1: Tomita1")
    assert row1.verdict == Verdict.CERTIFIED and "length <= 1" in row1.scope.domain


def test_tab3_empty_interleave_domain_decides_nothing():
    """binary_len = 1 leaves no Binary Majority Interleave input (lengths are multiples of 3) and, with no
    samples, nothing was checked: inconclusive, and so are the interleave controls."""
    r = check(registry.get("HYB24.TAB3"), {**_cheapest("HYB24.TAB3"), "samples": 0})
    for name in ("Binary Majority Interleave", "control: BMI, 0-based residues"):
        c = _claim(r, name)
        assert c.verdict == Verdict.INCONCLUSIVE and c.scope.count == 0 and "empty domain" in c.how, name
    assert _claim(r, "Binary Majority").scope.count == 2                   # inputs 0 and 1


def test_neg_occam_without_training_lengths_decides_nothing():
    """occam_n = 1 leaves Tomita 2's run no training length (it starts one below): empty, inconclusive."""
    r = check(registry.get("HYB24.NEG"), {**_cheapest("HYB24.NEG")})
    c = _claim(r, "occam: Tomita2 in [periodic]")
    assert c.verdict == Verdict.INCONCLUSIVE and c.scope.count == 0 and "empty domain" in c.how
    neg = _claim(r, "search: PARITY in C-RASP[periodic,local]")
    assert neg.scope.reading == "as printed" and neg.scope.evidence == "search"
