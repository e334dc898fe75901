"""The hardmax lemma (Izzo, Nichani & Lee 2025, Sec. 3.2) decided model by model: for each model the logit
margin gamma under a reading of its definition, the printed threshold N >= 2^(p/gamma) and the exact
length from which every string is attended by a hardmax (:func:`.margin.hardmax_onset`: every length by the
slot reduction); and the margin readings against the smallest gap a forward pass realizes.

Everything is exact: rational logits, integer flush decisions, and a failing length's witness string run
through the exact forward pass where it is short enough to spell out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from . import flush
from . import margin as mg
from .model import Evaluation, LimitTransformer, evaluate

#: the longest witness string spelled out and run through the exact forward pass
WITNESS_CAP = 4096


@dataclass(frozen=True)
class Regime:
    """One model's hardmax regime under a reading of gamma: the margin (None: +inf, no sub-maximal logit),
    the printed threshold 2^(p/gamma) as a length, and the exact onset (where hardmax holds, the lengths
    at or beyond the threshold where it fails, and a witness gap for the first)."""

    name: str
    gamma: Fraction | None
    threshold: int
    onset: mg.Onset


def regimes(models: Mapping[str, LimitTransformer], p: int, variant: str, pairs: str,
            rule: str = "inclusive") -> list[Regime]:
    """The regime of each model at ``p`` bits, gamma read as ``variant``/``pairs`` (:func:`.margin.gamma`);
    the threshold is the paper's N >= 2^(p/gamma) whatever the flush ``rule``."""
    out = []
    for name, m in models.items():
        g = mg.gamma(m, variant, pairs)
        thr = flush.hardmax_length(p, g)
        out.append(Regime(name, g, thr, mg.hardmax_onset(m, p, thr, rule)))
    return out


def spelled_witness(model: LimitTransformer, gap: mg.Gap, p: int,
                    rule: str) -> tuple[tuple[str, ...], Evaluation] | None:
    """The string realizing ``gap`` (:func:`.margin.witness_string`) and its exact forward pass at ``p``
    bits, or None when it is longer than :data:`WITNESS_CAP`. The pass must not be a hardmax (the slot
    analysis says a sub-maximal term survives); if it is, the two disagree, which is a bug."""
    if gap.N > WITNESS_CAP:
        return None
    x = mg.witness_string(model, gap)
    ev = evaluate(model, x, p, rule=rule)
    if ev.hardmax:
        raise AssertionError("witness does not fail")  # the slot analysis and the forward pass disagree
    return x, ev


@dataclass(frozen=True)
class MarginReadings:
    """One model's gamma as printed (D3.4-D3.6: key token with the query's position vector), with the
    forward pass's index placement, and the smallest gap realized at the last query over every string of
    every length from the stable length on (None: no sub-maximal logit)."""

    name: str
    literal: Fraction | None
    forward: Fraction | None
    realized: Fraction | None


def margin_readings(models: Mapping[str, LimitTransformer]) -> list[MarginReadings]:
    """:class:`MarginReadings` of each model; the realized gap is the smallest over one length per residue
    class mod Delta from :func:`.margin.stable_length` on (beyond it the realizable pairs depend on the
    residue only)."""
    out = []
    for name, m in models.items():
        stable = mg.stable_length(m)
        gaps = (mg.realized_gap(m, N).gap for N in range(stable, stable + m.Delta))
        seen = [g for g in gaps if g is not None]
        out.append(MarginReadings(name, mg.gamma(m, "literal"), mg.gamma(m, "forward"),
                                  min(seen) if seen else None))
    return out


__all__ = ["WITNESS_CAP", "Regime", "regimes", "spelled_witness", "MarginReadings", "margin_readings"]
