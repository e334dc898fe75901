"""Adversarial test sequences (proofkit/engine/adversarial.py): deterministic, bounded, and biting.

The biting tests build learners that equal the true model everywhere except on a set that random
tokens almost surely miss (sparse sequences, repeated tokens, ReLU pre-activations at the kink): the
generalization check confirms them when the suites hold random and corner sequences only, and refutes
them (certified: the learner is given exactly) once the adversarial sequences are added."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest

from proofkit.engine import adversarial, generalization
from proofkit.engine import support as supports
from proofkit.engine.adversarial import adversarial_sequences
from proofkit.engine.problem import Problem
from proofkit.engine.support import Support
from proofkit.families import LinearRecurrence, VanillaRNN
from proofkit.families.base import Family
from proofkit.families.kinks import solve_in_box
from proofkit.language.spec import Generalization
from proofkit.language.verdict import Verdict
from proofkit.numerics.backend import ARB, FLOAT64, MP, Ops

TRUE_LR = ["1.5", "-0.7", "0.4", "1.2", "0.6", "-0.3", "0.2", "0.5", "1.0", "0.5", "-0.3", "0.8"]
# not round: round decimals put some vertex sequences exactly at the kink (e.g. INST-RNN-1, x = (1, 0)
# twice: (Lam relu(B x) + B x)_1 = 0), and the vertex group alone would catch the kink learner
TRUE_RNN = ["1.5", "-0.7", "0.4", "1.2", "0.61", "-0.83", "0.47", "0.29", "2.1", "0.45", "-1.07", "1.52"]


def _where(cond, ops: Ops):
    """0/1 in the backend's number type."""
    return ops.convert(1) if cond else ops.convert(0)


class Bumped(Family):
    """``base`` plus ``bump(X)`` on every logit: a learner that differs from base only where bump != 0."""

    def __init__(self, base: Family, bump) -> None:
        self.base, self.bump = base, bump
        self.n, self.m, self.layout = base.n, base.m, base.layout

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        z = self.base.logits(theta, X, ops)
        return z + np.array([self.bump(x, ops) for x in X], dtype=object)[:, None]

    def jacobian(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        raise NotImplementedError("never fitted")


def sparse_last(x: np.ndarray, ops: Ops):
    """1 when every token but the last is zero and the last is not (t >= 2)."""
    head = all(v == 0 for v in np.ravel(x[:-1]))
    return _where(x.shape[0] >= 2 and head and any(v != 0 for v in x[-1]), ops)


def repeated_interior(x: np.ndarray, ops: Ops):
    """1 when all t >= 2 tokens are equal and the token is no corner of the box (not 0, not 1)."""
    same = all(v == w for row in x[1:] for v, w in zip(row, x[0]))
    return _where(x.shape[0] >= 2 and same and all(v != 0 and v != 1 for v in x[0]), ops)


def _vmax(z: np.ndarray, zero, ops: Ops) -> np.ndarray:
    """Elementwise max(z, 0) (balls: the rigorous max)."""
    return np.frompyfunc(lambda v: v.max(zero) if ops is ARB else max(v, zero), 1, 1)(z)


class KinkRNN(VanillaRNN):
    """A ReLU RNN whose units add c * max(0, eps - |z|) * |x_j|_1: the truth except within eps of the
    kink, and only while a non-zero token is read (so the all-zeros sequence does not trigger it)."""

    EPS, C = "1e-9", "1"

    def __init__(self) -> None:
        super().__init__(2, 2, 2, "relu")

    def logits(self, theta: np.ndarray, X: np.ndarray, ops: Ops = FLOAT64) -> np.ndarray:
        p = self.unpack(theta)
        eps, c, zero = ops.convert(self.EPS), ops.convert(self.C), ops.convert(0)
        h = ops.zeros((X.shape[0], self.k))
        for j in range(X.shape[1]):
            z = self._pre(p, h, X[:, j, :])
            size = np.array([sum(abs(v) for v in row) for row in X[:, j, :]], dtype=object)[:, None]
            near = _vmax(eps - np.frompyfunc(abs, 1, 1)(z), zero, ops)
            h = _vmax(z, zero, ops) + c * near * size
        return h @ p["A"].T


def _problem(learned: Family, true: Family, theta_true: list[str], T: int = 3) -> Problem:
    return Problem(learned=learned, true=true, theta_true=np.asarray(theta_true, dtype=object),
                   support=Support("iid", 2, T), activation="sigmoid", T=T, lengths=list(range(1, T + 1)),
                   n_per_length=20, seed=0, dps=60)


def _decide(p: Problem, kind: str = "compositional") -> tuple[Verdict, str]:
    with mp.workdps(p.dps):
        theta = MP.asarray(p.theta_true)
        v, _, how, _ = generalization.decide(Generalization("g", kind=kind), p, theta,
                                             ARB.asarray(p.theta_true), True, "exact",
                                             np.random.default_rng(0))
    return v, how


def _without_adversarial(monkeypatch) -> None:
    monkeypatch.setattr(generalization, "adversarial_sequences",
                        lambda support, t, models=(), seed=0: np.zeros((0, t, support.n)))


@pytest.mark.parametrize("bump", [sparse_last, repeated_interior], ids=["sparse", "repeated"])
def test_bump_learner_missed_by_random_sampling_caught_by_adversarial_set(bump, monkeypatch):
    p = _problem(Bumped(LinearRecurrence(), bump), LinearRecurrence(), TRUE_LR)
    assert _decide(p)[0] == Verdict.REFUTED
    _without_adversarial(monkeypatch)
    assert _decide(p)[0] == Verdict.CONFIRMED


def test_kink_learner_missed_by_random_sampling_caught_by_kink_inputs(monkeypatch):
    p = _problem(KinkRNN(), VanillaRNN(2, 2, 2, "relu"), TRUE_RNN)
    verdict, how = _decide(p)
    assert verdict == Verdict.REFUTED and "certified" in how, how
    # the kink inputs alone do it: sparse, repeated, vertex and facet sequences miss this learner
    monkeypatch.setattr(VanillaRNN, "kink_sequences", lambda self, theta, t, support: np.zeros((0, t, 2)))
    assert _decide(p)[0] == Verdict.CONFIRMED


def test_relu_rnn_kink_sequences_put_a_pre_activation_at_zero():
    fam, support = VanillaRNN(2, 2, 2, "relu"), Support("iid", 2, 2)
    for t in (1, 2, 7):
        seqs = fam.kink_sequences(np.asarray(TRUE_RNN, dtype=object), t, support)
        assert len(seqs) >= 2 and np.all((seqs >= 0) & (seqs <= 1))
        with mp.workdps(60):
            p = fam.unpack(MP.asarray(np.asarray(TRUE_RNN, dtype=object)))
            for X in seqs:
                h, nearest = np.array([mp.mpf(0)] * 2, dtype=object), mp.inf
                for x in X:
                    z = p["Lam"] @ h + p["B"] @ MP.asarray(x)
                    nearest = min([nearest] + [abs(v) for v in z])
                    h = np.array([max(v, mp.mpf(0)) for v in z], dtype=object)
                assert nearest <= mp.mpf("1e-12"), (t, X)


def test_smooth_activations_have_no_kink_inputs():
    for sigma in ("sigmoid", "tanh", "softplus"):
        fam = VanillaRNN(2, 2, 2, sigma)
        seqs = fam.kink_sequences(np.asarray(TRUE_RNN, dtype=object), 4, Support("iid", 2, 2))
        assert seqs.shape == (0, 4, 2)


def test_deterministic_bounded_and_without_corner_duplicates():
    support = Support("iid", 2, 2)
    models = [(VanillaRNN(2, 2, 2, "relu"), np.asarray(TRUE_RNN, dtype=object))]
    for t in (1, 2, 5, 50, 1000):
        a, b = (adversarial_sequences(support, t, models, seed=3) for _ in range(2))
        assert np.array_equal(a, b) and a.shape[1:] == (t, 2)
        assert len(a) <= adversarial.limit(t) <= 32
        assert len({x.tobytes() for x in a}) == len(a)
    long = adversarial_sequences(support, 1000, models)
    last = np.zeros((1000, 2))
    last[-1] = 1.0
    assert any(np.array_equal(x, last) for x in long)  # the sparse all-ones token at the last position


def test_groups_present_at_short_lengths():
    support = Support("iid", 2, 2)
    seqs = adversarial_sequences(support, 3)
    mid = np.zeros((3, 2))
    mid[1] = [1.0, 0.0]
    assert any(np.array_equal(x, mid) for x in seqs)  # e_0 at a middle position
    assert any(len({r.tobytes() for r in x}) == 1 and 0 < x[0, 0] < 1 for x in seqs)  # a repeated token
    assert any(np.all(np.isin(x, (0.0, 1.0))) and x.sum() not in (0.0, 6.0) for x in seqs)  # a vertex
    assert any(np.any(x[:, 0] == 1.0) and np.all(x[:, 0] == 1.0) and 0 < x[0, 1] < 1 for x in seqs)  # facet


def test_subspace_support_keeps_pinned_coordinates():
    seqs = adversarial_sequences(Support("subspace", 2, 2), 4)
    assert len(seqs) and np.all(seqs[:, :, 1] == 0.0)


def test_length_1000_in_every_length_suite():
    assert all(1000 in supports.test_lengths(T) for T in range(1, 6))


def test_solve_in_box():
    lo, hi = np.zeros(2), np.ones(2)
    x = solve_in_box(-0.7, np.array([2.0, -0.5]), lo, hi)
    assert x is not None and abs(-0.7 + np.array([2.0, -0.5]) @ x) <= 1e-15 and np.all((x >= 0) & (x <= 1))
    assert solve_in_box(5.0, np.array([1.0, 1.0]), lo, hi) is None  # 5 + x0 + x1 > 0 on the box
