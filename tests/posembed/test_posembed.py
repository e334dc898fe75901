"""The closed-form positional embeddings (eq. (4) of Richard 2024): exact values and the telescoping sum."""

import itertools
from fractions import Fraction as F

import pytest

from proofkit.errors import InputError
from proofkit.posembed.model import Head

DYCK_E = [[1], [-1]]  # '(' -> +1, ')' -> -1


@pytest.mark.parametrize("word,B,sums", [
    ("()", ["-1/2", "1/2"], ["1/2", "0"]),
    ("(())", ["-3/2", "0", "1", "1/2"], ["-1/2", "1/2", "1/2", "0"]),
    ("(()())", ["-3/2", "0", "0", "0", "1", "1/2"], ["-1/2", "1/2", "-1/2", "1/2", "1/2", "0"]),
    ("()(())", ["-1/2", "0", "-1", "0", "1", "1/2"], ["1/2", "-1/2", "-1/2", "1/2", "1/2", "0"]),
])
def test_dyck_closed_form_values(word, B, sums):
    s = [0 if c == "(" else 1 for c in word]
    h = Head.closed_form(DYCK_E, s, F(-1, 2), -8)
    assert [b[0] for b in h.B] == [F(x) for x in B]
    assert [h.pooled(s[:r])[0] for r in range(1, len(s) + 1)] == [F(x) for x in sums]
    assert h.weight_count == len(s) + 3  # 2N + 3


@pytest.mark.parametrize("gamma", [F(-1, 2), F(1, 3), F(2)])
def test_telescoping_for_every_word_and_vocabulary(gamma):
    E = [[1, 0, 2], [0, 1, -1], [F(1, 2), 3, 0]]
    for s in itertools.product(range(3), repeat=4):
        h = Head.closed_form(E, s, gamma, 1)
        for r in range(1, 4):
            assert h.pooled(s[:r]) == tuple(gamma * c for c in h.E[s[r]])


def test_log_probs_keep_tiny_failure_mass():
    s = [0, 1]
    h = Head.closed_form(DYCK_E, s, F(-1, 2), -2000)  # logits +-1000 at r = 1
    lp = h.log_probs([0])
    assert lp[1] > -1e-300 and lp[0] < -1999  # P(')') ~ 1, log P('(') ~ -2000, not -inf


def test_bad_inputs():
    with pytest.raises(InputError, match="not floats"):
        Head.closed_form([[0.5]], [0], F(1), 1)
    with pytest.raises(InputError, match="context"):
        Head.closed_form(DYCK_E, [0, 1], F(1), 1).logits([0, 1, 0])
    with pytest.raises(InputError, match="token indices"):
        Head.closed_form(DYCK_E, [0, 2], F(1), 1)
