"""The compiler's section-5.5 variants each fail where expected (smallest failing string found by enumeration)
while the faithful network passes the same searches; precision figures and the JSON round trip."""

from __future__ import annotations

import random

import pytest

from proofkit.crasp.compilation.checking import check_against, smallest_failure, words
from proofkit.crasp.compilation.compiler import compile_program, precision_needed
from proofkit.crasp.compilation.forward import run
from proofkit.crasp.compilation.network import Network
from proofkit.crasp.language.ir import Op, Program
from tests.crasp.compiler_reference import (
    aa_star,
    conditional,
    dyck1,
    majority,
    reference,
    tie,
    tomita4,
    top_count,
)

# ----------------------------------------------------------------------------------------------------------
# Section 5.5 variants: each fails where the catalog says; nothing dropped -> the same search is empty
# ----------------------------------------------------------------------------------------------------------


def _ones_then_zeros(kmax: int) -> list[str]:
    """The targeted family 1^k 000 (k <= kmax) for the fixed-base softmax."""
    return ["1" * k + "000" for k in range(kmax + 1)]


def test_no_log_scaling_tomita4() -> None:
    """Fixed base 3 (beta = 3): compiled Tomita 4 misclassifies 1^32 000 (length 35); log-N scaling: fine."""
    prog = tomita4()
    ref = reference(prog)
    bad = compile_program(prog, log_scaling=False, base=3)
    assert smallest_failure(bad, ref, max_len=10) is None    # nothing fails on all strings up to length 10
    hit = smallest_failure(bad, ref, family=_ones_then_zeros(40))
    assert hit is not None and "".join(hit.word) == "1" * 32 + "000" and hit.got is True
    good = compile_program(prog)
    assert smallest_failure(good, ref, family=_ones_then_zeros(40)) is None


def _tie_adjacent(mmax: int) -> list[str]:
    """Targeted MAJORITY family a^m b^(m+1): one b too many, the smallest margin a comparison can have."""
    return ["a" * m + "b" * (m + 1) for m in range(mmax + 1)]


def test_ramp_majority() -> None:
    """ReLU ramp (slope 8) instead of Heaviside: with the naive comparison MAJORITY accepts a^8 b^9 (nothing
    fails up to length 12; the family a^m b^(m+1) first fails at m = 8); with the robust comparison the ramp
    already fails at a^4 b^5 (full enumeration). Heaviside: the same searches are empty."""
    prog = majority()
    ref = reference(prog)
    naive = compile_program(prog, mlp_activation="ramp", ramp_slope=8, robust_compare=False)
    assert smallest_failure(naive, ref, max_len=12, precision="float64") is None
    hit = smallest_failure(naive, ref, family=_tie_adjacent(12), precision="float64")
    assert hit is not None and "".join(hit.word) == "a" * 8 + "b" * 9 and hit.got is True
    robust = compile_program(prog, mlp_activation="ramp", ramp_slope=8)
    hit = smallest_failure(robust, ref, max_len=17, precision="float64")
    assert hit is not None and "".join(hit.word) == "aaaabbbbb" and hit.got is True
    good = compile_program(prog)
    assert smallest_failure(good, ref, max_len=12, precision="float64") is None
    assert smallest_failure(good, ref, family=_tie_adjacent(12), precision="float64") is None


@pytest.mark.slow
def test_ramp_majority_full_enumeration() -> None:
    """Full enumeration of {a,b}^{<=17}: a^8 b^9 is the smallest failing string of the naive ramp; the
    Heaviside network has no failure there."""
    prog = majority()
    ref = reference(prog)
    naive = compile_program(prog, mlp_activation="ramp", ramp_slope=8, robust_compare=False)
    hit = smallest_failure(naive, ref, max_len=17, precision="float64")
    assert hit is not None and "".join(hit.word) == "a" * 8 + "b" * 9
    assert smallest_failure(compile_program(prog), ref, max_len=17, precision="float64") is None


def test_float_naive_comparison_tie() -> None:
    """float64 + naive H(c2 - c1): '#a + #b <= #top' fails first at n = 6 (1/7 + 5/7 > 6/7 in float64);
    exact arithmetic or the robust half-gap comparison never fails."""
    assert 1 / 7 + 5 / 7 > 6 / 7
    prog = tie()
    ref = reference(prog)
    naive = compile_program(prog, robust_compare=False)
    hit = smallest_failure(naive, ref, max_len=12, precision="float64")
    assert hit is not None and len(hit.word) == 6 and hit.got is False
    assert sorted((hit.word.count("a"), hit.word.count("b"))) == [1, 5]
    assert smallest_failure(naive, ref, max_len=12, precision="exact") is None
    assert smallest_failure(compile_program(prog), ref, max_len=12, precision="float64") is None


def test_no_sos_mask() -> None:
    """Without SOS masking #top counts the SOS: the top-count program fails on the empty string. The catalog's
    DYCK-1 program does not break (none of its counted predicates holds at position 0)."""
    prog = top_count()
    hit = smallest_failure(compile_program(prog, sos_mask=False), reference(prog), max_len=8)
    assert hit is not None and hit.word == () and hit.got is False
    assert smallest_failure(compile_program(prog), reference(prog), max_len=8) is None
    dy = dyck1()
    assert smallest_failure(compile_program(dy, sos_mask=False), reference(dy), max_len=10) is None


def test_naive_periodic_encoding_offsets() -> None:
    """Naive p-block: (aa)* flips at odd offsets (eps already rejected at offset 1); the robust encoding is
    offset-invariant (offsets 0..3; outputs depend on o only through o mod Delta, Delta = 2)."""
    prog = aa_star()
    ref = reference(prog)
    naive = compile_program(prog, periodic_encoding="naive")
    assert smallest_failure(naive, ref, max_len=8, offset=0) is None
    hit = smallest_failure(naive, ref, max_len=8, offset=1)
    assert hit is not None and hit.word == () and hit.got is False
    for n in range(9):
        w = "a" * n
        assert run(naive, naive.encode(w), offset=1)[-1] is (n % 2 == 1)   # flipped on a^n
        assert run(naive, naive.encode(w), offset=2)[-1] is (n % 2 == 0)
    robust = compile_program(prog)
    for o in range(4):
        assert smallest_failure(robust, ref, max_len=8, offset=o) is None


# ----------------------------------------------------------------------------------------------------------
# Precision and export
# ----------------------------------------------------------------------------------------------------------


def test_precision_needed_majority() -> None:
    """Bits grow like log2(2.5 (n+1)); the rounded network with those bits agrees on random strings; far fewer
    bits fail on the tie-adjacent family a^m b^(m+1)."""
    prog = majority()
    assert [precision_needed(prog, n) for n in (10, 100, 1000, 10**4)] == [5, 8, 12, 15]
    net, ref = compile_program(prog), reference(prog)
    rng = random.Random(7)
    p = precision_needed(prog, 100)
    for _ in range(3):
        w = "".join(rng.choice("ab") for _ in range(100))
        assert run(net, net.encode(w), round_bits=p) == ref(tuple(w))
    w = "a" * 50 + "b" * 51
    assert run(net, net.encode(w), round_bits=p)[-1] is False
    assert run(net, net.encode(w), round_bits=p - 3)[-1] is True     # too few bits: tie-adjacent flip


@pytest.mark.parametrize("make", [dyck1, tomita4, conditional], ids=lambda f: f.__name__)
def test_precision_needed_suffices_exhaustively(make) -> None:
    """The fixed-point network rounded to precision_needed(program, 5) bits is exact on every word <= 5."""
    prog = make()
    net, ref, p = compile_program(prog), reference(prog), precision_needed(prog, 5)
    for w in words(prog.alphabet, 5):
        assert run(net, net.encode(w), round_bits=p) == ref(w), (w, p)


def test_checks_are_not_vacuous_and_inputs_validated() -> None:
    """check_against reports a wrong reference; malformed programs and unknown knobs are rejected."""
    prog = majority()
    wrong = lambda w: [not x for x in reference(prog)(w)]   # noqa: E731
    hit = check_against(prog, wrong, 3)
    assert hit is not None and hit.word == () and hit.position == 0
    with pytest.raises(ValueError):
        compile_program(Program(("a",), (Op("x", "count", ("y",)),), "x"))
    with pytest.raises(TypeError):
        compile_program(prog, no_such_knob=True)
    with pytest.raises(ValueError):
        compile_program(prog, periodic_encoding="fancy")


def test_json_round_trip() -> None:
    """Weights export to JSON (rational strings) and reload to an identical network with identical outputs."""
    for make in (tomita4, aa_star, conditional):
        net = compile_program(make())
        text = net.to_json()
        assert '"-1/3"' in text or make is not tomita4   # the local-bit threshold, as a rational string
        back = Network.from_json(text)
        assert back == net and back.to_json() == text
        for w in words(net.alphabet, 5):
            assert run(back, back.encode(w)) == run(net, net.encode(w))
