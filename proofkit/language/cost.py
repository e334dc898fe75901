"""A theorem's running time, estimated from its parameters before any work starts.

A theorem file declares how long its check takes at the defaults (measured) and how that time grows with
each numeric parameter (an exponent per parameter, from the loops the check runs and confirmed by timing
it at the parameter's maximum). The engine turns the estimate into work units and refuses a setting above
the work cap before it starts (:mod:`proofkit.runtime.workguard`), with the estimate, its formula and how
to raise the cap. Why a power law per parameter: it is what a reader can check against the code (T
lengths x n^3 linear algebra), and it errs on the high side where a parameter only bounds a loop.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Cost:
    """``seconds``: wall time of ``check`` at the defaults on the reference machine (2 cores, the figure
    recorded in ``measured``); ``grows``: parameter -> exponent, the time scaling as
    (value / default)^exponent (values and defaults below 1 count as 1). Parameters not named leave the
    time as it is."""

    seconds: float
    grows: Mapping[str, float] = field(default_factory=dict)
    measured: str = ""
    #: parameter -> (another parameter, the value under which it matters): a term of ``grows`` that counts
    #: only in that setting (AM24v2.E1's authors_steps runs only under config=authors)
    applies: Mapping[str, tuple[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not (isinstance(self.seconds, (int, float)) and self.seconds > 0 and math.isfinite(self.seconds)):
            raise ValueError(f"Cost.seconds: expected a positive number of seconds, got {self.seconds!r}")
        for name, exp in self.grows.items():
            if not (isinstance(exp, (int, float)) and 0 < exp <= 8):
                raise ValueError(f"Cost.grows[{name!r}]: expected an exponent in (0, 8], got {exp!r}")
        for name in self.applies:
            if name not in self.grows:
                raise ValueError(f"Cost.applies[{name!r}]: expected a parameter of grows")

    def estimate(self, params: Mapping[str, Any], defaults: Mapping[str, Any]) -> tuple[float, str]:
        """(estimated seconds, the formula as a reader checks it) at ``params``."""
        seconds, terms = float(self.seconds), [f"{self.seconds:g} s at the defaults"]
        for name, exp in self.grows.items():
            if name in self.applies and params[self.applies[name][0]] != self.applies[name][1]:
                continue
            value, default = params[name], defaults[name]
            ratio = max(float(value), 1.0) / max(float(default), 1.0)
            if ratio != 1.0:
                seconds *= ratio**exp
                terms.append(f"({name} {value:g}/{default:g})^{exp:g}")
        return seconds, " x ".join(terms)
