"""Human-readable rendering of results (the JSON form is ``as_dict()`` of each result)."""

from __future__ import annotations

import io
import shlex
import shutil
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import mpmath as mp
import sympy as sp

from ..language.evidence import render as render_scope
from ..language.spec import Theorem
from ..language.tolerances import fmt
from ..language.verdict import TheoremResult, Verdict

if TYPE_CHECKING:  # scan and falsify import the engine; rendering needs only their result types
    from ..engine.falsify import FalsifyResult
    from ..engine.scan import ScanResult


#: the narrowest verdict table: its fixed columns and the claim counts wrapped at 12 characters
MIN_TABLE_WIDTH = 64


def verdict_table(results: Sequence[TheoremResult], width: int | None = None) -> str:
    """``check --all``'s table, one row per theorem, as plain text (no colour) at most ``width`` columns
    wide (default: the terminal's width, 100 when not a terminal; never under MIN_TABLE_WIDTH):
    rich.table wraps the claim counts rather than widening the table, and measures cells by their
    display width, so every row aligns."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1, 0, 0))
    for name, kw in (("theorem", {}), ("verdict", {}), ("claims", {"no_wrap": False, "min_width": 12}),
                     ("expected", {}), ("errata", {"justify": "right"}),
                     ("time", {"justify": "right", "min_width": 6})):
        table.add_column(name, **{"no_wrap": True, "overflow": "fold", **kw})
    for r in results:
        counts: dict[str, int] = {}
        for c in r.claims:
            counts[str(c.verdict)] = counts.get(str(c.verdict), 0) + 1
        summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
        table.add_row(r.id, str(r.verdict), summary, "yes" if r.as_expected() else "NO",
                      str(len(r.errata)), f"{r.elapsed_s:.1f}s")
    if width is None:
        width = shutil.get_terminal_size((100, 24)).columns
    out = io.StringIO()
    Console(file=out, width=max(width, MIN_TABLE_WIDTH), color_system=None, highlight=False, emoji=False,
            markup=False).print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines() if line.strip())


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
    """One theorem's result: verdict, flags, every claim with its evidence, errata, diagnostics (the fit
    and the local identifiability in words)."""
    out = [f"{r.headline}  (dps {r.dps}, seed {r.seed}, {r.elapsed_s:.2f}s)"]
    out += [f"  ERROR: claim {c.name!r} raised {c.error}: an internal error of the claim's code, not a "
            "verdict" for c in r.errors]
    out += [f"  NOTE: {f}" for f in r.flags]
    for c in r.claims:
        flag = "" if c.expected is None or c.expected == c.verdict else f"  [EXPECTED {c.expected}]"
        res = f" residual {c.residual}" if c.residual and len(c.residual) < 40 else ""
        note = f"; {c.note}" if c.note else ""
        kind = "; erratum: false as printed" if c.erratum else \
            "; refuted outside the theorem's assumptions, no erratum" if c.outside and not c.error \
            and c.verdict == Verdict.REFUTED and c.role != "control" else \
            f"; {c.scope.reading} refuted, no erratum" if c.verdict == Verdict.REFUTED and c.scope \
            and c.role != "control" and not c.error else ""
        out.append(f"  [{c.label}] {c.name} ({c.role}{note}{kind}){res}{flag}")
        out.append(f"      {c.statement}")
        if c.scope is not None:
            out.append(f"      scope: {render_scope(c.scope)}")
        if c.how:
            out.append(f"      how: {c.how}")
    for e in r.errata:
        out.append(f"  ERRATUM: printed {e.printed}; holds instead: {e.found} (residual {e.residual}; "
                   f"{e.note})")
    out += diagnostic_lines(r.diagnostics, r.dps)
    return "\n".join(out)


def fit_sentence(fit: Mapping[str, Any], dps: int) -> str:
    """The fit diagnostics of a check as a sentence: which (seeded) start converged, the training
    residual at ``dps`` digits and the float64 warm start's, the polish iterations; or why none did."""
    tried = fit.get("restarts_tried")
    f64 = fit.get("float64_residual")
    if not fit.get("converged"):
        return (f"did not converge ({tried} seeded start(s) tried): {fit.get('reason') or 'no reason given'}"
                + ("" if f64 is None or "best" in str(fit.get("reason")) else
                   f"; best float64 residual {human(f64)}"))
    used = fit.get("restart_used")
    which = f"from start {used + 1} of {tried} tried (seeded)" if isinstance(used, int) else ""
    polish = fit.get("mp_iterations", 0)
    return (f"converged{' ' + which if which else ''}: training residual {fit.get('train_residual')} at "
            f"{dps} digits after {polish} polish iteration{'' if polish == 1 else 's'} (the float64 warm "
            f"start reached {human(f64)})")


def identifiability_sentence(text: str) -> str:
    """The local identifiability summary with its conclusion first ("test outputs locally identified:
    J_train rank ...")."""
    parts = text.split("; ")
    if len(parts) > 1 and parts[-1].startswith("test outputs"):
        return f"{parts[-1]}: " + "; ".join(parts[:-1])
    return text


def diagnostic_lines(diag: Mapping[str, Any], dps: int) -> list[str]:
    """The diagnostics of a check in words, the timings last."""
    out = []
    for key, val in diag.items():
        if key == "timings_s":
            continue
        if key == "fit" and isinstance(val, Mapping):
            out.append(f"  fit: {fit_sentence(val, dps)}")
        elif key == "groups" and isinstance(val, Mapping):
            if val:
                out.append("  group elements: " + "; ".join(str(v) for v in val.values()))
        elif key == "local_identifiability" and isinstance(val, str):
            out.append(f"  local identifiability: {identifiability_sentence(val)}")
        else:
            out.append(f"  {key.replace('_', ' ')}: {human(val)}")
    if "timings_s" in diag:
        t = ", ".join(f"{k} {v:.2f}s" for k, v in diag["timings_s"].items())
        out.append(f"  time: {t}")
    return out


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
    from ..language.spec import latex_text, to_latex

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
        follows = f"; follows {p.follows} unless set" if p.follows else ""
        out.append(f"    {p.name} = {p.default!r}  ({p.allowed()}{follows}) {p.help}")
    return "\n".join(out)


def table_rows(thm: Theorem, r: TheoremResult) -> str:
    """A paper table reproduced row by row: the row, the toolkit's verdict and its evidence."""
    out = [f"{thm.id}: {thm.title}  [{thm.paper}]"]
    for c in r.claims:
        out.append(f"  {c.name:32s} {str(c.verdict):12s} {c.how}")
    return "\n".join(out)


def scan_text(r: ScanResult, row_lines: Sequence[str] = ()) -> str:
    """A parameter scan: per value its status, the check verdict with each conclusion's, the search
    verdict (and whether its counterexample is certified), the reason and the line that reproduces the
    value (``row_lines``, in row order), then the threshold (numeric parameters) or the verdict of each
    value (categorical ones, where "smallest" means nothing) and any monotonicity warning."""
    search = "with" if r.searched else "without"
    out = [f"{r.theorem}: scan over {r.param} {search} counterexample search (dps {r.dps}, seed {r.seed}, "
           f"{r.elapsed_s:.1f}s)"]
    for i, row in enumerate(r.rows):
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
        if i < len(row_lines):
            out.append(f"      reproduce: {row_lines[i]}")
    if r.ordered:
        out.append(f"smallest {r.param} from which every scanned value holds: "
                   + ("none (the largest scanned value does not hold)" if r.threshold is None
                      else str(r.threshold)))
    else:
        out.append(f"per value ({r.param} is categorical, so no threshold): "
                   + ", ".join(f"{row.value} {row.status}" for row in r.rows))
    out += [f"warning: {w}" for w in r.warnings]
    return "\n".join(out)


# ----------------------------------------------------------------------------- falsify
def short_number(text: str, digits: int = 6) -> str:
    """A stored exact value (decimal or p/q string) in at most ``digits`` significant digits."""
    try:
        if "/" in text:
            if len(text) <= 12:
                return text
            num, den = text.split("/")
            return mp.nstr(mp.mpf(num) / mp.mpf(den), digits)
        return mp.nstr(mp.mpf(text), digits)
    except (ValueError, TypeError, ZeroDivisionError):
        return text


def _nested(values: Any) -> str:
    return "[" + ", ".join(_nested(v) for v in values) + "]" if isinstance(values, list) \
        else short_number(str(values))


def learned_lines(blocks: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """``A   (2x2) = [[1.5, -0.7], [0.4, 1.2]]``: each parameter block of a learned model by its name and
    shape, values in short decimals (the record keeps every digit)."""
    labels = {name: f"{name} ({'x'.join(str(d) for d in b['shape']) or 'scalar'})"
              for name, b in blocks.items()}
    width = max((len(v) for v in labels.values()), default=0)
    return [f"    {labels[name].ljust(width)} = {_nested(b['values'])}" for name, b in blocks.items()]


def _at(thm: Theorem, params: Mapping[str, Any]) -> str:
    """The parameters a reader needs to place a search: the dimensions, T, and every non-default one."""
    defaults = thm.params.defaults()
    keys = [k for group in thm.dims for k in group] + ["T"]
    keys += [k for k, v in params.items() if defaults.get(k, v) != v]
    return ", ".join(f"{k}={params[k]}" for k in dict.fromkeys(keys) if k in params)


def next_steps(thm: Theorem, sets: Mapping[str, Any], drops: Sequence[str], seed: int, dps: int,
               params: Mapping[str, Any]) -> list[str]:
    """What to try after an empty search, as runnable lines: each dimension group one larger (a
    parameter that follows another moves with it), another seed, a scan over T, other assumptions."""
    from .reproduce import line

    out = []
    for group in thm.dims:
        moved = [p for p in map(thm.params.get, group) if p.follows not in group or p.name in sets]
        if all(p.max is None or params[p.name] + 1 <= p.max for p in moved):
            grown = dict(sets, **{p.name: params[p.name] + 1 for p in moved})
            along = [p.name for p in map(thm.params.get, group) if p not in moved]
            label = " and ".join(p.name for p in moved) + (f" ({', '.join(along)} follows)" if along else "")
            out.append(f"    a larger {label}: "
                       f"{line('falsify', thm.id, sets=grown, drops=drops, seed=seed, dps=dps)}")
    out.append(f"    another seed: {line('falsify', thm.id, sets=sets, drops=drops, seed=seed + 1, dps=dps)}")
    if "T" in params and isinstance(params["T"], int):
        p = thm.params.get("T")
        values = [t for t in (params["T"] - 1, params["T"], params["T"] + 1)
                  if (p.min is None or t >= p.min) and (p.max is None or t <= p.max)]
        base = {k: v for k, v in sets.items() if k != "T"}
        scan = line("scan", thm.id, sets=base, seed=seed, dps=dps,
                    extra=["--param", "T", "--values", ",".join(map(str, values))])
        out.append(f"    a scan over T: {scan}")
    others = [a.id for a in thm.assumptions if a.drop and a.id not in drops]
    if others:
        out.append("    an assumption dropped (each searched where it fails): "
                   + ", ".join(f"--drop {shlex.quote(a)}" for a in others))
    return out


def falsify_text(res: FalsifyResult, thm: Theorem, sets: Mapping[str, Any], drops: Sequence[str]) -> str:
    """A search's result in words: the counterexample with its learned parameters by block and its
    witness, or what was searched and what to try next."""
    out = [f"{res.theorem} dropped [{', '.join(res.dropped) or 'none'}]: {res.verdict}"]
    rec = res.record or {}
    if res.found:
        if res.record_path:
            out.append(f"  counterexample: {res.record_path}  (check it: proofkit replay {res.record_path})")
        linked = res.details.get("known_theorem")
        if linked and linked != thm.id:  # a linked theorem's record: its own setting, not this one's
            setting = ", ".join(f"{k}={v}" for k, v in res.details.get("known_params", {}).items())
            out.append(f"  at the setting of {linked}'s record: {setting}")
        else:
            out.append(f"  at {_at(thm, res.params)}")
        blocks = res.learned()
        if blocks:
            out.append("  learned model h (zero training risk, differs from f beyond training):")
            out += learned_lines(blocks)
        if rec.get("kind") == "model":
            gap = short_number(str(rec.get("test_discrepancy")))
            tokens = rec.get("witness") if isinstance(rec.get("witness"), list) else []
            shown = f" x = {_nested(tokens)}" if 0 < len(tokens) <= 8 else ""
            out.append(f"  witness: a length-{rec.get('witness_length')} sequence{shown} where "
                       f"|h - f| / max(1, |f|) = {gap} ({rec.get('claim')} fails)")
        elif isinstance(rec.get("witness"), Mapping):
            out.append("  witness: " + "; ".join(f"{k} = {v}" for k, v in rec["witness"].items()))
        said = res.how.startswith(("certified", "uncertified"))  # certify_model's words say it already
        out.append(f"  {'' if said else 'certified: ' if res.certified else 'NOT certified: '}{res.how}")
    else:
        out.append(f"  {res.how}")
        if res.verdict == Verdict.CONFIRMED:
            out.append(f"  searched at {_at(thm, res.params)}: every learner the search fitted to zero "
                       "training risk agrees with f on the test sequences; this is evidence, not a proof "
                       "(the search is local: seeded fits and steps from them)")
        out.append("  what to try:")
        total, searched = res.details.get("settings", 0), res.details.get("searched", 0)
        if total > searched:
            from .reproduce import line

            more = line("falsify", thm.id, sets=sets, drops=drops, seed=res.seed, dps=res.dps,
                        extra=["--budget", str(total)])
            out.append(f"    every setting ({total}; {searched} searched numerically): {more}")
        out += next_steps(thm, sets, drops, res.seed, res.dps, res.params)
    out.append(f"  search effort: {res.effort}")
    out.append(f"  seed {res.seed}, dps {res.dps}, {res.elapsed_s:.2f}s")
    return "\n".join(out)
