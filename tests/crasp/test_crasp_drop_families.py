"""The finite studies behind HYB24.T7 / HYB24.T12 (Huang et al. 2024, Thm 7, Lemma 17, App. D.2, Thm 23 /
Cor. 24, Lemma 48, Remark 32, Thm 12): the drop-family profiles and the penalty study
(theory/drop_families.py), the App. D.2, schedule and Lemma-48 aggregates (theory/limits.py), the MAJ2
length checks (theory/maj2_checks.py) and ``labelled_strings`` (semantics/vector.py)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import numpy as np
import pytest

from proofkit.crasp.semantics.vector import labelled_strings
from proofkit.crasp.theory import drop_families as df
from proofkit.crasp.theory import limits as lim
from proofkit.crasp.theory import maj2
from proofkit.crasp.theory.maj2_checks import agrees_on_powers, length_predicate_failure
from proofkit.errors import InputError


def test_window_profile_first_disagreement_at_D_plus_1():
    prof = df.window_profile(4)
    assert sorted(prof) == [1, 2, 3, 4]
    assert all(d.length == D + 1 for D, d in prof.items())
    assert prof[1].word == "ab" and prof[3].word == "aabb"
    # below the window length W_D and MAJORITY agree everywhere
    assert df.window_disagreement(3, 3).word is None
    assert df.window_disagreement(3, 4) == prof[3]


def test_trigger_profile_witness_is_a_power():
    prof = df.trigger_profile(3)
    assert {D: d.word for D, d in prof.items()} == {1: "aa", 2: "aaa", 3: "aaaa"}


def test_fit_fail_pairs_flags_a_member_that_fits_too_little():
    prof = df.window_profile(5)
    pairs, bad = df.fit_fail_pairs(prof, 3)
    assert pairs == [(2, 3), (3, 4), (3, 5)] and bad == []
    # a profile whose W_4 already fails at length 2 does not fit n = 3
    broken = {**prof, 4: lim.Disagreement(3, 15, "ab")}
    assert df.fit_fail_pairs(broken, 3)[1] == [(3, 4)]
    # no disagreement at all never fails by 2n
    assert df.fit_fail_pairs({**prof, 5: lim.Disagreement(6, 127, None)}, 3)[1] == [(3, 5)]


def test_offset_penalty_study_is_blind_to_the_offset_but_charges_it():
    s = df.offset_penalty_study(2, 2)
    assert s.ok and s.context == 4 and [r.D for r in s.rows] == [3, 4]
    assert s.rows[0].locality_term == s.beta_sq > 0 and s.rows[1].locality_term == 0
    assert s.rows[0].first_failure == 4 and s.rows[1].first_failure is None
    assert s.rows[0].regularizer[0] == s.rows[1].regularizer[0]
    assert s.fit_len == 2 and df.offset_penalty_study(3, 1).fit_len == 1


def test_threshold_profile_and_weights():
    rows = df.threshold_profile(4)
    assert all(r.ok for r in rows) and [r.first.word for r in rows] == ["a", "aa", "aaa", "aaaa"]
    assert not replace(rows[0], every=False).ok
    w = df.threshold_weights((2, 4, 8))
    assert list(w) == [2, 4, 8] and w[2] < w[4] < w[8]


def test_half_language_by_hand():
    X = np.array([[0, 0, 1, 0], [1, 1, 1, 1], [0, 1, 0, 0]])
    out = df.half_language(X)
    assert out.shape == (3, 5)
    assert out[0].tolist() == [True] * 5
    assert out[2].tolist() == [True, True, False, False, False]  # x_1 != x_2


def test_formula_vs_brute_and_growth():
    assert lim.formula_vs_brute(4, 4) == lim.FormulaCheck(20, None)
    # a brute force over too short strings cannot see L* = 4: the first pair is reported
    assert lim.formula_vs_brute(4, 1).mismatch == (F(0), F(1, 4), 4)
    growth = lim.distinguishing_growth(F(1, 3), [1, 2, 3])
    assert growth == [(m, lim.min_distinguishing_length(F(1, 3), F(1, 3) + F(1, 2**m))) for m in (1, 2, 3)]
    with pytest.raises(InputError):
        lim.formula_vs_brute(0, 4)


def test_grid_bounds_count_both_thresholds():
    grids = lim.grid_bounds(2)
    assert [g.p for g in grids] == [0, 1, 2] and all(g.violation is None for g in grids)
    assert [g.worst for g in grids] == [1, 2, 4]
    assert all(g.pairs_both == g.pairs + lim.grid_bound(g.p, strict=False)[0] for g in grids)


def test_schedule_summaries():
    sums = lim.schedule_summaries({"n": lambda n: n, "half": lambda n: n // 2}, 4)
    assert [s.name for s in sums] == ["n", "half"] and all(s.monotone for s in sums)
    assert not sums[0].fails_by_n_late and sums[1].fails_by_n_late
    assert sums[0].measures == [r["measure"] for r in lim.schedule_table(lambda n: n, range(1, 5), 8)]


def test_l48_as_predicted_detects_a_changed_family():
    fams = lim.l48_families(400)
    assert lim.l48_as_predicted(fams)
    assert not lim.l48_as_predicted([replace(fams[0], fixed_precision=True), *fams[1:]])
    assert not lim.l48_as_predicted([*fams[:2], replace(fams[2], eventual_period=None)])


def test_length_predicate_failure_phases():
    f = maj2.parse(maj2.EVEN_LENGTH, ("a", "b"), sentence=True)
    assert length_predicate_failure(f, ("a", "b"), lambda n: n % 2 == 0, 12, 4) is None
    odd = length_predicate_failure(f, ("a", "b"), lambda n: n % 2 == 1, 12, 4)
    assert (odd.word, odd.value, odd.exhaustive) == ("a", False, False)
    late = length_predicate_failure(f, ("a", "b"), lambda n: n % 2 == 1, 0, 4)
    assert (late.word, late.exhaustive) == ("a", True)
    assert agrees_on_powers(f, "a", lambda n: n > 0 and n % 2 == 0, 6)
    assert not agrees_on_powers(f, "a", lambda n: n % 2 == 0, 6)  # the empty string is not accepted


def test_labelled_strings_majority():
    cases = list(labelled_strings(lim.majority(), 2))
    assert cases == [("", True), ("a", True), ("b", False), ("aa", True), ("ab", True), ("ba", True),
                     ("bb", False)]
