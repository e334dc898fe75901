"""The deep-sets hinge witness and the witness search's scope (proofkit.families.readout,
proofkit.families.readout_search), and the pair-sum true model (proofkit.families.instances)."""

from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp

from proofkit.families.instances import PAIR_SUM, pair_sum_true_params
from proofkit.families.pairwise import PairwiseSum
from proofkit.families.readout import SumReadout, hinge, set_hinge_witness
from proofkit.families.readout_search import EFFORT, FAMILIES, FAMILY_COUNT, search, searched

PARAMS = {"T": 3, "supervision": "ALL", "pair_map": "bounded", "readout": "C1", "support": "cube",
          "truth": "pair", "keys": "causal", "residual": False}


@pytest.mark.parametrize("lengths", [[1, 2, 3], [4], [1, 2, 3, 4, 5]])
def test_set_hinge_witness_has_zero_risk_and_gap_one(lengths):
    w = set_hinge_witness(lengths)
    T = max(lengths)
    assert w.s0 == T and w.tokens == [1] * (T + 1) and w.gap == 1 and w.nonzero
    h = SumReadout(hinge(sp.Integer(T)), lambda a, b: b, "set")
    for t in lengths:  # the largest training sum, every token 1, still at the identity part
        assert h.value([sp.Integer(1)] * t) == t


def test_search_scope_names_the_parameters_and_the_family_count():
    assert EFFORT == f"{FAMILY_COUNT} closed-form witness families tried: {FAMILIES}"
    assert FAMILY_COUNT == FAMILIES.count("),") + 1
    text = searched(PARAMS)
    assert text.startswith(f"the {FAMILY_COUNT} closed-form witness families at T = 3, supervision ALL")
    assert text.endswith("keys causal") and searched({**PARAMS, "residual": True}).endswith(", residual")
    assert search(PARAMS).found


def _family(n, m, degree=2, knots=(), bias=False):
    return PairwiseSum(n, n, m, degree, True, degree, knots, bias)


def test_pair_sum_true_model_default_instance():
    fam = _family(2, 2, bias=True)
    theta = [float(v) for v in pair_sum_true_params(fam, 3, False)]
    assert len(theta) == fam.n_params
    assert theta[:4] == [v for row in PAIR_SUM["B"] for v in row] and theta[4:6] == PAIR_SUM["bias"][:2]
    V = np.array(theta[6:]).reshape(2, fam.F)
    assert V.tolist() == [[((r + 1) * (s + 2) % 7 - 3) / 5 for s in range(fam.F)] for r in range(2)]
    assert V[1, 1] == 0.6


@pytest.mark.parametrize("n,m", [(1, 1), (2, 3), (3, 2)])
def test_pair_sum_hinge_model_is_the_stated_one(n, m):
    T = 4
    fam = _family(n, m, knots=(F(2 * T, 2 * T + 1), F(1)))
    theta = np.array([float(v) for v in pair_sum_true_params(fam, T, True)])
    B, V = theta[: m * n].reshape(m, n), theta[m * n:].reshape(n, fam.F)
    assert all(B[r, r % n] == 1 and B[r].sum() == 1 for r in range(m))
    for i in range(n):
        key_i = tuple(int(v == n + i) for v in range(2 * n))
        assert V[i, 0] == 1 and V[i, fam.exponents.index(key_i)] == -(T + 1.5)
        assert np.count_nonzero(V[i]) == 2  # every hinge weight 0
