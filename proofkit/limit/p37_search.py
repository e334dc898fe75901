"""The counterexample search of the hardmax proposition (Izzo, Nichani & Lee 2025, Sec. 3.2) as corrected
here (INL25.P37c): over a family of one-layer limit transformers and every precision 1..p, is every string
of every length N >= 2^(p/(d gamma)) attended by a hardmax under the flush rule?

The setting says which logits gamma is taken over (``logits``: ``completed`` = every logit a forward pass
can see, ``forward`` = the local offsets 0..tau only, ``literal`` = D3.4-D3.5 as printed), which pairs
(``pairs``: ``all`` or the prose's ``max-vs-rest``), the flush ``rule`` (``inclusive``: terms <= 2^-p
flushed; ``strict``: < 2^-p) and the threshold divisor ``d`` (1: the printed 2^(p/gamma)).

The family: the small models of :mod:`.zoo` (each built so one reading matters) and ``random`` seeded
Delta = 1 table models (:func:`.survey.random_model`: |Sigma| in {2, 3}, tau in {0, 1}, integer logits).
Every decision is exact (:func:`.margin.hardmax_onset`: every length by the slot reduction, integer
flush comparisons), and a failing length's witness string, where it is at most
:data:`.regime.WITNESS_CAP` long, is run through the exact rational forward pass. No tolerance is used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import InputError
from ..language.spec import WitnessOutcome
from . import flush
from . import margin as mg
from .model import LimitTransformer, from_dict, to_dict
from .regime import spelled_witness
from .survey import random_model
from .zoo import MODELS

CLAIM = "hardmax at every N >= 2^(p/(d gamma)) (INL25.P37c)"
LOGITS = ("completed", "forward", "literal")
RULES = ("inclusive", "strict")


@dataclass(frozen=True)
class Setting:
    """One search setting: max bits, gamma's logit sets and pairs, flush rule, divisor, random models."""

    p: int
    logits: str
    pairs: str
    rule: str
    divisor: int
    random: int
    seed: int

    @staticmethod
    def of(params: dict[str, Any]) -> Setting:
        return Setting(int(params["p"]), params["logits"], params["pairs"], params["rule"],
                       int(params["divisor"]), int(params["random"]), int(params["seed"]))

    def text(self) -> str:
        return (f"gamma over the {self.logits} logit sets ({self.pairs} pairs), flush rule '{self.rule}', "
                f"threshold {self.threshold()}")

    def threshold(self) -> str:
        return "2^(p/gamma)" if self.divisor == 1 else f"2^(p/({self.divisor} gamma))"


def family(random: int, seed: int) -> list[LimitTransformer]:
    """The zoo models, then ``random`` seeded table models (|Sigma| = 2 + i mod 2, tau = (i // 2) mod 2)."""
    out = [make() for make in MODELS.values()]
    rng = np.random.default_rng(seed)
    for i in range(random):
        out.append(random_model(rng, 2 + i % 2, (i // 2) % 2, f"random-{seed}-{i}"))
    return out


def decide_model(m: LimitTransformer, bits: int, s: Setting) -> dict[str, str] | None:
    """The first failing length of ``m`` at ``bits`` under the setting, as a witness, or None (exact)."""
    g = mg.gamma(m, s.logits, s.pairs)
    thr = flush.hardmax_length(bits, None if g is None else g * s.divisor)
    onset = mg.hardmax_onset(m, bits, thr, s.rule, limit=1)
    if not onset.failing:
        return None
    w = onset.witness
    spelled = spelled_witness(m, w, bits, s.rule)
    return {"model": json.dumps(to_dict(m), sort_keys=True), "name": m.name, "p": str(bits),
            "logits": s.logits, "pairs": s.pairs, "rule": s.rule, "divisor": str(s.divisor),
            "gamma": "inf" if g is None else str(g), "threshold": str(thr), "N": str(w.N), "gap": str(w.gap),
            "string": "" if spelled is None else "".join(spelled[0]),
            "survivors": "" if spelled is None else ",".join(map(str, spelled[1].survivors))}


def _how(w: dict[str, str]) -> str:
    spelled = (f"the string {w['string'][:40]}{'...' if len(w['string']) > 40 else ''} (length {w['N']}) "
               f"run through the exact rational forward pass keeps terms at positions {w['survivors'][:80]}"
               if w["string"] else f"a string of length {w['N']} (too long to spell; the slot reduction "
                                   "names its keys)")
    return (f"exact: on '{w['name']}' at p = {w['p']} bits, gamma = {w['gamma']} ({w['logits']} logit sets, "
            f"{w['pairs']} pairs), threshold N >= {w['threshold']}; at N = {w['N']} a sub-maximal key with "
            f"gap {w['gap']} survives the '{w['rule']}' flush (integer comparison N^a vs 2^(p b)); "
            f"{spelled}; no tolerance used")


def certificate_data(w: dict[str, str]) -> dict[str, Any] | None:
    """The kernel's ``flush`` data (docs/trust.md) of a witness: the model, precision, rule and spelled
    string, and the hardmax statement (readings, divisor, gamma, the smallest gap below the maximum);
    None for a string too long to spell (the kernel then reports the record as not re-checked)."""
    if not w["string"]:
        return None
    return {"kind": "flush", "model": json.loads(w["model"]), "p": int(w["p"]), "rule": w["rule"],
            "string": {"tokens": w["string"]},
            "hardmax": {"logits": w["logits"], "pairs": w["pairs"], "divisor": int(w["divisor"]),
                        "gamma": "infinity" if w["gamma"] == "inf" else w["gamma"], "gap": w["gap"]}}


class P37Falsifier:
    """The falsifier of INL25.P37c: every model of :func:`family` at every precision 1..p."""

    def search(self, params: dict[str, Any]) -> WitnessOutcome:
        s = Setting.of(params)
        models = family(s.random, s.seed)
        effort = (f"{len(models)} models (the {len(MODELS)} zoo models and {s.random} seeded random table "
                  f"models, seed {s.seed}) at p = 1..{s.p} bits, every string of every length N >= "
                  f"{s.threshold()} by the exact slot reduction; {s.text()}")
        for bits in range(1, s.p + 1):
            for m in models:
                w = decide_model(m, bits, s)
                if w is not None:
                    return WitnessOutcome(True, effort, w, _how(w), True, CLAIM, certificate_data(w))
        return WitnessOutcome(False, effort, None, "exact: hardmax holds on every model at every precision "
                              "from the threshold on (slot reduction over every length)", True, CLAIM)

    def replay(self, witness: dict[str, str]) -> WitnessOutcome:
        keys = ("model", "name", "p", "logits", "pairs", "rule", "divisor", "gamma", "threshold", "N",
                "gap", "string", "survivors")
        for key in keys:
            if not isinstance(witness.get(key), str):
                raise InputError(f"witness.{key}", "a string", witness.get(key))
        readings = (witness["logits"], witness["pairs"], witness["rule"])
        if readings[0] not in LOGITS or readings[1] not in mg.PAIRS or readings[2] not in RULES:
            raise InputError("witness.logits/pairs/rule", "known readings", readings)
        ints = (witness["p"], witness["divisor"])
        if not (ints[0].isdigit() and ints[1].isdigit()) or not 1 <= int(ints[0]) <= 8:
            raise InputError("witness.p/divisor", "integers (1 <= p <= 8)", ints)
        try:
            m = from_dict(json.loads(witness["model"]), "witness.model")
        except json.JSONDecodeError:
            raise InputError("witness.model", "JSON model data", None) from None
        s = Setting(int(witness["p"]), witness["logits"], witness["pairs"], witness["rule"],
                    int(witness["divisor"]), 0, 0)
        again = decide_model(m, s.p, s)
        ok = again == witness
        how = ("replayed: " + (_how(witness) if ok else "the model no longer fails there") + f" (recomputed "
               f"gap {Fraction(again['gap']) if again else None})")
        return WitnessOutcome(ok, "1 model", witness, how, ok, CLAIM)


__all__ = ["CLAIM", "LOGITS", "Setting", "family", "decide_model", "certificate_data", "P37Falsifier"]
