"""Relations a user may write, fuzzed (issue 28, item 1): learners with concretely shaped, non-square
matrices (MatrixSymbol("At", 1, 2), ("Lt", 2, 2), ("Bt", 2, 1), as an over-parametrized learner has)
and symbolic sizes, products, transposes and inverses, relations that fail, sides of different shapes.
The erratum search (the nearby relations tried when one fails: reordered products, inverted or
transposed group elements, pseudo-inverses) and the residual either answer or say the relation is
undefined; no sympy ShapeError or other exception escapes (one did, from a reordered product that does
not fit, and crashed check, scan and the pytest plugin)."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sympy import Inverse, MatrixSymbol, Transpose

from proofkit.engine.identify import find_erratum, nearby, relation_residual
from proofkit.numerics.matexpr import Undefined

NAMES = ("At", "Lt", "Bt", "A", "L", "B", "C")
n_sym = sp.Symbol("n", integer=True, positive=True)


@st.composite
def shaped_symbols(draw):
    """Each name with a shape: concrete sizes 1..3, or the symbolic n on a diagonal (n x n)."""
    shapes = {}
    for name in NAMES:
        if draw(st.booleans()) and draw(st.integers(0, 4)) == 0:
            shapes[name] = (n_sym, n_sym)
        else:
            shapes[name] = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    return {name: MatrixSymbol(name, *shape) for name, shape in shapes.items()}


@st.composite
def expressions(draw, syms):
    """A product of 1..4 factors that fits (each next factor's rows are the running column count), each
    factor a symbol, its transpose, or the inverse of a square one."""
    def factor(sym):
        kind = draw(st.sampled_from(["plain", "T", "inv"]))
        if kind == "T":
            return Transpose(sym)
        if kind == "inv" and sym.shape[0] == sym.shape[1]:
            return Inverse(sym)
        return sym

    first = factor(draw(st.sampled_from(list(syms.values()))))
    expr, cols = first, first.shape[1]
    for _ in range(draw(st.integers(0, 3))):
        fitting = [s for s in syms.values() for f in (s, Transpose(s)) if f.shape[0] == cols]
        if not fitting:
            break
        nxt = factor(draw(st.sampled_from(fitting)))
        if nxt.shape[0] != cols:
            continue
        expr, cols = expr * nxt, nxt.shape[1]
    return expr


def env_for(syms, draw):
    """Random rational matrices for every symbol (n = 2 for symbolic sizes)."""
    env = {}
    for name, s in syms.items():
        r, c = (2 if not d.is_Integer else int(d) for d in s.shape)
        env[name] = np.array([[mp.mpf(draw(st.integers(-9, 9))) / 4 + (1 if i == j else 0) for j in range(c)]
                              for i in range(r)], dtype=object)
    return env


@st.composite
def cases(draw):
    syms = draw(shaped_symbols())
    lhs, rhs = draw(expressions(syms)), draw(expressions(syms))
    return lhs, rhs, [env_for(syms, draw)], set(draw(st.sets(st.sampled_from(NAMES), max_size=3)))


def _decide(lhs, rhs, envs, groups):
    for expr in (lhs, rhs):
        list(nearby(expr, groups))
    try:
        relation_residual(lhs, rhs, envs)
    except (Undefined, ZeroDivisionError, KeyError):
        pass
    find_erratum(lhs, rhs, envs, groups, mp.mpf(10) ** -30)


FAST = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@FAST
@given(cases())
def test_the_erratum_search_never_raises_on_any_shapes(case):
    _decide(*case)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(cases())
def test_the_erratum_search_never_raises_on_any_shapes_large(case):
    _decide(*case)


def test_the_reported_learner_shapes():
    """The issue's learner: At 1x2, Lt 2x2, Bt 2x1 against a 1x1 truth; At Lt Bt = A B fails and the
    search runs through the reorderings that do not fit."""
    At, Lt, Bt = MatrixSymbol("At", 1, 2), MatrixSymbol("Lt", 2, 2), MatrixSymbol("Bt", 2, 1)
    A, B = MatrixSymbol("A", 1, 1), MatrixSymbol("B", 1, 1)
    cands = {str(c): c.shape for c, _ in nearby(At * Lt * Bt, {"Lt"})}
    assert cands == {"Lt*Bt*At": (2, 2), "Bt*At*Lt": (2, 2), "At*Lt**(-1)*Bt": (1, 1), "At*Lt.T*Bt": (1, 1)}
    def m(rows):
        return np.array([[mp.mpf(x) for x in row] for row in rows], dtype=object)

    env = {"At": m([[1, 2]]), "Lt": m([[1, 0], [0, 3]]), "Bt": m([[1], [1]]), "A": m([[2]]), "B": m([[1]])}
    assert find_erratum(At * Lt * Bt, A * B, [env], {"Lt"}, mp.mpf(10) ** -30) is None


@st.composite
def user_theorems(draw):
    """A user's theorem in the shape of docs/examples/my_theorems: a linear recurrence learner of state
    size k (At 1 x k, Lt k x k, Bt k x 1) against a scalar truth, with 1..3 relations drawn over the
    learned and true symbols (most fail; some do not fit at all)."""
    from proofkit import Generalization, PaperRef, ParamSpace, Relation, Setup, Support, Theorem, param_T
    from proofkit.families import LinearRecurrence

    k = draw(st.integers(1, 3))
    syms = {"At": MatrixSymbol("At", 1, k), "Lt": MatrixSymbol("Lt", k, k), "Bt": MatrixSymbol("Bt", k, 1),
            "A": MatrixSymbol("A", 1, 1), "L": MatrixSymbol("L", 1, 1), "B": MatrixSymbol("B", 1, 1)}
    rels = tuple(Relation(f"r{i}", "identification", "fuzz", draw(expressions(syms)), draw(expressions(syms)))
                 for i in range(draw(st.integers(1, 3))))
    return Theorem(
        id="FUZZ.SHAPES", title="fuzzed shapes", paper=PaperRef("fuzz", "s"), statement=sp.true,
        params=ParamSpace((param_T(2),)), assumptions=(),
        setup=Setup(learned=lambda p: LinearRecurrence(1, k, 1), true=lambda p: LinearRecurrence(1, 1, 1),
                    true_params=lambda p: ["1.5", "0.5", "0.8"], support=lambda p: Support("iid", 1, p["T"]),
                    learned_symbols={"A": syms["At"], "Lam": syms["Lt"], "B": syms["Bt"]},
                    true_symbols={"A": syms["A"], "Lam": syms["L"], "B": syms["B"]}),
        claims=(Generalization("length generalization", kind="length", source="fuzz"), *rels),
        groups=())


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(user_theorems())
def test_a_user_theorem_with_any_learner_shapes_gets_verdicts_never_a_crash(thm):
    """check() on the whole theorem (fit, relations, erratum search, generalization): every claim gets a
    verdict; a relation that cannot be evaluated as written is inconclusive with its reason."""
    from proofkit import Verdict, check

    res = check(thm)
    assert {c.name for c in res.claims} == {c.name for c in thm.claims}
    for c in res.claims:
        assert c.verdict in tuple(Verdict) and not c.error, (c.name, c.error)
