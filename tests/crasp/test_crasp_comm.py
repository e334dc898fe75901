"""Communication rows (proofkit/crasp/communication/comm.py) checked against independent definitions
(independent_truths.py), the program-level bound (T12 check B), the NoPE average of running averages, and
scale."""

from __future__ import annotations

import re
import time
from fractions import Fraction
from itertools import product
from types import SimpleNamespace

import numpy as np
import pytest

from proofkit.crasp.communication import comm
from proofkit.crasp.semantics.truth import (
    LIBRARY,
    exhaustive_check,
)
from proofkit.errors import InputError
from tests.crasp.independent_truths import (
    BRUTE,
    brute_prefixes,
    dyck1,
)

# ----------------------------------------------------------------------------------------------------
# Communication rows


def rows_bf(member2, halves, N, mode):
    """Distinct rows by brute force: member2(x, y_prefix) over all string halves."""
    hs = ["".join(p) for p in product(halves, repeat=N)]
    seen = set()
    for x in hs:
        if mode == "final":
            seen.add(tuple(member2(x, y) for y in hs))
        else:
            seen.add(tuple(member2(x, y[:k]) for y in hs for k in range(1, N + 1)))
    return len(seen)


def add_ok(s: str) -> bool:
    """a+b=c with c the canonical binary sum."""
    m = re.fullmatch(r"([01]+)\+([01]+)=([01]+)", s)
    return m is not None and m.group(3) == format(int(m.group(1), 2) + int(m.group(2), 2), "b")


def dyck2_ok(s: str) -> bool:
    """Two bracket types with an explicit stack."""
    stack = []
    for ch in s:
        if ch in "([":
            stack.append(ch)
        elif not stack or stack.pop() != {")": "(", "]": "["}[ch]:
            return False
    return not stack


def copy_marked_ok(s: str) -> bool:
    """w#w with w over {a, b}."""
    return s.count("#") == 1 and s.split("#")[0] == s.split("#")[1]


def is_square(s: str) -> bool:
    """s = ww."""
    return len(s) % 2 == 0 and s[: len(s) // 2] * 2 == s


OPEN, CLOSE = str.maketrans("01", "(["), str.maketrans("01", ")]")


def ab(s: str) -> str:
    """Bits 0/1 as letters a/b."""
    return s.translate(str.maketrans("01", "ab"))


FAMILIES_BF = {
    "MAJORITY": (LIBRARY["MAJORITY"], "ab", lambda x, y: BRUTE["MAJORITY"](x + y)),
    "DYCK-1": (LIBRARY["DYCK-1"], "()", lambda x, y: dyck1(x + y)),
    "PARITY": (LIBRARY["PARITY"], "01", lambda x, y: BRUTE["PARITY"](x + y)),
    "(aa)*": (LIBRARY["(aa)*"], "ab", lambda x, y: BRUTE["(aa)*"](x + y)),
    "copy": (comm.copy_language, "ab", lambda x, y: is_square(x + y)),
    "copy#": (comm.copy_marked_family, "01", lambda x, y: copy_marked_ok(ab(x) + "#" + ab(y))),
    "add0": (comm.addition_zero_family, "01", lambda x, y: add_ok(x + "+0=" + y)),
    "dyck2": (comm.dyck2_family, "01", lambda x, y: dyck2_ok(x.translate(OPEN) + y.translate(CLOSE))),
}


@pytest.mark.parametrize("mode", comm.MODES)
@pytest.mark.parametrize("name", sorted(FAMILIES_BF))
def test_rows_match_brute_force(name, mode):
    f, halves, member2 = FAMILIES_BF[name]
    for N in range(1, 5):
        assert comm.rows(f, 2, N, mode) == rows_bf(member2, halves, N, mode), N


EXPECTED_ROWS = {  # N = 1..8, prefix-vector mode, derived by hand (see docstrings) and brute force above
    "MAJORITY": [N + 1 for N in range(1, 9)],
    "DYCK-1": [N // 2 + 2 for N in range(1, 9)],
    "PARITY": [2] * 8,
    "(aa)*": [2] * 8,
    "copy": [2**N for N in range(1, 9)],
    "copy#": [2**N for N in range(1, 9)],
    "add0": [2**N for N in range(1, 9)],
    "dyck2": [2**N for N in range(1, 9)],
}
EXPECTED_TREND = {"MAJORITY": "polynomial", "DYCK-1": "polynomial", "PARITY": "constant", "(aa)*": "constant",
                  **{name: "exponential" for name in ("copy", "copy#", "add0", "dyck2")}}


@pytest.mark.parametrize("name", sorted(EXPECTED_ROWS))
def test_row_tables_and_trends(name):
    table = comm.rows_table(FAMILIES_BF[name][0], 2, range(1, 9))
    assert [e["rows"] for e in table] == EXPECTED_ROWS[name]
    fit = comm.trend_fit(table)
    assert fit.label == comm.trend(table) == EXPECTED_TREND[name]
    assert fit.verdict == comm.VERDICTS[fit.label]
    if name in ("MAJORITY", "DYCK-1"):
        assert 0.4 < fit.poly_degree < 1.0 and fit.rss_poly < fit.rss_exp
        assert all(e["rows"] <= fit.poly_constant * e["N"] ** fit.poly_degree + 1e-9 for e in table)
    if fit.label == "exponential":
        assert abs(fit.exp_slope - 1) < 1e-9 and fit.rss_exp < 1e-12


def test_final_mode_and_other_reference_values():
    assert [comm.rows(comm.addition_zero_family, 2, N, "final") for N in range(1, 8)] == [
        2 ** (N - 1) + 1 for N in range(1, 8)]
    assert [comm.rows(LIBRARY["a^nb^nc^n"], 3, N) for N in range(1, 7)] == [1, 2, 2, 2, 3, 3]
    assert [comm.rows(comm.copy_marked_language, 3, N) for N in range(1, 6)] == [
        (2 ** (N + 1) + (-1) ** N) // 3 for N in range(1, 6)]
    for s in (1, 2, 3):
        fam = comm.addition_split_family(s)
        for N in range(s + 1, 8):
            assert comm.rows(fam, 2, N) == 2**s + 2 ** (N - s) - 1
    assert comm.rows(LIBRARY["MAJORITY"], 2, 6, chunk_strings=7) == 7


@pytest.mark.parametrize(("f", "alphabet", "member", "max_len"), [
    (comm.copy_marked_language, "ab#", copy_marked_ok, 8),
    (comm.addition_language, "01+=", add_ok, 7),
    (comm.dyck2_language, "([)]", dyck2_ok, 8),
    (comm.copy_language, "ab", is_square, 12),
])
def test_family_languages_match_brute_force(f, alphabet, member, max_len):
    assert exhaustive_check(f, brute_prefixes(member, alphabet), len(alphabet), max_len) is None


def test_rows_argument_errors():
    maj = LIBRARY["MAJORITY"]
    for kwargs, field in [({"N": 0}, "N"), ({"N": 16}, "N"), ({"mode": "all"}, "mode"),
                          ({"alphabet_size": 0}, "alphabet_size")]:
        args = {"f_prefixes": maj, "alphabet_size": 2, "N": 3, **kwargs}
        with pytest.raises(InputError) as err:
            comm.rows(**args)
        assert err.value.field == field
    with pytest.raises(InputError):
        comm.rows(lambda X: np.zeros((len(X), 2)), 2, 3)
    with pytest.raises(InputError):
        comm.trend_fit([{"N": 1, "rows": 2}, {"N": 2, "rows": 3}])
    with pytest.raises(InputError):
        comm.addition_split_family(0)


# ----------------------------------------------------------------------------------------------------
# Program-level bound (T12 check B)


def test_program_bound_formula_and_rows_within_it():
    assert comm.program_bound(3, 1, 2, [2, 5]) == 4**2 * 2 ** (2 + 3)
    assert comm.program_bound(5, 0, 0) == 1
    programs = {"MAJORITY": (1, 2, []), "DYCK-1": (2, 3, []), "Tomita4": (2, 1, [1, 2]),
                "Sigma*abSigma*": (2, 1, [1])}
    for name, (depth, n_counts, windows) in programs.items():
        def bound(N, d=depth, c=n_counts, w=windows):
            return comm.program_bound(N, d, c, w)

        table = comm.rows_table(LIBRARY[name], 2, range(1, 8), bound=bound)
        assert all(e["within_bound"] for e in table), name
    for bad in [(-1, 0, 0), (1, -1, 0), (1, 0, 1.5)]:
        with pytest.raises(InputError):
            comm.program_bound(*bad)
    with pytest.raises(InputError):
        comm.program_bound(3, 1, 1, [-2])


def test_program_bound_for_ir_ops():
    op = SimpleNamespace
    tomita4 = [op(name="q0", kind="sym", args=(), offsets=()),
               op(name="l1", kind="local", args=("q0",), offsets=(1,)),
               op(name="l2", kind="local", args=("q0",), offsets=(2,)),
               op(name="tri", kind="and", args=("q0", "l1", "l2"), offsets=()),
               op(name="c", kind="count", args=("tri",), offsets=())]
    assert comm.program_bound_for_ops(tomita4, 6) == comm.program_bound(6, 2, 1, [1, 2]) == 7 * 8


# ----------------------------------------------------------------------------------------------------
# Finding 3: NoPE average of running averages


def test_nope_model_values():
    c1, c2 = Fraction(1, 2), Fraction(1, 3)  # "ab": #a / (j + 1) with the SOS counted
    assert comm.nope_average_model([0, 1]) == [0, c1 / 2, (c1 + c2) / 3]
    assert comm.nope_average_model([0, 1], round_bits=2) == [0, Fraction(1, 4), Fraction(1, 4)]


def test_finding3_counterexample_has_2_pow_N_rows():
    table = comm.protocol_counterexample(range(1, 9))
    assert [e["rows"] for e in table] == [2**N for N in range(1, 9)]
    for N in (1, 2, 3):  # the trie shortcut equals rows of the direct model on every x.y
        hs = list(product((0, 1), repeat=N))
        direct = {tuple(v for y in hs for v in comm.nope_average_model(x + y)[N + 1:]) for x in hs}
        assert len(direct) == 2**N


# ----------------------------------------------------------------------------------------------------
# Scale


@pytest.mark.slow
def test_majority_rows_at_2N_24():
    t0 = time.perf_counter()
    assert comm.rows(LIBRARY["MAJORITY"], 2, 12) == 13
    print(f"MAJORITY rows at 2N = 24: {time.perf_counter() - t0:.1f} s")
