"""identify (relation evaluation, erratum search, group solving/projection) and localid (rank,
null space, leak of a training null direction into test outputs) on hand-made mpmath matrices."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
import sympy as sp
from sympy import Inverse, MatMul, MatPow, MatrixSymbol, Transpose

from proofkit.engine import localid
from proofkit.engine.identify import (
    Undefined,
    evaluate,
    find_erratum,
    nearby,
    project,
    relation_residual,
    show,
    solve_linear,
)
from proofkit.numerics.backend import mp_abs_max

DPS = 50


@pytest.fixture(autouse=True)
def _precision():
    with mp.workdps(DPS):
        yield


def M(rows) -> np.ndarray:
    return np.array([[mp.mpf(v) for v in r] for r in rows], dtype=object)


def rand(shape, seed) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.vectorize(lambda v: mp.mpf(repr(float(v))), otypes=[object])(rng.normal(size=shape))


def mp_inv(X: np.ndarray) -> np.ndarray:
    return np.array(mp.inverse(mp.matrix(X.tolist())).tolist(), dtype=object)


n = sp.Symbol("n")
X_, Y_ = MatrixSymbol("X", 2, 2), MatrixSymbol("Y", 2, 2)
Bs, Cs, Bt = MatrixSymbol("B", n, n), MatrixSymbol("C", n, n), MatrixSymbol("Bt", n, n)


# ----------------------------------------------------------------------------- evaluate / residual
def test_relation_residual_exact_value():
    X = M([[1, 2], [3, 4]])
    Y = X.copy()
    Y[0, 1] = Y[0, 1] + mp.mpf("1e-30")
    res = relation_residual(X_, Y_, [{"X": X, "Y": Y}])
    assert isinstance(res, mp.mpf)
    assert abs(res - mp.mpf("1e-30") / 4) < mp.mpf("1e-45")  # relative to max(1, |Y|) = 4
    assert relation_residual(X_, Y_, [{"X": X, "Y": X.copy()}]) == 0


def test_relation_residual_small_rhs_uses_absolute_scale():
    X = M([["0.001", 0], [0, 0]])
    Y = M([[0, 0], [0, 0]])
    assert relation_residual(X_, Y_, [{"X": X, "Y": Y}]) == mp.mpf("0.001")


def test_relation_residual_worst_over_environments():
    ok = {"X": M([[1, 0], [0, 1]]), "Y": M([[1, 0], [0, 1]])}
    bad = {"X": M([[1, 0], [0, 1]]), "Y": M([[1, "0.5"], [0, 1]])}
    assert relation_residual(X_, Y_, [ok]) == 0
    assert relation_residual(X_, Y_, [ok, bad]) == mp.mpf("0.5")
    assert relation_residual(X_, Y_, [bad, ok]) == mp.mpf("0.5")


def test_relation_residual_products_inverse_transpose_power_scalar():
    A, L = rand((2, 2), 1), rand((2, 2), 2)
    env = {"X": A, "Y": L}
    Ai = mp_inv(A)
    assert mp_abs_max(evaluate(X_ * Y_, env) - A @ L) == 0
    assert mp_abs_max(evaluate(X_.inv(), env) - Ai) < mp.mpf("1e-45")
    assert mp_abs_max(evaluate(Transpose(X_), env) - A.T) == 0
    j = sp.Symbol("j", integer=True, nonnegative=True)
    got = evaluate(Y_**j, dict(env, j=3))
    assert mp_abs_max(got - L @ L @ L) < mp.mpf("1e-45")
    third = evaluate(sp.Rational(1, 3) * X_, env)
    assert mp_abs_max(third - A / 3) < mp.mpf("1e-48")
    # X^-1 X = I: a true relation evaluates to (numerically) zero residual
    assert relation_residual(X_.inv() * X_, sp.Identity(2), [env]) < mp.mpf("1e-45")


def test_relation_residual_batched_states():
    C = rand((2, 2), 3)
    h = rand((5, 2, 1), 4)  # a batch of column vectors
    hs, hts = MatrixSymbol("h", n, 1), MatrixSymbol("ht", n, 1)
    env = {"C": C, "h": h, "ht": np.matmul(C, h)}
    assert relation_residual(hts, Cs * hs, [env]) < mp.mpf("1e-45")
    env["ht"] = env["ht"].copy()
    env["ht"][3, 1, 0] += mp.mpf("1e-10")
    assert relation_residual(hts, Cs * hs, [env]) > mp.mpf("1e-12")


def test_relation_residual_shape_mismatch_is_undefined():
    env = {"X": rand((2, 2), 5), "Y": rand((2, 3), 6)}
    with pytest.raises(Undefined):
        relation_residual(X_, Y_, [env])


def test_inverse_of_singular_is_undefined():
    env = {"X": M([[1, 2], [2, 4]]), "Y": M([[1, 0], [0, 1]])}
    with pytest.raises(Undefined):
        relation_residual(X_.inv(), Y_, [env])


# ----------------------------------------------------------------------------- errata
def test_find_erratum_reordered_product():
    B, C = rand((2, 2), 10), rand((2, 2), 11)
    assert mp_abs_max(B @ C - C @ B) > mp.mpf("0.1")  # they do not commute
    env = {"B": B, "C": C, "Bt": C @ B}
    tol = mp.mpf(10) ** (-(DPS - 20))
    printed = relation_residual(Bt, Bs * Cs, [env])
    assert printed > mp.mpf("1e-3")
    found = find_erratum(Bt, Bs * Cs, [env], {"C"}, tol)
    assert found is not None
    text, res, what = found
    assert text == "Bt = C*B"
    assert res <= tol
    assert "reordered" in what


def test_find_erratum_transposed_group_element():
    B, C = rand((2, 2), 12), rand((2, 2), 13)
    env = {"B": B, "C": C, "Bt": C.T @ B}
    found = find_erratum(Bt, Cs * Bs, [env], {"C"}, mp.mpf("1e-30"))
    assert found is not None and found[0] == "Bt = C.T*B" and "transpose" in found[2]


def test_find_erratum_none_when_nothing_nearby_holds():
    B, C = rand((2, 2), 14), rand((2, 2), 15)
    env = {"B": B, "C": C, "Bt": B + C}
    assert find_erratum(Bt, Bs * Cs, [env], {"C"}, mp.mpf("1e-30")) is None


def test_find_erratum_pseudo_inverse_for_non_square_inverse():
    k = sp.Symbol("k")
    Ms, Ys, Xs = MatrixSymbol("M", n, k), MatrixSymbol("Y", n, k), MatrixSymbol("X", k, k)
    Mv = rand((3, 2), 20)  # tall: no inverse, but a left pseudo-inverse
    Xv = rand((2, 2), 21)
    env = {"M": Mv, "Y": Mv @ Xv, "X": Xv}
    printed_rhs = Inverse(Ms) * Ys
    with pytest.raises(Undefined):
        relation_residual(Xs, printed_rhs, [env])
    tol = mp.mpf(10) ** (-(DPS - 20))
    found = find_erratum(Xs, printed_rhs, [env], set(), tol)
    assert found is not None
    text, res, what = found
    assert "pseudo-inverse" in what
    assert res <= tol
    assert text.startswith("X = ") and "M.T" in text


def test_nearby_candidates():
    cands = [what for _, what in nearby(Bs * Cs, {"C"})]
    assert "factors reordered" in cands
    assert "C replaced by its inverse" in cands and "C replaced by its transpose" in cands
    assert not any("B replaced" in w for w in cands)  # B is not a group element


def test_nearby_never_prints_double_transpose_or_inverse():
    """Issue #9 finding 9: transposing a side that already holds C.T printed C.T.T."""
    Ls = MatrixSymbol("L", n, n)
    for side in (Cs.T * Bs, Cs.inv() * Bs, Cs * Ls * Cs.inv(), Transpose(Inverse(Cs)) * Bs):
        texts = [show(c) for c, _ in nearby(side, {"C"})]
        assert texts, side
        assert not any(".T.T" in t or ")^-1)^-1" in t or "^-1)^-1" in t for t in texts), texts
        assert len(texts) == len(set(texts)), texts  # deduplicated after canonicalisation
        assert show(side) not in texts  # only genuinely different candidates


def test_nearby_transposing_a_transposed_element_gives_it_back():
    cands = {show(c): what for c, what in nearby(Cs.T * Bs, {"C"})}
    assert cands["C*B"] == "C replaced by its transpose"
    assert cands["C.T^-1*B"] == "C replaced by its inverse"


def test_nearby_reorders_that_cancel_are_one_candidate():
    Ls = MatrixSymbol("L", n, n)
    texts = [show(c) for c, what in nearby(Cs * Ls * Cs.inv(), {"C"}) if what == "factors reordered"]
    assert texts == ["L", "C^-1*L*C"]  # C C^-1 L, L C C^-1, L C^-1 C, C^-1 C L are all L


def test_show_canonical_form():
    j = sp.Symbol("j", integer=True, nonnegative=True)
    assert show(Transpose(Transpose(Cs))) == "C"
    assert show(Inverse(Inverse(Cs))) == "C"
    assert show(Transpose(Inverse(Cs))) == show(Inverse(Transpose(Cs))) == "C.T^-1"
    assert show(Transpose(MatMul(Bs, Cs))) == "C.T*B.T"
    assert show(MatMul(Bs, Inverse(MatMul(Transpose(Cs), Cs)))) == "B*(C.T*C)^-1"
    assert show(MatMul(Bs, MatPow(Cs, j))) == "B*C^j"
    assert show(Bs - Cs) in ("B - C", "-C + B")


def test_find_erratum_text_is_canonical():
    B, C = rand((2, 2), 16), rand((2, 2), 17)
    env = {"B": B, "C": C, "Bt": C @ B}
    found = find_erratum(Bt, Transpose(Cs) * Bs, [env], {"C"}, mp.mpf("1e-30"))
    assert found is not None and found[0] == "Bt = C*B" and "transpose" in found[2]


# ----------------------------------------------------------------------------- solving / projection
def test_solve_linear_recovers_known_matrix():
    C0 = M([["1.5", "-0.25"], ["0.75", "2"]])
    A, L = rand((2, 3), 30), rand((2, 2), 31)
    As, Ls, Lt, Ct = (MatrixSymbol("A", 2, 3), MatrixSymbol("L", 2, 2), MatrixSymbol("Lt", 2, 2),
                      MatrixSymbol("C", 2, 2))
    Bv = MatrixSymbol("Bv", 2, 3)
    env = {"A": A, "Bv": C0 @ A, "L": L, "Lt": C0 @ L @ mp_inv(C0)}
    eqs = [(Ct * As, Bv, [env]), (Ct * Ls, Lt * Ct, [env])]
    solved = solve_linear(Ct, eqs, (2, 2))
    assert solved.value.shape == (2, 2)
    assert mp_abs_max(solved.value - C0) < mp.mpf("1e-40")
    assert solved.residual < mp.mpf("1e-40")


def test_solve_linear_reports_inconsistent_residual():
    Ct, As, Bv = MatrixSymbol("C", 2, 2), MatrixSymbol("A", 2, 2), MatrixSymbol("Bv", 2, 2)
    I2 = M([[1, 0], [0, 1]])
    envs = [{"A": I2, "Bv": M([[1, 0], [0, 1]])}, {"A": I2, "Bv": M([[3, 0], [0, 3]])}]
    solved = solve_linear(Ct, [(Ct * As, Bv, envs)], (2, 2))
    # least squares: C = 2 I, residual 1 in each equation
    assert mp_abs_max(solved.value - 2 * I2) < mp.mpf("1e-40")
    assert abs(solved.residual - 1) < mp.mpf("1e-40")


def test_project_permutation():
    noisy = M([["0.02", "0.97", "-0.01"], ["0.03", "-0.05", "1.02"], ["0.99", "0.01", "0.04"]])
    P = project(noisy, "permutation")
    assert P.tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]
    assert all(isinstance(v, mp.mpf) for v in P.ravel())


def test_project_signed_permutation():
    noisy = M([["0.02", "-0.97", "-0.01"], ["0.03", "-0.05", "1.02"], ["-0.99", "0.01", "0.04"]])
    assert project(noisy, "signed permutation").tolist() == [[0, -1, 0], [0, 0, 1], [-1, 0, 0]]
    # a plain permutation ignores the signs
    assert project(noisy, "permutation").tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]


def test_project_diagonal_and_gl():
    V = M([[2, "0.1"], ["0.2", 3]])
    assert project(V, "diagonal").tolist() == [[2, 0], [0, 3]]
    assert project(V, "GL") is V


def test_project_permutation_is_a_permutation_when_rows_collide():
    P = project(M([["0.9", "0.8"], ["0.7", "0.1"]]), "permutation")
    assert P.tolist() == [[0, 1], [1, 0]]


# ----------------------------------------------------------------------------- localid
def _low_rank(R, P, r, seed, noise="1e-50"):
    U, V = rand((R, r), seed), rand((r, P), seed + 1)
    E = rand((R, P), seed + 2)
    return U @ V + E * mp.mpf(noise)


def test_spectrum_rank_deficient():
    J = _low_rank(9, 6, 3, 40)
    s = localid.spectrum(J, DPS)
    assert s.rank == 3
    assert len(s.singular_values) == 6
    assert all(a >= b for a, b in zip(s.singular_values[:-1], s.singular_values[1:], strict=True))
    assert s.singular_values[2] > mp.mpf("1e-3")
    assert all(v < mp.mpf("1e-45") for v in s.singular_values[3:])
    assert s.gap > mp.mpf("1e40")
    N = s.null_basis
    assert (N.rows, N.cols) == (6, 3)
    with mp.workdps(2 * DPS):
        Jm = mp.matrix(J.tolist())
        assert mp.mnorm(Jm * N, 1) < mp.mpf("1e-45")  # null vectors to full precision
        for c in range(3):
            assert abs(mp.norm(N[:, c]) - 1) < mp.mpf("1e-40")
        # mutually orthogonal to float64 accuracy (the basis comes from a float64 eigenbasis)
        assert mp.mnorm(N.T * N - mp.eye(3), 1) < mp.mpf("1e-12")


@pytest.mark.parametrize("size,rank", [("1e-10", 4), ("1e-14", 4), ("1e-19", 3), ("1e-30", 3)])
def test_spectrum_threshold_at_high_precision(size, rank):
    """The cut is 10^-(50//3) = 1e-16 relative: a 1e-14 direction (invisible to float64 on J^T J)
    counts, a 1e-19 one does not."""
    J = _low_rank(9, 6, 3, 50)
    J = J + np.outer(rand((9,), 53), rand((6,), 54)) * mp.mpf(size)
    s = localid.spectrum(J, DPS)
    assert s.rank == rank
    sigma = s.singular_values[3] / s.singular_values[0]
    assert mp.mpf(size) / 100 < sigma < mp.mpf(size) * 100
    assert all(v < mp.mpf("1e-45") for v in s.singular_values[4:])


def test_spectrum_full_rank():
    J = rand((7, 4), 60)
    s = localid.spectrum(J, DPS)
    assert s.rank == 4 and s.null_basis is None and s.gap == mp.inf
    with mp.workdps(DPS):
        svd = mp.svd_r(mp.matrix(J.tolist()), compute_uv=False)
        want = sorted((svd[i] for i in range(4)), reverse=True)
    for a, b in zip(s.singular_values, want, strict=True):  # large ones: float64 accuracy
        assert abs(a - b) < mp.mpf("1e-12") * want[0]


def test_threshold():
    assert localid.threshold(60) == mp.mpf("1e-20")
    assert localid.threshold(30) == mp.mpf("1e-10")


def _train_with_null(seed):
    """J_train (8 x 4) whose null space is spanned by w = (1, 2, -1, 1)/sqrt(7)."""
    B = rand((3, 4), seed)
    w = M([[1, 2, -1, 1]]).T
    B = B - (B @ w) @ w.T / 7  # project rows off w (exact up to rounding)
    return rand((8, 3), seed + 1) @ B, w


def test_local_identifiability_detects_leak():
    J_train, w = _train_with_null(70)
    J_test = M([[1, 0, 0, 0], [0, 0, 3, 0]])  # J_test w = (1, -3)
    lid = localid.local_identifiability(J_train, J_test, DPS)
    assert lid.train.rank == 3 and lid.joint.rank == 4
    assert not lid.identified
    with mp.workdps(DPS):
        expect = mp.sqrt(10) / mp.sqrt(7)  # |J_test w| / |w|
        assert abs(lid.leak - expect) < mp.mpf("1e-30")
        v = lid.leak_direction
        assert abs(mp.sqrt(sum(x * x for x in v)) - 1) < mp.mpf("1e-30")
        cos = sum(a * b[0] for a, b in zip(v, w, strict=True)) / mp.sqrt(7)
        assert abs(abs(cos) - 1) < mp.mpf("1e-30")
    assert "rank 3/4" in lid.summary() and "rank 4/4" in lid.summary()


def test_local_identifiability_no_leak_when_test_rows_in_train_row_space():
    J_train, _ = _train_with_null(80)
    J_test = rand((3, 8), 82) @ J_train
    lid = localid.local_identifiability(J_train, J_test, DPS)
    assert lid.train.rank == lid.joint.rank == 3
    assert lid.identified
    assert lid.leak < mp.mpf("1e-30")


def test_local_identifiability_full_rank_train_has_no_null():
    J_train = rand((6, 3), 90)
    lid = localid.local_identifiability(J_train, rand((2, 3), 91), DPS)
    assert lid.identified and lid.leak == 0 and lid.leak_direction is None


def test_identity_of_symbolic_size_is_sized_by_its_context():
    """A relation with I(n) once crashed check (int() of a symbol): inside a sum or product I(n) takes
    the size of its neighbours; alone it is undefined (inconclusive), never a TypeError."""
    import mpmath as mp
    import sympy as sp
    from sympy.matrices.expressions import Identity

    from proofkit.engine.identify import Undefined, evaluate

    n = sp.Symbol("n")
    X = sp.MatrixSymbol("X", n, n)
    env = {"X": np.array([[mp.mpf(1), mp.mpf(2)], [mp.mpf(3), mp.mpf(4)]], dtype=object)}
    assert (evaluate(X + 2 * Identity(n), env) == env["X"] + 2 * np.eye(2)).all()
    assert (evaluate(sp.MatMul(X, Identity(n), evaluate=False), env) == env["X"]).all()
    with pytest.raises(Undefined):
        evaluate(Identity(n), env)


def test_compound_scalar_coefficients_are_parenthesised():
    """(c + 1)*X printed as 'c + 1*X' read as c + X (found by mutmut, docs/mutation.md)."""
    import sympy as sp

    from proofkit.engine.identify import show_as_written

    c, n = sp.Symbol("c"), sp.Symbol("n")
    X, Y = sp.MatrixSymbol("X", n, n), sp.MatrixSymbol("Y", n, n)
    assert show_as_written((c + 1) * X) == "(c + 1)*X"
    assert "(-c - 1)*Y" in show_as_written(X - (c + 1) * Y)
    assert show_as_written(2 * X) == "2*X"
