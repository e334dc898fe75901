"""Paper-agnostic certificate for counterexamples of any family: a symbolic zero-risk proof plus a ball gap.

For families with no interval existence proof (non-polynomial ones such as the vanilla RNN) a found
learner can still be an *exact* zero-risk learner: e.g. at T = 1 the transition never acts, and a learner
that differs from f only in parameters that no supervised length reads has h_t = f_t identically. This
route proves exactly that, and nothing weaker:

1. the learner's parameters are exact rationals (short decimals or fractions; :func:`candidates` rounds a
fitted learner to a few digit counts, snapping entries to the true parameters where they agree to the fit's
precision); 2. with every token a real sympy symbol, ``h_t(x) - f_t(x)`` (logits for an injective readout,
outputs otherwise) is shown to be identically 0 for every supervised length t: by exact canonicalization, then
``expand`` and (size-capped, time-capped) ``simplify``. A symbolic identity in the free tokens covers every
input of the support. If it cannot be shown the route answers unproven, never a guess; 3. at the witness, h -
f is evaluated in ball arithmetic (python-flint arb) at the same rational parameters; the ball must exclude 0.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath as mp
import numpy as np
import sympy as sp

from ..numerics import activation as act
from ..numerics.backend import ARB, MP, SYM, mp_abs_max
from ..numerics.balls import arb_precision

SIMPLIFY_SECONDS = 20  # wall-clock cap of one sympy simplify (a timeout only ever means "unproven")
MAX_OPS = 4000  # larger differences are not handed to expand/simplify (unproven)
DIGITS = (1, 2, 3, 4, 6, 8, 12)


@dataclass(frozen=True)
class SymbolicProof:
    proven: bool
    how: str

    def __bool__(self) -> bool:
        return self.proven


class _Timeout(Exception):
    pass


@contextmanager
def _time_cap(seconds: int) -> Iterator[None]:
    """Raise _Timeout after ``seconds`` (SIGALRM; only in the main thread, else no cap is possible and
    the caller must not start the expensive step)."""
    def handler(signum: int, frame: Any) -> None:
        raise _Timeout

    old = signal.signal(signal.SIGALRM, handler)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def exact_rationals(learned: Sequence[str]) -> list[sp.Rational] | None:
    """The parameters as exact rationals, or None when any is not a finite decimal or fraction."""
    try:
        return [sp.Rational(Fraction(str(v))) for v in learned]
    except (ValueError, ZeroDivisionError):
        return None


def _compare(problem: Any, th_h: np.ndarray, th_f: np.ndarray, X: np.ndarray, ops: Any) -> np.ndarray:
    """h - f on sequences X in backend ``ops``: logits (injective readout) or outputs."""
    zh = problem.learned.logits(th_h, X, ops)
    zf = problem.true.logits(th_f, X, ops)
    if not problem.injective:
        zh, zf = act.apply(problem.activation, zh, ops), act.apply(problem.activation, zf, ops)
    return np.ravel(zh - zf)


def _is_zero(d: sp.Expr) -> bool:
    """True only when d is shown to be identically 0 (exact canonical form, expand, capped simplify)."""
    if d == 0:
        return True
    try:  # any failure of sympy (a timeout, an overflow in its polynomial code) means "not shown"
        if sp.count_ops(d) > MAX_OPS:
            return False
        e = sp.expand(d)
        if e == 0:
            return True
        if threading.current_thread() is not threading.main_thread():
            return False
        with _time_cap(SIMPLIFY_SECONDS):
            return bool(sp.simplify(e) == 0)
    except (_Timeout, ArithmeticError, ValueError, TypeError, RecursionError, MemoryError):
        return False


def zero_risk_symbolic(problem: Any, q: Sequence[sp.Rational], n: int) -> SymbolicProof:
    """Exact proof that h_t = f_t for every token vector (n coordinates) and every supervised length t."""
    th_h = np.asarray(list(q), dtype=object)
    th_f = SYM.asarray(np.asarray([str(v) for v in problem.theta_true], dtype=object))
    for t in problem.lengths:
        X = np.asarray([[[sp.Symbol(f"x_{j}_{i}", real=True) for i in range(n)] for j in range(t)]],
                       dtype=object)
        try:  # a family whose code branches on token values cannot run on symbolic tokens: unproven
            diffs = _compare(problem, th_h, th_f, X, SYM)
        except (TypeError, ValueError, ArithmeticError, NotImplementedError) as exc:
            return SymbolicProof(False, f"the family cannot be evaluated on symbolic tokens "
                                        f"({type(exc).__name__})")
        for c, d in enumerate(diffs):
            if not _is_zero(sp.sympify(d, strict=True)):
                return SymbolicProof(False, f"h - f at length {t}, output {c} not shown to be 0")
    return SymbolicProof(True, "")


def _bounds(d: Any) -> tuple[str, str]:
    """Outward-rounded decimal ends of a ball (a 1e-11 relative nudge exceeds the 12-digit display
    rounding, 5e-12)."""
    lo = mp.mpf((d.mid() - d.rad()).str(30, radius=False))
    hi = mp.mpf((d.mid() + d.rad()).str(30, radius=False))
    lo, hi = lo - abs(lo) * mp.mpf("1e-11"), hi + abs(hi) * mp.mpf("1e-11")
    return mp.nstr(lo, 12), mp.nstr(hi, 12)


def gap_ball(problem: Any, q: Sequence[sp.Rational], X: np.ndarray, dps: int) -> tuple[str, str] | None:
    """Ball of h - f at the witness X (one sequence, (t, n)) at the exact rational parameters: the
    (lo, hi) of the component with the largest |midpoint| when that ball excludes 0, else None."""
    with arb_precision(dps):
        th_h = ARB.asarray(np.asarray([f"{v.p}/{v.q}" for v in q], dtype=object))
        th_f = ARB.asarray(np.asarray([str(v) for v in problem.theta_true], dtype=object))
        diffs = _compare(problem, th_h, th_f, ARB.asarray(np.asarray(X, dtype=float)[None]), ARB)
        best = max(diffs, key=lambda v: abs(float(v.mid())))
        if not (best > 0 or best < 0):
            return None
        return _bounds(best)


def certify(problem: Any, learned: Sequence[str], X: np.ndarray, dps: int) -> tuple[bool, str]:
    """(True, what was proven) for an exact zero-risk learner with a ball gap at X; else (False, why)."""
    ok, how, _ = certify_with_gap(problem, learned, X, dps)
    return ok, how


def certify_with_gap(problem: Any, learned: Sequence[str], X: np.ndarray,
                     dps: int) -> tuple[bool, str, tuple[str, str] | None]:
    """:func:`certify` and the gap ball (lo, hi) it proved at the witness (None when not certified): the
    kernel's ``identity`` data (:mod:`proofkit.certificates.certificate_data`)."""
    q = exact_rationals(learned)
    if q is None:
        return False, "parameters are not exact rationals", None
    gap = gap_ball(problem, q, X, dps)
    if gap is None:
        return False, "the gap ball at the witness contains 0", None
    proof = zero_risk_symbolic(problem, q, int(np.shape(X)[1]))
    if not proof:
        return False, f"zero risk not proven symbolically ({proof.how})", None
    lengths = problem.lengths
    which = (f"every length <= {problem.T}" if lengths == list(range(1, problem.T + 1))
             else "length(s) " + ", ".join(map(str, lengths)))
    space = "logits" if problem.injective else "outputs"
    return True, (f"certified (symbolic, exact rational parameters): zero risk proven symbolically for every "
                  f"input of {which} (h - f of the {space} is identically 0 in the tokens); gap ball "
                  f"[{gap[0]}, {gap[1]}] at the witness"), gap


def candidates(problem: Any, theta: np.ndarray, tol: mp.mpf) -> Iterator[list[str]]:
    """Short rational versions of a fitted learner, fewest digits first: each entry snapped to the true
    parameter where they agree to the fit's precision (same layout only), the rest rounded; then plain
    rounding; each followed by its exact re-solution onto the zero-risk set where the family offers one
    (``project_zero_risk``: training equations linear in some parameters once others are fixed).
    Deduplicated; cheap numeric screening is left to the caller."""
    true = [str(v) for v in problem.theta_true]
    project = getattr(problem.learned, "project_zero_risk", None)
    same = len(true) == len(theta)
    seen: set[tuple[str, ...]] = set()
    for digits in DIGITS:
        rounded = ["0.0" if abs(v) <= tol else mp.nstr(v, digits) for v in theta]
        variants = []
        if same:
            variants.append([t if abs(mp.mpf(v) - MP.convert(t)) <= max(tol, mp.mpf(10) ** -(digits + 2))
                             else r for v, t, r in zip(theta, true, rounded)])
        variants.append(rounded)
        if project is not None:
            variants += [p for v in list(variants)
                         if (p := project(v, problem.true, true, problem.support, problem.lengths))]
        for cand in variants:
            key = tuple(cand)
            if key not in seen:
                seen.add(key)
                yield cand


def symbolic_candidate(problem: Any, theta: np.ndarray, X: np.ndarray, tol: mp.mpf, dps: int,
                       min_gap: mp.mpf) -> list[str] | None:
    """The first candidate (see :func:`candidates`) that fits training to tol numerically, keeps a gap of
    at least ``min_gap`` at X and is certified by :func:`certify`; None otherwise."""
    for cand in candidates(problem, theta, tol):
        th = MP.asarray(np.asarray(cand, dtype=object))
        if mp_abs_max(problem.residual(th, MP)) > tol or problem.relative_gaps(th, X[None])[0] < min_gap:
            continue
        if certify(problem, cand, X, dps)[0]:
            return cand
    return None
