"""HYB24.T7 finite proxies: every claim's verdict at reduced sizes, and unit tests of
proofkit.crasp.theory.limits, proofkit.crasp.theory.network_weights
and proofkit.crasp.theory.maj2 (bad input included)."""

from fractions import Fraction as F
from pathlib import Path

import pytest

from proofkit import InputError, checked, registry
from proofkit.crasp.compilation import compile_program
from proofkit.crasp.language import analysis, load, parse
from proofkit.crasp.theory import limits as lim
from proofkit.crasp.theory import maj2
from proofkit.crasp.theory import network_weights as nw

PROGRAMS = Path(__file__).parent / "programs"
FAST = {"n_max": 4, "net_len": 3, "n0_max": 6, "precision_p": 4, "c18_len": 2, "copy_n": 6,
        "l48_horizon": 400, "maj2_max": 41, "maj2_exhaustive": 6}


@pytest.mark.parametrize("claim", list(registry.get("HYB24.T7").expect))
def test_t7_claim_verdict_matches_expectation(claim):
    r = checked("HYB24.T7", FAST)
    c = next(c for c in r.claims if c.name == claim)
    assert c.verdict == registry.get("HYB24.T7").expect[claim], f"{claim}: {c.verdict} ({c.how})"


def test_t7_theorem_verdict_is_never_certified():
    r = checked("HYB24.T7", FAST)
    assert str(r.verdict) == "confirmed" and r.as_expected()
    controls = [c for c in r.claims if c.role == "control"]
    assert len(controls) == 3 and all(str(c.verdict) == "refuted" for c in controls)
    assert any(c.residual == "aaabbb" for c in controls)        # W_5 vs MAJORITY at n = 4


# ---------------------------------------------------------------------------------------------- limits


def test_family_texts_parse_into_the_stated_fragments():
    w = parse(lim.window_majority_text(3))
    assert analysis.fragment(w) == "[local]" and analysis.locality(w) == 2
    t = parse(lim.trigger_text(5))
    assert analysis.fragment(t) == "[local]" and analysis.locality(t) == 5
    g = parse(lim.threshold_text(4))
    assert analysis.fragment(g) == "[]"


def test_smallest_witnesses_of_the_local_drop_families():
    maj = lim.program_fn(lim.majority())
    got = [lim.first_disagreement(lim.program_fn(parse(lim.window_majority_text(D))), maj, "ab", D + 1).word
           for D in (1, 2, 3, 4)]
    assert got == ["ab", "bab", "aabb", "baabb"]
    d = lim.first_disagreement(lim.program_fn(parse(lim.trigger_text(3))), maj, "ab", 6)
    assert d.word == "aaaa" and d.strings == 127
    same = lim.first_disagreement(maj, maj, "ab", 5)
    assert same.word is None and same.length is None


def test_length_shift_matches_the_crasp_threshold_program():
    maj = lim.program_fn(lim.majority())
    g = lim.program_fn(parse(lim.threshold_text(3)))
    assert lim.first_disagreement(g, lim.length_shift(maj, 3), "ab", 7).word is None
    assert lim.first_disagreement(g, maj, "ab", 7).word == "aaa"


def test_min_distinguishing_length_formula_and_brute_force():
    assert lim.min_distinguishing_length(F(0), F(1, 4)) == 4
    assert lim.min_distinguishing_length(F(1, 2), F(9, 16)) == 9
    assert lim.brute_distinguishing_length(F(1, 2), F(9, 16), 12) == 9
    assert lim.min_distinguishing_length(F(1, 3), F(1, 2), strict=False) == \
        lim.brute_distinguishing_length(F(1, 3), F(1, 2), 12, strict=False)
    assert lim.brute_distinguishing_length(F(1, 2), F(1, 2) + F(1, 64), 10) is None
    assert lim.f_alpha(F(1, 2), "aab") and not lim.f_alpha(F(1, 2), "ab")
    assert lim.f_alpha(F(1, 2), "ab", strict=False)
    assert lim.grid_bound(3) == (36, 8, None)


@pytest.mark.parametrize("alpha,beta", [(F(1), F(2)), (F(1, 2), F(1, 2)), (F(-1, 2), F(1, 2)),
                                        (F(3, 4), F(1, 4))])
def test_min_distinguishing_length_rejects_pairs_outside_the_unit_interval(alpha, beta):
    with pytest.raises(InputError) as e:
        lim.min_distinguishing_length(alpha, beta)
    assert e.value.field == "(alpha, beta)" and "0 <= alpha < beta <= 1" in str(e.value)


@pytest.mark.parametrize("call", [lambda: lim.window_majority_text(0), lambda: lim.trigger_text(-1),
                                  lambda: lim.threshold_text(True), lambda: lim.grid_bound(13),
                                  lambda: lim.first_disagreement(lambda X: X, lambda X: X, "ab", 23),
                                  lambda: lim.brute_distinguishing_length(F(0), F(1), 30),
                                  lambda: lim.LookupHypothesis.build(-1)])
def test_bad_sizes_are_input_errors(call):
    with pytest.raises(InputError):
        call()


def test_regularizer_blind_to_offset_and_locality_term_sees_it():
    h3 = compile_program(parse(lim.trigger_text(3)))
    h7 = compile_program(parse(lim.trigger_text(7)))
    assert nw.regularizer_components(h3) == nw.regularizer_components(h7)
    assert nw.locality_term(h3, 3) == 0 and nw.locality_term(h3, 4) == 9 and nw.locality_term(h7, 8) == 9
    moved = nw.move_phi(h3, 3, 7)
    assert nw.extract_locality(moved) == {"support": [7], "radius": 7}
    assert nw.regularizer_components(moved) == nw.regularizer_components(h3)
    r_minus, r = nw.regularizer(h3, 10)
    assert r - r_minus == pytest.approx(9.0)
    assert nw.max_abs_weight(compile_program(parse(lim.threshold_text(16)))) == 16


def test_exact_rank_and_minimal_period():
    from proofkit.crasp.compilation import Mat

    m = Mat(3, 3, {(0, 0): F(1), (0, 1): F(2), (1, 0): F(2), (1, 1): F(4), (2, 2): F(1, 3)})
    assert nw.exact_rank(m) == 2 and nw.exact_rank(Mat(2, 2)) == 0
    assert nw.minimal_period([1, 2, 1, 2]) == 2 and nw.minimal_period([1, 2, 3]) == 3
    assert nw.minimal_period([]) == 1


def test_weights_only_extraction_matches_static_analysis():
    for file, delta, tau in (("tomita4.crasp", 1, 2), ("aaaa_star.crasp", 4, 0), ("majority.crasp", 1, 0)):
        net = compile_program(load(PROGRAMS / file))
        assert nw.extract_period(net) == {"block": delta, "products": delta}, file
        assert nw.extract_locality(net)["radius"] == tau, file


def test_l48_families_small_horizon():
    fams = {f.name: f for f in lim.l48_families(200)}
    assert all(f.translation_invariant and f.period_from_0 is None for f in fams.values())
    assert not fams["cos(delta)"].fixed_precision and fams["[delta = 0]"].eventual_period == 1
    assert lim.period_within([0, 1, 0, 1, 0, 1], 0, int.__eq__) == 2


@pytest.mark.parametrize("horizon", [4, 8, 39, 40])
def test_l48_families_below_the_translation_grid(horizon):
    """Horizons below the 40-point translation-invariance grid used to raise IndexError (8..39 are
    allowed values of l48_horizon)."""
    fams = {f.name: f for f in lim.l48_families(horizon)}
    assert all(f.translation_invariant and f.horizon == horizon for f in fams.values())
    assert fams["[delta = 0]"].eventual_period == 1 and fams["cos(delta)"].eventual_period is None


def test_copy_lookup_tables():
    h = lim.LookupHypothesis.build(2)
    assert h.measure == 7 and lim.lookup_first_failure(h, 10) == 6
    assert list(lim.copy_codes(2)) == [0, 3] and lim.copy_codes(3).size == 0
    rows = lim.schedule_table(lambda n: n, range(1, 7), 12)
    assert [r["m"] for r in rows] == [0, 1, 1, 2, 2, 3]
    assert not any(r["fails_by_n"] for r in rows) and all(r["fails_by_2n"] for r in rows)


# ------------------------------------------------------------------------------------------------ maj2


def test_even_length_formula_and_empty_string():
    f = maj2.parse(maj2.EVEN_LENGTH, "ab", sentence=True)
    assert [maj2.accepts(f, "a" * n) for n in range(7)] == [False, False, True, False, True, False, True]
    uni = maj2.parse("∃y(¬Maj x(x ≤ y) ∧ ¬Maj x(x > y))")
    assert uni == f
    assert maj2.parse(maj2.to_text(f)) == f


def test_majority_formula_and_free_variables():
    m = maj2.parse(maj2.MAJORITY, "ab", sentence=True)
    assert [maj2.accepts(m, w) for w in ("", "a", "b", "ab", "abb")] == [True, True, False, True, False]
    g = maj2.parse("x < y + 1 and mod(y, 2, 0)")
    assert maj2.free_vars(g) == {"x", "y"}
    assert maj2.holds(g, "aaaa", x=2, y=2) and not maj2.holds(g, "aaaa", x=3, y=2)
    assert maj2.holds(maj2.parse("forall x (Q(a, x))"), "")
    assert maj2.accepts(maj2.parse("true -> false"), "a") is False
    assert maj2.holds(maj2.parse("exists x (x = y - 1)"), "ab", y=2)


@pytest.mark.parametrize("text,where,expected", [
    ("exists y (\n  maj z (true))", "line 2, column 7", "a variable 'x' or 'y'"),
    ("maj x (Q(a x))", "line 1, column 12", "',' after the letter"),
    ("exists y (true", "line 1, column 15", "')' closing the body"),
    ("mod(x, 0, 0)", "line 1, column 8", "a modulus m >= 1"),
    ("mod(x, 3, 3)", "line 1, column 11", "a residue 0 <= r < 3"),
    ("x @ y", "line 1, column 3", "a MAJ2 token"),
    ("x < y y", "line 1, column 7", "end of formula"),
    ("not", "line 1, column 4", "a formula"),
    ("Q(c, x)", "line 1, column 3", "a letter of the alphabet a b"),
    ("x < y + ", "line 1, column 9", "an integer constant"),
])
def test_malformed_formulas_name_line_column_and_expectation(text, where, expected):
    with pytest.raises(maj2.Maj2SyntaxError) as e:
        maj2.parse(text, "ab")
    assert isinstance(e.value, InputError)
    assert e.value.field == where and expected in e.value.expected, str(e.value)


def test_maj2_semantic_input_errors():
    with pytest.raises(InputError) as e:
        maj2.parse("Q(a, x)", "ab", sentence=True)
    assert e.value.field == "formula" and "sentence" in e.value.expected
    with pytest.raises(InputError) as e:
        maj2.holds(maj2.parse("Q(a, x)"), "ab")
    assert e.value.field == "x"
    with pytest.raises(InputError):
        maj2.accepts(maj2.parse("x < y"), "ab")
    with pytest.raises(InputError):
        maj2.parse("not " * 100 + "true")
    with pytest.raises(InputError):
        maj2.parse(123)  # type: ignore[arg-type]
