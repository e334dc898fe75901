"""Figures for ``proofkit report --figures --out DIR`` (matplotlib, the optional ``plot`` extra, imported
only here and only when asked for): where a reader would rather look than read a table.

- ``threshold_scans``: verdict status per training length T for AM24 theorems (Theorem 4 with
  k~ = n = 2 and with an over-parametrized k~ = 3, Theorem 1 with a readout bias), check only, at 60
  digits, seed 0: the smallest T from which every scanned value holds.
- ``rows_vs_bound``: exact one-way row counts of library C-RASP programs against the program-level form
  of Theorem 12's bound (``proofkit.crasp.communication.comm``), N = 1..8.
- ``residual_vs_precision``: the training residual the fit of AM24.T4 reaches at 30..120 digits,
  against the fit's tolerance at each precision.

Each figure is a PNG with its data as JSON beside it (same name). Everything is seeded and computed
fresh (about 30 s in all on one core); the PNG is written without the matplotlib version in its
metadata, so the same data and library give the same bytes. A theorem or program that is not
registered here is left out of its figure, and the JSON says so.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mpmath as mp

from ..errors import InputError
from ..language import registry
from ..language.tolerances import MIN_DPS
from ..runtime import progress
from ..storage import atomic
from .bib import theorem_folder

HINT = 'matplotlib, the plot extra: pip install "proofkit[plot]"'
SCANS = (("AM24.T4", {}, "AM24.T4, k~ = n = 2"), ("AM24.T4", {"learned_dim": 3}, "AM24.T4, k~ = 3"),
         ("AM24.T1", {"readout_bias": True}, "AM24.T1, readout bias"))
SCAN_VALUES = (1, 2, 3)
ROW_PROGRAMS = ("majority.crasp", "dyck1.crasp", "anbn.crasp")
ROW_SPLITS = tuple(range(1, 9))
RESIDUAL_DPS = (30, 45, 60, 90, 120)
_STATUS_COLOR = {"holds": "#2e7d32", "refuted": "#c62828", "inconclusive": "#9e9e9e"}


def require_matplotlib() -> None:
    """Bad input naming the extra when matplotlib is not installed (checked before any work starts)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError("--figures", HINT, "matplotlib not installed") from None


def scan_data(jobs: int = 1) -> dict[str, Any]:
    """Status per T of each scan in SCANS (check only), and its threshold."""
    from ..engine.scan import scan

    thms = registry.load_all()
    out: dict[str, Any] = {"param": "T", "values": list(SCAN_VALUES), "dps": MIN_DPS, "seed": 0, "scans": [],
                           "missing": []}
    for tid, base, label in SCANS:
        if tid not in thms:
            out["missing"].append(tid)
            continue
        progress.stage(f"figures: scan {label}")
        res = scan(thms[tid], "T", list(SCAN_VALUES), base, dps=MIN_DPS, seed=0, search=False, jobs=jobs)
        out["scans"].append({"theorem": tid, "overrides": base, "label": label, "threshold": res.threshold,
                             "status": [r.status for r in res.rows],
                             "check_verdict": [r.check_verdict for r in res.rows]})
    return out


def rows_data() -> dict[str, Any]:
    """rows(N) and the program-level bound for each of ROW_PROGRAMS (from HYB24.T12's program library)."""
    from ..crasp.communication import comm
    from ..crasp.semantics.vector import accepts_prefixes
    from ..crasp.tasks.library import load_index

    out: dict[str, Any] = {"N": list(ROW_SPLITS), "programs": [], "missing": []}
    folder = theorem_folder("HYB24.T12") if "HYB24.T12" in registry.load_all() else None
    if folder is None or not (folder / "programs" / "index.json").is_file():
        out["missing"] = list(ROW_PROGRAMS)
        return out
    entries = {e.file: e for e in load_index(folder / "programs")[0]}
    for name in ROW_PROGRAMS:
        if name not in entries:
            out["missing"].append(name)
            continue
        prog = entries[name].program
        progress.stage(f"figures: rows of {name}")
        table = comm.rows_table(lambda X, p=prog: accepts_prefixes(p, X), len(prog.alphabet), ROW_SPLITS,
                                bound=lambda N, p=prog: comm.program_bound_for_ops(p.ops, N))
        out["programs"].append({"program": name, "rows": [t["rows"] for t in table],
                                "bound": [t["bound"] for t in table]})
    return out


def residual_data() -> dict[str, Any]:
    """The training residual of AM24.T4's fit (seed 0) at each of RESIDUAL_DPS, and its tolerance."""
    from ..engine.fit import default_tol, fit
    from ..engine.problem import build_problem

    out: dict[str, Any] = {"theorem": "AM24.T4", "seed": 0, "dps": [], "log10_residual": [], "log10_tol": [],
                           "converged": [], "missing": []}
    thm = registry.load_all().get("AM24.T4")
    if thm is None:
        out["missing"] = ["AM24.T4"]
        return out
    params = thm.params.resolve({})
    for dps in RESIDUAL_DPS:
        progress.stage(f"figures: fit of AM24.T4 at {dps} digits")
        with mp.workdps(dps):
            res = fit(build_problem(thm, params, seed=0, dps=dps), dps=dps, seed=0)
            out["dps"].append(dps)
            r = res.residual
            log_r = None if r is None else round(float(mp.log10(r)) if r > 0 else -dps, 3)
            out["log10_residual"].append(log_r)
            out["log10_tol"].append(round(float(mp.log10(default_tol(dps))), 3))
            out["converged"].append(res.converged)
    return out


def _draw_scans(fig: Any, data: dict[str, Any]) -> None:
    ax = fig.add_subplot()
    for i, s in enumerate(data["scans"]):
        for T, status in zip(data["values"], s["status"]):
            ax.scatter([T], [i], marker="s", s=1800, color=_STATUS_COLOR[status])
            ax.annotate(status, (T, i), ha="center", va="center", fontsize=6, color="white")
    ax.set_yticks(range(len(data["scans"])),
                  [f"{s['label']} (threshold {s['threshold']})" for s in data["scans"]])
    ax.set_xticks(data["values"])
    ax.set_xlim(min(data["values"]) - 0.6, max(data["values"]) + 0.6)
    ax.set_ylim(-0.6, len(data["scans"]) - 0.4)
    ax.set_xlabel("training length T")
    ax.set_title(f"Threshold scans (check only, {data['dps']} digits, seed {data['seed']})")


def _draw_rows(fig: Any, data: dict[str, Any]) -> None:
    ax = fig.add_subplot()
    for i, p in enumerate(data["programs"]):
        color = f"C{i}"
        ax.plot(data["N"], p["rows"], "o-", color=color, label=f"{p['program']}: rows")
        ax.plot(data["N"], p["bound"], "--", color=color, label=f"{p['program']}: bound")
    ax.set_yscale("log", base=2)
    ax.set_xlabel("split N (strings of length 2N)")
    ax.set_ylabel("one-way rows")
    ax.set_title("Row counts vs the program-level Theorem-12 bound")
    ax.legend(fontsize=7)


def _draw_residual(fig: Any, data: dict[str, Any]) -> None:
    ax = fig.add_subplot()
    ax.plot(data["dps"], data["log10_residual"], "o-", label="training residual of the fit")
    ax.plot(data["dps"], data["log10_tol"], "--", label="fit tolerance 10^(-3 dps / 4)")
    ax.plot(data["dps"], [-d for d in data["dps"]], ":", label="10^-dps")
    ax.set_xlabel("working precision (decimal digits)")
    ax.set_ylabel("log10")
    ax.set_title(f"{data['theorem']}: residual vs precision (seed {data['seed']})")
    ax.legend(fontsize=7)


Drawing = Callable[[Any, dict[str, Any]], None]


def _save(out: Path, name: str, data: dict[str, Any], draw: Drawing) -> list[Path]:
    """``name.json`` and ``name.png`` under ``out``, both atomically; the PNG without version metadata."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4), dpi=100, layout="constrained")
    draw(fig, data)
    png = io.BytesIO()
    fig.savefig(png, format="png", metadata={"Software": None})
    text = json.dumps(data, sort_keys=True, indent=1) + "\n"
    return [atomic.write_file(out / f"{name}.json", text, "--out"),
            atomic.write_file(out / f"{name}.png", png.getvalue(), "--out")]


#: figure name -> (data, drawing); the data functions take the number of worker processes when they scan
FIGURES: dict[str, tuple[Callable[[int], dict[str, Any]], Drawing]] = {
    "threshold_scans": (scan_data, _draw_scans),
    "rows_vs_bound": (lambda jobs: rows_data(), _draw_rows),
    "residual_vs_precision": (lambda jobs: residual_data(), _draw_residual),
}


def write_all(out: Path, jobs: int = 1) -> list[Path]:
    """Every figure and its data under ``out`` (which must exist); the paths written."""
    require_matplotlib()
    written = []
    for name, (data, draw) in FIGURES.items():
        written += _save(out, name, data(jobs), draw)
    return written


def draw(name: str, data: dict[str, Any], out: Path) -> list[Path]:
    """One figure from data already computed (e.g. a stored ``name.json``)."""
    require_matplotlib()
    return _save(out, name, data, FIGURES[name][1])
