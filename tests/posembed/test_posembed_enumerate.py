"""proofkit.posembed.model's enumerations of heads and contexts, the logit comparison, the log-probability DP
against brute force, and eq. (4)'s symbolic residuals."""

import itertools
from fractions import Fraction as F

import mpmath as mp
import pytest

from proofkit.posembed import dyck
from proofkit.posembed.model import (
    DYCK_E,
    Head,
    binary_contexts,
    dyck_heads,
    dyck_worst_failure,
    first_logit_change,
    telescoping_residuals,
    word_heads,
)


def test_word_and_dyck_heads_enumerate_every_word_once():
    got = [s for s, _ in word_heads([[1, 0], [0, 1]], range(2, 4), F(1, 3), 2)]
    assert got == [*itertools.product(range(2), repeat=2), *itertools.product(range(2), repeat=3)]
    heads = list(dyck_heads(4, F(-1, 2), -7))
    assert [N for N, _, _ in heads] == [N for N in range(1, 5) for _ in range(dyck.catalan(N))]
    assert all(h == Head.closed_form(DYCK_E, s, F(-1, 2), -7) for _, s, h in heads)


def test_binary_contexts():
    zs = list(binary_contexts(4))
    assert len(zs) == 2 + 4 + 8 + 16 == len(set(zs)) and [len(z) for z in zs] == sorted(len(z) for z in zs)
    assert list(binary_contexts(0)) == []


def test_first_logit_change_counts_up_to_the_first_difference():
    h = Head.closed_form(DYCK_E, dyck.parse("(())"), F(-1, 2), -3)
    last = Head(h.E, (*h.B[:-1], (F(123),)), h.v)  # B_4 enters only length-4 contexts
    first = Head(h.E, ((F(9),), *h.B[1:]), h.v)
    zs = list(binary_contexts(3))
    assert first_logit_change((0, h, last, z) for z in zs) == (len(zs), None)
    n, case = first_logit_change((0, h, first, z) for z in zs)
    assert n == 1 and case[3] == (0,)


def test_dyck_worst_failure_matches_summing_over_continuations():
    s, v = dyck.parse("(()())"), F(-2)
    head = Head.closed_form(DYCK_E, s, F(-1, 2), v)
    with mp.workdps(30):
        worst = mp.mpf(0)
        for r, h in dyck.prefix_states(3):
            z = (dyck.OPEN,) * ((r + h) // 2) + (dyck.CLOSE,) * ((r - h) // 2)
            words = (z + c for c in itertools.product((0, 1), repeat=6 - r))
            fail = mp.fsum(mp.exp(mp.fsum(head.log_probs(w[:k])[w[k]] for k in range(r, 6)))
                           for w in words if not dyck.is_dyck(w))
            worst = max(worst, fail)
        assert abs(dyck_worst_failure(s, F(-1, 2), v) - worst) < mp.mpf(10) ** -25


@pytest.mark.parametrize("t,d,n", [(2, 1, 3), (3, 2, 2)])
def test_telescoping_residuals_vanish(t, d, n):
    res = telescoping_residuals(t, d, n)
    assert len(res) == t**n * (n + n - 1) * d and all(x == 0 for x in res)
