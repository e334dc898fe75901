"""proofkit.posembed.stability: mu_r against the recursion it comes from."""

from fractions import Fraction as F

from proofkit.posembed import stability


def test_mu_solves_the_hypothesis_recursion():
    for g in (F(-1, 2), F(1, 2), F(3, 7)):
        c = [None, F(5)]  # c_1; the hypothesis sum_{i<=r} c_i = r gamma c_{r+1} fixes c_{r+1}
        for r in range(1, 12):
            c.append(sum(c[1:r + 1]) / (r * g))
            assert c[r + 1] == stability.mu(r, g) * c[r]
    assert [stability.mu(r, F(-1, 2)) for r in (1, 3)] == [-2, 0]


def test_products_and_escape():
    assert list(stability.products(F(1, 2), 5)) == [(m, F(m)) for m in range(1, 6)]  # prod = m at gamma = 1/2
    assert stability.escape(2, F(1, 2), 40, (0, 2, -2)) == (2, F(4))
    assert stability.escape(0, F(1, 2), 40, (0, 2, -2)) is None
    assert stability.escape(2, F(1, 2), 1, (0, 2, -2)) is None  # no step to take
