"""Additive-map proof steps (proofkit.families.additive): each true step's residual is exactly zero, and the
control (s^2 is additive) is not."""

import sympy as sp

from proofkit.families import (
    cauchy_derivative,
    cauchy_integers,
    cauchy_odd,
    cauchy_rationals,
    cauchy_zero,
    head_not_identified,
    square_is_additive,
    two_heads_sum_only,
)


def _zero(r):
    items = r if isinstance(r, list) else [r]
    return all(sp.simplify(e) == 0 for e in items)


def test_true_steps_have_zero_residuals():
    for step in (cauchy_odd, cauchy_integers, cauchy_rationals, cauchy_derivative,
                 two_heads_sum_only):
        assert _zero(step()), step.__name__
    assert cauchy_zero() is sp.true and head_not_identified() is sp.true


def test_the_control_is_false():
    assert not _zero(square_is_additive())
