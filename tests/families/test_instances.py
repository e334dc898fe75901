"""Structured true models (proofkit.families.instances.transition): the kinds are what their names say, so a
theorem can declare which assumptions each violates."""

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from proofkit.families.instances import INVERTIBLE_KINDS, SINGULAR_KINDS, transition


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("kind", INVERTIBLE_KINDS + SINGULAR_KINDS)
def test_kinds(kind, n):
    M = transition(kind, n)
    exact = sp.Matrix(n, n, [Fraction(repr(float(v))) for v in M.ravel()])
    assert (exact.det() != 0) == (kind in INVERTIBLE_KINDS)
    assert max(abs(np.linalg.eigvals(M))) < 1
    if kind == "nilpotent":
        assert exact ** n == sp.zeros(n, n)
    if kind == "orthogonal":
        assert np.allclose(M @ M.T, 0.81 * np.eye(n))
    if kind == "nonnormal" and n > 1:
        assert not np.allclose(M @ M.T, M.T @ M)


def test_unknown_kind_is_an_error():
    with pytest.raises(ValueError):
        transition("spiral", 2)
