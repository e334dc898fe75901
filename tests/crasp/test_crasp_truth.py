"""Ground truths (proofkit/crasp/semantics/truth.py) checked against tiny independent pure-Python definitions
(independent_truths.py): DFA JSON, regexes, the library, exhaustive and sampled checks."""

from __future__ import annotations

import json

import numpy as np
import pytest

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
from tests.crasp.independent_truths import (
    BRUTE,
    MAX_LEN,
    brute_prefixes,
    tomita3_runs,
)

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
