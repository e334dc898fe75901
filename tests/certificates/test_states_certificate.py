"""certify_states: relations over the hidden states (AM24.T4's h~_t = C h_t) bounded over every length
t >= 1 and every token sequence in the support's box, through the state Markov parameters
P Lam~^j B~ - Q Lam^j B plus geometric tails.

Checked on exact similarity-transformed recurrences (the true relation is certified, a false one gets a
large bound), on the T4 default (certified, the domain stated), on false states relations built through
the public API (refuted at the samples, never certified), and where no certificate applies (a relation
not linear in the states, a mode of modulus 1: confirmed at the samples, with the reason)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import mpmath as mp
import numpy as np
import sympy as sp

from proofkit.certificates.certify_states import states_relation_bound
from proofkit.engine.check import check
from proofkit.families import DeepSets, LinearRecurrence
from proofkit.interface.testing import checked
from proofkit.language import registry
from proofkit.language.spec import Relation
from proofkit.language.tolerances import ZERO_TOL
from proofkit.language.verdict import Verdict
from proofkit.numerics.backend import ARB
from proofkit.numerics.balls import arb_precision

n = sp.Symbol("n")
ht, h = sp.MatrixSymbol("ht", n, 1), sp.MatrixSymbol("h", n, 1)
C = sp.MatrixSymbol("C", n, n)
NAMES = ("ht", "h")
LO, HI = np.zeros(2), np.ones(2)

# exact binary true model and the similarity C (det 1, integer inverse): learned = (A C^-1, C Lam C^-1, C B)
LAM = [["1/2", "1/4"], ["0", "1/4"]]
B = [["1", "1/2"], ["0", "1"]]
C_EXACT, C_INV = [[2, 1], [1, 1]], [[1, -1], [-1, 2]]


def _rational(rows: list[list[str]]) -> sp.Matrix:
    return sp.Matrix([[sp.Rational(v) for v in row] for row in rows])


def _exact_pair(lam: list[list[str]] = LAM) -> tuple[LinearRecurrence, np.ndarray, np.ndarray, dict]:
    """(family, learned balls, true balls, ball env holding C) for the exact similarity transform."""
    fam = LinearRecurrence(2, 2, 2)
    c, ci, lam_m, b = sp.Matrix(C_EXACT), sp.Matrix(C_INV), _rational(lam), _rational(B)
    learned = {"A": ci, "Lam": c * lam_m * ci, "B": c * b}
    true = {"A": sp.eye(2), "Lam": lam_m, "B": b}

    def balls(blocks: dict[str, sp.Matrix]) -> np.ndarray:
        return fam.pack({k: ARB.asarray(np.array(v.tolist(), dtype=object)) for k, v in blocks.items()}, ARB)

    with arb_precision(60):
        return fam, balls(learned), balls(true), {"C": ARB.asarray(np.array(C_EXACT, dtype=object))}


def _bound(lhs: sp.Basic, rhs: sp.Basic, lam: list[list[str]] = LAM) -> Any:
    fam, th_h, th_f, benv = _exact_pair(lam)
    return states_relation_bound(lhs, rhs, NAMES, fam, th_h, fam, th_f, benv, LO, HI, 60)


# ----------------------------------------------------------------------------- exact recurrences
def test_exact_similarity_is_bounded_below_zero_tol_over_every_length():
    out = _bound(ht, C * h)
    assert out.bound is not None, out.reason
    assert out.bound.value <= ZERO_TOL
    assert out.bound.domain == "every length t >= 1, tokens in [0..1, 0..1]"


def test_false_relation_gets_a_large_bound():
    # h~_t = 2 C h_t is off by C h_t, at least |C B x_1| at t = 1: the certificate must not pass it
    out = _bound(ht, 2 * C * h)
    assert out.bound is not None and out.bound.value > mp.mpf("0.1")
    assert _bound(ht, h).bound.value > mp.mpf("0.1")


def test_no_certificate_for_a_relation_not_linear_in_the_states():
    out = _bound(ht.T * ht, h.T * C.T * C * h)
    assert out.bound is None and "not linear in the states ht, h" in out.reason


def test_no_certificate_for_a_mode_of_modulus_one():
    out = _bound(ht, C * h, lam=[["1", "0"], ["0", "1/2"]])
    assert out.bound is None and "modulus 1" in out.reason and "no geometric tail" in out.reason


def test_no_certificate_for_a_family_without_state_readout():
    fam, th_h, th_f, benv = _exact_pair()
    ds = DeepSets(2, 2, 2)
    out = states_relation_bound(ht, C * h, NAMES, ds, th_h, fam, th_f, benv, LO, HI, 60)
    assert out.bound is None and "no state readout" in out.reason


# ----------------------------------------------------------------------------- AM24.T4
def _claim(result: Any, name: str) -> Any:
    return next(c for c in result.claims if c.name == name)


def test_t4_states_relation_is_certified_over_every_length():
    c = _claim(checked("AM24.T4"), "h~_t = C h_t")
    assert c.verdict == Verdict.CERTIFIED, c.how
    assert "every length t >= 1, tokens in [0..1, 0..1]" in c.how
    assert "over the fit's parameter ball (which contains an exact zero-risk learner)" in c.how
    value = re.match(r"ball bound (\S+) <= ", c.how)
    assert value and mp.mpf(value.group(1)) <= ZERO_TOL


def _t4_variant(claims: tuple[Relation, ...], **setup: Any) -> Any:
    thm = registry.get("AM24.T4")
    if setup:
        thm = dataclasses.replace(thm, setup=dataclasses.replace(thm.setup, **setup))
    return check(thm.with_claims(claims))


def test_false_states_relations_are_refuted_not_certified():
    r = _t4_variant((
        Relation("h~_t = 2 C h_t", "identification", "deliberately false", ht, 2 * C * h, over="states"),
        Relation("h~_t = h_t", "identification", "deliberately false", ht, h, over="states"),
        Relation("|h~_t|^2 = |C h_t|^2", "identification", "true, quadratic", ht.T * ht,
                 h.T * C.T * C * h, over="states"),
    ))
    for name in ("h~_t = 2 C h_t", "h~_t = h_t"):
        c = _claim(r, name)
        assert c.verdict == Verdict.REFUTED, c.how
    quad = _claim(r, "|h~_t|^2 = |C h_t|^2")
    assert quad.verdict == Verdict.CONFIRMED, quad.how
    assert "confirmed at these samples only" in quad.how and "not linear in the states" in quad.how


def test_states_relation_with_a_unit_mode_stays_confirmed_with_the_reason():
    thm = registry.get("AM24.T4")

    def unit_lam(p: Any) -> list[str]:  # true transition I: modes of modulus 1, no geometric tail
        values = list(thm.setup.true_params(p))
        values[4:8] = ["1.0", "0.0", "0.0", "1.0"]
        return values

    r = _t4_variant((Relation("h~_t = C h_t", "identification", "", ht, C * h, over="states"),),
                    true_params=unit_lam)
    c = _claim(r, "h~_t = C h_t")
    assert c.verdict == Verdict.CONFIRMED, c.how
    assert "no all-length bound" in c.how and "modulus 1" in c.how
