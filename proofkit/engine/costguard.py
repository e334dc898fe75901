"""The one place a theorem's declared running time (:class:`proofkit.language.cost.Cost`) is checked
against the work cap, before ``check``, ``falsify`` or ``replay`` starts any work at the parameters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..language.spec import Theorem
from ..runtime import workguard


def guard(theorem: Theorem, params: Mapping[str, Any]) -> None:
    """Refuse (InputError, exit 2) when the theorem's estimated time at ``params`` exceeds the work cap,
    naming the estimate, its formula and how to raise the cap; nothing for a theorem without a cost."""
    if theorem.cost is None:
        return
    secs, formula = theorem.cost.estimate(params, theorem.params.defaults())
    workguard.guard(f"{theorem.id} parameters", workguard.seconds(secs, formula),
                    lower=f"the parameters of {theorem.id} (--set)")
