"""Exhaustive studies of the assumption-drop families of :mod:`proofkit.crasp.theory.limits` (families that
drop one hypothesis of a length-generalization theorem; constructed here, not taken from a paper).

Each function enumerates every string of a bounded length (or reads a compiled network's weights) and
returns the exact facts a theorem file turns into evidence:

- :func:`window_profile` / :func:`trigger_profile`: where the window-majority W_D and the trigger f_D first
  differ from MAJORITY (dropping Local: they agree on Sigma^{<=D});
- :func:`fit_fail_pairs`: which (training length n, offset D) pairs fit n and fail by 2n;
- :func:`offset_penalty_study`: the regularizer proxies of the compiled trigger networks (the R_minus
  components are blind to the offset D, the (8)-type locality term charges it);
- :func:`threshold_profile` / :func:`threshold_weights`: the threshold family g_{n0} = MAJORITY xor
  [i >= n0] (dropping Periodic) and the compiled weight that grows with n0;
- :func:`half_language`: L_half = {x : x_j = x_{2j}}, an attention pattern psi(i, j) = [i = 2j] that is not
  translation-invariant (dropping Local in the one-way communication bound).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..compilation.checking import check_against
from ..compilation.compiler import compile_program
from ..compilation.forward import run
from ..compilation.variants import reference
from ..language.parser import parse
from ..semantics.vector import all_strings
from . import limits as lim
from . import network_weights as nw

BINARY = ("a", "b")


def _majority_fn() -> lim.PrefixFn:
    return lim.program_fn(lim.majority())


def window_disagreement(D: int, max_len: int) -> lim.Disagreement:
    """W_D (window majority over the last D positions) vs MAJORITY on every string over {a, b} of length
    <= max_len, at every prefix."""
    w = lim.program_fn(parse(lim.window_majority_text(D), f"W{D}"))
    return lim.first_disagreement(w, _majority_fn(), BINARY, max_len)


def window_profile(D_max: int) -> dict[int, lim.Disagreement]:
    """D -> the first disagreement of W_D with MAJORITY on Sigma^{<=D+1}, for D = 1..D_max (exhaustive);
    Local predicts that it has length exactly D + 1."""
    return {D: window_disagreement(D, D + 1) for D in range(1, D_max + 1)}


def trigger_profile(D_max: int) -> dict[int, lim.Disagreement]:
    """D -> the first disagreement of the trigger f_D with MAJORITY on Sigma^{<=D+1}, for D = 1..D_max
    (exhaustive); the construction predicts the witness a^{D+1}."""
    maj = _majority_fn()
    return {D: lim.first_disagreement(lim.program_fn(parse(lim.trigger_text(D), f"f{D}")), maj, BINARY, D + 1)
            for D in range(1, D_max + 1)}


def fit_fail_pairs(profile: dict[int, lim.Disagreement], n_max: int
                   ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """All (n, D) with n = 1..n_max and n < D < 2n, and those among them whose member does NOT both fit the
    training length n (first disagreement longer than n) and fail by 2n (first disagreement <= 2n).
    The profile must cover every D < 2 n_max."""
    pairs = [(n, D) for n in range(1, n_max + 1) for D in range(n + 1, 2 * n)]
    bad = [(n, D) for n, D in pairs
           if not (profile[D].length is not None and n < profile[D].length <= 2 * n)]
    return pairs, bad


@dataclass(frozen=True)
class PenaltyRow:
    """One trigger network f_D at context N: (R_minus, R) proxies, the (8)-type term and the length of the
    first string on which f_D differs from MAJORITY (None: none of length <= N)."""

    D: int
    regularizer: tuple[float, float]
    locality_term: Fraction
    first_failure: int | None


@dataclass(frozen=True)
class PenaltyStudy:
    """Result of :func:`offset_penalty_study` (n: training length, context N = 2n)."""

    n: int
    context: int
    majority: tuple[float, float]
    rows: tuple[PenaltyRow, ...]
    components_equal: bool
    beta_sq: Fraction
    charges_inside: bool
    fit_len: int
    fits: bool
    fails_at_witness: bool

    @property
    def ok(self) -> bool:
        """Every predicted fact holds."""
        return self.components_equal and self.charges_inside and self.fits and self.fails_at_witness


def offset_penalty_study(n: int, net_len: int) -> PenaltyStudy:
    """Regularizer proxies of the compiled trigger networks f_D, D = n+1..2n, at context N = 2n, read from
    the weights: whether the R_minus components are the same for every D, whether the (8)-type term is
    beta^2 (the single phi value squared) for D < N and 0 at D = N, and whether the compiled network of
    f_{n+1} equals MAJORITY on every string of length <= min(n, net_len) but misclassifies a^{n+2}."""
    N = 2 * n
    r_maj = nw.regularizer(compile_program(lim.majority()), N)
    comps, rows = {}, []
    for D in range(n + 1, N + 1):
        prog = parse(lim.trigger_text(D), f"f{D}")
        net = compile_program(prog)
        comps[D] = nw.regularizer_components(net)
        fail = lim.first_disagreement(lim.program_fn(prog), _majority_fn(), BINARY, N).length
        rows.append(PenaltyRow(D, nw.regularizer(net, N), nw.locality_term(net, N), fail))
    terms = {r.D: r.locality_term for r in rows}
    same = all(c == comps[N] for c in comps.values())
    beta2 = Fraction(comps[N]["phi_abs_sum"]) ** 2   # the single phi value, read from the weights
    charge = all(terms[D] == beta2 for D in range(n + 1, N)) and terms[N] == 0
    h = compile_program(parse(lim.trigger_text(n + 1), "fn1"))
    ref = reference(lim.majority())
    fit_len = min(n, net_len)
    fits = check_against(h, ref, fit_len) is None
    wit = tuple("a" * (n + 2))
    fails_at = run(h, h.encode(wit))[-1] != ref(wit)[-1]
    return PenaltyStudy(n, N, r_maj, tuple(rows), same, beta2, charge, fit_len, fits, fails_at)


@dataclass(frozen=True)
class ThresholdRow:
    """g_{n0} = MAJORITY xor [i >= n0]: its first difference from MAJORITY on Sigma^{<=n0} (computed
    directly), the C-RASP[] encoding's first difference from the direct form on Sigma^{<=min(n0+2, 16)},
    and whether every string of length n0 is a difference."""

    n0: int
    first: lim.Disagreement
    encoding: lim.Disagreement
    every: bool

    @property
    def ok(self) -> bool:
        """Agrees below n0, differs on every string of length n0, and the encoding is exact."""
        return self.first.length == self.n0 and self.encoding.word is None and self.every


def threshold_profile(n0_max: int) -> list[ThresholdRow]:
    """The threshold family g_{n0} for n0 = 1..n0_max, exhaustively (every string over {a, b})."""
    maj = _majority_fn()
    rows = []
    for n0 in range(1, n0_max + 1):
        direct = lim.length_shift(maj, n0)
        d = lim.first_disagreement(direct, maj, BINARY, n0)
        prog = parse(lim.threshold_text(n0), f"g{n0}")
        enc = lim.first_disagreement(lim.program_fn(prog), direct, BINARY, min(n0 + 2, 16))
        X = all_strings(2, n0)
        every = bool((direct(X)[:, n0] != maj(X)[:, n0]).all())
        rows.append(ThresholdRow(n0, d, enc, every))
    return rows


def threshold_weights(n0s: Sequence[int]) -> dict[int, Fraction]:
    """n0 -> the largest |weight| of the compiled C-RASP[] program of g_{n0} (the constant n0 lives in the
    weights, so it grows with n0)."""
    return {n0: nw.max_abs_weight(compile_program(parse(lim.threshold_text(n0)))) for n0 in n0s}


def half_language(X: np.ndarray) -> np.ndarray:
    """Prefix acceptance of L_half = {x : x_j = x_{2j} for all j <= |x|/2} on a (B, n) batch of symbol
    indices: a (B, n + 1) Boolean array, column i for the prefix of length i."""
    B, n = X.shape
    out = np.ones((B, n + 1), dtype=bool)
    ok = np.ones(B, dtype=bool)
    for i in range(1, n + 1):  # prefix of length i gains the constraint x_{i/2} = x_i when i is even
        if i % 2 == 0:
            ok &= X[:, i // 2 - 1] == X[:, i - 1]
        out[:, i] = ok
    return out
