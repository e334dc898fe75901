"""Seeded random instances for the proof of Theorem 4.1 (Izzo, Nichani & Lee 2025, App. A.1): pairs of
hardmax models with integer logit tables (so ties, hence multi-token attended sets, are common) and strings
of length up to 10^6 by token counts; each instance runs :func:`construction.build_z`, decides the floor
sub-claims exactly and measures the empirical constants of the O(.) steps.

Declared explicit-constant readings (derived here from the proof's own displayed inequalities, not printed
in the paper): S3 ``||prop_f(x) - prop_f(z)||_1 <= (2|Sigma|^2/tau + 4(tau+1)/tau) eps`` (eq. (1) per token,
plus the suffix weight on both sides, under |S_f| eps/tau <= 1/2); S6 and S10 the same l1 distance for g at
most ``C_G eps`` with C_G = 8. Only the declared versions can be refuted here; the O(.) claims cannot.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import log10, sqrt

import numpy as np

from . import flush
from . import margin as mg
from .auxiliary import build_z, floor_claims, hard_out, hard_prop, l1
from .counts import CountString, count_string, evaluate_counts
from .model import LimitTransformer, rational_matrix

C_G = 8
EPSILONS = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 4), Fraction(1, 6), Fraction(1, 8))


def table_model(table: list[list[int]], phi: list[int], V: list[list[int]], A: list[list[int]], b: list[int],
                B: list[list[int]], U: list[list[int]], name: str) -> LimitTransformer:
    """A Delta = 1 model with one-hot tokens a, b, c, ... and logit ``table[query][key] + phi[offset]``
    (K = I, Q = table transposed), value matrix V, ReLU MLP (A, b, B) and readout U."""
    k = len(table)
    toks = "abcdefghijklmnop"[:k]
    E = {t: tuple(Fraction(int(i == j)) for i in range(k)) for j, t in enumerate(toks)}
    eye = [[int(i == j) for j in range(k)] for i in range(k)]
    Q = [[table[q][key] for q in range(k)] for key in range(k)]
    R = rational_matrix
    return LimitTransformer(E, R([[0] * k], "P"), R(eye, "K"), R(Q, "Q"), R(V, "V"),
                            tuple(Fraction(v) for v in phi), R(A, "A"), tuple(Fraction(v) for v in b), R(B,
                                                                                                         "B"),
                            R(U, "U"), "relu", name)


def random_model(rng: np.random.Generator, sigma: int, tau: int, name: str) -> LimitTransformer:
    """Integer logit table in {0, 1, 2}, phi in {-1, 0, 1}, small integer values, a 2-unit ReLU MLP."""
    ints = (lambda lo, hi, shape: rng.integers(lo, hi + 1, shape).tolist())  # noqa: E731
    return table_model(ints(0, 2, (sigma, sigma)), ints(-1, 1, tau + 1), ints(-1, 1, (sigma, sigma)),
                       ints(-1, 1, (2, sigma)), ints(-1, 1, 2), ints(-1, 1, (sigma, 2)), ints(-2, 2, (1,
                                                                                                      sigma)),
                       name)


def random_string(rng: np.random.Generator, sigma: int, tau: int, n_max: int) -> CountString:
    """Prefix length 10^U(2.5, log10 n_max), counts multinomial with Dirichlet weights (a third of the time
    near-uniform, so counts sit near ties), suffix of tau + 1 uniform tokens."""
    toks = "abcdefghijklmnop"[:sigma]
    n = int(10 ** rng.uniform(2.5, log10(n_max)))
    alpha = np.full(sigma, 50.0) if rng.random() < 1 / 3 else np.full(sigma, 0.7)
    counts = rng.multinomial(n, rng.dirichlet(alpha))
    return count_string({t: int(c) for t, c in zip(toks, counts)}, [toks[i] for i in rng.integers(0, sigma,
                                                                                                  tau + 1)])


@dataclass
class Survey:
    """Results over the instances: per claim how many were decided and the first failure; measured maxima
    (overall and per |Sigma|); z in the hardmax regime or not (Part D item 11)."""

    seed: int
    instances: int
    cases: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    decided: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    failures: dict[str, str] = field(default_factory=dict)
    maxima: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    by_sigma: dict[tuple[str, int], float] = field(default_factory=lambda: defaultdict(float))
    z_below_threshold: int = 0
    z_not_hardmax: int = 0
    z_output_changed: int = 0
    z_example: str = ""
    c3_literal_premise: int = 0
    lip_mlp_only_fails: int = 0
    lip_full_fails: int = 0

    def record(self, claim: str, ok: bool | None, where: str) -> None:
        if ok is None:
            return
        self.decided[claim] += 1
        if not ok and claim not in self.failures:
            self.failures[claim] = where

    def measure(self, name: str, value: float, sigma: int) -> None:
        self.maxima[name] = max(self.maxima[name], value)
        self.by_sigma[(name, sigma)] = max(self.by_sigma[(name, sigma)], value)

    def per_sigma(self, name: str) -> dict[int, float]:
        """The maximum of a measured quantity per |Sigma|, rounded to 3 decimals, in |Sigma| order."""
        return {k[1]: round(v, 3) for k, v in sorted(self.by_sigma.items()) if k[0] == name}


def _norm(u: tuple, v: tuple) -> float:
    return sqrt(sum(float(a - b) ** 2 for a, b in zip(u, v)))


def _avg(model: LimitTransformer, cs: CountString) -> list[Fraction]:
    """The hardmax attention output sum_s prop(s) V E_s (residual excluded)."""
    Y = [Fraction(0)] * model.d
    for t, w in hard_prop(model, cs).items():
        Y = [Yc + w * v for Yc, v in zip(Y, model.apply("V", model.y(t, 0)))]
    return Y


def run_survey(seed: int, instances: int, p: int = 8, n_max: int = 10**6,
               sigmas: tuple[int, ...] = (2, 3, 4, 6)) -> Survey:
    """``instances`` seeded instances (numpy default_rng(seed)): random |Sigma| in ``sigmas``, tau in {1, 2},
    eps in EPSILONS, two random models, x with |x| <= n_max + tau + 1, precision p (x must be hardmax)."""
    rng = np.random.default_rng(seed)
    out = Survey(seed, instances)
    for i in range(instances):
        sigma, tau = int(rng.choice(sigmas)), int(rng.integers(1, 3))
        eps = EPSILONS[int(rng.integers(0, len(EPSILONS)))]
        f, g = random_model(rng, sigma, tau, "f"), random_model(rng, sigma, tau, "g")
        x = random_string(rng, sigma, tau, n_max)
        where = f"seed {seed}, instance {i} (|Sigma| = {sigma}, tau = {tau}, eps = {eps}, |x| = {x.length})"
        if not (evaluate_counts(f, x, p).hardmax and evaluate_counts(g, x, p).hardmax):
            continue  # a gap-free logit set below 2^p: not the proof's regime
        c = build_z(f, g, x, tau, eps)
        ff, gg = (g, f) if c.swapped else (f, g)
        out.cases[c.case] += 1
        for k, v in floor_claims(c, x, tau, eps, sigma).items():
            out.record(k, v, where)
        Sf = len(c.Af.tokens)
        small = Sf * eps / tau <= Fraction(1, 2)
        pf, pg = l1(hard_prop(ff, x), hard_prop(ff, c.z)), l1(hard_prop(gg, x), hard_prop(gg, c.z))
        if small:
            out.record("S3", pf <= (Fraction(2 * sigma**2, tau) + Fraction(4 * (tau + 1), tau)) * eps, where)
            if c.case != "C0" and sigma * eps / tau <= Fraction(1, 2):
                out.record("S6" if c.case == "C2" else "S10", pg <= C_G * eps, where)
        if c.case == "C0":
            out.record("C0", pf == 0 and pg == 0, where)
        if c.case == "C3" and c.Af.size <= sigma:
            out.c3_literal_premise += 1
        dv = _norm(_avg(ff, x), _avg(ff, c.z))
        dout = _norm(hard_out(ff, x), hard_out(ff, c.z))
        fro = (lambda M: sqrt(sum(float(v) ** 2 for r in M for v in r)))  # noqa: E731
        out.lip_mlp_only_fails += dout > fro(ff.A) * fro(ff.B) * dv + 1e-9
        out.lip_full_fails += dout > fro(ff.U) * (1 + fro(ff.A) * fro(ff.B)) * dv + 1e-9
        out.measure("prop_f/eps", float(pf / eps), sigma)
        out.measure(f"prop_g/eps ({c.case})", float(pg / eps), sigma)
        out.measure("|f(x)-f(z)|/eps", _norm(hard_out(ff, x), hard_out(ff, c.z)) / float(eps), sigma)
        out.measure("|g(x)-g(z)|/eps", _norm(hard_out(gg, x), hard_out(gg, c.z)) / float(eps), sigma)
        out.measure("|z| eps^2/tau", float(c.z.length * eps**2 / tau), sigma)
        gam = [v for v in (mg.gamma(f, "completed"), mg.gamma(g, "completed")) if v is not None]
        thr = flush.hardmax_length(p, min(gam) if gam else None)
        if c.z.length < thr:
            out.z_below_threshold += 1
        for h in (ff, gg):
            ev = evaluate_counts(h, c.z, p)
            if not ev.hardmax:
                out.z_not_hardmax += 1
                if _norm(ev.out, hard_out(h, c.z)) > 0:
                    out.z_output_changed += 1
                    out.z_example = out.z_example or (f"{where}: |z| = {c.z.length} < 2^(p/gamma) -> {thr}, "
                                                      f"{h.name}(z) flushed {[float(v) for v in ev.out]} vs "
                                                      f"hardmax {[float(v) for v in hard_out(h, c.z)]}")
                break
    return out


@lru_cache(maxsize=8)
def cached_survey(seed: int, instances: int, p: int) -> Survey:
    """:func:`run_survey` at (seed, instances, p), computed once per process for the few settings in use
    (every claim that reads the survey shares one run; the result must not be modified)."""
    return run_survey(seed, instances, p)


__all__ = ["C_G", "EPSILONS", "table_model", "random_model", "random_string", "Survey", "run_survey",
           "cached_survey"]
