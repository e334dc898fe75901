"""tautology.by_definition (a printed relation that holds for any matrices once the group definitions
are substituted is no evidence) and tautology.holds_generically (a control that the identification
relations force at these dimensions cannot bite), on the AM24 T4 / T1 symbols rebuilt here."""

from __future__ import annotations

import sympy as sp
from sympy import Identity, Inverse, MatMul, MatPow, MatrixSymbol, Transpose, ZeroMatrix

from proofkit.engine.tautology import by_definition, holds_generically
from proofkit.language.spec import GroupElement

n, m, k, kt = sp.symbols("n m k kt")
j = sp.Symbol("j", integer=True, nonnegative=True)

# AM24.T4: learned (A~, Lam~, B~), true (A, Lam, B), C := A~^-1 A, states h~, h
At, Lt, Bt = MatrixSymbol("At", n, n), MatrixSymbol("Lt", n, n), MatrixSymbol("Bt", n, n)
A, L, B = MatrixSymbol("A", n, n), MatrixSymbol("L", n, n), MatrixSymbol("B", n, n)
C = MatrixSymbol("C", n, n)
ht, h = MatrixSymbol("ht", n, 1), MatrixSymbol("h", n, 1)
T4_GROUPS = (GroupElement(C, "GL", definition=At.inv() * A),)

# AM24.T1: learned readout A1 (m x kt), true readout B1 (m x k), token maps, M by least squares
A1, B1 = MatrixSymbol("A", m, kt), MatrixSymbol("B", m, k)
psi, phi = MatrixSymbol("psi", kt, 1), MatrixSymbol("phi", k, 1)
M = MatrixSymbol("M", kt, k)
T1_GROUPS = (GroupElement(M, "GL", equations=((psi, M * phi, "tokens"),)),)


# ----------------------------------------------------------------------------- by_definition
def test_t4_A_tilde_equals_A_C_inverse_is_by_definition():
    why = by_definition(At, A * C.inv(), T4_GROUPS)
    assert why == ("holds by the definition C := At^-1*A: At = A*(At^-1*A)^-1 "
                   "for all invertible At, A")


def test_t4_relations_with_content_are_not_by_definition():
    printed = [
        (Lt, C * L * C.inv()),  # Lam~ = C Lam C^-1
        (At.inv() * A, Bt * B.inv()),  # A~^-1 A = B~ B^-1
        (Bt, C * B),  # B~ = C B
        (Bt, B * C),  # B~ = B C, the printed erratum
        (ht, C * h),  # h~_t = C h_t (vectors)
        (At * Lt**j * Bt, A * L**j * B),  # Markov, over powers
        (Lt, L),  # the control
    ]
    for lhs, rhs in printed:
        assert by_definition(lhs, rhs, T4_GROUPS) is None, f"{lhs} = {rhs}"


def test_t1_relations_are_not_by_definition():
    assert by_definition(psi, A1.inv() * B1 * phi, T1_GROUPS) is None  # defined only where m = kt
    assert by_definition(A1 * psi, B1 * phi, T1_GROUPS) is None
    assert by_definition(psi, phi, T1_GROUPS) is None  # needs kt = k


def test_least_squares_element_is_never_by_definition():
    # M has no definition: it is an independent unknown, and psi = M phi constrains it
    assert by_definition(psi, M * phi, T1_GROUPS) is None
    # a relation that holds whatever M is, is an identity, but not "by the definition" of anything
    why = by_definition(psi, MatMul(M, Inverse(M), psi), T1_GROUPS)
    assert why is not None and why.startswith("holds identically") and ":=" not in why


def test_definitions_are_substituted_through_chains():
    D = MatrixSymbol("D", n, n)
    groups = (GroupElement(D, definition=C * B), *T4_GROUPS)
    why = by_definition(At * D, A * B, groups)  # A~ (A~^-1 A) B = A B
    assert why is not None
    assert "D := C*B" in why and "C := At^-1*A" in why and why.startswith("holds by the definitions")
    assert by_definition(Bt, D, groups) is None


def test_cyclic_definitions_are_undecided():
    D = MatrixSymbol("D", n, n)
    groups = (GroupElement(C, definition=D * A), GroupElement(D, definition=C * B))
    assert by_definition(C, C, groups) is None


def test_noncommutative_identities_and_non_identities():
    Y, Z = MatrixSymbol("Y", n, n), MatrixSymbol("Z", n, n)
    assert by_definition(Inverse(MatMul(Y, Z)), MatMul(Inverse(Z), Inverse(Y)), ()) == (
        "holds identically: (Y*Z)^-1 = Z^-1*Y^-1 for all invertible Y, Z")
    assert by_definition(Inverse(MatMul(Y, Z)), MatMul(Inverse(Y), Inverse(Z)), ()) is None
    assert by_definition(Transpose(MatMul(Y, Z)), MatMul(Transpose(Z), Transpose(Y)), ()) is not None
    assert by_definition(MatMul(Y, Z), MatMul(Z, Y), ()) is None  # sizes >= 3: no commuting
    why = by_definition(MatMul(MatPow(Y, j), Y), MatMul(Y, MatPow(Y, j)), ())
    assert why is not None and why.endswith("(tested at j = 0..3)")
    assert by_definition(MatMul(MatPow(Y, j), Z), MatMul(Z, MatPow(Y, j)), ()) is None  # j = 0 holds


def test_non_square_inverse_sizes_are_skipped():
    X = MatrixSymbol("X", n, k)
    left = MatMul(Inverse(MatMul(Transpose(X), X)), Transpose(X), X)  # (X.T X)^-1 X.T X = I_k
    why = by_definition(left, Identity(k), ())
    assert why is not None and why.endswith("where the inverses exist")
    right = MatMul(X, Inverse(MatMul(Transpose(X), X)), Transpose(X))  # a projector, not I_n
    assert by_definition(right, Identity(n), ()) is None


def test_no_consistent_instantiation_is_undecided():
    assert by_definition(h, MatMul(Transpose(h), h), ()) is None  # n x 1 against 1 x 1 at n >= 3
    rank_one = Inverse(MatMul(h, Transpose(h)))  # singular at every size >= 2
    assert by_definition(rank_one, rank_one, ()) is None


def test_fixed_size_identities_hold_only_at_that_size():
    """Hall's identity [[x, y]^2, z] = 0 holds for 2x2 matrices only: symbolic sizes are tested at
    sizes >= 3, where it fails."""

    def hall(size: int | sp.Symbol) -> tuple[sp.Basic, sp.Basic]:
        x, y, z = (MatrixSymbol(s, size, size) for s in "xyz")
        c = x * y - y * x
        return c * c * z - z * c * c, ZeroMatrix(size, size)

    assert by_definition(*hall(2), ()) is not None
    assert by_definition(*hall(n), ()) is None


def test_deterministic():
    assert [by_definition(At, A * C.inv(), T4_GROUPS) for _ in range(3)] == [
        by_definition(At, A * C.inv(), T4_GROUPS)] * 3


# ----------------------------------------------------------------------------- holds_generically
def test_control_forced_by_identification_at_n_1_only():
    given = [(Lt, C * L * C.inv())]
    assert holds_generically(Lt, L, T4_GROUPS, {"n": 1}, given) is True
    assert holds_generically(Lt, L, T4_GROUPS, {n: 1}, given) is True  # symbols as keys too
    for size in (2, 3):
        assert holds_generically(Lt, L, T4_GROUPS, {"n": size}, given) is False
    assert holds_generically(Lt, L, T4_GROUPS, {"n": 1}) is False  # nothing given: independent


def test_t1_control_forced_only_when_token_maps_are_scalars():
    given = [(psi, M * phi)]
    assert holds_generically(psi, phi, T1_GROUPS, {"kt": 1, "k": 1}, given) is False
    assert holds_generically(psi, phi, T1_GROUPS, {"kt": 2, "k": 2}, given) is False
    # psi = M phi with M := I (a defined element) forces psi = phi at any size
    fixed = (GroupElement(M, definition=Identity(kt)),)
    assert holds_generically(psi, phi, fixed, {"kt": 2, "k": 2}, given) is True


def test_holds_generically_undecided_without_sizes_or_fit():
    given = [(Lt, C * L * C.inv())]
    assert holds_generically(Lt, L, T4_GROUPS, {}, given) is None
    assert holds_generically(psi, phi, T1_GROUPS, {"kt": 2, "k": 3}) is None  # shapes differ
