"""proofkit.posembed.jl's step failures and bounds against their closed forms, the constructions the theorem
file names, and proofkit.posembed.jlsearch's seeded sweeps against their own definitions."""

from fractions import Fraction as F

import numpy as np
import pytest

from proofkit.numerics.backend import arb_bits
from proofkit.posembed import jl, jlsearch

S = (0, 1, 2, 0, 1, 2)


@pytest.fixture(autouse=True)
def _bits():
    """The reference balls at the module's own precision."""
    with arb_bits(jl.PREC):
        yield


def _close(x, y, digits=60):
    return abs(x - y) < jl.ball(F(1, 10**digits)) * (1 + abs(y))


def test_step_failures_union_and_the_completion():
    rows = jl.logit_rows(jl.onehot(3, 3), S)
    c = jl.completion(rows, F(7))
    qs = jl.step_failures(c)
    assert len(qs) == len(S) - 1
    for r, q in enumerate(qs, start=1):  # one-hot: S_r = 2 e^{-vg/r}, q = S/(1 + S)
        S_r = 2 * jl.ball(F(-7, r)).exp()
        assert _close(q, S_r / (1 + S_r))
    union = jl.union_failure(c)
    assert c.failure < union  # the union bound exceeds the exact failure by second-order terms
    assert _close(c.failure, jl.onehot_failure(3, len(S), F(7)))


def test_bounds_are_their_closed_forms():
    n, t, eps, vg = 6, 3, F(1, 2), F(30)
    assert _close(jl.step_bound(n, t, eps, vg) * n, jl.failure_bound(n, t, eps, vg))
    assert _close(jl.corrected_step_bound(n, t, F(1, 4), vg), t * jl.ball(F(-30, 6) / 2).exp())
    assert _close(jl.exp_bound(t, vg), 2 * jl.ball(-vg).exp())
    assert jl.log_step_margin(F(7968, 10000)) > 0 > jl.log_step_margin(F(7969, 10000))
    thr = jl.log_step_threshold(n, t, eps, F(1, 2))
    at = jl.failure_bound(n, t, eps, F(int(thr.mid().floor().unique_fmpz()) + 1))
    assert at < jl.ball(F(1, 2))


def test_steps_against_pairs_every_step_with_the_bound():
    rows = jl.logit_rows(jl.onehot(3, 3), S)
    grid = [F(6), F(12)]
    cases = list(jl.steps_against(rows, grid, lambda vg: jl.ball(vg)))
    assert [(vg, r) for vg, r, _, _ in cases] == [(vg, r) for vg in grid for r in range(1, 6)]
    assert all(b == jl.ball(vg) for vg, _, _, b in cases)


def test_constructions():
    assert jl.square_scale(F(1, 2)) == F(144, 256)  # (12/16)^2 = 0.5625 >= 1/2 > (11/16)^2
    assert jl.first_n_above_dimension(F(99, 100)) == next(m for m in range(2, 400)
                                                         if jl.jl_dimension(m, F(99, 100)) < m)
    for kind in ("gaussian", "onehot", "circle", "shifted", "scaled"):
        E = jl.named_embedding(kind, 3, 4, S, 0)
        assert len(E) == 3 and all(len(row) == 4 for row in E)
    assert jl.named_embedding("gaussian", 3, 4, S, 5) == jl.gaussian(3, 4, np.random.default_rng(5))
    with pytest.raises(KeyError):
        jl.named_embedding("nope", 3, 4, S, 0)


def test_onehot_positional_is_eq_4_at_the_identity():
    from proofkit.posembed.model import closed_form_B

    for s in ((0, 1, 2), (2, 2, 0, 1), (1,)):
        assert list(closed_form_B(jl.onehot(3, 3), s, F(-1, 3))) == jl.onehot_positional(3, s, F(-1, 3))


def test_draws_and_successes_follow_the_seeded_generator():
    fam = {"g": lambda rng, s: jl.gaussian(3, 5, rng), "none": lambda rng, s: None}
    rows = list(jlsearch.draws(6, 3, range(2), fam))
    assert [(seed, name) for seed, name, _, _ in rows] == [(0, "g"), (0, "none"), (1, "g"), (1, "none")]
    rng = np.random.default_rng(1)
    s = tuple(int(x) for x in rng.integers(0, 3, size=6))
    assert rows[2][2] == s and rows[2][3] == jl.gaussian(3, 5, rng) and rows[3][3] is None
    ok = sum(jl.satisfies_7(E, s, F(1, 2)) for _, name, s, E in rows if name == "g")
    assert jlsearch.gaussian_successes(6, 3, F(1, 2), 5, range(2)) == ok


def test_corrected_steps_are_below_their_bound_and_only_where_eta_is_small():
    n, t, eps = 6, 3, F(1, 2)
    d = jl.jl_dimension(n, eps)
    cases = list(jlsearch.corrected_steps(n, t, eps, d, range(3), [F(6), F(30)]))
    assert cases and all(eta < F(1, 2) for _, _, _, eta, *_ in cases)
    assert all(q < b for *_, q, b in cases)
    assert {f for f, *_ in cases} <= set(jlsearch.default_families(t, d, eps))
