"""Human-readable rendering of results (the JSON form is ``as_dict()`` of each result)."""

from __future__ import annotations

from collections.abc import Sequence

from .spec import Theorem
from .verdict import TheoremResult


def verdict_table(results: Sequence[TheoremResult]) -> str:
    rows = [("theorem", "verdict", "claims (verdict)", "as expected", "errata", "time")]
    for r in results:
        counts: dict[str, int] = {}
        for c in r.claims:
            counts[str(c.verdict)] = counts.get(str(c.verdict), 0) + 1
        summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
        rows.append((r.id, str(r.verdict), summary, "yes" if r.as_expected() else "NO",
                     str(len(r.errata)), f"{r.elapsed_s:.1f}s"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def theorem_detail(r: TheoremResult) -> str:
    out = [f"{r.id}: {r.verdict}  (dps {r.dps}, seed {r.seed}, {r.elapsed_s:.2f}s)"]
    if r.violated_assumptions:
        out.append("  assumptions violated by these parameters: " + ", ".join(r.violated_assumptions))
    for c in r.claims:
        flag = "" if c.expected is None or c.expected == c.verdict else f"  [EXPECTED {c.expected}]"
        res = f" residual {c.residual}" if c.residual and len(c.residual) < 40 else ""
        out.append(f"  [{c.verdict}] {c.name} ({c.role}){res}{flag}")
        out.append(f"      {c.statement}")
        if c.how:
            out.append(f"      how: {c.how}")
    for e in r.errata:
        out.append(f"  ERRATUM: printed {e.printed}; holds instead: {e.found} (residual {e.residual}; "
                   f"{e.note})")
    for key, val in r.diagnostics.items():
        if key != "timings_s":
            out.append(f"  {key}: {val}")
    if "timings_s" in r.diagnostics:
        t = ", ".join(f"{k} {v:.2f}s" for k, v in r.diagnostics["timings_s"].items())
        out.append(f"  time: {t}")
    return "\n".join(out)


def show(thm: Theorem) -> str:
    out = [f"{thm.id}: {thm.title}", f"  paper: {thm.paper}", f"  statement: {thm.statement}",
           "  assumptions:"]
    for a in thm.assumptions:
        drop = ", ".join(f"{k}={v}" for k, v in a.drop.items()) or "(not droppable by search)"
        out.append(f"    {a.id}: {a.meaning}  [--drop sets {drop}]")
    out.append("  claims:")
    for c in thm.claims:
        exp = thm.expect.get(c.name)
        out.append(f"    {c.name} ({c.role}{', expected ' + str(exp) if exp else ''}): {c.statement()}")
    out.append("  parameters:")
    for p in thm.params.params:
        out.append(f"    {p.name} = {p.default!r}  ({p.allowed()}) {p.help}")
    return "\n".join(out)


def table_rows(thm: Theorem, r: TheoremResult) -> str:
    """A paper table reproduced row by row: the row, the toolkit's verdict and its evidence."""
    out = [f"{thm.id}: {thm.title}  [{thm.paper}]"]
    for c in r.claims:
        out.append(f"  {c.name:32s} {str(c.verdict):12s} {c.how}")
    return "\n".join(out)
