"""proofkit.posembed.dyck's counting and reading helpers against brute force over all words."""

import itertools
from fractions import Fraction as F

import pytest

from proofkit.posembed import dyck


def _all_words(n):
    return itertools.product((dyck.OPEN, dyck.CLOSE), repeat=n)


def test_balanced_depth_and_height_profile():
    assert dyck.balanced_depth(dyck.parse("(()())")) == 2 and dyck.balanced_depth(()) == 0
    assert dyck.balanced_depth(dyck.parse("())(")) is None and dyck.balanced_depth(dyck.parse("((")) is None
    assert dyck.height_profile(dyck.parse("())((")) == (1, 3, 1)
    assert dyck.height_profile(dyck.parse("(((")) == (3, 1, 3)  # no negative height: position 1


def test_balanced_continuations_count_dyck_completions():
    for r in range(0, 7):
        for prefix in _all_words(r):
            for k in range(0, 7):
                want = sum(dyck.is_dyck((*prefix, *w)) for w in _all_words(k))
                assert dyck.balanced_continuations(prefix, k) == want
    assert dyck.balanced_continuations(dyck.parse("(" * 16), 16) == 1


def test_insertion_readings_are_exactly_the_balanced_insertions():
    text = "(()"  # insert one '(' and two ')' -> length 6
    got = dyck.insertion_readings(text, 1, 2, 2)
    want = set()
    for w in _all_words(6):
        word = dyck.show(w)
        # text is a subsequence of word (insertions only), with the right counts
        it = iter(word)
        if all(c in it for c in text) and dyck.balanced_depth(w) == 2:
            want.add(word)
    assert got == want and got


def test_deep_states_and_local_configs():
    for N in range(1, 5):
        words = list(dyck.dyck_words(N))
        brute = sum(1 for s in words for r, h in dyck.prefix_states(N) if (r + h) // 2 > dyck.depth(s))
        assert dyck.deep_states(N, words) == brute
        seen = set()
        for s in words:
            hs = [0, *dyck.heights(s)]
            for r in range(1, 2 * N):
                seen |= {(N, r, hs[r], s[r], h) for h in range(0, 2 * N - r + 1) if (h - r) % 2 == 0}
        assert set(c for c in dyck.local_configs(N) if c[0] == N) == seen


def test_walk_depth_probability_by_enumeration():
    for N in range(1, 6):
        for q in range(0, N + 1):
            total = F(0)
            for w in dyck.dyck_words(N):  # the walk's probability of each word: product of 1/#allowed moves
                pr, h = F(1), 0
                for r, k in enumerate(w):
                    allowed = [x for x in (h + 1, h - 1) if 0 <= x <= 2 * N - r - 1]
                    pr /= len(allowed)
                    h += 1 if k == dyck.OPEN else -1
                if dyck.depth(w) <= q:
                    total += pr
            assert dyck.walk_depth_probability(N, q) == total
        assert dyck.walk_depth_probability(N, N) == 1


@pytest.mark.parametrize("N_max", [1, 16, 40])
def test_catalan_closed_forms_agree(N_max):
    assert dyck.catalan_form_mismatches(N_max) == []
