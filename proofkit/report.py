"""Human-readable rendering of results (the JSON form is ``as_dict()`` of each result)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import mpmath as mp
import sympy as sp

from .spec import Theorem
from .tolerances import fmt
from .verdict import TheoremResult

if TYPE_CHECKING:  # scan imports the engine; rendering needs only its result type
    from .scan import ScanResult


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


def human(value: Any) -> str:
    """A diagnostic value for humans: floats and mpf through :func:`tolerances.fmt` (3 significant
    digits, never binary noise), inside dicts and lists too; everything else as ``str``."""
    if isinstance(value, (float, mp.mpf)):
        return fmt(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {human(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(human(v) for v in value) + "]"
    return str(value)


def theorem_detail(r: TheoremResult) -> str:
    """One theorem's result: verdict, flags, every claim with its evidence, errata, diagnostics."""
    out = [f"{r.id}: {r.verdict}  (dps {r.dps}, seed {r.seed}, {r.elapsed_s:.2f}s)"]
    if r.violated_assumptions:
        out.append("  assumptions violated by these parameters: " + ", ".join(r.violated_assumptions))
    out += [f"  NOTE: {f}" for f in r.flags]
    for c in r.claims:
        flag = "" if c.expected is None or c.expected == c.verdict else f"  [EXPECTED {c.expected}]"
        res = f" residual {c.residual}" if c.residual and len(c.residual) < 40 else ""
        note = f"; {c.note}" if c.note else ""
        out.append(f"  [{c.verdict}] {c.name} ({c.role}{note}){res}{flag}")
        out.append(f"      {c.statement}")
        if c.how:
            out.append(f"      how: {c.how}")
    for e in r.errata:
        out.append(f"  ERRATUM: printed {e.printed}; holds instead: {e.found} (residual {e.residual}; "
                   f"{e.note})")
    for key, val in r.diagnostics.items():
        if key != "timings_s":
            out.append(f"  {key}: {human(val)}")
    if "timings_s" in r.diagnostics:
        t = ", ".join(f"{k} {v:.2f}s" for k, v in r.diagnostics["timings_s"].items())
        out.append(f"  time: {t}")
    return "\n".join(out)


def statement_lines(thm: Theorem, dropped: Sequence[str] = ()) -> list[str]:
    """The statement, one hypothesis per line labelled with its assumption id, then the conclusion
    labelled with its claim names, then the wording of the named predicates it uses."""
    st = thm.statement_parts(dropped)
    if st.plain is not None:
        out = [f"  statement: {sp.sstr(st.plain)}"]
    else:
        out = ["  statement:" + (f" (without {', '.join(dropped)})" if dropped else ""),
               "    if" if st.hypotheses else "    (no hypotheses given as formulas)"]
        width = max((len(a) for a, _ in st.hypotheses), default=0)
        out += [f"      [{aid}]{' ' * (width - len(aid))}  {sp.sstr(h)}" for aid, h in st.hypotheses]
        out.append("    then" if st.hypotheses else "    conclusion")
        out += [f"      [{name}]  {sp.sstr(c)}" for name, c in st.conclusion]
    named = st.named()
    if named:
        out.append("    where")
        out += [f"      {k}: {v}" for k, v in named.items()]
    return out


def statement_latex(thm: Theorem, dropped: Sequence[str] = ()) -> str:
    """The statement as a LaTeX fragment a paper can include: an ``aligned`` block, one hypothesis per
    line tagged with its assumption id, the conclusion after ``\\Longrightarrow``."""
    from .spec import latex_text, to_latex

    st = thm.statement_parts(dropped)
    if st.plain is not None:
        return "% " + thm.id + "\n" + to_latex(st.plain, thm.latex_names)
    lines = [f"% {thm.id}: {thm.title}", r"\begin{aligned}"]
    for i, (aid, h) in enumerate(st.hypotheses):
        sep = r" \wedge" if i + 1 < len(st.hypotheses) else ""
        lines.append(rf"  & {to_latex(h, thm.latex_names)}{sep} && \text{{({latex_text(aid)})}} \\")
    for i, (name, c) in enumerate(st.conclusion):
        lead = r"\Longrightarrow\ " if i == 0 and st.hypotheses else r"\wedge\ " if i else ""
        end = r" \\" if i + 1 < len(st.conclusion) else ""
        lines.append(rf"  & {lead}{to_latex(c, thm.latex_names)} && \text{{({latex_text(name)})}}{end}")
    lines.append(r"\end{aligned}")
    return "\n".join(lines)


def show(thm: Theorem, dropped: Sequence[str] = ()) -> str:
    out = [f"{thm.id}: {thm.title}", f"  paper: {thm.paper}", *statement_lines(thm, dropped),
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


def scan_text(r: ScanResult) -> str:
    """A parameter scan: per value its status, the check verdict with each conclusion's, the search
    verdict (and whether its counterexample is certified), the reason, then the threshold and any
    monotonicity warning."""
    search = "with" if r.searched else "without"
    out = [f"{r.theorem}: scan over {r.param} {search} counterexample search (dps {r.dps}, seed {r.seed}, "
           f"{r.elapsed_s:.1f}s)"]
    for row in r.rows:
        claims = ", ".join(f"{k} {v}" for k, v in row.conclusions.items())
        out.append(f"  {r.param}={row.value}: {row.status.upper()}  ({row.elapsed_s:.1f}s)")
        out.append(f"      check: {row.check_verdict}" + (f" ({claims})" if claims else ""))
        if row.search is not None:
            s = row.search
            found = (f"counterexample found, {'certified' if s.certified else 'NOT certified'}"
                     if s.found else "no counterexample")
            out.append(f"      search: {s.verdict}, {found}" + (f", record {s.record}" if s.record else ""))
        if row.violated_assumptions:
            out.append("      assumptions violated: " + ", ".join(row.violated_assumptions))
        if row.status != "holds":
            out.append(f"      why: {row.reason}")
    if r.ordered:
        out.append(f"smallest {r.param} from which every scanned value holds: "
                   + ("none (the largest scanned value does not hold)" if r.threshold is None
                      else str(r.threshold)))
    else:
        out.append(f"no threshold: {r.param} is not a numeric parameter")
    out += [f"warning: {w}" for w in r.warnings]
    return "\n".join(out)
