"""Ground truths (proofkit/crasp/semantics/truth.py) and communication rows
(proofkit/crasp/communication/comm.py), checked
against tiny independent pure-Python definitions (regexes, direct counting, explicit stacks)."""

from __future__ import annotations

import json
import re
import time
from fractions import Fraction
from itertools import groupby, product
from types import SimpleNamespace

import numpy as np
import pytest

from proofkit.crasp.communication import comm
from proofkit.crasp.semantics.regex import regex_truth
from proofkit.crasp.semantics.truth import (
    DFA,
    LIBRARY,
    Disagreement,
    all_strings,
    by_table2_row,
    check_symbols,
    exhaustive_check,
    sample_check,
)
from proofkit.crasp.theory.morphisms import resolve
from proofkit.errors import InputError

# ----------------------------------------------------------------------------------------------------
# Independent definitions


def is_subsequence(pattern: str, s: str) -> bool:
    """Whether pattern is a scattered subsequence of s."""
    it = iter(s)
    return all(ch in it for ch in pattern)


def dyck1(s: str) -> bool:
    """Every prefix has #( >= #), totals equal."""
    h = 0
    for ch in s:
        h += 1 if ch == "(" else -1
        if h < 0:
            return False
    return h == 0


def equal_blocks(s: str, letters: str) -> bool:
    """a^n b^n ... via a regex with one group per letter."""
    m = re.fullmatch("".join(f"({ch}*)" for ch in letters), s)
    return m is not None and len({len(g) for g in m.groups()}) == 1


def tomita3_runs(s: str) -> bool:
    """Reject iff some maximal odd run of 1s is immediately followed by a maximal odd run of 0s."""
    runs = [(ch, len(list(g))) for ch, g in groupby(s)]
    return not any(a[0] == "1" and a[1] % 2 and b[0] == "0" and b[1] % 2 for a, b in zip(runs, runs[1:]))


def depth_dyck_regex(n: int) -> str:
    """D_0 = eps, D_n = (a D_{n-1} b)*, spelled as a nested regex."""
    return "" if n == 0 else f"(?:a{depth_dyck_regex(n - 1)}b)*"


def full(pattern: str):
    """Membership by re.fullmatch."""
    return lambda s: re.fullmatch(pattern, s) is not None


BRUTE = {
    "MAJORITY": lambda s: s.count("a") >= s.count("b"),
    "DYCK-1": dyck1,
    "a^nb^n": lambda s: equal_blocks(s, "ab"),
    "a^nb^nc^n": lambda s: equal_blocks(s, "abc"),
    "a^nb^nc^nd^n": lambda s: equal_blocks(s, "abcd"),
    "Tomita1": full("1*"),
    "Tomita2": full("(10)*"),
    "Tomita3": tomita3_runs,
    "Tomita4": lambda s: "000" not in s,
    "Tomita5": lambda s: s.count("0") % 2 == 0 and s.count("1") % 2 == 0,
    "Tomita6": lambda s: (s.count("0") - s.count("1")) % 3 == 0,
    "Tomita7": full("0*1*0*1*"),
    "a*b*": full("a*b*"),
    "a+b+": full("a+b+"),
    "D_2": full(depth_dyck_regex(2)),
    "D_3": full(depth_dyck_regex(3)),
    "D_4": full(depth_dyck_regex(4)),
    "D_12": full(depth_dyck_regex(12)),
    "(aa)*": full("(aa)*"),
    "(aa)*/unary": lambda s: len(s) % 2 == 0,
    "(aaaa)*": full("(aaaa)*"),
    "(aaaa)*/unary": lambda s: len(s) % 4 == 0,
    "(abab)*": full("(abab)*"),
    "#15": full("aa*bb*cc*dd*ee*"),
    "#16": full("[ab]*d[bc]*"),
    "#17": full("[012]*02*"),
    "Sigma*abSigma*": lambda s: "ab" in s,
    "Sigma*be*": full("[abe]*be*"),
    "PARITY": lambda s: s.count("1") % 2 == 0,
    "avoid-1010": lambda s: not is_subsequence("1010", s),
    "subseq-aab": lambda s: is_subsequence("aab", s),
}

MAX_LEN = {1: 16, 2: 10, 3: 10, 4: 7, 5: 6}


def brute_prefixes(member, alphabet):
    """A prefix function from a membership test on strings (memoized over prefixes)."""
    memo: dict[str, bool] = {}

    def f(X):
        out = np.zeros((X.shape[0], X.shape[1] + 1), dtype=bool)
        for b, row in enumerate(X):
            s = "".join(alphabet[i] for i in row)
            for k in range(len(s) + 1):
                p = s[:k]
                if p not in memo:
                    memo[p] = bool(member(p))
                out[b, k] = memo[p]
        return out

    return f


# ----------------------------------------------------------------------------------------------------
# DFA JSON


def test_library_covers_every_catalog_language():
    assert set(LIBRARY) == set(BRUTE)
    assert sorted(t.table2_row for t in LIBRARY.values() if t.table2_row) == list(range(1, 18))
    assert by_table2_row(8).name == "D_2" and by_table2_row(17).name == "#17"
    with pytest.raises(InputError):
        by_table2_row(18)


@pytest.mark.parametrize("name", [n for n, t in LIBRARY.items() if isinstance(t, DFA)])
def test_dfa_json_round_trip(name):
    dfa = LIBRARY[name]
    again = DFA.from_json(dfa.to_json())
    assert again == dfa
    assert DFA.from_json(json.loads(dfa.to_json())) == dfa
    X = np.random.default_rng(0).integers(0, len(dfa.alphabet), size=(50, 30))
    assert np.array_equal(again.accepts_prefixes(X), dfa.accepts_prefixes(X))


GOOD = {"alphabet": ["a", "b"], "states": ["q0", "q1"], "start": "q0", "accept": ["q1"],
        "delta": {"q0": {"a": "q1"}, "q1": {"b": "q0"}}}


def with_(**changes):
    """GOOD with some keys replaced (a value of ... deletes the key)."""
    d = json.loads(json.dumps(GOOD))
    for k, v in changes.items():
        if v is ...:
            del d[k]
        else:
            d[k] = v
    return d


BAD_DFAS = [
    ("not json {", "dfa"),
    ("[1, 2]", "dfa"),
    (12, "dfa"),
    ("x" * 5_000_001, "dfa"),
    (with_(start=...), "start"),
    (with_(extra=1), "extra"),
    (with_(alphabet="ab"), "alphabet"),
    (with_(alphabet=[]), "alphabet"),
    (with_(alphabet=["a", "a"]), "alphabet"),
    (with_(alphabet=["a", ""]), "alphabet"),
    (with_(alphabet=["a", 1]), "alphabet"),
    (with_(states="q0"), "states"),
    (with_(states=[]), "states"),
    (with_(states=["q0", "q0"]), "states"),
    (with_(states=["q0", 1]), "states"),
    (with_(start="q9"), "start"),
    (with_(start=0), "start"),
    (with_(accept="q1"), "accept"),
    (with_(accept=["q9"]), "accept"),
    (with_(accept=["q1", "q1"]), "accept"),
    (with_(accept=[["q1"]]), "accept"),
    (with_(delta=[]), "delta"),
    (with_(delta={"q9": {}}), "delta"),
    (with_(delta={"q0": "q1"}), "delta.q0"),
    (with_(delta={"q0": {"c": "q1"}}), "delta.q0"),
    (with_(delta={"q0": {"a": "q9"}}), "delta.q0.a"),
    (with_(delta={"q0": {"a": 3}}), "delta.q0.a"),
]


@pytest.mark.parametrize(("data", "field"), BAD_DFAS)
def test_dfa_validation_errors_name_the_field(data, field):
    with pytest.raises(InputError) as err:
        DFA.from_json(data if isinstance(data, (str, int)) else json.dumps(data))
    assert err.value.field == field


def test_dfa_semantics_dead_state_and_encoding():
    dfa = DFA.from_json(GOOD)
    assert dfa.accepts("a") and dfa.accepts("aba") and not dfa.accepts("") and not dfa.accepts("b")
    assert not dfa.accepts("aa")  # missing transition -> dead
    assert dfa.accepts(["a", "b", "a"])
    with pytest.raises(InputError) as err:
        dfa.accepts("abc")
    assert err.value.field == "string"
    X = np.array([[0, 1, 0], [1, 0, 0]])
    assert dfa.accepts_prefixes(X).tolist() == [[False, True, False, True], [False, False, False, False]]
    assert dfa.accepts_batch(X).tolist() == [True, False]
    assert dfa.accepts_prefixes(np.zeros((2, 0), dtype=int)).tolist() == [[False], [False]]
    multi = DFA.from_json(with_(alphabet=["SEP", "b"], delta={"q0": {"SEP": "q1"}}))
    assert multi.accepts(["SEP"])
    with pytest.raises(InputError):
        multi.accepts("SEP")


@pytest.mark.parametrize("X", [np.zeros(3, dtype=int), np.array([[0, 2]]), np.array([[-1]]),
                               np.array([[0.0, 1.0]]), np.array([[True]])])
def test_symbol_arrays_are_validated(X):
    with pytest.raises(InputError) as err:
        check_symbols(X, 2)
    assert err.value.field == "X"


# ----------------------------------------------------------------------------------------------------
# Regex


def test_regex_ground_truth_and_errors():
    """One spelling, regex:PATTERN@ALPHABET, one engine (the automaton); every error names the field."""
    t7 = regex_truth("regex:0*1*0*1*@01", field="language")
    assert t7.alphabet == ("0", "1") and exhaustive_check(t7, LIBRARY["Tomita7"], 2, 10) is None
    assert t7.accepts("0110") and not t7.accepts("1010")
    assert resolve("regex:0*1*0*1*@01").accepts("0110")  # the reductions read the same spelling
    with_at = regex_truth("regex:\\x40a*@a@")  # the pattern writes @ as \x40; the alphabet may hold it
    assert with_at.alphabet == ("a", "@") and with_at.accepts("@aa") and not with_at.accepts("a@")
    for spec in ["regex:(@ab", "regex:" + "a" * 1001 + "@ab", "regex:a*", "regex:a*@", "regex:a*@aa",
                 "regex:a*@a b", "a*@ab", 5]:
        with pytest.raises(InputError) as err:
            regex_truth(spec, field="language")
        assert err.value.field == "language", spec
    with pytest.raises(InputError) as err:
        regex_truth("regex:a*", ("ab", "c"))
    assert err.value.field == "--against" and "single non-blank characters" in str(err.value)
    # with a program's alphabet, @ALPHABET may be left out, and must name the same symbols when given
    assert regex_truth("regex:a*", ("a", "b")).alphabet == ("a", "b")
    assert regex_truth("regex:a*@ba", ("a", "b")).alphabet == ("a", "b")
    with pytest.raises(InputError, match="program's symbols"):
        regex_truth("regex:a*@abc", ("a", "b"))


# ----------------------------------------------------------------------------------------------------
# Library against independent definitions


def test_tomita3_dfa_equals_run_definition_to_14():
    t3 = LIBRARY["Tomita3"]
    assert exhaustive_check(brute_prefixes(tomita3_runs, "01"), t3, 2, 14) is None
    assert [t3.accepts(s) for s in ["10", "1100", "1110001", "11001", "11101", "0110"]] == [
        False, True, False, True, False, True]


@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_library_entry_matches_brute_force(name):
    truth = LIBRARY[name]
    k = len(truth.alphabet)
    X = all_strings(k, MAX_LEN[k])
    got = truth.accepts_prefixes(X)
    assert np.array_equal(got, brute_prefixes(BRUTE[name], truth.alphabet)(X))
    for n in range(MAX_LEN[k]):
        assert np.array_equal(truth.accepts_batch(all_strings(k, n)), got[:: k ** (MAX_LEN[k] - n), n])


def test_catalog_equivalences():
    """Tomita 7 = avoid subsequence 1010 (catalog section 4); #17 = Sigma*be* under 0->b, 1->a, 2->e."""
    assert exhaustive_check(LIBRARY["avoid-1010"], LIBRARY["Tomita7"], 2, 12) is None
    rename = np.array([1, 0, 2])  # '0'->b (1), '1'->a (0), '2'->e (2)
    be = LIBRARY["Sigma*be*"]
    assert exhaustive_check(LIBRARY["#17"], lambda X: be.accepts_prefixes(rename[X]), 3, 9) is None


# ----------------------------------------------------------------------------------------------------
# exhaustive_check / sample_check


def test_planted_disagreements_are_shrunk():
    maj = LIBRARY["MAJORITY"]

    def strict(X):
        a = np.concatenate([np.zeros((len(X), 1), int), np.cumsum(X == 0, axis=1)], axis=1)
        return a > np.arange(X.shape[1] + 1)[None, :] - a

    assert exhaustive_check(strict, maj, 2, 8) == Disagreement((), False, True)

    def flip_len2_ending_b(X):
        out = maj.accepts_prefixes(X).copy()
        if X.shape[1] >= 2:
            out[:, 2] ^= X[:, 1] == 1
        return out

    d = exhaustive_check(flip_len2_ending_b, maj, 2, 9)
    assert d is not None and d.text("ab") == "ab" and d.f_value is False and d.truth_value is True

    def no_prefix_condition(X):
        a = np.concatenate([np.zeros((len(X), 1), int), np.cumsum(X == 0, axis=1)], axis=1)
        return 2 * a == np.arange(X.shape[1] + 1)[None, :]

    d = exhaustive_check(no_prefix_condition, LIBRARY["DYCK-1"], 2, 10)
    assert d is not None and d.text("()") == ")(" and (d.f_value, d.truth_value) == (True, False)
    assert exhaustive_check(maj, maj.accepts_prefixes, 2, 0) is None


def test_shrinking_across_chunks():
    """A later, shorter disagreement beats an earlier, longer one; ties go to the lexicographic least."""
    bad = {"aaaa", "bbb", "bba", "abb"}
    planted = brute_prefixes(lambda s: s in bad, "ab")
    d = exhaustive_check(planted, lambda X: np.zeros((X.shape[0], X.shape[1] + 1), bool), 2, 6, chunk=3)
    assert d is not None and d.text("ab") == "abb"
    with pytest.raises(InputError):
        exhaustive_check(planted, "not callable", 2, 3)
    with pytest.raises(InputError):
        exhaustive_check(lambda X: np.zeros((1, 1)), planted, 2, 3)


def test_sample_check_long_strings():
    maj = LIBRARY["MAJORITY"]
    assert sample_check(maj, maj, 2, length=1000, count=64, seed=1) is None

    def late_bug(X):
        out = maj.accepts_prefixes(X).copy()
        out[:, 700:] ^= X[:, 699:700] == 1
        return out

    d = sample_check(late_bug, maj, 2, length=1000, count=64, seed=1)
    X = np.random.default_rng(1).integers(0, 2, size=(64, 1000))
    cands = sorted(tuple(r[:700]) for r in X if r[699] == 1)
    assert d is not None and d.length == 700 and d.symbols == cands[0]


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
