"""HYB24.NEG at reduced sizes, plus unit tests of proofkit/crasp/theory/morphisms.py and
proofkit/crasp/search/enumerate.py
(including an unpruned enumeration that the observational-equivalence pruning must reproduce exactly)."""

import itertools

import numpy as np
import pytest

from proofkit import InputError, checked, registry
from proofkit.crasp.language import parse
from proofkit.crasp.search import (
    Fragment,
    PrefixSample,
    Sample,
    explore,
    occam,
    program_of,
    search,
    search_all,
    search_masked,
)
from proofkit.crasp.semantics import AUXILIARY, accepts, accepts_prefixes, all_strings
from proofkit.crasp.theory import (
    REDUCTIONS,
    apply,
    check_preimage,
    check_transform,
    morphism,
    padding,
    resolve,
    transform,
)
from proofkit.crasp.tools import enumerate_cli

FAST = {"reduction_len": 8, "transform_len": 5, "size": 8, "n": 5, "plain_size": 10, "plain_n": 6,
        "unary_size": 12, "unary_n": 16, "ternary_size": 6, "ternary_n": 4, "positive_size": 12,
        "positive_n": 4, "occam_n": 5, "occam_parity_size": 9, "verify_len": 10}


@pytest.mark.parametrize("claim", list(registry.get("HYB24.NEG").expect))
def test_neg_claim_verdict_matches_expectation(claim):
    r = checked("HYB24.NEG", FAST)
    c = next(c for c in r.claims if c.name == claim)
    want = registry.get("HYB24.NEG").expect[claim]
    assert c.verdict == want, f"{claim}: {c.verdict} ({c.how})"


def test_negative_claims_say_bounded_never_nonexistence():
    r = checked("HYB24.NEG", FAST)
    for c in r.claims:
        if c.name.startswith("search:"):
            assert "none found up to size" in c.how and "not a proof" in c.how, c.how
            assert "no program exists" not in c.how


@pytest.mark.slow
def test_neg_full_size_as_expected():
    r = checked("HYB24.NEG")
    assert r.as_expected(), [(c.name, str(c.verdict)) for c in r.claims if c.verdict != c.expected]


# ---------------------------------------------------------------------------------------------------
# morphism.py


def test_morphism_apply_and_fields():
    h = morphism({"0": "01", "1": "00"}, "01", "01")
    assert h.K == 2 and h.text() == "0->01, 1->00"
    X = np.array([[0, 1, 1]])
    assert apply(h, X).tolist() == [[0, 1, 0, 0, 0, 0]]
    assert h.apply_text("10") == ("0", "0", "0", "1")


@pytest.mark.parametrize("mapping,field", [
    ({"0": "01", "1": "0"}, "morphism"),          # non-uniform lengths
    ({"0": "", "1": ""}, "morphism"),             # K = 0
    ({"0": "01"}, "morphism"),                    # missing letter
    ({"0": "01", "1": "00", "2": "11"}, "morphism"),  # unknown source letter
    ({"0": "0x", "1": "00"}, "morphism[0]"),     # unknown target letter
    ({"0": 5, "1": "00"}, "morphism[0]"),        # not a word
])
def test_morphism_bad_input_names_the_field(mapping, field):
    with pytest.raises(InputError) as e:
        morphism(mapping, "01", "01")
    assert e.value.field == field and field in str(e.value)


def test_padding_and_resolve_bad_input():
    with pytest.raises(InputError, match="pad"):
        padding("abe", "z", 2)
    with pytest.raises(InputError, match="K"):
        padding("abe", "e", 0)
    with pytest.raises(InputError, match="language"):
        resolve("NO-SUCH-LANGUAGE")
    with pytest.raises(InputError, match="language"):
        check_preimage(morphism({"a": "a"}, "a", "a"), "Tomita6", "(aa)*/unary", 3)
    with pytest.raises(InputError, match="X"):
        apply(morphism({"0": "0", "1": "1"}, "01", "01"), np.array([[0, 2]]))


def test_mod3_ground_truth_against_brute_force():
    t = AUXILIARY["MOD3"]
    for n in range(7):
        for w in itertools.product("01", repeat=n):
            assert t.accepts("".join(w)) == (w.count("1") % 3 == 0)


def test_morphism_reductions_hold_and_a_wrong_one_gives_the_smallest_witness():
    for red in REDUCTIONS:
        assert red.check(6 if len(red.source) > 1 else 12).holds, red.key
    bad = check_preimage(morphism({"0": "00", "1": "01"}, "01", "01"), "Tomita6", "MOD3", 8)
    assert not bad.holds and bad.witness == "0" and bad.image == "00"
    assert bad.in_language is False and bad.in_preimage is True
    pad = check_preimage(padding("abe", "e", 3), "Sigma*be*", "Sigma*be*", 5)
    assert pad.holds and pad.strings == sum(3**i for i in range(6))


def test_prefix_family_for_tomita3():
    c = check_preimage(morphism({"a": "0"}, "a", "01"), "Tomita3", "(aa)*/unary", 15, prefix="1")
    assert c.holds
    wrong = check_preimage(morphism({"a": "0"}, "a", "01"), "Tomita3", "(aa)*/unary", 15, prefix="0")
    assert not wrong.holds and wrong.witness == "a"


def test_lemma42_transformer_small():
    p = parse("alphabet: a b\nL := #[1] Q(a) >= 1 and #Q(b) <= #Q(a) and mod(3, 1)\n")
    for images in ({"x": "ab", "y": "ba"}, {"x": "aab", "y": "bbb"}, {"x": "b", "y": "a"}):
        h = morphism(images, "xy", "ab")
        assert check_transform(p, h, 7).holds
        q = transform(p, h)
        for w in ("", "x", "xy", "yxyx", "xxxyy"):
            assert accepts(q, w) == accepts(p, "".join(h.apply_text(w)))
    with pytest.raises(InputError, match="program"):
        transform(p, morphism({"0": "0"}, "0", "0"))


# ---------------------------------------------------------------------------------------------------
# enumerate.py


def _naive_boolean_trees(alphabet, frag, max_size):
    """Every Boolean expression tree of size <= max_size as text, without any pruning."""
    def par(t):
        leaf = t.isalnum() or t.startswith(("Q(", "mod(")) and " " not in t.replace(", ", "")
        return t if leaf else f"({t})"
    B = {1: [f"Q({a})" for a in alphabet] + ["true"]}
    if frag.periodic:
        B[1] += [f"mod({m}, {r})" for m in range(2, frag.max_modulus + 1) for r in range(m)]
    C = {1: [str(c) for c in frag.constants]}
    for s in range(2, max_size + 1):
        b, c = [], []
        for x in B[s - 1]:
            b.append(f"not {par(x)}")
            c.append(f"#{par(x)}")
            if frag.local:
                c += [f"#[{d}] {par(x)}" for d in range(frag.max_offset + 1)]
        for s1 in range(1, s - 1):
            s2 = s - 1 - s1
            b += [f"{par(x)} and {par(y)}" for x in B[s1] for y in B[s2]]
            b += [f"{par(x)} <= {par(y)}" for x in C[s1] for y in C[s2]]
            c += [f"{par(x)} {op} {par(y)}" for x in C[s1] for y in C[s2] for op in "+-"]
        for s1, s2 in itertools.product(range(1, s), repeat=2):
            s3 = s - 1 - s1 - s2
            if s3 >= 1:
                c += [f"{par(p)} ? {par(x)} : {par(y)}" for p in B[s1] for x in C[s2] for y in C[s3]]
        B[s], C[s] = b, c
    return B


@pytest.mark.parametrize("alphabet,spec,max_size,n", [
    (("a", "b"), "[]", 5, 3), (("a", "b"), "[periodic,local]", 5, 3), (("a",), "[]", 6, 5),
    # offsets beyond the sample's length (they used to raise KeyError; they add no behaviour)
    (("a", "b"), Fragment(local=True, max_offset=4), 5, 2),
    (("a",), Fragment(local=True, max_offset=3), 5, 0)])
def test_pruned_enumeration_reaches_exactly_the_unpruned_behaviours(alphabet, spec, max_size, n):
    frag = Fragment.of(spec)
    bits, sizes, texts, sample = explore(alphabet, frag, max_size, n)
    kept = {row.tobytes(): int(s) for row, s in zip(bits, sizes)}
    X = all_strings(len(alphabet), n)
    naive: dict[bytes, int] = {}
    for s, trees in _naive_boolean_trees(alphabet, frag, max_size).items():
        for t in trees:
            row = sample.from_prefixes(accepts_prefixes(program_of(alphabet, t), X)).astype(bool)
            naive.setdefault(row.tobytes(), s)
    assert set(naive) == set(kept)  # completeness and soundness of the pruning on this sample
    assert all(naive[k] == kept[k] for k in kept)  # kept expressions are smallest
    for row, t in zip(bits, texts):  # the kept texts evaluate (reference path) to their rows
        assert np.array_equal(sample.from_prefixes(accepts_prefixes(program_of(alphabet, t), X)), row)


def test_search_positive_negative_and_determinism():
    maj = resolve("MAJORITY")
    r = search(maj, maj.alphabet, "[]", 8, 5, verify_len=10)
    assert r.found and r.size == 5 and r.expression == "#Q(b) <= #Q(a)" and r.generalizes
    par = resolve("PARITY")
    a = search(par, par.alphabet, "[periodic,local]", 7, 4)
    b = search(par, par.alphabet, "[periodic,local]", 7, 4)
    assert not a.found and a.size_completed == 7 and "none found up to size 7 on strings <= 4" in a.summary()
    assert (a.bool_behaviours, a.count_behaviours, a.candidates) == (b.bool_behaviours, b.count_behaviours,
                                                                     b.candidates)
    capped = search(par, par.alphabet, "[periodic,local]", 12, 4, max_behaviours=2000)
    assert not capped.found and capped.stopped and capped.size_completed < 12
    assert capped.bool_behaviours <= 2000 and capped.count_behaviours <= 2000


def test_search_all_shares_one_enumeration():
    names = ["Tomita1", "Tomita5", "MAJORITY"]
    rs = search_all([(x, resolve(x).alphabet, resolve(x)) for x in names], "[]", 6, 4, verify_len=8)
    assert [r.found for r in rs] == [True, False, True]
    assert rs[0].expression == "#Q(0) <= 0" and rs[2].expression == "#Q(b) <= #Q(a)"


def test_overfitting_program_is_reported_not_counted_as_success():
    t = resolve("(aaaa)*")
    r = search(t, t.alphabet, "[]", 8, 3, verify_len=8)
    assert r.found and r.generalizes is False and r.witness is not None


def test_occam_sequence():
    t = resolve("MAJORITY")
    run = occam(t, t.alphabet, "[]", [1, 2, 3, 4], 6, final_len=10)
    assert [s.expression for s in run.steps][1:] == ["#Q(b) <= #Q(a)"] * 3
    assert run.stable_from == 2 and run.final_generalizes and run.first_agrees == 2
    p = resolve("PARITY")
    bad = occam(p, p.alphabet, "[periodic,local]", [1, 2, 3], 8)
    assert bad.stable_from is None and not any(s.agrees_2n for s in bad.steps if s.expression)


@pytest.mark.parametrize("kwargs,field", [
    ({"fragment": "[foo]"}, "fragment"), ({"max_size": 0}, "max_size"), ({"n": -1}, "n"),
    ({"alphabet": ("x", "y")}, "alphabet"), ({"alphabet": ()}, "alphabet"),
    ({"max_behaviours": 3}, "max_behaviours")])
def test_search_bad_input_names_the_field(kwargs, field):
    t = resolve("MAJORITY")
    args = {"truth_accepts": t, "alphabet": t.alphabet, "fragment": "[]", "max_size": 4, "n": 3, **kwargs}
    with pytest.raises(InputError) as e:
        search(**args)
    assert e.value.field == field


def test_fragment_bounds_and_mixed_alphabet_sizes_are_rejected():
    with pytest.raises(InputError, match="max_modulus"):
        Fragment.of("[periodic]", max_modulus=0)
    with pytest.raises(InputError, match="constants"):
        Fragment.of("[]", constants=(1, 1))
    with pytest.raises(InputError, match="truths"):
        search_all([("T1", "01", resolve("Tomita1")), ("#17", "012", resolve("#17"))], "[]", 3, 2)


def test_enumerate_cli(capsys):
    assert enumerate_cli.main(["Tomita1", "--max-size", "5", "--n", "4", "--verify-len", "8"]) == 0
    assert "#Q(0) <= 0" in capsys.readouterr().out
    assert enumerate_cli.main(["PARITY", "--fragment", "[periodic,local]", "--max-size", "5",
                              "--n", "3"]) == 3
    assert "none found up to size 5" in capsys.readouterr().out
    assert enumerate_cli.main(["NOPE"]) == 2


# ---------------------------------------------------------------------------------------------------
# enumerate.py: prefix-closed samples and masked targets

WORDS = ["aab", "abba", "b", "bbab", "ba", "aaaa"]  # prefix closure: a sample that is no complete trie


def _closure(words, alphabet="ab"):
    return PrefixSample.closure(len(alphabet), [[alphabet.index(c) for c in w] for w in words])


@pytest.mark.parametrize("spec,max_size", [("[]", 5), ("[periodic,local]", 5)])
def test_pruning_on_a_prefix_closed_sample_reaches_exactly_the_unpruned_behaviours(spec, max_size):
    frag = Fragment.of(spec)
    sample = _closure(WORDS)
    assert sample.N == 14 and sample.words[0] == () and sample.n == 4
    bits, sizes, texts, _ = explore(("a", "b"), frag, max_size, sample)
    kept = {row.tobytes(): int(s) for row, s in zip(bits, sizes)}
    naive: dict[bytes, int] = {}
    for s, trees in _naive_boolean_trees(("a", "b"), frag, max_size).items():
        for t in trees:
            prog = program_of(("a", "b"), t)
            naive.setdefault(sample.values(lambda X, prog=prog: accepts_prefixes(prog, X)).tobytes(), s)
    assert set(naive) == set(kept)  # completeness and soundness of the pruning on this sample
    assert all(naive[k] == kept[k] for k in kept)  # kept expressions are smallest
    for row, t in zip(bits, texts):
        prog = program_of(("a", "b"), t)
        assert np.array_equal(sample.values(lambda X, prog=prog: accepts_prefixes(prog, X)), row)


def test_prefix_sample_of_all_strings_equals_the_complete_trie():
    full = Sample(3, 3)
    gen = PrefixSample(3, [w for L in range(4) for w in itertools.product(range(3), repeat=L)])
    assert full.N == gen.N == 40
    assert np.array_equal(full.depth, gen.depth) and np.array_equal(full.last, gen.last)
    for d in full.anc:
        assert all(np.array_equal(x, y) for x, y in zip(full.anc[d], gen.anc[d]))
    B = np.random.default_rng(1).integers(0, 2, size=(4, 40)).astype(bool)
    assert np.array_equal(full.tree_cumsum(B, np.int32), gen.tree_cumsum(B, np.int32))


def test_masked_target_is_found_by_a_smaller_expression():
    sample = Sample(2, 4)
    bits = (sample.last == 0) & (sample.tree_cumsum((sample.last == 1)[None, :], np.int32)[0] == 0)  # a+ only
    full = np.ones(sample.N, dtype=bool)
    care = sample.last == 0  # don't care where the last letter is not a
    r = search_masked("ab", sample, [("exact", bits, full), ("masked", bits, care)], "[]", 8)
    exact, masked = r.matches
    assert exact.found and masked.found and masked.size < exact.size
    assert masked.expression == "#Q(b) <= 0" and masked.cared == int(care.sum())
    prog = program_of(("a", "b"), masked.expression)
    X = all_strings(2, 4)
    row = sample.from_prefixes(accepts_prefixes(prog, X)).astype(bool)
    assert np.array_equal(row[care], bits[care]) and not np.array_equal(row, bits)
    again = search_masked("ab", sample, [("masked", bits, care)], "[]", 8)
    assert again.matches[0].expression == masked.expression and again.candidates <= r.candidates


def test_prefix_sample_and_masked_search_bad_input_name_the_field():
    with pytest.raises(InputError) as e:
        PrefixSample(2, [(), (0,), (0, 1, 1)])  # (0, 1) missing
    assert e.value.field == "words" and "prefix-closed" in str(e.value)
    with pytest.raises(InputError) as e:
        PrefixSample(2, [(), (2,)])
    assert e.value.field == "words"
    with pytest.raises(InputError) as e:
        PrefixSample(2, [])
    assert e.value.field == "words"
    sample = Sample(2, 2)
    ok = np.zeros(sample.N, dtype=bool)
    with pytest.raises(InputError) as e:
        search_masked("ab", sample, [("t", ok, ok[:-1])], "[]", 3)
    assert e.value.field == "mask"
    with pytest.raises(InputError) as e:
        search_masked("ab", sample, [("t", ok.astype(int), ok)], "[]", 3)
    assert e.value.field == "bits"
    with pytest.raises(InputError) as e:
        search_masked("abc", sample, [("t", ok, ok)], "[]", 3)
    assert e.value.field == "sample"
