"""A theorem's running time, estimated from its parameters before any work starts.

A theorem file declares how long its check takes at the defaults (measured), how much of that does not
depend on the parameters, and how the rest grows with each numeric parameter: a power of its ratio to the
default (T lengths, n^3 linear algebra), or a rate per unit (2^len strings). The engine turns the estimate
into work units and refuses a setting above the work cap before it starts (:mod:`proofkit.runtime.workguard`),
with the estimate, its formula and how to raise the cap. Why these forms: a reader can check each against
the loops of the check and against the timings in docs/limits.md, and a product of per-parameter terms
errs on the high side where parameters do not compound.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def _positive(value: Any, what: str, upper: float = math.inf) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= upper \
            or not math.isfinite(value):
        raise ValueError(f"{what}: expected a positive number (at most {upper:g}), got {value!r}")


@dataclass(frozen=True)
class Cost:
    """``seconds``: wall time of ``check`` at the defaults on the reference machine (2 cores; the figures
    are in docs/limits.md and ``measured`` says which run), of which ``fixed`` seconds do not depend on
    the parameters. The rest scales by, per parameter, (value / default)^exponent for ``grows``
    (values and defaults below 1 count as 1) and rate^(value - default) for ``per_unit``; ``factors``
    multiplies it in a setting ((parameter, value) -> factor, e.g. a slower configuration) and
    ``applies`` limits a term to one setting (parameter -> (another parameter, value))."""

    seconds: float
    grows: Mapping[str, float] = field(default_factory=dict)
    measured: str = ""
    per_unit: Mapping[str, float] = field(default_factory=dict)
    fixed: float = 0.0
    factors: Mapping[tuple[str, Any], float] = field(default_factory=dict)
    applies: Mapping[str, tuple[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _positive(self.seconds, "Cost.seconds")
        if not (isinstance(self.fixed, (int, float)) and 0 <= self.fixed < self.seconds):
            raise ValueError(f"Cost.fixed: expected seconds in [0, seconds), got {self.fixed!r}")
        for name, exp in self.grows.items():
            _positive(exp, f"Cost.grows[{name!r}] (an exponent)", 8)
        for name, rate in self.per_unit.items():
            _positive(rate, f"Cost.per_unit[{name!r}] (a rate per unit)", 64)
        for key, factor in self.factors.items():
            _positive(factor, f"Cost.factors[{key!r}]", 1000)
        for name in self.applies:
            if name not in self.grows and name not in self.per_unit:
                raise ValueError(f"Cost.applies[{name!r}]: expected a parameter of grows or per_unit")

    def parameters(self) -> set[str]:
        """Every parameter the estimate reads."""
        return set(self.grows) | set(self.per_unit) | {k for k, _ in self.factors} | \
            {other for other, _ in self.applies.values()}

    def estimate(self, params: Mapping[str, Any], defaults: Mapping[str, Any]) -> tuple[float, str]:
        """(estimated seconds, the formula as a reader checks it) at ``params``."""
        scale, terms = 1.0, []
        for (name, value), factor in self.factors.items():
            if params[name] == value:
                scale *= factor
                terms.append(f"x {factor:g} ({name}={value})")
        for name, exp in self.grows.items():
            if self._off(name, params):
                continue
            ratio = max(float(params[name]), 1.0) / max(float(defaults[name]), 1.0)
            if ratio != 1.0:
                scale *= ratio**exp
                terms.append(f"x ({name} {params[name]:g}/{defaults[name]:g})^{exp:g}")
        for name, rate in self.per_unit.items():
            if self._off(name, params):
                continue
            steps = float(params[name]) - float(defaults[name])
            if steps:
                scale *= rate**steps
                terms.append(f"x {rate:g}^({name} {params[name]:g} - {defaults[name]:g})")
        variable = self.seconds - self.fixed
        seconds = self.fixed + variable * scale
        head = f"{self.fixed:g} s + {variable:g} s" if self.fixed else f"{self.seconds:g} s"
        formula = f"{head} at the defaults" + ("" if not terms else " " + " ".join(terms))
        return seconds, formula

    def _off(self, name: str, params: Mapping[str, Any]) -> bool:
        return name in self.applies and params[self.applies[name][0]] != self.applies[name][1]
