"""The counterexample search of the ModPTask construction (Izzo, Nichani & Lee 2025, App. A.2) as corrected
here (INL25.TASKSc): does the one-layer construction output the ModPTask target exactly on every defined
string of every searched length?

A setting names the position rule (``reading``, :data:`.constructions.POSITION_READINGS`; ``equiv`` is the
corrected p_i = q_j for i = j (mod p)), the logit gap ``c``, the precision ``bits`` (every precision 1..bits
is searched), the periods 1..``period_max`` with every index k = 0..p-1, the lengths (from the hardmax
threshold 2^(bits/c) or from 1) up to ``n_max``, and the flush ``rule``. Every string over {0, 1} of
those lengths with a defined target is run through the exact rational forward pass and compared with the
exact target (Fractions): a mismatch is a certified counterexample. No tolerance is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

from ..errors import InputError
from ..language.spec import WitnessOutcome
from . import flush
from .constructions import POSITION_READINGS, modp_task_model
from .model import evaluate, to_dict
from .tasks import ModPTask

CLAIM = "the ModPTask construction outputs f* on every defined string (INL25.TASKSc)"
STARTS = ("threshold", "1")
RULES = ("inclusive", "strict")


@dataclass(frozen=True)
class Setting:
    """One search setting (see the module docstring)."""

    reading: str
    c: int
    bits: int
    period_max: int
    n_max: int
    start: str
    rule: str

    @staticmethod
    def of(params: dict[str, Any]) -> Setting:
        return Setting(params["reading"], int(params["c"]), int(params["bits"]), int(params["period_max"]),
                       int(params["n_max"]), params["start"], params["rule"])


def first_length(bits: int, c: int, start: str) -> int:
    """The first length searched: the hardmax threshold 2^(bits/c) (exact integer form) or 1."""
    return flush.hardmax_length(bits, Fraction(c)) if start == "threshold" else 1


@lru_cache(maxsize=256)
def _model(period: int, k: int, c: int, reading: str) -> Any:
    return modp_task_model(period, k, c, reading)


def decide_case(reading: str, period: int, k: int, c: int, bits: int, rule: str, x: tuple[str, ...]
                ) -> dict[str, str] | None:
    """The witness fields if the construction's output on ``x`` differs from the target, else None."""
    target = ModPTask(period, k).target(x)
    if target is None:
        return None
    out = evaluate(_model(period, k, c, reading), x, bits, rule=rule).out[0]
    if out == target:
        return None
    return {"reading": reading, "period": str(period), "k": str(k), "c": str(c), "bits": str(bits),
            "rule": rule, "string": "".join(x), "output": str(out), "target": str(target)}


def _how(w: dict[str, str]) -> str:
    thr = flush.hardmax_length(int(w["bits"]), Fraction(w["c"]))
    return (f"exact: the construction ({w['reading']} positions, period {w['period']}, k = {w['k']}, gap c = "
            f"{w['c']}) at {w['bits']} bits, '{w['rule']}' flush, on x = {w['string']} (length "
            f"{len(w['string'])}, threshold 2^(bits/c) = {thr})"
            f" outputs {w['output']} by the exact rational forward pass; the target is {w['target']} (exact "
            "Fractions); no tolerance used")


def certificate_data(w: dict[str, str], start: str) -> dict[str, Any]:
    """The kernel's ``flush`` data (docs/trust.md) of a witness: the construction's weights, precision,
    rule and string, and the task statement (period, k, output, target; c when the search starts at the
    threshold 2^(bits/c), so the kernel checks the length is at or beyond it)."""
    task = {"period": int(w["period"]), "k": int(w["k"]), "output": w["output"], "target": w["target"]}
    if start == "threshold":
        task["c"] = w["c"]
    model = _model(int(w["period"]), int(w["k"]), int(w["c"]), w["reading"])
    return {"kind": "flush", "model": to_dict(model), "p": int(w["bits"]), "rule": w["rule"],
            "string": {"tokens": w["string"]}, "task": task}


class ModPFalsifier:
    """The falsifier of INL25.TASKSc: every (precision, period, k, defined string) of the setting."""

    def search(self, params: dict[str, Any]) -> WitnessOutcome:
        s = Setting.of(params)
        cases = 0
        effort = (f"the '{s.reading}' construction, gap c = {s.c}, '{s.rule}' flush, at bits 1..{s.bits}, "
                  f"periods 1..{s.period_max} with every k = 0..p-1, every defined string over {{0, 1}} of "
                  f"length {'2^(bits/c)' if s.start == 'threshold' else '1'}..{s.n_max} (exact forward pass)")
        for bits in range(1, s.bits + 1):
            lo = first_length(bits, s.c, s.start)
            for period in range(1, s.period_max + 1):
                for k in range(period):
                    for n in range(lo, s.n_max + 1):
                        for x in product("01", repeat=n):
                            cases += 1
                            w = decide_case(s.reading, period, k, s.c, bits, s.rule, x)
                            if w is not None:
                                return WitnessOutcome(True, effort, w, _how(w), True, CLAIM,
                                                      certificate_data(w, s.start))
        return WitnessOutcome(False, effort + f": {cases} strings", None,
                              f"exact: output = f* on all {cases} (precision, period, k, string) cases", True,
                              CLAIM)

    def replay(self, witness: dict[str, str]) -> WitnessOutcome:
        keys = ("reading", "period", "k", "c", "bits", "rule", "string", "output", "target")
        for key in keys:
            if not isinstance(witness.get(key), str):
                raise InputError(f"witness.{key}", "a string", witness.get(key))
        if witness["reading"] not in POSITION_READINGS or witness["rule"] not in RULES:
            raise InputError("witness.reading/rule", "known readings", (witness["reading"], witness["rule"]))
        ints = [witness[k] for k in ("period", "k", "c", "bits")]
        if not all(v.isdigit() for v in ints) or not 1 <= int(witness["period"]) <= 16 \
                or not 1 <= len(witness["string"]) <= 16 or set(witness["string"]) - {"0", "1"}:
            raise InputError("witness.period/k/c/bits/string", "small integers and a 0/1 string",
                             tuple(ints) + (witness["string"],))
        again = decide_case(witness["reading"], int(witness["period"]), int(witness["k"]), int(witness["c"]),
                            int(witness["bits"]), witness["rule"], tuple(witness["string"]))
        ok = again == witness
        how = "replayed: " + (_how(witness) if ok else "the construction now computes the target there")
        return WitnessOutcome(ok, "1 string", witness, how, ok, CLAIM)


__all__ = ["CLAIM", "STARTS", "Setting", "first_length", "decide_case", "certificate_data", "ModPFalsifier"]
