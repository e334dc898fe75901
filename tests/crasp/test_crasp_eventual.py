"""Eventual forms on u^n, the Lemma 37 certificate for (aa)* and the Lemma 40/41 PARITY proxy (HYB24.L11)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

from proofkit.crasp import accepts, evaluate, load, parse
from proofkit.crasp.language.analysis import fragment, locality, period
from proofkit.crasp.theory.eventual import acceptance_eventually, eventual_form
from proofkit.crasp.theory.eventual_fuzz import fuzz, random_program
from proofkit.crasp.theory.nonrecognition import (
    aa_star,
    block_word,
    certify_not_recognizing,
    n_mod,
    on_words,
    symbol_parity,
)
from proofkit.errors import InputError

PROGRAMS = Path(__file__).resolve().parents[2] / "theorems" / "hyb24" / "programs"
F = Fraction

HAND = """alphabet: a b
A := #Q(a)
B := #Q(b)
M := B <= A
N := #(A >= 3)
F := A <= 5
"""


def _affine(alpha: int | Fraction, beta: int | Fraction) -> tuple[Fraction, Fraction]:
    return (F(alpha), F(beta))


# ----------------------------------------------------------------------------- exact eventual forms
def test_hand_forms_on_unary_a() -> None:
    ev = eventual_form(parse(HAND), "a")
    assert ev.modulus == 1 and ev.n_modulus == 1
    a, b, m, n, f = (ev.ops[x] for x in "ABMNF")
    assert (a.threshold, a.values) == (0, (_affine(0, 1),))  # #Q(a) = i
    assert (b.threshold, b.values) == (0, (_affine(0, 0),))  # #Q(b) = 0
    assert (m.threshold, m.values) == (0, (True,))  # MAJORITY #b <= #a: always true
    assert (n.threshold, n.values) == (2, (_affine(-2, 1),))  # #(#Q(a) >= 3) = i - 2 from i = 2
    assert (f.threshold, f.values) == (6, (False,))  # #Q(a) <= 5: true up to 5, then false
    assert n.describe() == "N = i - 2  for i >= 2"
    for i in range(60):
        assert ev.value("N", i) == max(0, i - 2)
        assert ev.value("F", i) == (i <= 5)
    assert acceptance_eventually(parse(HAND), "a") == (6, (False,))  # output: last Boolean statement, F


def test_majority_file_and_exact_values_match_interpreter() -> None:
    maj = load(PROGRAMS / "majority.crasp")
    ev = eventual_form(maj, "a")
    assert ev.ops[maj.output].values == (True,) and ev.ops[maj.output].threshold == 0
    vals = evaluate(maj, "a" * 40)
    for name, got in vals.items():
        assert ev.pieces[name].values(40) == got


def test_forms_on_a_two_letter_word() -> None:
    """u = ab: #Q(a)(i) = ceil(i / 2) is quasi-affine with period 2."""
    p = parse(HAND)
    ev = eventual_form(p, "ab")
    a = ev.ops["A"]
    assert (a.modulus, a.period, a.threshold) == (2, 2, 0)
    assert a.values == (_affine(0, F(1, 2)), _affine(F(1, 2), F(1, 2)))
    assert ev.ops["F"].threshold == 11  # ceil(10 / 2) = 5 <= 5, ceil(11 / 2) = 6
    assert ev.ops["N"].values == (_affine(-4, 1), _affine(-4, 1)) and ev.ops["N"].period == 1
    assert acceptance_eventually(p, "ab") == (6, (False,))  # (ab)^n: F at position 2n is n <= 5
    for n in range(20):
        assert ev.accepts(n) == accepts(p, "ab" * n)


def test_huge_constant_threshold_is_exact() -> None:
    p = parse("alphabet: a\nL := #Q(a) <= 1000000000000\n")
    assert acceptance_eventually(p, "a") == (10**12 + 1, (False,))
    cert = certify_not_recognizing(p, aa_star())
    assert cert.certified and cert.witness == 10**12 + 2 and not cert.interpreter_checked
    assert (cert.program_accepts, cert.language_accepts) == (False, True)


def test_bad_words_are_input_errors() -> None:
    p = parse(HAND)
    for u in ("c", "", ["a", "z"], 3):
        with pytest.raises(InputError):
            eventual_form(p, u)


# ----------------------------------------------------------------------------- Lemma 37 certificates
def _check_certificate(p, cert, language) -> None:  # type: ignore[no-untyped-def]
    assert cert.certified, cert.reason
    assert cert.n_modulus == 1 and len(cert.pattern) == 1  # eventually constant (Lemma 37)
    w = cert.witness
    assert w is not None and w >= cert.threshold and cert.interpreter_checked
    interp = accepts(p, "a" * w)
    assert interp == cert.program_accepts != language(w)
    for n in range(cert.threshold, cert.threshold + 30):  # the eventual constant, re-checked
        assert accepts(p, "a" * n) == cert.pattern[0]


def test_aa_star_certificate_for_hyb24_programs() -> None:
    """Every C-RASP[] (or [local]) program of the catalog over an alphabet with a fails on (aa)*."""
    seen = []
    for path in sorted(PROGRAMS.glob("*.crasp")):
        p = load(path)
        if "a" not in p.alphabet or "periodic" in fragment(p):
            continue
        cert = certify_not_recognizing(p, aa_star(), "a")
        _check_certificate(p, cert, aa_star())
        assert set(cert.counterexample_residues) == {(cert.witness or 0) % 2}
        seen.append(p.name)
    assert len(seen) >= 15 and {"majority", "aa_star_no_period", "anbn", "contains_ab"} <= set(seen)


@pytest.mark.parametrize(
    "text, n0, verdict, witness",
    [
        ("L := #Q(a) <= 7", 8, False, 8),
        ("L := #Q(a) >= 3", 3, True, 3),
        ("L := #(#Q(a) >= 3) <= #Q(a) - 2", 2, True, 3),
        ("L := #< Q(a) >= 4", 5, True, 5),
        ("L := #[1] Q(a) + #[0] Q(a) == 2", 2, True, 3),
        ("L := #(#Q(a) + #Q(a) <= #Q(a) + 4) >= 3 and not (#Q(a) == 9)", 10, True, 11),
        ("L := #Q(b) <= #Q(a) - 4 or #Q(a) == 0", 4, True, 5),
    ],
)
def test_aa_star_certificate_for_hand_programs(text: str, n0: int, verdict: bool, witness: int) -> None:
    p = parse("alphabet: a b\n" + text + "\n")
    assert acceptance_eventually(p, "a") == (n0, (verdict,))
    cert = certify_not_recognizing(p, aa_star())
    _check_certificate(p, cert, aa_star())
    assert (cert.threshold, cert.witness) == (n0, witness)


def test_periodic_program_is_not_certified() -> None:
    """C-RASP[periodic] recognizes (aa)*: the eventual acceptance alternates and no witness exists."""
    unary = parse("alphabet: a\nL := mod(2, 0)\n")
    assert acceptance_eventually(unary, "a") == (0, (True, False))
    for p in (unary, load(PROGRAMS / "aa_star.crasp"), parse("alphabet: a\nL := #Q(a) >= 4 and mod(2, 0)\n")):
        cert = certify_not_recognizing(p, aa_star())
        assert not cert.certified and cert.witness is None and cert.span == 2
    late = certify_not_recognizing(parse("alphabet: a\nL := #Q(a) >= 4 and mod(2, 0)\n"), aa_star())
    # It errs only at n = 0, 2 (below the least threshold 3): the certificate is about eventual behaviour.
    assert late.threshold == 3 and late.pattern == (True, False) and late.early_disagreements == (0, 2)
    # a periodic program with the wrong period is certified: (T, F, F) against (T, F) over lcm = 6
    cert = certify_not_recognizing(parse("alphabet: a\nL := mod(3, 0)\n"), aa_star())
    assert cert.certified and cert.witness == 2 and cert.counterexample_residues == (2, 3, 4)


def test_word_predicate_languages() -> None:
    p = load(PROGRAMS / "aa_star_no_period.crasp")
    even = on_words(lambda w: len(w) % 2 == 0, "a", name="(aa)*", period=2)
    cert = certify_not_recognizing(p, even)
    assert cert.certified and cert.language == "(aa)*" and cert.witness == 1
    assert not certify_not_recognizing(parse("alphabet: a\nL := mod(2, 0)\n"), n_mod(2)).certified


# ----------------------------------------------------------------------------- fuzz
def test_fuzz_200_random_crasp_programs_on_unary_a() -> None:
    report = fuzz(200, seed=2024, n_max=300, u="a", max_depth=4, size=14, language=aa_star())
    assert report.mismatches == 0, report.failures
    assert report.programs == 200 and report.certified == 200
    assert set(report.acceptance_patterns) <= {"0", "1"}  # eventually constant: Lemma 37
    assert max(report.depth_histogram) <= 4 and report.threshold_checks > 100
    assert report.eventual_checks > 10**6


def test_fuzz_periodic_local_on_periodic_words() -> None:
    report = fuzz(60, seed=7, n_max=80, u="aab", moduli=(2, 3, 4), max_offset=3, const_range=(-20, 20))
    assert report.mismatches == 0, report.failures
    report = fuzz(40, seed=8, n_max=60, u=("b", "b", "b", "a"), moduli=(2, 4), max_offset=3)
    assert report.mismatches == 0, report.failures


# ----------------------------------------------------------------------------- Lemma 40/41 proxy
def test_lemma41_block_proxy_parity() -> None:
    """h(a) = b^(K-1) a, K a multiple of the period and > the locality: acceptance of h(a^n) is eventually
    constant in n while PARITY alternates, so each random C-RASP[periodic,local] program gets a witness."""
    rng = random.Random(41)
    kinds = set()
    for k in range(40):
        p = random_program(rng, ("a", "b"), moduli=(2, 3, 4), max_offset=3, size=12, name=f"r{k}")
        kinds.add(fragment(p))
        u = block_word(p)  # K even: PARITY of b (n(K-1) b's) alternates with n
        big_k = len(u)
        assert big_k % math.lcm(period(p), 2) == 0 and big_k > locality(p)
        for lang in (symbol_parity(u, "b"), symbol_parity(u, "a")):
            cert = certify_not_recognizing(p, lang, u)
            assert cert.certified and cert.n_modulus == 1, cert.reason
            assert cert.interpreter_checked and cert.witness is not None
            assert accepts(p, list(u) * cert.witness) == cert.program_accepts != lang(cert.witness)
        odd = block_word(p, even=False)  # PARITY of the marker a still alternates for any K
        assert certify_not_recognizing(p, symbol_parity(odd, "a"), odd).certified
    assert "[periodic,local]" in kinds


def test_block_length_must_be_a_multiple_of_the_period() -> None:
    """Control: with K = 2 not a multiple of 4, mod(4, 0) recognizes PARITY on (ba)^n: no certificate."""
    p = parse("alphabet: a b\nL := mod(4, 0)\n")
    assert acceptance_eventually(p, "ba") == (0, (True, False))
    assert not certify_not_recognizing(p, symbol_parity("ba", "b"), "ba").certified
    assert certify_not_recognizing(p, symbol_parity(block_word(p), "b"), block_word(p)).certified
