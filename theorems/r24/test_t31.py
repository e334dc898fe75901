"""Regression suite for R24.T31 (Richard 2024, Theorem 3.1): exact completion probabilities, the JL
dimension, the constructions of (b), the certified counterexamples to (7) => bounds, and the search."""

import time
from fractions import Fraction as F

import numpy as np
import pytest

from proofkit import Verdict, checked, decide, registry
from proofkit.posembed import jl, jlsearch

TID = "R24.T31"


@pytest.mark.parametrize("name", list(registry.get(TID).expect))
def test_default_verdicts_match_expectation(name):
    c = checked(TID).claim(name)
    assert c.verdict == c.expected, f"{name}: {c.verdict} ({c.how})"


def test_check_runs_in_seconds():
    t0 = time.perf_counter()
    r = checked(TID, {"seed": 3})
    assert time.perf_counter() - t0 < 10
    assert r.claim("(c) (7) => the bounds (search)").verdict == Verdict.REFUTED


@pytest.mark.parametrize("n,eps,d", [(6, F(1, 2), 87), (4, F(1, 2), 67), (8, F(1, 2), 100),
                                     (6, F(9, 10), 45)])
def test_jl_dimension(n, eps, d):
    assert jl.jl_dimension(n, eps) == d
    assert jl.meets_jl_bound(d, n, eps) and not jl.meets_jl_bound(d - 1, n, eps)


def test_eq8_model_logits_equal_gram_rows_for_random_rational_E():
    rng = np.random.default_rng(7)
    for _ in range(5):
        t, d, n = 4, 3, 6
        E = tuple(tuple(F(int(x), 7) for x in row) for row in rng.integers(-9, 10, size=(t, d)))
        s = tuple(int(x) for x in rng.integers(0, t, size=n))
        assert jl.head_rows(E, s, F(3), F(-1, 2)) == jl.logit_rows(E, s)


def test_onehot_failure_is_lemma_51_closed_form_even_when_tiny():
    t, s = 3, (0, 1, 2, 0, 1, 2)
    for vg in (F(6), F(600), F(6000)):
        c = jl.completion(jl.logit_rows(jl.onehot(t, t), s), vg)
        exact = jl.onehot_failure(t, len(s), vg)  # Lemma 5.1's closed form
        assert c.failure.overlaps(exact) and c.failure > 0
        assert c.failure.rad() < c.failure.mid().abs_lower() * jl.ball(F(1, 10**50))  # relative accuracy


def test_given_E_verdicts_both_ways():
    good = checked(TID, {"embedding": "onehot"}).claim("(a) bounds at the given E")
    assert good.verdict == Verdict.CERTIFIED
    bad = checked(TID, {"seed": 1, "v": 480.0}).claim("(a) bounds at the given E")
    assert bad.verdict == Verdict.REFUTED and "(7) holds" in bad.how
    shifted = checked(TID, {"embedding": "shifted"}).claim("(a) bounds at the given E")
    assert shifted.verdict == Verdict.REFUTED


@pytest.mark.parametrize("t", range(2, 7))
def test_constructions_have_margin_one(t):
    s = tuple(i % t for i in range(2 * t + 1))
    for d in (2, 3, t, t + 5):
        E, _ = jl.construct(t, d, s)
        assert min(jl.margins(E, s)) >= 1
    assert jl.line(t, (0, 1, 0, 1)) is not None
    if t >= 3:  # three target tokens: one is not an extreme point of the line
        assert jl.line(t, (0, 1, 2, 0)) is None


def test_reflections_keep_the_gram_matrix_exactly():
    E = jl.gaussian(3, 10, np.random.default_rng(0))
    assert jl.gram(jl.reflect(E, np.random.default_rng(1), 3)) == jl.gram(E)


def test_adversarial_embeddings_satisfy_7_exactly_and_fail():
    n, t, eps = 6, 3, F(1, 2)
    d, s = jl.jl_dimension(n, eps), (0, 1, 2, 0, 1, 2)
    for E in (jl.shifted(t, d, 2), jl.scaled(t, d, F(9, 16))):
        assert jl.satisfies_7(E, s, eps)
        grid = [F(n * k) for k in (5, 10, 20, 40)]
        assert jlsearch.first_violation(jlsearch.Candidate("x", 0, s, E, eps), grid)
    assert jl.gram(jl.shifted(t, d, 2))[2][2] == 0
    assert not jl.satisfies_7(jl.scaled(t, d, F(1, 4)), s, eps)


@pytest.mark.parametrize("n,t,eps", [(4, 2, 0.5), (5, 3, 0.3), (8, 4, 0.9), (3, 5, 0.7)])
def test_other_parameters(n, t, eps):
    r = checked(TID, {"n": n, "t": t, "eps": eps, "samples": 4})
    assert r.claim("(b) some E at the JL dimension (construction)").verdict == Verdict.CERTIFIED
    assert r.claim("(b) some E at d = 2 (below the JL bound)").verdict == Verdict.CERTIFIED
    assert r.claim("(c) (7) => the bounds (search)").verdict == Verdict.REFUTED
    assert r.claim("P4 corrected: perturbation (v gamma/r) eta").verdict == Verdict.CERTIFIED
    assert r.claim("control: one-hot failure <= (t - 1) e^(-v gamma)").verdict == Verdict.REFUTED


@pytest.mark.slow
@pytest.mark.parametrize("n,t,eps", [(6, 3, F(1, 2)), (8, 4, F(1, 2)), (6, 3, F(9, 10)), (4, 2, F(1, 4))])
def test_search_figures(n, t, eps):
    """500 seeds per family; prints the figures (how many satisfy (7), how many violate the bound)."""
    d = jl.jl_dimension(n, eps)
    grid = [F(n * k) for k in (5, 10, 20, 40, 80, 160)]
    res = jlsearch.search(n, t, eps, d, range(500), grid, jlsearch.default_families(t, d, eps))
    print(f"\nn={n} t={t} eps={eps} d={d}: tried {res.tried} satisfy(7) {res.satisfied} "
          f"refuted {res.refuted}")
    assert res.refuted["gaussian JL"] > 0
    assert res.refuted["shifted one-hot"] == res.satisfied["shifted one-hot"]


def test_search_answer_comes_out_where_7_is_vacuous():
    """n = 2, t = 2: some searched words use one token, so (7) holds vacuously; the claim used to raise
    on the missing distortion range. The search's certified witness must come out."""
    c = checked(TID, {"n": 2, "t": 2}).claim("(c) (7) => the bounds (search)")
    assert not c.error and c.verdict == Verdict.REFUTED and "certified counterexample" in c.how
    assert "(7) holds" in c.how and c.scope.count > 0


def test_minimum_parameters_certify_nothing_over_an_empty_domain():
    for over in ({"n": 2, "t": 2, "samples": 1}, {"samples": 1}):
        for c in checked(TID, over).claims:
            assert not c.error, (c.name, c.error)
            if c.verdict in (Verdict.CERTIFIED, Verdict.CONFIRMED):
                assert c.scope.count != 0, (c.name, c.scope)


def test_no_jl_success_decides_nothing(monkeypatch):
    """P1 counts only the draws that satisfy (7): where none does (forced here), the sample is empty and
    the claim is inconclusive, never confirmed (the JL lemma promises success only with probability)."""
    claim = next(c for c in registry.get(TID).claims if c.name.startswith("P1"))
    params = registry.get(TID).params.resolve({"samples": 3})
    monkeypatch.setattr(jlsearch, "satisfies_7", lambda *a: False)
    d = decide(claim.run(params), claim.reading)
    assert d.verdict == Verdict.INCONCLUSIVE and d.scope.count == 0 and "empty domain" in d.how
