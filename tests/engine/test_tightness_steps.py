"""AM24.T4 tightness of T* = k~ - n + 2: the two constructions are certified by the same decision
function `proofkit check` uses (proofkit.engine.symbolic.decide), and wrong variants of them are refuted."""

from __future__ import annotations

import sys

import pytest
import sympy as sp

from proofkit.engine.symbolic import decide
from proofkit.language import registry
from proofkit.language.verdict import Verdict

STEPS = ("T* tight at k~ = n + 1", "T* tight at k~ = n + 2")


def _theorem_module():
    claim = next(c for c in registry.get("AM24.T4").claims if c.name == STEPS[0])
    return sys.modules[claim.check.__module__]


@pytest.mark.parametrize("name", STEPS)
def test_tightness_steps_are_certified(name):
    thm = registry.get("AM24.T4")
    claim = next(c for c in thm.claims if c.name == name)
    assert thm.expect[name] == Verdict.CERTIFIED
    verdict, residual, how = decide(claim.check())
    assert (verdict, residual) == (Verdict.CERTIFIED, "0"), how


def _refuted(residual):
    verdict, _, how = decide(residual)
    assert verdict == Verdict.REFUTED, (verdict, how)
    assert "exact value" in how  # a rational point with a non-zero residual entry


def test_wrong_sign_of_E0_is_refuted():
    """E0 = +v w B^-1 (instead of -v w B^-1): D1 = 2 A v w != 0, so the identity is refuted."""
    mod = _theorem_module()
    true, learned, v, w = mod.one_extra_mode(e0_sign=+1)
    Ag, Lg, Bg = true
    D = mod.markov_gaps(true, learned, 3)
    _refuted([D[0], D[1], D[2] - Ag * v * w * Bg.inv() * Lg * Bg])


def test_wrong_sign_of_D2_is_refuted():
    """With D_j = A Lam^j B - A~ Lam~^j B~ the gap is +A v w B^-1 Lam B; the negated closed form fails."""
    mod = _theorem_module()
    true, learned, v, w = mod.one_extra_mode()
    Ag, Lg, Bg = true
    D = mod.markov_gaps(true, learned, 3)
    _refuted([D[0], D[1], D[2] + Ag * v * w * Bg.inv() * Lg * Bg])


def test_wrong_chain_input_is_refuted():
    """k~ = n + 2 with w2 = w1 (instead of w1 B^-1 Lam B): D2 != 0."""
    mod = _theorem_module()
    w1 = sp.Matrix([sp.symbols("w0 w1")])
    true, learned, v, w1 = mod.two_extra_modes(w2=w1)
    D = mod.markov_gaps(true, learned, 3)
    _refuted([D[0], D[1], D[2]])


def test_wrong_closed_form_of_D3_is_refuted():
    """D3 = A v w1 B^-1 Lam^2 B, not A v w1 B^-1 Lam B."""
    mod = _theorem_module()
    true, learned, v, w1 = mod.two_extra_modes()
    Ag, Lg, Bg = true
    D = mod.markov_gaps(true, learned, 4)
    _refuted([D[3] - Ag * v * w1 * Bg.inv() * Lg * Bg])


def test_the_first_nonzero_gap_is_nonzero_at_an_invertible_point():
    """The constructions bite: at invertible rational A, Lam, B and non-zero v, w the gap after the
    matched ones is exactly non-zero (rank one)."""
    mod = _theorem_module()
    vals = {"a": [[3, 1], [1, 2]], "l": [[1, 2], [0, 3]], "b": [[2, 0], [1, 1]]}
    point = {sp.Symbol(f"{k}{r}{c}"): sp.Integer(m[r][c]) for k, m in vals.items()
             for r in range(2) for c in range(2)}
    point.update({sp.Symbol("v0"): 1, sp.Symbol("v1"): -2, sp.Symbol("w0"): 3, sp.Symbol("w1"): 1})
    for build, matched in ((mod.one_extra_mode, 2), (mod.two_extra_modes, 3)):
        true, learned, _, _ = build()
        D = [d.xreplace(point) for d in mod.markov_gaps(true, learned, matched + 1)]
        assert all(d == sp.zeros(2, 2) for d in D[:matched])
        assert D[matched] != sp.zeros(2, 2) and D[matched].rank() == 1
