"""The C-RASP hot paths made fast for ``check --all`` keep their meaning: the batch hash index answers as a
dict does, the behaviour hash separates sibling rows, and the exact forward pass returns Fractions equal
to a pass done entirely in ``fractions.Fraction``."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from proofkit.crasp import accepts_prefixes
from proofkit.crasp.compiler import compile_program
from proofkit.crasp.hashindex import EMPTY, HashIndex
from proofkit.crasp.network import Stepper, final_stream, prepare, run, trace
from proofkit.crasp.parser import parse
from proofkit.crasp.samples import BehaviourStore

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
