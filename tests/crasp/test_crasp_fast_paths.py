"""The C-RASP hot paths made fast for ``check --all`` keep their meaning: the batch hash index answers as a
dict does, the behaviour hash separates sibling rows, and the exact forward pass returns Fractions equal
to a pass done entirely in ``fractions.Fraction``."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from proofkit.crasp import accepts_prefixes
from proofkit.crasp.communication.comm import _dyck2_deep, dyck2_language
from proofkit.crasp.compilation.compiler import compile_program
from proofkit.crasp.compilation.forward import Stepper, final_stream, prepare, run, trace
from proofkit.crasp.language.parser import parse
from proofkit.crasp.search.enumerate import Fragment, _Search
from proofkit.crasp.search.hashindex import EMPTY, HashIndex
from proofkit.crasp.search.samples import BehaviourStore, Sample
from proofkit.crasp.semantics.compare import all_strings
from proofkit.crasp.semantics.truth import DFA

DYCK = "alphabet: a b\nV := #Q(a) < #Q(b)\nD := #V == 0 and #Q(a) == #Q(b)\n"


def test_hash_index_matches_a_dict_through_resizes():
    rng = np.random.default_rng(3)
    index, ref = HashIndex(4), {}
    for _ in range(40):
        keys = np.unique(rng.integers(0, 2**64 - 1, size=300, dtype=np.uint64) & np.uint64(0xFFFF_FFFF))
        keys = keys[[int(k) not in ref for k in keys.tolist()]]
        vals = np.arange(len(ref), len(ref) + len(keys))
        index.put(keys, vals)
        ref.update(zip(keys.tolist(), vals.tolist()))
        probe = np.concatenate([keys, rng.integers(0, 2**32, size=200, dtype=np.uint64)])
        assert index.get(probe).tolist() == [ref.get(k, EMPTY) for k in probe.tolist()]
    assert len(index) == len(ref) > 10_000  # several resizes happened


def test_hash_index_same_slot_keys_all_found():
    index = HashIndex(8)
    size = len(index.keys)
    keys = np.array([5 + i * size for i in range(6)], dtype=np.uint64)  # all start at slot 5
    index.put(keys, np.arange(6))
    assert index.get(keys).tolist() == list(range(6))
    assert index.get(np.array([5 + 7 * size], dtype=np.uint64)).tolist() == [EMPTY]


def test_behaviour_hash_separates_rows_that_differ_in_top_bytes():
    # two 16-byte rows differing by 2^57 in both words: the unmixed weighted sum collided on such pairs
    store = BehaviourStore(16, np.uint8, 64)
    a = np.frombuffer(bytes.fromhex("ff" * 15 + "fe"), dtype=np.uint8)
    b = np.frombuffer(bytes.fromhex("ff" * 7 + "fd" + "ff" * 7 + "fc"), dtype=np.uint8)
    h = store.hash(np.stack([a, b]))
    assert h[0] != h[1]
    meta = np.full((2, 5), -1, dtype=np.int64)
    assert store.add(np.stack([a, b, a]), np.vstack([meta, meta[:1]]), 1) == 2


@pytest.mark.parametrize("word", ["", "a", "ab", "bba", "abbab", "aabbbabb"])
def test_exact_streams_are_fractions_and_prepared_weights_agree(word):
    program = parse(DYCK)
    net = compile_program(program)
    final = final_stream(net, net.encode(word))
    assert all(isinstance(v, int | Fraction) for y in final for v in y)
    divided = any(isinstance(v, Fraction) and v.denominator > 1 for y in final for v in y)
    assert divided == (len(word) > 0)  # the uniform heads divide once a letter is read
    assert final == trace(net, net.encode(word))[-1]
    floats = trace(net, net.encode(word), mode="float64")[-1]
    assert max(abs(float(e) - f) for y, z in zip(final, floats) for e, f in zip(y, z)) < 1e-9
    X = np.array([net.encode(word)], dtype=np.int64).reshape(1, len(word))
    assert run(net, net.encode(word)) == [bool(v) for v in accepts_prefixes(program, X)[0]]
    weights = prepare(net)
    assert run(net, net.encode(word), prepared=weights) == run(net, net.encode(word))
    assert final_stream(net, net.encode(word), prepared=weights) == final


def test_prepared_weights_refuse_another_mode():
    net = compile_program(parse(DYCK))
    with pytest.raises(ValueError, match="prepared for mode"):
        Stepper(net, "float64", 3, prepared=prepare(net, "exact"))


@pytest.mark.parametrize(("k", "n", "start", "stop"), [(2, 10, 0, None), (3, 5, 7, 100), (2, 0, 0, None),
                                                       (5, 4, 600, 625), (1, 3, 0, None), (3, 6, 0, 0),
                                                       (2, 14, 1234, 9000), (3, 9, 1, 2)])
def test_string_ranges_equal_the_positional_formula(k, n, start, stop):
    total = k**n if stop is None else min(stop, k**n)
    idx = np.arange(start, total, dtype=np.int64)
    want = (idx[:, None] // k ** np.arange(n - 1, -1, -1, dtype=np.int64)[None, :]) % k
    got = all_strings(k, n, start, stop)
    assert got.dtype == np.int64 and got.shape == want.shape and np.array_equal(got, want)


def test_dfa_prefix_run_equals_a_state_by_state_walk():
    rng = np.random.default_rng(11)
    for _ in range(25):
        k, count = int(rng.integers(1, 4)), int(rng.integers(1, 6))
        states, alphabet = [f"q{i}" for i in range(count)], [chr(97 + i) for i in range(k)]
        delta = {s: {a: states[int(rng.integers(count))] for a in alphabet if rng.random() < 0.8}
                 for s in states}
        dfa = DFA.from_json({"alphabet": alphabet, "states": states, "start": states[0], "delta": delta,
                             "accept": [s for s in states if rng.random() < 0.5]})
        X = all_strings(k, int(rng.integers(0, 7)))
        for row, got in zip(X.tolist(), dfa.accepts_prefixes(X).tolist()):
            state, want = states[0], []
            for t in [None, *row]:
                if t is not None:
                    state = delta.get(state, {}).get(alphabet[t]) if state else None
                want.append(state in dfa.accept)
            assert got == want


def test_dyck2_bit_stack_equals_the_explicit_stack():
    for n in range(9):
        X = all_strings(4, n)
        assert np.array_equal(dyck2_language(X), _dyck2_deep(X))
    rng = np.random.default_rng(1)  # depth up to 31 and a few wrong closers
    openers = rng.integers(0, 2, (2000, 31))
    closers = np.where(rng.random((2000, 31)) < 0.02, 3 - openers[:, ::-1], openers[:, ::-1] + 2)
    X = np.concatenate([openers, closers], axis=1)
    got = dyck2_language(X)
    assert np.array_equal(got, _dyck2_deep(X)) and 0 < got[:, -1].sum() < len(X)


def test_colliding_rows_keep_their_place_in_enumeration_order():
    # a weak hash (the first byte) forces collisions: B collides with the kept A and must still be kept
    # before C, and under a cap of 2 the first two new rows are the ones kept
    def rows(*firsts):
        out = np.zeros((len(firsts), 8), dtype=np.uint8)
        for i, (a, b) in enumerate(firsts):
            out[i, :2] = a, b
        return out

    for cap, want in ((2, [(0, 1), (0, 2)]), (10, [(0, 1), (0, 2), (1, 0), (0, 3)])):
        store = BehaviourStore(8, np.uint8, cap)
        store.hash = lambda r: np.ascontiguousarray(r)[:, 0].astype(np.uint64)
        meta = np.zeros((4, 5), dtype=np.int64)
        store.add(rows((0, 1)), meta[:1], 1)
        store.add(rows((0, 2), (1, 0), (0, 2), (0, 3), (0, 1)), np.zeros((5, 5), dtype=np.int64), 2)
        assert [tuple(r[:2]) for r in store.rows[: store.n].tolist()] == want
        assert store.full == (cap == 2)


def test_a_short_range_of_very_long_strings_is_built_without_the_whole_run():
    got = all_strings(2, 40, 2**39 - 1, 2**39 + 1)  # crosses the first position's boundary
    assert got.shape == (2, 40) and got[0].tolist() == [0] + [1] * 39 and got[1].tolist() == [1] + [0] * 39


def test_count_rows_in_int8_enumerate_what_int16_rows_do():
    # max_size 6 on strings <= 3 bounds every count by 6 * 4 = 24: int8 rows; a max_size of 40 forces
    # int16. The kept behaviours of sizes <= 6 (Boolean and count, in order) must be the same.
    frag, sample = Fragment.of("[periodic,local]"), Sample(2, 3)
    narrow, wide = (_Search(("a", "b"), frag, sample, 100_000, m) for m in (6, 40))
    assert (narrow.cdtype, wide.cdtype) == (np.int8, np.int16)
    for s in range(1, 7):
        narrow.grow(s)
        wide.grow(s)
    assert (narrow.B.n, narrow.C.n) == (wide.B.n, wide.C.n) and narrow.C.n > 500
    idx = np.arange(narrow.C.n)
    assert np.array_equal(narrow.counts(idx), wide.counts(idx))
    assert np.array_equal(narrow.B.rows[: narrow.B.n], wide.B.rows[: wide.B.n])
    assert np.array_equal(narrow.C.meta[: narrow.C.n], wide.C.meta[: wide.C.n])


def test_store_grows_in_place_and_by_copy_alike():
    # growth reallocates in place; while another object views the rows numpy refuses, and the store copies
    rng = np.random.default_rng(3)
    batches = [rng.integers(0, 4, size=(700, 8), dtype=np.uint8) for _ in range(6)]
    kept = []
    for hold in (False, True):
        store = BehaviourStore(8, np.uint8, 100_000)
        view = store.rows[:1] if hold else None
        first = id(store.rows)  # an id, not a reference: a reference would make numpy refuse to resize
        for i, rows in enumerate(batches):
            store.add(rows, np.full((len(rows), 5), i), i)
        kept.append(tuple(getattr(store, a)[: store.n].copy() for a in ("rows", "meta", "size")))
        # unviewed: the same array object grew in place; viewed: a copy (the view keeps the old one alive)
        assert (id(store.rows) == first) != hold and (view is None or view.base is not store.rows.base)
    assert all(np.array_equal(a, b) for a, b in zip(*kept)) and len(kept[0][0]) > 1024
