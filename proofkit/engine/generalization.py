"""Decide the generalization conclusions (``h = f`` beyond training) on a fitted learner.

The sampled test suites (TS-L: lengths beyond T; TS-C: products of token marginals at t <= T) give the
evidence at samples; a ball bound that covers every sequence of the named lengths with tokens in the
support box turns it into a certificate of that bound, and, for families linear in their inputs with
a stable learner, of every length t >= 1 (a readout bias adds its constant difference to the bound).
Besides random tokens the suites hold the corner sequences and the adversarial ones of
:mod:`proofkit.engine.adversarial` (sparse, repeated, vertex, facet and kink inputs). A sampled gap refutes
only when it survives the fit error (a ball evaluation at the fitted parameters widened to the fit's
distance to an exact zero-risk learner); an amplified fit error is inconclusive, never a refutation.

Before the high-precision comparison a float64 screen (:mod:`proofkit.engine.screen`) evaluates both models on
thousands of sequences per length in the selected array namespace (numpy, or CuPy on a GPU); its worst
sequences join the suite, so a gap the screen sees is decided at the working precision like any other.
The screen itself is reported as "screened" and nothing more.
"""

from __future__ import annotations

import mpmath as mp
import numpy as np

from ..certificates import certify
from ..certificates.certify_features import sum_bound
from ..families import Family
from ..families.pairwise_columns import sum_bound as pairwise_sum_bound
from ..language.spec import Generalization
from ..language.tolerances import REFUTE_MARGIN, SEARCH_GAP, ZERO_TOL, fmt
from ..language.verdict import Verdict
from ..numerics import activation as act
from ..numerics import balls
from ..numerics.backend import ARB, MP
from .adversarial import adversarial_sequences
from .problem import Problem
from .screen import SAMPLES, screen
from .support import corner_sequences, test_lengths


def test_sequences(p: Problem, kind: str, rng: np.random.Generator,
                   theta: np.ndarray | None = None) -> list[np.ndarray]:
    """TS-L (lengths beyond T, per-token marginal tokens) or TS-C (t <= T, product tokens), each length
    with the corner and the adversarial sequences (kink inputs of the true model and, given ``theta``,
    of the learned one)."""
    lengths = test_lengths(p.T) if kind == "length" else list(range(1, p.T + 1))
    models = [(p.true, p.theta_true)] + ([(p.learned, theta)] if theta is not None else [])
    out = []
    for L in lengths:
        N = 6 if L <= 100 else 2
        if kind == "compositional":
            N = 2 * p.n_per_length // max(1, p.T)
        out.append(np.concatenate([p.support.tokens(rng, (N, L), beyond=kind == "length"),
                                   corner_sequences(p.support, L),
                                   adversarial_sequences(p.support, L, models, seed=p.seed)]))
    return out


def bias_gap(fam_h: Family, th_h: np.ndarray, fam_f: Family, th_f: np.ndarray, dps: int) -> mp.mpf:
    """Ball upper bound of max |a_h - a_f| over the readout biases (``offset``; a family without one
    has none): the constant that a bound on the token-dependent part of the logits leaves out."""
    pairs = ((fam_h, th_h), (fam_f, th_f))
    if not any(hasattr(fam, "offset") for fam, _ in pairs):
        return mp.mpf(0)
    with balls.arb_precision(dps):
        parts = [balls.to_arb(fam.offset(th)) if hasattr(fam, "offset") else balls.to_arb(np.zeros(fam.m))
                 for fam, th in pairs]
        return max(balls.upper(v) for v in parts[0] - parts[1])


def sampled_gap(p: Problem, theta: np.ndarray, seqs: list[np.ndarray]) -> tuple[mp.mpf, np.ndarray | None]:
    """Largest relative gap |h - f| / max(1, |f|) over the batches, and the sequence attaining it."""
    worst, arg = mp.mpf(0), None
    for X in seqs:
        rows = p.relative_gaps(theta, X)
        i = int(np.argmax([float(r) for r in rows]))
        if rows[i] > worst or arg is None:
            worst, arg = max(worst, rows[i]), X[i]
    return worst, arg


def ball_gap(p: Problem, ball_theta: np.ndarray, X: np.ndarray) -> tuple[mp.mpf, mp.mpf]:
    """(lower, upper) bounds of max |h - f| at the sequence X over the whole parameter ball (logits for
    an injective readout, outputs otherwise)."""
    with balls.arb_precision(p.dps):
        Xa = ARB.asarray(X[None])
        zh = p.learned.logits(ball_theta, Xa, ARB)
        zf = p.true.logits(p.true_theta(ARB), Xa, ARB)
        if not p.injective:
            zh, zf = act.apply(p.activation, zh, ARB), act.apply(p.activation, zf, ARB)
        d = np.ravel(zh - zf)
        return max(balls.lower(v) for v in d), max(balls.upper(v) for v in d)


def robust(gap_lo: mp.mpf, gap_hi: mp.mpf, gap: mp.mpf, proven: bool) -> bool:
    """A gap is a counterexample's when the ball excludes 0 and (proven ball, or the gap exceeds its
    propagated fit error REFUTE_MARGIN-fold)."""
    return gap_lo > 0 and (proven or gap >= REFUTE_MARGIN * (gap_hi - gap_lo) / 2)


def decide(claim: Generalization, p: Problem, theta: np.ndarray, ball_theta: np.ndarray, proven: bool,
           radius_how: str, rng: np.random.Generator, minimal: tuple | None = None,
           screen_samples: int = SAMPLES) -> tuple[Verdict, str, str, str]:
    """(verdict, residual, how, domain words) for one generalization claim at the fitted learner.
    ``minimal``: (family, parameters) of an exactly equivalent minimal part, for the all-length bound.
    ``screen_samples``: sequences per length of the float64 screen whose worst join the suite (0: none)."""
    seqs = test_sequences(p, claim.kind, rng, theta)
    scr = screen(p, theta, claim.kind, screen_samples)
    seqs = [np.concatenate([s, w]) for s, w in zip(seqs, scr.worst_sequences())]
    with mp.workdps(p.dps):
        worst, X = sampled_gap(p, theta, seqs)
    count = sum(len(s) for s in seqs)
    longest = max(s.shape[1] for s in seqs)
    kept = sum(len(w) for w in scr.worst_sequences())
    sampled = (f"{count} sequences, lengths {seqs[0].shape[1]}..{longest}, {p.dps} digits, "
               f"{'logits' if p.injective else 'outputs'} compared"
               + (f", {kept} of them the float64 screen's worst" if kept else ""))
    screened = f"; {scr.words()}" if scr.samples else ""
    if worst > ZERO_TOL:
        lo, hi = ball_gap(p, ball_theta, X)
        if robust(lo, hi, worst, proven):
            cert = ("certified: the gap survives the whole ball, which contains an exact zero-risk learner"
                    if proven else f"uncertified: it exceeds its propagated fit error {fmt((hi - lo) / 2)} "
                    f"{fmt(REFUTE_MARGIN)}-fold ({radius_how})")
            return (Verdict.REFUTED, fmt(worst),
                    f"max relative gap {fmt(worst)} at a length-{X.shape[0]} sequence ({sampled}); {cert}"
                    f"{screened}", f"the sampled sequences ({sampled})")
        why = ("an unstable mode of the fitted learner amplifies its fit error"
               if worst >= SEARCH_GAP else "the gap is below what the fit error allows")
        return (Verdict.INCONCLUSIVE, fmt(worst),
                f"max relative gap {fmt(worst)} at a length-{X.shape[0]} sequence does not survive the fit "
                f"error: propagated through the model it spans [{fmt(lo)}, {fmt(hi)}] ({radius_how}); "
                f"{why}{screened}", f"the sampled sequences ({sampled})")
    lo_box, hi_box = p.support.token_box()
    if claim.kind == "length":  # test positions past T draw tokens from [0, test_scale]
        hi_box = hi_box * p.support.test_scale
    bound_tokens = np.maximum(np.abs(lo_box), np.abs(hi_box))
    box = "[" + ", ".join(f"{a:g}..{b:g}" for a, b in zip(lo_box, hi_box)) + "]"
    bias = bias_gap(p.learned, theta, p.true, p.true_theta(MP), p.dps)
    bias_words = f", plus the readout bias difference {fmt(bias)}" if hasattr(p.learned, "offset") else ""
    if claim.kind == "length" and p.injective:
        fam, th = minimal if minimal is not None else (p.learned, theta)
        allt = certify.markov_all_lengths_bound(fam, th, p.true, p.true_theta(MP), bound_tokens, p.dps)
        if allt is not None and allt[0] + bias <= ZERO_TOL:
            return (Verdict.CERTIFIED, fmt(worst),
                    f"ball bound {fmt(allt[0] + bias)} on sup|logit_h - logit_f| over every length t >= 1 "
                    f"and every sequence with tokens in {box} (Markov parameters j < {allt[1]} plus "
                    f"geometric tails{bias_words}); sampled max {fmt(worst)} ({sampled}){screened}",
                    f"every length t >= 1, tokens in {box}")
    sb = sum_bound(p.learned, theta, p.true, p.true_theta(MP), lo_box, hi_box, longest, p.dps)
    if sb is None:  # families linear in their parameters with fixed features (pairwise sums)
        sb = pairwise_sum_bound(p.learned, theta, p.true, p.true_theta(MP), lo_box, hi_box, longest, p.dps)
    if sb is not None and sb.value <= ZERO_TOL:
        return (Verdict.CERTIFIED, fmt(worst),
                f"ball bound {fmt(sb.value)} on sup|logit_h - logit_f| over {sb.domain} ({sb.how}); "
                f"not beyond length {longest}; sampled max {fmt(worst)}{screened}", sb.domain)
    bound = certify.markov_sup_bound(p.learned, theta, p.true, p.true_theta(MP), longest, bound_tokens,
                                     p.dps)
    # every readout here is 1-Lipschitz, so the logit bound also bounds the outputs
    if bound is not None and bound + bias <= ZERO_TOL:
        return (Verdict.CERTIFIED, fmt(worst),
                f"ball bound {fmt(bound + bias)} on sup|logit_h - logit_f| over every sequence of length "
                f"<= {longest} with tokens in {box} (Markov parameters{bias_words}); not beyond length "
                f"{longest}{screened}",
                f"every length t <= {longest}, tokens in {box}")
    return (Verdict.CONFIRMED, fmt(worst), f"max relative gap {fmt(worst)} <= {fmt(ZERO_TOL)} at "
            f"{count} samples ({sampled}); no bound covers the continuum{screened}",
            f"the sampled sequences ({sampled})")
