"""Row 5: what one-way row counting costs as the split N grows, and how the row count grows.

:func:`proofkit.crasp.communication.comm.rows` (prefix-vector mode) with the vectorized interpreter as the
prefix function, for MAJORITY and DYCK-1 at each N of the run (all 2^(2N) binary strings of length 2N),
against the program-level Theorem-12 bound the code derives
(:func:`proofkit.crasp.communication.comm.program_bound_for_ops`) and the growth label of
:func:`proofkit.crasp.communication.comm.trend`. The work is 4^N strings, so the time should grow about 4x per
step of N once fixed costs are amortized.
"""

from __future__ import annotations

import time
from typing import Any

from ..crasp.communication import comm
from ..crasp.semantics.vector import accepts_prefixes
from .common import Figure, Ratio, Section, progress
from .crasp import program

PROGRAMS = ("MAJORITY", "DYCK-1")


def table(name: str, splits: tuple[int, ...]) -> list[dict[str, Any]]:
    """rows, bound and seconds at each N."""
    prog = program(name)
    comm.rows(lambda X: accepts_prefixes(prog, X), 2, 1)  # warm-up: one-time costs stay out of the table
    out = []
    for N in splits:
        progress(f"rows {name}: 2N = {2 * N}")
        t0 = time.perf_counter()
        r = comm.rows(lambda X, p=prog: accepts_prefixes(p, X), 2, N)
        secs = time.perf_counter() - t0
        bound = comm.program_bound_for_ops(prog.ops, N)
        out.append({"N": N, "strings": 4**N, "rows": r, "bound": bound, "within_bound": r <= bound,
                    "seconds": secs, "ns_per_string": secs / 4**N * 1e9})
    return out


def bench(settings: Any) -> Section:
    """Row 5 at ``settings.rows_splits``."""
    sec = Section("rows")
    splits = tuple(sorted(settings.rows_splits))
    for name in PROGRAMS:
        entries = table(name, splits)
        trend = comm.trend([{"N": e["N"], "rows": e["rows"]} for e in entries]) if len(entries) >= 3 else ""
        sec.details[name] = {"table": entries, "trend": trend}
        prev, last = entries[-2], entries[-1]
        inst = f"{name}, 2N = {2 * prev['N']} -> {2 * last['N']}"
        sec.ratios.append(Ratio(5, "row-count time vs N (strings x4 per step)", inst,
                                Figure(f"2N = {2 * prev['N']}", prev["seconds"], "s"),
                                Figure(f"2N = {2 * last['N']}", last["seconds"], "s"), "time growth"))
        sec.ratios.append(Ratio(5, "rows vs the program-level Theorem-12 bound",
                                f"{name}, 2N = {2 * last['N']}",
                                Figure("rows", last["rows"], "rows"),
                                Figure("program bound", last["bound"], "rows"), "bound / rows (slack)",
                                goal="rows <= bound", goal_met=all(e["within_bound"] for e in entries)))
    return sec
