"""Exact constructions (proofkit.constructions): the over-parametrized linear-recurrence learner is exact
and tight, and falsify certifies the refutation at every k~ = n + r, r <= 4, at T = r + 1."""

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from proofkit.constructions.linrec import chain_learner
from proofkit.engine.falsify import falsify
from proofkit.language import registry

small = st.fractions(min_value=-3, max_value=3, max_denominator=7)


def _markov(A, L, B, count):
    out, P = [], B
    for _ in range(count):
        out.append(A.dot(P))
        P = L.dot(P)
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.data())
def test_chain_matches_through_r_and_differs_at_r_plus_1(k, r, data):
    """Markov parameters equal for j <= r, different at j = r + 1, for any true model where A != 0 and
    Lam^r B != 0 (singular Lam and B included); none where those vanish."""
    mats = {key: np.array(data.draw(st.lists(small, min_size=k * k, max_size=k * k)),
                          dtype=object).reshape(k, k) for key in ("A", "Lam", "B")}
    made = chain_learner(mats, k + r, r + 1)
    LrB = np.linalg.matrix_power(mats["Lam"], r).dot(mats["B"]) if r else mats["B"]
    if not mats["A"].any() or not LrB.any():
        assert made is None
        return
    flat, _ = made
    K = k + r
    At = np.array(flat[:k * K], dtype=object).reshape(k, K)
    Lt = np.array(flat[k * K:k * K + K * K], dtype=object).reshape(K, K)
    Bt = np.array(flat[k * K + K * K:], dtype=object).reshape(K, k)
    mine, truth = _markov(At, Lt, Bt, r + 2), _markov(mats["A"], mats["Lam"], mats["B"], r + 2)
    assert all((mine[j] == truth[j]).all() for j in range(r + 1))
    assert not (mine[r + 1] == truth[r + 1]).all()


def test_chain_absent_at_the_threshold():
    """T = r + 2 = k~ - k + 2 is the tight threshold: no chain learner is offered there."""
    eye = np.array([[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]], dtype=object)
    assert chain_learner({"A": eye, "Lam": eye, "B": eye}, 4, 4) is None
    assert chain_learner({"A": eye, "Lam": eye, "B": eye}, 2, 1) is None  # not over-parametrized


@pytest.mark.parametrize("r", [1, 2, 3, 4])
def test_overparametrized_refutation_certified_exactly(r):
    """k~ = n + r at n = 2 (no dimension shrinking), T = r + 1: certified in rational arithmetic."""
    thm = registry.get("AM24.T4")
    res = falsify(thm, overrides={"learned_dim": 2 + r, "T": r + 1}, shrink=False)
    assert res.found and res.certified
    assert res.record["certificate"]["data"]["kind"] == "rational-learner"
    assert res.record["witness_length"] == r + 2
    assert res.params["n"] == 2 and res.params["learned_dim"] == 2 + r


def test_t2_pair_support_drop_finds_the_bump_on_the_cut_cube(tmp_path):
    """The drop searches past its declared variant: at n = k~ = m = 1 on the cut cube the off-support bump
    psi = phi + max(a + b - c, 0)^2 (a - b)^2 is a certified counterexample (no stored record replayed),
    the record replays, and the kernel re-derives it; it is byte-identical on a second run."""
    from proofkit.engine.replay import replay
    from proofkit.kernel import CHECKED, check_record

    thm = registry.get("AM24.T2")
    res = falsify(thm, ["H1.pair-support"], out_dir=tmp_path / "a")
    assert res.found and res.certified and res.params["support"] == "cut" and res.params["n"] == 1
    assert res.record["witness"]["construction"] == "pair-bump"
    path = tmp_path / "a" / res.record_path.split("/")[-1]
    assert replay(path).reproduces
    assert [r.status for r in check_record(res.record)] == [CHECKED]
    falsify(thm, ["H1.pair-support"], out_dir=tmp_path / "b")
    assert (tmp_path / "b" / path.name).read_bytes() == path.read_bytes()


def test_bump_record_with_a_widened_cut_is_rejected_by_the_kernel():
    """An altered support premise (sum bound 2 instead of 3/2) no longer proves the bump zero on the
    training pairs: the kernel rejects the copy."""
    import json

    from proofkit.kernel import FAILED, check_record
    from proofkit.storage import record

    thm = registry.get("AM24.T2")
    res = falsify(thm, ["H1.pair-support"])
    data = json.loads(json.dumps(res.record))
    for c in data["certificate"]["data"]["support"]["sums"]:
        c["at_most"] = "2"
    data["sha256"] = record.digest(data)  # re-stamped: the kernel must reject the premise, not the digest
    assert [r.status for r in check_record(data)] == [FAILED]


def test_bump_record_with_a_narrowed_cut_is_rejected_by_the_kernel():
    """A narrower premise than the record's setting (sum bound 1 < 3/2) would prove less than claimed:
    the kernel ties the premise to the record's cut cube and rejects it."""
    import json

    from proofkit.kernel import FAILED, check_record
    from proofkit.storage import record

    res = falsify(registry.get("AM24.T2"), ["H1.pair-support"])
    data = json.loads(json.dumps(res.record))
    data["certificate"]["data"]["support"]["sums"][0]["at_most"] = "1"
    data["sha256"] = record.digest(data)
    out = check_record(data)
    assert [r.status for r in out] == [FAILED] and "narrower" in out[0].detail


@pytest.mark.parametrize("setting", [{"support": "iid"}, {"support": "cut", "cut_frac": 1.0}])
def test_bump_does_not_apply_where_pairs_fill_the_cube(setting):
    """Control: i.i.d. tokens, or a cut so loose that two tokens reach every pair of [0,1]^2, leave no
    room off the training pairs; the construction declines and says why."""
    from proofkit.constructions.pairsum import off_support_bump
    from proofkit.engine.problem import build_problem

    thm = registry.get("AM24.T2")
    p = thm.params.resolve({**setting, "n": 1, "m": 1, "learned_dim": 1})
    out, why = off_support_bump(build_problem(thm, p, seed=0, dps=60))
    assert out is None and "no pair bound" in why


def test_bump_gap_is_proven_non_zero_by_a_ball():
    """The gap is certified non-zero by a 60-digit ball, not by sympy's structural inequality."""
    from proofkit.constructions.pairsum import _nonzero

    zero = sp.log(6) - sp.log(2) - sp.log(3)
    assert zero != 0 and _nonzero(zero) is None  # structurally non-zero, value 0
    assert "excludes 0" in _nonzero(1 / (1 + sp.exp(sp.Rational(191, 60))) - sp.Rational(1, 25))
    assert _nonzero(sp.Rational(0)) is None and _nonzero(sp.Rational(1, 3)) == "an exact non-zero rational"
