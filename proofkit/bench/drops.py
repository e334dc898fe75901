"""Row 6: what the drop search costs per dropped assumption, against the single-variant search it replaced.

For each drop of the run, A is the search proofkit ran before the drop search existed: the numeric search
(seeded fits, null-space continuation, penalty fits, dimension shrinking) at the one declared variant of
the assumption (``proofkit.engine.falsify._at`` at that setting); B is ``falsify(theorem, [assumption],
budget=4)`` without stored records: exact constructions at every setting the remaining assumptions
allow, then the numeric search at up to four of them, stopping at the first certified counterexample.
B / A is the growth; the details say where it grew (settings searched) and what it bought (the outcome
before and after). Where the declared variant already holds a certified counterexample both stop there
and B / A is about 1; where the search is empty B searches four settings and B / A is about 4 or more;
where an exact construction applies at a later setting B can be far cheaper than A.
"""

from __future__ import annotations

import time
from typing import Any

from ..engine import dropspace
from ..language import registry
from .common import Figure, Ratio, Section, progress

BUDGET = 4


def _outcome(res: Any) -> str:
    if res.found:
        return "certified" if res.certified else "uncertified"
    return "empty" if not res.effort.startswith("no search") else "no setting"


def one(tid: str, aid: str) -> dict[str, Any]:
    """Old (declared variant, numeric search) and new (drop search) wall time and outcome of one drop."""
    from ..engine.falsify import _at, falsify

    thm = registry.get(tid)
    params = thm.params.resolve(dict(thm.assumption(aid).drop))
    dropped = sorted({aid} | set(thm.violated(params)))
    t0 = time.perf_counter()
    old = (_at(thm, params, dropped, dps=60, seed=0, restarts=4, shrink=True, out_dir=None, t0=t0)
           if thm.falsifier is None and thm.assumption(aid).drop else None)
    old_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    new = falsify(thm, [aid], dps=60, seed=0, budget=BUDGET)
    new_s = time.perf_counter() - t0
    settings = new.details.get("settings")
    return {"theorem": tid, "assumption": aid, "old_s": old_s if old is not None else None,
            "old": _outcome(old) if old is not None else "not searchable", "new_s": new_s,
            "new": _outcome(new), "settings": settings, "searched": new.details.get("searched"),
            "setting": dropspace.label(thm, new.params)}


def bench(settings: Any) -> Section:
    """Row 6 over ``settings.drop_cases`` (theorem id, assumption id)."""
    sec = Section("drops", details={"drops": []})
    for tid, aid in settings.drop_cases:
        progress(f"drop {tid} {aid}")
        sec.details["drops"].append(one(tid, aid))
    timed = [d for d in sec.details["drops"] if d["old_s"] is not None]
    if timed:
        old = sum(d["old_s"] for d in timed)
        new = sum(d["new_s"] for d in timed)
        sec.ratios.append(Ratio(6, "drop search vs the declared variant alone", f"{len(timed)} drops, total",
                                Figure("declared variant", old, "s"), Figure("drop search", new, "s"),
                                "growth of the search cost"))
        worst = max(timed, key=lambda d: d["new_s"] / max(d["old_s"], 1e-9))
        sec.ratios.append(Ratio(6, "drop search vs the declared variant alone",
                                f"{worst['theorem']} {worst['assumption']} (largest growth)",
                                Figure("declared variant", worst["old_s"], "s"),
                                Figure("drop search", worst["new_s"], "s"), "growth of the search cost"))
    return sec
