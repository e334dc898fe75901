"""docs/benchmarks.md, generated from a benchmark result: how to run, the machine, the ratio table, the
method of each row (the docstring of the module that measures it, so code and page cannot drift apart)
and the detailed figures of every section."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import Any

from . import crasp, drops, fit, namespace, precision, rows, stages, table, targets

#: the modules whose docstrings describe the method, in table order, and the detail tables' titles
METHODS: tuple[ModuleType, ...] = (fit, precision, namespace, crasp, rows, drops, stages, targets)
TITLES = {"fit": "Row 1: fit", "precision": "Row 2: precision stages", "namespace": "Row 3: numpy vs CuPy",
          "crasp": "Row 4: C-RASP interpreters", "rows": "Row 5: row counting", "drops": "Row 6: drop search",
          "stages": "Check stages and import", "targets": "Targets"}

USAGE = """\
    proofkit bench                  # full run (several minutes): stores a result, regenerates this page
    proofkit bench --quick          # smoke run (under a minute): smaller sizes and loop budgets
    proofkit bench --json           # the result object on stdout instead of the table
    proofkit bench --only fit,rows  # some sections (fit, precision, namespace, crasp, rows, drops, stages,
                                    # targets)
    proofkit bench --render benchmarks/results/FILE.json   # regenerate this page from a stored result
"""


def cell(value: Any) -> str:
    """Text for a table cell: one line, pipes escaped."""
    return " ".join(str(value).split()).replace("|", "\\|")


def md_table(header: list[str], body: list[list[Any]]) -> list[str]:
    """A GitHub-flavoured Markdown table."""
    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in body]
    return lines + [""]


def prose(module: ModuleType) -> tuple[str, str]:
    """A module docstring as Markdown (reST literals and roles become code spans): its first line (the
    heading) and the rest."""
    text = (module.__doc__ or "").strip()
    text = re.sub(r":(?:func|class|data|mod|meth):`~?([^`]+)`", r"`\1`", text).replace("``", "`")
    head, _, body = text.partition("\n")
    return head.rstrip("."), body.strip()


def _s(v: Any) -> str:
    return "" if v is None else table.fmt_number(float(v), "s")


def _num(v: Any) -> str:
    if v is None:
        return ""
    return v if isinstance(v, str) else table.fmt_number(float(v), "abs")


def _fit(d: dict[str, Any]) -> list[str]:
    body = []
    for tid, e in d.items():
        pk, lp = e["proofkit"], e["loop"]
        body.append([tid, e["error"], _s(pk["time_to_target_s"]), pk["restarts"], _num(pk["error_f64"]),
                     _s(pk["polish_s"]), _num(pk["best_error"]), lp["steps"], f"{lp['steps_per_s'] or 0:.0f}",
                     _s(lp["time_to_target_s"]) or f"not in {lp['budget_s']:g} s", _num(lp["best_error"]),
                     _s(lp["time_to_best_s"])])
    lines = md_table(["theorem", "identification error", "proofkit to 1e-6", "restarts", "float64 error",
                      "polish", "polished error", "loop steps", "steps/s", "loop to 1e-6", "loop best",
                      "loop time to best"], body)
    grid = [[tid, f"{g['lr']:g}", f"{g['weight_decay']:g}", _s(g["time_to_target_s"]) or
             f"not in {e['tuned']['budget_s']:g} s", g["steps"], _num(g["best_error"])]
            for tid, e in d.items() if "tuned" in e for g in e["tuned"]["grid"]]
    if grid:
        lines += md_table(["theorem", "AdamW lr", "weight decay", "to 1e-6", "steps", "best error"], grid)
    grads = [[tid, _s(e["gradient"]["vjp_s"]), _s(e["gradient"]["jacobian_contracted_s"])]
             for tid, e in d.items() if "gradient" in e]
    if grads:
        lines += md_table(["theorem", "gradient: backward pass (256 sequences)",
                           "gradient: per-sample Jacobian contracted"], grads)
    return lines


def _precision(d: dict[str, Any]) -> list[str]:
    body = [[tid, e["family"], e["n_params"], e["residuals"], _s(e["warm_start_s"]), _s(e["polish_s"]),
             _s(e["certify_s"]), _s(e["mp_evaluation_s"]), _num(e["residual_f64"]),
             e["residual_polished"], e["certified_bound"]] for tid, e in d.items()]
    return md_table(["theorem", "family", "params", "residuals", "float64 warm start", "mpmath polish",
                     "flint certification", "mpmath evaluation", "float64 residual", "polished residual",
                     "certified bound"], body)


def _backend(v: Any) -> str:
    return "n/a" if isinstance(v, str) else _s(v["seconds"])


def _namespace(d: dict[str, Any]) -> list[str]:
    lines = [f"Device: {cell(d['device'])}.", ""]
    if "forward_skipped" in d:
        lines += [f"Forward passes and screen not run: {cell(d['forward_skipped'])}.", ""]
    forward = [[e["theorem"], e["family"], e["length"], f"{e['samples']:.0e}", _backend(e["numpy"]),
                _backend(e["cupy"]), "" if isinstance(e["cupy"], str) else _s(e["cupy"]["transfer_s"])]
               for e in d["forward"]]
    lines += md_table(["theorem", "family", "length", "samples", "numpy", "CuPy", "CuPy transfer"], forward)
    screen = [[e["theorem"], e["family"], f"1..{e['lengths']}", f"{e['samples']:.0e}", _backend(e["numpy"]),
               _backend(e["cupy"]), _num(e["numpy"]["max_gap"])] for e in d.get("screen", [])]
    if screen:
        lines += md_table(["screen", "learner", "lengths", "samples", "numpy", "CuPy", "max relative gap"],
                          screen)
    exhaustive = [[e["program"], e["n"], e["accepted_expected"], _backend(e["numpy"]), _backend(e["cupy"])]
                  for e in d["exhaustive"]]
    lines += md_table(["program", "n", "prefixes accepted (checked)", "numpy", "CuPy"], exhaustive)
    return lines


def _crasp(d: dict[str, Any]) -> list[str]:
    body = [[name, e["strings"], e["prefixes"], _s(e["vectorized_s"]), _s(e["floor_s"]),
             _s(e["reference_s_extrapolated"]), e["reference_samples"]]
            for name, e in d.items() if name not in ("n", "copy_bandwidth_gb_s")]
    return md_table(["program", "strings", "prefixes", "vectorized", "hand-vectorized floor",
                     "reference (extrapolated)", "reference sample"], body)


def _rows(d: dict[str, Any]) -> list[str]:
    body = [[name, 2 * e["N"], e["strings"], e["rows"], e["bound"], _s(e["seconds"]),
             f"{e['ns_per_string']:.0f}"] for name in d for e in d[name]["table"]]
    trends = ", ".join(f"{name} {d[name]['trend'] or 'n/a'}" for name in d)
    return md_table(["program", "2N", "strings", "rows", "bound", "time", "ns/string"], body) + [
        f"Growth labels of `comm.trend` over these N: {trends}.", ""]


def _stages(d: dict[str, Any]) -> list[str]:
    keys = list(dict.fromkeys(k for e in d["check"].values() for k in e["stages_s"]))
    body = [[tid, e["verdict"], _s(e["wall_s"]), *[_s(e["stages_s"].get(k)) for k in keys]]
            for tid, e in d["check"].items()]
    lines = md_table(["theorem", "verdict", "wall", *keys], body) if body else []
    return lines + md_table(["import", "seconds"], [[k, _s(v)] for k, v in d["import_s"].items()])


def _drops(d: dict[str, Any]) -> list[str]:
    body = [[e["theorem"], e["assumption"], e["old"], _s(e["old_s"]), e["new"], _s(e["new_s"]),
             f"{e['searched']} of {e['settings']}" if e["settings"] else "", e["setting"]]
            for e in d["drops"]]
    return md_table(["theorem", "dropped", "before", "time", "now", "time", "settings searched numerically",
                     "where found / searched first"], body)


def _targets(d: dict[str, Any]) -> list[str]:
    body = [[t["target"], _num(t["measured"]) if t["measured"] is not None else "n/a", t["goal"],
             {True: "met", False: "not met", None: "not run"}[t["met"]], t["note"]] for t in d["targets"]]
    lines = md_table(["target", "measured", "goal", "", "where the time goes / why"], body)
    for key in ("serial", "parallel"):
        if d.get(key):
            e = d[key]
            lines.append(f"check --all -j {e['jobs']}: {e['wall_s']:.1f} s wall, {e['peak_mb']:.0f} MB peak, "
                         f"exit {e['exit']}, {e['theorems']} theorems.")
    return lines + [""]


DETAILS = {"fit": _fit, "precision": _precision, "namespace": _namespace, "crasp": _crasp, "rows": _rows,
           "drops": _drops, "stages": _stages, "targets": _targets}


def _machine(m: dict[str, Any]) -> list[str]:
    pk = ", ".join(f"{k} {v}" for k, v in m["packages"].items())
    blas = ", ".join(f"{k}={v}" for k, v in m["blas"].items())
    git = m["git"]
    commit = "n/a" if not git.get("commit") else git["commit"][:12] + (" (uncommitted changes)"
                                                                       if git.get("dirty") else "")
    return md_table(["", ""], [["CPU", f"{m['cpus']} x {m['cpu']} ({m['cpus_usable']} usable)"],
                               ["memory", f"{m['memory_gib']} GiB"], ["OS", m["os"]],
                               ["Python", m["python"]], ["packages", pk], ["BLAS", blas],
                               ["GPU", m["gpu"]], ["git commit", commit],
                               ["load average (1, 5, 15 min)",
                                f"start {m.get('load_average_start')}, end {m.get('load_average_end')}"]])


def render(result: dict[str, Any], source: str) -> str:
    """The page for ``result``, read from ``source`` (its path, as the page names it)."""
    rows_, notes = table.cells(result)
    lines = ["# Benchmarks", "",
             f"Generated by `proofkit bench` from `{source}` (a {result['mode']} run started "
             f"{result['started_utc']}, {result['total_s']:.0f} s in all). Do not edit by hand: a full run "
             "stores a new result under `benchmarks/results/` and regenerates this page.", "",
             "## How to run", "", USAGE,
             "Every ratio compares two figures measured in the same run on the same machine. Absolute "
             "times on a shared machine are noisy (the load average is recorded); the ratios are the "
             "comparable figures.", "", "## Machine", "", *_machine(result["machine"]),
             "## Ratios", "", "B / A as the meaning column says; ≥ marks a lower bound (a loop that did not "
             "reach its target within its budget).", "", *md_table(list(table.HEADER), rows_)]
    if notes:
        lines += [f"- [{i}] {cell(n)}" for i, n in enumerate(notes, 1)]
        lines.append("")
    if "targets" in result["details"]:
        lines += ["## Targets", "", "Goals that are a time or a size (the ratio goals are in the table "
                  "above).", "", *_targets(result["details"]["targets"])]
    lines += ["## Method", ""]
    for module in METHODS:
        head, body = prose(module)
        lines += [f"### {head}", "", body, ""]
    lines += ["## Details", ""]
    for name, details in result["details"].items():
        if name in DETAILS and name != "targets":
            lines += [f"### {TITLES[name]}", "", *DETAILS[name](details)]
    return "\n".join(lines).rstrip() + "\n"


def source_name(path: Path, root: Path | None) -> str:
    """How the page names the result file: relative to the source tree when inside it."""
    try:
        return str(path.resolve().relative_to(root.resolve())) if root else path.name
    except ValueError:
        return path.name
